// Who owns the browser's one stream, so that every tab of the site shares one HTTP connection (browsers allow six
// per origin): 1. a SharedWorker; else 2. the tab holding a Web Lock, relaying over a BroadcastChannel (when it
// goes, the lock passes to the next tab, which opens a new stream); else 3. each tab its own stream. Every owner
// hands the tabs the same messages (see stream.js). A tab says {type: "hello", streams} when it joins or wakes, and
// {type: "bye"} when it goes.
import { ATTRIBUTES } from "./wire.js";

export const LOCK_NAME = "screenplay-stream";
export const CHANNEL_NAME = "screenplay";

// The worker's side: the tabs' ports, one stream for all of them, opened by the first tab, closed with the last.
// `open(url, emit)` answers a stream (stream.js's openStream).
export function createHub({ open, streamsURL }) {
  const ports = [];
  let url = streamsURL, stream = null;
  const broadcast = (message) => ports.forEach((port) => port.postMessage(message));
  const greet = (port) => {
    if (stream) stream.greet((message) => port.postMessage(message));
    else port.postMessage({ type: "state", state: "connecting" });
  };

  function connect(port) {
    ports.push(port);
    port.onmessage = (message) => {
      const data = message.data || {};
      if (data.type === "hello") {
        if (data.streams) url = data.streams;
        // The first tab, or a tab back from sleep while the stream waits to retry: (re)open now.
        if (!stream) stream = open(url, broadcast); else stream.kick();
        greet(port);
      } else if (data.type === "bye") {
        const index = ports.indexOf(port);
        if (index >= 0) ports.splice(index, 1);
        port.close();
        // No tab left: nothing to listen for.
        if (!ports.length && stream) { stream.close(); stream = null; }
      }
    };
    greet(port);
  }

  return { connect, get ports() { return ports.length; }, get open() { return !!stream; } };
}

// 1. A SharedWorker (a module worker at `workerURL`) owns the stream; when its script does not load, `fallback()`.
export function workerOwner({ SharedWorker, workerURL, streamsURL, root, receive, fallback, isStopped }) {
  const worker = new SharedWorker(workerURL, { name: CHANNEL_NAME, type: "module" });
  const port = worker.port;
  let heard = false, replaced = null;
  port.onmessage = (event) => { heard = true; receive(event.data); };
  worker.addEventListener("error", () => {
    if (heard || isStopped()) return;
    port.close();
    replaced = fallback();
  });
  root.setAttribute(ATTRIBUTES.streamOwner, "worker");
  port.postMessage({ type: "hello", streams: streamsURL });
  return {
    kick() { if (replaced) replaced.kick(); else port.postMessage({ type: "hello", streams: streamsURL }); },
    stop() {
      if (replaced) return replaced.stop();
      port.postMessage({ type: "bye" });
      port.close();
    },
  };
}

// 2. The tab holding the Web Lock owns the stream and relays it over a BroadcastChannel.
export function lockOwner({ BroadcastChannel, locks, AbortController, root, receive, open, isStopped }) {
  const channel = new BroadcastChannel(CHANNEL_NAME);
  const abort = AbortController ? new AbortController() : null;
  let stream = null, release = null;
  channel.onmessage = (event) => {
    const message = event.data || {};
    // A tab joined, or woke up: as the worker does, the leader retries a stream that waits to, and answers.
    if (message.type === "hello") {
      if (stream) { stream.kick(); stream.greet((m) => channel.postMessage(m)); }
    } else {
      receive(message);
    }
  };
  root.setAttribute(ATTRIBUTES.streamOwner, "follower");
  locks.request(LOCK_NAME, abort ? { signal: abort.signal } : {}, () => {
    if (isStopped()) return;
    root.setAttribute(ATTRIBUTES.streamOwner, "leader");
    stream = open((message) => { channel.postMessage(message); receive(message); });
    // Held until the page goes.
    return new Promise((resolve) => { release = resolve; });
  }).catch(() => {});
  channel.postMessage({ type: "hello" });
  return {
    kick() { if (stream) stream.kick(); else channel.postMessage({ type: "hello" }); },
    stop() {
      if (stream) stream.close();
      stream = null;
      if (release) release();
      // A request still waiting would otherwise be granted to a page in the back-forward cache.
      if (abort) abort.abort();
      channel.close();
    },
    get leading() { return !!stream; },
  };
}

// 3. Neither: this tab's own stream.
export function aloneOwner({ root, receive, open }) {
  root.setAttribute(ATTRIBUTES.streamOwner, "tab");
  const stream = open(receive);
  return { kick: () => stream.kick(), stop: () => stream.close() };
}

// The best owner `env` (the window, or a test's stand-in) offers. `open(emit)` opens a stream in this tab.
export function chooseOwner(env, options) {
  const withoutWorker = () => env.BroadcastChannel && env.navigator && env.navigator.locks
    ? lockOwner({ ...options, BroadcastChannel: env.BroadcastChannel, locks: env.navigator.locks,
      AbortController: env.AbortController })
    : aloneOwner(options);
  try {
    if (env.SharedWorker) {
      return workerOwner({ ...options, SharedWorker: env.SharedWorker, fallback: withoutWorker });
    }
  } catch (error) { /* a worker refused (a sandboxed page, say): do without */ }
  return withoutWorker();
}
