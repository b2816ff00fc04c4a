// collection.js: the arrow keys move between a collection view's cells by where they are on the screen. jsdom lays
// nothing out, so each cell's box is given: a grid of `columns` cells of 100 × 50 px a line.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createCollections, neighbour } from "../../Sources/Screenplay/Client/collection.js";
import { page } from "./support.js";

function grid(keys, { spacer = false } = {}) {
  return `<ul id="collection" data-collection="grid">` + (spacer ? `<li data-spacer="top" data-rows="0"></li>` : "") +
    keys.map((key) => `<li id="${key}" data-key="${key}"><a href="/m/${key}">${key}</a></li>`).join("") + `</ul>` +
    `<input id="search">`;
}

// Lays the cells out `columns` to a line (the last line may be short, and `offsets` shifts a cell across).
function lay(doc, columns, offsets = {}) {
  const all = Array.from(doc.getElementById("collection").children).filter((cell) => !cell.hasAttribute("data-spacer"));
  all.forEach((cell, index) => {
    const top = Math.floor(index / columns) * 60, left = (index % columns) * 110 + (offsets[cell.id] || 0);
    cell.getBoundingClientRect = () => ({ top, bottom: top + 50, left, right: left + 100, height: 50, width: 100 });
  });
}

function key(doc, target, name, extra = {}) {
  const event = new doc.defaultView.KeyboardEvent("keydown", { key: name, bubbles: true, cancelable: true, ...extra });
  target.dispatchEvent(event);
  return event;
}

test("Left and Right go to the cell before and after, across lines, and stop at the ends", () => {
  const doc = page(grid(["a", "b", "c", "d", "e"]));
  lay(doc, 3);
  const collection = doc.getElementById("collection"), cell = (id) => doc.getElementById(id);
  assert.equal(neighbour(collection, cell("c"), "ArrowRight"), cell("d"));
  assert.equal(neighbour(collection, cell("d"), "ArrowLeft"), cell("c"));
  assert.equal(neighbour(collection, cell("a"), "ArrowLeft"), null);
  assert.equal(neighbour(collection, cell("e"), "ArrowRight"), null);
});

test("Up and Down go to the nearest cell across in the line above or below", () => {
  const doc = page(grid(["a", "b", "c", "d", "e", "f", "g"]));
  lay(doc, 3);
  const collection = doc.getElementById("collection"), cell = (id) => doc.getElementById(id);
  assert.equal(neighbour(collection, cell("b"), "ArrowDown"), cell("e"));
  assert.equal(neighbour(collection, cell("e"), "ArrowUp"), cell("b"));
  // The last line holds one cell: Down from any column of the line above lands on it.
  assert.equal(neighbour(collection, cell("f"), "ArrowDown"), cell("g"));
  assert.equal(neighbour(collection, cell("a"), "ArrowUp"), null);
  assert.equal(neighbour(collection, cell("g"), "ArrowDown"), null);
});

test("Up and Down pick the cell whose centre is nearest, when lines do not line up", () => {
  const doc = page(grid(["a", "b", "c", "d", "e", "f"]));
  lay(doc, 3, { d: 60, e: 60, f: 60 });
  const collection = doc.getElementById("collection"), cell = (id) => doc.getElementById(id);
  // c's centre is at 270; e's at 220 and f's at 330: e is nearer.
  assert.equal(neighbour(collection, cell("c"), "ArrowDown"), cell("e"));
});

test("an arrow key moves focus to the neighbour's link; spacers are not cells", () => {
  const doc = page(grid(["a", "b", "c", "d"], { spacer: true }));
  lay(doc, 2);
  createCollections({ doc }).start();
  const link = (id) => doc.querySelector(`#${id} a`);
  link("a").focus();
  const event = key(doc, link("a"), "ArrowDown");
  assert.equal(event.defaultPrevented, true);
  assert.equal(doc.activeElement, link("c"));
  key(doc, link("c"), "ArrowRight");
  assert.equal(doc.activeElement, link("d"));
  key(doc, link("d"), "ArrowUp");
  assert.equal(doc.activeElement, link("b"));
});

test("a cell without a focusable element takes focus itself", () => {
  const doc = page(`<ul id="collection" data-collection="strip"><li id="a">A</li><li id="b">B</li></ul>`);
  lay(doc, 2);
  createCollections({ doc }).start();
  const a = doc.getElementById("a"), b = doc.getElementById("b");
  a.setAttribute("tabindex", "-1");
  a.focus();
  key(doc, a, "ArrowRight");
  assert.equal(doc.activeElement, b);
  assert.equal(b.getAttribute("tabindex"), "-1");
});

test("modified keys, keys at an edge and keys typed into fields are left alone", () => {
  const doc = page(grid(["a", "b"]));
  lay(doc, 2);
  createCollections({ doc }).start();
  const a = doc.querySelector("#a a");
  a.focus();
  assert.equal(key(doc, a, "ArrowRight", { shiftKey: true }).defaultPrevented, false);
  assert.equal(key(doc, a, "ArrowLeft").defaultPrevented, false);
  assert.equal(doc.activeElement, a);
  const search = doc.getElementById("search");
  assert.equal(key(doc, search, "ArrowDown").defaultPrevented, false);
});
