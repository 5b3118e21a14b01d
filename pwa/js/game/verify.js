/**
 * Scores both sides agree on (RULES.md section 7), on the table's phone, for an event that
 * checks every hand by `confirm_each_hand` or `double_entry`. Loaded only for such a game
 * (game.js imports it when the game read says `verification`), so the shell stays small.
 *
 * - The phone says once which side it enters for (kept on this phone per game, changeable);
 *   every hand goes with that `side` and the game is read with `?side=`.
 * - confirm_each_hand: this side's entry waits "for <other pair> to confirm"; the other side's
 *   entry shows in words with Confirm and Not right. A phone handed across the table can
 *   confirm as the other pair with one tap.
 * - double_entry: the other side's entry of a hand stays hidden until this side's is in; a
 *   mismatch shows both entries side by side, the differing fields marked, and one choice:
 *   theirs, ours, or the hand entered again. No new hand is entered past it.
 *
 * Every decision (confirm, reject, take back, settle) goes through the phone's outbox like a
 * hand, with its own id, so a tap made with no network is sent once when it is back. The
 * rules stay on the server: this module only shows what the game read says.
 */

import * as api from '../api.js';
import * as box from '../outbox.js';
import {button, h, refill, toast} from '../dom.js';
import {SIDES, pendingWords, plural, sideName} from '../words.js';
import {mismatchTable} from './mismatch.js';

const other = (side) => (side === 'A' ? 'B' : 'A');
const sideKey = (gid) => `euchre-side:${gid}`;
const KIND = 'verify';
const CHANGE = {edit: 'Change hand', delete: 'Delete hand'};
/** This phone's side for a game (or null): what the paper sheet sends too. */
export const phoneSide = (gid) => localStorage.getItem(sideKey(gid));

export function verify(store) {
  const el = h('section', {class: 'verify', 'aria-label': 'Agreeing the score'});
  const gid = store.gid;
  store.side = phoneSide(gid);
  store.correcting = null; // a mismatch's hand number while it is entered again
  let choosing = !store.side;
  let mine = new Set(); // this side's waiting entries, to notice one set aside by the other side
  let said = null; // what the other side did to this side's entry, said once

  // --- the game read as this side sees it, and what waits in the outbox ----------------------
  const plainNotSent = store.refreshNotSent.bind(store);
  store.refreshNotSent = async () => {
    await plainNotSent();
    // Decisions wait in the same outbox as hands; they are shown here, not as hands.
    store.decisions = store.pending.filter((e) => e.kind === KIND);
    store.pending = store.pending.filter((e) => e.kind !== KIND);
    store.refused = store.refused.filter((e) => e.kind !== KIND);
  };
  store.reload = async () => {
    const path = `/api/games/${gid}${store.side ? `?side=${store.side}` : ''}`;
    try {
      const answer = await api.request('GET', path);
      if (answer.status !== 200) throw new api.ApiError(answer.status, answer.data);
      store.game = answer.data;
      store.fresh = true;
      await box.set(`game:${gid}`, {data: answer.data, at: Date.now()});
    } catch (error) {
      store.fresh = false;
      if (error instanceof api.ApiError) store.notice = {kind: 'error', text: error.message};
    }
  };
  const plainSave = store.saveHand.bind(store);
  store.saveHand = (body) => {
    if (store.correcting === null) return plainSave({...body, side: store.side});
    const number = store.correcting;
    store.correcting = null;
    store.dispatchEvent(new Event('entered'));
    return decide(`/mismatches/${number}/settle`, {hand: {...body, id: api.newHandId()}},
      `hand ${number} entered again`);
  };

  // Undo takes back this pair's own waiting entry; an agreed hand is changed under Hands.
  const plainUndo = store.undoHand.bind(store);
  const ownWaiting = () => (store.game.entries || []).filter((e) => e.side === store.side
    && e.state === 'pending');
  store.lastHandId = () => store.pending.at(-1)?.handId || ownWaiting().at(-1)?.id || null;
  store.undoHand = (id) => {
    const e = ownWaiting().find((x) => x.id === id);
    return e ? withdraw(e) : plainUndo(id);
  };

  /** Read the game again (as this side) and redraw when anything in it changed. */
  let seen = '';
  const look = async () => {
    await store.reload();
    const g = store.game;
    const now = JSON.stringify([g.version, g.entries, g.mismatches, g.hands.length, g.correction_open, g.correctable_until, g.signed_off]);
    notice(g);
    if (now !== seen) { seen = now; store.changed(); }
  };

  /** This side's entry gone without becoming a hand: the other side rejected it. */
  function notice(g) {
    const still = new Set((g.entries || []).filter((e) => e.side === store.side).map((e) => e.id));
    if (g.verification !== 'confirm_each_hand') mine.clear();
    for (const id of mine) {
      if (!still.has(id) && !g.hands.some((x) => x.id === id)) {
        said = `${sideName(g, other(store.side))} said a hand was not right: enter it again.`;
      }
    }
    mine = still;
  }

  // Another phone's confirmation, entry or mismatch shows within seconds; stops with the screen.
  const stopGame = api.on('game', (game) => { if (game.id === gid) look(); });
  // Every second while something waits on the other pair, every 3 s otherwise.
  let shown = false;
  const tick = async () => {
    if (shown && !el.isConnected) { stopGame(); return; }
    try {
      if (!document.hidden && !store.busy) await look();
    } finally {
      setTimeout(tick, store.game.waiting ? 1000 : 3000);
    }
  };
  setTimeout(tick, 1000);

  // --- decisions, through the outbox --------------------------------------------------------
  async function decide(suffix, body, words) {
    const g = store.game;
    await box.enqueue({kind: KIND, handId: api.newHandId(), eventId: g.event_id, gameId: gid,
      table: g.table, method: 'POST', path: `/api/games/${gid}${suffix}`, body,
      label: `Table ${g.table}: ${words}`});
    box.persist();
    await store.refreshNotSent();
    store.changed();
    const summary = await api.flush();
    if (summary.stopped === 'offline') {
      toast('Saved on this phone, not sent yet: it goes when the network is back.', null,
        {kind: 'warn'});
    }
    await store.refreshNotSent();
    await look();
    store.changed();
  }
  const confirm = (e, side) => decide(`/entries/${encodeURIComponent(e.id)}/confirm`, {side},
    `hand ${e.number} confirmed by ${sideName(store.game, side)}`);
  const reject = (e) => decide(`/entries/${encodeURIComponent(e.id)}/reject`,
    {side: store.side, reason: 'Not right'}, `hand ${e.number} not right`);
  const withdraw = (e) => {
    mine.delete(e.id); // taken back here: not "said not right" by the other pair
    return decide(`/entries/${encodeURIComponent(e.id)}/withdraw`, {side: store.side},
      `hand ${e.number} taken back`);
  };
  const take = (number, side) => decide(`/mismatches/${number}/settle`, {take: side},
    `hand ${number}: ${sideName(store.game, side)}'s entry taken`);

  // --- the view ------------------------------------------------------------------------------
  function chooser(g) {
    return [h('h2', {class: 'q'}, 'Which pair does this phone enter for?'),
      h('p', {class: 'hint'}, g.verification === 'double_entry'
        ? 'Each pair enters every hand on its own phone; the two must agree before a hand counts.'
        : 'The other pair confirms each hand you enter, on their phone or with one tap on this one.'),
      h('div', {class: 'choice-grid'}, SIDES.map((side) => button(sideName(g, side), async () => {
        localStorage.setItem(sideKey(gid), side);
        store.side = side;
        choosing = false;
        await look();
        store.changed();
      }, {class: 'btn-choice', 'data-k': `side-${side}`, 'aria-pressed': String(store.side === side)})))];
  }

  function entryLine(g, e, first) {
    // A change proposed to an agreed hand: the other pair agrees to it in either mode.
    const change = CHANGE[e.kind];
    const words = e.hidden ? 'entered by them; it shows once yours is in'
      : change ? `${change} ${e.number}${e.hand ? `: ${pendingWords(e.hand, g.sides, store.handValues())}` : ''}`
        : pendingWords(e.hand, g.sides, store.handValues()) || e.kind;
    const ours = e.side === store.side;
    const they = sideName(g, other(e.side));
    // After the correction window nobody at the table can agree to it any more (only the
    // organizer changes the game); the pair that proposed it may still take it back.
    const late = !g.correction_open && Boolean(g.correctable_until);
    const can = !late && (g.verification === 'confirm_each_hand' || change) && (first || change) && !sending();
    let state;
    if (ours) state = change ? `waiting for ${they} to agree` : g.verification === 'confirm_each_hand' ? `waiting for ${they} to confirm`
      : `waiting for ${they}'s own entry`;
    else state = g.verification === 'confirm_each_hand' ? `entered by ${sideName(g, e.side)}`
      : `waiting for your entry`;
    if (late) {
      state = ours ? 'the correction window closed: only the organizer can change the game now; you can take this back'
        : `proposed by ${sideName(g, e.side)}; the correction window closed: only the organizer can change the game now`;
    }
    const sent = (store.decisions || []).some((d) => d.path.includes(`/entries/${encodeURIComponent(e.id)}/`));
    if (sent) state = 'your choice is not sent yet';
    return h('li', {class: ['hand', 'entry-line', ours ? 'ours' : 'theirs'], 'data-entry': change ? `change-${e.number}` : e.number},
      h('span', {class: 'hand-no'}, `${e.number}.`),
      h('span', {class: 'hand-outcome'}, e.kind === 'sheet' ? 'The paper sheet' : words,
        h('span', {class: 'tag'}, state)),
      h('span', {class: 'hand-actions'},
        can && !ours && button('Confirm', () => confirm(e, store.side),
          {class: 'btn-primary btn-small', 'data-k': `confirm-${e.number}`}),
        can && !ours && button('Not right', () => reject(e),
          {class: 'btn-small', 'data-k': `reject-${e.number}`}),
        can && ours && button(`Confirm as ${they}`, () => confirm(e, other(e.side)),
          {class: 'btn-small', 'data-k': `confirm-as-${e.number}`}),
        ours && e.state === 'pending' && !sending() && button('Take back', () => withdraw(e),
          {class: 'btn-small', 'data-k': `withdraw-${e.number}`})));
  }

  function mismatchView(g, m) {
    return [h('h2', {class: 'q', role: 'alert'}, `Hand ${m.number}: the two entries differ`),
      mismatchTable(g, m, store.side),
      sending() ? h('p', {class: 'note'}, 'Your choice is saved on this phone and goes when the network is back.')
        : h('div', {class: 'row-actions'},
          button('Theirs is right', () => take(m.number, other(store.side)),
            {class: 'btn-primary', 'data-k': 'take-theirs'}),
          button('Ours is right', () => take(m.number, store.side), {'data-k': 'take-ours'}),
          m.kind === 'hand' && button('Enter the hand again', () => {
            store.correcting = m.number;
            store.changed();
          }, {'data-k': 'enter-again'})),
      h('p', {class: 'hint'}, 'New hands wait until this one is settled (the organizer can settle it too).')];
  }

  const sending = () => (store.decisions || []).length > 0;

  /** The section above the panel; `panel` is the entry pad (or what stands in its place). */
  function view(panel) {
    const g = store.game;
    shown = true;
    if (choosing || !store.side) return refill(el, chooser(g));
    notice(g);
    const entries = g.entries || [];
    const m = (g.mismatches || [])[0];
    // One line: whose phone this is, what the score counts, how much waits.
    const head = h('p', {class: 'verify-side note', role: 'status'},
      h('strong', {}, `${sideName(g, store.side)}'s phone`),
      ' · the score counts agreed hands only',
      g.waiting ? ` · ${g.waiting === 1 ? '1 entry waits' : `${g.waiting} entries wait`}` : '',
      sending() ? ` · ${plural(store.decisions.length, 'choice')} not sent yet` : '', ' ',
      button('Change', () => { choosing = true; store.changed(); },
        {class: 'btn-small', 'data-k': 'side-change', 'aria-label': 'Change the pair this phone enters for'}));
    const firstPending = entries.find((e) => e.state === 'pending' && !CHANGE[e.kind]);
    const list = entries.filter((e) => e.state === 'pending').length > 0 && h('ol', {class: 'hand-list entries'},
      entries.filter((e) => e.state === 'pending').map((e) => entryLine(g, e, e === firstPending)));
    const shout = said && h('p', {class: 'note warn', role: 'alert'}, said);
    said = null;
    if (store.correcting !== null) {
      return [refill(el, head, h('h2', {class: 'q'}, `Enter hand ${store.correcting} again, as it was played`),
        button('Cancel', () => { store.correcting = null; store.changed(); }, {class: 'btn-small'})), panel];
    }
    if (m && !g.over) return refill(el, head, mismatchView(g, m));
    return [refill(el, head, shout, list), panel];
  }
  return {el, view};
}
