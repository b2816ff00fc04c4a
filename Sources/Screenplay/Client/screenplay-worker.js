// Screenplay's shared worker (a module worker): owns the browser's one EventSource, so every tab of the site shares a
// single HTTP connection, and hands each message to every tab. The same stream module a tab uses without a worker.
import { PATHS } from "./wire.js";
import { openStream } from "./stream.js";
import { createHub } from "./tabs.js";

const hub = createHub({ streamsURL: PATHS.streams, open: (url, emit) => openStream({ url, emit }) });
self.onconnect = (event) => hub.connect(event.ports[0]);
