/**
 * The game-sheet entry (`.sheet-entry`): a WEC game entered as its final points and bumps per
 * player instead of hand by hand, or the sheet entry removed again.
 */

import * as api from '../api.js';
import {button, h, refill} from '../dom.js';
import {seats, sideName} from '../words.js';

/** The entry (or the note that the game came from a sheet), or null where it does not apply:
 * a game sheet format, this phone's table, and no hand entered yet. After the correction
 * window (the game read's `correction_open`, RULES.md §7) the note stays without its button:
 * only the organizer can remove the sheet then. */
export function sheetEntry(store) {
  const note = h('section', {class: 'card sheet sheet-entry'});
  const entry = h('details', {class: 'card sheet sheet-entry'});
  return {el: entry, view() {
    const g = store.game;
    if (!store.covered || !store.format?.parameters?.game_sheet || g.signed_off) return null;
    const late = g.correction_open === false;
    if (g.from_sheet) {
      return refill(note, h('p', {}, 'Entered from the game sheet.'),
        !late && button('Remove the sheet entry', () => store.act('sheet', (game) => api.clearSheet(game)),
          {class: 'btn-small'}));
    }
    if (late || g.hands.length || store.pending.length) return null;
    return refill(entry, h('summary', {class: 'btn'},
      'Enter from the game sheet (final points and bumps)'), sheetForm(store));
  }};
}

function sheetForm(store) {
  const g = store.game;
  const input = (id, label, required = false) => [h('label', {for: id}, label),
    h('input', {id, class: 'input', type: 'number', inputmode: 'numeric', min: 0, max: 1000,
      required})];
  const form = h('form', {class: 'form', onsubmit: (ev) => {
    ev.preventDefault();
    const value = (id) => Number(form.querySelector(`#${id}`).value || 0);
    const sheet = {points: {A: value('sheet-a'), B: value('sheet-b')}, bumps: {}};
    for (const p of seats(g)) {
      const n = value(`sheet-bump-${p.seat}`);
      if (n) sheet.bumps[String(p.seat)] = n;
    }
    store.act('game sheet', (game) => api.putSheet(game, sheet));
  }},
  input('sheet-a', `${sideName(g, 'A')}: final points`, true),
  input('sheet-b', `${sideName(g, 'B')}: final points`, true),
  h('fieldset', {}, h('legend', {}, 'Bumps (dollars) per player'),
    seats(g).map((p) => input(`sheet-bump-${p.seat}`, `${p.name} (seat ${p.seat})`))),
  h('button', {type: 'submit', class: 'btn btn-primary'}, 'Save the game sheet'));
  return form;
}
