/**
 * A runner's tables in the current round (one key may cover one table or all of them). Read
 * online, every listed game is kept on the phone at once, so each opens with no network later,
 * even one never opened before (a runner covering several tables walks between them).
 */

import * as api from '../api.js';
import {h, mount, setTitle} from '../dom.js';
import {plural} from '../words.js';
import {joinForm} from './home.js';

function currentRound(rounds) {
  const playing = rounds.filter((r) => r.status === 'playing');
  return (playing.length ? playing : rounds).at(-1) || null;
}

/** The game a runner should open at a table: the first unfinished one, else the last. */
function gameOf(table) {
  return table.games.find((g) => !g.over) || table.games.at(-1) || null;
}

const SETTLED_BY = {'card-draw': 'the card draw', 'playoff-hand': 'the playoff hand'};

/** Where a game stands, in words: who won (and how a level game was settled), time called. */
function stateWords(game, full, sides) {
  const played = plural(game.hands_played, 'hand');
  const parts = game.end === 'time' ? [`Time was called after ${played}`] : [];
  if (!game.over) {
    parts.push(`${played} played`);
  } else if (game.winner && game.level) {
    // Level on points: the playoff hand or card draw decided it (the whole game says which).
    parts.push(`level; ${sides[game.winner]} won ${SETTLED_BY[full?.tie?.method] || 'the tie'}`);
  } else if (game.winner) {
    parts.push(`${sides[game.winner]} won`);
  } else if (game.level) {
    parts.push('level, not settled yet');
  } else {
    parts.push('finished');
  }
  if (game.signed_off) parts.push('signed off');
  return parts.join(' · ');
}

function tableCard(eventId, table, games) {
  const game = gameOf(table);
  const names = (seats) => seats.map((s) => s.name).join(' & ');
  const sides = {A: table.team_a?.name || names(table.seats.filter((s) => s.side === 'A')),
    B: table.team_b?.name || names(table.seats.filter((s) => s.side === 'B'))};
  const body = [h('span', {class: 'table-no'}, `Table ${table.table}`),
    h('span', {class: 'table-sides'}, `${sides.A} v ${sides.B}`),
    game && h('span', {class: 'table-score'}, `${game.points.A} – ${game.points.B}`),
    h('span', {class: 'table-state'}, game ? stateWords(game, games.get(game.id), sides)
      : 'no game')];
  return h('li', {}, game
    ? h('a', {class: 'table-card', href: `/e/${eventId}/games/${game.id}`}, body)
    : h('div', {class: 'table-card'}, body));
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  let left = false;
  setTitle('Your tables');
  const mine = await api.keysOf(id);
  if (!mine.length) {
    mount(main, h('h1', {class: 'page-title'}, 'Your tables'),
      h('p', {}, 'This phone has no key for this event yet.'), joinForm());
    return null;
  }
  mount(main, h('p', {class: 'loading'}, 'Loading the tables…'));
  let rounds;
  let fresh = true;
  try {
    ({data: rounds, fresh} = await api.getRounds(id));
  } catch (error) {
    mount(main, h('p', {class: 'error', role: 'alert'}, error.message));
    return null;
  }
  const round = currentRound(rounds);
  const all = mine.some((k) => k.role === 'organizer' || k.table === null);
  const covered = new Set(mine.map((k) => k.table));
  const tables = round ? round.tables.filter((t) => all || covered.has(t.table)) : [];
  const gameIds = tables.flatMap((t) => t.games.map((g) => g.id));
  // The whole games as last kept here (a level game's settlement is only in the whole game).
  const games = new Map();
  for (const gid of gameIds) {
    const kept = await api.cachedGame(gid);
    if (kept) games.set(gid, kept);
  }
  const list = h('ul', {class: 'table-list'});
  const ready = h('p', {class: 'hint offline-ready', 'aria-live': 'polite'});
  const drawList = () => mount(list, tables.map((t) => tableCard(id, t, games)));
  setTitle(round ? `${round.label} · your tables` : 'Your tables');
  drawList();
  mount(main,
    h('h1', {class: 'page-title'}, mine[0].eventName),
    !fresh && h('p', {class: 'note'}, 'No network: these are the tables as last seen.'),
    !round && h('p', {}, 'No round is seated yet. Come back when the organizer seats round 1.'),
    round && h('h2', {}, `${round.label}: ${all ? 'every table' : 'your tables'}`),
    round && !tables.length && h('p', {}, 'None of your tables plays in this round.'),
    list, ready,
    h('p', {class: 'actions'},
      h('a', {class: 'btn', href: `/e/${id}/board`}, 'Leaderboard'),
      !all && h('a', {class: 'btn', href: '/'}, 'Add another table')));

  if (fresh && gameIds.length) {
    api.keepForOffline(id, gameIds).then(({games: read, complete}) => {
      if (left) return;
      for (const [gid, game] of read) games.set(gid, game);
      drawList();
      if (complete) {
        ready.textContent = gameIds.length > 1 ? 'Kept on this phone: these tables open with no '
          + 'network too.' : 'Kept on this phone: this table opens with no network too.';
      }
    });
  }
  return () => { left = true; };
}
