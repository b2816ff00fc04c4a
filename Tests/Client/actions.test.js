// actions.js: action forms posted with fetch and `_aid`, pending until their ack, and the browser's own submit as the
// fallback.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PENDING_MS, createActions, isActionPath, pathPrefixPattern, screenOfAction } from
  "../../Sources/Screenplay/Client/actions.js";
import { createFields } from "../../Sources/Screenplay/Client/fields.js";
import { applyPatch } from "../../Sources/Screenplay/Client/patch.js";
import { fakeFetch, fakeTimers, page, settle } from "./support.js";

const FORM = '<form id="v30" method="post" action="/screens/S1/actions/add">' +
  '<input type="hidden" name="csrf" value="T1">' +
  '<div class="field"><input id="v31" name="new" value="milk"></div>' +
  '<button id="v34" type="submit" formaction="/screens/S1/actions/add">Add</button></form>' +
  '<form id="plain" method="post" action="/search"><button id="go">Go</button></form>';

function withActions({ answer = () => 204, live = true } = {}) {
  const doc = page(FORM);
  const fetch = fakeFetch(answer), timers = fakeTimers(), navigated = [];
  const fields = createFields({ doc, fetch, timers, screen: () => "S1", csrf: () => "T1" });
  const actions = createActions({ doc, fields, fetch, timers,
    navigate: (url, response, screen) => navigated.push([url, screen, !!response]),
    isLive: () => live, prefix: "tab" });
  const form = doc.getElementById("v30");
  let nativeSubmits = 0;
  form.submit = () => { nativeSubmits++; };
  const submit = (target = form, submitter = doc.getElementById("v34")) => {
    const event = { target, submitter, prevented: false, preventDefault() { this.prevented = true; } };
    return { event, done: actions.submit(event) };
  };
  return { doc, fetch, timers, actions, form, submit, navigated, natives: () => nativeSubmits };
}

test("an action's paths are recognised from the wire's template", () => {
  assert.equal(isActionPath("/screens/S1/actions/add"), true);
  assert.equal(isActionPath("/screens/S1/actions/x?row=7"), true);
  assert.equal(isActionPath("/screens/S1/input"), false);
  assert.equal(isActionPath("/search"), false);
  assert.equal(isActionPath(null), false);
  assert.equal(pathPrefixPattern("/screens/{sid}", true).test("/screens/S1"), true);
  assert.equal(pathPrefixPattern("/screens/{sid}", true).test("/screensX"), false);
});

test("an action posts its form with _aid and is pending until its ack", async () => {
  const a = withActions();
  const { event, done } = a.submit();
  assert.equal(event.prevented, true);
  const button = a.doc.getElementById("v34");
  assert.equal(a.form.getAttribute("aria-busy"), "true");
  assert.equal(button.hasAttribute("data-pending"), true);
  await done;
  const call = a.fetch.calls[0];
  assert.equal(call.url, "/screens/S1/actions/add");
  assert.equal(call.init.headers["X-Requested-With"], "fetch");
  assert.deepEqual(call.body, { csrf: "T1", new: "milk", _aid: "tab-1" });
  assert.deepEqual(a.actions.pending(), ["tab-1"]);
  assert.equal(a.actions.end("tab-1"), true);
  assert.equal(a.form.hasAttribute("aria-busy"), false);
  assert.equal(button.hasAttribute("data-pending"), false);
});

test("a second submit while the first is pending posts nothing; other forms are the browser's", async () => {
  const a = withActions();
  await a.submit().done;
  await a.submit().done;
  assert.equal(a.fetch.calls.length, 1);
  const plain = a.submit(a.doc.getElementById("plain"), a.doc.getElementById("go"));
  assert.equal(plain.done, null);
  assert.equal(plain.event.prevented, false);
});

test("a patch that replaces the pending form keeps it pending; the ack ends it on the new nodes", async () => {
  const a = withActions();
  await a.submit().done;
  applyPatch(a.doc, [["replace", "v30",
    '<form id="v30" action="/screens/S1/actions/add"><button id="v34">Add</button></form>']]);
  a.actions.refresh();
  const fresh = a.doc.getElementById("v30");
  assert.notEqual(fresh, a.form);
  assert.equal(fresh.getAttribute("aria-busy"), "true");
  a.actions.end("tab-1");
  assert.equal(fresh.hasAttribute("aria-busy"), false);
  assert.equal(a.doc.getElementById("v34").hasAttribute("data-pending"), false);
});

test("without a live stream, or after PENDING_MS, the pending state ends by itself", async () => {
  const offline = withActions({ live: false });
  await offline.submit().done;
  assert.deepEqual(offline.actions.pending(), []);
  const slow = withActions();
  await slow.submit().done;
  assert.deepEqual(slow.timers.delays, [PENDING_MS]);
  slow.timers.runAll();
  assert.deepEqual(slow.actions.pending(), []);
});

test("a failed post or an error answer falls back to the browser's own submit", async () => {
  const failed = withActions({ answer: () => new Error("offline") });
  await failed.submit().done;
  assert.equal(failed.natives(), 1);
  assert.deepEqual(failed.actions.pending(), []);
  const refused = withActions({ answer: () => 500 });
  await refused.submit().done;
  assert.equal(refused.natives(), 1);
  assert.equal(refused.form.getAttribute("action"), "/screens/S1/actions/add");
});

test("the Screenplay-Navigate header or a redirect leaves the page", async () => {
  const headers = new Map([["Screenplay-Navigate", "/movies/2"]]);
  const header = withActions({ answer: () => ({ status: 204, headers }) });
  await header.submit().done;
  assert.deepEqual(header.navigated, [["/movies/2", "S1", false]], "with the screen the action was posted to");
  const redirect = withActions({ answer: () => ({ status: 200, redirected: true, url: "http://example.test/x" }) });
  await redirect.submit().done;
  assert.deepEqual(redirect.navigated, [["http://example.test/x", "S1", true]], "with the page it answered");
  assert.deepEqual(redirect.actions.pending(), []);
});

test("ends of actions never heard of are ignored", async () => {
  const a = withActions();
  await settle();
  assert.equal(a.actions.end("nope"), false);
});

test("screenOfAction names the screen of an action path", () => {
  assert.equal(screenOfAction("/screens/S1/actions/add"), "S1");
  assert.equal(screenOfAction("/screens/a%2Fb/actions/save?row=2"), "a/b");
  assert.equal(screenOfAction("/search"), null);
  assert.equal(screenOfAction("/x/screens/S1/actions/add"), null);
  assert.equal(screenOfAction(null), null);
});
