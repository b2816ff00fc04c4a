// The small modules of the page: controls.js, connection.js, announce.js, development.js — and the rule that every
// wire name comes from wire.js.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { announce } from "../../Sources/Screenplay/Client/announce.js";
import { connectionState, showConnection } from "../../Sources/Screenplay/Client/connection.js";
import {
  controlNamed, dataSeq, isFieldControl, renderedValue, valueOf,
} from "../../Sources/Screenplay/Client/controls.js";
import { OVERLAY_ID, developmentEvent, reloadStylesheet } from "../../Sources/Screenplay/Client/development.js";
import { page } from "./support.js";

test("the connection shows live only once the screen is attached to the owner's live stream", () => {
  assert.equal(connectionState({ owner: "live", stream: "B1", attached: "B1", refused: false }), "live");
  assert.equal(connectionState({ owner: "live", stream: "B2", attached: "B1", refused: false }), "connecting");
  assert.equal(connectionState({ owner: "live", stream: "B1", attached: null, refused: true }), "offline");
  assert.equal(connectionState({ owner: "offline", stream: null, attached: null, refused: false }), "offline");
  const root = page().documentElement;
  assert.equal(showConnection(root, "live"), true);
  assert.equal(showConnection(root, "live"), false, "written once per change");
  assert.equal(root.getAttribute("data-connection"), "live");
});

test("changed regions inside data-announce are read out by the live region; others are not", () => {
  const doc = page('<p id="a" data-announce> Saved </p><p id="b">quiet</p>' +
    '<div data-announcer aria-live="polite"></div>');
  assert.equal(announce(doc, ["b"]), null);
  assert.equal(announce(doc, ["a", "b", "gone"]), "Saved");
  assert.equal(doc.querySelector("[data-announcer]").textContent, "Saved");
});

test("a control's value, rendered value and data-seq, as the server's field reads them", () => {
  const doc = page('<div class="field"><input id="c" name="c" type="checkbox" checked>' +
    '<select id="s" name="s"><option>one</option><option value="2" selected>two</option></select>' +
    '<textarea id="t" name="t">hello</textarea><input id="n" name="n" value="v" data-seq="4">' +
    '<input id="h" name="h" type="hidden"></div><input id="outside" name="outside">');
  const byId = (id) => doc.getElementById(id);
  assert.equal(valueOf(byId("c")), "on");
  byId("c").checked = false;
  assert.equal(valueOf(byId("c")), "");
  assert.equal(renderedValue(byId("c")), "on");
  assert.equal(renderedValue(byId("s")), "2");
  assert.equal(renderedValue(byId("t")), "hello");
  assert.equal(dataSeq(byId("n")), 4);
  assert.equal(dataSeq(byId("t")), 0);
  assert.equal(isFieldControl(byId("h")), false);
  assert.equal(isFieldControl(byId("outside")), false);
  assert.equal(controlNamed(doc, "n"), byId("n"));
  assert.equal(controlNamed(doc, "outside"), null);
});

test("development events show and hide the template error overlay and swap a stylesheet", () => {
  const doc = page();
  const error = JSON.stringify({ file: "Movie.html", line: 3, message: "bad" });
  assert.equal(developmentEvent(doc, "dev-error", error), true);
  const overlay = doc.getElementById(OVERLAY_ID);
  assert.equal(overlay.parentNode, doc.documentElement, "outside the body a reset replaces");
  assert.match(overlay.textContent, /Movie\.html:3\nbad/);
  assert.equal(developmentEvent(doc, "dev-ok", ""), true);
  assert.equal(doc.getElementById(OVERLAY_ID), null);
  assert.equal(developmentEvent(doc, "patch", "[]"), false);
  doc.head.insertAdjacentHTML("beforeend",
    '<link rel="stylesheet" href="/public/app.css"><link rel="stylesheet" href="/other.css">');
  const fresh = reloadStylesheet(doc, "/public/app.css", 42);
  assert.equal(fresh.length, 1);
  assert.equal(fresh[0].getAttribute("href"), "/public/app.css?v=42");
});

test("no module but wire.js spells a wire path, event name, header or <html> attribute", () => {
  const folder = new URL("../../Sources/Screenplay/Client/", import.meta.url);
  const names = ['"/screens', '"/streams', "'/screens", "X-Requested-With", "Screenplay-Navigate", '"data-screen',
    '"data-csrf', '"data-wire', '"data-streams', '"data-client', '"data-connection', '"data-last-event-id',
    '"data-stream-owner', '"data-navigating', '"_aid"', '"dev-error"', '"rebuilt"', '"patch"', '"reset"', '"ack"'];
  const modules = readdirSync(folder).filter((name) => name.endsWith(".js") && name !== "wire.js");
  assert.ok(modules.length >= 10);
  for (const module of modules) {
    const text = readFileSync(new URL(module, folder), "utf8");
    for (const name of names) assert.ok(!text.includes(name), `${module} spells ${name}`);
    assert.ok(text.split("\n").length <= 350, `${module} is over 350 lines`);
  }
});
