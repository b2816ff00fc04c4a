// navigation.js and snapshot.js: which links move in place, the swap of a screen page into the document (its <html>
// attributes, head, body, title, history, focus and announcement), the hand-over from the old screen to the new one,
// Back and Forward with their snapshots (scroll and drafts), the page's Back as history.back(), and prefetch.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createNavigation } from "../../Sources/Screenplay/Client/navigation.js";
import { formTarget, isPlainClick, screenLink } from "../../Sources/Screenplay/Client/links.js";
import { nodeAt, nodePath, restoreSnapshot, takeSnapshot } from "../../Sources/Screenplay/Client/snapshot.js";
import { deferred, fakeFetch, fakeTimers, page, settle } from "./support.js";

const SHELL = `<nav><a href="/">Home</a></nav><main><h1>Movies</h1>` +
  `<ul><li><a id="to4" href="/movies/4">Heat</a></li><li><a id="to5" href="/movies/5">Alien</a></li></ul>` +
  `<form><input name="title" value="Heat"></form></main><div aria-live="polite" data-announcer></div>`;
const ROOT = `lang="en" data-wire="2" data-screen="S1" data-csrf="T1" data-screen-url="/page" ` +
  `data-last-event-id="3" data-client="2-mine" data-connection="live" data-stream-owner="worker"`;

function screenPage({ screen = "S2", title = "Heat", client = "2-mine", body = "" } = {}) {
  return `<!DOCTYPE html><html lang="en" class="dark" data-wire="2" data-screen="${screen}" data-csrf="T-${screen}" ` +
    `data-screen-url="/movies/4" data-last-event-id="7" data-client="${client}"><head><title>${title}</title>` +
    `<meta name="theme-color" content="#000"></head><body><main>${body || `<h1>${title}</h1>`}</main>` +
    `<div aria-live="polite" data-announcer></div></body></html>`;
}

const htmlAnswer = (text, extra = {}) => ({ status: 200, headers: new Map([["Content-Type", "text/html"]]),
  text: () => Promise.resolve(text), ...extra });

function memoryStorage() {
  const items = new Map();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => items.set(key, String(value)),
    removeItem: (key) => items.delete(key), items };
}

function navigating({ answer = () => htmlAnswer(screenPage()), body = SHELL } = {}) {
  const doc = page(body, ROOT);
  const win = doc.defaultView;
  const scrolls = [];
  win.scrollTo = (x, y) => scrolls.push([x, y]);
  const fetch = fakeFetch(answer), timers = fakeTimers(), storage = memoryStorage();
  const left = [], arrived = [], discarded = [], fully = [];
  const navigation = createNavigation({ win, fetch, timers, storage,
    leave: (old) => left.push(old), arrive: () => arrived.push(doc.documentElement.getAttribute("data-screen")),
    discard: (old) => discarded.push(old), fully: (url, mode) => fully.push([url, mode]) });
  navigation.start();
  return { doc, win, fetch, timers, storage, navigation, left, arrived, discarded, fully, scrolls };
}

function clickOn(doc, selector, init = {}) {
  const event = new doc.defaultView.MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ...init });
  doc.querySelector(selector).dispatchEvent(event);
  return event;
}

test("only plain clicks on same-origin links to pages move in place", () => {
  const doc = page(`<a id="screen" href="/movies/4">a</a><a id="blank" target="_blank" href="/movies/4">b</a>` +
    `<a id="download" download href="/movies/4">c</a><a id="other" href="https://elsewhere.test/movies/4">d</a>` +
    `<a id="hash" href="#part">e</a><a id="file" href="/public/poster.png">f</a><a id="wire" href="/screens/S1">g</a>` +
    `<span data-navigation="reload"><a id="opted" href="/movies/4">h</a></span><a id="self" target="_self" ` +
    `href="/movies/4?q=x"><span id="inner">i</span></a>`);
  const win = doc.defaultView;
  const linkOf = (id) => screenLink({ target: doc.getElementById(id) }, win);
  assert.equal(linkOf("screen").pathname, "/movies/4");
  assert.equal(linkOf("inner").search, "?q=x", "a click inside a link is on the link");
  for (const id of ["blank", "download", "other", "hash", "file", "wire", "opted"]) {
    assert.equal(linkOf(id), null, id);
  }
  assert.equal(isPlainClick({ button: 0 }), true);
  for (const modified of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { altKey: true }, { button: 1 },
    { defaultPrevented: true }]) {
    assert.equal(isPlainClick({ button: 0, ...modified }), false, JSON.stringify(modified));
  }
});

test("a GET form's submission moves in place to its URL with the form's fields; POSTs and targets do not", () => {
  const doc = page(`<form id="search" role="search"><input name="q" value="heat drama"><button id="go" name="sort" ` +
    `value="year">Go</button></form><form id="post" method="post" action="/save"><input name="a"></form>` +
    `<form id="away" action="https://elsewhere.test/find"></form><form id="blank" target="_blank"></form>` +
    `<form id="wire" action="/screens/S1"></form><form id="other" action="/movies?old=1#x"><input name="page" ` +
    `value="2"><button id="post2" formmethod="post">P</button></form>`);
  const win = doc.defaultView;
  const submitted = (id, submitter = null) => formTarget({ target: doc.getElementById(id),
    submitter: submitter && doc.getElementById(submitter), defaultPrevented: false }, win);
  const search = submitted("search", "go");
  assert.equal(search.pathname + search.search, "/page?q=heat+drama&sort=year");
  const other = submitted("other");
  assert.equal(other.pathname + other.search + other.hash, "/movies?page=2", "the form's fields replace the query");
  for (const [id, submitter] of [["post"], ["away"], ["blank"], ["wire"], ["other", "post2"]]) {
    assert.equal(submitted(id, submitter), null, id);
  }
  assert.equal(formTarget({ target: doc.getElementById("search"), defaultPrevented: true }, win), null);
});

test("a submitted search moves in place", async () => {
  const s = navigating({ body: SHELL.replace("<form>", '<form id="f">') });
  s.navigation.listen();
  const event = new s.win.Event("submit", { bubbles: true, cancelable: true });
  s.doc.getElementById("f").dispatchEvent(event);
  assert.equal(event.defaultPrevented, true);
  assert.equal(s.fetch.calls[0].url, "/page?title=Heat");
  await settle(); await settle();
  assert.equal(s.doc.documentElement.getAttribute("data-screen"), "S2");
  const length = s.win.history.length;
  await s.navigation.visit("/page?title=Heat");
  assert.equal(s.win.history.length, length, "a move to the URL shown replaces its entry");
});

test("a link's screen replaces the page in place: <html> attributes, head, body, title, history", async () => {
  const s = navigating();
  const region = s.doc.querySelector("[data-announcer]");
  const historyBefore = s.win.history.length;
  const event = clickOn(s.doc, "#to4");
  assert.equal(event.defaultPrevented, false, "not listening yet");
  s.navigation.listen();
  assert.equal(clickOn(s.doc, "#to4").defaultPrevented, true);
  assert.equal(s.fetch.calls[0].url, "/movies/4");
  assert.equal(s.fetch.calls[0].init.credentials, "same-origin");
  assert.equal(s.doc.documentElement.hasAttribute("data-navigating"), true);
  await settle(); await settle();
  const root = s.doc.documentElement;
  assert.equal(root.getAttribute("data-screen"), "S2");
  assert.equal(root.getAttribute("data-csrf"), "T-S2");
  assert.equal(root.getAttribute("data-screen-url"), "/movies/4");
  assert.equal(root.getAttribute("data-last-event-id"), "7");
  assert.equal(root.getAttribute("class"), "dark");
  assert.equal(root.getAttribute("data-connection"), "live", "what the client writes stays");
  assert.equal(root.getAttribute("data-stream-owner"), "worker");
  assert.equal(root.hasAttribute("data-navigating"), false);
  assert.equal(s.doc.title, "Heat");
  assert.equal(s.doc.head.querySelector("meta[name=theme-color]").getAttribute("content"), "#000");
  assert.equal(s.doc.querySelector("main h1").textContent, "Heat");
  assert.equal(s.doc.getElementById("to4"), null);
  assert.equal(s.win.location.pathname, "/movies/4");
  assert.equal(s.win.history.length, historyBefore + 1);
  assert.deepEqual(s.win.history.state.screenplay.back, "/page");
  assert.deepEqual(s.left, [{ screen: "S1", csrf: "T1" }]);
  assert.deepEqual(s.arrived, ["S2"]);
  // Focus on the new heading; the same live region names the new screen.
  assert.equal(s.doc.activeElement, s.doc.querySelector("main h1"));
  assert.equal(s.doc.activeElement.getAttribute("tabindex"), "-1");
  assert.equal(s.doc.querySelector("[data-announcer]"), region);
  s.timers.runAll();
  assert.equal(region.textContent, "Heat");
  assert.deepEqual(s.scrolls.at(-1), [0, 0]);
});

test("a screen without a heading gets focus on <main>", async () => {
  const s = navigating({ answer: () => htmlAnswer(screenPage({ body: "<p>No heading</p>" })) });
  await s.navigation.visit("/movies/4");
  assert.equal(s.doc.activeElement, s.doc.querySelector("main"));
});

test("what is not a screen page of this client is left to the browser, and nothing is swapped", async () => {
  const answers = {
    "/image": { status: 200, headers: new Map([["Content-Type", "image/png"]]), text: () => Promise.resolve("") },
    "/plain": htmlAnswer("<!DOCTYPE html><html><body><h1>Error</h1></body></html>"),
    "/newer": htmlAnswer(screenPage({ screen: "S9", client: "3-deployed" })),
    "/away": htmlAnswer(screenPage(), { url: "https://elsewhere.test/x" }),
  };
  const s = navigating({ answer: (url) => answers[url] });
  for (const url of Object.keys(answers)) assert.equal(await s.navigation.visit(url), false, url);
  await s.navigation.visit("/gone", { mode: "pop" });
  assert.deepEqual(s.fully.map(([url]) => url), ["/image", "/plain", "/newer", "/away", "/gone"]);
  assert.equal(s.fully.at(-1)[1], "pop");
  assert.equal(s.doc.documentElement.getAttribute("data-screen"), "S1");
  assert.deepEqual(s.left, []);
  assert.deepEqual(s.discarded, [{ screen: "S9", csrf: "T-S9" }], "a screen page never shown is closed");
});

test("a failed fetch leaves the move to the browser", async () => {
  const s = navigating({ answer: () => new Error("offline") });
  assert.equal(await s.navigation.visit("/movies/4"), false);
  assert.deepEqual(s.fully, [["/movies/4", "push"]]);
});

test("a visit overtaken by a later one is dropped, and its screen closed", async () => {
  const first = deferred();
  const s = navigating({ answer: (url) => (url === "/movies/4" ? first.promise : htmlAnswer(screenPage({
    screen: "S3", title: "Alien" }))) });
  const slow = s.navigation.visit("/movies/4");
  await s.navigation.visit("/movies/5");
  first.resolve(htmlAnswer(screenPage({ screen: "S2" })));
  assert.equal(await slow, false);
  assert.equal(s.doc.documentElement.getAttribute("data-screen"), "S3");
  assert.deepEqual(s.discarded, [{ screen: "S2", csrf: "T-S2" }]);
  assert.deepEqual(s.arrived, ["S3"]);
});

test("replace moves in place without a new history entry", async () => {
  const s = navigating();
  const length = s.win.history.length;
  await s.navigation.visit("/movies/4", { mode: "replace" });
  assert.equal(s.win.history.length, length);
  assert.equal(s.win.location.pathname, "/movies/4");
});

test("the server's navigation to the entry just behind is history.back(); elsewhere, a new entry", async () => {
  const s = navigating();
  let backs = 0;
  s.win.history.back = () => { backs += 1; };
  await s.navigation.navigate("/page");
  assert.equal(backs, 0, "the first entry has nothing of ours behind it");
  assert.equal(s.fetch.calls.length, 1);
  await s.navigation.navigate("/movies/4");
  assert.equal(s.fetch.calls.length, 2);
  await s.navigation.navigate("/page");
  assert.equal(backs, 1, "/page is the entry behind /movies/4");
  assert.equal(s.fetch.calls.length, 2);
  await s.navigation.navigate("/movies/7");
  assert.equal(s.fetch.calls.length, 3);
});

test("Back restores the entry's scroll positions and drafts, live again from a fresh fetch", async () => {
  const list = `<main><h1>Movies</h1><div class="scroller"><p>long</p></div>` +
    `<form><input name="title" value="Heat"><input type="checkbox" name="seen"><input type="hidden" name="csrf" ` +
    `value="T"><textarea name="notes"></textarea></form></main><div aria-live="polite" data-announcer></div>`;
  const pages = { "/page": `<!DOCTYPE html><html data-wire="2" data-screen="S5" data-csrf="T5" data-client="2-mine" ` +
    `data-screen-url="/page"><head><title>Movies</title></head><body>${list}</body></html>` };
  const s = navigating({ body: list, answer: (url) => htmlAnswer(pages[url] || screenPage()) });
  const key = s.navigation.key;
  const scroller = s.doc.querySelector(".scroller");
  scroller.scrollTop = 120;
  s.doc.querySelector("[name=title]").value = "Heat (draft)";
  s.doc.querySelector("[name=seen]").checked = true;
  s.doc.querySelector("[name=notes]").value = "to watch";
  s.doc.querySelector("[name=csrf]").value = "changed";
  await s.navigation.visit("/movies/4");
  assert.equal(s.doc.querySelector(".scroller"), null);
  const saved = JSON.parse(s.storage.getItem("screenplay-entry-" + key));
  assert.deepEqual(saved.drafts, { title: "Heat (draft)", seen: "on", notes: "to watch" });
  assert.deepEqual(saved.containers, [{ path: "0/1", top: 120, left: 0 }]);

  // The browser went back: history.state names the list's entry.
  s.win.history.replaceState({ screenplay: { key } }, "", "/page");
  const heard = [];
  s.doc.addEventListener("input", (event) => heard.push(["input", event.target.name]));
  s.doc.addEventListener("change", (event) => heard.push(["change", event.target.name]));
  assert.equal(s.navigation.popstate({ state: { screenplay: { key } } }), true);
  await settle(); await settle();
  assert.equal(s.fetch.calls.at(-1).url, "/page", "a fresh render, not a stale copy");
  assert.equal(s.doc.documentElement.getAttribute("data-screen"), "S5");
  assert.deepEqual(s.arrived, ["S2", "S5"]);
  assert.equal(s.doc.querySelector(".scroller").scrollTop, 120);
  assert.equal(s.doc.querySelector("[name=title]").value, "Heat (draft)");
  assert.equal(s.doc.querySelector("[name=seen]").checked, true);
  assert.equal(s.doc.querySelector("[name=notes]").value, "to watch");
  assert.equal(s.doc.querySelector("[name=csrf]").value, "T", "hidden fields are the server's");
  assert.deepEqual(heard.sort(), [["change", "seen"], ["input", "notes"], ["input", "title"]],
    "the screen hears the drafts as input");
  assert.equal(s.navigation.key, key);
  assert.equal(s.win.location.pathname, "/page");
});

test("a move between fragments of the same screen stays the browser's", () => {
  const s = navigating();
  s.win.history.pushState(null, "", "/page#part");
  assert.equal(s.navigation.popstate({ state: null }), false);
  assert.equal(s.fetch.calls.length, 0);
});

test("resting on a link prefetches its screen once; the navigation uses it; an unused one is closed", async () => {
  const s = navigating({ answer: (url) => htmlAnswer(screenPage({ screen: url === "/movies/4" ? "S2" : "S3" })) });
  s.navigation.listen();
  const over = (selector) => s.doc.querySelector(selector).dispatchEvent(
    new s.win.MouseEvent("mouseover", { bubbles: true }));
  const out = (selector) => s.doc.querySelector(selector).dispatchEvent(
    new s.win.MouseEvent("mouseout", { bubbles: true }));
  over("#to5");
  out("#to5");
  s.timers.advance(200);
  assert.equal(s.fetch.calls.length, 0, "a pointer passing over prefetches nothing");
  over("#to4");
  s.timers.advance(50);
  assert.equal(s.fetch.calls.length, 0);
  s.timers.advance(60);
  assert.equal(s.fetch.calls.length, 1);
  over("#to4");
  s.timers.advance(200);
  assert.equal(s.fetch.calls.length, 1, "one prefetch per link");
  await settle();
  clickOn(s.doc, "#to4");
  await settle(); await settle();
  assert.equal(s.fetch.calls.length, 1, "the navigation took the prefetched page");
  assert.equal(s.doc.documentElement.getAttribute("data-screen"), "S2");

  await s.navigation.prefetch("/movies/5");
  assert.deepEqual(s.navigation.prefetched, ["/movies/5"]);
  s.timers.runAll();
  await settle();
  assert.deepEqual(s.navigation.prefetched, []);
  assert.deepEqual(s.discarded, [{ screen: "S3", csrf: "T-S3" }]);
});

test("snapshots locate nested containers by their place in the page and restore the window's scroll", () => {
  const doc = page(`<div><section id="s"><div></div><div class="x"></div></section><div><p></p></div></div>`);
  const body = doc.body;
  const nested = doc.querySelector(".x"), deep = doc.querySelector("p");
  assert.equal(nodePath(nested, body), "#s/1");
  assert.equal(nodePath(deep, body), "0/1/0");
  assert.equal(nodeAt("#s/1", body), nested);
  assert.equal(nodeAt("0/1/0", body), deep);
  assert.equal(nodeAt("0/9", body), null);
  const scrolled = [];
  doc.defaultView.scrollTo = (x, y) => scrolled.push([x, y]);
  restoreSnapshot(doc, { x: 0, y: 640, containers: [{ path: "#s/1", top: 30, left: 4 }], drafts: {} });
  assert.equal(nested.scrollTop, 30);
  assert.equal(nested.scrollLeft, 4);
  assert.deepEqual(scrolled, [[0, 640]]);
  assert.deepEqual(takeSnapshot(doc, () => ({ missing: "x" })).drafts, {}, "a field not on the page is no draft");
});
