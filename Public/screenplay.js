// Screenplay client: turns a server-rendered screen into a live one.
// Wire protocol v1 (see README "The wire protocol"). No dependency, no build step.
(function () {
  "use strict";
  var root = document.documentElement;
  var eventsURL = root.getAttribute("data-events");
  if (!eventsURL || !window.fetch || !window.EventSource) return;

  var screenURL = root.getAttribute("data-screen-url") || location.pathname + location.search;
  var source = null;
  var lastEventId = null;
  var retryDelay = 500;
  var retryTimer = null;
  var navigating = false;

  function setState(state) { root.setAttribute("data-connection", state); }

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

  function navigate(url) {
    if (navigating) return;
    navigating = true;
    if (source) source.close();
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

  function reset(payload) {
    var data = JSON.parse(payload);
    var doc = new DOMParser().parseFromString(data.html, "text/html");
    document.body.replaceWith(doc.body);
    var newRoot = doc.documentElement;
    ["class", "data-events", "data-screen-url"].forEach(function (name) {
      var value = newRoot.getAttribute(name);
      if (value === null) root.removeAttribute(name); else root.setAttribute(name, value);
    });
    if (doc.title) document.title = doc.title;
    var theme = doc.querySelector('meta[name="theme-color"]');
    var current = document.querySelector('meta[name="theme-color"]');
    if (theme && current) current.setAttribute("content", theme.getAttribute("content"));
    if (data.events && data.events !== eventsURL) {
      eventsURL = data.events;
      lastEventId = null;
      connect();
    }
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
    function track(handler) {
      return function (event) {
        if (event.lastEventId) lastEventId = event.lastEventId;
        handler(event.data);
      };
    }
    source.addEventListener("open", function () { setState("live"); retryDelay = 500; });
    source.addEventListener("patch", track(function (data) { applyPatch(JSON.parse(data)); }));
    source.addEventListener("reset", track(reset));
    source.addEventListener("navigate", track(navigate));
    source.addEventListener("title", track(function (data) { document.title = data; }));
    // Development mode only (movies --dev): the server sends these when Templates/ or Public/ change.
    source.addEventListener("dev-error", function (event) { showDevError(JSON.parse(event.data)); });
    source.addEventListener("dev-ok", hideDevError);
    source.addEventListener("dev-stylesheet", function (event) { reloadStylesheet(event.data); });
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
})();
