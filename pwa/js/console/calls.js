/**
 * Every server call of the console, with the organizer key. `retry`: resent on a network
 * failure (reads, and writes that mean the same when repeated; pwa/README.md). `done`: the
 * refusal a repeat of a stored write gets ("season-exists"): on a retry, the call is done.
 */

import * as api from '../api.js';
import {organizerKey} from './frame.js';

const E = (id) => `/api/events/${id}`;
const retry = true;

async function call(eventId, method, path,
  {body, ifMatch, raw, retry: again = method === 'GET', done, reason} = {}) {
  const key = eventId ? await organizerKey(eventId) : null;
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await api.request(method, path, {body, key, ifMatch, reason});
      if (answer.status >= 400) {
        if (attempt > 1 && done && answer.data?.code === done) return {};
        throw new api.ApiError(answer.status, answer.data);
      }
      return raw ? answer : answer.data;
    } catch (error) {
      if (!(error instanceof api.OfflineError) || !again || attempt === 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 700 * attempt));
    }
  }
}

export const presets = () => call(null, 'GET', '/api/presets');
export const createEvent = (body) => call(null, 'POST', '/api/events', {body});
export const event = (id) => call(id, 'GET', E(id));
/** Mark the event finished, or open again (the same status twice is the same). */
export const setEvent = (id, body) => call(id, 'PATCH', E(id), {body, retry});
export const access = (id) => call(id, 'GET', `${E(id)}/access`);
export const keys = (id) => call(id, 'GET', `${E(id)}/keys`);
export const issueKey = (id, table, label) => call(id, 'POST', `${E(id)}/keys`, {body: {table, label}});
export const revokeKey = (id, keyId) => call(id, 'DELETE', `${E(id)}/keys/${keyId}`, {retry});
export const newPin = (id) => call(id, 'POST', `${E(id)}/pin`);
/** Runner links for the table cards, tables 1 to N (the cards printed before are revoked). */
export const tableCards = (id, tables) => call(id, 'POST', `${E(id)}/table-cards`, {body: {tables}});
export const newOrganizerKey = (id) => call(id, 'POST', `${E(id)}/organizer-key`);

/** A QR code drawn by the server, as a data: URL (the app's CSP allows those for images). */
export const qr = async (text, title = 'QR code') => `data:image/svg+xml;charset=utf-8,${
  encodeURIComponent((await call(null, 'POST', '/api/qr', {body: {text, title}, retry, raw: true})).text)}`;

export const players = (id) => call(id, 'GET', `${E(id)}/players`);
export const teams = (id) => call(id, 'GET', `${E(id)}/teams`);
// `people`: in a club's event, the organizer's decisions for names the club's registry only
// nearly knows ({name: person id | 'new'}); see decide.js.
export const addPlayer = (id, name, here, people) =>
  call(id, 'POST', `${E(id)}/players`, {body: {name, checked_in: here, people}});
export const addTeam = (id, name, members, here, people, division = null) =>
  call(id, 'POST', `${E(id)}/teams`, {body: {name, players: members, checked_in: here, people, division}});
export const setEntrant = (id, teams, entrantId, body) =>
  call(id, 'PATCH', `${E(id)}/${teams ? 'teams' : 'players'}/${entrantId}`, {body, retry});
export const importCsv = (id, csv, people) => call(id, 'POST', `${E(id)}/import`, {body: {csv, people}});

export const rounds = (id) => call(id, 'GET', `${E(id)}/rounds`);
/** The next round's preview, or {ready: false, code, reason}: why none can be seated now. */
export const next = (id) => call(id, 'GET', `${E(id)}/rounds/next`);
export const round = (roundId) => call(null, 'GET', `/api/rounds/${roundId}`);
/** Seat round `number`: a retry whose first try was stored hears "already seated": done. */
export const seat = (id, number, balanced) => call(id, 'POST', `${E(id)}/rounds`, {body: {number, balanced}, retry})
  .catch((error) => {
    if (error.code === 'round-exists' && error.problem.round_id) return round(error.problem.round_id);
    throw error;
  });
/** Call time, close, reopen, (re)start the clock: each means the same when repeated. */
export const roundDo = (id, roundId, what, body) => call(id, 'POST', `/api/rounds/${roundId}/${what}`, {body, retry});
export const closeRound = (id, roundId) => roundDo(id, roundId, 'close');
export const leaderboard = (id) => call(id, 'GET', `${E(id)}/leaderboard`);
/** Low Score, High Game and the bump cup (per player, per table, in all). */
export const awards = (id) => call(id, 'GET', `${E(id)}/awards`);

export const game = (gameId) => call(null, 'GET', `/api/games/${gameId}`);
/** Two seated entrants change places before their tables' first hand. Sent once: a repeat
 * would swap them back. */
export const swapSeats = (id, roundId, a, b) => call(id, 'POST', `/api/rounds/${roundId}/swap`, {body: {a, b}});
/** Players who sat in each other's seats: swapped, hands kept; with the game's version (and,
 * after the table's correction window, the organizer's reason as X-Reason). */
export const correctSeats = (game, seats, reason) => call(game.event_id, 'POST', `/api/games/${game.id}/seats/swap`,
  {body: {seats}, ifMatch: game.version, reason});

/** A change to a hand carries the version the organizer saw: a change made meanwhile is a 412. */
export const changeHand = (game, handId, body, reason) => call(game.event_id, body ? 'PUT' : 'DELETE',
  `/api/games/${game.id}/hands/${encodeURIComponent(handId)}`, {body, ifMatch: game.version, reason});
export const addRuling = (game, body) => call(game.event_id, 'POST', `/api/games/${game.id}/rulings`, {body});
export const withdrawRuling = (game, rulingId, reason) => call(game.event_id, 'DELETE',
  `/api/games/${game.id}/rulings/${rulingId}`, {body: {reason}});
export const take = (game, number, take) => call(game.event_id, 'POST', `/api/games/${game.id}/mismatches/${number}/settle`, {body: {take}, retry});
export const reopenGame = (game) => call(game.event_id, 'POST', `/api/games/${game.id}/reopen`, {retry});
export const organizerCalls = (id) => call(id, 'GET', `${E(id)}/calls`);
export const answerCall = (id, callId) => call(id, 'POST', `${E(id)}/calls/${callId}/answer`, {retry});
export const audit = (id, table) => call(id, 'GET', `${E(id)}/audit${table ? `?table=${table}` : ''}`);
export const scoresheets = (id) => call(id, 'GET', `${E(id)}/scoresheets`);

/** An export as a Blob (a link cannot carry the key), with the BOM the decoder dropped, and
 * the file name the server gives it (the event's name in it: "friday-night-standings.csv"). */
export async function download(id, name) {
  const answer = await call(id, 'GET', `${E(id)}/export/${name}`, {raw: true});
  const named = /filename="([^"]+)"/.exec(answer.disposition || '');
  return {blob: new Blob([`\ufeff${answer.text}`], {type: 'text/csv'}), filename: named ? named[1] : name};
}

// --- the League and Ties sections -------------------------------------------------------------
// Each of these means the same when repeated (forfeits, seats and orders are put, not added;
// a forfeit taken back again is answered as taken back), so it is tried again when the
// network fails.

/** Everything the League section shows, read together. */
export async function leagueView(id) {
  const [season, weeks, board, bracket, entered, plan] = await Promise.all([
    call(id, 'GET', `${E(id)}/season`), rounds(id), leaderboard(id),
    call(id, 'GET', `${E(id)}/bracket`), teams(id), next(id)]);
  return {season, rounds: weeks, board, bracket, teams: entered, plan};
}

/** Everything the Ties section shows, read together. */
export async function tiesView(id) {
  const [played, board, plan] = await Promise.all([rounds(id), leaderboard(id), next(id)]);
  return {rounds: played, board, plan};
}

export const schedule = (id, weeks, firstNight = null, startTime = null, divisionFinal = false) =>
  call(id, 'POST', `${E(id)}/season`, {body: {weeks, first_night: firstNight, start_time: startTime,
    division_final: divisionFinal}, retry, done: 'season-exists'});
export const postpone = (id, week, reason) => call(id, 'POST', `${E(id)}/season/postpone`, {body: {week, reason}});
export const forfeit = (id, matchId, body) =>
  call(id, 'POST', `/api/matches/${matchId}/forfeits`, {body, retry});
export const takeBack = (id, teamId, week) =>
  call(id, 'DELETE', `${E(id)}/teams/${teamId}/advance-forfeits/${week}`, {retry});
export const seatPlayer = (id, matchId, seat, player) =>
  call(id, 'PUT', `/api/matches/${matchId}/seats`, {body: {seat, player_id: player}, retry});
export const addSub = (id, teamId, name) => call(id, 'POST', `${E(id)}/teams/${teamId}/substitutes`,
  {body: {name}, retry, done: 'duplicate-name'});
export const playoffOut = (id, teamId, out) =>
  call(id, 'PATCH', `${E(id)}/teams/${teamId}`, {body: {playoff_excluded: out}, retry});
export const tiebreak = (id, order) => call(id, 'PUT', `${E(id)}/tiebreak`, {body: {order}, retry});
export const settle = (id, gameId, winner, method = 'playoff-hand', reason = '') =>
  call(id, 'POST', `/api/games/${gameId}/settlement`, {body: {method, winner}, retry, reason});

// --- the Prizes section: money, disqualification, named awards, categories, door prizes -------
// Each is put whole (the same body twice means the same), so each is tried again on a network
// failure; a draw is not (two draws are two draws).

export const money = (id) => call(id, 'GET', `${E(id)}/money`);
export const setMoney = (id, body) => call(id, body ? 'PUT' : 'DELETE', `${E(id)}/money`, {body, retry});
export const namedAwards = (id) => call(id, 'GET', `${E(id)}/named-awards`);
export const setNamedAwards = (id, awards) => call(id, 'PUT', `${E(id)}/named-awards`, {body: {awards}, retry});
export const categories = (id) => call(id, 'GET', `${E(id)}/categories`);
export const setCategories = (id, list) => call(id, 'PUT', `${E(id)}/categories`, {body: {categories: list}, retry});
export const draws = (id) => call(id, 'GET', `${E(id)}/draws`);
export const draw = (id, body) => call(id, 'POST', `${E(id)}/draws`, {body});
/** Draw N again from its own candidate list and seed: a check, nothing is stored. */
export const repeatDraw = (id, number) => call(id, 'GET', `${E(id)}/draws/${number}/repeat`);

// --- the scorekeepers' desk --------------------------------------------------------------------
/** A WEC game's sheet entered the first time (final points, bumps per seat): the same sheet
 * twice means the same, so it is tried again on a network failure. */
export const putSheet = (game, body, ifMatch) =>
  call(game.event_id, 'PUT', `/api/games/${game.id}/sheet`, {body, ifMatch, retry});
/** A game's hands from its paper sheet, whole: the same sheet id twice is stored once. */
export const paperSheet = (game, body) =>
  call(game.event_id, 'POST', `/api/games/${game.id}/paper-sheet`, {body, retry});

/** League operations (league/organize.js): registration, captains' links, make-ups, moves. */
export const leagueOps = (id, method, path, body) => call(id, method, `${E(id)}${path}`, {body});
