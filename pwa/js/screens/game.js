/**
 * One table's game, as the runner enters it: the score, two taps per hand (maker, then tricks),
 * "alone", a guided renege, undo/edit/delete, and the end of the game (winner, tie settlement,
 * sign-off, the WEC game sheet). Every number shown comes from the server's answers; while
 * hands wait on this phone, the score adds their values from the event's points table as the
 * server serves it (provisional.js), marked provisional until the server's answer replaces it.
 *
 * This module owns the screen's state, its loading and saving, and composes the components
 * under js/game/ (each named like its root's CSS class; `hand-taps.js` holds the buttons
 * several share), each a function of the screen's context (`ctx`).
 *
 * Phone first: on a 360x640 screen both taps (maker, then tricks) sit in view without a scroll,
 * with the toasts (#toasts, moved into the page), the last outcome and the hands list below
 * them, so nothing ever covers the entry buttons, the score or the table line.
 */

import * as api from '../api.js';
import {h, mount, setTitle, toast} from '../dom.js';
import {allEnteredPanel, entryPad} from '../game/entry-pad.js';
import {gameHead} from '../game/game-head.js';
import {gameOver} from '../game/game-over.js';
import {editForm, hands, orphanPanel} from '../game/hands.js';
import {keyNeeded} from '../game/key-needed.js';
import {renegeWalk} from '../game/renege-walk.js';
import {scoreNotes, scores} from '../game/scores.js';
import {sheetEntry} from '../game/sheet-entry.js';
import {outcomeWords, pendingWords, shortOutcomeWords, waitingHands} from '../words.js';

const freshSelection = () => ({maker: null, alone: false, loner: null});

export async function render(main, {eventId, gameId}) {
  const gid = Number(gameId);
  const eid = Number(eventId);
  document.body.classList.add('game-mode');
  const s = {
    game: null, fresh: true, format: null, code: '', pending: [], refused: [],
    sel: freshSelection(), renege: null, edit: null, orphan: null, confirmDelete: null,
    dealerPicker: false, settleMethod: null, notice: null, lastOutcome: null, busy: false,
    covered: true, keyTables: [], hasKey: true, joinError: null,
    held: null,
  };
  const toasts = document.getElementById('toasts');
  mount(main, h('p', {class: 'loading'}, 'Loading the game…'));
  try {
    const [{data: game, fresh}, {data: event}] = await Promise.all([api.getGame(gid),
      api.getEvent(eid)]);
    Object.assign(s, {game, fresh, format: event.format, eventName: event.name, code: event.code});
  } catch (error) {
    mount(main, h('p', {class: 'error', role: 'alert'}, error.message),
      h('a', {class: 'btn', href: `/e/${eid}/run`}, 'Back to your tables'));
    return () => document.body.classList.remove('game-mode');
  }

  const handValues = () => s.format?.hand_values || [];
  const bumps = () => Boolean(s.format?.parameters?.bumps);
  const waiting = () => waitingHands(s.pending);
  /** Every hand of a fixed-length game is played or waiting here: no more can be entered. */
  const allEntered = () => {
    const toGo = s.game.hands_to_go;
    return !s.game.over && waiting() > 0 && toGo !== null && toGo !== undefined
      && toGo - waiting() <= 0;
  };

  // --- loading and saving -------------------------------------------------------------------
  async function refreshNotSent() {
    Object.assign(s, await api.notSent(gid));
    heldSent();
  }

  /** Which tables this phone's keys reach: a game it cannot send is not offered for entry. */
  async function refreshKeys() {
    const mine = await api.keysOf(eid);
    s.hasKey = mine.length > 0;
    s.keyTables = mine.map((k) => k.table).filter((t) => t !== null);
    s.covered = mine.some((k) => k.role === 'organizer' || k.table === null
      || k.table === s.game.table);
  }

  async function reload() {
    try {
      const {data, fresh} = await api.getGame(gid);
      s.game = data;
      s.fresh = fresh;
    } catch (error) {
      s.notice = {kind: 'error', text: error.message};
    }
  }

  async function saveHand(body) {
    const label = pendingWords(body, s.game.sides, handValues());
    s.sel = freshSelection();
    s.renege = null;
    const {handId, result} = await api.enterHand(s.game, body,
      `Table ${s.game.table}: ${label}`);
    await refreshNotSent();
    draw();
    const undo = {label: 'Undo', run: () => undoHand(handId)};
    const outcome = await result;
    if (outcome.state === 'sent') {
      const hand = outcome.game.hands.find((x) => x.id === handId);
      s.lastOutcome = hand ? outcomeWords(hand.outcome, outcome.game.sides) : null;
      toast(hand ? shortOutcomeWords(hand.outcome, outcome.game.sides) : 'Saved.', undo);
    } else if (outcome.state === 'queued') {
      s.lastOutcome = null;
      const el = toast(outcome.reason === 'key' || outcome.reason === 'no-key'
        ? 'Kept on this phone: no working key for this table here. Join again to send it.'
        : 'Saved on this phone, not sent yet: it goes when the network is back.', undo,
      {kind: 'warn'});
      s.held = el && {el, handId};
    }
    // A refusal is announced by app.js wherever the runner is (it may come much later), and
    // this screen reads the game again when it hears of it (see the listeners below).
    await refreshNotSent();
    draw();
  }

  /** Once the hands kept here are sent, the "kept on this phone" toast says so. */
  function heldSent() {
    const held = s.held;
    if (!held?.el.isConnected || s.pending.length) return;
    const hand = s.game?.hands.find((x) => x.id === held.handId);
    const gone = s.refused.some((e) => e.handId === held.handId); // app.js says why
    if (gone) held.el.remove();
    else if (hand) toast(`Sent: ${shortOutcomeWords(hand.outcome, s.game.sides)}`, null, {ms: 4000});
    if (gone || hand) s.held = null;
  }

  async function undoHand(handId) {
    try {
      const where = await api.undoHand(s.game, handId);
      s.lastOutcome = null;
      toast(where === 'phone' ? 'Undone: that hand never left this phone.' : 'Undone: the hand was deleted.');
    } catch (error) {
      await explain(error, 'undo');
      if (error instanceof api.ApiError && !s.game.hands.some((x) => x.id === handId)) {
        s.notice = null;
        s.lastOutcome = null;
        toast('That hand was already deleted on another phone.');
      }
    }
    await refreshNotSent();
    draw();
  }

  /**
   * Say why a change did not happen. Any refusal reads the game again at once (the organizer
   * may have called time, another phone changed a hand); an edit of a hand that is gone
   * becomes a choice: enter it as a new hand, or let it go.
   */
  async function explain(error, what) {
    if (error instanceof api.ApiError) {
      await reload();
      if (s.edit && !s.game.hands.some((x) => x.id === s.edit.handId)) {
        s.orphan = s.edit;
        s.edit = null;
        s.notice = null;
        return;
      }
      if (error.status === 412) {
        s.notice = {kind: 'warn', text: `Someone changed this game on another phone while you `
          + `were working on it, so your ${what} was not applied. The game is reloaded above`
          + `${s.edit ? '; your edit is still here: check it and tap Save again' : ': check the hands and try again'}.`};
      } else {
        s.notice = {kind: 'error', text: error.message};
      }
    } else if (error instanceof api.OfflineError) {
      s.notice = {kind: 'warn', text: `No network: the ${what} needs the server. Try again when `
        + 'the network is back (new hands can still be entered).'};
    } else {
      s.notice = {kind: 'error', text: error.message};
    }
  }

  async function act(what, work) {
    if (s.busy) return;
    s.busy = true;
    s.notice = null;
    draw();
    try {
      await work();
    } catch (error) {
      await explain(error, what);
    } finally {
      s.busy = false;
      draw();
    }
  }

  function lastHandId() {
    return s.pending.at(-1)?.handId || s.game.hands.at(-1)?.id;
  }

  // What the components read and call: the state and the screen's actions.
  const ctx = {
    s, eid, gid, draw: () => draw(), act, saveHand, undoHand, reload, refreshKeys, waiting,
    allEntered, bumps, handValues, lastHandId, pinInput: null,
  };

  // --- drawing ------------------------------------------------------------------------------
  function draw() {
    const focused = document.activeElement?.dataset?.k;
    const g = s.game;
    setTitle(s.eventName);
    let panel;
    if (!s.covered) panel = [(g.over || g.signed_off) && gameOver(ctx), keyNeeded(ctx)];
    else if (s.orphan) panel = orphanPanel(ctx);
    else if (s.edit) panel = editForm(ctx);
    else if (g.over || g.signed_off) panel = gameOver(ctx);
    else if (allEntered()) panel = allEnteredPanel(ctx);
    else if (s.renege) panel = renegeWalk(ctx);
    else panel = entryPad(ctx);
    const openHands = main.querySelector('details.hands');
    mount(main, gameHead(ctx), scores(ctx), scoreNotes(ctx), panel, toasts,
      s.lastOutcome && h('p', {class: 'last-outcome', 'aria-live': 'polite'}, s.lastOutcome),
      sheetEntry(ctx), s.covered && !g.over && !g.signed_off && h('p', {class: 'actions'},
        h('a', {class: 'btn btn-small', href: `/e/${eid}/games/${gid}/sheet`}, 'Enter from a paper sheet')),
      hands(ctx));
    if (openHands && !openHands.open) main.querySelector('details.hands').open = false;
    if (focused) main.querySelector(`[data-k="${focused}"]`)?.focus({preventScroll: true});
  }

  await Promise.all([refreshNotSent(), refreshKeys()]);
  draw();

  const stops = [
    api.on('game', (game) => {
      if (game.id !== gid) return;
      if (game.version >= s.game.version) { s.game = game; s.fresh = true; }
      refreshNotSent().then(draw);
    }),
    api.on('outbox', () => refreshNotSent().then(draw)),
    api.on('keys', () => refreshKeys().then(draw)),
    // The server refused a hand of this game (time called, game over, changed elsewhere):
    // read the game again at once so the screen shows where it now stands.
    api.on('refused', ({entry}) => {
      if (entry?.gameId !== gid) return;
      Promise.all([reload(), refreshNotSent()]).then(draw);
    }),
  ];
  // Another phone (or the organizer) may change the game: look again now and then.
  const timer = setInterval(async () => {
    if (document.hidden || s.edit || s.busy) return;
    const before = s.game.version;
    await reload();
    if (s.game.version !== before) draw();
  }, 15000);
  return () => {
    stops.forEach((stop) => stop());
    clearInterval(timer);
    document.body.classList.remove('game-mode');
    if (toasts) document.body.append(toasts);
  };
}
