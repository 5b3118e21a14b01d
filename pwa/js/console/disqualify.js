/**
 * Disqualification, on the Prizes section (Loner Seekers rule 7; WEC prize eligibility): the
 * organizer names the entrant and the reason; their results stay for their opponents, they
 * take no place and no prize, and the board says why. Undone with one tap; both audited.
 */

import {h, mount} from '../dom.js';
import * as calls from './calls.js';
import {entrantPicker} from './pick.js';
import {act, does, inp, lab, msg, say} from './ui.js';

export function disqualifyCard(id, teams, entrants) {
  const out = msg();
  const who = entrantPicker('dq-who', teams ? 'Team to disqualify' : 'Player to disqualify');
  const reason = inp('dq-reason', {maxlength: 200, placeholder: 'e.g. a phone at the table (rule 17)'});
  const go = h('button', {type: 'submit', class: 'btn btn-danger'}, 'Disqualify');
  const list = h('ul', {class: 'plain-list struck-list'});
  let shown = [];

  const form = h('form', {class: 'form', onsubmit: async (e) => {
    e.preventDefault();
    const entrant = who.value();
    if (entrant === null) { say(out, 'Pick a name from the list.', 'error'); return; }
    if (!reason.value.trim()) { say(out, 'Say why: the reason is shown with the standings.', 'error'); return; }
    const saved = await act(go, out, () => calls.setEntrant(id, teams, entrant, {disqualified: reason.value.trim()}));
    if (saved) {
      say(out, `${saved.name} is disqualified: no place, no prize. Their games still count for their opponents.`);
      form.reset();
    }
  }}, who.label, who.field, who.options, lab(reason, 'Reason'), reason, go);

  function update(board) {
    const struck = board.rows.filter((r) => r.disqualified);
    const key = struck.map((r) => `${r.entrant_id}:${r.disqualified}`).join('|');
    if (key === shown) return;
    shown = key;
    mount(list, struck.length ? struck.map((r) => h('li', {},
      h('strong', {}, r.name), ` · ${r.disqualified} `,
      does('Undo', out, () => calls.setEntrant(id, teams, r.entrant_id, {disqualified: null}),
        (saved) => say(out, `${saved.name} is back in the places.`),
        {class: 'btn-small', 'aria-label': `Undo the disqualification of ${r.name}`})))
      : h('li', {class: 'empty'}, 'Nobody is disqualified.'));
  }

  entrants().then((field) => who.set(field)).catch(() => {});
  return {el: h('section', {class: 'card'}, h('h2', {}, 'Disqualification'), list, form, out), update};
}
