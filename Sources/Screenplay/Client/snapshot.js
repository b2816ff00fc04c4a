// What of a history entry's page lives only in the browser, kept while the page shows another entry and put back
// when Back or Forward returns to it: the window's and nested containers' scroll positions, and the values of the
// fields the user changed and did not save (drafts stay in the browser; the screen hears them again as input).

// A path that locates `node` under `top`, stable across two renders of the same page: its id, else the child
// indexes from `top` down.
export function nodePath(node, top) {
  if (node.id) return "#" + node.id;
  const steps = [];
  for (let current = node; current && current !== top; current = current.parentElement) {
    if (current.id) { steps.unshift("#" + current.id); break; }
    const parent = current.parentElement;
    if (!parent) return null;
    steps.unshift(String(Array.prototype.indexOf.call(parent.children, current)));
  }
  return steps.join("/");
}

export function nodeAt(path, top) {
  if (!path) return null;
  const doc = top.ownerDocument;
  let node = top;
  for (const step of path.split("/")) {
    node = step.startsWith("#") ? doc.getElementById(step.slice(1)) : node && node.children[Number(step)];
    if (!node) return null;
  }
  return node;
}

// What of an entry's page lives only in the browser: its scroll positions and the fields the user changed.
export function takeSnapshot(doc, typed = () => ({})) {
  const win = doc.defaultView;
  const containers = [];
  for (const node of doc.body ? doc.body.querySelectorAll("*") : []) {
    if (node.scrollTop > 0 || node.scrollLeft > 0) {
      const where = nodePath(node, doc.body);
      if (where) containers.push({ path: where, top: node.scrollTop, left: node.scrollLeft });
    }
  }
  const drafts = {};
  for (const control of doc.querySelectorAll("input[name], textarea[name], select[name]")) {
    if (!isDraftControl(control)) continue;
    const changed = control.type === "checkbox" || control.type === "radio"
      ? control.checked !== control.defaultChecked
      : control.tagName === "SELECT" ? selectChanged(control) : control.value !== control.defaultValue;
    if (changed) drafts[control.name] = draftValue(control);
  }
  // The fields the client knows the user changed (their rendered value may already show the draft).
  for (const [name, value] of Object.entries(typed() || {})) {
    const control = doc.querySelector(`[name="${cssEscape(name)}"]`);
    if (control && isDraftControl(control) && value !== null && value !== undefined) drafts[name] = value;
  }
  return { x: win.scrollX || 0, y: win.scrollY || 0, containers, drafts };
}

// Puts a snapshot back on the page: scroll positions, then each draft, as the user's own input (so the screen hears
// it, as it heard the typing).
export function restoreSnapshot(doc, snapshot) {
  if (!snapshot) return;
  const win = doc.defaultView;
  for (const [name, value] of Object.entries(snapshot.drafts || {})) {
    const control = doc.querySelector(`[name="${cssEscape(name)}"]`);
    if (!control || !isDraftControl(control) || draftValue(control) === value) continue;
    if (control.type === "checkbox" || control.type === "radio") control.checked = value === "on";
    else control.value = value;
    const kind = control.tagName === "SELECT" || control.type === "checkbox" || control.type === "radio"
      ? "change" : "input";
    control.dispatchEvent(new win.Event(kind, { bubbles: true }));
  }
  for (const { path, top, left } of snapshot.containers || []) {
    const node = nodeAt(path, doc.body);
    if (node) { node.scrollTop = top; node.scrollLeft = left; }
  }
  if (win.scrollTo) win.scrollTo(snapshot.x || 0, snapshot.y || 0);
}

function isDraftControl(control) {
  const type = (control.getAttribute("type") || "").toLowerCase();
  return !control.disabled && !/^(hidden|password|file|submit|button|reset|image)$/.test(type);
}

function draftValue(control) {
  if (control.type === "checkbox" || control.type === "radio") return control.checked ? "on" : "";
  return control.value;
}

function selectChanged(select) {
  return Array.from(select.options).some((option) => option.selected !== option.defaultSelected);
}

function cssEscape(value) {
  return String(value).replace(/["\\]/g, "\\$&");
}
