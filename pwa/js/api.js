/**
 * The one controller that talks to the server, and (through outbox.js) to the phone's storage.
 *
 * Screens never call fetch or IndexedDB: they call the functions here and listen to `bus`
 * ('game' when a game's state arrived, 'outbox' when the not-sent lists changed, 'key-needed' when
 * a key stopped working, 'refused' when the server refused a queued hand).
 */

import * as store from './outbox.js';
import {tablesWords} from './words.js';

export const bus = new EventTarget();
const emit = (type, detail) => bus.dispatchEvent(new CustomEvent(type, {detail}));
export function on(type, fn) {
  const handler = (e) => fn(e.detail);
  bus.addEventListener(type, handler);
  return () => bus.removeEventListener(type, handler);
}
store.events.addEventListener('change', () => emit('outbox'));

const TIMEOUT_MS = 15000;

/** The server answered with a problem (4xx/5xx); `detail` is the sentence to show. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || `The server answered ${status}.`);
    this.status = status;
    this.code = problem?.code || null;
    this.problem = problem || {};
  }
}

/** The server could not be reached (no network, or no answer in time). */
export class OfflineError extends Error {
  constructor(message = 'No network: the server could not be reached.') {
    super(message);
  }
}

let writing = 0;
let whenIdle = [];

/** Resolves once no write (any request but a GET) is waiting for the server's answer: the
 * router reloads onto a newer app version only then (see router.js). */
export function writesSettled() {
  return writing ? new Promise((resolve) => whenIdle.push(resolve)) : Promise.resolve();
}

/**
 * One HTTP request. Resolves {status, data, etag, text} whatever the status (`text` is the raw
 * body, for CSV and SVG answers); throws OfflineError.
 */
export async function request(method, path, {body, key, ifMatch, ifNoneMatch, timeout, reason} = {}) {
  const write = method !== 'GET';
  if (write) writing++;
  const headers = {Accept: 'application/json, application/problem+json'};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (key) headers.Authorization = `Bearer ${key}`;
  if (ifMatch !== undefined && ifMatch !== null) headers['If-Match'] = `"${ifMatch}"`;
  if (ifNoneMatch) headers['If-None-Match'] = ifNoneMatch;
  if (reason) headers['X-Reason'] = encodeURIComponent(reason); // a late correction's
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeout ?? TIMEOUT_MS);
  try {
    const response = await fetch(path, {
      method, headers, signal: abort.signal, cache: 'no-store', credentials: 'omit',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    let data = null;
    if (text) {
      try { data = JSON.parse(text); } catch { data = null; }
    }
    return {status: response.status, data, etag: response.headers.get('ETag'), text,
      disposition: response.headers.get('Content-Disposition')};
  } catch (error) {
    throw new OfflineError(error?.name === 'AbortError'
      ? 'The server did not answer in time.' : undefined);
  } finally {
    clearTimeout(timer);
    if (write && --writing === 0) whenIdle.splice(0).forEach((resolve) => resolve());
  }
}

/** A request that must succeed: returns the data, throws ApiError otherwise. */
async function call(method, path, options = {}) {
  const answer = await request(method, path, options);
  if (answer.status >= 400) {
    if (answer.status === 401 && options.eventId) await keyFailed(options.eventId, answer.data);
    throw new ApiError(answer.status, answer.data);
  }
  return answer.data;
}

// --- keys -------------------------------------------------------------------------------------

/** Every key kept on this phone: [{eventId, eventName, key, role, table}]. */
export async function keys() {
  return (await store.get('keys')) || [];
}

export async function keysOf(eventId) {
  return (await keys()).filter((k) => k.eventId === Number(eventId));
}

/** The key to use for a table of an event: the organizer's, that table's, or an all-tables key. */
export async function keyFor(eventId, table = null) {
  const mine = await keysOf(eventId);
  const pick = mine.find((k) => k.role === 'organizer')
    || mine.find((k) => k.table !== null && k.table === table)
    || mine.find((k) => k.table === null);
  return pick?.key || null;
}

async function saveKey(entry) {
  const all = (await keys()).filter((k) => k.key !== entry.key
    && !(k.eventId === entry.eventId && k.role === entry.role && k.table === entry.table));
  all.push({...entry, addedAt: Date.now()});
  await store.set('keys', all);
  await store.del(`keyproblem:${entry.eventId}`);
  emit('keys');
  store.persist();
  flush();
}

export async function forgetKey(key) {
  await store.set('keys', (await keys()).filter((k) => k.key !== key));
  emit('keys');
}

async function keyFailed(eventId, problem, table = null) {
  await store.set(`keyproblem:${eventId}`, problem?.detail || 'The key on this phone stopped working.');
  emit('key-needed', {eventId, table});
}

/** The reason the event's key stopped working, or null. */
export function keyProblem(eventId) {
  return store.get(`keyproblem:${eventId}`);
}

/** Exchange the event code and PIN (and optionally a table) for a runner key, kept here. */
export async function join(code, pin, table = null) {
  const joined = await call('POST', '/api/join', {body: {code: code.trim().toUpperCase(),
    pin: pin.trim(), table}});
  await saveKey({eventId: joined.event_id, eventName: joined.event_name, key: joined.key,
    role: 'runner', table: joined.table});
  return joined;
}

/** Keep a key that came in a link (#key=...), after asking the server what it may do. */
export async function adoptKey(key) {
  const me = await call('GET', '/api/me', {key});
  await saveKey({eventId: me.event_id, eventName: me.event_name, key, role: me.role,
    table: me.table});
  return me;
}

// --- reading, with the last known copy for when the network is gone ---------------------------

async function readThrough(path, cacheKey) {
  try {
    const data = await call('GET', path);
    await store.set(cacheKey, {data, at: Date.now()});
    return {data, fresh: true, at: Date.now()};
  } catch (error) {
    if (!(error instanceof OfflineError)) throw error;
    const cached = await store.get(cacheKey);
    if (!cached) throw error;
    return {data: cached.data, fresh: false, at: cached.at};
  }
}

export const getEvent = (id) => readThrough(`/api/events/${id}`, `event:${id}`);
export const getEventByCode = (code) => call('GET', `/api/events/by-code/${encodeURIComponent(code)}`);
export const getRounds = (id) => readThrough(`/api/events/${id}/rounds`, `rounds:${id}`);
export const getRound = (id) => readThrough(`/api/rounds/${id}`, `round:${id}`);
export const getTeams = (id) => readThrough(`/api/events/${id}/teams`, `teams:${id}`);
export const getScoresheet = (eventId, playerId) =>
  readThrough(`/api/events/${eventId}/players/${playerId}/scoresheet`, `sheet:${eventId}:${playerId}`);
/** Low Score, High Game and the bump cup (events whose preset keeps bumps). */
export const getAwards = (id) => readThrough(`/api/events/${id}/awards`, `awards:${id}`);

export async function getGame(id) {
  const result = await readThrough(`/api/games/${id}`, `game:${id}`);
  return result;
}

/**
 * Read the event and these games now, so each opens with no network later (the game screen
 * falls back on the same copies). Resolves a Map of the games that arrived, by id.
 */
export async function keepForOffline(eventId, gameIds) {
  const found = new Map();
  const reads = [getEvent(eventId), ...gameIds.map(async (id) => {
    const {data, fresh} = await getGame(id);
    if (fresh) found.set(id, data);
  })];
  const results = await Promise.allSettled(reads);
  return {games: found, complete: results.every((r) => r.status === 'fulfilled')};
}

/** The last known state of a game on this phone (or null). */
export async function cachedGame(id) {
  return (await store.get(`game:${id}`))?.data || null;
}

async function gameArrived(game) {
  if (!game || !game.id) return;
  const cached = await store.get(`game:${game.id}`);
  if (!cached || cached.data.version <= game.version) {
    await store.set(`game:${game.id}`, {data: game, at: Date.now()});
  }
  emit('game', game);
}

/**
 * Poll the leaderboard with If-None-Match (a 304 costs the server almost nothing).
 * `onBoard(board, {changed, fresh, checkedAt})` hears every answer. Returns stop().
 */
export function pollLeaderboard(eventId, onBoard, intervalMs = 3000) {
  let etag = null;
  let timer = null;
  let stopped = false;
  const cacheKey = `board:${eventId}`;
  const tick = async () => {
    if (stopped) return;
    if (!document.hidden) {
      try {
        const answer = await request('GET', `/api/events/${eventId}/leaderboard`,
          {ifNoneMatch: etag});
        if (answer.status === 200) {
          etag = answer.etag;
          store.set(cacheKey, {data: answer.data, at: Date.now()});
          if (!stopped) onBoard(answer.data, {changed: true, fresh: true, checkedAt: Date.now()});
        } else if (answer.status === 304) {
          if (!stopped) onBoard(null, {changed: false, fresh: true, checkedAt: Date.now()});
        } else if (!stopped) {
          onBoard(null, {changed: false, fresh: false, error: new ApiError(answer.status, answer.data)});
        }
      } catch (error) {
        const cached = etag ? null : await store.get(cacheKey);
        if (!stopped) {
          onBoard(cached?.data || null, {changed: Boolean(cached), fresh: false, error,
            checkedAt: cached?.at});
        }
      }
    }
    if (!stopped) timer = setTimeout(tick, intervalMs);
  };
  const wake = () => { if (!document.hidden) { clearTimeout(timer); tick(); } };
  document.addEventListener('visibilitychange', wake);
  tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', wake);
  };
}

/** The entrant a phone follows on an event's leaderboard (or null). */
export async function followed(eventId) {
  return (await store.get(`follow:${eventId}`)) ?? null;
}

export function follow(eventId, entrantId) {
  return entrantId === null ? store.del(`follow:${eventId}`) : store.set(`follow:${eventId}`, entrantId);
}

export function qrSvgUrl(eventId, kind = 'board') {
  return `/api/events/${eventId}/qr/${kind}.svg`;
}

// --- hands: always through the outbox ---------------------------------------------------------

/** A hand id made on this phone (crypto.randomUUID where the page is a secure context). */
export function newHandId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const waiters = new Map();

/**
 * Enter a hand: it is stored on the phone first, then sent. Resolves
 * {state: 'sent', game} | {state: 'queued'} | {state: 'refused', detail}.
 */
export async function enterHand(game, hand, label = '') {
  const handId = newHandId();
  const entry = {kind: 'hand', handId, eventId: game.event_id, gameId: game.id, table: game.table,
    method: 'POST', path: `/api/games/${game.id}/hands`, body: {id: handId, ...hand}, label};
  const settled = new Promise((resolve) => waiters.set(handId, resolve));
  await store.enqueue(entry);
  store.persist();
  flush();
  return {handId, result: settled};
}

function settle(handId, outcome) {
  const resolve = waiters.get(handId);
  if (resolve) {
    waiters.delete(handId);
    resolve(outcome);
  }
}

/**
 * What an entry waits on when it cannot be sent: the key it would use, or the missing key of
 * its table. A key that fails holds back only the entries that need that same key; entries of
 * other tables and events go on (outbox.js replay).
 */
async function keySlot(entry) {
  const key = await keyFor(entry.eventId, entry.table);
  return key ? `key:${key}` : `none:${entry.eventId}:${entry.table}`;
}

async function sendEntry(entry) {
  const key = await keyFor(entry.eventId, entry.table);
  if (!key) {
    const mine = (await keysOf(entry.eventId)).map((k) => k.table).filter((t) => t !== null);
    const reach = mine.length ? `this phone's key covers ${tablesWords(mine)} only`
      : 'this phone has no key for this event';
    return {status: 401, unsent: true, data: {code: 'no-key-for-table', detail: `Not sent: `
      + `${reach}. Open the game of table ${entry.table} and join it with the PIN.`}};
  }
  return request(entry.method, entry.path, {body: entry.body, key});
}

async function onReplay(kind, entry, answer) {
  if (kind === 'sent') {
    await store.del(`keyproblem:${entry.eventId}`);
    await gameArrived(answer.data);
    settle(entry.handId, {state: 'sent', game: answer.data});
  } else if (kind === 'refused') {
    emit('refused', {entry, detail: answer.data?.detail});
    settle(entry.handId, {state: 'refused', detail: answer.data?.detail || 'Refused.'});
  } else if (kind === 'unauthorized') {
    // A key the server turned down asks for a new one; a table with no key on this phone is
    // said on that game's screen (the phone's other tables are fine).
    if (!answer.unsent) await keyFailed(entry.eventId, answer.data, entry.table);
    settle(entry.handId, {state: 'queued', reason: answer.unsent ? 'no-key' : 'key'});
  } else {
    settle(entry.handId, {state: 'queued', reason: kind});
  }
}

/** Send whatever waits in the outbox (in order, one at a time). Safe to call at any moment. */
export async function flush() {
  try {
    let summary = await store.replay(sendEntry, onReplay, keySlot);
    // A hand stored just as a running replay finished joined that run without being sent:
    // go once more for anything still waiting that is not held back by a missing key.
    const slots = await Promise.all((await store.pending()).map(keySlot));
    const waiting = slots.some((slot) => !summary.blocked.has(slot));
    if (!summary.stopped && waiting) summary = await store.replay(sendEntry, onReplay, keySlot);
    return summary;
  } catch (error) {
    return {sent: 0, refused: 0, stopped: 'error', error};
  } finally {
    for (const [handId] of waiters) {
      const still = (await store.pending()).some((e) => e.handId === handId);
      if (still) settle(handId, {state: 'queued'});
    }
  }
}

export const outboxCounts = () => store.counts();
export const outboxPending = () => store.pending();
export const outboxRefused = () => store.refused();
export async function retryRefused(seq) {
  await store.retryRefused(seq);
  return flush();
}
export const discardRefused = (seq) => store.discardRefused(seq);

/** Hands of a game still on this phone: {pending: [...], refused: [...]}. */
export async function notSent(gameId) {
  const [p, r] = await Promise.all([store.pending(), store.refused()]);
  const mine = (e) => e.gameId === gameId;
  return {pending: p.filter(mine).sort((a, b) => a.seq - b.seq),
    refused: r.filter(mine).sort((a, b) => a.seq - b.seq)};
}

// --- changes that need the server now (they carry the game's version) -------------------------

async function gameWrite(game, method, suffix, {body, ifMatch} = {}) {
  const key = await keyFor(game.event_id, game.table);
  const data = await call(method, `/api/games/${game.id}${suffix}`,
    {body, key, ifMatch, eventId: game.event_id});
  await gameArrived(data);
  return data;
}

/** Change a hand already on the server (If-Match: a stale version is a 412 ApiError). */
export const editHand = (game, handId, hand) =>
  gameWrite(game, 'PUT', `/hands/${encodeURIComponent(handId)}`, {body: hand, ifMatch: game.version});

/** `side`: under confirm_each_hand or double_entry, the pair proposing the deletion. */
export const deleteHand = (game, handId, side = null) => gameWrite(game, 'DELETE',
  `/hands/${encodeURIComponent(handId)}${side ? `?side=${side}` : ''}`, {ifMatch: game.version});

/**
 * Undo a hand: taken out of the outbox when it has not left the phone, otherwise deleted on the
 * server (against the game's current version). Resolves 'phone', 'server' or 'proposed' (the
 * deletion waits for the other pair to agree).
 */
export async function undoHand(game, handId, side = null) {
  if (await store.removePending(handId)) {
    settle(handId, {state: 'undone'});
    return 'phone';
  }
  const {data: current} = await readThrough(`/api/games/${game.id}`, `game:${game.id}`);
  const answer = await deleteHand(current, handId, side);
  // Under confirm_each_hand or double_entry the deletion waits for the other pair (202).
  return (answer?.entries || []).some((e) => e.hand_id === handId && e.state === 'pending') ? 'proposed' : 'server';
}

// A settlement or sheet already recorded is only replaced against the version seen.
export const settleTie = (game, method, winner) =>
  gameWrite(game, 'POST', '/settlement', {body: {method, winner}, ifMatch: game.version});
export const signOff = (game, by) => gameWrite(game, 'POST', '/sign-off', {body: {by}});
export const putSheet = (game, sheet) =>
  gameWrite(game, 'PUT', '/sheet', {body: sheet, ifMatch: game.version});
export const clearSheet = (game) => gameWrite(game, 'DELETE', '/sheet', {ifMatch: game.version});
export const setDealer = (game, seat) => gameWrite(game, 'PUT', '/dealer', {body: {seat}});

export const callOrganizer = async (game) => call('POST', `/api/games/${game.id}/call`,
  {key: await keyFor(game.event_id, game.table), eventId: game.event_id});

// --- when to send: app start, back online, back in view, and a timer --------------------------

let started = false;

/** Start the outbox's triggers (once). Safari has no Background Sync, so the page does it. */
export function startOutbox(everyMs = 15000) {
  if (started) return;
  started = true;
  flush();
  window.addEventListener('online', () => flush());
  document.addEventListener('visibilitychange', () => { if (!document.hidden) flush(); });
  setInterval(async () => {
    if ((await store.counts()).pending) flush();
  }, everyMs);
}
