/**
 * Every server call of the console, with the organizer key. `retry`: resent on a network failure
 * (reads, and writes that mean the same when repeated); the rest go once (see pwa/README.md).
 */

import * as api from '../api.js';
import {organizerKey} from './frame.js';

const E = (id) => `/api/events/${id}`;
const retry = true;

async function call(eventId, method, path, {body, ifMatch, raw, retry: again = method === 'GET'} = {}) {
  const key = eventId ? await organizerKey(eventId) : null;
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await api.request(method, path, {body, key, ifMatch});
      if (answer.status >= 400) throw new api.ApiError(answer.status, answer.data);
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
export const newOrganizerKey = (id) => call(id, 'POST', `${E(id)}/organizer-key`);

/** A QR code drawn by the server, as a data: URL (the app's CSP allows those for images). */
export const qr = async (text, title = 'QR code') => `data:image/svg+xml;charset=utf-8,${
  encodeURIComponent((await call(null, 'POST', '/api/qr', {body: {text, title}, retry, raw: true})).text)}`;

export const players = (id) => call(id, 'GET', `${E(id)}/players`);
export const teams = (id) => call(id, 'GET', `${E(id)}/teams`);
export const addPlayer = (id, name, here) => call(id, 'POST', `${E(id)}/players`, {body: {name, checked_in: here}});
export const addTeam = (id, name, members, here) =>
  call(id, 'POST', `${E(id)}/teams`, {body: {name, players: members, checked_in: here}});
export const setEntrant = (id, teams, entrantId, body) =>
  call(id, 'PATCH', `${E(id)}/${teams ? 'teams' : 'players'}/${entrantId}`, {body, retry});
export const importCsv = (id, csv) => call(id, 'POST', `${E(id)}/import`, {body: {csv}});

export const rounds = (id) => call(id, 'GET', `${E(id)}/rounds`);
/** The next round's preview, or, when none can be seated now, {ready: false, code, reason}:
 * the server says why (the reason a seating attempt would be refused with). */
export const next = (id) => call(id, 'GET', `${E(id)}/rounds/next`);
export const round = (roundId) => call(null, 'GET', `/api/rounds/${roundId}`);
/** Seat round `number`: a retry whose first try was stored hears "already seated": done. */
export const seat = (id, number) => call(id, 'POST', `${E(id)}/rounds`, {body: {number}, retry})
  .catch((error) => {
    if (error.code === 'round-exists' && error.problem.round_id) return round(error.problem.round_id);
    throw error;
  });
/** Call time, close, reopen, (re)start the clock: each means the same when repeated. */
export const roundDo = (id, roundId, what, body) => call(id, 'POST', `/api/rounds/${roundId}/${what}`, {body, retry});
export const leaderboard = (id) => call(id, 'GET', `${E(id)}/leaderboard`);
/** Low Score, High Game and the bump cup (per player, per table, in all). */
export const awards = (id) => call(id, 'GET', `${E(id)}/awards`);

export const game = (gameId) => call(null, 'GET', `/api/games/${gameId}`);
/** A change to a hand carries the version the organizer saw: a change made meanwhile is a 412. */
export const changeHand = (game, handId, body) => call(game.event_id, body ? 'PUT' : 'DELETE',
  `/api/games/${game.id}/hands/${encodeURIComponent(handId)}`, {body, ifMatch: game.version});
export const reopenGame = (game) => call(game.event_id, 'POST', `/api/games/${game.id}/reopen`, {retry});
export const audit = (id, table) => call(id, 'GET', `${E(id)}/audit${table ? `?table=${table}` : ''}`);
export const scoresheets = (id) => call(id, 'GET', `${E(id)}/scoresheets`);

/** An export as a Blob (a link cannot carry the key), with the BOM the decoder dropped. */
export const download = async (id, name) => new Blob(
  [`\ufeff${(await call(id, 'GET', `${E(id)}/export/${name}`, {raw: true})).text}`], {type: 'text/csv'});
