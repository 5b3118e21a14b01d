/**
 * The renege walk (`.renege`): a guided few taps for a hand with a renege claim: who called
 * trump and whether alone, who reneged, upheld or rejected; an upheld renege ends the hand,
 * a rejected one is scored from its tricks. The walk keeps its own taps, begun from the entry
 * pad's (`open`); "Cancel" says `close`, and entering the hand ends it (the store's `entered`).
 */

import {button, h, refill} from '../dom.js';
import {handBody, lonerButtons, sideButtons, tricksButtons} from './hand-taps.js';

export function renegeWalk(store) {
  const el = h('section', {class: 'entry renege renege-walk', 'aria-label': 'Renege'});
  let r = {};
  const open = ({maker, alone, loner}) => { r = {maker, alone, loner}; };
  const tap = (change) => () => { change(); view(); };
  const save = (tricks, upheld) => store.saveHand(handBody(r, tricks, {by: r.by, upheld}));

  function steps(g) {
    const needLoner = store.bumps() && r.alone;
    const shown = [h('h2', {class: 'q'}, 'Renege: who called trump?'),
      sideButtons(g, r.maker, (side) => { r.maker = side; r.loner = null; view(); }, 'rmaker'),
      h('div', {class: 'choice-grid'},
        button('Not alone', tap(() => { r.alone = false; r.loner = null; }),
          {'aria-pressed': String(!r.alone), class: 'btn-choice', 'data-k': 'r-notalone'}),
        button('Alone', tap(() => { r.alone = true; }),
          {'aria-pressed': String(r.alone), class: 'btn-choice', 'data-k': 'r-alone'}))];
    if (r.maker && needLoner) {
      shown.push(lonerButtons(g, r.maker, r.loner, (seat) => { r.loner = seat; view(); },
        'rloner'));
    }
    if (r.maker && (!needLoner || r.loner)) {
      shown.push(h('h2', {class: 'q'}, 'Who reneged?'),
        sideButtons(g, r.by, (side) => { r.by = side; view(); }, 'rby'));
    }
    if (r.by) {
      shown.push(h('h2', {class: 'q'}, 'Was the renege claim upheld?'),
        h('div', {class: 'choice-grid'},
          button('Upheld', tap(() => { r.upheld = true; }),
            {'aria-pressed': String(r.upheld === true), class: 'btn-choice', 'data-k': 'r-upheld'}),
          button('Rejected', tap(() => { r.upheld = false; }),
            {'aria-pressed': String(r.upheld === false), class: 'btn-choice',
              'data-k': 'r-rejected'})));
    }
    if (r.upheld === true) {
      shown.push(h('p', {class: 'hint'}, 'An upheld renege ends the hand: the tricks do not count.'),
        button('Save the renege', () => save(null, true), {class: 'btn-primary', 'data-k': 'r-save'}));
    } else if (r.upheld === false) {
      shown.push(h('h2', {class: 'q'}, 'The hand stands: tricks the makers took'),
        tricksButtons(store.handValues(), r.alone, !store.busy, (tricks) => save(tricks, false),
          null, 'rtricks'));
    }
    shown.push(button('Cancel the renege', () => el.dispatchEvent(new Event('close')),
      {'data-k': 'r-cancel'}));
    return shown;
  }

  const view = () => refill(el, steps(store.game));
  return {el, open, view};
}
