// Presented view controllers: the server renders each as an open `<dialog data-modal>` (a page without JavaScript
// shows it in place); this module makes it modal. A dialog that enters the page is shown with `showModal()`: the
// browser moves focus inside and makes the page behind inert; Tab from the last control and Shift+Tab from the first
// wrap around inside the dialog (the browser would move on to its own toolbar). Escape (the dialog's
// `cancel` event) posts the dialog's cancel action, the button named by `data-cancel`, as a click of it would; a
// dialog without one stays open. When the server takes the dialog away (a patch), focus goes back to the control
// that had it when the dialog opened, found again by its id when a patch replaced it meanwhile.
import { ATTRIBUTES } from "./wire.js";

const SELECTOR = `dialog[${ATTRIBUTES.modal}]`;

export function createDialogs({ doc }) {
  // Each dialog shown, by its id: where the control was that had focus when it opened (placeOf).
  const openers = new Map();

  // The dialog's cancel action's submit button.
  function cancelButton(dialog) {
    const action = dialog.getAttribute(ATTRIBUTES.cancel);
    if (!action) return null;
    const suffix = "/actions/" + encodeURIComponent(action);
    return Array.from(dialog.querySelectorAll("button")).find((button) => {
      const target = button.getAttribute("formaction") || (button.form && button.form.getAttribute("action")) || "";
      return target.split("?")[0].endsWith(suffix);
    }) || null;
  }

  // The controls of `dialog` that Tab reaches, in order.
  function tabbable(dialog) {
    return Array.from(dialog.querySelectorAll(FOCUSABLE)).filter((node) =>
      !node.disabled && node.getAttribute("tabindex") !== "-1" && node.type !== "hidden" &&
      !node.closest("[hidden]"));
  }

  // Tab at the last control goes to the first, Shift+Tab at the first to the last.
  function wrap(event) {
    if (event.key !== "Tab") return;
    const dialog = event.currentTarget;
    const controls = tabbable(dialog);
    if (controls.length === 0) return;
    const first = controls[0], last = controls[controls.length - 1];
    const active = doc.activeElement;
    if (event.shiftKey && (active === first || !dialog.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }

  function cancel(event) {
    const dialog = event.target;
    if (!dialog.matches || !dialog.matches(SELECTOR)) return;
    // The dialog stays until the server takes it away, so the page shows what the screen holds.
    event.preventDefault();
    const button = cancelButton(dialog);
    if (!button || !button.form) return;
    if (button.form.requestSubmit) button.form.requestSubmit(button); else button.click();
  }

  const FOCUSABLE = "button, [href], input, select, textarea, [tabindex]";

  // Where `element` is, in a way that survives a patch replacing it: the id of it or its nearest ancestor with one
  // (a button's id is on its form), and its place among that ancestor's focusable elements.
  function placeOf(element) {
    const anchor = element.id ? element : element.closest("[id]");
    if (!anchor) return null;
    if (anchor === element) return { id: anchor.id, index: -1 };
    return { id: anchor.id, index: Array.from(anchor.querySelectorAll(FOCUSABLE)).indexOf(element) };
  }

  // The element at `place` now, if the page still has it.
  function elementAt(place) {
    const anchor = place && doc.getElementById(place.id);
    if (!anchor) return null;
    return place.index < 0 ? anchor : anchor.querySelectorAll(FOCUSABLE)[place.index] || null;
  }

  // The place of the last control of the page that had focus outside a dialog: the patch that brings a dialog may
  // have replaced the control that opened it (focus then fell to <body>) before the dialog is shown.
  let lastFocus = null;
  doc.addEventListener("focusin", (event) => {
    const target = event.target;
    if (target && target.closest && !target.closest(SELECTOR)) lastFocus = placeOf(target);
  }, true);

  // Shows `dialog` modally, once; remembers who had focus.
  function show(dialog) {
    if (!dialog.isConnected || dialog.hasAttribute("data-shown")) return;
    const active = doc.activeElement;
    const opener = active && active !== doc.body && !dialog.contains(active) ? placeOf(active) : lastFocus;
    if (dialog.id && !openers.has(dialog.id)) openers.set(dialog.id, opener);
    dialog.setAttribute("data-shown", "");
    if (dialog.open && dialog.close) dialog.close();
    dialog.removeAttribute("open");
    if (dialog.showModal) {
      try { dialog.showModal(); } catch (error) { dialog.setAttribute("open", ""); }
    } else {
      dialog.setAttribute("open", "");
    }
    dialog.addEventListener("cancel", cancel);
    dialog.addEventListener("keydown", wrap);
  }

  // A dialog shown before is no longer in the page: focus returns to its opener.
  function settle() {
    for (const [id, opener] of Array.from(openers)) {
      const again = doc.getElementById(id);
      if (again && again.matches(SELECTOR)) continue;
      openers.delete(id);
      const target = elementAt(opener);
      if (target && (!doc.activeElement || doc.activeElement === doc.body || !doc.activeElement.isConnected ||
          !doc.contains(doc.activeElement))) {
        target.focus();
      }
    }
  }

  // Shows the dialogs in the page now, then settles focus: call after the page changed.
  function refresh() {
    for (const dialog of Array.from(doc.querySelectorAll(SELECTOR))) show(dialog);
    settle();
  }

  // Follows the page: dialogs patches add, and dialogs they take away.
  function start() {
    refresh();
    const view = doc.defaultView;
    if (!view || !view.MutationObserver) return null;
    const observer = new view.MutationObserver(() => refresh());
    observer.observe(doc.documentElement, { childList: true, subtree: true });
    return observer;
  }

  return { refresh, start, show, cancelButton, tabbable, openers };
}
