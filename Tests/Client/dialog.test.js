// dialog.js: a presented view controller's <dialog> shown modally once it enters the page, Escape posting its cancel
// action (and nothing for a dialog without one), Tab wrapping inside it, focus returned to the opener when the server takes the dialog away.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createDialogs } from "../../Sources/Screenplay/Client/dialog.js";
import { page } from "./support.js";

const ALERT = `<dialog id="v9" data-modal open data-cancel="sp-alert-0" role="alertdialog" aria-labelledby="v10">` +
  `<div><h2 id="v10">Delete “Heat”?</h2><div>` +
  `<form id="v11" method="post" action="/screens/S1/actions/sp-alert-0"><button type="submit">Cancel</button></form>` +
  `<form id="v12" method="post" action="/screens/S1/actions/sp-alert-1"><button type="submit">Delete</button></form>` +
  `</div></div></dialog>`;

// A page whose dialogs record showModal (jsdom has no top layer) and whose forms record their submits.
function presenting(body) {
  const doc = page(body);
  const win = doc.defaultView;
  const shown = [], submitted = [];
  win.HTMLDialogElement.prototype.showModal = function () {
    shown.push(this.id);
    this.setAttribute("open", "");
  };
  win.HTMLDialogElement.prototype.close = function () { this.removeAttribute("open"); };
  doc.addEventListener("submit", (event) => {
    event.preventDefault();
    submitted.push(event.target.id);
  });
  return { doc, win, shown, submitted, dialogs: createDialogs({ doc }) };
}

function escape(doc, dialog) {
  const event = new doc.defaultView.Event("cancel", { cancelable: true });
  dialog.dispatchEvent(event);
  return event;
}

test("a dialog in the page is shown modally once, and remembers the control that had focus", () => {
  const { doc, shown, dialogs } = presenting(`<main><button id="delete">Delete</button>${ALERT}</main>`);
  doc.getElementById("delete").focus();
  dialogs.refresh();
  dialogs.refresh();
  assert.deepEqual(shown, ["v9"]);
  assert.deepEqual(dialogs.openers.get("v9"), { id: "delete", index: -1 });
  assert.ok(doc.getElementById("v9").hasAttribute("open"));
});

test("Escape posts the cancel action's button and leaves the dialog to the server", () => {
  const { doc, submitted, dialogs } = presenting(`<main>${ALERT}</main>`);
  dialogs.refresh();
  const event = escape(doc, doc.getElementById("v9"));
  assert.equal(event.defaultPrevented, true);
  assert.deepEqual(submitted, ["v11"], "the Cancel button's form");
  assert.ok(doc.getElementById("v9").isConnected);
});

test("a dialog without a cancel action stays open on Escape and posts nothing", () => {
  const { doc, submitted, dialogs } = presenting(`<main>${ALERT.replace(' data-cancel="sp-alert-0"', "")}</main>`);
  dialogs.refresh();
  const event = escape(doc, doc.getElementById("v9"));
  assert.equal(event.defaultPrevented, true);
  assert.deepEqual(submitted, []);
});

test("the cancel button is the one whose form posts the named action, not another's", () => {
  const { doc, dialogs } = presenting(`<main>${ALERT.replace('data-cancel="sp-alert-0"', 'data-cancel="sp-alert-1"')}</main>`);
  assert.equal(dialogs.cancelButton(doc.getElementById("v9")).textContent, "Delete");
});

test("when the server takes the dialog away, focus returns to its opener, found again by id after a patch", () => {
  const { doc, dialogs } = presenting(`<main id="m"><button id="delete">Delete</button>${ALERT}</main>`);
  doc.getElementById("delete").focus();
  dialogs.refresh();
  doc.querySelector("#v9 button").focus();
  // A patch replaces the presenter's view: a new Delete control with the same id, and no dialog.
  doc.getElementById("m").outerHTML = `<main id="m"><button id="delete">Delete</button></main>`;
  dialogs.refresh();
  assert.equal(doc.activeElement, doc.getElementById("delete"));
  assert.equal(dialogs.openers.size, 0);
});

test("a dialog replaced by a patch (same id) is shown again and keeps its opener", () => {
  const { doc, shown, dialogs } = presenting(`<main id="m"><button id="delete">Delete</button>${ALERT}</main>`);
  doc.getElementById("delete").focus();
  dialogs.refresh();
  doc.getElementById("m").outerHTML = `<main id="m"><button id="delete">Delete</button>${ALERT}</main>`;
  dialogs.refresh();
  assert.deepEqual(shown, ["v9", "v9"]);
  assert.deepEqual(dialogs.openers.get("v9"), { id: "delete", index: -1 });
});

test("start follows the page: a dialog a patch inserts is shown, one it removes gives focus back", async () => {
  const { doc, shown, dialogs } = presenting(`<main id="m"><button id="delete">Delete</button></main>`);
  doc.getElementById("delete").focus();
  const observer = dialogs.start();
  doc.getElementById("m").insertAdjacentHTML("beforeend", ALERT);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(shown, ["v9"]);
  doc.querySelector("#v9 button").focus();
  doc.getElementById("v9").remove();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(doc.activeElement, doc.getElementById("delete"));
  observer.disconnect();
});

test("Tab from the last control goes to the first, Shift+Tab from the first to the last", () => {
  const { doc, dialogs } = presenting(`<main><button id="delete">Delete</button>${ALERT}</main>`);
  dialogs.refresh();
  const dialog = doc.getElementById("v9");
  const [cancel, remove] = dialogs.tabbable(dialog);
  assert.equal(cancel.textContent, "Cancel");
  assert.equal(remove.textContent, "Delete");
  const tab = (shiftKey) => {
    const event = new doc.defaultView.KeyboardEvent("keydown", { key: "Tab", shiftKey, bubbles: true, cancelable: true });
    doc.activeElement.dispatchEvent(event);
    return event.defaultPrevented;
  };
  remove.focus();
  assert.equal(tab(false), true);
  assert.equal(doc.activeElement, cancel);
  assert.equal(tab(true), true);
  assert.equal(doc.activeElement, remove);
  // Between the two, the browser's own Tab moves on.
  cancel.focus();
  assert.equal(tab(false), false);
  assert.equal(doc.activeElement, cancel);
});

test("an opener without an id of its own (a Button's id is on its form) gets focus back after a patch", () => {
  const delete_ = `<form id="v30" method="post" action="/screens/S1/actions/delete"><input type="hidden" name="csrf" ` +
    `value="T"><button type="submit">Delete</button></form>`;
  const { doc, dialogs } = presenting(`<main id="m">${delete_}${ALERT}</main>`);
  doc.querySelector("#v30 button").focus();
  dialogs.refresh();
  doc.querySelector("#v9 button").focus();
  doc.getElementById("m").outerHTML = `<main id="m">${delete_}</main>`;
  dialogs.refresh();
  assert.equal(doc.activeElement, doc.querySelector("#v30 button"));
});

test("a dialog shown after the patch replaced its opener (focus fell to <body>) remembers the opener all the same", () => {
  const { doc, dialogs } = presenting(`<main id="m"><button id="delete">Delete</button></main>`);
  doc.getElementById("delete").focus();
  // The patch that presents replaces the presenter's view, the opener with it.
  doc.getElementById("m").outerHTML = `<main id="m"><button id="delete">Delete</button>${ALERT}</main>`;
  assert.equal(doc.activeElement, doc.body);
  dialogs.refresh();
  assert.deepEqual(dialogs.openers.get("v9"), { id: "delete", index: -1 });
});
