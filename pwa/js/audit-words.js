/** The audit log in words (the console's Corrections): each action the server records, as a
 * sentence with the table's side names, the change before -> after and a note. Loaded on first
 * use of the log (its own size budget, outside the console's); pure, no DOM. */

import {outcomeWords, plural} from './words.js';

const UNSIGNED = 'The sign-off was undone: the result changed.';
const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const WHO = {organizer: 'the organizer', runner: 'a runner', system: 'the app'};
/** Each field a hand's edit may change, in words. */
const FIELD_WORDS = {kind: 'the kind of entry', maker: 'who called trump', alone: 'alone',
  loner_seat: 'who went alone', tricks: 'tricks', renege: 'the renege', dealer: 'the dealer',
  trump: 'trump', note: 'the note', surrendered: 'thrown-in cards'};

/** Who made a change: the key by its label and last characters, so two desks differ. */
export function who(e) {
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
export function entryWords(e, side, label, games) {
  const b = e.before || {};
  const a = e.after || {};
  // "Game 2 · ": which game of the table's match, where a match has more than one.
  const ofGame = (x) => (games > 1 && x.game ? `Game ${x.game} · ` : '');
  const hand = (x) => (x?.outcome ? outcomeWords(x.outcome, side) : 'no result');
  const score = (p) => (p ? `${side.A.name} ${p[0]} – ${p[1]} ${side.B.name}` : 'nothing');
  const how = (m) => (m === 'card-draw' ? 'a card draw' : 'a playoff hand');
  const unsigned = a.sign_off && UNSIGNED;
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
    case 'update-player': case 'update-team': return [b.name || a.name || 'An entrant', people()];
    case 'update-event': return [b.name !== a.name ? `Event renamed ${a.name}`
      : a.verification && a.verification !== b.verification ? `Scores now checked by ${a.verification.replace(/_/g, ' ')}`
      : a.correction_minutes !== undefined && a.correction_minutes !== b.correction_minutes
        ? `Correction window set to ${plural(a.correction_minutes, 'minute')} after a round closes`
      : a.status !== b.status ? (a.status === 'finished' ? 'Event marked finished' : 'Event opened again')
      : 'Event settings changed'];
    case 'issue-key': return [a.role === 'organizer' ? 'Another organizer link made'
      : `Runner link made for ${a.table ? `table ${a.table}` : 'every table'}`];
    case 'revoke-key': return [`${a.role === 'organizer' ? 'An organizer' : 'A runner'} link revoked`];
    case 'new-pin': return ['New join PIN'];
    case 'calendar-privacy': return [a.private ? 'Calendars made private (teams read them through their own links)' : 'Calendars made public'];
    case 'calendar-link': return [`New calendar link for ${a.team}`, a.revoked && 'the old one stops working'];
    case 'calendar-link-revoked': return [`Calendar link of ${a.team} revoked`];
    case 'schedule-season': return ['Season scheduled', `${plural(a.weeks, 'week')}, ${plural(a.teams, 'team')}`];
    case 'forfeit': return [`${a.team} forfeited game${a.games?.length === 1 ? '' : 's'} ${(a.games || []).join(', ')}`,
      [REASONS[a.reason] || a.reason, a.minutes_late && `${a.minutes_late} minutes late`,
        a.offence && `offence ${a.offence}`, !a.advance && STANDING[a.status]].filter(Boolean).join(' · '),
      a.advance && 'recorded before the night: the games and the offence count when the week starts'];
    case 'withdraw-forfeit': return [`${b.team || a.team}'s forfeit of ${a.week} taken back`,
      [REASONS[b.reason] || b.reason, b.offence && `it would have become offence ${b.offence}`].filter(Boolean).join(' · '),
      'the team plays that week: nothing of the forfeit counts'];
    case 'remove-team': return [`${a.team} removed from the league`, a.offence && `offence ${a.offence} · ${a.week}`,
      'its later matches are forfeit wins for its opponents'];
    case 'substitute': return [`${a.name} plays in seat ${a.seat}`];
    case 'tiebreak-order': return ['Tiebreak order recorded'];
    case 'swap-seats': case 'correct-seats': return seatWords(e);
    case 'enter-paper-sheet': return [`${ofGame(a)}Paper sheet entered`, a.hands !== undefined && plural(a.hands, 'hand')];
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
    case 'captain-registration': return [`Team ${a.name} registered by its captain`, a.players && plural(a.players.length, 'player')];
    case 'team-registration': return ['Team registration changed', a.closes && `closes ${a.closes}`];
    case 'team-key': return ['A captain\'s link made'];
    case 'roster': return [`Roster of ${a.name || b.name || 'a team'} changed`];
    case 'remove-link-teams': return [`${plural(a.removed || 0, 'team')} registered through the link removed`, (a.names || []).join(', ')];
    case 'decline-door-requests': return [`${plural(a.declined || 0, 'door request')} declined`, (a.names || []).join(', ')];
    case 'table-cards': return ['Table cards printed', a.tables && plural(a.tables, 'table')];
    case 'postpone-week': case 'make-up-week': return [`Week ${a.week} ${e.action === 'postpone-week' ? 'postponed' : 'made up'}`,
      `${b.date} → ${a.date}`, a.reason && `Reason: ${a.reason}`];
    case 'move-match': return [`Match moved${a.match ? `: ${a.match}` : ''}`, `${b.date} → ${a.date}`, a.reason && `Reason: ${a.reason}`];
    case 'playoff-nights': return ['Playoff nights changed', a.reason && `Reason: ${a.reason}`];
    case 'call': return ['The table called the organizer'];
    case 'answer-call': return ['Call answered', a.waited_seconds !== undefined && `after ${plural(a.waited_seconds, 'second')}`];
    default: return entryDecisions(e, side) || [e.action.replace(/-/g, ' ')];
  }
}

/** Audit entries of these changes, in words (Corrections' log). */
function seatWords(e) {
  const b = e.before || {};
  const a = e.after || {};
  if (e.action === 'correct-seats') {
    const seats = Object.keys(a.seats || {});
    return ['Seats corrected: players had sat in each other\'s places',
      seats.map((s) => `seat ${s}: ${b.seats?.[s]} → ${a.seats[s]}`).join('; '),
      a.hands_kept !== undefined && `${a.hands_kept} hands kept as entered`];
  }
  const where = (x) => (x ? `table ${x.table}${x.seat ? `, seat ${x.seat}` : x.side ? `, side ${x.side}` : ''}` : '');
  return ['Seats swapped before the first hand', `${where(b.a)} ⇄ ${where(b.b)}`];
}

/** A side's entry of a hand (or a sheet) in words: "Hearts called trump, 3 tricks, alone". */
function entered(x, side) {
  if (!x) return 'nothing';
  if (x.sheet || x.hands) return `a paper sheet of ${plural((x.sheet || x).hands?.length || 0, 'hand')}`;
  const hand = x.hand || x;
  if (hand.kind && hand.kind !== 'play') return hand.kind.replace(/-/g, ' ');
  return [hand.maker && `${side[hand.maker]?.name || hand.maker} called trump`,
    hand.tricks !== null && hand.tricks !== undefined && plural(hand.tricks, 'trick'),
    hand.alone && 'alone', hand.renege && `${side[hand.renege.by]?.name || hand.renege.by} reneged`]
    .filter(Boolean).join(', ') || 'a hand';
}

/** "side B" (as the server says who decided) with the side's name. */
const bySide = (s, side) => (typeof s === 'string' && s.startsWith('side ') ? side[s.slice(5)]?.name || s : s || '');
const entryNo = (x) => (x?.kind === 'sheet' ? 'The paper sheet' : `Hand ${x?.number ?? '?'}`);
const CHANGE = {edit: 'a change of', delete: 'deleting'};

/** Who confirms a score (RULES.md §7): entries kept until both sides agree, their mismatches
 * and the changes proposed to agreed hands; null for any other action. */
function entryDecisions(e, side) {
  const b = e.before || {};
  const a = e.after || {};
  const proposal = (x) => (CHANGE[x.kind] ? `${CHANGE[x.kind]} hand ${x.number}` : null);
  switch (e.action) {
    case 'hand-mismatch': return [`Hand ${a.number}: the sides entered it differently`,
      `${side.A.name}: ${entered(a.A, side)} · ${side.B.name}: ${entered(a.B, side)}`, 'A mismatch waits to be settled'];
    case 'confirm-hand-entry': return [proposal(a) ? `${bySide(a.confirmed_by, side)} agreed to ${proposal(a)}`
      : `Hand ${a.number} confirmed by ${bySide(a.confirmed_by, side)}`, a.entered_by && `Entered by ${bySide(a.entered_by, side)}`];
    case 'reject-hand-entry': return [proposal(b) ? `${bySide(a.rejected_by, side)} turned down ${proposal(b)}`
      : `${entryNo(b)} rejected by ${bySide(a.rejected_by, side)}`, `It said: ${entered(b, side)}`, a.reason && `Reason: ${a.reason}`];
    case 'withdraw-hand-entry': return [proposal(b) ? `${bySide(`side ${b.side}`, side)} withdrew ${proposal(b)}`
      : `${entryNo(b)} withdrawn by ${bySide(`side ${b.side}`, side)} before it was agreed`, `It said: ${entered(b, side)}`,
    a.window_closed_at && 'after the correction window closed (nothing agreed changed)'];
    case 'drop-hand-entry': return [`${entryNo(b)} set aside: ${a.reason || 'the game was over before it'}`,
      `${bySide(`side ${b.side}`, side)} had entered: ${entered(b, side)}`];
    case 'change-hand-entry': return [`${bySide(`side ${b.side}`, side)} changed their entry of hand ${b.number} before it was agreed`,
      `${entered(b, side)} → ${entered(a, side)}`];
    case 'propose-hand-change': return [`${bySide(`side ${a.side}`, side)} proposed ${proposal(a)}`,
      a.kind === 'edit' ? `${entered(b, side)} → ${entered(a, side)}` : `It is: ${entered(b, side)}`,
      'It counts once the other side agrees'];
    case 'settle-mismatch': return [`Mismatch of ${(b.A?.kind === 'sheet' ? 'the paper sheet' : `hand ${a.number}`)} settled by ${a.settled_by}`,
      a.took ? `${side[a.took]?.name || a.took}'s entry taken: ${entered(b[a.took], side)}` : 'The corrected hand entered instead of both',
      b.A && b.B && `${side.A.name} had: ${entered(b.A, side)} · ${side.B.name} had: ${entered(b.B, side)}`];
    default: return null;
  }
}
