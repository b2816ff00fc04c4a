// table.js: a windowed table's spacers, the rows' places for assistive technology, rows asked for as the user
// scrolls, and the first row the user sees kept in place across a patch. jsdom lays nothing out, so each row's box
// is given: rows of 30 px stacked from `offset`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { captureAnchors, createTables, firstVisible, layout, needsRows, restoreAnchors } from
  "../../Sources/Screenplay/Client/table.js";
import { page } from "./support.js";

function table(before, keys, after) {
  return `<ul id="t" data-table-window="100"><li data-spacer="top" data-rows="${before}" aria-hidden="true"></li>` +
    keys.map((key) => `<li data-key="${key}"><a href="/m/${key}">${key}</a></li>`).join("") +
    `<li data-spacer="bottom" data-rows="${after}" aria-hidden="true"></li></ul>`;
}

// Lays the table out as a browser would with 30 px rows, the document scrolled by `scroll` px.
function lay(doc, scroll) {
  let y = -scroll;
  for (const child of doc.getElementById("t").children) {
    const height = child.hasAttribute("data-spacer") ? parseInt(child.style.height || "0", 10) : 30;
    const top = y;
    child.getBoundingClientRect = () => ({ top, bottom: top + height, height });
    y += height;
  }
}

test("layout gives the spacers the rows' average height and each row its place among all", () => {
  const doc = page(table(100, ["a", "b"], 50));
  lay(doc, 0);
  layout(doc);
  const [top, a, b, bottom] = doc.getElementById("t").children;
  assert.equal(top.style.height, "3000px");
  assert.equal(bottom.style.height, "1500px");
  assert.equal(a.getAttribute("aria-posinset"), "101");
  assert.equal(b.getAttribute("aria-posinset"), "102");
  assert.equal(a.getAttribute("aria-setsize"), "152");
  assert.equal(top.getAttribute("aria-posinset"), null);
  assert.equal(top.getAttribute("aria-hidden"), "true");
});

test("the spacers' page links, for pages without the script, are hidden when it runs", () => {
  const doc = page(table(20, ["a"], 20).replace('data-rows="20" aria-hidden="true">',
    'data-rows="20"><a data-page-link rel="prev" href="?page=1">Previous page</a>'));
  layout(doc);
  assert.equal(doc.querySelector("[data-page-link]").hidden, true);
  assert.equal(doc.querySelector('[data-spacer="top"]').getAttribute("aria-hidden"), "true");
});

test("the first visible row is counted in the spacers too, and rows are wanted near the window's ends", () => {
  const keys = Array.from({ length: 100 }, (_, i) => "k" + (100 + i));
  const doc = page(table(100, keys, 1000));
  const t = doc.getElementById("t");
  lay(doc, 0); layout(doc);
  lay(doc, 3000 + 15 * 30 + 5); // the 16th shown row at the top
  assert.deepEqual((({ first, key }) => ({ first, key }))(firstVisible(t)), { first: 115, key: "k115" });
  assert.equal(needsRows(t), false);
  lay(doc, 300); // inside the top spacer: row 10, whose key the page does not have
  assert.deepEqual((({ first, key }) => ({ first, key }))(firstVisible(t)), { first: 10, key: null });
  assert.equal(needsRows(t), true);
  lay(doc, 3000 + 100 * 30 + 600); // inside the bottom spacer
  assert.equal(firstVisible(t).first, 220);
});

test("a patch that adds rows above the first visible row leaves that row where it was on the screen", () => {
  const doc = page(table(0, ["a", "b", "c"], 0));
  const view = doc.defaultView;
  let scrolled = 0;
  view.scrollBy = (_, dy) => { scrolled += dy; };
  lay(doc, 35); // b at the top
  const anchors = captureAnchors(doc);
  assert.equal(anchors[0].key, "b");
  doc.getElementById("t").children[1].insertAdjacentHTML("beforebegin", '<li data-key="x">x</li><li data-key="y">y</li>');
  lay(doc, 35);
  restoreAnchors(doc, anchors);
  assert.equal(scrolled, 60);
});

test("scrolling near the window's end posts a rows request naming the first visible row, once until it is answered",
  async () => {
    const keys = Array.from({ length: 100 }, (_, i) => "k" + i);
    const doc = page(table(0, keys, 500));
    const posts = [];
    const timers = { setTimeout: () => 0 };
    const tables = createTables({ doc, post: (url, fields) => { posts.push({ url, fields }); return Promise.resolve(); },
      rowsURL: () => "/screens/s1/rows", csrf: () => "tok", timers });
    lay(doc, 0); layout(doc);
    lay(doc, 70 * 30);
    tables.check();
    tables.check();
    assert.equal(posts.length, 1);
    assert.equal(posts[0].url, "/screens/s1/rows");
    assert.deepEqual(posts[0].fields, { csrf: "tok", table: "t", first: "70", key: "k70" });
  });

test("after a reset that shows another window, the first visible row is asked for by its identity and put back",
  async () => {
    const doc = page(table(0, ["a", "b", "c"], 100));
    const posts = [];
    let scrolled = 0;
    doc.defaultView.scrollBy = (_, dy) => { scrolled += dy; };
    const tables = createTables({ doc, post: (url, fields) => { posts.push(fields); return Promise.resolve(); },
      rowsURL: () => "/rows", csrf: () => "tok", timers: { setTimeout: () => 0 } });
    lay(doc, 35); layout(doc); lay(doc, 35); // b, the 2nd row, at the top
    // A reset: the page comes back with the window at the start of another list.
    tables.patching(() => { doc.body.innerHTML = table(0, ["x", "y", "z"], 103); lay(doc, 35); });
    assert.deepEqual(posts.at(-1), { csrf: "tok", table: "t", first: "1", key: "b" });
    // The answer's patch brings b back: it goes where it was on the screen.
    tables.patching(() => { doc.body.innerHTML = table(0, ["a", "b", "c"], 100); lay(doc, 0); });
    assert.equal(scrolled, 35);
  });
