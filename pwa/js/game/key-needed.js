/**
 * The key-needed panel (`.key-needed`): this phone's key does not reach this table; say so
 * up front, and offer to join the table with the event's PIN. The panel keeps the PIN input
 * (a redraw keeps what was typed) and why the last try failed.
 */

import {h, refill, toast} from '../dom.js';
import {tablesWords} from '../words.js';

export function keyNeeded(store) {
  const el = h('section', {class: 'card key-needed', 'aria-label': 'This table needs a key'});
  const pin = h('input', {id: 'key-pin', class: 'input', inputmode: 'numeric',
    required: true, autocomplete: 'off', maxlength: 12, 'data-k': 'key-pin'});
  let failed = null; // what the server said to the last PIN

  function join(ev, submit) {
    ev.preventDefault();
    if (store.busy) return;
    const table = store.game.table;
    failed = null;
    submit.disabled = true;
    store.join(pin.value).then(() => toast(`This phone now runs table ${table} too.`),
      (error) => { failed = error.message; }).finally(() => store.changed());
  }

  function view() {
    const g = store.game;
    const submit = h('button', {type: 'submit', class: 'btn btn-primary', disabled: store.busy},
      `Join table ${g.table}`);
    const form = h('form', {class: 'form', onsubmit: (ev) => join(ev, submit)},
      h('label', {for: 'key-pin'}, 'Join PIN (from the organizer)'), pin,
      failed && h('p', {class: 'error', role: 'alert'}, failed), submit);
    return refill(el, h('h2', {}, store.hasKey && store.keyTables.length
      ? `This phone's key covers ${tablesWords(store.keyTables)} only`
      : 'This phone has no key for this event'),
    h('p', {}, `Hands of table ${g.table} cannot be entered here yet. To run it from this `
      + `phone too, join table ${g.table} with the event's PIN.`),
    form,
    store.hasKey && h('a', {class: 'btn', href: `/e/${store.eid}/run`}, 'Back to your tables'));
  }
  return {el, view};
}
