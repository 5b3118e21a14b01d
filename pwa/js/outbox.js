/**
 * Everything the phone keeps (IndexedDB), and the outbox of hands waiting to be sent.
 *
 * The outbox works like Workbox's background-sync Queue: each request is stored before anything
 * is sent; replay sends them one at a time in the order they were made; an entry is removed only
 * after the server answered it (a 2xx, or a 4xx refusal that moves it to the "refused" list the
 * runner sees); a network failure stops the replay and leaves the entry first in line for the
 * next try. A retry sends the same hand id, so the server stores the hand once.
 *
 * This module never touches the network: replay() is handed a `send(entry)` function by api.js.
 */

const DB_NAME = 'euchre';
const DB_VERSION = 1;
const LOCK = 'euchre-outbox';

let dbPromise = null;

function open() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, DB_VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        // Waiting requests, in the order they were made (seq is monotonic).
        if (!db.objectStoreNames.contains('outbox')) {
          db.createObjectStore('outbox', {keyPath: 'seq', autoIncrement: true});
        }
        // Requests the server refused: kept until the runner retries or discards them.
        if (!db.objectStoreNames.contains('refused')) {
          db.createObjectStore('refused', {keyPath: 'seq', autoIncrement: true});
        }
        // Small values: runner keys, followed players, the last known copy of a game.
        if (!db.objectStoreNames.contains('kv')) db.createObjectStore('kv');
      };
      req.onsuccess = () => {
        const db = req.result;
        // Another tab upgraded the database: close so it is not blocked; reopen on next use.
        db.onversionchange = () => { db.close(); dbPromise = null; };
        resolve(db);
      };
      req.onerror = () => { dbPromise = null; reject(req.error); };
      req.onblocked = () => reject(new Error('The phone storage is busy in another tab.'));
    });
  }
  return dbPromise;
}

/** Run `work(stores)` in one transaction; resolves with its result when the transaction commits. */
async function tx(names, mode, work) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const t = db.transaction(names, mode);
    const stores = Object.fromEntries(names.map((n) => [n, t.objectStore(n)]));
    let result;
    Promise.resolve(work(stores)).then((r) => { result = r; }, (e) => { t.abort(); reject(e); });
    t.oncomplete = () => resolve(result);
    t.onerror = () => reject(t.error);
    t.onabort = () => reject(t.error || new Error('storage transaction aborted'));
  });
}

const req = (r) => new Promise((resolve, reject) => {
  r.onsuccess = () => resolve(r.result);
  r.onerror = () => reject(r.error);
});

// --- small values -----------------------------------------------------------------------------

export function get(key) {
  return tx(['kv'], 'readonly', ({kv}) => req(kv.get(key)));
}

export function set(key, value) {
  return tx(['kv'], 'readwrite', ({kv}) => req(kv.put(value, key)));
}

export function del(key) {
  return tx(['kv'], 'readwrite', ({kv}) => req(kv.delete(key)));
}

// --- the outbox -------------------------------------------------------------------------------

const changed = new EventTarget();
/** Fires 'change' whenever the outbox or the refused list changes (in this tab). */
export const events = changed;
const emit = () => changed.dispatchEvent(new Event('change'));
// Other tabs of the app change the same lists: tell this tab's screens too.
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('euchre-outbox') : null;
if (channel) channel.onmessage = () => emit();
const announce = () => { emit(); channel?.postMessage('change'); };

/** Store a request to send later (or now). Returns the stored entry with its seq. */
export async function enqueue(entry) {
  const stored = {...entry, createdAt: Date.now(), attempts: 0, lastError: null};
  stored.seq = await tx(['outbox'], 'readwrite', ({outbox}) => req(outbox.add(stored)));
  announce();
  return stored;
}

export function pending() {
  return tx(['outbox'], 'readonly', ({outbox}) => req(outbox.getAll()));
}

export function refused() {
  return tx(['refused'], 'readonly', ({refused}) => req(refused.getAll()));
}

export async function counts() {
  const [p, r] = await Promise.all([pending(), refused()]);
  return {pending: p.length, refused: r.length};
}

/** A refused request goes back to the end of the queue, with the same hand id. */
export async function retryRefused(seq) {
  await tx(['refused', 'outbox'], 'readwrite', async ({refused, outbox}) => {
    const entry = await req(refused.get(seq));
    if (!entry) return;
    await req(refused.delete(seq));
    const {seq: _old, status: _s, detail: _d, code: _c, refusedAt: _r, ...rest} = entry;
    await req(outbox.add({...rest, attempts: 0, lastError: null, createdAt: Date.now()}));
  });
  announce();
}

/** The runner decided a refused hand is not wanted: only then is it deleted. */
export async function discardRefused(seq) {
  await tx(['refused'], 'readwrite', ({refused}) => req(refused.delete(seq)));
  announce();
}

// --- replay, one at a time --------------------------------------------------------------------

let chain = Promise.resolve();

/**
 * Run `work` while holding the outbox lock: in this tab (a promise chain) and across tabs (Web
 * Locks, where the browser has them), so two replays never send the same entry at once, and an
 * undo never removes an entry that is being sent.
 */
export function withLock(work) {
  const run = () => (navigator.locks ? navigator.locks.request(LOCK, work) : work());
  const next = chain.then(run, run);
  chain = next.catch(() => {});
  return next;
}

/**
 * Remove a hand that has not been sent yet (undo before it left the phone). Resolves true when it
 * was still waiting here; false when it is no longer in the outbox (already sent, or refused).
 */
export function removePending(handId) {
  return withLock(async () => {
    const all = await pending();
    const entry = all.find((e) => e.handId === handId);
    if (!entry) return false;
    await tx(['outbox'], 'readwrite', ({outbox}) => req(outbox.delete(entry.seq)));
    announce();
    return true;
  });
}

let replaying = null;

/**
 * Send what is waiting, oldest first. `send(entry)` resolves {status, data} when the server
 * answered (or {status: 401, unsent: true, data} when there was no key to send it with), and
 * throws when it could not be reached. `notify(kind, entry, answer)` hears: 'sent', 'refused',
 * 'unauthorized' (the entry stays; the entries that need the same key wait for a new one),
 * 'retry-later' (5xx/429: the replay stops) and 'offline' (the replay stops).
 * `keyOf(entry)` (may be async) names the key an entry needs: a key that fails, or is missing,
 * holds back only the entries that need it, never those of other tables or events.
 * Resolves with a summary {sent, refused, stopped, blocked} (blocked: the keys held back).
 */
export function replay(send, notify, keyOf = (entry) => entry.eventId) {
  if (replaying) return replaying;
  replaying = withLock(async () => {
    const blocked = new Set();
    const summary = {sent: 0, refused: 0, stopped: null, blocked};
    let lastSeq = 0;
    for (;;) {
      // Read afresh each time: hands entered during the replay are sent in the same run.
      let entry = null;
      let slot = null;
      for (const e of (await pending()).filter((x) => x.seq > lastSeq).sort((a, b) => a.seq - b.seq)) {
        slot = await keyOf(e);
        if (!blocked.has(slot)) { entry = e; break; }
      }
      if (!entry) break;
      lastSeq = entry.seq;
      let answer;
      try {
        answer = await send(entry);
      } catch (error) {
        await touch(entry, error.message || 'no network');
        notify('offline', entry, null);
        summary.stopped = 'offline';
        break;
      }
      const {status} = answer;
      if (status >= 200 && status < 300) {
        await tx(['outbox'], 'readwrite', ({outbox}) => req(outbox.delete(entry.seq)));
        summary.sent += 1;
        announce();
        notify('sent', entry, answer);
      } else if (status === 401) {
        // The key was revoked or mistyped (or this table has none here): keep the hand, ask
        // for a key, and hold back only what needs that key.
        await touch(entry, answer.data?.detail || 'The key was not accepted.', !answer.unsent);
        blocked.add(slot);
        notify('unauthorized', entry, answer);
      } else if (status === 408 || status === 429 || status >= 500) {
        await touch(entry, answer.data?.detail || `The server answered ${status}; trying again later.`);
        notify('retry-later', entry, answer);
        summary.stopped = 'server';
        break;
      } else {
        // A refusal in words (e.g. the game was closed meanwhile): keep it for the runner to see.
        await tx(['outbox', 'refused'], 'readwrite', async ({outbox, refused}) => {
          await req(outbox.delete(entry.seq));
          const {seq: _seq, ...rest} = entry;
          await req(refused.add({...rest, status, detail: answer.data?.detail || `Refused (${status}).`,
            code: answer.data?.code || null, refusedAt: Date.now()}));
        });
        summary.refused += 1;
        announce();
        notify('refused', entry, answer);
      }
    }
    return summary;
  }).finally(() => { replaying = null; });
  return replaying;
}

/** Note a try that did not get through (`tried` false: nothing was sent, e.g. no key here). */
async function touch(entry, message, tried = true) {
  const changed = await tx(['outbox'], 'readwrite', async ({outbox}) => {
    const current = await req(outbox.get(entry.seq));
    if (!current || (!tried && current.lastError === message)) return false;
    await req(outbox.put({...current, attempts: current.attempts + (tried ? 1 : 0),
      lastError: message, lastTry: Date.now()}));
    return true;
  });
  if (changed) announce();
}

/** Ask the browser not to evict our storage under pressure (best effort; Safari may say no). */
export async function persist() {
  try {
    if (navigator.storage?.persisted && await navigator.storage.persisted()) return true;
    return navigator.storage?.persist ? await navigator.storage.persist() : false;
  } catch {
    return false;
  }
}
