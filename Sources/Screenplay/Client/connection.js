// The page's connection state, written on <html> as data-connection for the stylesheet (and the tests) to read:
// `connecting`, `live` or `offline`.
import { ATTRIBUTES } from "./wire.js";

// What the page shows: the stream's owner may be live while this tab's screen is not attached to its stream yet
// (connecting), or was refused for good (offline).
export function connectionState({ owner, stream, attached, refused }) {
  if (owner === "live" && attached !== stream) return refused ? "offline" : "connecting";
  return owner;
}

// Only on a change: observers of <html> (the stylesheet's connection bar, tests) see each state once.
export function showConnection(root, state) {
  if (root.getAttribute(ATTRIBUTES.connection) === state) return false;
  root.setAttribute(ATTRIBUTES.connection, state);
  return true;
}

export function shownConnection(root) {
  return root.getAttribute(ATTRIBUTES.connection);
}
