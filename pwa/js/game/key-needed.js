/**
 * The key-needed panel (`.key-needed`): this phone's key does not reach this table; say so
 * up front, and offer to join the table with the event's PIN.
 */

import * as api from '../api.js';
import {h, toast} from '../dom.js';
import {tablesWords} from '../words.js';

export function keyNeeded(ctx) {
  const {s, eid} = ctx;
  const g = s.game;
  // One input for the screen's life: a redraw (the outbox, a poll) keeps what was typed.
  ctx.pinInput ||= h('input', {id: 'key-pin', class: 'input', inputmode: 'numeric',
    required: true, autocomplete: 'off', maxlength: 12, 'data-k': 'key-pin'});
  const pin = ctx.pinInput;
  const submit = h('button', {type: 'submit', class: 'btn btn-primary', disabled: s.busy},
    `Join table ${g.table}`);
  const form = h('form', {class: 'form', onsubmit: (ev) => {
    ev.preventDefault();
    if (s.busy) return;
    s.busy = true;
    s.joinError = null;
    submit.disabled = true;
    api.join(s.code, pin.value, g.table).then(async () => {
      await ctx.refreshKeys();
      toast(`This phone now runs table ${g.table} too.`);
    }, (error) => {
      s.joinError = error.message;
    }).finally(() => { s.busy = false; ctx.draw(); });
  }},
  h('label', {for: 'key-pin'}, 'Join PIN (from the organizer)'), pin,
  s.joinError && h('p', {class: 'error', role: 'alert'}, s.joinError), submit);
  return h('section', {class: 'card key-needed', 'aria-label': 'This table needs a key'},
    h('h2', {}, s.hasKey && s.keyTables.length
      ? `This phone's key covers ${tablesWords(s.keyTables)} only`
      : 'This phone has no key for this event'),
    h('p', {}, `Hands of table ${g.table} cannot be entered here yet. To run it from this `
      + `phone too, join table ${g.table} with the event's PIN.`),
    form,
    s.hasKey && h('a', {class: 'btn', href: `/e/${eid}/run`}, 'Back to your tables'));
}
