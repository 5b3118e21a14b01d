/** /e/<id>/organize/corrections[?game=<id>]: any game's hands edited or deleted (a change made
 * meanwhile explained, the draft kept), a mismatch settled, a signed-off game reopened; the
 * audit log by table, in words, read again after each change. */

import {button, h, mount} from '../dom.js';
import {outcomeWords, tricksLabel, tricksRows} from '../words.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {board} from './progress.js';
import {lateField, rulingsPanel} from './rulings.js';
import {wrongSeats} from './seats.js';
import {does, failure, lab, load, msg, query, sides} from './ui.js';

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const FIELDS = ['maker', 'alone', 'loner_seat', 'tricks', 'renege'];
const UNSIGNED = 'The sign-off was undone: the result changed; the opponents sign again.';
export async function render(main, {eventId}) {
  const id = Number(eventId);
  // The log's words load beside the page, in their own module (outside the console's budget).
  const [framed, {entryWords, who}] = await Promise.all([frame(main, id, 'corrections', 'Corrections'),
    import('../audit-words.js')]);
  if (!framed) return;
  const values = framed.event?.format?.hand_values || [];
  const finder = h('section', {class: 'card'});
  const editorEl = h('section', {class: 'card editor', hidden: true});
  const auditEl = h('section', {class: 'card audit'});
  mount(framed.body, finder, editorEl, auditEl);
  let rounds = [];
  let auditTable = 0;
  let refreshAudit = () => {};
  let shown = null;
  let lateReason = ''; // the organizer's reason for changes after the correction window

  /** After a write: the saved game and what changed; the board and audit log read again. */
  const redraw = (saved, words) => {
    editor(saved, null, [words]);
    refreshFinder(saved.round.id);
    refreshAudit();
  };

  /** One game: its hands, each editable; `draft` is the hand being changed, kept through a 412.
   * `note`: [words, class, the hand it is about (shown under that hand, and scrolled to)]. */
  function editor(game, draft = null, note = null) {
    const out = msg();
    const names = {A: game.sides.A.name, B: game.sides.B.name};
    const open = (d, n = note) => editor(game, d, n);
    const toggles = (key, options) => h('div', {class: 'choice-grid', role: 'group', 'aria-label': key}, options.map(([v, label]) => {
      const k = `${key}-${v && typeof v === 'object' ? v.by + v.upheld : v}`;
      return button(label, () => {
        open({...draft, [key]: v, ...(key === 'maker' ? {loner_seat: null} : {})});
        editorEl.querySelector(`[data-k="${k}"]`)?.focus();
      }, {'aria-pressed': String(same(v, draft[key])), 'data-k': k});
    }));
    // A change, or (body null) a deletion. On 412/404 the game reloads: the change is found
    // stored (its answer was lost) or the draft stays. The audit log is read again either way.
    const change = (hand, body) => async () => {
      try {
        const saved = await calls.changeHand(game, hand.id, body, lateReason);
        const after = saved.hands.find((x) => x.id === hand.id);
        const undone = game.signed_off && !saved.signed_off ? ` ${UNSIGNED}` : '';
        editor(saved, null, [`${after ? `Hand ${after.number} now: ${outcomeWords(after.outcome, saved.sides)}.`
          : `Hand ${hand.number} deleted.`}${undone}`, null, after?.id]);
        refreshFinder(saved.round.id);
        return saved;
      } catch (error) {
        if (![404, 412].includes(error.status)) throw error;
        const fresh = await calls.game(game.id);
        const now = fresh.hands.find((x) => x.id === hand.id);
        const done = body ? now && FIELDS.every((k) => same(now[k], body[k])) : !now;
        editor(fresh, done ? null : draft, done ? ['Your change was already saved.', null, now?.id]
          : [`Someone changed this game while you were editing (it is now version ${fresh.version}). It is `
            + 'reloaded below with their change; yours is still in the form: check it and save again.', 'error', now?.id]);
        return fresh;
      } finally {
        refreshAudit();
      }
    };
    const form = (hand) => {
      const seats = game.sides[draft.maker || 'A'].players.filter((p) => p.player_id);
      const upheld = draft.renege?.upheld;
      return h('div', {class: 'edit-form'},
        h('p', {class: 'q'}, 'Who called trump?'), toggles('maker', [['A', names.A], ['B', names.B]]),
        toggles('alone', [[false, 'With partner'], [true, 'Alone']]),
        draft.alone && h('label', {}, 'Who went alone', h('select', {class: 'input', onchange: (e) => open({...draft, loner_seat: Number(e.target.value) || null})},
          h('option', {value: ''}, 'not recorded'), seats.map((p) => h('option', {value: p.seat, selected: draft.loner_seat === p.seat}, p.name)))),
        h('p', {class: 'q'}, 'Renege'),
        toggles('renege', [[null, 'No renege'], ...['A', 'B'].flatMap((s) => [[{by: s, upheld: true}, `${names[s]} reneged`],
          [{by: s, upheld: false}, `${names[s]} accused wrongly`]])]),
        !upheld && [h('p', {class: 'q'}, 'Tricks the makers took'),
          toggles('tricks', tricksRows(values, draft.alone).map((r) => [r.tricks, tricksLabel(r)]))],
        h('div', {class: 'actions'},
          does('Save the change', out, change(hand, {kind: hand.kind, maker: draft.maker, alone: draft.alone,
            loner_seat: draft.alone ? draft.loner_seat : null, tricks: upheld ? null : draft.tricks, renege: draft.renege,
            surrendered: hand.surrendered, dealer: hand.dealer, trump: hand.trump, note: hand.note}), null, {class: 'btn-primary'}),
          button('Cancel', () => open(null, null))),
        // A refusal shows right under Save, where the organizer is looking.
        out);
    };
    // A level game that blocks closing its round: settled here, without leaving the console.
    const settlement = () => h('div', {class: 'panel settle'},
      h('p', {class: 'warn'}, `Level at ${game.points.A}–${game.points.B}: record who won the playoff `
        + 'hand (its points do not count) or, when time is short, the card draw.'),
      [['playoff-hand', 'Playoff hand won by'], ['card-draw', 'Card draw won by']].map(([method, words]) =>
        h('div', {class: 'actions'}, h('span', {class: 'q'}, words),
          ['A', 'B'].map((side) => does(names[side], out, () => calls.settle(id, game.id, side, method, lateReason),
            (saved) => redraw(saved, `Settled: ${names[side]} won the ${method === 'card-draw' ? 'card draw' : 'playoff hand'}.`), {'aria-label': `${words} ${names[side]}`})))));
    const [noteText, noteClass, noteHand] = note || [];
    const noteEl = note && h('p', {class: ['editor-note', noteClass || 'note'], role: 'alert'}, noteText);
    const placed = noteEl && game.hands.some((x) => x.id === noteHand);
    const mismatchEl = h('div', {});
    if (game.mismatches?.length) import('../game/mismatch.js').then(({settleBoxes}) => mount(mismatchEl, settleBoxes(game,
      (label, number, side) => does(label, out, () => calls.take(game, number, side), (g) => redraw(g, `Hand ${number} settled.`)))));
    editorEl.hidden = false;
    mount(editorEl,
      h('h2', {}, `${game.round.label} · table ${game.table}${game.match.games.length > 1 ? ` · game ${game.number}` : ''}`),
      h('p', {class: 'editor-score'}, `${names.A} ${game.points.A} – ${game.points.B} ${names.B}`),
      h('p', {class: 'hint'}, `${game.hands_played} hands · ${game.signed_off ? `signed off by ${game.signed_off_by}`
        : game.over ? 'finished' : 'being played'} · version ${game.version}`),
      !placed && noteEl,
      mismatchEl,
      lateField(game, (text) => { lateReason = text; }, lateReason),
      rulingsPanel(game, redraw),
      game.needs_settlement && settlement(),
      wrongSeats(game, (saved) => redraw(saved, 'Seats swapped: every hand now counts for the players who really sat there.'),
        () => lateReason),
      game.signed_off && does('Reopen the game', out, () => calls.reopenGame(game),
        (g) => redraw(g, 'Reopened: runners can change it again until it is signed off.'),
        {sure: 'Tap again: the sign-off is undone', pending: 'Reopening…'}),
      h('ol', {class: 'hand-list'}, game.hands.map((hand) => h('li', {class: 'hand', 'data-hand': hand.id},
        h('span', {class: 'hand-no'}, hand.number), outcomeWords(hand.outcome, game.sides),
        h('span', {class: 'hand-actions'},
          hand.kind === 'play' && button('Edit', () => open(Object.fromEntries([['id', hand.id], ...FIELDS.map((k) => [k, hand[k]])]), null),
            {class: 'btn-small', 'aria-label': `Edit hand ${hand.number}`}),
          does('Delete', out, change(hand, null), null,
            {sure: 'Tap again to delete', pending: 'Deleting…', class: 'btn-small', 'aria-label': `Delete hand ${hand.number}`})),
        placed && hand.id === noteHand && noteEl,
        draft?.id === hand.id && form(hand)))),
      !game.hands.length && h('p', {class: 'empty'}, 'No hands yet.'),
      !draft && out,
      h('p', {class: 'actions'}, h('a', {class: 'btn', href: `/e/${id}/games/${game.id}`}, 'Add hands on the game screen'),
        button('Reload', () => openGame(game.id))));
    // A new answer stays where the organizer is looking: the form closing must not leave the
    // page scrolled on into the audit log.
    if (noteEl && note !== shown) (noteEl.closest('.hand') || noteEl).scrollIntoView({block: 'nearest'});
    shown = note;
  }

  const openGame = (gameId) => load(editorEl, () => calls.game(gameId), (g) => editor(g));

  // Find a game: a round's progress board, whose "Fix" links come back here with ?game=.
  let finderRound = null;
  const finderFor = (r) => {
    finderRound = r;
    const pick = h('select', {id: 'fix-round', class: 'input', onchange: () => finderFor(rounds[pick.value])},
      rounds.map((x, i) => h('option', {value: i, selected: x === r}, x.label)));
    mount(finder, h('h2', {}, 'Find the game'), lab(pick, 'Round'), pick, board(id, r));
  };
  /** After a change, the board beside the editor shows the round as it now stands. */
  const refreshFinder = async (roundId) => {
    try {
      const fresh = await calls.round(roundId);
      rounds = rounds.map((r) => (r.id === fresh.id ? fresh : r));
      if (finderRound?.id === fresh.id) finderFor(fresh);
    } catch {
      // The board keeps what it showed; the editor above has the game's new state.
    }
  };

  /** The table of an entry's round, from the rounds read here. */
  const tableAt = (e) => rounds.find((r) => r.number === e.round_number)?.tables.find((x) => x.table === e.table);
  /** The names of a table's sides A and B. */
  const sidesOf = (t) => {
    const s = t ? sides(t) : {A: 'side A', B: 'side B'};
    return {A: {name: s.A}, B: {name: s.B}};
  };
  const entry = (e) => {
    const label = rounds.find((r) => r.number === e.round_number)?.label || (e.round_number ? `Round ${e.round_number}` : '');
    const t = tableAt(e);
    const [what, change, note] = entryWords(e, sidesOf(t), label, t?.games?.length || 1);
    return h('li', {class: 'audit-entry'},
      h('p', {class: 'audit-what'}, h('strong', {}, what), [e.table && label, e.table && `table ${e.table}`].filter(Boolean).map((x) => ` · ${x}`)),
      change && h('p', {class: 'audit-change'}, change),
      note && h('p', {class: 'audit-note'}, note),
      h('p', {class: 'hint'}, `${new Date(e.at).toLocaleString([], {dateStyle: 'short', timeStyle: 'short'})} · by ${who(e)}`));
  };

  /** The audit log, for one table (0: all); read again in place after every change. */
  const auditFor = (table) => {
    auditTable = table;
    const numbers = [...new Set(rounds.flatMap((r) => r.tables.map((t) => t.table)))].sort((a, b) => a - b);
    const pick = h('select', {id: 'audit-table', class: 'input', onchange: () => auditFor(Number(pick.value))},
      h('option', {value: 0}, 'All tables'), numbers.map((n) => h('option', {value: n, selected: n === table}, `Table ${n}`)));
    const list = h('ol', {class: 'audit-list'});
    const status = h('p', {class: 'hint', 'aria-live': 'polite'});
    mount(auditEl, h('h2', {}, 'Audit log'), h('p', {class: 'hint'}, 'Every change after entry: who, when, before → after.'),
      lab(pick, 'Table'), pick, status, list);
    const paint = (entries) => mount(list, entries.length ? entries.map(entry)
      : h('li', {class: 'empty'}, table ? `No change at table ${table} yet.` : 'No change yet.'));
    refreshAudit = async () => {
      try {
        const entries = await calls.audit(id, table);
        if (auditTable !== table) return;
        if (entries.some((e) => e.round_number && !rounds.some((r) => r.number === e.round_number))) {
          rounds = (await calls.rounds(id)).filter((r) => r.status !== 'scheduled');
        }
        mount(status, '');
        paint(entries);
      } catch (error) {
        mount(status, `Not updated: ${failure(error, true)}`);
      }
    };
    load(list, () => calls.audit(id, table), paint);
  };

  await load(finder, () => calls.rounds(id), (all) => {
    rounds = all.filter((r) => r.status !== 'scheduled');
    if (!rounds.length) return mount(finder, h('p', {class: 'empty'}, 'No round is seated yet.'));
    finderFor(rounds.at(-1));
  });
  const wanted = Number(query().get('game'));
  if (!wanted) {
    if (rounds.length) auditFor(0);
    return;
  }
  editorEl.hidden = false;
  await load(editorEl, () => calls.game(wanted), (g) => {
    editor(g);
    // Fixing a table: its round on the board above, and the audit log of that table.
    const r = rounds.find((x) => x.number === g.round.number);
    if (r && r !== rounds.at(-1)) finderFor(r);
    auditFor(g.table);
  });
  if (!auditEl.childElementCount && rounds.length) auditFor(0);
  editorEl.scrollIntoView({block: 'start'});
}
