/**
 * /e/<id>/organize/ties: the teams format's championship cut and the playoffs a tie at the
 * cut needs (two teams: a short playoff, then a sudden-death hand; three or more: a round
 * robin), started and followed here; and, in every format, places still shared, settled by
 * the order the organizer records (rock-paper-scissors, a card draw, their decision).
 */

import {button, h, mount} from '../dom.js';
import {gameLink, section} from './league.js';
import * as calls from './calls.js';
import {msg} from './ui.js';

const PLAYOFFS = ['cut-playoff', 'final-playoff'];
const names = (list) => list.map((t) => t.name).join(', ');

export function render(main, {eventId}) {
  return section(main, Number(eventId), 'ties', 'Ties', calls.tiesView, paint);
}

function paint(s) {
  const {board, rounds} = s.d;
  mount(s.body, board.championship && cutCard(s),
    rounds.filter((r) => PLAYOFFS.includes(r.stage)).reverse().map((r) => playoffRound(s, r)),
    tiesCard(s));
}

function cutCard(s) {
  const {board: {championship: c}, plan} = s.d;
  const p = s.event?.format.parameters || {};
  const out = msg();
  const start = !plan.reason && (PLAYOFFS.includes(plan.stage) || plan.stage === 'championship');
  return h('section', {class: 'card cut'}, h('h2', {}, 'The championship cut'),
    !c.regular_rounds_done ? h('p', {}, `The top ${p.championship_teams} teams after round `
      + `${c.decided_after_rounds} play the championship; teams level at the cut play off.`) : [
      c.qualified.length > 0 && h('p', {}, h('strong', {}, 'Through: '), names(c.qualified)),
      c.contenders.length > 0 && h('p', {class: 'warn level-cut'}, h('strong', {}, 'Level at the cut: '),
        `${names(c.contenders)}, for ${c.spots} place${c.spots > 1 ? 's' : ''}. `, c.playoff === 'two-team'
          ? `A ${p.cut_playoff_hands}-hand playoff between the two, then a sudden-death hand while level.`
          : `A ${p.cut_playoff_hands}-hand round robin among them.`),
      c.reasons.length > 0 && h('ul', {class: 'plain-list cut-reasons'}, c.reasons.map((r) =>
        h('li', {'data-status': r.status}, h('strong', {}, r.name), `: ${r.reason}`))),
      c.finalists.length > 0 && h('p', {}, h('strong', {}, 'Championship: '), names(c.finalists)),
      c.champion && h('p', {}, h('strong', {}, 'Champion: '), c.champion.name)],
    start ? [h('h3', {}, `Next: ${plan.label}`), plan.notes.map((n) => h('p', {class: 'hint'}, n)),
      h('ul', {class: 'plain-list'}, plan.tables.map((t) => h('li', {}, `Table ${t.table}: `
        + `${t.team_a.name} v ${t.team_b.name}`))),
      s.act(`Start the ${plan.label.toLowerCase()}`, out, () => calls.seat(s.id, plan.number),
        () => `${plan.label}: seated.`, {class: 'btn-primary'})]
      : c.regular_rounds_done && plan.reason && h('p', {class: 'hint'}, plan.reason), out);
}

function playoffRound(s, r) {
  const out = msg();
  const live = r.status !== 'closed';
  return h('section', {class: 'card', 'data-round': r.number}, h('h2', {}, `${r.label} · round ${r.number}`),
    h('ul', {class: 'plain-list'}, r.tables.map((t) => {
      const side = {A: t.team_a.name, B: t.team_b.name};
      return h('li', {class: 'match'}, h('p', {class: 'match-line'}, h('span', {class: 'table-no'}, `Table ${t.table}`),
        h('strong', {}, side.A), 'v', h('strong', {}, side.B)),
      t.games.map((g) => [h('p', {class: 'game-list'}, gameLink(s.id, g, side),
        `${g.hands_played} of ${g.hands_per_game} hands`, g.winner ? ` · ${side[g.winner]} won` : ''),
      live && g.over && !g.winner && h('div', {class: 'panel'}, h('p', {class: 'warn'},
        'Level: who won the sudden-death hand?'), h('div', {class: 'actions'}, ['A', 'B'].map((k) =>
        s.act(side[k], out, () => calls.settle(s.id, g.id, k), () => `${side[k]} won the sudden-death hand.`))))]));
    })),
    r.status === 'playing' && s.act(`Close the ${r.label.toLowerCase()}`, out, () => calls.closeRound(s.id, r.id),
      () => `${r.label}: closed.`, {class: 'btn-primary'}), out);
}

function tiesCard(s) {
  const {board} = s.d;
  const out = msg();
  const named = new Map(board.rows.map((r) => [r.entrant_id, r.name]));
  return h('section', {class: 'card'}, h('h2', {}, 'Shared places'),
    h('p', {class: 'hint'}, 'Entrants level on every tie-break share a place until you record who '
      + 'finishes ahead: rock-paper-scissors, a card draw or your decision.',
    board.championship ? ' A tie at the cut is played off above: an order here only splits the table.' : ''),
    board.ties.length ? board.ties.map((group) => tieGroup(s, group)) : h('p', {}, 'No shared places.'),
    board.recorded_order.length > 0 && [h('h3', {}, 'The order you recorded'),
      h('ol', {class: 'recorded'}, board.recorded_order.map((e) => h('li', {}, named.get(e)))),
      s.act('Clear the recorded order', out, () => calls.tiebreak(s.id, []), () => 'The recorded order is cleared.')],
    out);
}

/** Tap the level entrants in finishing order, then record it (the last one is implied). */
function tieGroup(s, group) {
  const out = msg();
  const picked = [];
  const buttons = group.entrants.map((e) => button(e.name, (ev) => {
    if (picked.includes(e.id)) return;
    picked.push(e.id);
    ev.currentTarget.textContent = `${picked.length}. ${e.name}`;
    ev.currentTarget.setAttribute('aria-pressed', 'true');
  }, {'aria-pressed': 'false'}));
  const record = async () => {
    const ids = group.entrants.map((x) => x.id);
    if (picked.length < ids.length - 1) throw new Error(`Tap at least ${ids.length - 1} of them, in finishing order, first.`);
    const order = [...picked, ...ids.filter((x) => !picked.includes(x))];
    return calls.tiebreak(s.id, [...s.d.board.recorded_order.filter((x) => !order.includes(x)), ...order]);
  };
  const again = () => {
    picked.length = 0;
    buttons.forEach((b, i) => { b.textContent = group.entrants[i].name; b.setAttribute('aria-pressed', 'false'); });
  };
  return h('div', {class: 'tie-group', 'data-place': group.place},
    h('h3', {}, `Place ${group.place}: ${group.entrants.length} level`, group.affects_prizes ? ' · decides a prize' : ''),
    h('p', {class: 'hint'}, 'Tap the level entrants in finishing order (first place first), then record it.'),
    h('div', {class: 'actions'}, buttons), h('div', {class: 'actions'},
      s.act('Record this order', out, record, () => `Place ${group.place}: order recorded.`, {class: 'btn-primary'}),
      button('Start over', again)), out);
}
