// What a field's control is, and how its value, its rendered value and its selection are read and written.
// Pure functions of the element they are given: the patching, the reset and the input events share them.

// The sequence number of the last input event the server had applied when it rendered a control.
export const SEQ_ATTRIBUTE = "data-seq";

export function isControl(node) {
  return !!node && node.nodeType === 1 && /^(INPUT|TEXTAREA|SELECT)$/.test(node.tagName);
}

// A control of a field: a named input, text area or select inside a `.field` wrapper.
export function isFieldControl(node) {
  return isControl(node) && !!node.name && !!node.closest(".field") &&
    !/^(hidden|submit|button|reset|image|file)$/.test(node.type);
}

export function isToggle(control) {
  return control.tagName === "INPUT" && (control.type === "checkbox" || control.type === "radio");
}

export function isTextControl(control) {
  return control.tagName === "TEXTAREA" || (control.tagName === "INPUT" && !isToggle(control));
}

// A toggle's value is "on" or "", as the server's field reads it.
export function valueOf(control) {
  if (isToggle(control)) return control.checked ? "on" : "";
  return control.value;
}

export function setValue(control, value) {
  if (isToggle(control)) control.checked = value === "on";
  else if (control.value !== value) control.value = value;
}

// The value a control was rendered with (a parsed, not yet inserted element keeps it in its markup).
export function renderedValue(control) {
  if (isToggle(control)) return control.hasAttribute("checked") ? "on" : "";
  if (control.tagName === "TEXTAREA") return control.defaultValue;
  if (control.tagName === "SELECT") {
    const chosen = control.querySelector("option[selected]") || control.querySelector("option");
    if (!chosen) return "";
    return chosen.hasAttribute("value") ? chosen.getAttribute("value") : chosen.textContent;
  }
  return control.getAttribute("value") || "";
}

export function dataSeq(control) {
  return (control && parseInt(control.getAttribute(SEQ_ATTRIBUTE), 10)) || 0;
}

// The field control named `name` in `doc`, or null.
export function controlNamed(doc, name) {
  for (const node of doc.getElementsByName(name)) if (isFieldControl(node)) return node;
  return null;
}

export function fieldControls(container) {
  return Array.from(container.querySelectorAll("input[name], textarea[name], select[name]")).filter(isFieldControl);
}

export function selectionOf(control) {
  try {
    if (isTextControl(control) && control.selectionStart !== null) {
      return { start: control.selectionStart, end: control.selectionEnd, direction: control.selectionDirection };
    }
  } catch (error) { /* a type without a selection (number, email) */ }
  return null;
}

export function select(control, selection) {
  if (!selection) return;
  try {
    control.setSelectionRange(selection.start, selection.end, selection.direction || "none");
  } catch (error) { /* a type without a selection */ }
}
