// subscription.js: attaching this tab's screen to each stream with its last event id, the version checks, retries,
// the screen's events applied once, rebuilt screens and resets, and the connection state it shows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createSubscription, reloadOnce } from "../../Sources/Screenplay/Client/subscription.js";
import { fakeFetch, fakeTimers, page, settle } from "./support.js";

function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => items.set(key, value), items };
}

function subscribed({ answer = () => 204, last = 0 } = {}) {
  const doc = page("", `data-wire="2" data-screen="S1" data-csrf="T1" data-screen-url="/movies/4" data-render="0123456789abcdef" ` +
    `data-last-event-id="${last}" data-client="2-mine"`);
  const root = doc.documentElement;
  const fetch = fakeFetch(answer);
  const timers = fakeTimers(), storage = memoryStorage();
  const applied = [], resets = [], reloads = [], rebuilt = [];
  const subscription = createSubscription({
    root, timers, storage,
    post: (url, fields) => fetch(url, { method: "POST", body: new URLSearchParams(fields) }),
    apply: (name, data) => applied.push([name, data]),
    reset: (data) => {
      resets.push(data);
      const next = JSON.parse(data);
      root.setAttribute("data-screen", next.screen);
      root.setAttribute("data-last-event-id", String(next.last));
    },
    other: (name) => name === "dev-ok",
    rebuilt: () => rebuilt.push(true),
    reload: () => reloads.push(true),
  });
  const greet = (stream, extra = {}) =>
    subscription.receive({ type: "stream", stream, version: 2, client: "2-mine", ...extra });
  const event = (name, id, data = "x") => subscription.receive({ type: "event", name, id, data });
  return { doc, root, fetch, timers, storage, applied, resets, reloads, rebuilt, subscription, greet, event };
}

test("a greeting attaches the screen with its csrf, URL, last event id, wire version and render digest", async () => {
  const s = subscribed({ last: 4 });
  s.greet("B1");
  assert.equal(s.root.getAttribute("data-connection"), "connecting");
  assert.equal(s.fetch.calls.length, 1);
  assert.equal(s.fetch.calls[0].url, "/streams/B1/screens");
  assert.deepEqual(s.fetch.calls[0].body,
    { screen: "S1", csrf: "T1", url: "/movies/4", last: "4", version: "2", render: "0123456789abcdef" });
  await settle();
  assert.equal(s.root.getAttribute("data-connection"), "live");
  assert.equal(s.subscription.attached, "B1");
});

test("after a reconnect the new stream is attached with the last event applied; the replay is skipped", async () => {
  const s = subscribed();
  s.greet("B1");
  await settle();
  s.event("patch", "S1.1", "one");
  s.event("title", "S1.2", "two");
  assert.equal(s.root.getAttribute("data-last-event-id"), "2");
  s.subscription.receive({ type: "state", state: "offline" });
  assert.equal(s.root.getAttribute("data-connection"), "offline");
  s.greet("B2");
  assert.equal(s.fetch.calls[1].url, "/streams/B2/screens");
  assert.equal(s.fetch.calls[1].body.last, "2");
  await settle();
  s.event("patch", "S1.2", "two again");
  s.event("patch", "S1.3", "three");
  assert.deepEqual(s.applied, [["patch", "one"], ["title", "two"], ["patch", "three"]]);
});

test("the same stream announced again is not attached twice", async () => {
  const s = subscribed();
  s.greet("B1");
  await settle();
  s.greet("B1");
  s.subscription.kick();
  assert.equal(s.fetch.calls.length, 1);
});

test("other screens' events and events without a screen id are ignored; development events go to `other`", async () => {
  const s = subscribed();
  s.greet("B1");
  await settle();
  s.event("patch", "S9.1");
  s.event("patch", "");
  s.event("dev-ok", "");
  s.event("unknown", "S1.1");
  assert.deepEqual(s.applied, []);
  assert.equal(s.root.getAttribute("data-last-event-id"), "0");
});

test("a refused attach (403) is offline for good; a busy server's (503, 429) is retried with backoff", async () => {
  const refused = subscribed({ answer: () => 403 });
  refused.greet("B1");
  await settle();
  assert.equal(refused.root.getAttribute("data-connection"), "offline");
  assert.equal(refused.timers.count, 0);
  refused.subscription.kick();
  assert.equal(refused.fetch.calls.length, 1);

  let status = 503;
  const busy = subscribed({ answer: () => status });
  busy.greet("B1");
  await settle();
  assert.deepEqual(busy.timers.delays, [500]);
  busy.timers.runAll();
  await settle();
  assert.deepEqual(busy.timers.delays, [1000]);
  status = 429;
  busy.timers.runAll();
  await settle();
  assert.deepEqual(busy.timers.delays, [2000]);
  status = 204;
  busy.timers.runAll();
  await settle();
  assert.equal(busy.fetch.calls.length, 4);
  assert.equal(busy.root.getAttribute("data-connection"), "live");
});

test("a failed attach post is retried; an answer for a stream that went meanwhile is ignored", async () => {
  let fail = true;
  const s = subscribed({ answer: () => (fail ? new Error("network") : 204) });
  s.greet("B1");
  await settle();
  assert.deepEqual(s.timers.delays, [500]);
  fail = false;
  s.greet("B2");
  await settle();
  assert.equal(s.subscription.attached, "B2");
  s.timers.runAll();
  assert.equal(s.fetch.calls.length, 2, "the old stream's retry does nothing");
});

test("409 (the server speaks another wire version) reloads the page once, never in a loop", async () => {
  const s = subscribed({ answer: () => 409 });
  s.greet("B1");
  await settle();
  assert.equal(s.reloads.length, 1);
  assert.equal(s.subscription.stopped, true);
  // The reloaded page (same storage) is answered 409 again: it stays, offline, rather than reload forever.
  const again = subscribed({ answer: () => 409 });
  for (const [key, value] of s.storage.items) again.storage.setItem(key, value);
  again.greet("B1");
  await settle();
  assert.equal(again.reloads.length, 0);
  assert.equal(again.root.getAttribute("data-connection"), "offline");
});

test("a greeting of another wire version or another client version reloads once", () => {
  const wire = subscribed();
  wire.greet("B1", { version: 3 });
  assert.equal(wire.reloads.length, 1);
  assert.equal(wire.fetch.calls.length, 0, "nothing attached to a server of another protocol");
  wire.greet("B1", { version: 3 });
  assert.equal(wire.reloads.length, 1, "stopped: nothing more happens");

  const client = subscribed();
  client.greet("B1", { client: "2-deployed" });
  assert.equal(client.reloads.length, 1);
  const same = subscribed();
  same.greet("B1");
  assert.equal(same.reloads.length, 0);
});

test("reloadOnce reloads once per key and never when storage refuses", () => {
  const storage = memoryStorage();
  let reloads = 0;
  assert.equal(reloadOnce(storage, "k", () => reloads++), true);
  assert.equal(reloadOnce(storage, "k", () => reloads++), false);
  assert.equal(reloadOnce(storage, "other", () => reloads++), true);
  const broken = { getItem() { throw new Error("denied"); }, setItem() {} };
  assert.equal(reloadOnce(broken, "k", () => reloads++), false);
  assert.equal(reloads, 2);
});

test("a reset is applied, and the page it brings names the events it already shows", async () => {
  const s = subscribed();
  s.greet("B1");
  await settle();
  s.event("reset", "S1.1", JSON.stringify({ screen: "S1", last: 5 }));
  assert.equal(s.resets.length, 1);
  assert.equal(s.subscription.last, 5);
  assert.equal(s.root.getAttribute("data-last-event-id"), "5");
  s.event("patch", "S1.5");
  s.event("patch", "S1.6", "six");
  assert.deepEqual(s.applied, [["patch", "six"]]);
});

test("rebuilt moves the tab to the new screen from its first event and ends the old screen's actions", async () => {
  const s = subscribed({ last: 7 });
  s.greet("B1");
  await settle();
  s.event("rebuilt", "", JSON.stringify({ replaces: "OTHER", screen: "X" }));
  assert.equal(s.subscription.screen, "S1");
  s.event("rebuilt", "", JSON.stringify({ replaces: "S1", screen: "S2" }));
  assert.equal(s.rebuilt.length, 1);
  assert.equal(s.root.getAttribute("data-screen"), "S2");
  assert.equal(s.root.getAttribute("data-last-event-id"), "0");
  s.event("patch", "S1.8");
  s.event("patch", "S2.1", "new");
  assert.deepEqual(s.applied, [["patch", "new"]]);
});

test("stop ends everything; start after the back-forward cache waits for a new stream and attaches again", async () => {
  const s = subscribed();
  s.greet("B1");
  await settle();
  s.subscription.stop();
  s.event("patch", "S1.1");
  assert.deepEqual(s.applied, []);
  s.subscription.start();
  assert.equal(s.root.getAttribute("data-connection"), "connecting");
  s.greet("B1");
  assert.equal(s.fetch.calls.length, 2);
});

test("follow moves the tab to another screen on the stream it has, attached without a new one", async () => {
  const s = subscribed();
  s.greet("B1");
  await settle();
  s.event("patch", "S1.1", "one");
  s.root.setAttribute("data-screen", "S2");
  s.root.setAttribute("data-csrf", "T2");
  s.root.setAttribute("data-screen-url", "/movies/5");
  s.root.setAttribute("data-last-event-id", "4");
  s.root.setAttribute("data-render", "00000000000000aa");
  s.subscription.follow();
  assert.equal(s.root.getAttribute("data-connection"), "connecting");
  assert.equal(s.fetch.calls.length, 2);
  assert.equal(s.fetch.calls[1].url, "/streams/B1/screens", "the stream the tab has");
  assert.deepEqual(s.fetch.calls[1].body,
    { screen: "S2", csrf: "T2", url: "/movies/5", last: "4", version: "2", render: "00000000000000aa" });
  await settle();
  assert.equal(s.root.getAttribute("data-connection"), "live");
  s.event("patch", "S1.2", "old screen");
  s.event("patch", "S2.4", "already shown");
  s.event("patch", "S2.5", "five");
  assert.deepEqual(s.applied, [["patch", "one"], ["patch", "five"]]);
  assert.equal(s.subscription.screen, "S2");
});

test("an attach answered after a navigation is about the old screen and changes nothing", async () => {
  const answers = [];
  const s = subscribed({ answer: () => new Promise((resolve) => answers.push(resolve)) });
  s.greet("B1");
  s.root.setAttribute("data-screen", "S2");
  s.subscription.follow();
  answers[0]({ status: 403 });
  await settle();
  assert.equal(s.root.getAttribute("data-connection"), "connecting", "the old screen's refusal is not the new one's");
  answers[1]({ status: 204 });
  await settle();
  assert.equal(s.root.getAttribute("data-connection"), "live");
});
