// Screenplay client: turns a server-rendered screen into a live one.
// Wire protocol v2 (one event stream per browser, shared by every tab; see the README, "The wire protocol"), and v1 for pages without
// data-wire="2" (one EventSource per page). No dependency, no build step.
(function () {
  "use strict";
  var root = document.documentElement;
  var wire2 = root.getAttribute("data-wire") === "2";
  var eventsURL = root.getAttribute("data-events");
  if ((!wire2 && !eventsURL) || !window.fetch || !window.EventSource) return;

  var screenURL = root.getAttribute("data-screen-url") || location.pathname + location.search;
  var navigating = false;
  // Screen events carry a per-screen id; the development ones (and the stream's own) apply to every page.
  var SCREEN_EVENTS = ["patch", "reset", "title", "navigate"];
  var STREAM_EVENTS = SCREEN_EVENTS.concat(["rebuilt", "dev-error", "dev-ok", "dev-stylesheet"]);

  // Only on a change: observers of <html> (the stylesheet's connection bar, tests) see each state once.
  function setState(state) {
    if (root.getAttribute("data-connection") !== state) root.setAttribute("data-connection", state);
  }

  // Actions: every action form posts with fetch; the change arrives as a patch.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !/^\/screens\/[^/]+\/actions\//.test(form.getAttribute("action") || "")) return;
    event.preventDefault();
    var button = form.querySelector("button");
    if (button) button.setAttribute("aria-busy", "true");
    fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { "X-Requested-With": "fetch" },
      credentials: "same-origin",
      redirect: "follow"
    }).then(function (response) {
      var target = response.headers.get("Screenplay-Navigate");
      if (target) return navigate(target);
      if (response.redirected) return navigate(response.url);
      if (!response.ok) form.submit();
    }, function () {
      form.submit();
    }).then(function () {
      if (button) button.removeAttribute("aria-busy");
    });
  }, true);

  var leaving = null; // v1: closes the page's stream before it goes
  function navigate(url) {
    if (navigating) return;
    navigating = true;
    if (leaving) leaving();
    location.assign(url);
  }

  function byId(id) { return document.getElementById(id); }

  function fragment(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  // Applies one patch: a list of operations on elements found by their DOM id.
  function applyPatch(operations) {
    var active = document.activeElement;
    var activeId = active && active.id;
    var scrollX = window.scrollX, scrollY = window.scrollY;
    var changed = [];
    operations.forEach(function (op) {
      var kind = op[0], node, parent, before;
      if (kind === "replace") {
        node = byId(op[1]);
        if (node) { node.replaceWith(fragment(op[2])); changed.push(op[1]); }
      } else if (kind === "insert") {
        parent = byId(op[1]);
        before = op[2] ? byId(op[2]) : null;
        if (parent) parent.insertBefore(fragment(op[3]), before);
        changed.push(op[1]);
      } else if (kind === "remove") {
        node = byId(op[1]);
        if (node) node.remove();
      } else if (kind === "move") {
        node = byId(op[1]); parent = byId(op[2]);
        before = op[3] ? byId(op[3]) : null;
        if (node && parent) parent.insertBefore(node, before);
      }
    });
    if (activeId && document.activeElement !== byId(activeId) && byId(activeId)) byId(activeId).focus();
    window.scrollTo(scrollX, scrollY);
    announce(changed);
  }

  // Announces the text of changed regions that opted in with aria-live (or the page's live region).
  function announce(ids) {
    var region = document.querySelector("[data-announcer]");
    if (!region) return;
    var texts = [];
    ids.forEach(function (id) {
      var node = byId(id);
      if (node && node.closest("[data-announce]")) texts.push(node.textContent.trim());
    });
    if (texts.length) region.textContent = texts.join(" ");
  }

  // Swaps in the whole page the server sent; answers its data (v1 reads `events` from it).
  function reset(payload) {
    var data = JSON.parse(payload);
    var doc = new DOMParser().parseFromString(data.html, "text/html");
    document.body.replaceWith(doc.body);
    var newRoot = doc.documentElement;
    var names = ["class", "data-events", "data-screen-url", "data-screen", "data-csrf", "data-last-event-id"];
    names.forEach(function (name) {
      var value = newRoot.getAttribute(name);
      if (value === null) root.removeAttribute(name); else root.setAttribute(name, value);
    });
    screenURL = root.getAttribute("data-screen-url") || screenURL;
    if (doc.title) document.title = doc.title;
    var theme = doc.querySelector('meta[name="theme-color"]');
    var current = document.querySelector('meta[name="theme-color"]');
    if (theme && current) current.setAttribute("content", theme.getAttribute("content"));
    return data;
  }

  // Development: a template that does not parse is shown over the page, which keeps working, until it is fixed.
  // The overlay hangs from <html>, so a reset (which replaces <body>) leaves it alone.
  function showDevError(error) {
    var overlay = byId("screenplay-dev-error");
    if (!overlay) {
      overlay = document.createElement("div");
      overlay.id = "screenplay-dev-error";
      overlay.setAttribute("role", "alert");
      overlay.style.cssText = "position:fixed;left:0;right:0;bottom:0;z-index:2147483647;max-height:50vh;" +
        "overflow:auto;margin:0;padding:1rem 1.25rem;background:#2b0b0b;color:#ffd7d7;" +
        "font:14px/1.4 ui-monospace,monospace;white-space:pre-wrap;box-shadow:0 -2px 12px rgba(0,0,0,.4)";
      root.appendChild(overlay);
    }
    var where = error.file ? error.file + (error.line ? ":" + error.line : "") + "\n" : "";
    overlay.textContent = "Template error (the page keeps the last good templates)\n" + where + error.message;
  }

  function hideDevError() {
    var overlay = byId("screenplay-dev-error");
    if (overlay) overlay.remove();
  }

  // Development: swaps a changed stylesheet for a fresh copy; the new link loads before the old one goes, so the
  // page never shows unstyled.
  function reloadStylesheet(href) {
    Array.prototype.forEach.call(document.querySelectorAll('link[rel="stylesheet"]'), function (link) {
      var url = new URL(link.href, location.href);
      if (url.pathname !== href) return;
      url.searchParams.set("v", String(Date.now()));
      var fresh = link.cloneNode();
      fresh.href = url.pathname + url.search;
      fresh.addEventListener("load", function () { link.remove(); });
      link.after(fresh);
    });
  }

  // Development events: no screen named, every page applies them. Answers whether `name` was one.
  function devEvent(name, data) {
    if (name === "dev-error") showDevError(JSON.parse(data));
    else if (name === "dev-ok") hideDevError();
    else if (name === "dev-stylesheet") reloadStylesheet(data);
    else return false;
    return true;
  }

  if (wire2) startV2(); else startV1();

  // ---- Wire protocol v1: this page's own stream at data-events. ----
  function startV1() {
    var source = null, lastEventId = null, retryDelay = 500, retryTimer = null;
    leaving = function () { if (source) source.close(); };

    function streamURL() {
      var url = eventsURL + (eventsURL.indexOf("?") < 0 ? "?" : "&") + "url=" + encodeURIComponent(screenURL);
      if (lastEventId !== null) url += "&lastEventId=" + encodeURIComponent(lastEventId);
      return url;
    }

    function connect() {
      clearTimeout(retryTimer);
      if (source) source.close();
      setState("connecting");
      source = new EventSource(streamURL());
      source.addEventListener("open", function () { setState("live"); retryDelay = 500; });
      SCREEN_EVENTS.forEach(function (name) {
        source.addEventListener(name, function (event) {
          if (event.lastEventId) lastEventId = event.lastEventId;
          if (name === "patch") applyPatch(JSON.parse(event.data));
          else if (name === "title") document.title = event.data;
          else if (name === "navigate") navigate(event.data);
          else {
            var data = reset(event.data);
            // A rebuilt screen has another stream: follow it from its start.
            if (data.events && data.events !== eventsURL) { eventsURL = data.events; lastEventId = null; connect(); }
          }
        });
      });
      // Development mode only (movies --dev): the server sends these when Templates/ or Public/ change.
      ["dev-error", "dev-ok", "dev-stylesheet"].forEach(function (name) {
        source.addEventListener(name, function (event) { devEvent(name, event.data); });
      });
      source.addEventListener("error", function () {
        if (navigating) return;
        source.close();
        setState("offline");
        retryTimer = setTimeout(connect, retryDelay);
        retryDelay = Math.min(retryDelay * 2, 10000);
      });
    }

    // Back from the back-forward cache or from sleep: reconnect at once and catch up.
    window.addEventListener("pageshow", function (event) { if (event.persisted) { navigating = false; connect(); } });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && root.getAttribute("data-connection") !== "live") connect();
    });
    window.addEventListener("online", connect);
    connect();
  }

  // ---- Wire protocol v2: one stream per browser; this tab attaches its screen to it. ----
  function startV2() {
    var streamsURL = root.getAttribute("data-streams") || "/streams";
    var sid = root.getAttribute("data-screen");
    var csrf = root.getAttribute("data-csrf");
    var last = parseInt(root.getAttribute("data-last-event-id"), 10) || 0;
    var owner = null;          // how this tab hears the stream: {kick, stop}
    var ownerState = "connecting";
    var streamId = null;       // the stream the owner announced last
    var attached = null;       // the stream whose attach answered 204
    var refused = false;       // the attach was refused for good (403, 400, unknown screen)
    var attachTimer = null, attachDelay = 500, attaching = false;
    var stopped = false;

    function render() {
      var state = ownerState;
      if (state === "live" && attached !== streamId) state = refused ? "offline" : "connecting";
      setState(state);
    }

    function post(url, fields) {
      return fetch(url, { method: "POST", body: new URLSearchParams(fields), credentials: "same-origin" });
    }

    // Names this tab's screen on the stream, with the last event it applied: the server replays what it missed.
    function attach() {
      clearTimeout(attachTimer);
      var stream = streamId;
      if (!stream || stopped || attached === stream) return;
      attaching = true;
      post(streamsURL + "/" + encodeURIComponent(stream) + "/screens",
        { screen: sid, csrf: csrf, url: screenURL, last: String(last) }).then(function (response) {
        attaching = false;
        if (stream !== streamId || stopped) return;
        if (response.status === 204) { attached = stream; attachDelay = 500; }
        else if (response.status === 429 || response.status >= 500) retryAttach();
        // 404 also answers a stream that just went: its owner announces the next one, which resets this.
        else refused = true;
        render();
      }, function () {
        attaching = false;
        if (stream === streamId && !stopped) retryAttach();
      });
    }

    function retryAttach() {
      attachTimer = setTimeout(attach, attachDelay);
      attachDelay = Math.min(attachDelay * 2, 10000);
    }

    // Every owner hands this tab the same messages: stream, event, state (see screenplay-worker.js).
    function receive(message) {
      if (stopped || !message) return;
      if (message.type === "state") {
        ownerState = message.state;
      } else if (message.type === "stream") {
        ownerState = "live";
        if (message.stream !== streamId) {
          streamId = message.stream; attached = null; refused = false; attachDelay = 500;
          attach();
        }
      } else if (message.type === "event") {
        handle(message.name, message.id || "", message.data);
      }
      render();
    }

    function handle(name, id, data) {
      if (navigating || devEvent(name, data)) return;
      if (name === "rebuilt") {
        // The server rebuilt this tab's expired screen under a new id; its reset (id <new>.1) follows.
        var rebuilt = JSON.parse(data);
        if (rebuilt.replaces === sid) {
          sid = rebuilt.screen; last = 0;
          root.setAttribute("data-screen", sid); root.setAttribute("data-last-event-id", "0");
        }
        return;
      }
      if (SCREEN_EVENTS.indexOf(name) < 0) return;
      // The id is <sid>.<n>: ignore other tabs' screens and what this tab applied already (a replay after a
      // hand-over repeats events).
      var dot = id.lastIndexOf(".");
      var n = parseInt(id.slice(dot + 1), 10);
      if (dot < 0 || id.slice(0, dot) !== sid || !(n > last)) return;
      last = n;
      if (name === "patch") applyPatch(JSON.parse(data));
      else if (name === "title") document.title = data;
      else if (name === "navigate") navigate(data);
      else {
        reset(data);
        sid = root.getAttribute("data-screen") || sid;
        csrf = root.getAttribute("data-csrf") || csrf;
        // The new page already shows the events up to its data-last-event-id.
        last = Math.max(last, parseInt(root.getAttribute("data-last-event-id"), 10) || 0);
      }
      // What the page shows now, for a later attach and for whoever inspects the page.
      root.setAttribute("data-last-event-id", String(last));
    }

    // The stream itself, for the tab that owns it (leader or alone); the worker file has its own copy.
    function openStream(emit) {
      var source = null, timer = null, delay = 500, id = null, state = "connecting";
      function setOwnerState(value) { state = value; emit({ type: "state", state: value }); }
      function open() {
        clearTimeout(timer);
        if (source) source.close();
        id = null;
        setOwnerState("connecting");
        source = new EventSource(streamsURL);
        source.addEventListener("stream", function (event) {
          id = JSON.parse(event.data).stream;
          delay = 500;
          emit({ type: "stream", stream: id });
          setOwnerState("live");
        });
        STREAM_EVENTS.forEach(function (name) {
          source.addEventListener(name, function (event) {
            emit({ type: "event", name: name, id: event.lastEventId, data: event.data });
          });
        });
        // A broken stream is never resumed (the server ignores Last-Event-ID): a new one, and every tab re-attaches.
        source.addEventListener("error", function () {
          source.close(); source = null; id = null;
          setOwnerState("offline");
          timer = setTimeout(open, delay);
          delay = Math.min(delay * 2, 10000);
        });
      }
      open();
      return {
        greet: function (send) {
          if (id) send({ type: "stream", stream: id });
          send({ type: "state", state: state });
        },
        kick: function () { if (!source) open(); },
        close: function () { clearTimeout(timer); if (source) source.close(); source = null; }
      };
    }

    // 1. A SharedWorker owns the stream for every tab.
    function workerOwner() {
      var worker = new SharedWorker("/public/screenplay-worker.js", { name: "screenplay" });
      var port = worker.port, heard = false;
      port.onmessage = function (event) { heard = true; receive(event.data); };
      // The worker script did not load: do without it.
      worker.addEventListener("error", function () {
        if (heard || stopped) return;
        port.close();
        owner = window.BroadcastChannel && navigator.locks ? lockOwner() : aloneOwner();
      });
      root.setAttribute("data-stream-owner", "worker");
      port.postMessage({ type: "hello", streams: streamsURL });
      return {
        kick: function () { port.postMessage({ type: "hello", streams: streamsURL }); },
        stop: function () { port.postMessage({ type: "bye" }); port.close(); }
      };
    }

    // 2. The tab holding the Web Lock owns the stream and relays it over a BroadcastChannel; when it goes, its
    // lock passes to the next tab, which opens a new stream.
    function lockOwner() {
      var channel = new BroadcastChannel("screenplay");
      var stream = null, release = null, abort = window.AbortController ? new AbortController() : null;
      channel.onmessage = function (event) {
        var message = event.data || {};
        // A tab joined, or woke up: as the worker does, the leader retries a stream that waits to, and answers.
        if (message.type === "hello") {
          if (stream) { stream.kick(); stream.greet(function (m) { channel.postMessage(m); }); }
        }
        else receive(message);
      };
      root.setAttribute("data-stream-owner", "follower");
      navigator.locks.request("screenplay-stream", abort ? { signal: abort.signal } : {}, function () {
        if (stopped) return;
        root.setAttribute("data-stream-owner", "leader");
        stream = openStream(function (message) { channel.postMessage(message); receive(message); });
        // Held until the page goes.
        return new Promise(function (resolve) { release = resolve; });
      }).catch(function () {});
      channel.postMessage({ type: "hello" });
      return {
        kick: function () { if (stream) stream.kick(); else channel.postMessage({ type: "hello" }); },
        stop: function () {
          if (stream) stream.close();
          if (release) release();
          // A request still waiting would otherwise be granted to a page in the back-forward cache.
          if (abort) abort.abort();
          channel.close();
        }
      };
    }

    // 3. Neither: this tab's own stream.
    function aloneOwner() {
      root.setAttribute("data-stream-owner", "tab");
      var stream = openStream(receive);
      return { kick: stream.kick, stop: stream.close };
    }

    function start() {
      stopped = false; navigating = false;
      streamId = null; attached = null; ownerState = "connecting";
      render();
      try {
        if (window.SharedWorker) { owner = workerOwner(); return; }
      } catch (error) { /* a worker refused (a sandboxed page, say): do without */ }
      owner = window.BroadcastChannel && navigator.locks ? lockOwner() : aloneOwner();
    }

    function kick() {
      if (!owner || stopped) return;
      owner.kick();
      if (streamId && attached !== streamId && !attaching && !refused) attach();
    }

    // The page goes (closed, navigated, reloaded, or into the back-forward cache): its session ends now rather
    // than when it expires.
    window.addEventListener("pagehide", function () {
      stopped = true;
      clearTimeout(attachTimer);
      if (sid && csrf && navigator.sendBeacon) {
        navigator.sendBeacon("/screens/" + encodeURIComponent(sid) + "/close", new URLSearchParams({ csrf: csrf }));
      }
      if (owner) owner.stop();
      owner = null;
    });
    // Back from the back-forward cache: the screen was closed, so the attach rebuilds it from its URL.
    window.addEventListener("pageshow", function (event) { if (event.persisted) start(); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && root.getAttribute("data-connection") !== "live") kick();
    });
    window.addEventListener("online", kick);
    start();
  }
})();
