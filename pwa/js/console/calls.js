/**
 * Every server call the organizer console makes, on api.request with the event's organizer key.
 * Console screens call these and never fetch themselves.
 *
 * Safe retries: a call marked `retry` (reads, and writes that mean the same thing when repeated:
 * check-in, withdraw, call time, close, seat round N, revoke) is tried again when the network
 * fails. Others (add a player, issue a key, import) are sent once: the screen says it may not
 * have been stored and reloads what the server has, so nothing is stored twice behind its back.
 */

import * as api from '../api.js';
import {organizerKey} from './frame.js';

const E = (id) => `/api/events/${id}`;
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(eventId, method, path, {body, ifMatch, retry = method === 'GET', raw} = {}) {
  const key = eventId ? await organizerKey(eventId) : null;
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await api.request(method, path, {body, key, ifMatch});
      if (answer.status >= 400) throw new api.ApiError(answer.status, answer.data);
      return raw ? answer : answer.data;
    } catch (error) {
      if (!(error instanceof api.OfflineError) || !retry || attempt === 3) throw error;
      await wait(700 * attempt);
    }
  }
}

const retry = true;

// --- events, access and keys ------------------------------------------------------------------
export const presets = () => call(null, 'GET', '/api/presets');
/** Not retried: a second POST would create a second event. */
export const createEvent = (body) => call(null, 'POST', '/api/events', {body});
export const event = (id) => call(id, 'GET', E(id));
export const setEvent = (id, body) => call(id, 'PATCH', E(id), {body, retry});
export const access = (id) => call(id, 'GET', `${E(id)}/access`);
export const keys = (id) => call(id, 'GET', `${E(id)}/keys`);
export const issueKey = (id, table, label) =>
  call(id, 'POST', `${E(id)}/keys`, {body: {table, label}});
export const revokeKey = (id, keyId) => call(id, 'DELETE', `${E(id)}/keys/${keyId}`, {retry});
export const newPin = (id) => call(id, 'POST', `${E(id)}/pin`);
export const newOrganizerKey = (id) => call(id, 'POST', `${E(id)}/organizer-key`);

/** A QR code drawn by the server for any text (a link with a key stays out of URLs), as a
 * data: URL an <img> can show under the app's CSP. */
export async function qr(text, title = 'QR code') {
  const answer = await call(null, 'POST', '/api/qr', {body: {text, title}, retry, raw: true});
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(answer.text)}`;
}

// --- players and teams --------------------------------------------------------------------------
export const players = (id) => call(id, 'GET', `${E(id)}/players`);
export const teams = (id) => call(id, 'GET', `${E(id)}/teams`);
export const addPlayer = (id, name, here) =>
  call(id, 'POST', `${E(id)}/players`, {body: {name, checked_in: here}});
export const addTeam = (id, name, members, here) =>
  call(id, 'POST', `${E(id)}/teams`, {body: {name, players: members, checked_in: here}});
export const setPlayer = (id, playerId, changes) =>
  call(id, 'PATCH', `${E(id)}/players/${playerId}`, {body: changes, retry});
export const setTeam = (id, teamId, changes) =>
  call(id, 'PATCH', `${E(id)}/teams/${teamId}`, {body: changes, retry});
export const importCsv = (id, csv) => call(id, 'POST', `${E(id)}/import`, {body: {csv}});

// --- rounds -------------------------------------------------------------------------------------
export const rounds = (id) => call(id, 'GET', `${E(id)}/rounds`);
export const plan = (id) => call(id, 'GET', `${E(id)}/rounds/next`);
export const round = (roundId) => call(null, 'GET', `/api/rounds/${roundId}`);

/** Seat round `number`. The number makes a repeat harmless: when the first try was stored but
 * its answer lost, the retry hears "already seated" and we show that round. */
export async function seat(id, number) {
  try {
    return await call(id, 'POST', `${E(id)}/rounds`, {body: {number}, retry});
  } catch (error) {
    if (error.code === 'round-exists' && error.problem.round_id) return round(error.problem.round_id);
    throw error;
  }
}

const roundWrite = (id, roundId, what, body) =>
  call(id, 'POST', `/api/rounds/${roundId}/${what}`, {body, retry});
export const startClock = (id, roundId, minutes) => roundWrite(id, roundId, 'clock', {minutes});
export const callTime = (id, roundId) => roundWrite(id, roundId, 'time');
export const closeRound = (id, roundId) => roundWrite(id, roundId, 'close');
export const reopenRound = (id, roundId) => roundWrite(id, roundId, 'reopen');

// --- games and corrections ----------------------------------------------------------------------
export const game = (gameId) => call(null, 'GET', `/api/games/${gameId}`);
const hand = (game, handId) => `/api/games/${game.id}/hands/${encodeURIComponent(handId)}`;
/** If-Match carries the version the organizer saw: a change made meanwhile is a 412. */
export const editHand = (game, handId, body) =>
  call(game.event_id, 'PUT', hand(game, handId), {body, ifMatch: game.version});
export const deleteHand = (game, handId) =>
  call(game.event_id, 'DELETE', hand(game, handId), {ifMatch: game.version});
export const reopenGame = (game) =>
  call(game.event_id, 'POST', `/api/games/${game.id}/reopen`, {retry});
export const audit = (id, table) => call(id, 'GET', `${E(id)}/audit${table ? `?table=${table}` : ''}`);

// --- print and export ---------------------------------------------------------------------------
export const scoresheets = (id) => call(id, 'GET', `${E(id)}/scoresheets`);

/** An export as a Blob (links cannot carry the key, so it is fetched with it). The decoder
 * dropped the server's byte-order mark; it is put back for spreadsheets. */
export async function download(id, name) {
  const answer = await call(id, 'GET', `${E(id)}/export/${name}`, {raw: true});
  return new Blob([`\ufeff${answer.text}`], {type: 'text/csv;charset=utf-8'});
}
