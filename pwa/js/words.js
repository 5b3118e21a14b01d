/**
 * Pure presentation logic (no DOM, no network, no storage): turning the API's data into words.
 * There is no euchre arithmetic here: every score, label and outcome comes from the server; this
 * module only picks, orders and phrases what the server said.
 */

/** The two sides of a table, as the server names them. */
export const SIDES = ['A', 'B'];

/** "1 hand", "3 hands". */
export const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The points-table rows for the tricks buttons (alone or not), in tricks order 0..5. */
export function tricksRows(handValues, alone) {
  return (handValues || [])
    .filter((row) => row.alone === Boolean(alone))
    .sort((a, b) => a.tricks - b.tricks);
}

/** A tricks button's label from a points-table row: "3 · +1", "5 · marched +2", "0 · euchred". */
export function tricksLabel(row) {
  if (!row) return '';
  if (row.makers_score > 0) {
    const plain = row.result === 'made' || row.result === 'loner-made';
    return `${row.tricks} · ${plain ? '' : row.label + ' '}+${row.makers_score}`;
  }
  return `${row.tricks} · ${row.label}`;
}

/** The server's outcome ("A marched: A +2") with the side letters replaced by the sides' names. */
export function outcomeWords(outcome, sides) {
  if (!outcome) return '';
  if (!sides) return outcome;
  return outcome.replace(/\b([AB])\b/g, (letter) => sides[letter]?.name || letter);
}

/** A side's name as the table knows it (the team, or "Ann & Carol"), else its letter. */
export function sideName(game, side) {
  return game?.sides?.[side]?.name || side;
}

/** The outcome with each player by first name ("Bob & Dave euchred: Ann & Carol +2"), so a
 * toast stays short; a team keeps its name. */
export function shortOutcomeWords(outcome, sides) {
  const short = Object.fromEntries(SIDES.map((side) => {
    const info = sides?.[side];
    const name = info?.team_id ? info.name
      : (info?.players || []).map((p) => p.name.split(/\s+/)[0]).join(' & ') || info?.name;
    return [side, {name}];
  }));
  return outcomeWords(outcome, short);
}

/** The name of the player in a seat (1-4), or ''. */
export function seatName(game, seat) {
  if (!game || !seat) return '';
  for (const side of SIDES) {
    const player = game.sides?.[side]?.players?.find((p) => p.seat === seat);
    if (player) return player.name;
  }
  return '';
}

/** Every player of the game in seat order, with their side. */
export function seats(game) {
  const out = [];
  for (const side of SIDES) {
    for (const p of game?.sides?.[side]?.players || []) out.push({...p, side});
  }
  return out.sort((a, b) => a.seat - b.seat);
}

/**
 * The game's progress from the server's numbers, with the hands still waiting on this phone
 * counted in: "8 hands · 5 played · 3 waiting to be sent · 0 to go", "Time was called after 4
 * hands". (Counting hands is not scoring: the points stay the server's.)
 */
export function progressWords(game, waiting = 0) {
  if (!game) return '';
  const played = game.hands_played;
  if (game.end === 'time') {
    return `Time was called after ${plural(played, 'hand')}`;
  }
  const parts = [game.format?.description, `${played} played`];
  if (waiting) parts.push(`${waiting} waiting to be sent`);
  if (game.hands_to_go !== null && game.hands_to_go !== undefined) {
    parts.push(`${Math.max(game.hands_to_go - waiting, 0)} to go`);
  }
  return parts.filter(Boolean).join(' · ');
}

/** Hands waiting on the phone that count as hands of the game (thrown-in cards do not). */
export function waitingHands(entries) {
  return (entries || []).filter((e) => e.body?.kind !== 'penalty').length;
}

/** "table 3", "tables 1 and 3", "tables 1, 2 and 4". */
export function tablesWords(tables) {
  const list = [...tables].sort((a, b) => a - b);
  if (list.length < 2) return `table ${list[0] ?? ''}`.trim();
  return `tables ${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
}

/** "Ann & Bob" from a list of names. */
export function namesWords(names) {
  return (names || []).join(' & ');
}

/** A short line for a hand that is waiting in the outbox (from what the runner tapped). */
export function pendingWords(body, sides, handValues) {
  if (!body) return '';
  const maker = sides?.[body.maker]?.name || body.maker;
  if (body.kind === 'penalty') return 'cards thrown in';
  const parts = [`${maker} called`];
  if (body.alone) parts.push('alone');
  if (body.renege) {
    const by = sides?.[body.renege.by]?.name || body.renege.by;
    parts.push(`renege by ${by} ${body.renege.upheld ? 'upheld' : 'rejected'}`);
  }
  if (body.tricks !== null && body.tricks !== undefined) {
    const row = tricksRows(handValues, body.alone).find((r) => r.tricks === body.tricks);
    parts.push(`${body.tricks} tricks${row ? ` (${row.label})` : ''}`);
  }
  return parts.join(' · ');
}

/** "12:05" for a number of seconds (never negative); the round clock. */
export function clockText(seconds) {
  if (seconds === null || seconds === undefined) return '';
  const s = Math.max(0, Math.round(seconds));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, '0')}`;
}

/** "21:40": the time of day of a server time (ISO), on this phone's clock; '' for none. */
export const timeOfDay = (iso) => (iso ? new Date(iso).toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'}) : '');

/** The clock's colour: 'ok', 'amber' in the last 5 minutes, 'red' in the last 2. */
export function clockLevel(seconds) {
  if (seconds === null || seconds === undefined) return 'ok';
  if (seconds <= 120) return 'red';
  if (seconds <= 300) return 'amber';
  return 'ok';
}

/** "▲2" / "▼1" / "" and its words for screen readers. */
export function movement(value) {
  if (!value) return {mark: '', words: ''};
  return value > 0
    ? {mark: `▲${value}`, words: `up ${value} since last round`}
    : {mark: `▼${-value}`, words: `down ${-value} since last round`};
}

/** Does a leaderboard row match a search (name or a member's name, any case)? */
export function matchesSearch(row, query) {
  const q = (query || '').trim().toLowerCase();
  if (!q) return true;
  return [row.name, ...(row.members || [])].some((n) => (n || '').toLowerCase().includes(q));
}

/** Split rows into pages of `size` for the projector. */
export function pages(rows, size) {
  const out = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out.length ? out : [[]];
}

/** The round numbers that appear in any row, in order ("1", "2", ...). */
export function roundKeys(rows) {
  const keys = new Set();
  for (const row of rows || []) for (const k of Object.keys(row.rounds || {})) keys.add(k);
  return [...keys].sort((a, b) => Number(a) - Number(b));
}

/** "3 s ago", "2 min ago". */
export function agoWords(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  return `${Math.floor(s / 60)} min ago`;
}

/** A game's chip after "Game N: ", from the server's status: who forfeited it, "not played
 * yet" (its round, a league week to come, has not started: no score), else its score, with
 * "· playing" until it is over. `names`: the sides' names by letter. */
export function gameChipWords(game, names) {
  if (game.end === 'forfeit') return `forfeited by ${names?.[game.forfeited_by] || game.forfeited_by}`;
  if (game.status === 'scheduled') return 'not played yet';
  return `${game.points.A}–${game.points.B}${game.status === 'over' ? '' : ' · playing'}`;
}

/** A match whose week has not started, with its night when it has one: "Not played yet ·
 * Tue, Jan 12 19:00". */
export const notPlayedWords = (night) => `Not played yet${night ? ` · ${night}` : ''}`;
