/**
 * Seats the organizer changes by hand (RULES.md §4): who stays at one table all night (Players),
 * two entrants swapped before their tables' first hand (Rounds), and players who sat in each
 * other's seats after hands were played (Corrections). The server decides and refuses; these
 * only ask.
 */

import {h} from '../dom.js';
import * as calls from './calls.js';
import {does, lab, msg} from './ui.js';

/** "Stays at table N" for an entrant (null: moves as usual; 0: where first seated). */
export function stayPicker(id, teams, entrant, tables, saved) {
  const out = msg();
  const pick = h('select', {id: `stay-${entrant.id}`, class: 'input input-small', 'aria-label': `Table for ${entrant.name}`},
    h('option', {value: '', selected: entrant.stays_at === null || entrant.stays_at === undefined}, 'Moves as usual'),
    h('option', {value: '0', selected: entrant.stays_at === 0}, 'Stays where first seated'),
    Array.from({length: Math.max(tables, entrant.stays_at || 0)}, (_, i) => i + 1).map((n) =>
      h('option', {value: String(n), selected: entrant.stays_at === n}, `Stays at table ${n}`)));
  const save = does('Save', out, () => calls.setEntrant(id, teams, entrant.id,
    {stays_at: pick.value === '' ? null : Number(pick.value)}), saved,
  {class: 'btn-small', 'aria-label': `Save where ${entrant.name} sits`, pending: 'Saving…'});
  return h('span', {class: 'stay-pick'}, pick, save, out);
}

/** A seated entrant's place, in words: "Ann · table 2, seat 3" or "Hearts · table 2". */
const placeWords = (t, who, teams) => `${who.name} · table ${t.table}${teams ? '' : `, seat ${who.seat}`}`;

/** Swap two entrants of a round being played, among the tables with nothing entered yet. */
export function swapCard(id, round, teams, swapped) {
  const out = msg();
  const open = round.tables.filter((t) => t.games.every((g) => !g.hands_played && !g.over));
  const seated = open.flatMap((t) => (teams ? [t.team_a, t.team_b].filter(Boolean).map((x) => [x.id, placeWords(t, x, true)])
    : t.seats.filter((s) => s.player_id).map((s) => [s.player_id, placeWords(t, s, false)])));
  const choose = (name, label) => {
    const el = h('select', {id: name, class: 'input'}, h('option', {value: ''}, 'Choose…'),
      seated.map(([value, words]) => h('option', {value}, words)));
    return [lab(el, label), el];
  };
  const [firstLabel, first] = choose('swap-a', teams ? 'Team' : 'Player');
  const [secondLabel, second] = choose('swap-b', 'changes places with');
  return h('section', {class: 'card swap'}, h('h2', {}, 'Swap seats'),
    h('p', {class: 'hint'}, 'Before a table\'s first hand, any two can change places (an accommodation, '
      + 'friends split up). Tables with hands entered are not listed.'),
    seated.length < 2 ? h('p', {class: 'empty'}, 'Every table has hands entered: use Corrections for players in the wrong seats.')
      : [firstLabel, first, secondLabel, second,
        does('Swap them', out, () => {
          if (!first.value || !second.value) return Promise.reject(new Error('Choose the two to swap.'));
          return calls.swapSeats(id, round.id, Number(first.value), Number(second.value));
        }, swapped, {class: 'btn-primary', pending: 'Swapping…'})], out);
}

/** Players who sat in each other's seats: the two seats change players, the hands stay.
 * `reason()`: the organizer's reason, which a change needs once the table's window closed. */
export function wrongSeats(game, fixed, reason = () => '') {
  const out = msg();
  const people = [...game.sides.A.players, ...game.sides.B.players].filter((p) => p.player_id)
    .sort((a, b) => a.seat - b.seat);
  const seat = (name, label) => {
    const el = h('select', {id: name, class: 'input'}, h('option', {value: ''}, 'Choose…'),
      people.map((p) => h('option', {value: p.seat}, `Seat ${p.seat}: ${p.name}`)));
    return [lab(el, label), el];
  };
  const [oneLabel, one] = seat('wrong-a', 'The player booked in');
  const [twoLabel, two] = seat('wrong-b', 'really sat in the seat of');
  return h('details', {class: 'panel wrong-seats'}, h('summary', {class: 'btn btn-link'}, 'Players in the wrong seats?'),
    h('p', {class: 'hint'}, 'When two players sat in each other\'s places, swap their seats here: every hand stays '
      + 'as entered and its points go to the players who really sat there.'),
    oneLabel, one, twoLabel, two,
    does('Swap the seats', out, () => {
      if (!one.value || !two.value) return Promise.reject(new Error('Choose the two seats.'));
      if (!game.correction_open && game.correctable_until && !reason().trim()) {
        return Promise.reject(new Error('The table\'s correction window has closed: write your reason for the change first.'));
      }
      return calls.correctSeats(game, [Number(one.value), Number(two.value)], reason().trim());
    }, fixed, {sure: 'Tap again: the seats change in every game of this table', pending: 'Swapping…'}), out);
}
