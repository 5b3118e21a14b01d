/**
 * The hands list (`.hands`: "Hands (5)", folding) with its edit form: the hands the server
 * has (edit, delete with a second tap), the ones waiting on this phone and the ones refused;
 * editing a hand; and, when the hand being edited was deleted on another phone, keeping what
 * was typed.
 */

import * as api from '../api.js';
import {button, h, toast} from '../dom.js';
import {SIDES, outcomeWords, pendingWords, sideName} from '../words.js';
import {handBody, lonerButtons, sideButtons, tricksButtons} from './hand-taps.js';

export function startEdit(ctx, hand) {
  const {s} = ctx;
  s.edit = {handId: hand.id, number: hand.number, maker: hand.maker, alone: hand.alone,
    loner: hand.loner_seat, tricks: hand.tricks, renege: hand.renege};
  s.renege = null;
  s.orphan = null;
  s.notice = null;
  ctx.draw();
  // scroll-margin-top (app.css) keeps the heading below the sticky bar.
  document.querySelector('.entry.edit')?.scrollIntoView({block: 'start'});
}

function deleteHand(ctx, hand) {
  const {s} = ctx;
  return ctx.act('delete', async () => {
    let gone = false;
    try {
      s.game = await api.deleteHand(s.game, hand.id);
    } catch (error) {
      // Refused because another phone deleted it first: what the runner wanted is done.
      if (!(error instanceof api.ApiError)) throw error;
      await ctx.reload();
      if (s.game.hands.some((x) => x.id === hand.id)) throw error;
      gone = true;
    }
    s.confirmDelete = null;
    toast(gone ? `Hand ${hand.number} was already deleted on another phone.`
      : `Hand ${hand.number} deleted.`);
  });
}

export function hands(ctx) {
  const {s} = ctx;
  const g = s.game;
  const editable = s.covered && !g.signed_off && !g.from_sheet;
  const items = g.hands.map((hand) => h('li', {class: 'hand', 'data-hand': hand.id},
    h('span', {class: 'hand-no'}, `${hand.number}.`),
    h('span', {class: 'hand-outcome'}, outcomeWords(hand.outcome, g.sides)),
    editable && (s.confirmDelete === hand.id
      ? h('span', {class: 'hand-actions'},
        button('Delete', () => deleteHand(ctx, hand),
          {class: 'btn-danger btn-small', 'aria-label': `Yes, delete hand ${hand.number}`}),
        button('Keep', () => { s.confirmDelete = null; ctx.draw(); }, {class: 'btn-small'}))
      : h('span', {class: 'hand-actions'},
        button('Edit', () => startEdit(ctx, hand), {class: 'btn-small',
          'aria-label': `Edit hand ${hand.number}`}),
        button('Delete', () => { s.confirmDelete = hand.id; ctx.draw(); }, {class: 'btn-small',
          'aria-label': `Delete hand ${hand.number}`})))));
  const waitingItems = s.pending.map((entry) => h('li', {class: 'hand pending'},
    h('span', {class: 'hand-no'}, '…'),
    h('span', {class: 'hand-outcome'}, pendingWords(entry.body, g.sides, ctx.handValues()),
      h('span', {class: 'tag'}, 'not sent yet')),
    h('span', {class: 'hand-actions'}, button('Remove', () => ctx.undoHand(entry.handId),
      {class: 'btn-small', 'aria-label': 'Remove this hand that was not sent'}))));
  const refused = s.refused.map((entry) => h('li', {class: 'hand refused'},
    h('span', {class: 'hand-no'}, '!'),
    h('span', {class: 'hand-outcome'}, pendingWords(entry.body, g.sides, ctx.handValues()),
      h('span', {class: 'tag tag-error'}, 'refused'), h('span', {class: 'reason'}, entry.detail)),
    h('span', {class: 'hand-actions'}, h('a', {class: 'btn btn-small', href: '/outbox'},
      'Review'))));
  return h('details', {class: 'hands', open: true},
    h('summary', {class: 'btn'},
      `Hands (${g.hands.length}${s.pending.length ? ` + ${s.pending.length} not sent` : ''})`),
    h('ol', {class: 'hand-list'}, items, waitingItems, refused),
    !g.hands.length && !s.pending.length && h('p', {class: 'hint'}, 'No hands yet.'));
}

/** Editing a stored hand: every field, saved with the game's version (If-Match). */
export function editForm(ctx) {
  const {s} = ctx;
  const e = s.edit;
  const redraw = () => ctx.draw();
  const needLoner = ctx.bumps() && e.alone;
  const renegeValue = e.renege ? `${e.renege.by}-${e.renege.upheld ? 'upheld' : 'rejected'}` : '';
  const renegeSelect = h('select', {id: 'edit-renege', class: 'input', onchange: (ev) => {
    const [by, verdict] = ev.target.value.split('-');
    e.renege = by ? {by, upheld: verdict === 'upheld'} : null;
    redraw();
  }}, h('option', {value: ''}, 'No renege'),
  SIDES.flatMap((side) => ['upheld', 'rejected'].map((verdict) => h('option', {
    value: `${side}-${verdict}`, selected: renegeValue === `${side}-${verdict}`},
  `Renege by ${sideName(s.game, side)}: ${verdict}`))));
  const upheld = e.renege?.upheld === true;
  const canSave = e.maker && (upheld || e.tricks !== null) && (!needLoner || e.loner);
  return h('section', {class: 'entry edit', 'aria-label': `Edit hand ${e.number}`},
    h('h2', {class: 'q'}, `Edit hand ${e.number}: who called trump?`),
    sideButtons(ctx, e.maker, (side) => { e.maker = side; e.loner = null; redraw(); }, 'emaker'),
    button('Alone', () => { e.alone = !e.alone; e.loner = null; redraw(); },
      {'aria-pressed': String(e.alone), class: 'btn-toggle', 'data-k': 'ealone'}),
    needLoner && e.maker && lonerButtons(ctx, e.maker, e.loner,
      (seat) => { e.loner = seat; redraw(); }, 'eloner'),
    h('label', {for: 'edit-renege', class: 'q'}, 'Renege'), renegeSelect,
    !upheld && h('h2', {class: 'q'}, 'Tricks the makers took'),
    !upheld && tricksButtons(ctx, e.alone, true, (tricks) => { e.tricks = tricks; redraw(); },
      e.tricks, 'etricks'),
    h('div', {class: 'row-actions'},
      button('Save the change', () => ctx.act('edit', async () => {
        const body = handBody(e, upheld ? null : e.tricks, e.renege);
        const game = await api.editHand(s.game, e.handId, body);
        s.game = game;
        const hand = game.hands.find((x) => x.id === e.handId);
        s.edit = null;
        s.lastOutcome = hand
          ? `Hand ${hand.number} now: ${outcomeWords(hand.outcome, game.sides)}` : null;
        toast(s.lastOutcome || 'Changed.');
      }), {class: 'btn-primary', disabled: !canSave || s.busy, 'data-k': 'e-save'}),
      button('Cancel', () => { s.edit = null; s.notice = null; redraw(); },
        {'data-k': 'e-cancel'})));
}

/** The hand being edited was deleted on another phone: keep what was typed as a new hand,
 * or let it go. */
export function orphanPanel(ctx) {
  const {s} = ctx;
  const o = s.orphan;
  const g = s.game;
  const upheld = o.renege?.upheld === true;
  const complete = o.maker && (upheld || o.tricks !== null);
  const canEnter = complete && !g.over && !g.signed_off && !ctx.allEntered();
  const body = handBody(o, upheld ? null : o.tricks, o.renege);
  const close = () => { s.orphan = null; ctx.draw(); };
  return h('section', {class: 'entry orphan', 'aria-label': `Hand ${o.number} was deleted`},
    h('h2', {class: 'q', role: 'alert'}, `Hand ${o.number} was deleted on another phone`),
    h('p', {}, 'Your change to it was not saved', complete
      ? `: ${pendingWords(body, g.sides, ctx.handValues())}.` : '.'),
    !canEnter && complete && h('p', {class: 'hint'}, 'It cannot be entered as a new hand: '
      + 'this game takes no more hands.'),
    h('div', {class: 'row-actions'},
      canEnter && button('Enter it as a new hand', () => { s.orphan = null; ctx.saveHand(body); },
        {class: 'btn-primary', 'data-k': 'o-new'}),
      button('Discard the edit', close, {'data-k': 'o-discard'})));
}
