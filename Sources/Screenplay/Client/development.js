// Development mode (`movies --dev`): the server sends these events to every page when Templates/ or Public/
// change. A template that does not parse is shown over the page, which keeps working, until it is fixed; a changed
// stylesheet is swapped for a fresh copy.
import { EVENTS } from "./wire.js";

export const OVERLAY_ID = "screenplay-dev-error";

// The overlay hangs from <html>, so a reset (which replaces <body>) leaves it alone.
export function showError(doc, error) {
  let overlay = doc.getElementById(OVERLAY_ID);
  if (!overlay) {
    overlay = doc.createElement("div");
    overlay.id = OVERLAY_ID;
    overlay.setAttribute("role", "alert");
    overlay.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;max-height:50vh;" +
      "overflow:auto;margin:0;padding:1rem 1.25rem;background:#2b0b0b;color:#ffd7d7;" +
      "font:14px/1.4 ui-monospace,monospace;white-space:pre-wrap;box-shadow:0 -2px 12px rgba(0,0,0,.4)";
    doc.documentElement.appendChild(overlay);
  }
  const where = error.file ? error.file + (error.line ? ":" + error.line : "") + "\n" : "";
  overlay.textContent = "Template error (the page keeps the last good templates)\n" + where + error.message;
  return overlay;
}

export function hideError(doc) {
  const overlay = doc.getElementById(OVERLAY_ID);
  if (overlay) overlay.remove();
}

// Swaps each stylesheet served at `href` for a fresh copy; the new link loads before the old one goes, so the page
// never shows unstyled. Answers the new links.
export function reloadStylesheet(doc, href, now = Date.now()) {
  const fresh = [];
  for (const link of doc.querySelectorAll('link[rel="stylesheet"]')) {
    const url = new URL(link.href, doc.location ? doc.location.href : doc.baseURI);
    if (url.pathname !== href) continue;
    url.searchParams.set("v", String(now));
    const copy = link.cloneNode();
    copy.href = url.pathname + url.search;
    copy.addEventListener("load", () => link.remove());
    link.after(copy);
    fresh.push(copy);
  }
  return fresh;
}

// Applies a development event; answers whether `name` was one.
export function developmentEvent(doc, name, data) {
  if (name === EVENTS.developmentError) showError(doc, JSON.parse(data));
  else if (name === EVENTS.developmentOK) hideError(doc);
  else if (name === EVENTS.developmentStylesheet) reloadStylesheet(doc, data);
  else return false;
  return true;
}
