// Presented view controllers: the server renders each as an open `<dialog data-modal>` (a page without JavaScript
// shows it in place); this module makes it modal. A dialog that enters the page is shown with `showModal()`: the
// browser moves focus inside, keeps Tab and Shift+Tab inside and makes the page behind inert. Escape (the dialog's
// `cancel` event) posts the dialog's cancel action, the button named by `data-cancel`, as a click of it would; a
// dialog without one stays open. When the server takes the dialog away (a patch), focus goes back to the control
// that had it when the dialog opened, found again by its id when a patch replaced it meanwhile.
import { ATTRIBUTES } from "./wire.js";

const SELECTOR = `dialog[${ATTRIBUTES.modal}]`;

export function createDialogs({ doc }) {
  // Each dialog shown, by its id: the id of the control that had focus when it opened.
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

  function cancel(event) {
    const dialog = event.target;
    if (!dialog.matches || !dialog.matches(SELECTOR)) return;
    // The dialog stays until the server takes it away, so the page shows what the screen holds.
    event.preventDefault();
    const button = cancelButton(dialog);
    if (!button || !button.form) return;
    if (button.form.requestSubmit) button.form.requestSubmit(button); else button.click();
  }

  // Shows `dialog` modally, once; remembers who had focus.
  function show(dialog) {
    if (!dialog.isConnected || dialog.hasAttribute("data-shown")) return;
    const active = doc.activeElement;
    const opener = active && active !== doc.body && !dialog.contains(active) ? active.id : null;
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
  }

  // A dialog shown before is no longer in the page: focus returns to its opener.
  function settle() {
    for (const [id, opener] of Array.from(openers)) {
      const again = doc.getElementById(id);
      if (again && again.matches(SELECTOR)) continue;
      openers.delete(id);
      const target = opener && doc.getElementById(opener);
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

  return { refresh, start, show, cancelButton, openers };
}
