/**
 * The provisional score (pure: no DOM, no network, no storage): the score the server last
 * confirmed plus the points of the hands still waiting on this phone, so the table sees the
 * right score while the network is down.
 *
 * Nothing here knows euchre. The event's format, as the server serves it, carries its points
 * table (`points`: what each result is worth), and rows saying which entry of that table a
 * played hand takes and who scores it (`hand_values`, by alone and tricks) and what a renege
 * claim adds (`renege_values`, by who is accused, alone and upheld). This module looks rows up
 * and adds values. When the format lacks a row or an entry (say a copy kept from an older
 * version of the app), it says what is missing instead of guessing.
 */

const OTHER = {A: 'B', B: 'A'};

/** The table values one waiting hand adds, as [{key, side}], or {missing} when the format
 * does not say. A thrown-in hand (cards surrendered) adds nothing. */
function entriesOf(body, format) {
  if (!body || body.kind === 'penalty') return [];
  const sideOf = {makers: body.maker, defenders: OTHER[body.maker]};
  if (!sideOf.makers || !sideOf.defenders) return {missing: 'the side that called trump'};
  const alone = Boolean(body.alone);
  const out = [];
  let tricksCount = true;
  if (body.renege) {
    const accused = body.renege.by === body.maker ? 'makers' : 'defenders';
    const row = (format?.renege_values || []).find((r) => r.accused === accused
      && r.alone === alone && r.upheld === Boolean(body.renege.upheld));
    if (!row) return {missing: 'what a renege claim scores'};
    out.push({key: row.points_key, side: sideOf[row.scorer]});
    tricksCount = row.tricks_count;
  }
  if (tricksCount) {
    const row = (format?.hand_values || []).find((r) => r.alone === alone
      && r.tricks === body.tricks);
    if (!row || !row.points_key || !row.scorer) {
      return {missing: `which entry ${body.tricks} tricks${alone ? ' alone' : ''} take`};
    }
    out.push({key: row.points_key, side: sideOf[row.scorer]});
  }
  return out;
}

/**
 * The confirmed points ({A, B}) plus the waiting hands' table values. `entries` are outbox
 * entries (their `body` is the hand as tapped); hands the server already has (by id) are left
 * out, so a hand is never counted twice. Returns {points, added, hands, missing}: `hands` is
 * how many waiting hands were added; `missing` is null, or the words for what the format does
 * not say (then `points` are the confirmed ones, unchanged).
 */
export function provisionalScore(confirmed, entries, format, knownIds = []) {
  const known = new Set(knownIds);
  const waiting = (entries || []).filter((e) => !known.has(e.handId));
  const added = {A: 0, B: 0};
  const table = format?.points || {};
  for (const entry of waiting) {
    const parts = entriesOf(entry.body, format);
    if (parts.missing) return {points: {...confirmed}, added: {A: 0, B: 0}, hands: 0, missing: parts.missing};
    for (const {key, side} of parts) {
      const value = table[key];
      if (typeof value !== 'number') {
        return {points: {...confirmed}, added: {A: 0, B: 0}, hands: 0,
          missing: `a value for "${key}" in this event's points table`};
      }
      added[side] += value;
    }
  }
  return {points: {A: confirmed.A + added.A, B: confirmed.B + added.B}, added,
    hands: waiting.length, missing: null};
}
