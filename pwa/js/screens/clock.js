/**
 * The round clock, counted down on this phone from the server's seconds_left (not its clock).
 *
 * A board is built once per revision and served from a cache until something changes, so its
 * seconds_left may be as old as the last hand: late in a quiet round, or on a night nobody
 * closed, it would count down from the time left when the board was built. The server's end
 * time then bounds it: never more left than until ends_at by this phone's clock.
 */

export function roundClock() {
  let endsAt = null;
  return {
    /** Take the server's clock ({seconds_left, ends_at, ...} or null). */
    update(clock) {
      if (!clock || clock.seconds_left === null || clock.seconds_left === undefined) {
        endsAt = null;
        return;
      }
      endsAt = Date.now() + clock.seconds_left * 1000;
      const ends = clock.ends_at ? Date.parse(clock.ends_at) : NaN;
      if (!Number.isNaN(ends)) endsAt = Math.min(endsAt, ends);
    },
    /** Seconds left now, or null when the round has no clock. */
    secondsLeft() {
      return endsAt === null ? null : Math.max(0, Math.round((endsAt - Date.now()) / 1000));
    },
  };
}
