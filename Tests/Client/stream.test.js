// stream.js: the stream shared by the worker and a tab, its greeting, event ids, replay de-duplication, reconnect.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import {
  FIRST_DELAY_MS, MAX_DELAY_MS, STREAM_EVENTS, createEventLog, decodeEventId, decodeGreeting, nextDelay, openStream,
} from "../../Sources/Screenplay/Client/stream.js";
import { DEVELOPMENT_EVENTS, SCREEN_EVENTS } from "../../Sources/Screenplay/Client/wire.js";
import { FakeEventSource, fakeTimers } from "./support.js";

beforeEach(() => FakeEventSource.reset());

function opened() {
  const timers = fakeTimers(), messages = [];
  const stream = openStream({ url: "/streams", emit: (m) => messages.push(m), EventSource: FakeEventSource, timers });
  return { stream, timers, messages };
}

test("the greeting names the stream, the wire version and the client version", () => {
  assert.deepEqual(decodeGreeting('{"stream":"B1","version":2,"client":"2-abc"}'),
    { stream: "B1", version: 2, client: "2-abc" });
  assert.deepEqual(decodeGreeting('{"stream":"B1"}'), { stream: "B1", version: null, client: null });
  assert.equal(decodeGreeting('{"version":2}'), null);
  assert.equal(decodeGreeting("{"), null);
  assert.equal(decodeGreeting('{"stream":""}'), null);
});

test("an event id is {sid}.{n}, the sid possibly holding dots", () => {
  assert.deepEqual(decodeEventId("S1.7"), { screen: "S1", number: 7 });
  assert.deepEqual(decodeEventId("a.b.12"), { screen: "a.b", number: 12 });
  for (const bad of ["", "S1", ".3", "S1.", "S1.x", "S1.-2", null]) assert.equal(decodeEventId(bad), null, String(bad));
});

test("the stream listens to every screen, rebuilt and development event", () => {
  assert.deepEqual(STREAM_EVENTS, [...SCREEN_EVENTS, "rebuilt", ...DEVELOPMENT_EVENTS]);
  opened();
  for (const name of STREAM_EVENTS) assert.ok(FakeEventSource.last.listeners[name], name);
});

test("the event log applies its own screen's events once, in order, and skips a replay", () => {
  const log = createEventLog("S1", 3);
  assert.equal(log.accept("S1.3"), false, "shown by the page already");
  assert.equal(log.accept("S1.4"), true);
  assert.equal(log.accept("S2.5"), false, "another tab's screen");
  assert.equal(log.accept("S1.4"), false, "a replay after a hand-over");
  assert.equal(log.accept("S1.6"), true);
  assert.equal(log.accept("S1.5"), false, "older than the last applied");
  assert.equal(log.accept("junk"), false);
  assert.equal(log.last, 6);
});

test("the event log follows a rebuilt screen from 0 and a reset's page up to its last event", () => {
  const log = createEventLog("S1", 9);
  log.follow("S2", 0);
  assert.deepEqual([log.screen, log.last], ["S2", 0]);
  assert.equal(log.accept("S2.1"), true);
  log.follow("S2", 5);
  assert.equal(log.last, 5);
  log.follow("S2", 2);
  assert.equal(log.last, 5, "never lowered for the same screen");
});

test("the stream greets, then hands on each event with its id", () => {
  const { messages } = opened();
  const source = FakeEventSource.last;
  assert.equal(source.url, "/streams");
  source.dispatch("stream", '{"stream":"B1","version":2,"client":"c"}');
  source.dispatch("patch", "[]", "S1.1");
  assert.deepEqual(messages, [
    { type: "state", state: "connecting" },
    { type: "stream", stream: "B1", version: 2, client: "c" },
    { type: "state", state: "live" },
    { type: "event", name: "patch", id: "S1.1", data: "[]" },
  ]);
});

test("a broken stream goes offline and reopens after 0.5, 1, 2 … 10 seconds", () => {
  const { timers, messages } = opened();
  const waits = [];
  for (let i = 0; i < 7; i++) {
    FakeEventSource.last.dispatch("error");
    assert.equal(messages.at(-1).state, "offline");
    assert.equal(FakeEventSource.last.closed, true);
    waits.push(timers.delays[0]);
    timers.runAll();
  }
  assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, 10000, 10000]);
  assert.equal(FakeEventSource.opened.length, 8);
  assert.equal(nextDelay(MAX_DELAY_MS), MAX_DELAY_MS);
});

test("a greeting brings the backoff back to its first delay", () => {
  const { timers } = opened();
  FakeEventSource.last.dispatch("error");
  timers.runAll();
  FakeEventSource.last.dispatch("error");
  assert.deepEqual(timers.delays, [1000]);
  timers.runAll();
  FakeEventSource.last.dispatch("stream", '{"stream":"B2"}');
  FakeEventSource.last.dispatch("error");
  assert.deepEqual(timers.delays, [FIRST_DELAY_MS]);
});

test("a closed source's late events are not handed on", () => {
  const { stream, messages } = opened();
  const first = FakeEventSource.last;
  first.dispatch("error");
  stream.kick();
  const count = messages.length;
  first.dispatch("patch", "[]", "S1.1");
  first.dispatch("stream", '{"stream":"OLD"}');
  assert.equal(messages.length, count);
});

test("kick reopens a stream waiting to retry at once; a live one is left alone", () => {
  const { stream, timers } = opened();
  stream.kick();
  assert.equal(FakeEventSource.opened.length, 1);
  FakeEventSource.last.dispatch("error");
  stream.kick();
  assert.equal(FakeEventSource.opened.length, 2);
  assert.equal(timers.count, 0, "the retry timer is gone");
});

test("greet tells a joining tab the stream and the state; close stops the source and the retries", () => {
  const { stream, timers } = opened();
  const told = [];
  stream.greet((m) => told.push(m));
  assert.deepEqual(told, [{ type: "state", state: "connecting" }]);
  FakeEventSource.last.dispatch("stream", '{"stream":"B1","version":2}');
  told.length = 0;
  stream.greet((m) => told.push(m));
  assert.deepEqual(told,
    [{ type: "stream", stream: "B1", version: 2, client: null }, { type: "state", state: "live" }]);
  FakeEventSource.last.dispatch("error");
  stream.close();
  assert.equal(timers.count, 0);
  assert.equal(FakeEventSource.opened.length, 1);
});
