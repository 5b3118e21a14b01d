/**
 * The game-over panel (`.game-over`): who won, a level game's settlement (playoff hand or
 * card draw), the sign-off by the players the server names (none where both pairs agree each
 * hand: RULES.md §7), and the way to the next game. The panel keeps which way of settling was
 * tapped. Once the correction window has closed (the game read's `correction_open` says so)
 * the table can no longer settle or sign off, so the panel says the organizer does it now
 * instead of offering buttons the server would refuse.
 */

import * as api from '../api.js';
import {button, h, refill, toast} from '../dom.js';
import {SIDES, sideName, timeOfDay} from '../words.js';

function winnerLine(g) {
  if (g.winner) {
    return h('p', {class: 'winner-line'}, `${sideName(g, g.winner)} win`,
      g.tie ? ` (level; ${g.tie.method === 'card-draw' ? 'card draw' : 'playoff hand'} won by `
        + `${sideName(g, g.tie.winner)})` : '',
      g.end === 'time' ? ' · time was called' : '');
  }
  if (g.forfeited_by) return h('p', {}, `Forfeited by ${sideName(g, g.forfeited_by)}.`);
  return null;
}

/** How a level game was settled (`method`, tapped here) and who won it, sent by `settle`. */
function settlement(g, method, pick, settle) {
  const parts = [h('p', {}, `Level at ${g.points.A}–${g.points.B}. Settle it by a playoff hand `
      + '(its points do not count) or, when time is short, a card draw.'),
  h('h3', {class: 'q'}, 'How was it settled?'),
  h('div', {class: 'choice-grid'},
    button('Playoff hand', () => pick('playoff-hand'),
      {'aria-pressed': String(method === 'playoff-hand'), class: 'btn-choice',
        'data-k': 'm-playoff'}),
    button('Card draw', () => pick('card-draw'),
      {'aria-pressed': String(method === 'card-draw'), class: 'btn-choice',
        'data-k': 'm-draw'}))];
  if (method) {
    parts.push(h('h3', {class: 'q'}, 'Who won it?'), h('div', {class: 'choice-grid'},
      SIDES.map((side) => button(h('span', {class: 'clamp'}, sideName(g, side)),
        () => settle(side), {class: 'btn-choice', 'data-k': `settle-${side}`}))));
  }
  return parts;
}

/** The players the server names as signers (the side that lost; either side when a level
 * championship game stands) tap their name. */
function signOff(store) {
  const g = store.game;
  const level = !g.winner;
  return [h('h3', {class: 'q'}, level ? 'Sign-off: a player confirms the score'
    : 'Sign-off: the side that lost confirms the score'),
  h('p', {class: 'hint'}, level
    ? 'The game ended level: a player of either side taps their name to agree it is right.'
    : 'A player of the side that lost taps their name to agree the score is right.'),
  h('div', {class: 'choice-grid'}, g.signers.map((p) => button(
    h('span', {class: 'clamp'}, p.name),
    () => store.act('sign-off', async (game) => {
      const signed = await api.signOff(game, p.name);
      toast(`Signed off by ${p.name}.`);
      return signed;
    }), {class: 'btn-choice', 'aria-label': `Sign off as ${p.name}`})))];
}

/** The table's correction window has closed: who may change the game now. Said here only
 * (Call the organizer sits right below this panel, and the hands list says nothing more).
 * Whether a sign-off is wanted is the server's word: it names signers only where the event
 * checks scores by sign-off, so under confirm each hand or double entry the result stands. */
function windowClosed(g) {
  const at = timeOfDay(g.correctable_until);
  const closed = `the correction window closed${at ? ` at ${at}` : ''}`;
  const words = g.signed_off || !(g.needs_settlement || g.signers?.length)
    ? `This result stands: ${closed}, so only the organizer can change it now.`
    : g.needs_settlement
      ? `Level at ${g.points.A}–${g.points.B}, not settled: ${closed}, so only the organizer can settle it or change it now.`
      : `Not signed off: ${closed}, so only the organizer can sign it off or change it now.`;
  return h('p', {class: 'note late-over'}, words);
}

export function gameOver(store) {
  const el = h('section', {class: 'over game-over', 'aria-label': 'Game over'});
  let method = null; // how a level game was settled, once tapped
  const pick = (tapped) => { method = tapped; view(); };
  const settle = (side) => store.act('settlement', async (game) => {
    const settled = await api.settleTie(game, method, side);
    method = null;
    return settled;
  });

  function view() {
    const g = store.game;
    const parts = [h('h2', {}, 'Game over'), winnerLine(g)];
    // The server decides when the window has closed (an older read kept on this phone may
    // lack the field: then the buttons stay and the server answers).
    const late = g.correction_open === false;
    const level = g.needs_settlement && h('p', {}, `Level at ${g.points.A}–${g.points.B}: not settled yet.`);
    if (g.signed_off) parts.push(h('p', {class: 'signed'}, `✓ Signed off by ${g.signed_off_by}.`));
    if (late) {
      parts.push(windowClosed(g));
    } else if (g.needs_settlement) {
      parts.push(...(store.covered ? settlement(g, method, pick, settle) : [level]));
    } else if (store.covered && !g.signed_off && g.signers?.length) { // under sign-off only
      parts.push(...signOff(store));
    }
    const next = g.match.games.find((x) => !x.over && x.id !== g.id);
    if (next) {
      parts.push(h('a', {class: 'btn btn-primary', href: `/e/${store.eid}/games/${next.id}`},
        `Next: game ${next.number}`));
    }
    parts.push(h('a', {class: 'btn', href: `/e/${store.eid}/run`}, 'Your tables'));
    return refill(el, parts);
  }
  return {el, view};
}
