// The browser's one event stream (GET /streams), shared by every tab of the site; the shared worker and a tab that
// owns the stream itself (the elected leader, or a tab alone) run this same module. Whoever owns it hands each tab
// the same messages: {type: "stream", stream, version, client} once the server greets, {type: "state", state}, and
// {type: "event", name, id, data} for each event.
import { DEVELOPMENT_EVENTS, EVENTS, SCREEN_EVENTS } from "./wire.js";

// Every event a stream carries after its greeting.
export const STREAM_EVENTS = Object.freeze([...SCREEN_EVENTS, EVENTS.rebuilt, ...DEVELOPMENT_EVENTS]);

export const FIRST_DELAY_MS = 500;
export const MAX_DELAY_MS = 10000;

// The wait after `delay` before the next try: doubled, at most MAX_DELAY_MS.
export function nextDelay(delay) {
  return Math.min(delay * 2, MAX_DELAY_MS);
}

// The `stream` event's data, {"stream": id, "version": n, "client": "…"}, or null when it names no stream.
export function decodeGreeting(data) {
  let greeting;
  try { greeting = JSON.parse(data); } catch (error) { return null; }
  if (!greeting || typeof greeting.stream !== "string" || !greeting.stream) return null;
  return { stream: greeting.stream, version: typeof greeting.version === "number" ? greeting.version : null,
    client: typeof greeting.client === "string" ? greeting.client : null };
}

// A screen event's id, `{sid}.{n}` (the sid may itself hold dots): {screen, number}, or null.
export function decodeEventId(id) {
  const dot = (id || "").lastIndexOf(".");
  if (dot <= 0) return null;
  const text = id.slice(dot + 1);
  if (!/^[0-9]+$/.test(text)) return null;
  return { screen: id.slice(0, dot), number: parseInt(text, 10) };
}

// This tab's place in its screen's events: which the tab applies (its own screen's, each once, in order; a replay
// after a re-attach or a hand-over repeats events the page shows already), and the last one applied, which the
// next attach names so the server replays only what is missing.
export function createEventLog(screen, last = 0) {
  const log = {
    screen,
    last,
    // Whether to apply the event with `id`; records it as applied when so.
    accept(id) {
      const decoded = decodeEventId(id);
      if (!decoded || decoded.screen !== log.screen || !(decoded.number > log.last)) return false;
      log.last = decoded.number;
      return true;
    },
    // The screen was rebuilt under another id, or a reset brought a page that shows events up to `last`.
    follow(newScreen, newLast) {
      if (newScreen !== log.screen) log.last = 0;
      log.screen = newScreen;
      log.last = Math.max(log.last, newLast || 0);
    },
  };
  return log;
}

// Opens the stream at `url` and keeps it open: a broken stream is never resumed (the server ignores
// Last-Event-ID), a new one is opened after a growing delay, and every tab re-attaches its screen with the last
// event it applied. `emit` receives the messages above; `EventSource` and `timers` are the environment's.
export function openStream({ url, emit, EventSource = globalThis.EventSource, timers = globalThis }) {
  let source = null, timer = null, delay = FIRST_DELAY_MS, greeting = null, state = "connecting";

  function setState(value) {
    state = value;
    emit({ type: "state", state: value });
  }

  function open() {
    timers.clearTimeout(timer);
    if (source) source.close();
    greeting = null;
    setState("connecting");
    const opened = source = new EventSource(url);
    opened.addEventListener(EVENTS.stream, (event) => {
      const decoded = decodeGreeting(event.data);
      if (!decoded || opened !== source) return;
      greeting = decoded;
      delay = FIRST_DELAY_MS;
      emit({ type: "stream", ...greeting });
      setState("live");
    });
    for (const name of STREAM_EVENTS) {
      opened.addEventListener(name, (event) => {
        if (opened === source) emit({ type: "event", name, id: event.lastEventId || "", data: event.data });
      });
    }
    opened.addEventListener("error", () => {
      if (opened !== source) return;
      opened.close();
      source = null;
      greeting = null;
      setState("offline");
      timer = timers.setTimeout(open, delay);
      delay = nextDelay(delay);
    });
  }

  open();
  return {
    // Tells a tab that joins where the stream stands.
    greet(send) {
      if (greeting) send({ type: "stream", ...greeting });
      send({ type: "state", state });
    },
    // A tab woke up, or came online: a stream waiting to retry opens now.
    kick() { if (!source) open(); },
    close() {
      timers.clearTimeout(timer);
      if (source) source.close();
      source = null;
    },
    get state() { return state; },
  };
}
