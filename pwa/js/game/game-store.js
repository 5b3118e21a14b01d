/**
 * The game screen's data and its only way to the server: the game, the event's format, the
 * hands waiting here or refused, this phone's keys, the last action's outcome. Components read
 * it and call its actions; it says `change` (redraw), `entered` (a hand was entered) and
 * `orphaned` (the hand being edited was deleted on another phone).
 */

import * as api from '../api.js';
import {toast} from '../dom.js';
import {outcomeWords, pendingWords, shortOutcomeWords, waitingHands} from '../words.js';

export class GameStore extends EventTarget {
  constructor(eventId, gameId) {
    super();
    Object.assign(this, {eid: eventId, gid: gameId, game: null, fresh: true, format: null,
      eventName: '', code: '', pending: [], refused: [], covered: true, hasKey: true,
      keyTables: [], busy: false, notice: null, lastOutcome: null, held: null, editing: null});
  }

  changed() { this.dispatchEvent(new Event('change')); }

  /** The game and its event; throws what the server or the network said. */
  async load() {
    const [{data: game, fresh}, {data: event}] = await Promise.all([api.getGame(this.gid),
      api.getEvent(this.eid)]);
    Object.assign(this, {game, fresh, format: event.format, eventName: event.name,
      code: event.code});
    await Promise.all([this.refreshNotSent(), this.refreshKeys()]);
  }

  handValues() { return this.format?.hand_values || []; }

  bumps() { return Boolean(this.format?.parameters?.bumps); }

  waiting() { return waitingHands(this.pending); }

  /** Every hand of a fixed-length game is played or waiting here: no more can be entered. */
  allEntered() {
    const toGo = this.game.hands_to_go;
    return !this.game.over && this.waiting() > 0 && toGo !== null && toGo !== undefined
      && toGo - this.waiting() <= 0;
  }

  lastHandId() { return this.pending.at(-1)?.handId || this.game.hands.at(-1)?.id; }

  async refreshNotSent() {
    Object.assign(this, await api.notSent(this.gid));
    this.heldSent();
  }

  /** Which tables this phone's keys reach: a game it cannot send is not offered for entry. */
  async refreshKeys() {
    const mine = await api.keysOf(this.eid);
    this.hasKey = mine.length > 0;
    this.keyTables = mine.map((k) => k.table).filter((t) => t !== null);
    this.covered = mine.some((k) => k.role === 'organizer' || k.table === null
      || k.table === this.game.table);
  }

  async reload() {
    try {
      const {data, fresh} = await api.getGame(this.gid);
      this.game = data;
      this.fresh = fresh;
    } catch (error) {
      this.notice = {kind: 'error', text: error.message};
    }
  }

  /** Enter a hand: sent now, or kept on this phone until it can be; Undo in the toast. */
  async saveHand(body) {
    const label = pendingWords(body, this.game.sides, this.handValues());
    this.dispatchEvent(new Event('entered'));
    const {handId, result} = await api.enterHand(this.game, body,
      `Table ${this.game.table}: ${label}`);
    await this.refreshNotSent();
    this.changed();
    const undo = {label: 'Undo', run: () => this.undoHand(handId)};
    const outcome = await result;
    if (outcome.state === 'sent') {
      const hand = outcome.game.hands.find((x) => x.id === handId);
      this.lastOutcome = hand ? outcomeWords(hand.outcome, outcome.game.sides) : null;
      toast(hand ? shortOutcomeWords(hand.outcome, outcome.game.sides) : 'Saved.', undo);
    } else if (outcome.state === 'queued') {
      this.lastOutcome = null;
      const el = toast(outcome.reason === 'key' || outcome.reason === 'no-key'
        ? 'Kept on this phone: no working key for this table here. Join again to send it.'
        : 'Saved on this phone, not sent yet: it goes when the network is back.', undo,
      {kind: 'warn'});
      this.held = el && {el, handId};
    }
    // A refusal is announced by app.js wherever the runner is; listen() reads the game again.
    await this.refreshNotSent();
    this.changed();
  }

  /** Once the hands kept here are sent, the "kept on this phone" toast says so. */
  heldSent() {
    const held = this.held;
    if (!held?.el.isConnected || this.pending.length) return;
    const hand = this.game?.hands.find((x) => x.id === held.handId);
    const gone = this.refused.some((e) => e.handId === held.handId); // app.js says why
    if (gone) held.el.remove();
    else if (hand) toast(`Sent: ${shortOutcomeWords(hand.outcome, this.game.sides)}`, null, {ms: 4000});
    if (gone || hand) this.held = null;
  }

  async undoHand(handId) {
    try {
      const where = await api.undoHand(this.game, handId, this.game.verification ? this.side : null);
      this.lastOutcome = null;
      toast(where === 'phone' ? 'Undone: that hand never left this phone.' : where === 'proposed'
        ? 'Deleting it waits for the other pair to agree.' : 'Undone: the hand was deleted.');
    } catch (error) {
      await this.explain(error, 'undo');
      if (error instanceof api.ApiError && !this.game.hands.some((x) => x.id === handId)) {
        this.notice = null;
        this.lastOutcome = null;
        toast('That hand was already deleted on another phone.');
      }
    }
    await this.refreshNotSent();
    this.changed();
  }

  /**
   * Say why a change did not happen. Any refusal reads the game again at once (the organizer
   * may have called time, another phone changed a hand); an edit of a hand that is gone
   * becomes a choice (`orphaned`): enter it as a new hand, or let it go.
   */
  async explain(error, what) {
    if (error instanceof api.ApiError) {
      await this.reload();
      if (this.editing && !this.game.hands.some((x) => x.id === this.editing)) {
        this.notice = null;
        this.dispatchEvent(new Event('orphaned'));
        return;
      }
      if (error.status === 412) {
        this.notice = {kind: 'warn', text: `Someone changed this game on another phone while you `
          + `were working on it, so your ${what} was not applied. The game is reloaded above`
          + `${this.editing ? '; your edit is still here: check it and tap Save again' : ': check the hands and try again'}.`};
      } else {
        this.notice = {kind: 'error', text: error.message};
      }
    } else if (error instanceof api.OfflineError) {
      this.notice = {kind: 'warn', text: `No network: the ${what} needs the server. Try again when `
        + 'the network is back (new hands can still be entered).'};
    } else {
      this.notice = {kind: 'error', text: error.message};
    }
  }

  /** A change that needs the server, one at a time: `work(game)` answers the game it leaves. */
  async act(what, work) {
    if (this.busy) return;
    this.busy = true;
    this.notice = null;
    this.changed();
    try {
      this.game = (await work(this.game)) || this.game;
    } catch (error) {
      await this.explain(error, what);
    } finally {
      this.busy = false;
      this.changed();
    }
  }

  /** Join this game's table with the event's PIN (the key-needed panel). */
  async join(pin) {
    this.busy = true;
    try {
      await api.join(this.code, pin, this.game.table);
      await this.refreshKeys();
    } finally {
      this.busy = false;
    }
  }

  /** Hear the game change elsewhere (the outbox, keys, refusals, other phones); returns stop. */
  listen() {
    const gid = this.gid;
    const stops = [
      api.on('game', (game) => {
        if (game.id !== gid) return;
        if (game.version >= this.game.version) { this.game = game; this.fresh = true; }
        this.refreshNotSent().then(() => this.changed());
      }),
      api.on('outbox', () => this.refreshNotSent().then(() => this.changed())),
      api.on('keys', () => this.refreshKeys().then(() => this.changed())),
      // The server refused a hand of this game (time called, game over, changed elsewhere):
      // read the game again at once so the screen shows where it now stands.
      api.on('refused', ({entry}) => {
        if (entry?.gameId !== gid) return;
        Promise.all([this.reload(), this.refreshNotSent()]).then(() => this.changed());
      }),
    ];
    // Another phone (or the organizer) may change the game: look again now and then.
    const timer = setInterval(async () => {
      if (document.hidden || this.editing || this.busy) return;
      // A round closing changes no game's version but does start the correction window's
      // clock (correctable_until), and its end closes it (correction_open).
      const seen = () => `${this.game.version} ${this.game.correction_open} ${this.game.correctable_until}`;
      const before = seen();
      await this.reload();
      if (seen() !== before) this.changed();
    }, 15000);
    return () => {
      stops.forEach((stop) => stop());
      clearInterval(timer);
    };
  }
}
