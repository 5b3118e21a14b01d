/**
 * The game-over panel (`.game-over`): who won, a level game's settlement (playoff hand or
 * card draw), the sign-off by the players the server names, and the way to the next game.
 */

import * as api from '../api.js';
import {button, h, toast} from '../dom.js';
import {SIDES, sideName} from '../words.js';

function winnerLine(ctx) {
  const g = ctx.s.game;
  if (g.winner) {
    return h('p', {class: 'winner-line'}, `${sideName(g, g.winner)} win`,
      g.tie ? ` (level; ${g.tie.method === 'card-draw' ? 'card draw' : 'playoff hand'} won by `
        + `${sideName(g, g.tie.winner)})` : '',
      g.end === 'time' ? ' · time was called' : '');
  }
  if (g.forfeited_by) return h('p', {}, `Forfeited by ${sideName(g, g.forfeited_by)}.`);
  return null;
}

function settlement(ctx) {
  const {s} = ctx;
  const g = s.game;
  const parts = [h('p', {}, `Level at ${g.points.A}–${g.points.B}. Settle it by a playoff hand `
      + '(its points do not count) or, when time is short, a card draw.'),
  h('h3', {class: 'q'}, 'How was it settled?'),
  h('div', {class: 'choice-grid'},
    button('Playoff hand', () => { s.settleMethod = 'playoff-hand'; ctx.draw(); },
      {'aria-pressed': String(s.settleMethod === 'playoff-hand'), class: 'btn-choice',
        'data-k': 'm-playoff'}),
    button('Card draw', () => { s.settleMethod = 'card-draw'; ctx.draw(); },
      {'aria-pressed': String(s.settleMethod === 'card-draw'), class: 'btn-choice',
        'data-k': 'm-draw'}))];
  if (s.settleMethod) {
    parts.push(h('h3', {class: 'q'}, 'Who won it?'), h('div', {class: 'choice-grid'},
      SIDES.map((side) => button(h('span', {class: 'clamp'}, sideName(g, side)),
        () => ctx.act('settlement', async () => {
          s.game = await api.settleTie(s.game, s.settleMethod, side);
          s.settleMethod = null;
        }), {class: 'btn-choice', 'data-k': `settle-${side}`}))));
  }
  return parts;
}

/** The players the server names as signers (the side that lost; either side when a level
 * championship game stands) tap their name. */
function signOff(ctx) {
  const {s} = ctx;
  const g = s.game;
  const level = !g.winner;
  return [h('h3', {class: 'q'}, level ? 'Sign-off: a player confirms the score'
    : 'Sign-off: the side that lost confirms the score'),
  h('p', {class: 'hint'}, level
    ? 'The game ended level: a player of either side taps their name to agree it is right.'
    : 'A player of the side that lost taps their name to agree the score is right.'),
  h('div', {class: 'choice-grid'}, g.signers.map((p) => button(
    h('span', {class: 'clamp'}, p.name),
    () => ctx.act('sign-off', async () => {
      s.game = await api.signOff(s.game, p.name);
      toast(`Signed off by ${p.name}.`);
    }), {class: 'btn-choice', 'aria-label': `Sign off as ${p.name}`})))];
}

export function gameOver(ctx) {
  const {s, eid} = ctx;
  const g = s.game;
  const parts = [h('h2', {}, 'Game over'), winnerLine(ctx)];
  if (g.needs_settlement && s.covered) {
    parts.push(...settlement(ctx));
  } else if (g.needs_settlement) {
    parts.push(h('p', {}, `Level at ${g.points.A}–${g.points.B}: not settled yet.`));
  } else if (g.signed_off) {
    parts.push(h('p', {class: 'signed'}, `✓ Signed off by ${g.signed_off_by}.`));
  } else if (s.covered && g.signers?.length) {
    parts.push(...signOff(ctx));
  }
  const next = g.match.games.find((x) => !x.over && x.id !== g.id);
  if (next) {
    parts.push(h('a', {class: 'btn btn-primary', href: `/e/${eid}/games/${next.id}`},
      `Next: game ${next.number}`));
  }
  parts.push(h('a', {class: 'btn', href: `/e/${eid}/run`}, 'Your tables'));
  return h('section', {class: 'over game-over', 'aria-label': 'Game over'}, parts);
}
