/**
 * One table's game, as the runner enters it: the score, two taps per hand (maker, then tricks),
 * "alone", a guided renege, undo/edit/delete, and the end of the game (winner, tie settlement,
 * sign-off, the WEC game sheet). Every number shown comes from the server's answers; the only
 * counting done here is of the hands still waiting on this phone.
 *
 * Phone first: on a 360x640 screen both taps (maker, then tricks) sit in view without a scroll,
 * with the last outcome and the hands list below them and the toast at the top (app.css
 * `body.game-mode`), so nothing ever covers the entry buttons.
 */

import * as api from '../api.js';
import {button, h, hidden, mount, setTitle, toast} from '../dom.js';
import {
  outcomeWords, pendingWords, progressWords, seats, tablesWords, tricksLabel, tricksRows,
  waitingHands,
} from '../words.js';

const SIDES = ['A', 'B'];
const PARTNER = {1: 3, 3: 1, 2: 4, 4: 2};
const freshSelection = () => ({maker: null, alone: false, loner: null});
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function render(main, {eventId, gameId}) {
  const gid = Number(gameId);
  const eid = Number(eventId);
  document.body.classList.add('game-mode');
  const s = {
    game: null, fresh: true, format: null, code: '', pending: [], refused: [],
    sel: freshSelection(), renege: null, edit: null, orphan: null, confirmDelete: null,
    dealerPicker: false, settleMethod: null, notice: null, lastOutcome: null, busy: false,
    covered: true, keyTables: [], hasKey: true, joinError: null,
  };
  let pinInput = null;

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
  const sideName = (side) => s.game.sides[side]?.name || side;
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
      toast(hand ? shortOutcome(hand.outcome, outcome.game.sides) : 'Saved.', undo);
    } else if (outcome.state === 'queued') {
      s.lastOutcome = null;
      toast(outcome.reason === 'key' || outcome.reason === 'no-key'
        ? 'Kept on this phone: no working key for this table here. Join again to send it.'
        : 'Saved on this phone, not sent yet: it goes when the network is back.', undo,
      {kind: 'warn'});
    }
    // A refusal is announced by app.js wherever the runner is (it may come much later), and
    // this screen reads the game again when it hears of it (see the listeners below).
    await refreshNotSent();
    draw();
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

  // --- pieces of the screen -----------------------------------------------------------------
  function dealWords() {
    const g = s.game;
    if (!g.dealer) return '';
    const dealer = seats(g).find((p) => p.seat === g.dealer);
    if (dealer && dealer.player_id === null) {
      // The ghost's cards are played blind: its partner deals them.
      const partner = seats(g).find((p) => p.seat === PARTNER[g.dealer]);
      return `Deal: ${partner?.name || 'its partner'} for the ghost (seat ${g.dealer})`;
    }
    return `Deal: ${dealer?.name || `seat ${g.dealer}`}`;
  }

  function header() {
    const g = s.game;
    const deal = dealWords();
    return h('section', {class: 'game-head', 'aria-label': 'Game'},
      h('h1', {class: 'game-title'}, `Table ${g.table} · ${g.round.label}`,
        g.match.games_planned > 1 ? ` · game ${g.number}` : ''),
      deal && h('p', {class: 'deal'}, deal),
      h('p', {class: 'game-progress'}, progressWords(g, waiting())));
  }

  function scores() {
    const g = s.game;
    return h('section', {class: 'scores', 'aria-label': 'Score'}, SIDES.map((side) =>
      h('div', {class: ['side', `side-${side.toLowerCase()}`, g.winner === side && 'winner']},
        h('p', {class: 'side-name'}, sideLabel(side)),
        h('p', {class: 'side-points', 'data-side': side}, hidden(`${sideName(side)}: `),
          String(g.points[side]), hidden(' points')),
        g.points_to_target && !g.over && h('p', {class: 'side-need'},
          `needs ${g.points_to_target[side]}`))));
  }

  function status() {
    const items = [];
    const bits = [];
    if (!s.fresh) bits.push('No network');
    if (s.pending.length) {
      bits.push(h('a', {href: '/outbox'}, `${plural(s.pending.length, 'hand')} not sent yet`));
    }
    if (bits.length) {
      items.push(h('p', {class: 'note game-note'}, bits.flatMap((b, i) => (i ? [' · ', b] : [b])),
        s.fresh ? ': the score counts what the server has so far.'
          : ': the score is the last one known.'));
    }
    if (s.refused.length) {
      items.push(h('p', {class: 'error game-note'}, h('a', {href: '/outbox'},
        `${plural(s.refused.length, 'hand')} refused by the server`),
      ': see why, then try again or discard.'));
    }
    if (s.notice) {
      items.push(h('p', {class: s.notice.kind === 'error' ? 'error' : 'note warn', role: 'alert'},
        s.notice.text));
    }
    return items;
  }

  /**
   * A side's name in little room: a team's name on two lines at most; a pair's names one line
   * each when they do not fit on one, cut short with an ellipsis (the whole name is still the
   * text, for screen readers and the score card's reader).
   */
  function sideLabel(side) {
    const info = s.game.sides[side];
    const people = info?.players || [];
    if (info?.team_id || people.length !== 2) return h('span', {class: 'clamp'}, sideName(side));
    return h('span', {class: 'pair'}, h('span', {}, `${people[0].name} `),
      h('span', {}, `& ${people[1].name}`));
  }

  /** The toast's outcome with each player by first name, so it stays short. */
  function shortOutcome(outcome, sides) {
    const short = Object.fromEntries(SIDES.map((side) => {
      const info = sides[side];
      const name = info?.team_id ? info.name
        : (info?.players || []).map((p) => p.name.split(/\s+/)[0]).join(' & ') || info?.name;
      return [side, {name}];
    }));
    return outcomeWords(outcome, short);
  }

  function sideButtons(current, pick, key) {
    return h('div', {class: 'choice-grid'}, SIDES.map((side) => button(
      sideLabel(side), () => pick(side),
      {'aria-pressed': String(current === side), class: 'btn-choice',
        'data-k': `${key}-${side}`})));
  }

  function lonerButtons(maker, current, pick, key) {
    const players = s.game.sides[maker]?.players || [];
    return [h('p', {class: 'q'}, 'Who went alone?'),
      h('div', {class: 'choice-grid'}, players.map((p) => button(
        h('span', {class: 'clamp'}, p.name), () => pick(p.seat),
        {'aria-pressed': String(current === p.seat), class: 'btn-choice',
          'data-k': `${key}-${p.seat}`})))];
  }

  function tricksButtons(alone, enabled, pick, current = null, key = 'tricks') {
    return h('div', {class: 'tricks-grid'}, tricksRows(handValues(), alone).map((row) =>
      button([h('span', {class: 'tricks-n'}, String(row.tricks)), hidden(' · '),
        h('span', {class: 'tricks-l'}, tricksLabel(row).split(' · ')[1])], () => pick(row.tricks), {
        disabled: !enabled, class: ['btn-tricks', `result-${row.result}`],
        'aria-pressed': current === null ? null : String(current === row.tricks),
        'data-k': `${key}-${row.tricks}`, 'data-tricks': row.tricks})));
  }

  function handBody(sel, tricks, renege = null) {
    const body = {maker: sel.maker, tricks, alone: sel.alone};
    if (sel.alone && sel.loner) body.loner_seat = sel.loner;
    if (renege) body.renege = renege;
    return body;
  }

  function lastHandId() {
    return s.pending.at(-1)?.handId || s.game.hands.at(-1)?.id;
  }

  /** Who deals: asked before the first hand, or afterwards as who dealt hand 1 (the server
   * follows the deal from there). */
  function dealerButton() {
    const g = s.game;
    if (g.over || g.dealer) return null;
    const started = g.hands_played + waiting() > 0;
    return button(started ? 'Who dealt hand 1?' : 'Who deals first?',
      () => { s.dealerPicker = !s.dealerPicker; draw(); },
      {'aria-expanded': String(s.dealerPicker), 'data-k': 'dealer'});
  }

  function dealerPicker() {
    const g = s.game;
    if (!s.dealerPicker || g.over || g.dealer) return null;
    return h('div', {class: 'choice-grid dealer-picker'}, seats(g).map((p) =>
      button(h('span', {class: 'clamp'}, p.player_id === null ? `Ghost (seat ${p.seat})` : p.name),
        () => act('dealer', async () => {
          s.game = await api.setDealer(s.game, p.seat);
          s.dealerPicker = false;
        }), {'data-k': `dealer-${p.seat}`})));
  }

  function entry() {
    const sel = s.sel;
    const needLoner = bumps() && sel.alone;
    const ready = sel.maker && (!needLoner || sel.loner);
    const lastId = lastHandId();
    return h('section', {class: 'entry', 'aria-label': 'Enter a hand'},
      h('h2', {class: 'q'}, 'Who called trump?'),
      sideButtons(sel.maker, (side) => { sel.maker = side; sel.loner = null; draw(); }, 'maker'),
      // The tricks question shares its row with "Alone" (48 px either way, so nothing moves
      // between the two taps).
      h('div', {class: 'tricks-head'},
        h('div', {class: 'tricks-q'}, h('h2', {class: 'q'}, 'Tricks the makers took'),
          !sel.maker && h('p', {class: 'hint', id: 'tricks-hint'}, 'First tap who called trump.')),
        button('Alone', () => { sel.alone = !sel.alone; sel.loner = null; draw(); },
          {'aria-pressed': String(sel.alone), class: 'btn-toggle btn-alone', 'data-k': 'alone'})),
      needLoner && sel.maker && lonerButtons(sel.maker, sel.loner,
        (seat) => { sel.loner = seat; draw(); }, 'loner'),
      tricksButtons(sel.alone, ready && !s.busy, (tricks) => saveHand(handBody(sel, tricks))),
      h('div', {class: 'row-actions'},
        button('Renege…', () => { s.renege = {maker: sel.maker, alone: sel.alone, loner: sel.loner};
          draw(); }, {'data-k': 'renege'}),
        lastId && button('Undo last hand', () => undoHand(lastId), {'data-k': 'undo-last'}),
        dealerButton()),
      dealerPicker());
  }

  /** Every hand of the game is entered, some still on this phone: no more can be added. */
  function allEnteredPanel() {
    const g = s.game;
    const lastId = lastHandId();
    const total = g.hands_played + g.hands_to_go;
    return h('section', {class: 'entry entry-done', 'aria-label': 'All hands entered'},
      h('h2', {class: 'q'}, `All ${total} hands are entered`),
      h('p', {}, `${plural(waiting(), 'hand')} ${waiting() === 1 ? 'is' : 'are'} waiting on this `
        + 'phone to be sent. The result shows here once the server has them.'),
      h('div', {class: 'row-actions'},
        lastId && button('Undo last hand', () => undoHand(lastId), {'data-k': 'undo-last'}),
        h('a', {class: 'btn', href: '/outbox'}, 'Hands not sent')));
  }

  function renegeFlow() {
    const r = s.renege;
    const needLoner = bumps() && r.alone;
    const steps = [h('h2', {class: 'q'}, 'Renege: who called trump?'),
      sideButtons(r.maker, (side) => { r.maker = side; r.loner = null; draw(); }, 'rmaker'),
      h('div', {class: 'choice-grid'},
        button('Not alone', () => { r.alone = false; r.loner = null; draw(); },
          {'aria-pressed': String(!r.alone), class: 'btn-choice', 'data-k': 'r-notalone'}),
        button('Alone', () => { r.alone = true; draw(); },
          {'aria-pressed': String(r.alone), class: 'btn-choice', 'data-k': 'r-alone'}))];
    if (r.maker && needLoner) steps.push(lonerButtons(r.maker, r.loner, (seat) => { r.loner = seat; draw(); }, 'rloner'));
    if (r.maker && (!needLoner || r.loner)) {
      steps.push(h('h2', {class: 'q'}, 'Who reneged?'),
        sideButtons(r.by, (side) => { r.by = side; draw(); }, 'rby'));
    }
    if (r.by) {
      steps.push(h('h2', {class: 'q'}, 'Was the renege claim upheld?'),
        h('div', {class: 'choice-grid'},
          button('Upheld', () => { r.upheld = true; draw(); },
            {'aria-pressed': String(r.upheld === true), class: 'btn-choice', 'data-k': 'r-upheld'}),
          button('Rejected', () => { r.upheld = false; draw(); },
            {'aria-pressed': String(r.upheld === false), class: 'btn-choice', 'data-k': 'r-rejected'})));
    }
    if (r.upheld === true) {
      steps.push(h('p', {class: 'hint'}, 'An upheld renege ends the hand: the tricks do not count.'),
        button('Save the renege', () => saveHand(handBody(r, null, {by: r.by, upheld: true})),
          {class: 'btn-primary', 'data-k': 'r-save'}));
    } else if (r.upheld === false) {
      steps.push(h('h2', {class: 'q'}, 'The hand stands: tricks the makers took'),
        tricksButtons(r.alone, !s.busy,
          (tricks) => saveHand(handBody(r, tricks, {by: r.by, upheld: false})), null, 'rtricks'));
    }
    steps.push(button('Cancel the renege', () => { s.renege = null; draw(); }, {'data-k': 'r-cancel'}));
    return h('section', {class: 'entry renege', 'aria-label': 'Renege'}, steps);
  }

  function editPanel() {
    const e = s.edit;
    const needLoner = bumps() && e.alone;
    const renegeValue = e.renege ? `${e.renege.by}-${e.renege.upheld ? 'upheld' : 'rejected'}` : '';
    const renegeSelect = h('select', {id: 'edit-renege', class: 'input', onchange: (ev) => {
      const [by, verdict] = ev.target.value.split('-');
      e.renege = by ? {by, upheld: verdict === 'upheld'} : null;
      draw();
    }}, h('option', {value: ''}, 'No renege'),
    SIDES.flatMap((side) => ['upheld', 'rejected'].map((verdict) => h('option', {
      value: `${side}-${verdict}`, selected: renegeValue === `${side}-${verdict}`},
    `Renege by ${sideName(side)}: ${verdict}`))));
    const upheld = e.renege?.upheld === true;
    const canSave = e.maker && (upheld || e.tricks !== null) && (!needLoner || e.loner);
    return h('section', {class: 'entry edit', 'aria-label': `Edit hand ${e.number}`},
      h('h2', {class: 'q'}, `Edit hand ${e.number}: who called trump?`),
      sideButtons(e.maker, (side) => { e.maker = side; e.loner = null; draw(); }, 'emaker'),
      button('Alone', () => { e.alone = !e.alone; e.loner = null; draw(); },
        {'aria-pressed': String(e.alone), class: 'btn-toggle', 'data-k': 'ealone'}),
      needLoner && e.maker && lonerButtons(e.maker, e.loner, (seat) => { e.loner = seat; draw(); }, 'eloner'),
      h('label', {for: 'edit-renege', class: 'q'}, 'Renege'), renegeSelect,
      !upheld && h('h2', {class: 'q'}, 'Tricks the makers took'),
      !upheld && tricksButtons(e.alone, true, (tricks) => { e.tricks = tricks; draw(); }, e.tricks, 'etricks'),
      h('div', {class: 'row-actions'},
        button('Save the change', () => act('edit', async () => {
          const body = handBody(e, upheld ? null : e.tricks, e.renege);
          const game = await api.editHand(s.game, e.handId, body);
          s.game = game;
          const hand = game.hands.find((x) => x.id === e.handId);
          s.edit = null;
          s.lastOutcome = hand ? `Hand ${hand.number} now: ${outcomeWords(hand.outcome, game.sides)}` : null;
          toast(s.lastOutcome || 'Changed.');
        }), {class: 'btn-primary', disabled: !canSave || s.busy, 'data-k': 'e-save'}),
        button('Cancel', () => { s.edit = null; s.notice = null; draw(); }, {'data-k': 'e-cancel'})));
  }

  /** The hand being edited was deleted on another phone: keep what was typed as a new hand,
   * or let it go. */
  function orphanPanel() {
    const o = s.orphan;
    const g = s.game;
    const upheld = o.renege?.upheld === true;
    const complete = o.maker && (upheld || o.tricks !== null);
    const canEnter = complete && !g.over && !g.signed_off && !allEntered();
    const body = handBody(o, upheld ? null : o.tricks, o.renege);
    const close = () => { s.orphan = null; draw(); };
    return h('section', {class: 'entry orphan', 'aria-label': `Hand ${o.number} was deleted`},
      h('h2', {class: 'q', role: 'alert'}, `Hand ${o.number} was deleted on another phone`),
      h('p', {}, 'Your change to it was not saved', complete
        ? `: ${pendingWords(body, g.sides, handValues())}.` : '.'),
      !canEnter && complete && h('p', {class: 'hint'}, 'It cannot be entered as a new hand: '
        + 'this game takes no more hands.'),
      h('div', {class: 'row-actions'},
        canEnter && button('Enter it as a new hand', () => { s.orphan = null; saveHand(body); },
          {class: 'btn-primary', 'data-k': 'o-new'}),
        button('Discard the edit', close, {'data-k': 'o-discard'})));
  }

  function startEdit(hand) {
    s.edit = {handId: hand.id, number: hand.number, maker: hand.maker, alone: hand.alone,
      loner: hand.loner_seat, tricks: hand.tricks, renege: hand.renege};
    s.renege = null;
    s.orphan = null;
    s.notice = null;
    draw();
    // scroll-margin-top (app.css) keeps the heading below the sticky bar.
    document.querySelector('.entry.edit')?.scrollIntoView({block: 'start'});
  }

  function deleteHand(hand) {
    return act('delete', async () => {
      let gone = false;
      try {
        s.game = await api.deleteHand(s.game, hand.id);
      } catch (error) {
        // Refused because another phone deleted it first: what the runner wanted is done.
        if (!(error instanceof api.ApiError)) throw error;
        await reload();
        if (s.game.hands.some((x) => x.id === hand.id)) throw error;
        gone = true;
      }
      s.confirmDelete = null;
      toast(gone ? `Hand ${hand.number} was already deleted on another phone.`
        : `Hand ${hand.number} deleted.`);
    });
  }

  function handsList() {
    const g = s.game;
    const editable = s.covered && !g.signed_off && !g.from_sheet;
    const items = g.hands.map((hand) => h('li', {class: 'hand', 'data-hand': hand.id},
      h('span', {class: 'hand-no'}, `${hand.number}.`),
      h('span', {class: 'hand-outcome'}, outcomeWords(hand.outcome, g.sides)),
      editable && (s.confirmDelete === hand.id
        ? h('span', {class: 'hand-actions'},
          button('Delete', () => deleteHand(hand),
            {class: 'btn-danger btn-small', 'aria-label': `Yes, delete hand ${hand.number}`}),
          button('Keep', () => { s.confirmDelete = null; draw(); }, {class: 'btn-small'}))
        : h('span', {class: 'hand-actions'},
          button('Edit', () => startEdit(hand), {class: 'btn-small',
            'aria-label': `Edit hand ${hand.number}`}),
          button('Delete', () => { s.confirmDelete = hand.id; draw(); }, {class: 'btn-small',
            'aria-label': `Delete hand ${hand.number}`})))));
    const waitingItems = s.pending.map((entry) => h('li', {class: 'hand pending'},
      h('span', {class: 'hand-no'}, '…'),
      h('span', {class: 'hand-outcome'}, pendingWords(entry.body, g.sides, handValues()),
        h('span', {class: 'tag'}, 'not sent yet')),
      h('span', {class: 'hand-actions'}, button('Remove', () => undoHand(entry.handId),
        {class: 'btn-small', 'aria-label': 'Remove this hand that was not sent'}))));
    const refused = s.refused.map((entry) => h('li', {class: 'hand refused'},
      h('span', {class: 'hand-no'}, '!'),
      h('span', {class: 'hand-outcome'}, pendingWords(entry.body, g.sides, handValues()),
        h('span', {class: 'tag tag-error'}, 'refused'), h('span', {class: 'reason'}, entry.detail)),
      h('span', {class: 'hand-actions'}, h('a', {class: 'btn btn-small', href: '/outbox'}, 'Review'))));
    return h('details', {class: 'hands', open: true},
      h('summary', {class: 'btn'}, `Hands (${g.hands.length}${s.pending.length ? ` + ${s.pending.length} not sent` : ''})`),
      h('ol', {class: 'hand-list'}, items, waitingItems, refused),
      !g.hands.length && !s.pending.length && h('p', {class: 'hint'}, 'No hands yet.'));
  }

  function winnerLine() {
    const g = s.game;
    if (g.winner) {
      return h('p', {class: 'winner-line'}, `${sideName(g.winner)} win`,
        g.tie ? ` (level; ${g.tie.method === 'card-draw' ? 'card draw' : 'playoff hand'} won by ${sideName(g.tie.winner)})` : '',
        g.end === 'time' ? ' · time was called' : '');
    }
    if (g.forfeited_by) return h('p', {}, `Forfeited by ${sideName(g.forfeited_by)}.`);
    return null;
  }

  /** Who may sign off: a real player (never the ghost) of the side that lost, or of either
   * side when a championship game ends level (the server refuses anyone else). */
  function signers() {
    const g = s.game;
    const sides = g.winner ? SIDES.filter((x) => x !== g.winner)
      : g.stage === 'championship' ? SIDES : [];
    return sides.flatMap((side) => (g.sides[side]?.players || [])
      .filter((p) => p.player_id !== null && p.player_id !== undefined));
  }

  function overPanel() {
    const g = s.game;
    const parts = [h('h2', {}, 'Game over'), winnerLine()];
    if (g.needs_settlement && s.covered) {
      parts.push(h('p', {}, `Level at ${g.points.A}–${g.points.B}. Settle it by a playoff hand (its points do not count) or, when time is short, a card draw.`),
        h('h3', {class: 'q'}, 'How was it settled?'),
        h('div', {class: 'choice-grid'},
          button('Playoff hand', () => { s.settleMethod = 'playoff-hand'; draw(); },
            {'aria-pressed': String(s.settleMethod === 'playoff-hand'), class: 'btn-choice', 'data-k': 'm-playoff'}),
          button('Card draw', () => { s.settleMethod = 'card-draw'; draw(); },
            {'aria-pressed': String(s.settleMethod === 'card-draw'), class: 'btn-choice', 'data-k': 'm-draw'})));
      if (s.settleMethod) {
        parts.push(h('h3', {class: 'q'}, 'Who won it?'), h('div', {class: 'choice-grid'},
          SIDES.map((side) => button(h('span', {class: 'clamp'}, sideName(side)),
            () => act('settlement', async () => {
              s.game = await api.settleTie(s.game, s.settleMethod, side);
              s.settleMethod = null;
            }), {class: 'btn-choice', 'data-k': `settle-${side}`}))));
      }
    } else if (g.needs_settlement) {
      parts.push(h('p', {}, `Level at ${g.points.A}–${g.points.B}: not settled yet.`));
    } else if (g.signed_off) {
      parts.push(h('p', {class: 'signed'}, `✓ Signed off by ${g.signed_off_by}.`));
    } else if (s.covered && signers().length) {
      const level = !g.winner;
      parts.push(h('h3', {class: 'q'}, level ? 'Sign-off: a player confirms the score'
        : 'Sign-off: the side that lost confirms the score'),
      h('p', {class: 'hint'}, level
        ? 'The game ended level: a player of either side taps their name to agree it is right.'
        : 'A player of the side that lost taps their name to agree the score is right.'),
      h('div', {class: 'choice-grid'}, signers().map((p) => button(h('span', {class: 'clamp'}, p.name),
        () => act('sign-off', async () => {
          s.game = await api.signOff(s.game, p.name);
          toast(`Signed off by ${p.name}.`);
        }), {class: 'btn-choice', 'aria-label': `Sign off as ${p.name}`}))));
    }
    const next = g.match.games.find((x) => !x.over && x.id !== g.id);
    if (next) {
      parts.push(h('a', {class: 'btn btn-primary', href: `/e/${eid}/games/${next.id}`},
        `Next: game ${next.number}`));
    }
    parts.push(h('a', {class: 'btn', href: `/e/${eid}/run`}, 'Your tables'));
    return h('section', {class: 'over', 'aria-label': 'Game over'}, parts);
  }

  /** This phone's key does not reach this table: say so up front, and offer to join it. */
  function keyPanel() {
    const g = s.game;
    // One input for the screen's life: a redraw (the outbox, a poll) keeps what was typed.
    pinInput ||= h('input', {id: 'key-pin', class: 'input', inputmode: 'numeric', required: true,
      autocomplete: 'off', maxlength: 12, 'data-k': 'key-pin'});
    const pin = pinInput;
    const submit = h('button', {type: 'submit', class: 'btn btn-primary', disabled: s.busy},
      `Join table ${g.table}`);
    const form = h('form', {class: 'form', onsubmit: (ev) => {
      ev.preventDefault();
      if (s.busy) return;
      s.busy = true;
      s.joinError = null;
      submit.disabled = true;
      api.join(s.code, pin.value, g.table).then(async () => {
        await refreshKeys();
        toast(`This phone now runs table ${g.table} too.`);
      }, (error) => {
        s.joinError = error.message;
      }).finally(() => { s.busy = false; draw(); });
    }},
    h('label', {for: 'key-pin'}, 'Join PIN (from the organizer)'), pin,
    s.joinError && h('p', {class: 'error', role: 'alert'}, s.joinError), submit);
    return h('section', {class: 'card key-needed', 'aria-label': 'This table needs a key'},
      h('h2', {}, s.hasKey && s.keyTables.length
        ? `This phone's key covers ${tablesWords(s.keyTables)} only`
        : 'This phone has no key for this event'),
      h('p', {}, `Hands of table ${g.table} cannot be entered here yet. To run it from this `
        + `phone too, join table ${g.table} with the event's PIN.`),
      form,
      s.hasKey && h('a', {class: 'btn', href: `/e/${eid}/run`}, 'Back to your tables'));
  }

  function sheetPanel() {
    const g = s.game;
    if (!s.covered || !s.format?.parameters?.game_sheet || g.signed_off) return null;
    if (g.from_sheet) {
      return h('section', {class: 'card sheet'}, h('p', {}, 'Entered from the game sheet.'),
        button('Remove the sheet entry', () => act('sheet', async () => {
          s.game = await api.clearSheet(s.game);
        }), {class: 'btn-small'}));
    }
    if (g.hands.length || s.pending.length) return null;
    const input = (id, label, required = false) => [h('label', {for: id}, label),
      h('input', {id, class: 'input', type: 'number', inputmode: 'numeric', min: 0, max: 1000,
        required})];
    const form = h('form', {class: 'form', onsubmit: (ev) => {
      ev.preventDefault();
      const value = (id) => Number(form.querySelector(`#${id}`).value || 0);
      const sheet = {points: {A: value('sheet-a'), B: value('sheet-b')}, bumps: {}};
      for (const p of seats(g)) {
        const n = value(`sheet-bump-${p.seat}`);
        if (n) sheet.bumps[String(p.seat)] = n;
      }
      act('game sheet', async () => { s.game = await api.putSheet(s.game, sheet); });
    }},
    input('sheet-a', `${sideName('A')}: final points`, true),
    input('sheet-b', `${sideName('B')}: final points`, true),
    h('fieldset', {}, h('legend', {}, 'Bumps (dollars) per player'),
      seats(g).map((p) => input(`sheet-bump-${p.seat}`, `${p.name} (seat ${p.seat})`))),
    h('button', {type: 'submit', class: 'btn btn-primary'}, 'Save the game sheet'));
    return h('details', {class: 'card sheet'},
      h('summary', {class: 'btn'}, 'Enter from the game sheet (final points and bumps)'), form);
  }

  // --- drawing ------------------------------------------------------------------------------
  function draw() {
    const focused = document.activeElement?.dataset?.k;
    const g = s.game;
    setTitle(s.eventName);
    let panel;
    if (!s.covered) panel = [(g.over || g.signed_off) && overPanel(), keyPanel()];
    else if (s.orphan) panel = orphanPanel();
    else if (s.edit) panel = editPanel();
    else if (g.over || g.signed_off) panel = overPanel();
    else if (allEntered()) panel = allEnteredPanel();
    else if (s.renege) panel = renegeFlow();
    else panel = entry();
    const openHands = main.querySelector('details.hands');
    mount(main, header(), scores(), status(), panel,
      s.lastOutcome && h('p', {class: 'last-outcome', 'aria-live': 'polite'}, s.lastOutcome),
      sheetPanel(), handsList());
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
  };
}
