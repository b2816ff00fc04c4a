// What the client's tests share: a real DOM (Debian's node-jsdom), fake timers, a fake EventSource, and a fake fetch
// that records posts and answers as a test tells it.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

// Debian installs node modules in /usr/share/nodejs, which Debian's node searches and other builds of node (and
// their dependencies, found the same way) do not: add Debian's folders to the global search path.
function loadJSDOM() {
  const Module = require("node:module");
  const debian = ["/usr/share/nodejs", "/usr/lib/nodejs"];
  const known = (process.env.NODE_PATH || "").split(":").filter(Boolean);
  process.env.NODE_PATH = [...known, ...debian.filter((folder) => !known.includes(folder))].join(":");
  Module._initPaths();
  try {
    return require("jsdom");
  } catch (error) {
    throw new Error("jsdom is missing: `make test-client` installs Debian's node-jsdom (" + error.message + ")");
  }
}

export const { JSDOM } = loadJSDOM();

// A document with `body` as its body's markup, and attributes on <html>.
export function page(body = "", htmlAttributes = "") {
  const markup = `<!DOCTYPE html><html ${htmlAttributes}><head><title>T</title></head><body>${body}</body></html>`;
  const dom = new JSDOM(markup,
    { url: "http://example.test/page", pretendToBeVisual: true });
  return dom.window.document;
}

// Timers that run only when a test says so.
export function fakeTimers() {
  let next = 1, now = 0;
  const pending = new Map();
  return {
    setTimeout(callback, ms = 0) { const id = next++; pending.set(id, { callback, at: now + ms, ms }); return id; },
    clearTimeout(id) { pending.delete(id); },
    // The delays of the timers waiting, in order.
    get delays() { return [...pending.values()].map((timer) => timer.ms); },
    get count() { return pending.size; },
    // Runs every timer due within `ms` from now, in time order.
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = end;
    },
    runAll() { this.advance(1e9); },
  };
}

// An EventSource that a test drives: every instance is kept in `FakeEventSource.opened`.
export class FakeEventSource {
  static opened = [];
  constructor(url) {
    this.url = url;
    this.listeners = {};
    this.closed = false;
    FakeEventSource.opened.push(this);
  }
  addEventListener(name, listener) { (this.listeners[name] ||= []).push(listener); }
  close() { this.closed = true; }
  dispatch(name, data, lastEventId = "") {
    for (const listener of this.listeners[name] || []) listener({ data, lastEventId });
  }
  static reset() { FakeEventSource.opened = []; }
  static get last() { return FakeEventSource.opened[FakeEventSource.opened.length - 1]; }
}

// A fetch that records each call and answers with `answer(url, init)` (a status, or a Response-like object).
export function fakeFetch(answer = () => 204) {
  const calls = [];
  const fetch = (url, init = {}) => {
    const body = init.body instanceof URLSearchParams ? Object.fromEntries(init.body) : init.body;
    calls.push({ url, init, body });
    const result = answer(url, init);
    if (result instanceof Promise) return result;
    if (result instanceof Error) return Promise.reject(result);
    const status = typeof result === "number" ? result : result.status;
    return Promise.resolve({ status, ok: status >= 200 && status < 300, redirected: false, url,
      headers: new Map(), ...(typeof result === "object" ? result : {}) });
  };
  fetch.calls = calls;
  return fetch;
}

// A promise to wait on, resolved from outside.
export function deferred() {
  let resolve, reject;
  const promise = new Promise((yes, no) => { resolve = yes; reject = no; });
  return { promise, resolve, reject };
}

// Lets every pending promise callback run.
export const settle = () => new Promise((resolve) => setImmediate(resolve));
