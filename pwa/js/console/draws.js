/**
 * Door prizes, on the Prizes section: a random draw among the checked-in entrants who are not
 * disqualified (leaving out prize winners and earlier winners, unless the organizer says
 * otherwise), drawn by the server from a seed it records. Each draw keeps its own list of
 * candidates, so any draw can be repeated later: the repeat is a check shown beside the draw
 * (same winners, or not), never a new draw. The latest draw is shown big on the projector.
 */

import {h, mount} from '../dom.js';
import * as calls from './calls.js';
import {act, failure, inp, lab, msg, say} from './ui.js';

const names = (list) => list.map((w) => w.name || '?').join(', ');

/** One draw in the list: its winners, what it was drawn from, and its repeat check. */
function drawItem(id, d, latest) {
  const check = msg('draw-check');
  const repeat = h('button', {type: 'button', class: 'btn btn-small draw-repeat',
    'aria-label': `Repeat draw ${d.number} (a check)`, onclick: async () => {
      const done = await act(repeat, check, () => calls.repeatDraw(id, d.number), 'Repeating…');
      if (!done) return;
      say(check, done.same
        ? `✓ Check: repeating draw ${d.number} gives the same winners (${names(done.winners)}), from the same ${done.candidates} and seed ${done.seed}.`
        : `✗ Check failed: repeating draw ${d.number} gives ${names(done.winners)}, not ${names(done.recorded)}.`,
      done.same ? 'ok' : 'error');
    }}, `Repeat draw ${d.number}`);
  const pool = d.candidate_list
    ? h('details', {class: 'draw-pool'}, h('summary', {}, `Drawn from ${d.candidates}`),
      h('p', {class: 'hint'}, names(d.candidate_list)))
    : h('span', {class: 'hint'}, `Drawn from ${d.candidates}`);
  return h('li', {class: ['draw-item', latest && 'draw-latest'], 'data-draw': d.number},
    latest ? h('p', {class: 'draw-winners'}, d.winners.map((w) => h('strong', {}, w.name || '?')))
      : h('p', {}, h('strong', {}, `Draw ${d.number}: `), names(d.winners)),
    h('p', {class: 'hint'}, `Draw ${d.number} · seed ${d.seed}`
      + `${d.leave_out_drawn ? ' · earlier winners left out' : ''}${d.leave_out_prize_winners ? ' · prize winners left out' : ''}`),
    pool, d.candidate_list ? repeat : h('span', {class: 'hint'}, ' (made before draws kept their list: no repeat)'), check);
}

export function drawsCard(id, eventLink) {
  const out = msg();
  const count = inp('draw-count', {type: 'number', min: 1, max: 50, value: 1, inputmode: 'numeric'});
  const noPrize = h('input', {type: 'checkbox', id: 'draw-no-prize', checked: true});
  const noAgain = h('input', {type: 'checkbox', id: 'draw-no-again', checked: true});
  const go = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Draw');
  const latest = h('div', {class: 'draw-result', 'aria-live': 'polite'});
  const history = h('ol', {class: 'plain-list draw-history'});
  let draws = [];

  const paint = () => {
    const last = draws[draws.length - 1];
    mount(latest, last && h('ul', {class: 'plain-list'}, drawItem(id, last, true)));
    mount(history, draws.slice(0, -1).reverse().map((d) => drawItem(id, d, false)));
  };

  const form = h('form', {class: 'form', onsubmit: async (e) => {
    e.preventDefault();
    const made = await act(go, out, () => calls.draw(id, {count: Number(count.value || 1),
      leave_out_prize_winners: noPrize.checked, leave_out_drawn: noAgain.checked}), 'Drawing…');
    if (made) {
      draws = [...draws, made];
      paint();
      say(out, `Drawn: ${names(made.winners)}. It shows on the projector.`);
    }
  }}, lab(count, 'How many winners'), count,
  h('label', {class: 'check'}, noPrize, ' Leave out prize winners'),
  h('label', {class: 'check'}, noAgain, ' Leave out earlier winners'), go);

  calls.draws(id).then((found) => { draws = found; paint(); }, (error) => say(out, failure(error, true), 'error'));
  return {el: h('section', {class: 'card draws'}, h('h2', {}, 'Door prizes'), latest, form, out,
    h('p', {class: 'hint'}, 'Among the checked-in entrants, disqualified ones left out. Each draw keeps its list, '
      + 'so any draw can be repeated to show it was fair. ', h('a', {href: eventLink}, 'Show it on the projector')),
    history), update: () => {}};
}
