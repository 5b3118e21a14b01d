/**
 * The top of the game screen (`.game-head`): the table and round, whose deal it is (as the
 * server says, a ghost's cards dealt by its partner), and the progress of the game.
 */

import {h} from '../dom.js';
import {progressWords} from '../words.js';

/** "Deal: Ann", or "Deal: Bob for the ghost (seat 4)": the game view's `dealing`. */
function dealWords(game) {
  const d = game.dealing;
  if (!d) return '';
  if (d.for_ghost) return `Deal: ${d.name || 'its partner'} for the ghost (seat ${d.seat})`;
  return `Deal: ${d.name || `seat ${d.seat}`}`;
}

export function gameHead(ctx) {
  const g = ctx.s.game;
  const deal = dealWords(g);
  return h('section', {class: 'game-head', 'aria-label': 'Game'},
    h('h1', {class: 'game-title'}, `Table ${g.table} · ${g.round.label}`,
      g.match.games_planned > 1 ? ` · game ${g.number}` : ''),
    deal && h('p', {class: 'deal'}, deal),
    h('p', {class: 'game-progress'}, progressWords(g, ctx.waiting())));
}
