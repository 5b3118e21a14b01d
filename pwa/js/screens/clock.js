/** The round clock, counted down on this phone from the server's seconds_left (not its clock). */

export function roundClock() {
  let endsAt = null;
  return {
    /** Take the server's clock ({seconds_left, ...} or null). */
    update(clock) {
      endsAt = clock && clock.seconds_left !== null && clock.seconds_left !== undefined
        ? Date.now() + clock.seconds_left * 1000 : null;
    },
    /** Seconds left now, or null when the round has no clock. */
    secondsLeft() {
      return endsAt === null ? null : Math.max(0, Math.round((endsAt - Date.now()) / 1000));
    },
  };
}
