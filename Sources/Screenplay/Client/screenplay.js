// Screenplay client: turns a server-rendered screen into a live one.
// Wire protocol v2 (one event stream per browser, shared by every tab; see the README, "The wire protocol"), and v1 for pages without
// data-wire="2" (one EventSource per page). No dependency, no build step.
(function () {
  "use strict";
  // The page shell links this script by itself; a second copy (an older layout's own <script> tag) does nothing.
  if (window.screenplayClient) return;
  window.screenplayClient = true;
  // The shared worker is served beside this script, at the same versioned path.
  var scriptURL = document.currentScript ? document.currentScript.src : "";
  var workerURL = scriptURL ? scriptURL.replace(/screenplay\.js([?#].*)?$/, "screenplay-worker.js") :
    "/public/screenplay-worker.js";
  var root = document.documentElement;
  var wire2 = root.getAttribute("data-wire") === "2";
  var eventsURL = root.getAttribute("data-events");
  if ((!wire2 && !eventsURL) || !window.fetch || !window.EventSource) return;

  var screenURL = root.getAttribute("data-screen-url") || location.pathname + location.search;
  var navigating = false;
  // Screen events carry a per-screen id; the development ones (and the stream's own) apply to every page.
  var SCREEN_EVENTS = ["patch", "reset", "title", "navigate", "ack", "url"];
  var STREAM_EVENTS = SCREEN_EVENTS.concat(["rebuilt", "dev-error", "dev-ok", "dev-stylesheet"]);
  var ACTION_PATH = /^\/screens\/[^/]+\/actions\//;
  var DEBOUNCE_MS = 150;
  var PENDING_MS = 10000;

  // Only on a change: observers of <html> (the stylesheet's connection bar, tests) see each state once.
  function setState(state) {
    if (root.getAttribute("data-connection") !== state) root.setAttribute("data-connection", state);
  }

  function byId(id) { return document.getElementById(id); }

  function fragment(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  // ---- Fields: what the user types goes to the screen as input events (POST /screens/{sid}/input). ----

  // Per field name, for this tab: the last sequence number used (`seq`, never lowered), the last one sent to the
  // current screen (`sent`, compared with a rendered control's data-seq), the value the user gave it, whether the
  // user changed it, the debounce timer, and the events waiting behind the post in flight (one at a time, in order).
  var fields = {};
  var resetting = false; // a reset swaps the body: the blur of the control it removes is no edit

  function fieldState(name) {
    var state = fields[name];
    if (!state) {
      state = fields[name] = { name: name, seq: 0, sent: 0, value: null, sentValue: null, changed: false,
        edited: false, timer: null, queue: [], busy: false, idle: [] };
    }
    return state;
  }

  function isControl(node) {
    return !!node && node.nodeType === 1 && /^(INPUT|TEXTAREA|SELECT)$/.test(node.tagName);
  }

  // A control of a field: a named input, text area or select inside a `.field` wrapper.
  function isFieldControl(node) {
    return isControl(node) && !!node.name && !!node.closest(".field") &&
      !/^(hidden|submit|button|reset|image|file)$/.test(node.type);
  }

  function isToggle(control) {
    return control.tagName === "INPUT" && (control.type === "checkbox" || control.type === "radio");
  }

  function isTextControl(control) {
    return control.tagName === "TEXTAREA" || (control.tagName === "INPUT" && !isToggle(control));
  }

  function valueOf(control) {
    if (isToggle(control)) return control.checked ? "on" : "";
    return control.value;
  }

  function setValue(control, value) {
    if (isToggle(control)) control.checked = value === "on";
    else if (control.value !== value) control.value = value;
  }

  // The value a control was rendered with (a parsed, not yet inserted element keeps it in its markup).
  function renderedValue(control) {
    if (isToggle(control)) return control.hasAttribute("checked") ? "on" : "";
    if (control.tagName === "TEXTAREA") return control.defaultValue;
    if (control.tagName === "SELECT") {
      var chosen = control.querySelector("option[selected]") || control.querySelector("option");
      return chosen ? (chosen.hasAttribute("value") ? chosen.getAttribute("value") : chosen.textContent) : "";
    }
    return control.getAttribute("value") || "";
  }

  function dataSeq(control) {
    return (control && parseInt(control.getAttribute("data-seq"), 10)) || 0;
  }

  function controlNamed(name) {
    var found = document.getElementsByName(name);
    for (var i = 0; i < found.length; i++) if (isFieldControl(found[i])) return found[i];
    return null;
  }

  function fieldControls(container) {
    return Array.prototype.filter.call(container.querySelectorAll("input[name], textarea[name], select[name]"),
      isFieldControl);
  }

  // Whether the user has a change of this field that has not gone out yet.
  function hasUnsent(state) { return !!state.timer || state.queue.length > 0; }

  // Whether the user's value should stand over one the server rendered before it saw that value.
  function userValueStands(state, rendered) {
    return !!state && state.value !== null && (state.sent > dataSeq(rendered) || hasUnsent(state));
  }

  function screenId() {
    var sid = root.getAttribute("data-screen");
    if (sid) return sid;
    var match = /\/screens\/([^/]+)\/events/.exec(root.getAttribute("data-events") || "");
    return match ? decodeURIComponent(match[1]) : null;
  }

  function csrfToken(form) {
    var token = root.getAttribute("data-csrf");
    if (token) return token;
    var input = (form || document).querySelector('input[name="csrf"]');
    return input ? input.value : "";
  }

  // Queues an input event of the field `control` belongs to; its value is read when the post goes.
  function sendInput(control, name) {
    var state = fieldState(control.name);
    clearTimeout(state.timer);
    state.timer = null;
    state.value = valueOf(control);
    var queue = state.queue;
    if (!(name === "change" && queue.length && queue[queue.length - 1] === "change")) queue.push(name);
    pump(state, control.form);
  }

  // Sends the next queued event of a field once the one before it was answered: one post in flight per field.
  function pump(state, form) {
    if (state.busy) return;
    if (!state.queue.length) {
      var waiting = state.idle;
      state.idle = [];
      waiting.forEach(function (resolve) { resolve(); });
      return;
    }
    var name = state.queue.shift();
    var sid = screenId();
    if (!sid || state.value === null) { pump(state, form); return; }
    state.busy = true;
    state.seq = Math.max(state.seq, dataSeq(controlNamed(state.name))) + 1;
    state.sent = state.seq;
    state.sentValue = state.value;
    var body = new URLSearchParams();
    body.append("csrf", csrfToken(form));
    body.append("name", state.name);
    body.append("value", state.value);
    body.append("seq", String(state.seq));
    body.append("event", name);
    function done() { state.busy = false; pump(state, form); }
    fetch("/screens/" + encodeURIComponent(sid) + "/input", {
      method: "POST", body: body, headers: { "X-Requested-With": "fetch" }, credentials: "same-origin"
    }).then(done, done);
  }

  // Answers a promise that settles when the field has nothing in flight or waiting.
  function whenIdle(state) {
    if (!state.busy && !state.queue.length) return Promise.resolve();
    return new Promise(function (resolve) { state.idle.push(resolve); });
  }

  function debounceOf(control) {
    var ms = parseInt(control.getAttribute("data-debounce"), 10);
    return ms >= 0 ? ms : DEBOUNCE_MS;
  }

  document.addEventListener("input", function (event) {
    var control = event.target;
    if (!isFieldControl(control) || !isTextControl(control)) return;
    var state = fieldState(control.name);
    state.value = control.value;
    state.changed = true;
    state.edited = true;
    clearTimeout(state.timer);
    var armed = state.seq;
    state.timer = setTimeout(function () {
      state.timer = null;
      // A post that went meanwhile (behind the one in flight) carried this text already.
      if (state.seq > armed && state.value === state.sentValue) return;
      if (control.isConnected) sendInput(control, "change");
      else { state.queue.push("change"); pump(state, null); }
    }, debounceOf(control));
  }, true);

  document.addEventListener("change", function (event) {
    var control = event.target;
    if (!isFieldControl(control) || isTextControl(control)) return;
    var state = fieldState(control.name);
    state.changed = true;
    sendInput(control, "change");
  }, true);

  document.addEventListener("focusin", function (event) {
    if (isFieldControl(event.target)) fieldState(event.target.name).edited = false;
  }, true);

  document.addEventListener("focusout", function (event) {
    var control = event.target;
    if (resetting || !isFieldControl(control) || !isTextControl(control)) return;
    var state = fieldState(control.name);
    if (state.timer || state.edited) sendInput(control, "end");
    state.edited = false;
  }, true);

  document.addEventListener("keydown", function (event) {
    var control = event.target;
    if (event.key !== "Enter" || event.isComposing || event.defaultPrevented) return;
    if (!isFieldControl(control) || control.tagName !== "INPUT" || isToggle(control) || control.form) return;
    event.preventDefault();
    sendInput(control, "primary");
  }, true);

  // ---- Actions: every action form posts with fetch; the change arrives as a patch, then its `ack`. ----

  var pending = {}; // by _aid: {form, button, formId, buttonId, timer}
  var aidPrefix = Math.random().toString(36).slice(2, 10) + "-" + Date.now().toString(36);
  var aidCount = 0;

  function pendingOf(form) {
    if (!form) return null;
    for (var aid in pending) {
      var entry = pending[aid];
      if (entry.form === form || (entry.formId && entry.formId === form.id)) return entry;
    }
    return null;
  }

  function mark(node, on) {
    if (!node) return;
    if (on) {
      if (node.getAttribute("aria-busy") !== "true") node.setAttribute("aria-busy", "true");
      if (!node.hasAttribute("data-pending")) node.setAttribute("data-pending", "");
    } else {
      node.removeAttribute("aria-busy");
      node.removeAttribute("data-pending");
    }
  }

  // The pending form and button as the page shows them now: a patch may have replaced them.
  function currentNodes(entry) {
    if (entry.formId && byId(entry.formId)) entry.form = byId(entry.formId);
    if (entry.buttonId && byId(entry.buttonId)) entry.button = byId(entry.buttonId);
  }

  function refreshPending() {
    for (var aid in pending) {
      currentNodes(pending[aid]);
      mark(pending[aid].form, true);
      mark(pending[aid].button, true);
    }
  }

  function endPending(aid) {
    var entry = pending[aid];
    if (!entry) return;
    delete pending[aid];
    clearTimeout(entry.timer);
    currentNodes(entry);
    if (!pendingOf(entry.form)) mark(entry.form, false);
    mark(entry.button, false);
  }

  function endAllPending() {
    Object.keys(pending).forEach(endPending);
  }

  // Without the script's post: the browser's own, to the submitter's action (the server answers with a page).
  function submitNatively(form, action) {
    if (form.getAttribute("action") !== action) form.setAttribute("action", action);
    form.submit();
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.tagName !== "FORM") return;
    var submitter = event.submitter || null;
    var action = submitter && submitter.hasAttribute("formaction")
      ? submitter.getAttribute("formaction") : form.getAttribute("action");
    if (!ACTION_PATH.test(action || "")) return;
    event.preventDefault();
    // A second submit while the first waits for its answer: nothing is posted.
    if (navigating || pendingOf(form)) return;
    var button = submitter || form.querySelector("button");
    var aid = aidPrefix + "-" + (++aidCount);
    var entry = pending[aid] = { form: form, button: button, formId: form.id || null,
      buttonId: (button && button.id) || null, timer: setTimeout(function () { endPending(aid); }, PENDING_MS) };
    mark(form, true);
    mark(button, true);
    // The form carries its fields' values: their debounced input events are not needed; the ones in flight are
    // answered first, so that the action comes after them.
    var waits = [];
    Array.prototype.forEach.call(form.elements, function (control) {
      if (!isFieldControl(control) || !fields[control.name]) return;
      var field = fields[control.name];
      clearTimeout(field.timer);
      field.timer = null;
      field.edited = false;
      field.queue = field.queue.filter(function (name) { return name !== "change"; });
      waits.push(whenIdle(field));
    });
    Promise.all(waits).then(function () {
      currentNodes(entry);
      var body = new URLSearchParams(new FormData(entry.form));
      body.append("_aid", aid);
      return fetch(action, {
        method: "POST",
        body: body,
        headers: { "X-Requested-With": "fetch" },
        credentials: "same-origin",
        redirect: "follow"
      });
    }).then(function (response) {
      var target = response.headers.get("Screenplay-Navigate");
      if (target) { endPending(aid); return navigate(target); }
      if (response.redirected) { endPending(aid); return navigate(response.url); }
      if (!response.ok) { endPending(aid); submitNatively(entry.form, action); return; }
      // No stream to bring the ack: the answer is all there is.
      if (root.getAttribute("data-connection") !== "live") endPending(aid);
    }, function () {
      endPending(aid);
      submitNatively(entry.form, action);
    });
  }, true);

  var leaving = null; // v1: closes the page's stream before it goes
  function navigate(url) {
    if (navigating) return;
    navigating = true;
    endAllPending();
    if (leaving) leaving();
    location.assign(url);
  }

  // ---- Patches: typing is never undone. ----

  function copyAttributes(node, from, keep) {
    Array.prototype.slice.call(node.attributes).forEach(function (attribute) {
      if (!from.hasAttribute(attribute.name) && !keep(attribute.name)) node.removeAttribute(attribute.name);
    });
    Array.prototype.forEach.call(from.attributes, function (attribute) {
      if (!keep(attribute.name) && node.getAttribute(attribute.name) !== attribute.value) {
        node.setAttribute(attribute.name, attribute.value);
      }
    });
  }

  function keepNone() { return false; }

  // The element of `container` that stands for `control`: the same id, else the same name.
  function counterpart(container, control) {
    var found = null;
    if (control.id) {
      found = Array.prototype.filter.call(container.querySelectorAll("[id]"), function (node) {
        return node.id === control.id;
      })[0] || null;
    }
    if (!found && control.name) {
      found = Array.prototype.filter.call(container.querySelectorAll("[name]"), function (node) {
        return node.getAttribute("name") === control.name;
      })[0] || null;
    }
    if (!found || found.tagName !== control.tagName || isToggle(found) !== isToggle(control)) return null;
    return found;
  }

  // Replaces `node` with the markup in `content`, keeping `control` (focused, inside `node`) in place: every element
  // on the way down to it takes the new attributes and children around it, the control the new attributes but its
  // value, so its caret and selection stay. Answers the new control's element, or null when the markup has none
  // (the caller replaces `node` outright).
  function morph(node, content, control) {
    var fresh = counterpart(content, control);
    if (!fresh) return null;
    var newPath = [], oldPath = [], step;
    for (step = fresh; step && step !== content; step = step.parentNode) newPath.unshift(step);
    for (step = control; step && step !== node.parentNode; step = step.parentNode) oldPath.unshift(step);
    if (newPath.length !== oldPath.length || oldPath[0] !== node) return null;
    for (var i = 0; i < oldPath.length; i++) if (oldPath[i].tagName !== newPath[i].tagName) return null;
    var parent = node.parentNode, top = newPath[0];
    while (content.firstChild !== top) parent.insertBefore(content.firstChild, node);
    var after = node.nextSibling;
    while (top.nextSibling) parent.insertBefore(top.nextSibling, after);
    for (i = 0; i < oldPath.length - 1; i++) {
      var old = oldPath[i], now = newPath[i], keepOld = oldPath[i + 1], keepNew = newPath[i + 1];
      copyAttributes(old, now, keepNone);
      Array.prototype.slice.call(old.childNodes).forEach(function (child) {
        if (child !== keepOld) old.removeChild(child);
      });
      while (now.firstChild !== keepNew) old.insertBefore(now.firstChild, keepOld);
      while (keepNew.nextSibling) old.appendChild(keepNew.nextSibling);
    }
    var checked = control.checked;
    copyAttributes(control, fresh, function (name) { return name === "value" && control.tagName === "INPUT"; });
    if (isToggle(control)) control.checked = checked;
    if (control.tagName === "SELECT" && control.innerHTML !== fresh.innerHTML) {
      var chosen = control.value;
      while (control.firstChild) control.removeChild(control.firstChild);
      while (fresh.firstChild) control.appendChild(fresh.firstChild);
      var options = Array.prototype.filter.call(control.options, function (option) { return option.value === chosen; });
      if (options.length) options[0].selected = true;
    }
    return fresh;
  }

  // A control the server rendered, now in the page: the user's value stands if the server had not seen it yet.
  function settle(control, rendered) {
    var state = fields[control.name];
    if (userValueStands(state, rendered || control)) setValue(control, state.value);
  }

  function selectionOf(control) {
    try {
      if (isTextControl(control) && control.selectionStart !== null) {
        return { start: control.selectionStart, end: control.selectionEnd, direction: control.selectionDirection };
      }
    } catch (error) { /* a type without a selection (number, email) */ }
    return null;
  }

  function select(control, selection) {
    if (!selection) return;
    try {
      control.setSelectionRange(selection.start, selection.end, selection.direction || "none");
    } catch (error) { /* a type without a selection */ }
  }

  // Applies one patch: a list of operations on elements found by their DOM id.
  function applyPatch(operations) {
    var active = document.activeElement;
    var activeId = active && active.id;
    var focused = isControl(active) ? active : null;
    var focusedValue = focused ? valueOf(focused) : null;
    var focusedSelection = focused ? selectionOf(focused) : null;
    var scrollX = window.scrollX, scrollY = window.scrollY;
    var changed = [];
    operations.forEach(function (op) {
      var kind = op[0], node, parent, before, content, controls, fresh = null;
      if (kind === "replace" || kind === "insert") {
        content = fragment(kind === "replace" ? op[2] : op[3]);
        controls = fieldControls(content);
      }
      if (kind === "replace") {
        node = byId(op[1]);
        if (!node) return;
        if (focused && node.contains(focused)) fresh = morph(node, content, focused);
        if (fresh) {
          controls = controls.filter(function (control) { return control !== fresh; });
          settleFocused(focused, fresh);
        } else {
          node.replaceWith(content);
        }
        controls.forEach(function (control) { settle(control); });
        changed.push(op[1]);
      } else if (kind === "insert") {
        parent = byId(op[1]);
        before = op[2] ? byId(op[2]) : null;
        if (parent) {
          parent.insertBefore(content, before);
          controls.forEach(function (control) { settle(control); });
        }
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
    if (activeId && document.activeElement !== byId(activeId) && byId(activeId)) {
      var again = byId(activeId);
      again.focus();
      // A control that had to be replaced keeps its caret where its value is the same.
      if (focused && isControl(again) && again !== focused && valueOf(again) === focusedValue) {
        select(again, focusedSelection);
      }
    }
    refreshPending();
    window.scrollTo(scrollX, scrollY);
    announce(changed);
  }

  // The focused control stays as the user has it, but for a form's submit answer: while the form's action is
  // pending, a value the server rendered after every input event of the field (a field cleared once its item was
  // added) replaces it.
  function settleFocused(control, rendered) {
    var state = fields[control.name];
    if (!isFieldControl(control) || !pendingOf(control.form)) return;
    if (state && (dataSeq(rendered) < state.sent || hasUnsent(state))) return;
    var value = renderedValue(rendered);
    if (valueOf(control) === value) return;
    setValue(control, value);
    if (state) state.value = value;
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

  // The screen's URL changed in place (a search query): the history entry follows, and so does a later re-attach.
  function replaceURL(url) {
    try { history.replaceState(history.state, "", url); } catch (error) { return; }
    screenURL = url;
    root.setAttribute("data-screen-url", url);
  }

  // The events of a screen but `reset`, which each wire version applies itself.
  function screenEvent(name, data) {
    if (name === "patch") applyPatch(JSON.parse(data));
    else if (name === "title") document.title = data;
    else if (name === "navigate") navigate(data);
    else if (name === "ack") endPending(data);
    else if (name === "url") replaceURL(data);
  }

  // What the user typed, before a reset swaps the page: the values of the fields they changed, and the focus.
  function typedValues() {
    var typed = { values: {}, focus: null };
    Object.keys(fields).forEach(function (name) {
      var state = fields[name];
      if (!state.changed) return;
      var control = controlNamed(name);
      typed.values[name] = control ? valueOf(control) : state.value;
    });
    var active = document.activeElement;
    if (isFieldControl(active)) typed.focus = { name: active.name, id: active.id, selection: selectionOf(active) };
    return typed;
  }

  // After a reset: a field the user changed that shows another value takes theirs again, and the (possibly new)
  // screen hears it; the others are in step with the page's screen now (a rebuilt screen counts from 0 again).
  function restoreTyped(typed) {
    Object.keys(fields).forEach(function (name) {
      var state = fields[name], control = controlNamed(name);
      clearTimeout(state.timer);
      state.timer = null;
      state.queue = [];
      state.sentValue = null;
      if (control && typed.values.hasOwnProperty(name) && typed.values[name] !== null &&
          valueOf(control) !== typed.values[name]) {
        setValue(control, typed.values[name]);
        sendInput(control, "change");
      } else {
        state.sent = dataSeq(control);
        if (control) state.value = valueOf(control);
      }
    });
    if (typed.focus) {
      var control = controlNamed(typed.focus.name) || (typed.focus.id && byId(typed.focus.id));
      if (control) {
        control.focus();
        select(control, typed.focus.selection);
      }
    }
  }

  // Swaps in the whole page the server sent; answers its data (v1 reads `events` from it).
  function reset(payload) {
    var data = JSON.parse(payload);
    var typed = typedValues();
    var doc = new DOMParser().parseFromString(data.html, "text/html");
    resetting = true;
    try { document.body.replaceWith(doc.body); } finally { resetting = false; }
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
    restoreTyped(typed);
    refreshPending();
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

  // A form posted by the browser itself (the script's post failed) comes back as the session's own page,
  // /screens/{sid}: the address bar shows the screen's URL again, which outlives the session.
  if (/^\/screens\//.test(location.pathname) && /^\/(?!\/)/.test(screenURL) &&
      screenURL !== location.pathname + location.search) {
    replaceURL(screenURL);
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
          if (name !== "reset") return screenEvent(name, event.data);
          var data = reset(event.data);
          // A rebuilt screen has another stream: follow it from its start; its actions' acks will not come.
          if (data.events && data.events !== eventsURL) {
            eventsURL = data.events; lastEventId = null; endAllPending(); connect();
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
        { screen: sid, csrf: csrf, url: screenURL, last: String(last), version: "2" }).then(function (response) {
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

    // The server speaks another client version than this page was loaded with (a deploy): reload once, rather than
    // run this script against a server it may not match. Once per version, so a mismatch never loops.
    function clientChanged(version) {
      var mine = root.getAttribute("data-client");
      if (!version || !mine || version === mine) return false;
      var key = "screenplay-reloaded-for-" + version;
      try {
        if (sessionStorage.getItem(key)) return false;
        sessionStorage.setItem(key, "1");
      } catch (error) { return false; }
      stopped = true;
      navigating = true;
      location.reload();
      return true;
    }

    // Every owner hands this tab the same messages: stream, event, state (see screenplay-worker.js).
    function receive(message) {
      if (stopped || !message) return;
      if (message.type === "state") {
        ownerState = message.state;
      } else if (message.type === "stream") {
        if (clientChanged(message.client)) return;
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
          // The old screen's actions will not be acknowledged.
          endAllPending();
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
      if (name !== "reset") screenEvent(name, data);
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
      var source = null, timer = null, delay = 500, id = null, state = "connecting", client = null;
      function setOwnerState(value) { state = value; emit({ type: "state", state: value }); }
      function open() {
        clearTimeout(timer);
        if (source) source.close();
        id = null;
        setOwnerState("connecting");
        source = new EventSource(streamsURL);
        source.addEventListener("stream", function (event) {
          var greeting = JSON.parse(event.data);
          id = greeting.stream;
          client = greeting.client || null;
          delay = 500;
          emit({ type: "stream", stream: id, client: client });
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
          if (id) send({ type: "stream", stream: id, client: client });
          send({ type: "state", state: state });
        },
        kick: function () { if (!source) open(); },
        close: function () { clearTimeout(timer); if (source) source.close(); source = null; }
      };
    }

    // 1. A SharedWorker owns the stream for every tab.
    function workerOwner() {
      var worker = new SharedWorker(workerURL, { name: "screenplay" });
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
