// This tab's screen on the shared stream: it attaches the screen to each stream its owner announces
// (POST /streams/{stream}/screens with the last event it applied, so the server replays what the page missed),
// retries with backoff, checks the server's versions, and hands on its own screen's events, each once.
import { ATTRIBUTES, EVENTS, FIELDS, PATHS, SCREEN_EVENTS, VERSION, path } from "./wire.js";
import { FIRST_DELAY_MS, createEventLog, nextDelay } from "./stream.js";
import { connectionState, showConnection } from "./connection.js";

// Reloads the page once for `key`: a second mismatch after the reload never loops. Answers whether it reloads.
export function reloadOnce(storage, key, reload) {
  try {
    if (storage.getItem(key)) return false;
    storage.setItem(key, "1");
  } catch (error) { return false; }
  reload();
  return true;
}

// `root` the page's <html>; `post(url, fields)` answers a fetch promise; `apply(name, data)` a screen event;
// `reset(data)` a reset (the page then names its screen on `root`); `other(name, data)` development events;
// `rebuilt()` the old screen's pending actions end; `reload()` the page; `storage` sessionStorage.
export function createSubscription({ root, post, apply, reset, other = () => false, rebuilt = () => {}, reload,
  storage, timers = globalThis }) {
  const where = root.ownerDocument.location;
  const screenURL = () => root.getAttribute(ATTRIBUTES.screenURL) || (where ? where.pathname + where.search : "");
  const log = createEventLog(root.getAttribute(ATTRIBUTES.screen),
    parseInt(root.getAttribute(ATTRIBUTES.lastEventID), 10) || 0);
  let owner = "connecting"; // the stream owner's state
  let stream = null;        // the stream the owner announced last
  let attached = null;      // the stream whose attach answered 204
  let refused = false;      // the attach was refused for good (403, 400, an unknown screen)
  let attaching = false, timer = null, delay = FIRST_DELAY_MS;
  let stopped = false;
  let visits = 0;           // how many times a navigation named another screen (follow)

  function render() {
    showConnection(root, connectionState({ owner, stream, attached, refused }));
  }

  // The server speaks another version than this page (a deploy): reload once rather than run against it.
  function mismatch(key) {
    if (!reloadOnce(storage, "screenplay-reloaded-for-" + key, reload)) return false;
    stopped = true;
    return true;
  }

  // Names this tab's screen on the stream, with the last event it applied.
  function attach() {
    timers.clearTimeout(timer);
    const target = stream, visit = visits;
    if (!target || stopped || attached === target) return;
    attaching = true;
    post(path(PATHS.attach, { stream: target }), {
      [FIELDS.screen]: log.screen, [FIELDS.csrf]: root.getAttribute(ATTRIBUTES.csrf) || "",
      [FIELDS.url]: screenURL(), [FIELDS.last]: String(log.last), [FIELDS.version]: String(VERSION),
      [FIELDS.render]: root.getAttribute(ATTRIBUTES.render) || "",
    }).then((response) => {
      // An answer about the screen the page showed before a navigation is old news.
      if (visit !== visits) return;
      attaching = false;
      if (target !== stream || stopped) return;
      if (response.status === 204) { attached = target; delay = FIRST_DELAY_MS; }
      else if (response.status === 409 && mismatch("wire-" + (root.getAttribute(ATTRIBUTES.client) || ""))) return;
      else if (response.status === 429 || response.status >= 500) retry();
      // 404 also answers a stream that just went: its owner announces the next one, which resets this.
      else refused = true;
      render();
    }, () => {
      if (visit !== visits) return;
      attaching = false;
      if (target === stream && !stopped) retry();
    });
  }

  function retry() {
    timer = timers.setTimeout(attach, delay);
    delay = nextDelay(delay);
  }

  function greeted(message) {
    const mine = root.getAttribute(ATTRIBUTES.client);
    if (message.version !== null && message.version !== undefined && message.version !== VERSION &&
        mismatch("wire-" + message.version)) return false;
    if (message.client && mine && message.client !== mine && mismatch(message.client)) return false;
    owner = "live";
    if (message.stream !== stream) {
      stream = message.stream; attached = null; refused = false; delay = FIRST_DELAY_MS;
      attach();
    }
    return true;
  }

  function event(name, id, data) {
    if (other(name, data)) return;
    if (name === EVENTS.rebuilt) {
      // The server rebuilt this tab's expired screen under a new id; its reset (id <new>.1) follows.
      const decoded = JSON.parse(data);
      if (decoded.replaces !== log.screen) return;
      rebuilt();
      log.follow(decoded.screen, 0);
      root.setAttribute(ATTRIBUTES.screen, log.screen);
      root.setAttribute(ATTRIBUTES.lastEventID, "0");
      return;
    }
    if (!SCREEN_EVENTS.includes(name) || !log.accept(id)) return;
    if (name === EVENTS.reset) {
      reset(data);
      // The new page already shows the events up to its data-last-event-id.
      log.follow(root.getAttribute(ATTRIBUTES.screen) || log.screen,
        parseInt(root.getAttribute(ATTRIBUTES.lastEventID), 10) || 0);
    } else {
      apply(name, data);
    }
    // What the page shows now, for a later attach and for whoever inspects the page.
    root.setAttribute(ATTRIBUTES.lastEventID, String(log.last));
  }

  // A message of the stream's owner.
  function receive(message) {
    if (stopped || !message) return;
    if (message.type === "state") owner = message.state;
    else if (message.type === "stream") { if (!greeted(message)) return; }
    else if (message.type === "event") event(message.name, message.id || "", message.data);
    render();
  }

  return {
    receive,
    // Back from the back-forward cache: a new owner will announce its stream.
    start() { stopped = false; stream = null; attached = null; owner = "connecting"; render(); },
    stop() { stopped = true; timers.clearTimeout(timer); },
    // A navigation in place: the page names another screen on `root` (its id, token, URL and last event). Its
    // events are the ones applied from now on, and it is attached to the stream this tab has, without a new one.
    follow() {
      timers.clearTimeout(timer);
      visits += 1;
      log.follow(root.getAttribute(ATTRIBUTES.screen) || "",
        parseInt(root.getAttribute(ATTRIBUTES.lastEventID), 10) || 0);
      attached = null; refused = false; attaching = false; delay = FIRST_DELAY_MS;
      render();
      attach();
    },
    // Woken up or back online: an attach that waits to retry goes now.
    kick() { if (!stopped && stream && attached !== stream && !attaching && !refused) attach(); },
    get stopped() { return stopped; },
    get screen() { return log.screen; },
    get last() { return log.last; },
    get attached() { return attached; },
  };
}
