// Actions: every action form posts with fetch (its fields, and `_aid` naming the post); the form and its button are
// pending (aria-busy, data-pending) until the change arrives as a patch followed by the action's `ack`, or for
// PENDING_MS at most. A failed post falls back to the browser's own submit, which the server answers with a page.
import { FIELDS, HEADERS, PATHS, REQUESTED_WITH_FETCH } from "./wire.js";

export const PENDING_MS = 10000;

// A pattern matching the start of a wire path template's concrete paths: {placeholders} stand for one segment.
export function pathPrefixPattern(template, whole = false) {
  const pattern = template.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("[^/]+");
  return new RegExp("^" + pattern + (whole ? "(?:[/?#]|$)" : ""));
}

const ACTION = pathPrefixPattern(PATHS.action);

export function isActionPath(url) {
  return ACTION.test(url || "");
}

// The screen an action path posts to (its {sid}), or null.
export function screenOfAction(url) {
  const [before, after] = PATHS.action.split("{sid}");
  const start = (url || "").indexOf(before);
  if (start !== 0 || !isActionPath(url)) return null;
  const rest = url.slice(before.length);
  const end = rest.indexOf(after.split("{")[0]);
  return end > 0 ? decodeURIComponent(rest.slice(0, end)) : null;
}

export function markPending(node, on) {
  if (!node) return;
  if (on) {
    if (node.getAttribute("aria-busy") !== "true") node.setAttribute("aria-busy", "true");
    if (!node.hasAttribute("data-pending")) node.setAttribute("data-pending", "");
  } else {
    node.removeAttribute("aria-busy");
    node.removeAttribute("data-pending");
  }
}

// `fields` the page's fields (createFields); `navigate(url, response, screen)` leaves the page (`response` the
// page's answer when the post was redirected to it; `screen` the one the action was posted to); `isLive()` whether
// an ack can come; `isLeaving()` whether the page is going; `fetch`, `timers` and `prefix` (unique per tab) as a
// test supplies them.
export function createActions({ doc, fields, fetch, navigate, isLive, isLeaving = () => false, timers = globalThis,
  prefix = Math.random().toString(36).slice(2, 10) + "-" + Date.now().toString(36) }) {
  const pending = {}; // by _aid: {form, button, formId, buttonId, timer}
  let count = 0;
  const byId = (id) => id && doc.getElementById(id);

  function pendingOf(form) {
    if (!form) return null;
    return Object.values(pending).find((entry) => entry.form === form || (entry.formId && entry.formId === form.id))
      || null;
  }

  // The pending form and button as the page shows them now: a patch may have replaced them.
  function current(entry) {
    if (byId(entry.formId)) entry.form = byId(entry.formId);
    if (byId(entry.buttonId)) entry.button = byId(entry.buttonId);
  }

  // After a patch or a reset: the pending nodes (perhaps new ones) show it again.
  function refresh() {
    for (const entry of Object.values(pending)) {
      current(entry);
      markPending(entry.form, true);
      markPending(entry.button, true);
    }
  }

  function end(aid) {
    const entry = pending[aid];
    if (!entry) return false;
    delete pending[aid];
    timers.clearTimeout(entry.timer);
    current(entry);
    if (!pendingOf(entry.form)) markPending(entry.form, false);
    markPending(entry.button, false);
    return true;
  }

  function endAll() {
    Object.keys(pending).forEach(end);
  }

  // Without the script's post: the browser's own, to the submitter's action.
  function submitNatively(form, action) {
    if (form.getAttribute("action") !== action) form.setAttribute("action", action);
    form.submit();
  }

  // A submit event of the page: answers the post's promise, or null when the script leaves it to the browser.
  function submit(event) {
    const form = event.target;
    if (!form || form.tagName !== "FORM") return null;
    const submitter = event.submitter || null;
    const action = submitter && submitter.hasAttribute("formaction")
      ? submitter.getAttribute("formaction") : form.getAttribute("action");
    if (!isActionPath(action)) return null;
    event.preventDefault();
    // A second submit while the first waits for its answer: nothing is posted.
    if (isLeaving() || pendingOf(form)) return Promise.resolve();
    const button = submitter || form.querySelector("button");
    const aid = prefix + "-" + (++count);
    const entry = pending[aid] = { form, button, formId: form.id || null, buttonId: (button && button.id) || null,
      timer: timers.setTimeout(() => end(aid), PENDING_MS) };
    markPending(form, true);
    markPending(button, true);
    const FormData = doc.defaultView.FormData;
    return fields.beforeSubmit(form).then(() => {
      current(entry);
      // A file field's files go to the upload endpoint as they are chosen, not with the form.
      const body = new URLSearchParams();
      for (const [name, value] of new FormData(entry.form)) if (typeof value === "string") body.append(name, value);
      body.append(FIELDS.actionID, aid);
      return fetch(action, { method: "POST", body, headers: { [HEADERS.requestedWith]: REQUESTED_WITH_FETCH },
        credentials: "same-origin", redirect: "follow" });
    }).then((response) => {
      const target = response.headers.get(HEADERS.navigate);
      if (target) { end(aid); return navigate(target, null, screenOfAction(action)); }
      if (response.redirected) { end(aid); return navigate(response.url, response, screenOfAction(action)); }
      if (!response.ok) { end(aid); return submitNatively(entry.form, action); }
      // No stream to bring the ack: the answer is all there is.
      if (!isLive()) end(aid);
    }, () => {
      end(aid);
      submitNatively(entry.form, action);
    });
  }

  return { submit, pendingOf, refresh, end, endAll, pending: () => Object.keys(pending) };
}
