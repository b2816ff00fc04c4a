// Screenplay shared worker (wire protocol v2, see the README, "The wire protocol"): owns the browser's one EventSource, so every tab of the
// site shares a single HTTP connection (browsers allow six per origin), and hands each message to every tab.
// Self-contained: the tabs post {type:"hello", streams} when they connect and {type:"bye"} when they go.
"use strict";

var NAMES = ["patch", "reset", "title", "navigate", "ack", "url", "rebuilt", "dev-error", "dev-ok", "dev-stylesheet"];
var ports = [];
var streamsURL = "/streams";
var source = null, streamId = null, state = "connecting", delay = 500, timer = null;

function broadcast(message) {
  ports.forEach(function (port) { port.postMessage(message); });
}

var client = null; // the client version the server names in its greeting

function setState(value) {
  state = value;
  broadcast({ type: "state", state: value });
}

function greet(port) {
  if (streamId) port.postMessage({ type: "stream", stream: streamId, client: client });
  port.postMessage({ type: "state", state: state });
}

function open() {
  clearTimeout(timer);
  if (source) source.close();
  streamId = null;
  setState("connecting");
  source = new EventSource(streamsURL);
  source.addEventListener("stream", function (event) {
    var greeting = JSON.parse(event.data);
    streamId = greeting.stream;
    client = greeting.client || null;
    delay = 500;
    broadcast({ type: "stream", stream: streamId, client: client });
    setState("live");
  });
  NAMES.forEach(function (name) {
    source.addEventListener(name, function (event) {
      broadcast({ type: "event", name: name, id: event.lastEventId, data: event.data });
    });
  });
  // The server does not resume a stream: close it and open a new one (a new id, so every tab re-attaches).
  source.addEventListener("error", function () {
    source.close();
    source = null;
    streamId = null;
    setState("offline");
    timer = setTimeout(open, delay);
    delay = Math.min(delay * 2, 10000);
  });
}

// No tab left: nothing to listen for.
function stop() {
  clearTimeout(timer);
  if (source) source.close();
  source = null;
  streamId = null;
  state = "connecting";
  delay = 500;
}

self.onconnect = function (event) {
  var port = event.ports[0];
  ports.push(port);
  port.onmessage = function (message) {
    var data = message.data || {};
    if (data.type === "hello") {
      if (data.streams) streamsURL = data.streams;
      // First tab, or a tab back from sleep while the stream waits to retry: (re)open now.
      if (!source) open();
      greet(port);
    } else if (data.type === "bye") {
      var index = ports.indexOf(port);
      if (index >= 0) ports.splice(index, 1);
      port.close();
      if (!ports.length) stop();
    }
  };
  greet(port);
};
