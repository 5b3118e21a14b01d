/**
 * The club key on this device, and the calls the club's screens make. A club key arrives in a
 * link (/c/<slug>/manage#key=...), is checked with the server (/api/me), and is kept on this
 * device beside the event keys; it is sent only to the club's own routes and the club's
 * pages (where it shows the club's private people).
 */

import {ApiError, request} from '../api.js';
import {setNoIndex} from '../dom.js';
import * as store from '../outbox.js';

const STORE = 'clubkeys';

export async function clubKey(clubId) {
  return ((await store.get(STORE)) || []).find((k) => k.clubId === Number(clubId))?.key || null;
}

async function keep(clubId, key) {
  const all = ((await store.get(STORE)) || []).filter((k) => k.clubId !== clubId);
  all.push({clubId, key, addedAt: Date.now()});
  await store.set(STORE, all);
}

/** Keep the key of a club link (#key=...), out of the address bar first; says why not. */
export async function adoptLinkKey(clubId) {
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  if (!key) return '';
  history.replaceState(null, '', location.pathname + location.search);
  const me = await request('GET', '/api/me', {key});
  if (me.status !== 200) return `This link did not work: ${me.data?.detail || 'the key was refused.'}`;
  if (me.data.club_id !== clubId) return 'That link is not this club\'s key.';
  await keep(clubId, key);
  return '';
}

/** A call that must succeed: the data, or ApiError. */
export async function call(method, path, {body, key} = {}) {
  const answer = await request(method, path, {body, key});
  if (answer.status >= 400) throw new ApiError(answer.status, answer.data);
  return answer;
}

/** The club's page by its address, read with the club key when this device holds it. */
export async function clubBySlug(slug) {
  const first = (await call('GET', `/api/clubs/by-slug/${encodeURIComponent(slug)}`)).data;
  setNoIndex(!first.indexable);
  const key = await clubKey(first.id);
  if (!key) return {club: first, key: null};
  return {club: (await call('GET', `/api/clubs/${first.id}`, {key})).data, key};
}

/** A place as people say it: "1st", "=3rd" when shared, "–" without one. */
export function placeWords(place, shared = false) {
  if (place === null || place === undefined) return '–';
  const tens = place % 100;
  const end = tens >= 11 && tens <= 13 ? 'th' : ({1: 'st', 2: 'nd', 3: 'rd'}[place % 10] || 'th');
  return `${shared ? '=' : ''}${place}${end}`;
}

/** A night's date ("2026-01-09", the day it was played) as that day wherever this device is
 * (read as UTC midnight it would be the 8th west of Greenwich); a moment as its local day. */
export function day(iso) {
  const plain = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return plain ? new Date(Number(plain[1]), Number(plain[2]) - 1, Number(plain[3])) : new Date(iso);
}

export const dateWords = (iso) => day(iso).toLocaleDateString(undefined,
  {year: 'numeric', month: 'short', day: 'numeric'});
