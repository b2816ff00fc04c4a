// patch.js: operations by DOM id, the focused control kept with its caret and selection, and reset.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  applyPatch, counterpart, decodeReset, fragment, morph, resetPage,
} from "../../Sources/Screenplay/Client/patch.js";
import { page } from "./support.js";

const FIELD = (value, label = "Item", extra = "") =>
  `<div id="v20" class="field"><label for="v20-control">${label}</label>` +
  `<input id="v20-control" name="item" type="text" value="${value}"${extra}></div>`;

test("replace swaps an element by id and answers it as changed", () => {
  const doc = page('<main id="m"><p id="a">old</p><p id="b">b</p></main>');
  const changed = applyPatch(doc, [["replace", "a", '<p id="a" class="new">new</p>']]);
  assert.equal(doc.getElementById("a").textContent, "new");
  assert.equal(doc.getElementById("a").className, "new");
  assert.deepEqual(changed, ["a"]);
  assert.equal(doc.querySelectorAll("#m p").length, 2);
});

test("insert puts markup before the named sibling, or at the end without one", () => {
  const doc = page('<ul id="l"><li id="one">1</li><li id="three">3</li></ul>');
  applyPatch(doc, [["insert", "l", "three", '<li id="two">2</li>'], ["insert", "l", null, '<li id="four">4</li>']]);
  assert.deepEqual(Array.from(doc.querySelectorAll("li"), (li) => li.id), ["one", "two", "three", "four"]);
});

test("remove and move find their elements by id; unknown ids are skipped", () => {
  const doc = page('<ul id="l"><li id="a">a</li><li id="b">b</li><li id="c">c</li></ul><ul id="m"></ul>');
  applyPatch(doc, [["remove", "b"], ["move", "c", "l", "a"], ["move", "a", "m", null], ["remove", "nope"],
    ["replace", "nope", "<p>x</p>"]]);
  assert.deepEqual(Array.from(doc.querySelectorAll("#l li"), (li) => li.id), ["c"]);
  assert.deepEqual(Array.from(doc.querySelectorAll("#m li"), (li) => li.id), ["a"]);
  assert.equal(doc.getElementById("b"), null);
});

test("a replaced region keeps the focused control itself, its typed text, caret and selection", () => {
  const doc = page(`<main id="m">${FIELD("abc")}</main>`);
  const input = doc.getElementById("v20-control");
  input.focus();
  input.value = "abcdef";
  input.setSelectionRange(2, 4);
  applyPatch(doc, [["replace", "v20", FIELD("server", "Renamed", ' aria-invalid="true"')]]);
  assert.equal(doc.getElementById("v20-control"), input, "the same element");
  assert.equal(doc.activeElement, input);
  assert.equal(input.value, "abcdef");
  assert.equal(input.selectionStart, 2);
  assert.equal(input.selectionEnd, 4);
  assert.equal(input.getAttribute("aria-invalid"), "true");
  assert.equal(doc.querySelector("label").textContent, "Renamed");
});

test("the focused control's siblings around it are replaced in order", () => {
  const doc = page(`<main id="m">${FIELD("a")}</main>`);
  doc.getElementById("v20-control").focus();
  applyPatch(doc, [["replace", "v20", FIELD("a").replace("</div>", '<p id="v20-error">Too short</p></div>')]]);
  const wrapper = doc.getElementById("v20");
  assert.deepEqual(Array.from(wrapper.children, (node) => node.tagName), ["LABEL", "INPUT", "P"]);
  assert.equal(doc.getElementById("v20-error").textContent, "Too short");
});

test("a focused control whose markup changes shape is replaced, and focus and caret come back by id", () => {
  const doc = page('<div id="box"><input id="q" name="q" value="hello"></div>');
  const input = doc.getElementById("q");
  input.focus();
  input.setSelectionRange(1, 3);
  applyPatch(doc, [["replace", "box",
    '<section id="box"><span><input id="q" name="q" value="hello"></span></section>']]);
  const again = doc.getElementById("q");
  assert.notEqual(again, input);
  assert.equal(doc.activeElement, again);
  assert.equal(again.selectionStart, 1);
  assert.equal(again.selectionEnd, 3);
});

test("a replaced control with another value gets the focus but not the old selection", () => {
  const doc = page('<div id="box"><input id="q" value="hello"></div>');
  const input = doc.getElementById("q");
  input.focus();
  input.setSelectionRange(1, 3);
  applyPatch(doc, [["replace", "box", '<p id="box"><input id="q" value="other"></p>']]);
  assert.equal(doc.activeElement.id, "q");
  assert.equal(doc.activeElement.value, "other");
  assert.notDeepEqual([doc.activeElement.selectionStart, doc.activeElement.selectionEnd], [1, 3]);
});

test("a focused checkbox keeps its state and a focused select its choice among new options", () => {
  const doc = page('<div id="f"><input id="c" name="c" type="checkbox"><select id="s" name="s">' +
    '<option value="a">A</option><option value="b">B</option></select></div>');
  const box = doc.getElementById("c");
  box.checked = true;
  box.focus();
  applyPatch(doc, [["replace", "f", '<div id="f"><input id="c" name="c" type="checkbox" class="x">' +
    '<select id="s" name="s"><option value="a">A</option><option value="b">B</option></select></div>']]);
  assert.equal(doc.getElementById("c"), box);
  assert.equal(box.checked, true);
  assert.equal(box.className, "x");
  const select = doc.getElementById("s");
  select.value = "b";
  select.focus();
  applyPatch(doc, [["replace", "f", '<div id="f"><input id="c" name="c" type="checkbox">' +
    '<select id="s" name="s"><option value="a">A</option><option value="b">B</option><option value="c">C</option>' +
    "</select></div>"]]);
  assert.equal(doc.getElementById("s"), select);
  assert.equal(select.options.length, 3);
  assert.equal(select.value, "b");
});

test("settle hears each new field control, settleFocused the one kept in place", () => {
  const doc = page(`<main id="m">${FIELD("a")}<div id="o" class="field"><input id="o-c" name="other"></div></main>`);
  doc.getElementById("v20-control").focus();
  const settled = [], focused = [];
  const other = '<div id="o" class="field"><input id="o-c" name="other"></div>';
  applyPatch(doc, [["replace", "m", `<main id="m">${FIELD("b")}${other}</main>`]], {
    settle: (control) => settled.push(control.name),
    settleFocused: (control, fresh) => focused.push([control.id, fresh.getAttribute("value")]),
  });
  assert.deepEqual(settled, ["other"]);
  assert.deepEqual(focused, [["v20-control", "b"]]);
});

test("counterpart and morph: same id first, same name next, never another kind", () => {
  const doc = page('<div id="w"><input id="x" name="n" type="text"></div>');
  const control = doc.getElementById("x");
  assert.equal(counterpart(fragment(doc, '<input name="n">'), control).getAttribute("name"), "n");
  assert.equal(counterpart(fragment(doc, '<input id="x" type="checkbox">'), control), null);
  assert.equal(morph(doc.getElementById("w"), fragment(doc, "<div id=\"w\"><p>gone</p></div>"), control), null);
});

test("reset swaps the body and the <html> attributes that name the screen, title and theme colour", () => {
  const doc = page('<p id="old">old</p>',
    'data-screen="S1" data-csrf="T1" data-last-event-id="4" data-connection="live" class="a"');
  doc.head.insertAdjacentHTML("beforeend", '<meta name="theme-color" content="#000">');
  const swaps = [];
  resetPage(doc, '<!DOCTYPE html><html data-screen="S2" data-csrf="T2" data-last-event-id="1" data-screen-url="/n" ' +
    'data-render="00000000000000ff">' +
    '<head><title>New</title><meta name="theme-color" content="#fff"></head><body><p id="new">new</p></body></html>',
  (on) => swaps.push(on));
  const root = doc.documentElement;
  assert.equal(doc.getElementById("old"), null);
  assert.equal(doc.getElementById("new").textContent, "new");
  assert.equal(root.getAttribute("data-screen"), "S2");
  assert.equal(root.getAttribute("data-csrf"), "T2");
  assert.equal(root.getAttribute("data-last-event-id"), "1");
  assert.equal(root.getAttribute("data-screen-url"), "/n");
  assert.equal(root.getAttribute("data-render"), "00000000000000ff", "a later attach names the new render");
  assert.equal(root.hasAttribute("class"), false);
  assert.equal(root.getAttribute("data-connection"), "live", "the client's own attribute stays");
  assert.equal(doc.title, "New");
  assert.equal(doc.querySelector('meta[name="theme-color"]').getAttribute("content"), "#fff");
  assert.deepEqual(swaps, [true, false]);
});

test("a reset's data is {html}; anything else is refused", () => {
  assert.equal(decodeReset('{"html":"<p>x</p>"}'), "<p>x</p>");
  assert.throws(() => decodeReset('{"events":"/screens/S/events"}'));
  assert.throws(() => decodeReset("not json"));
});

test("a table's keyed operations, as the server sends them back to front, leave the rows in the new order", () => {
  const doc = page('<ul id="t"><li id="a">a</li><li id="b">b</li><li id="c">c</li><li id="d">d</li></ul>');
  // a b c d → d b x c: a removed, d moved before b, x inserted before c; b and c are not touched.
  const b = doc.getElementById("b"), c = doc.getElementById("c");
  applyPatch(doc, [["remove", "a"], ["insert", "t", "c", '<li id="x">x</li>'], ["move", "d", "t", "b"]]);
  assert.deepEqual(Array.from(doc.querySelectorAll("#t > li")).map((li) => li.id), ["d", "b", "x", "c"]);
  assert.equal(doc.getElementById("b"), b);
  assert.equal(doc.getElementById("c"), c);
});

test("a reset changes only what differs: elements in both renders stay, with focus and scroll", () => {
  const doc = page('<main id="v1"><h1 id="v2">Old title</h1><p>text</p>' +
    '<input id="v3" name="title" value="a"><ul id="v4"><li id="v5">one</li><li id="v6">two</li></ul>' +
    '<div id="v7" class="scroller">box</div><p id="v8">gone</p></main>', 'data-screen="S1"');
  const main = doc.getElementById("v1"), input = doc.getElementById("v3"), one = doc.getElementById("v5");
  const box = doc.getElementById("v7");
  box.scrollTop = 40;
  input.focus();
  input.value = "typed";
  resetPage(doc, '<!DOCTYPE html><html data-screen="S1"><head><title>T</title></head><body>' +
    '<main id="v1" class="fresh"><h1 id="v2">New title</h1><p>text</p>' +
    '<input id="v3" name="title" value="b"><ul id="v4"><li id="v6">two</li><li id="v5">one!</li><li id="v9">three</li>' +
    '</ul><div id="v7" class="scroller">box</div></main></body></html>');
  assert.equal(doc.getElementById("v1"), main, "the same element, its attributes updated");
  assert.equal(main.getAttribute("class"), "fresh");
  assert.equal(doc.getElementById("v2").textContent, "New title");
  assert.equal(doc.getElementById("v3"), input);
  assert.equal(doc.activeElement, input, "focus stays");
  assert.equal(input.value, "b", "a control shows the new render's value (the fields module puts typing back)");
  assert.equal(doc.getElementById("v5"), one, "a moved row is the same element");
  assert.equal(one.textContent, "one!");
  assert.deepEqual(Array.from(doc.getElementById("v4").children).map((li) => li.id), ["v6", "v5", "v9"]);
  assert.equal(doc.getElementById("v7"), box);
  assert.equal(doc.getElementById("v8"), null, "what the new render lacks goes");
  assert.equal(doc.body.innerHTML, '<main id="v1" class="fresh"><h1 id="v2">New title</h1><p>text</p>' +
    '<input id="v3" name="title" value="b"><ul id="v4"><li id="v6">two</li><li id="v5">one!</li>' +
    '<li id="v9">three</li></ul><div id="v7" class="scroller">box</div></main>');
});

test("a reset to another screen's render replaces what does not match by id and kind", () => {
  const doc = page('<main id="v1"><h1 id="v2">Movie</h1><p>a</p></main>');
  const heading = doc.getElementById("v2");
  resetPage(doc, '<!DOCTYPE html><html><head><title>T</title></head><body>' +
    '<main id="v1"><section id="v2"><h2>Not found</h2></section>text</main><footer>f</footer></body></html>');
  assert.notEqual(doc.getElementById("v2"), heading);
  assert.equal(doc.getElementById("v2").tagName, "SECTION");
  assert.equal(doc.body.innerHTML, '<main id="v1"><section id="v2"><h2>Not found</h2></section>text</main>' +
    "<footer>f</footer>");
});
