/**
 * The hands list (`.hands`: "Hands (5)", folding) with its edit form: the hands the server
 * has (edit, delete with a second tap), the ones waiting on this phone and the ones refused;
 * editing a hand; and, when the hand being edited was deleted on another phone, keeping what
 * was typed. The list asks for the edit form with an `edit` event carrying the hand; the form
 * and the deleted-hand panel say `close` when they are done.
 */

import * as api from '../api.js';
import {button, h, mount, refill, toast} from '../dom.js';
import {SIDES, outcomeWords, pendingWords, plural, sideName, timeOfDay} from '../words.js';
import {handBody, lonerButtons, sideButtons, tricksButtons} from './hand-taps.js';

const close = (el) => el.dispatchEvent(new Event('close'));
/** Under confirm_each_hand or double_entry a runner's change names this phone's side. */
const side = (store) => (store.game.verification && store.side ? store.side : null);
/** A change kept until the other side agrees (202): said, not shown as made. */
const waits = (game, handId) => (game.entries || []).some((x) => x.hand_id === handId && x.state === 'pending');

/** Call the organizer (RULES.md §7). */
export function callLine(store) {
  const said = h('span', {role: 'status'});
  const btn = button('Call the organizer', async () => {
    btn.disabled = true;
    try {
      const c = await api.callOrganizer(store.game);
      mount(said, `Called to table ${c.table}.`);
    } catch (error) {
      mount(said, error.message);
    }
    btn.disabled = false;
  }, {class: 'btn-small'});
  return h('p', {class: 'actions'}, btn, ' ', said);
}

/** Once the game is signed off or its round closed (RULES.md §7): until when the table may
 * still change it, with the time left. After the window the game-over panel says who may
 * change the game now, with Call the organizer below it, so the list says nothing more. */
function windowLine(store, g) {
  if (!store.covered || g.from_sheet || !g.correction_open || !(g.signed_off || g.correctable_until)) return null;
  const until = g.correctable_until && new Date(g.correctable_until);
  const at = timeOfDay(g.correctable_until);
  const left = until ? Math.max(1, Math.ceil((until - Date.now()) / 60000)) : 0;
  return h('p', {class: 'hint window-open'}, until ? `You can still change a hand until ${at} (${plural(left, 'minute')} left)`
    : 'You can still change a hand while the round is played', g.signed_off ? ': a change undoes the sign-off.' : '.');
}

function deleteHand(store, hand, done) {
  return store.act('delete', async (game) => {
    let changed;
    let gone = false;
    try {
      changed = await api.deleteHand(game, hand.id, side(store));
      if (waits(changed, hand.id)) toast(`Deleting hand ${hand.number} waits for the other pair to agree.`);
    } catch (error) {
      // Refused because another phone deleted it first: what the runner wanted is done.
      if (!(error instanceof api.ApiError)) throw error;
      await store.reload();
      if (store.game.hands.some((x) => x.id === hand.id)) throw error;
      gone = true;
    }
    done();
    if (!waits(changed, hand.id)) {
      toast(gone ? `Hand ${hand.number} was already deleted on another phone.` : `Hand ${hand.number} deleted.`);
    }
    return changed;
  });
}

export function hands(store) {
  // The element stays for the screen's life, so folding it stays as the runner left it.
  const el = h('details', {class: 'hands', open: true});
  let confirming = null; // the hand whose Delete was tapped once
  const confirm = (id) => { confirming = id; view(); };

  function storedHand(g, hand, editable, verb) {
    return h('li', {class: 'hand', 'data-hand': hand.id},
      h('span', {class: 'hand-no'}, `${hand.number}.`),
      h('span', {class: 'hand-outcome'}, outcomeWords(hand.outcome, g.sides)),
      editable && (confirming === hand.id
        ? h('span', {class: 'hand-actions'},
          button('Delete', () => deleteHand(store, hand, () => { confirming = null; }),
            {class: 'btn-danger btn-small', 'aria-label': `Yes, delete hand ${hand.number}`}),
          button('Keep', () => confirm(null), {class: 'btn-small'}))
        : h('span', {class: 'hand-actions'},
          button(verb, () => el.dispatchEvent(new CustomEvent('edit', {detail: hand})),
            {class: 'btn-small', 'aria-label': `${verb} hand ${hand.number}`}),
          button('Delete', () => confirm(hand.id), {class: 'btn-small',
            'aria-label': `Delete hand ${hand.number}`}))));
  }

  function view() {
    const g = store.game;
    // The table changes its game until the correction window closes, signed off or not.
    const editable = store.covered && !g.from_sheet && (g.correction_open ?? !g.signed_off);
    const verb = g.signed_off || g.correctable_until ? 'Change' : 'Edit';
    const said = (entry) => pendingWords(entry.body, g.sides, store.handValues());
    const waitingItems = store.pending.map((entry) => h('li', {class: 'hand pending'},
      h('span', {class: 'hand-no'}, '…'),
      h('span', {class: 'hand-outcome'}, said(entry), h('span', {class: 'tag'}, 'not sent yet')),
      h('span', {class: 'hand-actions'}, button('Remove', () => store.undoHand(entry.handId),
        {class: 'btn-small', 'aria-label': 'Remove this hand that was not sent'}))));
    const refused = store.refused.map((entry) => h('li', {class: 'hand refused'},
      h('span', {class: 'hand-no'}, '!'),
      h('span', {class: 'hand-outcome'}, said(entry), h('span', {class: 'tag tag-error'}, 'refused'),
        h('span', {class: 'reason'}, entry.detail)),
      h('span', {class: 'hand-actions'}, h('a', {class: 'btn btn-small', href: '/outbox'},
        'Review'))));
    return refill(el, h('summary', {class: 'btn'},
      `Hands (${g.hands.length}${store.pending.length ? ` + ${store.pending.length} not sent` : ''})`),
    windowLine(store, g),
    h('ol', {class: 'hand-list'}, g.hands.map((hand) => storedHand(g, hand, editable, verb)),
      waitingItems, refused),
    !g.hands.length && !store.pending.length && h('p', {class: 'hint'}, 'No hands yet.'));
  }
  return {el, view};
}

/** Editing a stored hand: every field, saved with the game's version (If-Match). `draft()` is
 * what was typed, for the deleted-hand panel when the hand is gone. */
export function editForm(store) {
  const el = h('section', {class: 'entry edit'});
  let e = null;
  const open = (hand) => {
    e = {handId: hand.id, number: hand.number, maker: hand.maker, alone: hand.alone,
      loner: hand.loner_seat, tricks: hand.tricks, renege: hand.renege};
  };
  const tap = (change) => { change(); view(); };
  const save = (upheld) => store.act('edit', async (game) => {
    const body = handBody(e, upheld ? null : e.tricks, e.renege);
    const changed = await api.editHand(game, e.handId, side(store) ? {...body, side: store.side} : body);
    const hand = changed.hands.find((x) => x.id === e.handId);
    store.lastOutcome = waits(changed, e.handId) ? `Your change of hand ${e.number} waits for the other pair to agree`
      : hand ? `Hand ${hand.number} now: ${outcomeWords(hand.outcome, changed.sides)}` : null;
    toast(store.lastOutcome || 'Changed.');
    close(el);
    return changed;
  });

  function renegeSelect(g) {
    const value = e.renege ? `${e.renege.by}-${e.renege.upheld ? 'upheld' : 'rejected'}` : '';
    return h('select', {id: 'edit-renege', class: 'input', onchange: (ev) => tap(() => {
      const [by, verdict] = ev.target.value.split('-');
      e.renege = by ? {by, upheld: verdict === 'upheld'} : null;
    })}, h('option', {value: ''}, 'No renege'),
    SIDES.flatMap((side) => ['upheld', 'rejected'].map((verdict) => h('option', {
      value: `${side}-${verdict}`, selected: value === `${side}-${verdict}`},
    `Renege by ${sideName(g, side)}: ${verdict}`))));
  }

  function view() {
    const g = store.game;
    const needLoner = store.bumps() && e.alone;
    const upheld = e.renege?.upheld === true;
    const canSave = e.maker && (upheld || e.tricks !== null) && (!needLoner || e.loner);
    el.setAttribute('aria-label', `Edit hand ${e.number}`);
    return refill(el, h('h2', {class: 'q'}, `Edit hand ${e.number}: who called trump?`),
      sideButtons(g, e.maker, (side) => tap(() => { e.maker = side; e.loner = null; }), 'emaker'),
      button('Alone', () => tap(() => { e.alone = !e.alone; e.loner = null; }),
        {'aria-pressed': String(e.alone), class: 'btn-toggle', 'data-k': 'ealone'}),
      needLoner && e.maker && lonerButtons(g, e.maker, e.loner,
        (seat) => tap(() => { e.loner = seat; }), 'eloner'),
      h('label', {for: 'edit-renege', class: 'q'}, 'Renege'), renegeSelect(g),
      !upheld && h('h2', {class: 'q'}, 'Tricks the makers took'),
      !upheld && tricksButtons(store.handValues(), e.alone, true,
        (tricks) => tap(() => { e.tricks = tricks; }), e.tricks, 'etricks'),
      h('div', {class: 'row-actions'},
        button('Save the change', () => save(upheld),
          {class: 'btn-primary', disabled: !canSave || store.busy, 'data-k': 'e-save'}),
        button('Cancel', () => { store.notice = null; close(el); }, {'data-k': 'e-cancel'})));
  }
  return {el, open, view, draft: () => e};
}

/** The hand being edited was deleted on another phone: keep what was typed as a new hand,
 * or let it go. */
export function orphanPanel(store) {
  const el = h('section', {class: 'entry orphan'});
  let o = null;
  const open = (draft) => { o = draft; };

  function view() {
    const g = store.game;
    const upheld = o.renege?.upheld === true;
    const complete = o.maker && (upheld || o.tricks !== null);
    const canEnter = complete && !g.over && !g.signed_off && !store.allEntered();
    const body = handBody(o, upheld ? null : o.tricks, o.renege);
    el.setAttribute('aria-label', `Hand ${o.number} was deleted`);
    return refill(el, h('h2', {class: 'q', role: 'alert'}, `Hand ${o.number} was deleted on another phone`),
      h('p', {}, 'Your change to it was not saved', complete
        ? `: ${pendingWords(body, g.sides, store.handValues())}.` : '.'),
      !canEnter && complete && h('p', {class: 'hint'}, 'It cannot be entered as a new hand: '
        + 'this game takes no more hands.'),
      h('div', {class: 'row-actions'},
        canEnter && button('Enter it as a new hand', () => store.saveHand(body),
          {class: 'btn-primary', 'data-k': 'o-new'}),
        button('Discard the edit', () => close(el), {'data-k': 'o-discard'})));
  }
  return {el, open, view};
}
