/**
 * The renege walk (`.renege`): a guided few taps for a hand with a renege claim: who called
 * trump and whether alone, who reneged, upheld or rejected; an upheld renege ends the hand,
 * a rejected one is scored from its tricks.
 */

import {button, h} from '../dom.js';
import {handBody, lonerButtons, sideButtons, tricksButtons} from './hand-taps.js';

export function renegeWalk(ctx) {
  const {s} = ctx;
  const r = s.renege;
  const redraw = () => ctx.draw();
  const needLoner = ctx.bumps() && r.alone;
  const steps = [h('h2', {class: 'q'}, 'Renege: who called trump?'),
    sideButtons(ctx, r.maker, (side) => { r.maker = side; r.loner = null; redraw(); }, 'rmaker'),
    h('div', {class: 'choice-grid'},
      button('Not alone', () => { r.alone = false; r.loner = null; redraw(); },
        {'aria-pressed': String(!r.alone), class: 'btn-choice', 'data-k': 'r-notalone'}),
      button('Alone', () => { r.alone = true; redraw(); },
        {'aria-pressed': String(r.alone), class: 'btn-choice', 'data-k': 'r-alone'}))];
  if (r.maker && needLoner) {
    steps.push(lonerButtons(ctx, r.maker, r.loner, (seat) => { r.loner = seat; redraw(); },
      'rloner'));
  }
  if (r.maker && (!needLoner || r.loner)) {
    steps.push(h('h2', {class: 'q'}, 'Who reneged?'),
      sideButtons(ctx, r.by, (side) => { r.by = side; redraw(); }, 'rby'));
  }
  if (r.by) {
    steps.push(h('h2', {class: 'q'}, 'Was the renege claim upheld?'),
      h('div', {class: 'choice-grid'},
        button('Upheld', () => { r.upheld = true; redraw(); },
          {'aria-pressed': String(r.upheld === true), class: 'btn-choice', 'data-k': 'r-upheld'}),
        button('Rejected', () => { r.upheld = false; redraw(); },
          {'aria-pressed': String(r.upheld === false), class: 'btn-choice',
            'data-k': 'r-rejected'})));
  }
  if (r.upheld === true) {
    steps.push(h('p', {class: 'hint'}, 'An upheld renege ends the hand: the tricks do not count.'),
      button('Save the renege', () => ctx.saveHand(handBody(r, null, {by: r.by, upheld: true})),
        {class: 'btn-primary', 'data-k': 'r-save'}));
  } else if (r.upheld === false) {
    steps.push(h('h2', {class: 'q'}, 'The hand stands: tricks the makers took'),
      tricksButtons(ctx, r.alone, !s.busy,
        (tricks) => ctx.saveHand(handBody(r, tricks, {by: r.by, upheld: false})), null,
        'rtricks'));
  }
  steps.push(button('Cancel the renege', () => { s.renege = null; redraw(); },
    {'data-k': 'r-cancel'}));
  return h('section', {class: 'entry renege renege-walk', 'aria-label': 'Renege'}, steps);
}
