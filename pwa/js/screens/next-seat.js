/** "Next: table 7, seat 2 — Round 3" atop the leaderboard for the followed entrant (a round
 * seated, not begun), "Now: ..." while it is played; from the round's view (API): play has
 * begun once a hand is entered, counted or waiting for the other pair (`progress.begun`). */

import * as api from '../api.js';

const AGAIN_MS = 5000;

export function nextSeat(eventId, el) {
  let seen = null;
  let round = null;
  let at = 0;
  let later = 0;

  function draw(follow, team) {
    const table = round?.tables.find((t) => (team ? [t.team_a?.id, t.team_b?.id].includes(follow)
      : t.seats.some((x) => x.player_id === follow)));
    el.hidden = !table;
    if (!table) return;
    const now = round.status === 'playing' && round.progress.begun;
    const where = team ? `side ${table.team_a?.id === follow ? 'A' : 'B'}`
      : `seat ${table.seats.find((x) => x.player_id === follow).seat}`;
    el.textContent = `${now ? 'Now' : 'Next'}: table ${table.table}, ${where} — ${round.label}`;
  }

  return async function update(board, follow) {
    const cr = board?.current_round;
    if (follow === null || !cr) { el.hidden = true; return; }
    const key = `${cr.id}:${cr.status}`;
    const team = board.entry === 'team';
    const wait = at + AGAIN_MS - Date.now();
    clearTimeout(later);
    // Not begun when last read: the board changed, so read it again (at most every 5 s).
    if (key === seen && round && !round.progress.begun && wait > 0) later = setTimeout(() => update(board, follow), wait);
    if (key !== seen || (round && !round.progress.begun && wait <= 0)) {
      seen = key;
      at = Date.now();
      try {
        round = cr.status === 'closed'
          ? (await api.getRounds(eventId)).data.find((r) => r.status === 'scheduled' && r.number > cr.number) || null
          : (await api.getRound(cr.id)).data;
      } catch { /* keep the line as it was */ }
    }
    draw(follow, team);
  };
}
