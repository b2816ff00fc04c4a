// Windowed tables (TableView with data-window): the server renders the rows of a window between two spacer rows
// that stand for the rows before and after it (their number in data-rows). This module gives the spacers their
// heights (the rows' average, measured) and hides their page links (for pages without this script), tells
// assistive technology each row's place (aria-posinset, aria-setsize), asks the server for the rows around the
// first row the user sees as they scroll (PATHS.rows), keeps that row where it is on the screen when a patch adds or
// removes rows above it, and moves through the rows with Home, End, PageUp and PageDown. The first visible row is
// kept by identity in the history entry and across a reset, so Back, a reconnect or a restart shows that row.
import { FIELDS } from "./wire.js";

const FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";

export function windowedTables(doc) {
  return Array.from(doc.querySelectorAll("[data-table-window]"));
}

function spacer(table, name) {
  return Array.from(table.children).find((child) => child.getAttribute("data-spacer") === name) || null;
}

function rows(table) {
  return Array.from(table.children).filter((child) => !child.hasAttribute("data-spacer"));
}

function count(node) {
  const value = node ? parseInt(node.getAttribute("data-rows"), 10) : 0;
  return Number.isFinite(value) && value > 0 ? value : 0;
}

// A table's window as the page shows it: the spacers, the rows, how many come before and after them, and the rows'
// average height.
export function windowOf(table) {
  const top = spacer(table, "top"), bottom = spacer(table, "bottom"), shown = rows(table);
  // The height each row takes: the rows' span over their number, so rows side by side in a grid count as one line
  // shared (a guess of 40 px before any is laid out).
  let average = 40;
  if (shown.length) {
    const first = shown[0].getBoundingClientRect(), last = shown[shown.length - 1].getBoundingClientRect();
    const span = last.bottom - first.top;
    if (span > 0) average = span / shown.length;
  }
  const before = count(top), after = count(bottom);
  return { top, bottom, rows: shown, before, after, total: before + shown.length + after, average,
    size: parseInt(table.getAttribute("data-table-window"), 10) || 100 };
}

// The element that scrolls the table: its nearest scrolling ancestor, or null for the document.
export function scroller(table) {
  const view = table.ownerDocument.defaultView;
  for (let node = table; node && node.nodeType === 1 && node !== table.ownerDocument.body; node = node.parentNode) {
    const overflow = view.getComputedStyle(node).overflowY;
    if ((overflow === "auto" || overflow === "scroll") && node.scrollHeight > node.clientHeight) return node;
  }
  return null;
}

function viewport(table) {
  const box = scroller(table);
  if (box) { const rect = box.getBoundingClientRect(); return { top: rect.top, bottom: rect.bottom }; }
  return { top: 0, bottom: table.ownerDocument.defaultView.innerHeight };
}

function scrollBy(table, delta) {
  const box = scroller(table);
  if (box) box.scrollTop += delta; else table.ownerDocument.defaultView.scrollBy(0, delta);
}

// Gives the spacers their heights and the rows their places: after every patch, reset and at start.
export function layout(doc) {
  for (const table of windowedTables(doc)) {
    const shown = windowOf(table);
    // The spacers' page links are for pages without this script; here the spacers are only room.
    for (const node of [shown.top, shown.bottom]) {
      if (!node) continue;
      if (node.getAttribute("aria-hidden") !== "true") node.setAttribute("aria-hidden", "true");
      for (const link of node.querySelectorAll("[data-page-link]")) link.hidden = true;
    }
    if (shown.top) shown.top.style.height = Math.round(shown.before * shown.average) + "px";
    if (shown.bottom) shown.bottom.style.height = Math.round(shown.after * shown.average) + "px";
    shown.rows.forEach((row, index) => {
      const place = String(shown.before + index + 1), size = String(shown.total);
      if (row.getAttribute("aria-posinset") !== place) row.setAttribute("aria-posinset", place);
      if (row.getAttribute("aria-setsize") !== size) row.setAttribute("aria-setsize", size);
    });
  }
}

// The first row the user sees, in each windowed table: its key and where it is on the screen.
export function captureAnchors(doc) {
  return windowedTables(doc).map((table) => {
    const { top, bottom } = viewport(table);
    const row = rows(table).find((candidate) => candidate.getBoundingClientRect().bottom > top);
    // Only a row the user sees: in a spacer's room, there is none.
    if (!row || row.getBoundingClientRect().top >= bottom) return null;
    const place = parseInt(row.getAttribute("aria-posinset"), 10) - 1;
    return { table, index: windowedTables(doc).indexOf(table), key: row.getAttribute("data-key"),
      top: row.getBoundingClientRect().top, place: Number.isFinite(place) && place >= 0 ? place : 0 };
  }).filter(Boolean);
}

// Scrolls each table so that the row captured before a patch is where it was on the screen. The table is the
// captured one, or (after a reset swapped the page) the one at the same place among the page's windowed tables.
// Answers the anchors whose rows the page does not have (a reset showed another window).
export function restoreAnchors(doc, anchors) {
  const missing = [];
  for (const anchor of anchors) {
    const table = anchor.table && anchor.table.isConnected ? anchor.table : windowedTables(doc)[anchor.index];
    if (!table || anchor.key === null) continue;
    const row = rows(table).find((candidate) => candidate.getAttribute("data-key") === anchor.key);
    if (!row) { missing.push({ ...anchor, table }); continue; }
    const delta = row.getBoundingClientRect().top - anchor.top;
    if (Math.abs(delta) >= 1) scrollBy(table, delta);
  }
  return missing;
}

// The place (among all rows) of the first row at the top of the viewport, and its key when the page has it.
export function firstVisible(table) {
  const shown = windowOf(table), { top, bottom } = viewport(table);
  const visible = Math.max(1, Math.ceil((bottom - top) / shown.average));
  const topRect = shown.top && shown.top.getBoundingClientRect();
  if (topRect && top < topRect.bottom) {
    return { first: Math.max(0, Math.floor((top - topRect.top) / shown.average)), key: null, visible, shown };
  }
  const index = shown.rows.findIndex((row) => row.getBoundingClientRect().bottom > top);
  if (index >= 0) {
    return { first: shown.before + index, key: shown.rows[index].getAttribute("data-key"), visible, shown };
  }
  const bottomRect = shown.bottom && shown.bottom.getBoundingClientRect();
  const into = bottomRect ? Math.max(0, Math.floor((top - bottomRect.top) / shown.average)) : 0;
  return { first: Math.min(shown.total - 1, shown.before + shown.rows.length + into), key: null, visible, shown };
}

// Whether the rows the user sees run out of the window's rows within `margin` rows (and there are more).
export function needsRows(table) {
  const { first, visible, shown } = firstVisible(table);
  const margin = Math.max(4, Math.floor(shown.size / 8));
  const end = shown.before + shown.rows.length;
  return (shown.before > 0 && first < shown.before + margin) || (shown.after > 0 && first + visible > end - margin);
}

// The windowed tables of a live page: `post(url, fields)` sends a rows request; `rowsURL()` is the screen's.
export function createTables({ doc, post, rowsURL, csrf, timers = globalThis }) {
  const asked = new Map(); // table id → the first row last asked for, while the answer is on its way
  let scheduled = false, focusWanted = null, remembered = 0, rememberLater = false;
  // The first visible rows the page must bring back by identity (after a reset, or from the history entry): each
  // asked for once, and put back where it was on the screen by the patch that brings it.
  let wanted = [];

  function ask(table, first, key) {
    const fields = { [FIELDS.csrf]: csrf(), [FIELDS.table]: table.id, [FIELDS.first]: String(first) };
    if (key !== null) fields[FIELDS.key] = key;
    return Promise.resolve(post(rowsURL(), fields)).catch(() => {});
  }

  function askForWanted() {
    for (const anchor of wanted) {
      if (anchor.asked || !anchor.table.id) continue;
      anchor.asked = true;
      // An answer that changes nothing brings no patch: the row is given up a moment after it.
      ask(anchor.table, anchor.place, anchor.key).then(() => timers.setTimeout(() => {
        if (!wanted.includes(anchor)) return;
        wanted = wanted.filter((other) => other !== anchor);
        schedule();
      }, 1000));
    }
  }

  // Keeps the first visible row of each table in the history entry, so that Back (or a reload) shows that row.
  function remember() {
    const view = doc.defaultView, now = Date.now();
    if (!view || !view.history) return;
    // At most twice a second (browsers limit replaceState), and once more after the last scroll.
    if (now - remembered < 500) {
      if (!rememberLater) {
        rememberLater = true;
        timers.setTimeout(() => { rememberLater = false; remember(); }, 500 - (now - remembered));
      }
      return;
    }
    remembered = now;
    const anchors = captureAnchors(doc).map(({ index, key, top, place }) => ({ index, key, top, place }));
    try {
      view.history.replaceState({ ...(view.history.state || {}), screenplayTables: anchors }, "");
    } catch (error) { /* a history entry that cannot take state: nothing is kept */ }
  }

  function check() {
    scheduled = false;
    remember();
    for (const table of windowedTables(doc)) {
      if (wanted.some((anchor) => anchor.table === table)) continue;
      if (!table.id || !needsRows(table)) continue;
      const { first, key } = firstVisible(table);
      if (asked.get(table.id) === first) continue;
      asked.set(table.id, first);
      ask(table, first, key).then(() => {
        timers.setTimeout(() => { if (asked.get(table.id) === first) asked.delete(table.id); schedule(); }, 250);
      });
    }
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    const view = doc.defaultView;
    if (view && view.requestAnimationFrame) view.requestAnimationFrame(check); else timers.setTimeout(check, 16);
  }

  // Around a patch: the first row the user sees stays where it is; the spacers and places follow the rows.
  function patching(apply) {
    const anchors = captureAnchors(doc);
    const result = apply();
    layout(doc);
    // A row brought back by identity goes where it was; one still missing after its answer is given up.
    const missing = restoreAnchors(doc, anchors);
    const answered = wanted.filter((anchor) => anchor.asked);
    const stillWanted = restoreAnchors(doc, wanted.filter((anchor) => !anchor.asked));
    restoreAnchors(doc, answered);
    // A row asked for by identity supersedes the one the user saw before its patch moved the window.
    wanted = answered.length ? stillWanted : [...stillWanted, ...missing];
    askForWanted();
    asked.clear();
    settleFocus();
    schedule();
    return result;
  }

  function settleFocus() {
    if (!focusWanted) return;
    const { table, which } = focusWanted;
    const shown = windowOf(table);
    const atEdge = which === "first" ? shown.before === 0 : shown.after === 0;
    if (!atEdge || !shown.rows.length) return;
    const row = which === "first" ? shown.rows[0] : shown.rows[shown.rows.length - 1];
    focusWanted = null;
    const target = row.matches(FOCUSABLE) ? row : row.querySelector(FOCUSABLE);
    if (target) target.focus(); else { row.setAttribute("tabindex", "-1"); row.focus(); }
  }

  // Home and End go to the first and last row (asking for them), PageUp and PageDown a screenful.
  function keydown(event) {
    const table = event.target && event.target.closest && event.target.closest("[data-table-window]");
    if (!table || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.matches("input, textarea, select, [contenteditable]")) return;
    const box = scroller(table), view = doc.defaultView;
    const { top, bottom } = viewport(table);
    const rect = table.getBoundingClientRect();
    if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      const delta = event.key === "Home" ? rect.top - top : rect.bottom - bottom;
      if (box) box.scrollTop += delta; else view.scrollBy(0, delta);
      focusWanted = { table, which: event.key === "Home" ? "first" : "last" };
      settleFocus();
      schedule();
    } else if (event.key === "PageDown" || event.key === "PageUp") {
      event.preventDefault();
      const page = (bottom - top) * 0.9 * (event.key === "PageDown" ? 1 : -1);
      if (box) box.scrollTop += page; else view.scrollBy(0, page);
      const shown = rows(table);
      const next = shown.find((row) => row.getBoundingClientRect().top >= top);
      const target = next && (next.matches(FOCUSABLE) ? next : next.querySelector(FOCUSABLE));
      if (target) target.focus({ preventScroll: true });
      schedule();
    }
  }

  function start() {
    layout(doc);
    // Back (or a reload) to this entry: the first visible rows it kept come back, by identity.
    const view = doc.defaultView;
    const kept = view && view.history && view.history.state && view.history.state.screenplayTables;
    // The rows come back by identity here, not by the browser's offset in pixels.
    if (view && view.history && windowedTables(doc).length) {
      try { view.history.scrollRestoration = "manual"; } catch (error) { /* not settable here */ }
    }
    if (Array.isArray(kept)) {
      wanted = restoreAnchors(doc, kept.filter((anchor) => anchor && typeof anchor.key === "string")
        .map((anchor) => ({ ...anchor, table: null })));
      askForWanted();
    }
    // A page opened further down the list (?page=N) shows its first row, not the empty room above it.
    for (const table of windowedTables(doc)) {
      if (Array.isArray(kept) && kept.length) break;
      const shown = windowOf(table);
      if (shown.before > 0 && shown.rows.length && shown.rows[0].scrollIntoView) {
        shown.rows[0].scrollIntoView({ block: "start" });
      }
    }
    for (const table of windowedTables(doc)) table.style.overflowAnchor = "none";
    doc.addEventListener("scroll", schedule, { capture: true, passive: true });
    doc.defaultView.addEventListener("resize", schedule, { passive: true });
    doc.addEventListener("keydown", keydown);
    schedule();
  }

  return { start, patching, check, schedule, keydown };
}
