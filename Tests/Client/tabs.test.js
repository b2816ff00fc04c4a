// tabs.js: one stream for every tab — the worker's hub, the Web-Lock election over a BroadcastChannel with its
// hand-over, a stream per tab as the last resort, and the choice among them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { aloneOwner, chooseOwner, createHub, lockOwner, workerOwner } from "../../Sources/Screenplay/Client/tabs.js";
import { page, settle } from "./support.js";

// A stream as openStream answers it, recording what is done to it.
function fakeStream(emit, log) {
  const stream = { emit, kicks: 0, closed: false, greet: (send) => send({ type: "state", state: "live" }),
    kick() { stream.kicks++; }, close() { stream.closed = true; } };
  log.push(stream);
  return stream;
}

function fakePort() {
  const port = { sent: [], closed: false, postMessage: (m) => port.sent.push(m), close() { port.closed = true; } };
  port.say = (data) => port.onmessage({ data });
  return port;
}

test("the worker opens one stream for the first tab and hands every message to every tab", () => {
  const streams = [];
  const hub = createHub({ streamsURL: "/streams", open: (url, emit) => fakeStream(emit, streams) });
  const a = fakePort(), b = fakePort();
  hub.connect(a);
  assert.deepEqual(a.sent, [{ type: "state", state: "connecting" }]);
  a.say({ type: "hello", streams: "/streams" });
  hub.connect(b);
  b.say({ type: "hello" });
  assert.equal(streams.length, 1);
  assert.equal(streams[0].kicks, 1, "a tab that says hello wakes a waiting stream");
  streams[0].emit({ type: "event", name: "patch", id: "S1.1", data: "[]" });
  assert.deepEqual(a.sent.at(-1), { type: "event", name: "patch", id: "S1.1", data: "[]" });
  assert.deepEqual(b.sent.at(-1), a.sent.at(-1));
});

test("the worker closes the stream when the last tab says bye, and opens a new one for the next", () => {
  const streams = [];
  const hub = createHub({ streamsURL: "/streams", open: (url, emit) => fakeStream(emit, streams) });
  const a = fakePort(), b = fakePort();
  hub.connect(a); a.say({ type: "hello" });
  hub.connect(b); b.say({ type: "hello" });
  a.say({ type: "bye" });
  assert.equal(a.closed, true);
  assert.equal(streams[0].closed, false);
  assert.equal(hub.ports, 1);
  b.say({ type: "bye" });
  assert.equal(streams[0].closed, true);
  assert.equal(hub.open, false);
  const c = fakePort();
  hub.connect(c); c.say({ type: "hello", streams: "/elsewhere" });
  assert.equal(streams.length, 2);
});

// Web Locks and BroadcastChannels of one browser: a lock held until its promise settles passes to the next waiter.
function browser() {
  const channels = new Set(), queue = [];
  let held = null;
  class Channel {
    constructor() { channels.add(this); this.sent = []; }
    postMessage(data) {
      this.sent.push(data);
      for (const other of channels) if (other !== this && other.onmessage) other.onmessage({ data });
    }
    close() { channels.delete(this); }
  }
  function grant() {
    while (!held && queue.length) {
      const next = queue.shift();
      if (next.signal && next.signal.aborted) continue;
      held = next;
      Promise.resolve(next.callback()).finally(() => { held = null; grant(); });
    }
  }
  const locks = {
    request(name, options, callback) {
      queue.push({ callback, signal: options.signal });
      // Granted later, as a browser does: the tab is a follower until then.
      queueMicrotask(grant);
      return Promise.resolve();
    },
  };
  return { BroadcastChannel: Channel, locks, AbortController, channels };
}

function tab(env, streams) {
  const doc = page();
  const heard = [];
  let stopped = false;
  const owner = lockOwner({ ...env, root: doc.documentElement, receive: (m) => heard.push(m),
    open: (emit) => fakeStream(emit, streams), isStopped: () => stopped });
  return {
    owner, heard,
    role: () => doc.documentElement.getAttribute("data-stream-owner"),
    stop() { stopped = true; owner.stop(); },
  };
}

test("the first tab takes the lock and leads; the others follow and hear its stream over the channel", async () => {
  const env = browser(), streams = [];
  const first = tab(env, streams), second = tab(env, streams);
  await settle();
  assert.equal(first.role(), "leader");
  assert.equal(second.role(), "follower");
  assert.equal(streams.length, 1);
  streams[0].emit({ type: "event", name: "title", id: "S1.1", data: "Hi" });
  assert.deepEqual(first.heard.at(-1), { type: "event", name: "title", id: "S1.1", data: "Hi" });
  assert.deepEqual(second.heard.at(-1), first.heard.at(-1));
});

test("a follower's hello wakes the leader's stream and is answered with where it stands", async () => {
  const env = browser(), streams = [];
  tab(env, streams);
  await settle();
  const late = tab(env, streams);
  await settle();
  assert.equal(streams[0].kicks, 1);
  assert.deepEqual(late.heard, [{ type: "state", state: "live" }]);
  late.owner.kick();
  assert.equal(streams[0].kicks, 2);
});

test("when the leader goes, the lock passes to the next tab, which opens a new stream", async () => {
  const env = browser(), streams = [];
  const first = tab(env, streams), second = tab(env, streams);
  await settle();
  first.stop();
  await settle();
  assert.equal(streams[0].closed, true);
  assert.equal(second.role(), "leader");
  assert.equal(streams.length, 2);
  streams[1].emit({ type: "state", state: "connecting" });
  assert.deepEqual(second.heard.at(-1), { type: "state", state: "connecting" });
});

test("a tab that went before it was granted the lock never leads", async () => {
  const env = browser(), streams = [];
  const first = tab(env, streams), second = tab(env, streams), third = tab(env, streams);
  await settle();
  second.stop();
  first.stop();
  await settle();
  assert.equal(third.role(), "leader");
  assert.equal(streams.length, 2);
});

test("a worker that does not load is replaced by the fallback, which then takes kicks and stops", () => {
  const doc = page();
  let worker;
  class SharedWorker {
    constructor(url, options) {
      worker = this; this.url = url; this.options = options; this.port = fakePort(); this.listeners = {};
    }
    addEventListener(name, listener) { this.listeners[name] = listener; }
  }
  const calls = [];
  const owner = workerOwner({ SharedWorker, workerURL: "/screenplay/v/screenplay-worker.js", streamsURL: "/streams",
    root: doc.documentElement, receive: () => {}, isStopped: () => false,
    fallback: () => ({ kick: () => calls.push("kick"), stop: () => calls.push("stop") }) });
  assert.deepEqual(worker.options, { name: "screenplay", type: "module" });
  assert.deepEqual(worker.port.sent, [{ type: "hello", streams: "/streams" }]);
  assert.equal(doc.documentElement.getAttribute("data-stream-owner"), "worker");
  worker.listeners.error();
  owner.kick();
  owner.stop();
  assert.deepEqual(calls, ["kick", "stop"]);
  assert.equal(worker.port.closed, true);
});

test("the owner chosen: a SharedWorker, else Web Locks with a BroadcastChannel, else a stream per tab", () => {
  const streams = [];
  const options = (doc) => ({ root: doc.documentElement, receive: () => {}, workerURL: "/w.js", streamsURL: "/streams",
    isStopped: () => false, open: (emit) => fakeStream(emit, streams) });
  const role = (env) => {
    const doc = page();
    chooseOwner(env, options(doc));
    return doc.documentElement.getAttribute("data-stream-owner");
  };
  class SharedWorker { constructor() { this.port = fakePort(); } addEventListener() {} }
  const env = browser();
  const withLocks = { BroadcastChannel: env.BroadcastChannel, navigator: { locks: env.locks } };
  assert.equal(role({ SharedWorker, ...withLocks }), "worker");
  class Refused { constructor() { throw new Error("SecurityError"); } }
  assert.equal(role({ SharedWorker: Refused, ...withLocks }), "follower");
  assert.equal(role({ BroadcastChannel: env.BroadcastChannel, navigator: {} }), "tab");
  const doc = page();
  aloneOwner({ root: doc.documentElement, receive: () => {}, open: (emit) => fakeStream(emit, streams) }).stop();
  assert.equal(streams.at(-1).closed, true);
});
