/**
 * The entry pad (`.entry-pad`): who called trump, alone, the tricks (the second tap saves
 * the hand), the way into the renege walk, undo, and who deals; and, once every hand of a
 * fixed-length game is entered, the panel that says so.
 */

import * as api from '../api.js';
import {button, h} from '../dom.js';
import {plural, seats} from '../words.js';
import {handBody, lonerButtons, sideButtons, tricksButtons} from './hand-taps.js';

/** Who deals: asked before the first hand, or afterwards as who dealt hand 1 (the server
 * follows the deal from there). */
function dealerButton(ctx) {
  const {s} = ctx;
  const g = s.game;
  if (g.over || g.dealer) return null;
  const started = g.hands_played + ctx.waiting() > 0;
  return button(started ? 'Who dealt hand 1?' : 'Who deals first?',
    () => { s.dealerPicker = !s.dealerPicker; ctx.draw(); },
    {'aria-expanded': String(s.dealerPicker), 'data-k': 'dealer'});
}

function dealerPicker(ctx) {
  const {s} = ctx;
  const g = s.game;
  if (!s.dealerPicker || g.over || g.dealer) return null;
  return h('div', {class: 'choice-grid dealer-picker'}, seats(g).map((p) =>
    button(h('span', {class: 'clamp'}, p.player_id === null ? `Ghost (seat ${p.seat})` : p.name),
      () => ctx.act('dealer', async () => {
        s.game = await api.setDealer(s.game, p.seat);
        s.dealerPicker = false;
      }), {'data-k': `dealer-${p.seat}`})));
}

export function entryPad(ctx) {
  const {s} = ctx;
  const sel = s.sel;
  const needLoner = ctx.bumps() && sel.alone;
  const ready = sel.maker && (!needLoner || sel.loner);
  const lastId = ctx.lastHandId();
  return h('section', {class: 'entry entry-pad', 'aria-label': 'Enter a hand'},
    h('h2', {class: 'q'}, 'Who called trump?'),
    sideButtons(ctx, sel.maker, (side) => { sel.maker = side; sel.loner = null; ctx.draw(); },
      'maker'),
    // The tricks question shares its row with "Alone" (48 px either way, so nothing moves
    // between the two taps).
    h('div', {class: 'tricks-head'},
      h('div', {class: 'tricks-q'}, h('h2', {class: 'q'}, 'Tricks the makers took'),
        !sel.maker && h('p', {class: 'hint', id: 'tricks-hint'}, 'First tap who called trump.')),
      button('Alone', () => { sel.alone = !sel.alone; sel.loner = null; ctx.draw(); },
        {'aria-pressed': String(sel.alone), class: 'btn-toggle btn-alone', 'data-k': 'alone'})),
    needLoner && sel.maker && lonerButtons(ctx, sel.maker, sel.loner,
      (seat) => { sel.loner = seat; ctx.draw(); }, 'loner'),
    tricksButtons(ctx, sel.alone, ready && !s.busy,
      (tricks) => ctx.saveHand(handBody(sel, tricks))),
    h('div', {class: 'row-actions'},
      button('Renege…', () => {
        s.renege = {maker: sel.maker, alone: sel.alone, loner: sel.loner};
        ctx.draw();
      }, {'data-k': 'renege'}),
      lastId && button('Undo last hand', () => ctx.undoHand(lastId), {'data-k': 'undo-last'}),
      dealerButton(ctx)),
    dealerPicker(ctx));
}

/** Every hand of the game is entered, some still on this phone: no more can be added. */
export function allEnteredPanel(ctx) {
  const g = ctx.s.game;
  const lastId = ctx.lastHandId();
  const total = g.hands_played + g.hands_to_go;
  const waiting = ctx.waiting();
  return h('section', {class: 'entry entry-done', 'aria-label': 'All hands entered'},
    h('h2', {class: 'q'}, `All ${total} hands are entered`),
    h('p', {}, `${plural(waiting, 'hand')} ${waiting === 1 ? 'is' : 'are'} waiting on this `
      + 'phone to be sent. The result shows here once the server has them.'),
    h('div', {class: 'row-actions'},
      lastId && button('Undo last hand', () => ctx.undoHand(lastId), {'data-k': 'undo-last'}),
      h('a', {class: 'btn', href: '/outbox'}, 'Hands not sent')));
}
