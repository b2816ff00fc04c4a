// fields.js: input events with per-field sequence numbers, one post in flight per field, and the rule that an older
// render never overwrites newer typing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createFields, debounceOf } from "../../Sources/Screenplay/Client/fields.js";
import { applyPatch } from "../../Sources/Screenplay/Client/patch.js";
import { deferred, fakeFetch, fakeTimers, page, settle } from "./support.js";

const ITEM = (value, seq = 0) => `<div id="v20" class="field"><input id="v20-control" name="item" type="text"` +
  ` value="${value}"${seq ? ` data-seq="${seq}"` : ""}></div>`;
const BODY = `<main id="m">${ITEM("")}` +
  '<div id="v32" class="field"><input id="v32-control" name="done" type="checkbox"></div>' +
  '<div id="x" class="field"><input id="hidden" name="h" type="hidden"></div><input id="loose" name="loose"></main>';

function withFields(answer) {
  const doc = page(BODY, 'data-screen="S1" data-csrf="T1"');
  const fetch = fakeFetch(answer), timers = fakeTimers();
  const fields = createFields({ doc, fetch, timers, screen: () => "S1", csrf: () => "T1" });
  const item = doc.getElementById("v20-control");
  const type = (text) => { item.value = text; fields.input(item); };
  const patch = (ops) => applyPatch(doc, ops, { settle: (control) => fields.settle(control) });
  return { doc, fetch, timers, fields, item, type, patch, posted: () => fetch.calls.map((call) => call.body) };
}

test("typing posts once the user pauses, with the whole text and the field's next sequence number", async () => {
  const f = withFields();
  f.type("a");
  f.type("ab");
  assert.equal(f.fetch.calls.length, 0);
  assert.deepEqual(f.timers.delays, [150]);
  f.timers.runAll();
  assert.equal(f.fetch.calls[0].url, "/screens/S1/input");
  assert.equal(f.fetch.calls[0].init.headers["X-Requested-With"], "fetch");
  assert.deepEqual(f.posted(), [{ csrf: "T1", name: "item", value: "ab", seq: "1", event: "change" }]);
  await settle();
  f.type("abc");
  f.timers.runAll();
  assert.equal(f.posted()[1].seq, "2");
});

test("switches post at once; hidden controls and controls outside a field never do", () => {
  const f = withFields();
  const box = f.doc.getElementById("v32-control");
  box.checked = true;
  f.fields.change(box);
  f.fields.change(f.doc.getElementById("hidden"));
  f.fields.input(f.doc.getElementById("loose"));
  f.timers.runAll();
  assert.deepEqual(f.posted(), [{ csrf: "T1", name: "done", value: "on", seq: "1", event: "change" }]);
});

test("one post in flight per field: what is typed meanwhile goes after its answer, in order", async () => {
  const first = deferred();
  const f = withFields((url, init) => (init.body.get("seq") === "1" ? first.promise : 204));
  f.type("a");
  f.timers.runAll();
  f.type("ab");
  f.timers.runAll();
  f.fields.focusOut(f.item);
  assert.equal(f.fetch.calls.length, 1);
  first.resolve({ status: 204, ok: true, headers: new Map() });
  await settle();
  await settle();
  assert.deepEqual(f.posted().map((b) => [b.value, b.seq, b.event]),
    [["a", "1", "change"], ["ab", "2", "change"], ["ab", "3", "end"]]);
});

test("a rendered data-seq raises the next sequence number", async () => {
  const f = withFields();
  f.patch([["replace", "v20", ITEM("", 5)]]);
  f.type("x");
  f.timers.runAll();
  assert.equal(f.posted()[0].seq, "6");
});

test("a render older than the typing (lower data-seq) never overwrites it", async () => {
  const f = withFields();
  f.type("abc");
  f.timers.runAll(); // seq 1 sent
  await settle();
  f.patch([["replace", "v20", ITEM("a", 0)]]);
  assert.equal(f.doc.getElementById("v20-control").value, "abc");
  f.type("abcd"); // not sent yet: a render even of seq 1 does not overwrite it
  f.patch([["replace", "v20", ITEM("abc", 1)]]);
  assert.equal(f.doc.getElementById("v20-control").value, "abcd");
});

test("a render that saw every input event (data-seq >= sent) shows the server's value", async () => {
  const f = withFields();
  f.type("abc");
  f.timers.runAll();
  await settle();
  f.patch([["replace", "v20", ITEM("ABC", 1)]]);
  assert.equal(f.doc.getElementById("v20-control").value, "ABC");
  assert.equal(f.fields.userValueStands("item", f.doc.getElementById("v20-control")), false);
});

test("leaving a field that was edited says `end`; leaving an untouched one says nothing", async () => {
  const f = withFields();
  f.fields.focusIn(f.item);
  f.fields.focusOut(f.item);
  assert.equal(f.fetch.calls.length, 0);
  f.fields.focusIn(f.item);
  f.type("q");
  f.fields.focusOut(f.item);
  assert.deepEqual(f.posted(), [{ csrf: "T1", name: "item", value: "q", seq: "1", event: "end" }]);
  f.fields.setResetting(true);
  f.type("qq");
  f.fields.focusOut(f.item);
  assert.equal(f.fetch.calls.length, 1, "a reset's blur is no edit");
});

test("Enter in a text field outside a form is the primary action", () => {
  const f = withFields();
  const event = (key, extra = {}) => ({ key, target: f.item, isComposing: false, defaultPrevented: false,
    prevented: false, preventDefault() { this.prevented = true; }, ...extra });
  const enter = event("Enter");
  f.item.value = "milk";
  assert.equal(f.fields.enter(enter), true);
  assert.equal(enter.prevented, true);
  assert.equal(f.fields.enter(event("a")), false);
  assert.equal(f.fields.enter(event("Enter", { isComposing: true })), false);
  assert.deepEqual(f.posted(), [{ csrf: "T1", name: "item", value: "milk", seq: "1", event: "primary" }]);
});

test("a submit drops the fields' pending changes and waits for the posts in flight", async () => {
  const doc = page('<form id="f"><div class="field"><input id="n" name="n"></div></form>');
  const inFlight = deferred();
  const fetch = fakeFetch(() => inFlight.promise), timers = fakeTimers();
  const fields = createFields({ doc, fetch, timers, screen: () => "S1", csrf: () => "T" });
  const input = doc.getElementById("n");
  input.value = "a";
  fields.input(input);
  timers.runAll();
  input.value = "ab";
  fields.input(input);
  let ready = false;
  fields.beforeSubmit(doc.getElementById("f")).then(() => { ready = true; });
  assert.equal(timers.count, 0, "the debounce is cancelled");
  await settle();
  assert.equal(ready, false);
  inFlight.resolve({ status: 204 });
  await settle();
  await settle();
  assert.equal(ready, true);
  assert.equal(fetch.calls.length, 1, "the form carries the value: no second input post");
});

test("a reset keeps what was typed, tells the new screen, and restores focus and caret", () => {
  const f = withFields();
  f.item.focus();
  f.type("typed");
  f.item.setSelectionRange(1, 2);
  const before = f.fields.typed();
  assert.deepEqual(before.values, { item: "typed" });
  f.doc.body.innerHTML = `<main id="m">${ITEM("server", 0)}</main>`;
  f.fields.restore(before);
  const fresh = f.doc.getElementById("v20-control");
  assert.equal(fresh.value, "typed");
  assert.equal(f.doc.activeElement, fresh);
  assert.deepEqual([fresh.selectionStart, fresh.selectionEnd], [1, 2]);
  assert.deepEqual(f.posted(), [{ csrf: "T1", name: "item", value: "typed", seq: "1", event: "change" }]);
});

test("data-debounce sets a field's pause; the default is 150 ms", () => {
  const doc = page('<input id="a" data-debounce="0"><input id="b" data-debounce="x">' +
    '<input id="c" data-debounce="400">');
  assert.deepEqual(["a", "b", "c"].map((id) => debounceOf(doc.getElementById(id))), [0, 150, 400]);
});
