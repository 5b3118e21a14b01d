/**
 * The score tiles (`.scores`), the largest thing on the screen, and the notes under them: what
 * the score counts (hands not sent yet, no network), hands the server refused, and what the
 * last action came to when it did not go through. While hands wait on this phone the tiles
 * show the provisional score (the server's plus their points-table values), marked so.
 */

import {h, hidden, refill} from '../dom.js';
import {provisionalScore} from '../provisional.js';
import {SIDES, plural, sideName} from '../words.js';
import {sideLabel} from './hand-taps.js';

/** The score to show: the server's, or while hands wait on this phone (and the game is not
 * over), the provisional one with those hands' table values added (provisional.js). */
export function shownScore({game: g, pending, format}) {
  // Where both pairs agree each hand (g.verification), a hand sent is not counted yet either.
  if (!pending.length || g.over || g.verification) {
    return {points: g.points, added: null, hands: 0, missing: null};
  }
  return provisionalScore(g.points, pending, format, g.hands.map((x) => x.id));
}

/** The tiles' element, filled again from the store (game-store.js) on each view. */
export function scores(store) {
  const el = h('section', {'aria-label': 'Score'});
  return {el, view() {
    const g = store.game;
    const shown = shownScore(store);
    const provisional = shown.hands > 0;
    const need = (side) => Math.max(g.points_to_target[side] - (shown.added?.[side] || 0), 0);
    el.className = ['scores', provisional && 'is-provisional'].filter(Boolean).join(' ');
    return refill(el, SIDES.map((side) =>
      h('div', {class: ['side', `side-${side.toLowerCase()}`, g.winner === side && 'winner']},
        h('p', {class: 'side-name'}, sideLabel(g, side)),
        h('p', {class: 'side-points', 'data-side': side}, hidden(`${sideName(g, side)}: `),
          String(shown.points[side]), hidden(' points')),
        g.points_to_target && !g.over && h('p', {class: 'side-need'}, `needs ${need(side)}`))),
    provisional && h('p', {class: 'provisional-mark', role: 'status'},
      h('strong', {}, 'Provisional'), ': ',
      h('a', {href: '/outbox'}, `${plural(shown.hands, 'hand')} not sent yet`)));
  }};
}

/** What is not sent, what was refused, and any notice from the last action. */
function notes(s) {
  const items = [];
  const bits = [];
  // The provisional mark on the tiles already says how many hands wait (and links to them).
  const shown = shownScore(s);
  if (!s.fresh) bits.push('No network');
  if (s.pending.length && !shown.hands) {
    bits.push(h('a', {href: '/outbox'}, `${plural(s.pending.length, 'hand')} not sent yet`));
  }
  if (bits.length) {
    let why;
    if (shown.missing) {
      why = `: the score is the server's last one, without them (this event's format as kept `
        + `on this phone does not say ${shown.missing}, so they are not guessed).`;
    } else if (shown.hands) {
      why = ': the score adds the waiting hands up from this event\'s points table until the '
        + 'server confirms it.';
    } else {
      why = s.fresh ? ': the score counts what the server has so far.'
        : ': the score is the last one known.';
    }
    items.push(h('p', {class: 'note game-note'}, bits.flatMap((b, i) => (i ? [' · ', b] : [b])),
      why));
  }
  if (s.refused.length) {
    items.push(h('p', {class: 'error game-note'}, h('a', {href: '/outbox'},
      `${plural(s.refused.length, 'hand')} refused by the server`),
    ': see why, then try again or discard.'));
  }
  if (s.notice) {
    items.push(h('p', {class: s.notice.kind === 'error' ? 'error' : 'note warn', role: 'alert'},
      s.notice.text));
  }
  return items;
}

/** The notes' element under the tiles (game-store.js's notice among them). */
export function scoreNotes(store) {
  const el = h('div', {class: 'game-notes'});
  return {el, view: () => refill(el, notes(store))};
}
