/**
 * The organizer's own awards, on the Prizes section (WEC: Farthest Traveler, Sportsmanship for
 * a game, Best Dressed; any name): each with its winner and a note, shown to everyone with the
 * automatic awards. The whole list is saved at once (PUT), so a retry means the same.
 */

import {button, h, mount} from '../dom.js';
import * as calls from './calls.js';
import {entrantPicker} from './pick.js';
import {act, failure, inp, lab, msg, say} from './ui.js';

export function namedAwardsCard(id, teams, entrants) {
  const out = msg();
  const list = h('ul', {class: 'plain-list named-awards'});
  const title = inp('award-name', {maxlength: 60, placeholder: 'e.g. Farthest Traveler', list: 'award-names'});
  const names = h('datalist', {id: 'award-names'},
    ['Farthest Traveler', 'Sportsmanship', 'Best Dressed'].map((n) => h('option', {value: n})));
  const who = entrantPicker('award-who', teams ? 'Winning team' : 'Winner');
  const note = inp('award-note', {maxlength: 200, placeholder: 'Optional: e.g. round 3, table 7'});
  const add = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Give the award');
  let awards = [];

  const body = (list) => list.map((a) => ({name: a.name, note: a.note || null, winners: a.winners.map((w) => w.id)}));
  const save = async (btn, next, words) => {
    const saved = await act(btn, out, () => calls.setNamedAwards(id, body(next)));
    if (saved) { awards = saved; paint(); say(out, words); }
    return saved;
  };

  function paint() {
    mount(list, awards.length ? awards.map((a, i) => h('li', {},
      h('strong', {}, a.name), `: ${a.winners.map((w) => w.name).join(', ')}`, a.note ? ` (${a.note})` : '', ' ',
      button('Remove', (e) => save(e.currentTarget, awards.filter((_, j) => j !== i), `${a.name} removed.`),
        {class: 'btn-small', 'aria-label': `Remove the award ${a.name}`})))
      : h('li', {class: 'empty'}, 'No awards of your own yet.'));
  }

  const form = h('form', {class: 'form', onsubmit: async (e) => {
    e.preventDefault();
    const winner = who.value();
    if (!title.value.trim()) { say(out, 'Name the award.', 'error'); return; }
    if (winner === null) { say(out, 'Pick the winner from the list of names.', 'error'); return; }
    const same = awards.find((a) => a.name.toLowerCase() === title.value.trim().toLowerCase());
    const next = same
      ? awards.map((a) => (a === same ? {...a, winners: [...a.winners, {id: winner}]} : a))
      : [...awards, {name: title.value.trim(), note: note.value.trim() || null, winners: [{id: winner}]}];
    if (await save(add, next, `${title.value.trim()}: given.`)) form.reset();
  }}, lab(title, 'Award'), title, names, who.label, who.field, who.options, lab(note, 'Note'), note, add);

  (async () => {
    try {
      [awards] = await Promise.all([calls.namedAwards(id), entrants().then((field) => who.set(field))]);
      paint();
    } catch (error) {
      mount(list, h('li', {class: 'hint'}, failure(error, true)));
    }
  })();
  return {el: h('section', {class: 'card'}, h('h2', {}, 'Awards of your own'),
    h('p', {class: 'hint'}, 'Shown with Low Score and High Game, on the board and the printed results.'),
    list, form, out), update: () => {}};
}
