// What the user types goes to the screen as input events (POST /screens/{sid}/input), one post in flight per field,
// each with the field's next sequence number. A value the user gave stands over one the server rendered before it
// had seen that value (the rendered control's data-seq is lower than what was sent), so an older render never
// overwrites newer typing. The rules are the Forms article's.
import { FIELDS, HEADERS, INPUT_EVENTS, PATHS, REQUESTED_WITH_FETCH, path } from "./wire.js";
import {
  controlNamed, dataSeq, isFieldControl, isTextControl, isToggle, renderedValue, select, selectionOf, setValue,
  valueOf,
} from "./controls.js";

export const DEBOUNCE_MS = 150;

export function debounceOf(control) {
  const ms = parseInt(control.getAttribute("data-debounce"), 10);
  return ms >= 0 ? ms : DEBOUNCE_MS;
}

// `doc` the page; `screen()` its screen id; `csrf(form)` the token to post; `fetch` posts; `timers` schedules.
export function createFields({ doc, screen, csrf, fetch, timers = globalThis }) {
  // Per field name, for this tab: the last sequence number used (`seq`, never lowered), the last one sent to the
  // current screen (`sent`, compared with a rendered control's data-seq), the value the user gave it, whether the
  // user changed it, the debounce timer, and the events waiting behind the post in flight (in order).
  const fields = {};
  let resetting = false; // a reset swaps the body: the blur of the control it removes is no edit

  function stateOf(name) {
    if (!fields[name]) {
      fields[name] = { name, seq: 0, sent: 0, value: null, sentValue: null, changed: false, edited: false,
        timer: null, queue: [], busy: false, idle: [] };
    }
    return fields[name];
  }

  // Whether the user has a change of this field that has not gone out yet.
  const hasUnsent = (state) => !!state.timer || state.queue.length > 0;

  // Whether the user's value should stand over one the server rendered (`rendered`'s data-seq) before it saw it.
  function userValueStands(name, rendered) {
    const state = fields[name];
    return !!state && state.value !== null && (state.sent > dataSeq(rendered) || hasUnsent(state));
  }

  function stopTimer(state) {
    timers.clearTimeout(state.timer);
    state.timer = null;
  }

  // Queues an input event of the field `control` belongs to; its value is read when the post goes.
  function sendInput(control, event) {
    const state = stateOf(control.name);
    stopTimer(state);
    state.value = valueOf(control);
    const queue = state.queue;
    if (!(event === INPUT_EVENTS.change && queue.length && queue[queue.length - 1] === INPUT_EVENTS.change)) {
      queue.push(event);
    }
    pump(state, control.form);
  }

  // Sends the next queued event of a field once the one before it was answered.
  function pump(state, form) {
    if (state.busy) return;
    if (!state.queue.length) {
      const waiting = state.idle;
      state.idle = [];
      waiting.forEach((resolve) => resolve());
      return;
    }
    const event = state.queue.shift();
    const sid = screen();
    if (!sid || state.value === null) return pump(state, form);
    state.busy = true;
    state.seq = Math.max(state.seq, dataSeq(controlNamed(doc, state.name))) + 1;
    state.sent = state.seq;
    state.sentValue = state.value;
    const body = new URLSearchParams();
    body.append(FIELDS.csrf, csrf(form));
    body.append(FIELDS.name, state.name);
    body.append(FIELDS.value, state.value);
    body.append(FIELDS.seq, String(state.seq));
    body.append(FIELDS.event, event);
    const done = () => { state.busy = false; pump(state, form); };
    fetch(path(PATHS.input, { sid }), {
      method: "POST", body, headers: { [HEADERS.requestedWith]: REQUESTED_WITH_FETCH }, credentials: "same-origin",
    }).then(done, done);
  }

  // A promise that settles when the field has nothing in flight or waiting.
  function whenIdle(state) {
    if (!state.busy && !state.queue.length) return Promise.resolve();
    return new Promise((resolve) => state.idle.push(resolve));
  }

  // Typing in a text control: one post once the user pauses.
  function input(control) {
    if (!isFieldControl(control) || !isTextControl(control)) return;
    const state = stateOf(control.name);
    state.value = control.value;
    state.changed = true;
    state.edited = true;
    timers.clearTimeout(state.timer);
    const armed = state.seq;
    state.timer = timers.setTimeout(() => {
      state.timer = null;
      // A post that went meanwhile (behind the one in flight) carried this text already.
      if (state.seq > armed && state.value === state.sentValue) return;
      if (control.isConnected) sendInput(control, INPUT_EVENTS.change);
      else { state.queue.push(INPUT_EVENTS.change); pump(state, null); }
    }, debounceOf(control));
  }

  // A switch or a picker: at once.
  function change(control) {
    if (!isFieldControl(control) || isTextControl(control)) return;
    stateOf(control.name).changed = true;
    sendInput(control, INPUT_EVENTS.change);
  }

  function focusIn(control) {
    if (isFieldControl(control)) stateOf(control.name).edited = false;
  }

  // Leaving a text control the user edited ends its editing.
  function focusOut(control) {
    if (resetting || !isFieldControl(control) || !isTextControl(control)) return;
    const state = stateOf(control.name);
    if (state.timer || state.edited) sendInput(control, INPUT_EVENTS.end);
    state.edited = false;
  }

  // Enter in a text input outside a form: the screen's primary action. Answers whether it was one.
  function enter(event) {
    const control = event.target;
    if (event.key !== "Enter" || event.isComposing || event.defaultPrevented) return false;
    if (!isFieldControl(control) || control.tagName !== "INPUT" || isToggle(control) || control.form) return false;
    event.preventDefault();
    sendInput(control, INPUT_EVENTS.primary);
    return true;
  }

  // A form is submitted with its fields' values: their debounced input events are dropped; the promise settles
  // once the ones in flight are answered, so that the action comes after them.
  function beforeSubmit(form) {
    const waits = [];
    for (const control of Array.from(form.elements)) {
      if (!isFieldControl(control) || !fields[control.name]) continue;
      const state = fields[control.name];
      stopTimer(state);
      state.edited = false;
      state.queue = state.queue.filter((event) => event !== INPUT_EVENTS.change);
      waits.push(whenIdle(state));
    }
    return Promise.all(waits);
  }

  // A control the server rendered, now in the page: the user's value stands if the server had not seen it yet.
  function settle(control, rendered) {
    if (userValueStands(control.name, rendered || control)) setValue(control, fields[control.name].value);
  }

  // The focused control stays as the user has it, but for a pending form's answer (`formPending`): a value the
  // server rendered after every input event of the field (a field cleared once its item was added) replaces it.
  function settleFocused(control, rendered, formPending) {
    const state = fields[control.name];
    if (!isFieldControl(control) || !formPending) return;
    if (state && (dataSeq(rendered) < state.sent || hasUnsent(state))) return;
    const value = renderedValue(rendered);
    if (valueOf(control) === value) return;
    setValue(control, value);
    if (state) state.value = value;
  }

  // What the user typed, before a reset swaps the page: the values of the fields they changed, and the focus.
  function typed() {
    const result = { values: {}, focus: null };
    for (const name of Object.keys(fields)) {
      if (!fields[name].changed) continue;
      const control = controlNamed(doc, name);
      result.values[name] = control ? valueOf(control) : fields[name].value;
    }
    const active = doc.activeElement;
    if (isFieldControl(active)) result.focus = { name: active.name, id: active.id, selection: selectionOf(active) };
    return result;
  }

  // After a reset: a field the user changed that shows another value takes theirs again, and the (possibly new)
  // screen hears it; the others are in step with the page's screen now (a rebuilt screen counts from 0 again).
  function restore(before) {
    for (const name of Object.keys(fields)) {
      const state = fields[name], control = controlNamed(doc, name);
      stopTimer(state);
      state.queue = [];
      state.sentValue = null;
      const value = before.values[name];
      if (control && Object.prototype.hasOwnProperty.call(before.values, name) && value !== null &&
          valueOf(control) !== value) {
        setValue(control, value);
        sendInput(control, INPUT_EVENTS.change);
      } else {
        state.sent = dataSeq(control);
        if (control) state.value = valueOf(control);
      }
    }
    if (before.focus) {
      const control = controlNamed(doc, before.focus.name) || (before.focus.id && doc.getElementById(before.focus.id));
      if (control) {
        control.focus();
        select(control, before.focus.selection);
      }
    }
  }

  return {
    state: (name) => fields[name], input, change, focusIn, focusOut, enter, beforeSubmit, settle, settleFocused,
    typed, restore, userValueStands, sendInput,
    setResetting(value) { resetting = value; },
    // A navigation brought another screen: nothing of the old one's fields is sent to it.
    forget() {
      for (const name of Object.keys(fields)) { stopTimer(fields[name]); delete fields[name]; }
    },
  };
}
