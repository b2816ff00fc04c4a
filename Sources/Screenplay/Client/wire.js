// The wire protocol's names, generated from ScreenWire (Sources/Screenplay/Wire/ScreenWire.swift): do not
// edit. `swift test --filter ScreenWireTests` fails when this file and ScreenWire disagree, and rewrites it
// with SNAPSHOT_TESTING_RECORD=all.

export const VERSION = 2;

export const PATHS = Object.freeze({
  streams: "/streams",
  attach: "/streams/{stream}/screens",
  detach: "/streams/{stream}/detach",
  page: "/screens/{sid}",
  action: "/screens/{sid}/actions/{action}",
  input: "/screens/{sid}/input",
  close: "/screens/{sid}/close",
  rows: "/screens/{sid}/rows",
  uploads: "/uploads",
});

export const EVENTS = Object.freeze({
  stream: "stream",
  patch: "patch",
  reset: "reset",
  title: "title",
  navigate: "navigate",
  url: "url",
  ack: "ack",
  rebuilt: "rebuilt",
  developmentError: "dev-error",
  developmentOK: "dev-ok",
  developmentStylesheet: "dev-stylesheet",
});

export const SCREEN_EVENTS = Object.freeze(["patch", "reset", "title", "navigate", "ack", "url"]);

export const DEVELOPMENT_EVENTS = Object.freeze(["dev-error", "dev-ok", "dev-stylesheet"]);

export const FIELDS = Object.freeze({
  csrf: "csrf",
  screen: "screen",
  url: "url",
  last: "last",
  version: "version",
  name: "name",
  value: "value",
  seq: "seq",
  event: "event",
  actionID: "_aid",
  row: "row",
  render: "render",
  table: "table",
  first: "first",
  key: "key",
  modal: "modal",
});

export const INPUT_EVENTS = Object.freeze({
  change: "change",
  end: "end",
  primary: "primary",
});

export const HEADERS = Object.freeze({
  requestedWith: "X-Requested-With",
  navigate: "Screenplay-Navigate",
});

export const REQUESTED_WITH_FETCH = "fetch";

export const ATTRIBUTES = Object.freeze({
  wire: "data-wire",
  screen: "data-screen",
  csrf: "data-csrf",
  streams: "data-streams",
  screenURL: "data-screen-url",
  lastEventID: "data-last-event-id",
  client: "data-client",
  render: "data-render",
  connection: "data-connection",
  streamOwner: "data-stream-owner",
  navigating: "data-navigating",
  modal: "data-modal",
  cancel: "data-cancel",
  uploadURL: "data-upload-url",
  uploadScreen: "data-upload-screen",
  uploadScreenKey: "data-upload-screen-key",
  uploadCSRFKey: "data-upload-csrf-key",
});

// A path of PATHS with its {placeholders} filled: path(PATHS.action, { sid: id, action: "close" }).
export function path(template, parameters) {
  return template.replace(/\{(\w+)\}/g, function (_, key) {
    if (!(key in parameters)) throw new Error("wire: no value for {" + key + "} in " + template);
    return encodeURIComponent(parameters[key]);
  });
}
