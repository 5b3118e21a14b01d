/**
 * The taps a hand is entered with, shared by the entry pad, the renege walk and the edit form:
 * who called trump (each side by name, in little room, as on the score tiles), who went alone,
 * how many tricks; and the hand's request body from what was tapped. Each takes the data it
 * shows (the game as the server serves it, its points table) and calls `pick` with the tap.
 */

import {button, h, hidden} from '../dom.js';
import {SIDES, sideName, tricksLabel, tricksRows} from '../words.js';

/**
 * A side's name in little room: a team's name on two lines at most; a pair's names one line
 * each when they do not fit on one, cut short with an ellipsis (the whole name is still the
 * text, for screen readers and the score card's reader).
 */
export function sideLabel(game, side) {
  const info = game.sides[side];
  const people = info?.players || [];
  if (info?.team_id || people.length !== 2) {
    return h('span', {class: 'clamp'}, sideName(game, side));
  }
  return h('span', {class: 'pair'}, h('span', {}, `${people[0].name} `),
    h('span', {}, `& ${people[1].name}`));
}

export function sideButtons(game, current, pick, key) {
  return h('div', {class: 'choice-grid'}, SIDES.map((side) => button(
    sideLabel(game, side), () => pick(side),
    {'aria-pressed': String(current === side), class: 'btn-choice',
      'data-k': `${key}-${side}`})));
}

export function lonerButtons(game, maker, current, pick, key) {
  // A ghost's cards are played blind: it never goes alone, so it is not offered.
  const players = (game.sides[maker]?.players || []).filter((p) => p.player_id !== null);
  return [h('p', {class: 'q'}, 'Who went alone?'),
    h('div', {class: 'choice-grid'}, players.map((p) => button(
      h('span', {class: 'clamp'}, p.name), () => pick(p.seat),
      {'aria-pressed': String(current === p.seat), class: 'btn-choice',
        'data-k': `${key}-${p.seat}`})))];
}

export function tricksButtons(handValues, alone, enabled, pick, current = null, key = 'tricks') {
  return h('div', {class: 'tricks-grid'}, tricksRows(handValues, alone).map((row) =>
    button([h('span', {class: 'tricks-n'}, String(row.tricks)), hidden(' · '),
      h('span', {class: 'tricks-l'}, tricksLabel(row).split(' · ')[1])], () => pick(row.tricks), {
      disabled: !enabled, class: ['btn-tricks', `result-${row.result}`],
      'aria-pressed': current === null ? null : String(current === row.tricks),
      'data-k': `${key}-${row.tricks}`, 'data-tricks': row.tricks})));
}

/** The request body of a hand from what was tapped. */
export function handBody(sel, tricks, renege = null) {
  const body = {maker: sel.maker, tricks, alone: sel.alone};
  if (sel.alone && sel.loner) body.loner_seat = sel.loner;
  if (renege) body.renege = renege;
  return body;
}
