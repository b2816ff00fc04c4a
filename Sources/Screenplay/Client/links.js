// Which clicks and form submissions are moves between screens that navigation.js takes in place, and to which URL:
// same-origin pages, not the wire's own paths, files, jumps within the page, or what the user asked the browser to
// open elsewhere (a modified click, a target, a download).
import { PATHS } from "./wire.js";
import { pathPrefixPattern } from "./actions.js";

const WIRE_PATHS = Object.values(PATHS).map((template) => pathPrefixPattern(template, true));

// The link a click or a pointer is on, when following it in place is this module's business; null otherwise.
export function screenLink(event, win) {
  const start = event.target;
  const anchor = start && start.closest ? start.closest("a[href]") : null;
  if (!anchor || anchor.closest("[data-navigation=reload]")) return null;
  if (anchor.hasAttribute("download")) return null;
  const target = anchor.getAttribute("target");
  if (target && target !== "_self") return null;
  if (/(^|\s)external(\s|$)/.test(anchor.getAttribute("rel") || "")) return null;
  let url;
  try { url = new win.URL(anchor.href, win.location.href); } catch (error) { return null; }
  if (url.origin !== win.location.origin || !/^https?:$/.test(url.protocol)) return null;
  // A jump within the page (#section) is the browser's.
  if (url.hash && url.pathname === win.location.pathname && url.search === win.location.search) return null;
  // A file (an image, a download) rather than a page.
  const last = url.pathname.split("/").pop();
  if (/\.[A-Za-z0-9]+$/.test(last) && !/\.html?$/i.test(last)) return null;
  if (WIRE_PATHS.some((pattern) => pattern.test(url.pathname))) return null;
  return url;
}

// The URL a GET form's submission goes to, when it is a move in place (as screenLink answers for a link); null
// otherwise (a POST, another origin or target, a form marked data-navigation="reload").
export function formTarget(event, win) {
  const form = event.target, submitter = event.submitter || null;
  if (!form || form.tagName !== "FORM" || event.defaultPrevented || form.closest("[data-navigation=reload]")) {
    return null;
  }
  const method = (submitter && submitter.getAttribute("formmethod")) || form.getAttribute("method") || "get";
  const target = (submitter && submitter.getAttribute("formtarget")) || form.getAttribute("target");
  if (method.toLowerCase() !== "get" || (target && target !== "_self")) return null;
  const action = (submitter && submitter.getAttribute("formaction")) || form.getAttribute("action") || "";
  let url;
  try { url = new win.URL(action, win.location.href); } catch (error) { return null; }
  if (url.origin !== win.location.origin || WIRE_PATHS.some((pattern) => pattern.test(url.pathname))) return null;
  const fields = new win.FormData(form);
  if (submitter && submitter.name) fields.append(submitter.name, submitter.value);
  url.search = new win.URLSearchParams(fields).toString();
  url.hash = "";
  return url;
}

// Whether a click is a plain one: a modified or middle click opens a tab or a window, which is the browser's.
export function isPlainClick(event) {
  return !event.defaultPrevented && (event.button === undefined || event.button === 0) &&
    !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
