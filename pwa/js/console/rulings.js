/** What the Corrections editor adds for a game after its correction window (RULES.md §7): the
 * reason a change needs then (sent as X-Reason), and the organizer's rulings on the game (points
 * to a side, a forfeit, a protest upheld or rejected; each with its reason; withdrawn with one). */

import {h} from '../dom.js';
import * as calls from './calls.js';
import {does, inp, lab, msg} from './ui.js';

const KINDS = [['adjust', 'Points to a side'], ['forfeit', 'Forfeit'], ['protest_upheld', 'Protest upheld'],
  ['protest_rejected', 'Protest rejected']];

/** The reason field, once the table's window has closed (null before). */
export function lateField(game, keep, value) {
  if (game.correction_open || !game.correctable_until) return null;
  const at = new Date(game.correctable_until).toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'});
  const field = inp('late-reason', {value, maxlength: 300, oninput: (e) => keep(e.target.value)});
  return h('div', {class: 'panel late'}, h('p', {class: 'warn'}, `The table's correction window closed at ${at}: `
    + 'a change now needs your reason, kept in the audit log and on the scoresheet.'), lab(field, 'Reason for the change'), field);
}

const words = (r, names) => (r.kind === 'adjust' ? `${r.points > 0 ? '+' : ''}${r.points} to ${names[r.side]}`
  : r.kind === 'protest_rejected' ? 'Protest rejected' : `${names[r.side]} forfeit${r.kind === 'protest_upheld' ? ' (protest upheld)' : ''}`);

/** The standing rulings, each with Withdraw, and a form for a new one; `done(game, words)`. */
export function rulingsPanel(game, done) {
  const out = msg();
  const names = {A: game.sides.A.name, B: game.sides.B.name};
  const kind = h('select', {id: 'ruling-kind', class: 'input'}, KINDS.map(([v, t]) => h('option', {value: v}, t)));
  const side = h('select', {id: 'ruling-side', class: 'input'}, ['A', 'B'].map((v) => h('option', {value: v}, names[v])));
  const points = inp('ruling-points', {type: 'number', min: -100, max: 100, inputmode: 'numeric'});
  const reason = inp('ruling-reason', {maxlength: 300});
  const body = () => ({kind: kind.value, reason: reason.value, side: kind.value === 'protest_rejected' ? null : side.value,
    points: kind.value === 'adjust' ? Number(points.value) : null});
  return h('details', {class: 'panel rulings'}, h('summary', {class: 'btn btn-link'}, game.ruled ? `Rulings (${game.rulings.length})` : 'Rulings'),
    h('ul', {class: 'plain-list'}, game.rulings.map((r) => h('li', {}, `${words(r, names)}: ${r.reason} `,
      does('Withdraw', out, () => calls.withdrawRuling(game, r.id, reason.value || 'withdrawn'),
        (a) => done(a.game, `Ruling withdrawn: ${words(r, names)}.`),
        {class: 'btn-small', sure: 'Tap again: the ruling is undone (the reason below is kept with it)'})))),
    lab(kind, 'Ruling'), kind, lab(side, 'Side'), side, lab(points, 'Points (adjustments; negative takes away)'), points,
    lab(reason, 'Reason'), reason,
    h('div', {class: 'actions'}, does('Record the ruling', out, () => calls.addRuling(game, body()),
      (a) => done(a.game, `Ruling recorded: ${words(a, names)}.`), {pending: 'Recording…'})), out);
}
