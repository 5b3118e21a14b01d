/**
 * Door prizes, on the Prizes section: a random draw among the checked-in entrants (leaving out
 * prize winners and earlier winners, unless the organizer says otherwise), drawn by the server
 * from a seed it records, so any draw can be repeated to show it was fair. The latest draw is
 * shown big on the projector.
 */

import {h, mount} from '../dom.js';
import * as calls from './calls.js';
import {act, failure, inp, lab, msg, say} from './ui.js';

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
    mount(latest, last && [h('p', {class: 'draw-winners'}, last.winners.map((w) => h('strong', {}, w.name || '?'))),
      h('p', {class: 'hint'}, `Draw ${last.number} of ${last.candidates} · seed ${last.seed}`)]);
    mount(history, draws.slice(0, -1).reverse().map((d) => h('li', {},
      `Draw ${d.number}: ${d.winners.map((w) => w.name).join(', ')} (of ${d.candidates}, seed ${d.seed})`)));
  };

  const form = h('form', {class: 'form', onsubmit: async (e) => {
    e.preventDefault();
    const made = await act(go, out, () => calls.draw(id, {count: Number(count.value || 1),
      leave_out_prize_winners: noPrize.checked, leave_out_drawn: noAgain.checked}), 'Drawing…');
    if (made) {
      draws = [...draws, made];
      paint();
      say(out, `Drawn: ${made.winners.map((w) => w.name).join(', ')}. It shows on the projector.`);
    }
  }}, lab(count, 'How many winners'), count,
  h('label', {class: 'check'}, noPrize, ' Leave out prize winners'),
  h('label', {class: 'check'}, noAgain, ' Leave out earlier winners'), go);

  calls.draws(id).then((found) => { draws = found; paint(); }, (error) => say(out, failure(error, true), 'error'));
  return {el: h('section', {class: 'card'}, h('h2', {}, 'Door prizes'), latest, form, out,
    h('p', {class: 'hint'}, 'Among the checked-in entrants. ', h('a', {href: eventLink}, 'Show it on the projector')),
    history), update: () => {}};
}
