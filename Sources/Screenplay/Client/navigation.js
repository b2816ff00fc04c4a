// Live navigation: moving between screens in place, over the tab's one stream. A click on a same-origin link, the
// server's `navigate` event and Back/Forward fetch the next screen's page (a plain GET, as the browser would),
// swap the document's content and <html> attributes, update the title and the history, and hand over to the new
// screen (the caller closes the old one and attaches the new one to the stream it already has). What is not a
// screen page of this client (another origin, a download, an error page, another client version) is left to the
// browser, as a full load.
//
// Each history entry of ours carries `{screenplay: {key, back}}` in history.state: `key` names the entry's
// snapshot in sessionStorage (its scroll positions, window and nested containers, and the fields the user changed
// and did not save), taken when the page leaves the entry and restored when Back or Forward returns to it; `back`
// is the URL of the entry before it when this page pushed it, so that a navigation to that URL (the page's own
// Back) is `history.back()` rather than a new entry.
import { ATTRIBUTES, VERSION } from "./wire.js";
import { formTarget, isPlainClick, screenLink } from "./links.js";
import { restoreSnapshot, takeSnapshot } from "./snapshot.js";

// How long a pointer rests on a link before its page is prefetched, and how long a prefetched page is kept.
export const PREFETCH_DELAY_MS = 100;
export const PREFETCH_KEEP_MS = 15000;
// How many entries' snapshots sessionStorage keeps (the oldest go first).
export const SNAPSHOTS_KEPT = 50;

const SNAPSHOT_PREFIX = "screenplay-entry-";
const SNAPSHOT_INDEX = "screenplay-entries";
// <html> attributes the client itself writes: a swap keeps them.
const CLIENT_ATTRIBUTES = [ATTRIBUTES.connection, ATTRIBUTES.streamOwner, ATTRIBUTES.navigating];

// `win` the window (or a test's); `fetch` as the window's; `leave({screen, csrf})` ends the old screen (close it);
// `arrive()` the page now names another screen on <html> (attach it); `discard({screen, csrf})` a prefetched page
// that was not used (close its screen); `typed()` the values of the fields the user changed; `storage`
// sessionStorage; `fully(url, mode)` leaves the move to the browser (a full load; a reload for a pop).
export function createNavigation({ win, fetch, leave, arrive, discard = leave, typed = () => ({}), storage,
  timers = globalThis, prefetchDelay = PREFETCH_DELAY_MS, prefetchKeep = PREFETCH_KEEP_MS, fully = null }) {
  const doc = win.document, root = doc.documentElement, history = win.history;
  let visits = 0;                 // the latest visit's number: an older one that answers late is dropped
  let current = null;             // this entry's key
  const prefetched = new Map();   // by URL: {promise, timer}
  let hover = null;               // {url, timer}: a pointer resting on a link

  function newKey() {
    return Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
  }

  const ours = (state) => (state && typeof state === "object" && state.screenplay) || null;
  const here = () => win.location.pathname + win.location.search;

  // The document's own entry becomes ours (history.state keeps what was there), with the browser's scrolling off.
  function start() {
    const state = ours(history.state);
    current = state ? state.key : newKey();
    if (!state) replaceState({ key: current }, win.location.href);
    try { history.scrollRestoration = "manual"; } catch (error) { /* not supported */ }
    // Back or Forward to this entry by a full load (the entry's page had gone), or a reload: its snapshot too.
    const timing = win.performance && win.performance.getEntriesByType
      ? win.performance.getEntriesByType("navigation")[0] : null;
    if (state && timing && (timing.type === "back_forward" || timing.type === "reload")) {
      restoreSnapshot(doc, readSnapshot(current));
    }
  }

  function replaceState(screenplay, url) {
    const state = history.state && typeof history.state === "object" ? history.state : {};
    try { history.replaceState({ ...state, screenplay }, "", url); } catch (error) { /* a sandboxed page */ }
  }

  // MARK: Snapshots

  function readSnapshot(key) {
    try { return JSON.parse(storage.getItem(SNAPSHOT_PREFIX + key)); } catch (error) { return null; }
  }

  function saveSnapshot() {
    if (!current || !storage) return;
    try {
      storage.setItem(SNAPSHOT_PREFIX + current, JSON.stringify(takeSnapshot(doc, typed)));
      const keys = (JSON.parse(storage.getItem(SNAPSHOT_INDEX)) || []).filter((key) => key !== current);
      keys.push(current);
      while (keys.length > SNAPSHOTS_KEPT) storage.removeItem(SNAPSHOT_PREFIX + keys.shift());
      storage.setItem(SNAPSHOT_INDEX, JSON.stringify(keys));
    } catch (error) { /* storage full or refused: Back shows the screen as the server renders it */ }
  }

  // MARK: Loading a page

  // The page at `url` (or in `response`, a fetch already answered), when it is a screen page this client can
  // take in place: {page, url}; null otherwise.
  async function load(url, response) {
    const answer = response || await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
    const type = answer.headers.get("Content-Type") || "";
    if (!/^text\/html/i.test(type)) return null;
    const final = new win.URL(answer.url || url, win.location.href);
    if (final.origin !== win.location.origin) return null;
    const page = new win.DOMParser().parseFromString(await answer.text(), "text/html");
    const next = page.documentElement;
    if (next.getAttribute(ATTRIBUTES.wire) !== String(VERSION) || !next.getAttribute(ATTRIBUTES.screen)) return null;
    return { page, url: final.pathname + final.search + (final.hash || new win.URL(url, win.location.href).hash) };
  }

  // Whether the page loads the same client and stylesheets as this one (else a full load brings them).
  function sameAssets(page) {
    const assets = (d) => Array.from(d.head ? d.head.querySelectorAll("script[src], link[rel~=stylesheet]") : [])
      .map((node) => node.getAttribute("src") || node.getAttribute("href")).join(" ");
    return page.documentElement.getAttribute(ATTRIBUTES.client) === root.getAttribute(ATTRIBUTES.client) &&
      assets(page) === assets(doc);
  }

  const screenOf = (node) => ({ screen: node.getAttribute(ATTRIBUTES.screen),
    csrf: node.getAttribute(ATTRIBUTES.csrf) });

  // MARK: Swapping

  function swap(page) {
    const next = page.documentElement, title = page.title;
    for (const { name } of Array.from(root.attributes)) {
      if (!CLIENT_ATTRIBUTES.includes(name) && !next.hasAttribute(name)) root.removeAttribute(name);
    }
    for (const { name, value } of Array.from(next.attributes)) {
      if (!CLIENT_ATTRIBUTES.includes(name) && root.getAttribute(name) !== value) root.setAttribute(name, value);
    }
    // The head: the same client and stylesheets stay; the rest (title, meta) is the new page's.
    const kept = (node) => node.matches("script[src], link[rel~=stylesheet]");
    for (const node of Array.from(doc.head.children)) if (!kept(node)) node.remove();
    for (const node of Array.from(page.head.children)) if (!kept(node)) doc.head.appendChild(doc.adoptNode(node));
    // The live region stays the same node, so that screen readers hear what it says next.
    const body = doc.adoptNode(page.body);
    const region = doc.querySelector("[data-announcer]"), incoming = body.querySelector("[data-announcer]");
    if (region && incoming) { region.textContent = ""; incoming.replaceWith(region); }
    doc.body.replaceWith(body);
    doc.title = title;
  }

  // After a navigation: focus on the new screen's main heading (or <main>), and the live region names it.
  function focusAndAnnounce() {
    const target = doc.querySelector("main h1, [role=main] h1") || doc.querySelector("h1") ||
      doc.querySelector("main, [role=main]");
    if (target) {
      if (!target.hasAttribute("tabindex") && !target.matches("a[href], button, input, select, textarea")) {
        target.setAttribute("tabindex", "-1");
      }
      target.focus({ preventScroll: true });
    }
    const region = doc.querySelector("[data-announcer]");
    // A moment later, so that the region's change is heard as one after the page's.
    if (region) timers.setTimeout(() => { region.textContent = doc.title; }, 50);
  }

  function scrollToStart(url) {
    const hash = new win.URL(url, win.location.href).hash;
    const anchor = hash && doc.getElementById(decodeURIComponent(hash.slice(1)));
    if (anchor && anchor.scrollIntoView) anchor.scrollIntoView();
    else if (win.scrollTo) win.scrollTo(0, 0);
  }

  // Moves to `url`: `mode` push (a link, a push), replace, or pop (Back/Forward: the entry is already current,
  // with `key`). `response` a fetch of it already answered. Answers a promise of whether the page moved in place.
  async function visit(url, { mode = "push", response = null, key = null } = {}) {
    const number = ++visits;
    // A move to the URL the page shows replaces its entry, as the browser's own navigation does.
    if (mode === "push" && sameURL(url, here())) mode = "replace";
    cancelHover();
    root.setAttribute(ATTRIBUTES.navigating, "");
    let loaded = null;
    try {
      const waiting = response ? null : takePrefetch(url);
      loaded = waiting ? await waiting : await load(url, response);
      if (loaded && waiting && !sameAssets(loaded.page)) loaded = null;
    } catch (error) { loaded = null; }
    if (number !== visits) {
      // A later visit took over: this page's screen is never shown.
      if (loaded) discard(screenOf(loaded.page.documentElement));
      return false;
    }
    root.removeAttribute(ATTRIBUTES.navigating);
    if (!loaded || !sameAssets(loaded.page)) {
      if (loaded) discard(screenOf(loaded.page.documentElement));
      if (fully) fully(url, mode);
      else if (mode === "pop") win.location.reload();
      else if (mode === "replace") win.location.replace(url);
      else win.location.assign(url);
      return false;
    }
    saveSnapshot();
    const old = screenOf(root);
    const from = here() + win.location.hash;
    swap(loaded.page);
    if (mode === "push") {
      current = newKey();
      try { history.pushState({ screenplay: { key: current, back: from } }, "", loaded.url); } catch (error) { }
    } else if (mode === "replace") {
      const state = ours(history.state) || {};
      current = newKey();
      replaceState({ key: current, back: state.back }, loaded.url);
    } else {
      current = key || newKey();
      if (!key) replaceState({ key: current }, win.location.href);
    }
    if (old.screen && old.screen !== root.getAttribute(ATTRIBUTES.screen)) leave(old);
    arrive();
    focusAndAnnounce();
    if (mode === "pop") restoreSnapshot(doc, readSnapshot(current));
    else scrollToStart(loaded.url);
    return true;
  }

  // The server (or an action's answer) sends the page to `url`: a Back when `url` is the entry just behind this one
  // and this page pushed it, else a new entry.
  function navigate(url, response = null) {
    const state = ours(history.state);
    if (state && state.back && !response && sameURL(state.back, url)) {
      history.back();
      return Promise.resolve(true);
    }
    return visit(url, { mode: "push", response });
  }

  function sameURL(a, b) {
    const left = new win.URL(a, win.location.href), right = new win.URL(b, win.location.href);
    return left.origin === right.origin && left.pathname === right.pathname && left.search === right.search;
  }

  // MARK: The browser's events

  function click(event) {
    if (!isPlainClick(event)) return false;
    const url = screenLink(event, win);
    if (!url) return false;
    event.preventDefault();
    visit(url.pathname + url.search + url.hash);
    return true;
  }

  // A GET form (a search) moves in place, as a link to its URL does.
  function submit(event) {
    const url = formTarget(event, win);
    if (!url) return false;
    event.preventDefault();
    visit(url.pathname + url.search);
    return true;
  }

  function popstate(event) {
    const state = ours(event.state);
    // A move between fragments of this same screen (or between two entries of its URL) is the browser's.
    if (here() === (root.getAttribute(ATTRIBUTES.screenURL) || here())) {
      if (state) current = state.key;
      return false;
    }
    // Leaving this entry: what it shows is kept for its key, which history.state no longer names.
    visit(here() + win.location.hash, { mode: "pop", key: state ? state.key : null });
    return true;
  }

  // The page goes (closed, reloaded, another site): its entry's snapshot is kept for a Back to it.
  function pagehide() {
    saveSnapshot();
    for (const url of Array.from(prefetched.keys())) dropPrefetch(url);
  }

  // MARK: Prefetch

  function prefetch(url) {
    if (prefetched.has(url)) return prefetched.get(url).promise;
    const promise = load(url).catch(() => null);
    const entry = { promise, timer: timers.setTimeout(() => dropPrefetch(url), prefetchKeep) };
    prefetched.set(url, entry);
    return promise;
  }

  // A prefetch of `url`, now the caller's; null when there is none.
  function takePrefetch(url) {
    const entry = prefetched.get(url);
    if (!entry) return null;
    prefetched.delete(url);
    timers.clearTimeout(entry.timer);
    return entry.promise;
  }

  function dropPrefetch(url) {
    const promise = takePrefetch(url);
    if (promise) promise.then((loaded) => { if (loaded) discard(screenOf(loaded.page.documentElement)); });
  }

  function cancelHover() {
    if (hover) timers.clearTimeout(hover.timer);
    hover = null;
  }

  // A pointer (or a finger) came onto a link: after it rests there a moment, its page is fetched ahead.
  function pointerOn(event) {
    const url = screenLink(event, win);
    if (!url) return;
    const key = url.pathname + url.search + url.hash;
    if (key === here() || (hover && hover.url === key) || prefetched.has(key)) return;
    cancelHover();
    hover = { url: key, timer: timers.setTimeout(() => { hover = null; prefetch(key); }, prefetchDelay) };
  }

  function pointerOff(event) {
    if (!hover) return;
    const url = screenLink(event, win);
    const into = event.relatedTarget && event.relatedTarget.closest && event.relatedTarget.closest("a[href]");
    if (url && url.pathname + url.search + url.hash === hover.url && !(into && into.contains(event.target))) {
      cancelHover();
    }
  }

  function listen() {
    doc.addEventListener("click", click);
    doc.addEventListener("submit", submit);
    win.addEventListener("popstate", popstate);
    doc.addEventListener("mouseover", pointerOn, { passive: true });
    doc.addEventListener("touchstart", pointerOn, { passive: true });
    doc.addEventListener("mouseout", pointerOff, { passive: true });
  }

  return { start, listen, visit, navigate, click, submit, popstate, pagehide, prefetch, pointerOn, pointerOff,
    get key() { return current; }, get prefetched() { return Array.from(prefetched.keys()); } };
}
