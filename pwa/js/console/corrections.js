/** /e/<id>/organize/corrections[?game=<id>]: any game's hands edited or deleted (a change made
 * meanwhile explained, the draft kept), a mismatch settled, a signed-off game reopened; the
 * audit log by table, in words, read again after each change. */

import {button, h, mount} from '../dom.js';
import {outcomeWords, plural, tricksLabel, tricksRows} from '../words.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {board} from './progress.js';
import {lateField, rulingsPanel} from './rulings.js';
import {seatWords, wrongSeats} from './seats.js';
import {does, failure, lab, load, msg, query, sides} from './ui.js';

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const FIELDS = ['maker', 'alone', 'loner_seat', 'tricks', 'renege'];
const UNSIGNED = 'The sign-off was undone: the result changed; the opponents sign again.';
const WHO = {organizer: 'the organizer', runner: 'a runner', system: 'the app'};
/** Each field a hand's edit may change, in words. */
const FIELD_WORDS = {kind: 'the kind of entry', maker: 'who called trump', alone: 'alone',
  loner_seat: 'who went alone', tricks: 'tricks', renege: 'the renege', dealer: 'the dealer',
  trump: 'trump', note: 'the note', surrendered: 'thrown-in cards'};

/** Who made a change: the key by its label and last characters, so two desks differ. */
function who(e) {
  const k = e.key;
  if (!k) return WHO[e.role] || e.role;
  const kind = k.role === 'organizer' ? 'organizer link' : `runner link${k.table ? ` (table ${k.table})` : ''}`;
  return `${kind}${k.label && k.label !== 'organizer' ? ` “${k.label}”` : ''} …${k.hint}`;
}

/** One changed field of a hand, before → after, in words ("tricks 3 → 4"). */
function fieldChange(name, b, a, side) {
  const shown = (v) => {
    if (v === null || v === undefined || v === '') return 'none';
    if (name === 'maker') return side[v]?.name || v;
    if (name === 'renege') return `${side[v.by]?.name || v.by} ${v.upheld ? 'upheld' : 'rejected'}`;
    if (name === 'alone') return v ? 'yes' : 'no';
    if (name === 'loner_seat' || name === 'dealer') return `seat ${v}`;
    return Array.isArray(v) ? v.join(', ') || 'none' : String(v);
  };
  return `${FIELD_WORDS[name] || name} ${shown(b[name])} → ${shown(a[name])}`;
}
const REASONS = {late: 'late', 'no-show': 'did not show', 'one-player': 'only one player came'};
const STANDING = {'may-be-removed-from-playoffs': 'may be removed from the playoffs', removed: 'removed from the league'};

/** A ruling in words, with the table's side names. */
function rulingWords(r, side) {
  const name = (k) => side[k]?.name || k;
  if (r.kind === 'adjust') return `${r.points > 0 ? '+' : ''}${plural(r.points, 'point')} to ${name(r.side)}`;
  if (r.kind === 'forfeit') return `${name(r.side)} forfeit the game`;
  if (r.kind === 'protest_upheld') return `protest upheld, ${name(r.side)} forfeit the game`;
  return 'protest rejected, the result stands';
}

/** An audit entry in words: [what happened, the change, a note]; `side` has the names of the
 * table's sides A and B (the server's entries say "A" and "B"). */
function entryWords(e, side, label, games) {
  const b = e.before || {};
  const a = e.after || {};
  // "Game 2 · ": which game of the table's match, where a match has more than one.
  const ofGame = (x) => (games > 1 && x.game ? `Game ${x.game} · ` : '');
  const hand = (x) => (x?.outcome ? outcomeWords(x.outcome, side) : 'no result');
  const score = (p) => (p ? `${side.A.name} ${p[0]} – ${p[1]} ${side.B.name}` : 'nothing');
  const how = (m) => (m === 'card-draw' ? 'a card draw' : 'a playoff hand');
  const unsigned = a.sign_off && UNSIGNED.replace('; the opponents sign again', '');
  const people = () => [b.name !== a.name && `renamed ${a.name}`,
    b.checked_in !== a.checked_in && (a.checked_in ? 'checked in' : 'check-in undone'),
    b.withdrawn !== a.withdrawn && (a.withdrawn ? 'withdrawn' : 'brought back'),
    b.playoff_excluded !== a.playoff_excluded && (a.playoff_excluded ? 'left out of the playoffs' : 'back in the playoffs'),
    b.paid !== a.paid && (a.paid ? 'paid' : 'not paid'),
    b.stays_at !== a.stays_at && (a.stays_at === null ? 'moves again' : a.stays_at ? `stays at table ${a.stays_at}` : 'stays where seated in round 1'),
    b.disqualified !== a.disqualified && (a.disqualified ? `disqualified: ${a.disqualified}` : 'disqualification undone'),
    String(b.categories || []) !== String(a.categories || []) && `categories: ${(a.categories || []).join(', ') || 'none'}`]
    .filter(Boolean).join(', ') || 'no change';
  switch (e.action) {
    case 'edit-hand': {
      const fields = (e.changed || []).map((k) => fieldChange(k, b, a, side)).join('; ');
      return [`${ofGame(a)}Hand ${a.number ?? b.number} changed`, same(b.outcome, a.outcome)
        ? `${hand(a)} (the same score; ${fields || 'nothing else changed'})`
        : `${hand(b)} → ${hand(a)}${fields ? ` (${fields})` : ''}`, unsigned];
    }
    case 'delete-hand': return [`${ofGame(a)}Hand ${b.number} deleted`, `It was: ${hand(b)}`, unsigned];
    case 'edit-sheet': return ['Game sheet changed', `${score(b.points)} → ${score(a.points)}`, unsigned];
    case 'clear-sheet': return ['Game sheet removed', `It said ${score(b.points)}`];
    case 'settle-tie': return ['Level game settled', `${side[a.winner]?.name || a.winner} won ${how(a.method)}`
      + `${b.winner ? ` (it was ${side[b.winner]?.name || b.winner}, ${how(b.method)})` : ''}`, unsigned];
    case 'sign-off': return [`Signed off by ${a.signed_by}`];
    case 'reopen': return ['Sign-off undone: the game can be changed again', b.signed_off_by && `It was signed by ${b.signed_off_by}`];
    case 'seat-round': return [`${label} seated`, a.tables && plural(a.tables, 'table')];
    case 'call-time': return [`Time called in ${label}`];
    case 'start-clock': return [`Clock started for ${label}`, a.minutes && plural(a.minutes, 'minute')];
    case 'close-round': return [`${label} closed`];
    case 'reopen-round': return [`${label} reopened`];
    case 'add-player': return [`${a.name} added`];
    case 'add-team': return [`Team ${a.name} added`];
    case 'add-substitute': return [`${a.name} added as a substitute for ${a.team}`];
    case 'update-player': case 'update-team': return [b.name || a.name, people()];
    case 'update-event': return [b.name !== a.name ? `Event renamed ${a.name}` : a.status === 'finished'
      ? 'Event marked finished' : 'Event opened again'];
    case 'issue-key': return [a.role === 'organizer' ? 'Another organizer link made'
      : `Runner link made for ${a.table ? `table ${a.table}` : 'every table'}`];
    case 'revoke-key': return [`${a.role === 'organizer' ? 'An organizer' : 'A runner'} link revoked`];
    case 'new-pin': return ['New join PIN'];
    case 'schedule-season': return ['Season scheduled', `${plural(a.weeks, 'week')}, ${plural(a.teams, 'team')}`];
    case 'forfeit': return [`${a.team} forfeited game${a.games?.length === 1 ? '' : 's'} ${(a.games || []).join(', ')}`,
      [REASONS[a.reason] || a.reason, a.minutes_late && `${a.minutes_late} minutes late`,
        a.offence && `offence ${a.offence}`, STANDING[a.status]].filter(Boolean).join(' · ')];
    case 'substitute': return [`${a.name} plays in seat ${a.seat}`];
    case 'tiebreak-order': return ['Tiebreak order recorded'];
    case 'swap-seats': case 'correct-seats': return seatWords(e);
    case 'check-in-after-window': return [`${a.name} checked in after the window closed`, a.window_closed && `it closed at ${a.window_closed}`];
    case 'check-in-window': return ['Check-in window changed'];
    case 'make-door-code': case 'rotate-door-code': return ['New door code (the old QR stops working)'];
    case 'door-request': return [`${a.name}: asked at the door to be added`, a.status && `${a.status}`];
    case 'set-money': return [a.entry_fee !== undefined ? `Entry fee ${a.currency}${a.entry_fee}` : 'No money at this event',
      a.entry_fee !== undefined && (a.maintenance_percent ? `maintenance ${a.maintenance_percent}%` : `maintenance ${a.currency}${a.maintenance_amount}`)];
    case 'named-awards': return ['Awards of your own changed', (a.awards || []).map((x) => x.name).join(', ') || 'none'];
    case 'categories': return ['Categories changed', Object.keys(a.categories || {}).join(', ') || 'none'];
    case 'door-prize-draw': return [`Door prize draw ${a.number}`, `${plural(a.winners?.length || 0, 'winner')} of ${a.candidates}, seed ${a.seed}`];
    case 'late-correction': return ['Changed after the correction window', a.reason && `Reason: ${a.reason}`];
    case 'ruling': case 'withdraw-ruling': return [`${e.action === 'ruling' ? 'Ruling' : 'Ruling withdrawn'}: ${rulingWords(a.ruling || {}, side)}`,
      `${score(b.points)} → ${score(a.points)}`, e.action === 'ruling' ? a.ruling?.reason && `Reason: ${a.ruling.reason}`
        : a.ruling?.withdrawn_reason && `Reason: ${a.ruling.withdrawn_reason}`, unsigned];
    case 'protest': return [`Protest lodged about ${a.player}`, a.grounds];
    case 'call': return ['The table called the organizer'];
    case 'answer-call': return ['Call answered', a.waited_seconds !== undefined && `after ${plural(a.waited_seconds, 'second')}`];
    default: return [e.action.replace(/-/g, ' ')];
  }
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'corrections', 'Corrections');
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
      wrongSeats(game, (saved) => redraw(saved, 'Seats swapped: every hand now counts for the players who really sat there.')),
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
