/**
 * The League and Ties sections' server calls, on api.request with the organizer key.
 *
 * Each call means the same when repeated (forfeits, seats and orders are put, not added), so
 * it is tried again when the network fails; where a repeat of a stored write is refused
 * (`done`: "season-exists", "round-exists", "duplicate-name"), the retry counts as done.
 */

import * as api from '../api.js';
import {organizerKey} from './frame.js';

const E = (id) => `/api/events/${id}`;

async function call(id, method, path, body, done) {
  const key = await organizerKey(id);
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await api.request(method, path, {body, key});
      if (answer.status < 400) return answer.data;
      if (attempt > 1 && answer.data?.code === done) return {};
      throw new api.ApiError(answer.status, answer.data);
    } catch (error) {
      if (!(error instanceof api.OfflineError) || attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 800 * attempt));
    }
  }
}

const get = (id, path) => call(id, 'GET', E(id) + path);
/** What comes next (a week, a playoff round), or {ready: false, reason} when nothing can
 * start now. */
const next = (id) => get(id, '/rounds/next');

/** Everything the League section shows, read together. */
export async function league(id) {
  const [season, rounds, board, bracket, teams, plan] = await Promise.all([get(id, '/season'),
    get(id, '/rounds'), get(id, '/leaderboard'), get(id, '/bracket'), get(id, '/teams'), next(id)]);
  return {season, rounds, board, bracket, teams, plan};
}

export async function ties(id) {
  const [rounds, board, plan] = await Promise.all([get(id, '/rounds'), get(id, '/leaderboard'), next(id)]);
  return {rounds, board, plan};
}

export const schedule = (id, weeks) => call(id, 'POST', `${E(id)}/season`, {weeks}, 'season-exists');
/** Open week N or draw playoff round N: the number makes a repeat seat nothing. */
export const seat = (id, number) => call(id, 'POST', `${E(id)}/rounds`, {number}, 'round-exists');
export const close = (id, roundId) => call(id, 'POST', `/api/rounds/${roundId}/close`);
export const forfeit = (id, matchId, body) => call(id, 'POST', `/api/matches/${matchId}/forfeits`, body);
export const seatPlayer = (id, matchId, seat, player) =>
  call(id, 'PUT', `/api/matches/${matchId}/seats`, {seat, player_id: player});
export const addSub = (id, teamId, name) =>
  call(id, 'POST', `${E(id)}/teams/${teamId}/substitutes`, {name}, 'duplicate-name');
export const playoffOut = (id, teamId, out) =>
  call(id, 'PATCH', `${E(id)}/teams/${teamId}`, {playoff_excluded: out});
export const tiebreak = (id, order) => call(id, 'PUT', `${E(id)}/tiebreak`, {order});
export const settle = (id, gameId, winner) =>
  call(id, 'POST', `/api/games/${gameId}/settlement`, {method: 'playoff-hand', winner});
