/**
 * The entry pad (`.entry-pad`): who called trump, alone, the tricks (the second tap saves
 * the hand), the way into the renege walk, undo, and who deals; and, once every hand of a
 * fixed-length game is entered, the panel that says so. The pad keeps what was tapped of the
 * hand being entered (cleared when any hand is entered) and whether the dealer list is open;
 * "Renege…" asks for the walk with a `renege` event carrying those taps.
 */

import * as api from '../api.js';
import {button, h, refill} from '../dom.js';
import {plural, seats} from '../words.js';
import {handBody, lonerButtons, sideButtons, tricksButtons} from './hand-taps.js';

const freshSelection = () => ({maker: null, alone: false, loner: null});

/** Who deals: asked before the first hand, or afterwards as who dealt hand 1 (the server
 * follows the deal from there). */
function dealerButton(store, open, toggle) {
  const g = store.game;
  if (g.over || g.dealer) return null;
  const started = g.hands_played + store.waiting() > 0;
  return button(started ? 'Who dealt hand 1?' : 'Who deals first?', toggle,
    {'aria-expanded': String(open), 'data-k': 'dealer'});
}

function dealerPicker(store, pick) {
  const g = store.game;
  return h('div', {class: 'choice-grid dealer-picker'}, seats(g).map((p) =>
    button(h('span', {class: 'clamp'}, p.player_id === null ? `Ghost (seat ${p.seat})` : p.name),
      () => pick(p.seat), {'data-k': `dealer-${p.seat}`})));
}

export function entryPad(store) {
  const el = h('section', {class: 'entry entry-pad', 'aria-label': 'Enter a hand'});
  let sel = freshSelection();
  let picking = false; // the dealer list is open
  store.addEventListener('entered', () => { sel = freshSelection(); });
  const pickDealer = (seat) => store.act('dealer', async (game) => {
    const changed = await api.setDealer(game, seat);
    picking = false;
    return changed;
  });

  function view() {
    const g = store.game;
    const needLoner = store.bumps() && sel.alone;
    const ready = sel.maker && (!needLoner || sel.loner);
    const lastId = store.lastHandId();
    return refill(el, h('h2', {class: 'q'}, 'Who called trump?'),
      sideButtons(g, sel.maker, (side) => { sel.maker = side; sel.loner = null; view(); },
        'maker'),
      // The tricks question shares its row with "Alone" (48 px either way, so nothing moves
      // between the two taps).
      h('div', {class: 'tricks-head'},
        h('div', {class: 'tricks-q'}, h('h2', {class: 'q'}, 'Tricks the makers took'),
          !sel.maker && h('p', {class: 'hint', id: 'tricks-hint'}, 'First tap who called trump.')),
        button('Alone', () => { sel.alone = !sel.alone; sel.loner = null; view(); },
          {'aria-pressed': String(sel.alone), class: 'btn-toggle btn-alone', 'data-k': 'alone'})),
      needLoner && sel.maker && lonerButtons(g, sel.maker, sel.loner,
        (seat) => { sel.loner = seat; view(); }, 'loner'),
      tricksButtons(store.handValues(), sel.alone, ready && !store.busy,
        (tricks) => store.saveHand(handBody(sel, tricks))),
      h('div', {class: 'row-actions'},
        button('Renege…', () => el.dispatchEvent(new CustomEvent('renege', {detail: {...sel}})),
          {'data-k': 'renege'}),
        lastId && button('Undo last hand', () => store.undoHand(lastId), {'data-k': 'undo-last'}),
        dealerButton(store, picking, () => { picking = !picking; view(); })),
      picking && !g.over && !g.dealer && dealerPicker(store, pickDealer));
  }
  return {el, view};
}

/** Every hand of the game is entered, some still on this phone: no more can be added. */
export function allEnteredPanel(store) {
  const el = h('section', {class: 'entry entry-done', 'aria-label': 'All hands entered'});
  return {el, view() {
    const g = store.game;
    const lastId = store.lastHandId();
    const total = g.hands_played + g.hands_to_go;
    const waiting = store.waiting();
    return refill(el, h('h2', {class: 'q'}, `All ${total} hands are entered`),
      h('p', {}, `${plural(waiting, 'hand')} ${waiting === 1 ? 'is' : 'are'} waiting on this `
        + 'phone to be sent. The result shows here once the server has them.'),
      h('div', {class: 'row-actions'},
        lastId && button('Undo last hand', () => store.undoHand(lastId), {'data-k': 'undo-last'}),
        h('a', {class: 'btn', href: '/outbox'}, 'Hands not sent')));
  }};
}
