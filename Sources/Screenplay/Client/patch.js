// Applies the server's changes to the page: `patch` events (operations on elements found by their DOM id) and
// `reset` (the whole page, morphed into the one shown: only what differs changes). Typing is never undone: a
// replaced element that holds the focused control is morphed around it, so the control itself stays with its caret
// and selection; focus and scroll are kept.
import { ATTRIBUTES } from "./wire.js";
import { fieldControls, isControl, isToggle, select, selectionOf, valueOf } from "./controls.js";

export function fragment(doc, html) {
  const template = doc.createElement("template");
  template.innerHTML = html;
  return template.content;
}

function copyAttributes(node, from, keep) {
  for (const attribute of Array.from(node.attributes)) {
    if (!from.hasAttribute(attribute.name) && !keep(attribute.name)) node.removeAttribute(attribute.name);
  }
  for (const attribute of Array.from(from.attributes)) {
    if (!keep(attribute.name) && node.getAttribute(attribute.name) !== attribute.value) {
      node.setAttribute(attribute.name, attribute.value);
    }
  }
}

// The element of `container` that stands for `control`: the same id, else the same name, of the same kind.
export function counterpart(container, control) {
  let found = null;
  if (control.id) found = Array.from(container.querySelectorAll("[id]")).find((node) => node.id === control.id);
  if (!found && control.name) {
    found = Array.from(container.querySelectorAll("[name]")).find((node) => node.getAttribute("name") === control.name);
  }
  if (!found || found.tagName !== control.tagName || isToggle(found) !== isToggle(control)) return null;
  return found;
}

// Replaces `node` with the markup in `content`, keeping `control` (focused, inside `node`) in place: every element
// on the way down to it takes the new attributes and children around it, the control the new attributes but its
// value, so its caret and selection stay. Answers the new control's element, or null when the markup has none
// or its shape differs (the caller replaces `node` outright).
export function morph(node, content, control) {
  const fresh = counterpart(content, control);
  if (!fresh) return null;
  const newPath = [], oldPath = [];
  for (let step = fresh; step && step !== content; step = step.parentNode) newPath.unshift(step);
  for (let step = control; step && step !== node.parentNode; step = step.parentNode) oldPath.unshift(step);
  if (newPath.length !== oldPath.length || oldPath[0] !== node) return null;
  if (oldPath.some((old, i) => old.tagName !== newPath[i].tagName)) return null;
  const parent = node.parentNode, top = newPath[0];
  while (content.firstChild !== top) parent.insertBefore(content.firstChild, node);
  const after = node.nextSibling;
  while (top.nextSibling) parent.insertBefore(top.nextSibling, after);
  for (let i = 0; i < oldPath.length - 1; i++) {
    const old = oldPath[i], now = newPath[i], keepOld = oldPath[i + 1], keepNew = newPath[i + 1];
    copyAttributes(old, now, () => false);
    for (const child of Array.from(old.childNodes)) if (child !== keepOld) old.removeChild(child);
    while (now.firstChild !== keepNew) old.insertBefore(now.firstChild, keepOld);
    while (keepNew.nextSibling) old.appendChild(keepNew.nextSibling);
  }
  const checked = control.checked;
  copyAttributes(control, fresh, (name) => name === "value" && control.tagName === "INPUT");
  if (isToggle(control)) control.checked = checked;
  if (control.tagName === "SELECT" && control.innerHTML !== fresh.innerHTML) {
    const chosen = control.value;
    while (control.firstChild) control.removeChild(control.firstChild);
    while (fresh.firstChild) control.appendChild(fresh.firstChild);
    const option = Array.from(control.options).find((candidate) => candidate.value === chosen);
    if (option) option.selected = true;
  }
  return fresh;
}

// Makes `old` like `fresh` (an element of the same tag) by changing only what differs, as LiveView's morphdom and
// Turbo's morphing apply a new render: attributes are set and removed; children are matched by id, and children
// without one by place and kind; a matched child is moved into place and made like its counterpart; text is
// rewritten only when it differs; unmatched children go, new ones come from `fresh` (which is emptied). So an
// element that is in both renders stays the same element: focus, scroll positions and listeners stay with it. A
// form control takes the new render's value, as a new control would (the caller puts back what the user typed).
export function morphTree(old, fresh) {
  copyAttributes(old, fresh, () => false);
  const byId = new Map();
  for (const child of old.children) if (child.id) byId.set(child.id, child);
  let cursor = old.firstChild;
  for (const next of Array.from(fresh.childNodes)) {
    let match = null;
    if (next.nodeType === 1 && next.id) {
      const found = byId.get(next.id);
      if (found && found.tagName === next.tagName) { match = found; byId.delete(next.id); }
    } else if (cursor && cursor.nodeType === next.nodeType &&
      (next.nodeType !== 1 || (!cursor.id && cursor.tagName === next.tagName))) {
      match = cursor;
    }
    if (!match) { old.insertBefore(next, cursor); continue; }
    if (match === cursor) cursor = cursor.nextSibling; else old.insertBefore(match, cursor);
    if (next.nodeType === 1) morphTree(match, next);
    else if (match.nodeValue !== next.nodeValue) match.nodeValue = next.nodeValue;
  }
  // What is left from the cursor on matched nothing (a match is always moved before the cursor).
  while (cursor) { const after = cursor.nextSibling; old.removeChild(cursor); cursor = after; }
  if (old.tagName === "INPUT" && old.type !== "file") {
    if (isToggle(old)) { if (old.checked !== fresh.checked) old.checked = fresh.checked; }
    else if (old.value !== fresh.value) old.value = fresh.value;
  } else if ((old.tagName === "TEXTAREA" || old.tagName === "SELECT") && old.value !== fresh.value) {
    old.value = fresh.value;
  }
}

// The file input inside `node` whose user has chosen a file, or null.
function chosenFileInput(node) {
  if (!node.querySelectorAll) return null;
  for (const input of node.querySelectorAll("input[type=file]")) if (input.files && input.files.length) return input;
  return null;
}

// Applies one patch, a list of operations: ["replace", id, html], ["insert", parentId, beforeId|null, html],
// ["remove", id], ["move", id, parentId, beforeId|null]. `settle(control)` is called for each field control the
// patch put in the page, `settleFocused(control, rendered)` for the focused one kept in place. Answers the ids of
// the changed regions (for the announcer).
export function applyPatch(doc, operations, { settle = () => {}, settleFocused = () => {} } = {}) {
  const view = doc.defaultView;
  const byId = (id) => doc.getElementById(id);
  const active = doc.activeElement;
  const activeId = active && active.id;
  const focused = isControl(active) ? active : null;
  const focusedValue = focused ? valueOf(focused) : null;
  const focusedSelection = focused ? selectionOf(focused) : null;
  const scrollX = view ? view.scrollX : 0, scrollY = view ? view.scrollY : 0;
  const changed = [];
  for (const op of operations) {
    const kind = op[0];
    if (kind === "replace") {
      const node = byId(op[1]);
      if (!node) continue;
      const content = fragment(doc, op[2]);
      let controls = fieldControls(content);
      // A file input holding a chosen file (being uploaded) is kept as the focused control is: replacing it would
      // drop the file.
      const kept = focused && node.contains(focused) ? focused : chosenFileInput(node);
      const fresh = kept ? morph(node, content, kept) : null;
      if (fresh) {
        controls = controls.filter((control) => control !== fresh);
        if (kept === focused) settleFocused(focused, fresh);
      } else {
        node.replaceWith(content);
      }
      controls.forEach((control) => settle(control));
      changed.push(op[1]);
    } else if (kind === "insert") {
      const parent = byId(op[1]);
      const before = op[2] ? byId(op[2]) : null;
      if (parent) {
        const content = fragment(doc, op[3]);
        const controls = fieldControls(content);
        parent.insertBefore(content, before);
        controls.forEach((control) => settle(control));
      }
      changed.push(op[1]);
    } else if (kind === "remove") {
      const node = byId(op[1]);
      if (node) node.remove();
    } else if (kind === "move") {
      const node = byId(op[1]), parent = byId(op[2]);
      const before = op[3] ? byId(op[3]) : null;
      if (node && parent) parent.insertBefore(node, before);
    }
  }
  const again = activeId ? byId(activeId) : null;
  if (again && doc.activeElement !== again) {
    again.focus();
    // A control that had to be replaced keeps its caret where its value is the same.
    if (focused && isControl(again) && again !== focused && valueOf(again) === focusedValue) {
      select(again, focusedSelection);
    }
  }
  if (view && (view.scrollX !== scrollX || view.scrollY !== scrollY)) view.scrollTo(scrollX, scrollY);
  return changed;
}

// The attributes of <html> a reset takes from the new page.
export const RESET_ATTRIBUTES = Object.freeze([
  "class", ATTRIBUTES.screenURL, ATTRIBUTES.screen, ATTRIBUTES.csrf, ATTRIBUTES.lastEventID, ATTRIBUTES.render,
]);

// Takes in the whole page the server sent (a `reset` event's `html`): its body, morphed into the one shown
// (morphTree), the attributes of <html> that name the screen, its title and theme colour. `swapping(true/false)`
// brackets the swap (the blur of a control it removes is no edit).
export function resetPage(doc, html, swapping = () => {}) {
  const parsed = new doc.defaultView.DOMParser().parseFromString(html, "text/html");
  swapping(true);
  try { morphTree(doc.body, parsed.body); } finally { swapping(false); }
  const root = doc.documentElement, newRoot = parsed.documentElement;
  for (const name of RESET_ATTRIBUTES) {
    const value = newRoot.getAttribute(name);
    if (value === null) root.removeAttribute(name); else root.setAttribute(name, value);
  }
  if (parsed.title) doc.title = parsed.title;
  const theme = parsed.querySelector('meta[name="theme-color"]');
  const current = doc.querySelector('meta[name="theme-color"]');
  if (theme && current) current.setAttribute("content", theme.getAttribute("content"));
}

// A reset event's data: {"html": page}.
export function decodeReset(data) {
  const decoded = JSON.parse(data);
  if (!decoded || typeof decoded.html !== "string") throw new Error("reset: no html");
  return decoded.html;
}
