/** A runner's tables in the current round (one key may cover one table or all of them). */

import * as api from '../api.js';
import {h, mount, setTitle} from '../dom.js';
import {joinForm} from './home.js';

function currentRound(rounds) {
  const playing = rounds.filter((r) => r.status === 'playing');
  return (playing.length ? playing : rounds).at(-1) || null;
}

/** The game a runner should open at a table: the first unfinished one, else the last. */
function gameOf(table) {
  return table.games.find((g) => !g.over) || table.games.at(-1) || null;
}

function tableCard(eventId, table) {
  const game = gameOf(table);
  const names = (seats) => seats.map((s) => s.name).join(' & ');
  const sideA = table.team_a?.name || names(table.seats.filter((s) => s.seat % 2 === 1));
  const sideB = table.team_b?.name || names(table.seats.filter((s) => s.seat % 2 === 0));
  const state = game ? (game.signed_off ? 'signed off' : game.over ? 'finished'
    : `${game.hands_played} hands played`) : 'no game';
  const body = [h('span', {class: 'table-no'}, `Table ${table.table}`),
    h('span', {class: 'table-sides'}, `${sideA} v ${sideB}`),
    game && h('span', {class: 'table-score'}, `${game.points.A} – ${game.points.B}`),
    h('span', {class: 'table-state'}, state)];
  return h('li', {}, game
    ? h('a', {class: 'table-card', href: `/e/${eventId}/games/${game.id}`}, body)
    : h('div', {class: 'table-card'}, body));
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  setTitle('Your tables');
  const mine = await api.keysOf(id);
  if (!mine.length) {
    mount(main, h('h1', {class: 'page-title'}, 'Your tables'),
      h('p', {}, 'This phone has no key for this event yet.'), joinForm());
    return;
  }
  mount(main, h('p', {class: 'loading'}, 'Loading the tables…'));
  let rounds;
  let fresh = true;
  try {
    ({data: rounds, fresh} = await api.getRounds(id));
  } catch (error) {
    mount(main, h('p', {class: 'error', role: 'alert'}, error.message));
    return;
  }
  const round = currentRound(rounds);
  const all = mine.some((k) => k.role === 'organizer' || k.table === null);
  const covered = new Set(mine.map((k) => k.table));
  const tables = round ? round.tables.filter((t) => all || covered.has(t.table)) : [];
  setTitle(round ? `${round.label} · your tables` : 'Your tables');
  mount(main,
    h('h1', {class: 'page-title'}, mine[0].eventName),
    !fresh && h('p', {class: 'note'}, 'No network: these are the tables as last seen.'),
    !round && h('p', {}, 'No round is seated yet. Come back when the organizer seats round 1.'),
    round && h('h2', {}, `${round.label}: ${all ? 'every table' : 'your tables'}`),
    round && !tables.length && h('p', {}, 'None of your tables plays in this round.'),
    h('ul', {class: 'table-list'}, tables.map((t) => tableCard(id, t))),
    h('p', {class: 'actions'},
      h('a', {class: 'btn', href: `/e/${id}/board`}, 'Leaderboard'),
      !all && h('a', {class: 'btn', href: '/'}, 'Add another table')));
}
