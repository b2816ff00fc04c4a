// Screenplay's client, the page's entry module: turns a server-rendered screen into a live one (see the README,
// "The wire protocol"). One event stream per browser, shared by every tab (tabs.js); this tab attaches its screen
// to it (subscription.js), applies patches (patch.js), posts what the user types and does (fields.js,
// actions.js), shows presented screens as modal dialogs (dialog.js), and moves between screens in place
// (navigation.js). No dependency, no build step: native ES modules served beside this one.
import { ATTRIBUTES, EVENTS, FIELDS, PATHS, VERSION, path } from "./wire.js";
import { announce } from "./announce.js";
import { createCollections } from "./collection.js";
import { createActions, pathPrefixPattern } from "./actions.js";
import { shownConnection } from "./connection.js";
import { developmentEvent } from "./development.js";
import { createDialogs } from "./dialog.js";
import { createFields } from "./fields.js";
import { createNavigation } from "./navigation.js";
import { applyPatch, decodeReset, resetPage } from "./patch.js";
import { openStream } from "./stream.js";
import { createSubscription } from "./subscription.js";
import { createTables } from "./table.js";
import { chooseOwner } from "./tabs.js";
import { createUploads } from "./upload.js";

const root = document.documentElement;
// The page shell links this module by itself; a second copy (an older layout's own <script> tag) does nothing.
const live = !window.screenplayClient && root.getAttribute(ATTRIBUTES.wire) === String(VERSION) &&
  root.getAttribute(ATTRIBUTES.screen) && window.fetch && window.EventSource;
if (live) start();

function start() {
  window.screenplayClient = true;
  const streamsURL = root.getAttribute(ATTRIBUTES.streams) || PATHS.streams;
  const workerURL = new URL("./screenplay-worker.js", import.meta.url).href;
  let navigating = false, owner = null;

  const post = (url, fields) => fetch(url, { method: "POST", body: new URLSearchParams(fields),
    credentials: "same-origin" });

  const fields = createFields({
    doc: document, fetch: (...args) => fetch(...args),
    screen: () => root.getAttribute(ATTRIBUTES.screen),
    csrf: (form) => {
      const token = root.getAttribute(ATTRIBUTES.csrf);
      if (token) return token;
      const input = (form || document).querySelector(`input[name="${FIELDS.csrf}"]`);
      return input ? input.value : "";
    },
  });

  // The server sends the page elsewhere (a push, a redirect after an action): in place, as a link does. It says so
  // twice (the action's answer and the stream): once is heard; a screen the page no longer shows is not.
  let leaving = null;
  function navigate(url, response, from = root.getAttribute(ATTRIBUTES.screen)) {
    const screen = root.getAttribute(ATTRIBUTES.screen);
    if (navigating || (from && from !== screen) || leaving === screen) return;
    leaving = screen;
    actions.endAll();
    return navigation.navigate(url, response);
  }

  // A screen this tab no longer shows (left by a navigation, or a prefetched page never shown) ends now.
  function close({ screen, csrf }) {
    if (!screen || !csrf) return;
    const url = path(PATHS.close, { sid: screen }), body = new URLSearchParams({ [FIELDS.csrf]: csrf });
    if (navigator.sendBeacon && navigator.sendBeacon(url, body)) return;
    fetch(url, { method: "POST", body, credentials: "same-origin", keepalive: true }).catch(() => {});
  }

  const uploads = createUploads({ doc: document, csrf: () => {
    const token = root.getAttribute(ATTRIBUTES.csrf);
    if (token) return token;
    const input = document.querySelector(`input[name="${FIELDS.csrf}"]`);
    return input ? input.value : "";
  } });

  const actions = createActions({ doc: document, fields, fetch: (...args) => fetch(...args), navigate,
    isLive: () => shownConnection(root) === "live", isLeaving: () => navigating });

  // The screen's URL changed in place (a search query): the history entry follows, and so does a later attach.
  function replaceURL(url) {
    try { history.replaceState(history.state, "", url); } catch (error) { return; }
    root.setAttribute(ATTRIBUTES.screenURL, url);
  }

  const tables = createTables({ doc: document, post,
    rowsURL: () => path(PATHS.rows, { sid: root.getAttribute(ATTRIBUTES.screen) }),
    csrf: () => root.getAttribute(ATTRIBUTES.csrf) || "" });

  function patch(operations) {
    const changed = tables.patching(() => applyPatch(document, operations, {
      settle: (control) => fields.settle(control),
      settleFocused: (control, rendered) => fields.settleFocused(control, rendered, !!actions.pendingOf(control.form)),
    }));
    actions.refresh();
    uploads.refresh();
    announce(document, changed);
  }

  function reset(data) {
    const typed = fields.typed();
    tables.patching(() => resetPage(document, decodeReset(data), (on) => fields.setResetting(on)));
    fields.restore(typed);
    actions.refresh();
    uploads.refresh();
  }

  function apply(name, data) {
    if (name === EVENTS.patch) patch(JSON.parse(data));
    else if (name === EVENTS.title) document.title = data;
    else if (name === EVENTS.navigate) navigate(data);
    else if (name === EVENTS.ack) actions.end(data);
    else if (name === EVENTS.url) replaceURL(data);
  }

  const subscription = createSubscription({
    root, post, apply, reset, storage: window.sessionStorage,
    other: (name, data) => navigating || developmentEvent(document, name, data),
    rebuilt: () => actions.endAll(),
    reload: () => { navigating = true; location.reload(); },
  });

  document.addEventListener("input", (event) => fields.input(event.target), true);
  document.addEventListener("change", (event) => {
    if (uploads.isUploadInput(event.target)) uploads.choose(event.target);
    else fields.change(event.target);
  }, true);
  document.addEventListener("click", (event) => uploads.click(event.target), true);
  window.addEventListener("online", () => uploads.online());
  document.addEventListener("focusin", (event) => fields.focusIn(event.target), true);
  document.addEventListener("focusout", (event) => fields.focusOut(event.target), true);
  document.addEventListener("keydown", (event) => fields.enter(event), true);
  document.addEventListener("submit", (event) => actions.submit(event), true);
  tables.start();
  createCollections({ doc: document }).start();
  // Presented view controllers' dialogs, shown modally as they enter the page (dialog.js).
  createDialogs({ doc: document }).start();

  const navigation = createNavigation({
    win: window, fetch: (...args) => fetch(...args), storage: window.sessionStorage,
    typed: () => fields.typed().values,
    leave: (old) => { actions.endAll(); close(old); },
    arrive: () => { fields.forget(); subscription.follow(); actions.refresh(); },
    discard: close,
  });
  navigation.start();
  navigation.listen();

  // A form posted by the browser itself (the script's post failed) comes back as the session's own page,
  // /screens/{sid}: the address bar shows the screen's URL again, which outlives the session.
  const screenURL = root.getAttribute(ATTRIBUTES.screenURL) || location.pathname + location.search;
  if (pathPrefixPattern(PATHS.page, true).test(location.pathname) && /^\/(?!\/)/.test(screenURL) &&
      screenURL !== location.pathname + location.search) {
    replaceURL(screenURL);
  }

  function connect() {
    navigating = false;
    subscription.start();
    const receive = (message) => subscription.receive(message);
    owner = chooseOwner(window, { root, receive, workerURL, streamsURL,
      isStopped: () => subscription.stopped, open: (emit) => openStream({ url: streamsURL, emit }) });
  }

  // The page goes (closed, navigated, reloaded, or into the back-forward cache): its session ends now rather than
  // when it expires.
  window.addEventListener("pagehide", () => {
    navigation.pagehide();
    subscription.stop();
    const sid = root.getAttribute(ATTRIBUTES.screen), csrf = root.getAttribute(ATTRIBUTES.csrf);
    if (sid && csrf && navigator.sendBeacon) {
      navigator.sendBeacon(path(PATHS.close, { sid }), new URLSearchParams({ [FIELDS.csrf]: csrf }));
    }
    if (owner) owner.stop();
    owner = null;
  });
  // Back from the back-forward cache: the screen was closed, so the attach rebuilds it from its URL.
  window.addEventListener("pageshow", (event) => { if (event.persisted) connect(); });
  const kick = () => {
    if (!owner || subscription.stopped) return;
    owner.kick();
    subscription.kick();
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && shownConnection(root) !== "live") kick();
  });
  window.addEventListener("online", kick);
  connect();
}
