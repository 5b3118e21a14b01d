/**
 * The top of the game screen (`.game-head`): the table and round, whose deal it is (as the
 * server says, a ghost's cards dealt by its partner), and the progress of the game.
 */

import {h, refill} from '../dom.js';
import {progressWords} from '../words.js';

/** "Deal: Ann", or "Deal: Bob for the ghost (seat 4)": the game view's `dealing`. */
function dealWords(game) {
  const d = game.dealing;
  if (!d) return '';
  if (d.for_ghost) return `Deal: ${d.name || 'its partner'} for the ghost (seat ${d.seat})`;
  return `Deal: ${d.name || `seat ${d.seat}`}`;
}

/** The head's element, filled again from the store (game-store.js) on each view. */
export function gameHead(store) {
  const el = h('section', {class: 'game-head', 'aria-label': 'Game'});
  return {el, view() {
    const g = store.game;
    const deal = dealWords(g);
    return refill(el, h('h1', {class: 'game-title'}, `Table ${g.table} · ${g.round.label}`,
      g.match.games_planned > 1 ? ` · game ${g.number}` : ''),
    deal && h('p', {class: 'deal'}, deal),
    h('p', {class: 'game-progress'}, progressWords(g, store.waiting())));
  }};
}
