/*
 * The service worker: the app shell comes from its cache (so the app opens with no network after
 * the first visit); the API always goes to the network and is never cached here (the app keeps
 * its own last-known copies, and writes wait in its IndexedDB outbox).
 *
 * VERSION and SHELL are written by scripts/stamp_sw.py from the files in pwa/: any change to a
 * shell file changes VERSION, so phones fetch the new shell once and drop the old cache.
 * SHELL includes the organizer console (js/console/), which pages import only on first use:
 * precached, it opens offline on any device that has opened the app. A new version takes over
 * open pages at once; the page reloads at its next change of screen rather than import a
 * module of this version into one running the last (js/router.js, pwa/README.md).
 */

// --- stamped by scripts/stamp_sw.py: do not edit by hand ---
const VERSION = '5ae332109f4f';
const SHELL = [
  '/app.css',
  '/icons/apple-touch-icon.png',
  '/icons/icon-192.png',
  '/icons/icon-512.png',
  '/icons/maskable-512.png',
  '/index.html',
  '/js/api.js',
  '/js/app.js',
  '/js/audit-words.js',
  '/js/balance/balance.js',
  '/js/club/chart.js',
  '/js/club/club.js',
  '/js/club/keys.js',
  '/js/club/manage.js',
  '/js/club/person.js',
  '/js/club/privacy.js',
  '/js/club/ratings.js',
  '/js/club/series.js',
  '/js/console/access.js',
  '/js/console/calls.js',
  '/js/console/categories.js',
  '/js/console/corrections.js',
  '/js/console/create.js',
  '/js/console/decide.js',
  '/js/console/desk-entry.js',
  '/js/console/desk.css',
  '/js/console/desk.js',
  '/js/console/disqualify.js',
  '/js/console/door.js',
  '/js/console/draws.js',
  '/js/console/event.js',
  '/js/console/frame.js',
  '/js/console/hand-awards.js',
  '/js/console/league.js',
  '/js/console/money.js',
  '/js/console/named-awards.js',
  '/js/console/pick.js',
  '/js/console/players.js',
  '/js/console/print.js',
  '/js/console/prizes.js',
  '/js/console/progress.js',
  '/js/console/rounds.js',
  '/js/console/rulings.js',
  '/js/console/seats.js',
  '/js/console/standings.js',
  '/js/console/table-calls.js',
  '/js/console/ties.js',
  '/js/console/ui.js',
  '/js/dom.js',
  '/js/feeds/calendar.js',
  '/js/game/entry-pad.js',
  '/js/game/game-head.js',
  '/js/game/game-over.js',
  '/js/game/game-store.js',
  '/js/game/hand-taps.js',
  '/js/game/hands.js',
  '/js/game/key-needed.js',
  '/js/game/mismatch.js',
  '/js/game/renege-walk.js',
  '/js/game/scores.js',
  '/js/game/sheet-entry.js',
  '/js/game/sheet-grid.css',
  '/js/game/sheet-grid.js',
  '/js/game/verify.js',
  '/js/league/league.css',
  '/js/league/organize.js',
  '/js/league/register.js',
  '/js/league/team.js',
  '/js/nav.js',
  '/js/outbox.js',
  '/js/portable/history.js',
  '/js/provisional.js',
  '/js/router.js',
  '/js/screens/board.js',
  '/js/screens/clock.js',
  '/js/screens/door.js',
  '/js/screens/game.js',
  '/js/screens/home.js',
  '/js/screens/join.js',
  '/js/screens/missing.js',
  '/js/screens/next-seat.js',
  '/js/screens/outbox.js',
  '/js/screens/projector-door.js',
  '/js/screens/projector-draw.js',
  '/js/screens/projector.js',
  '/js/screens/sheet.js',
  '/js/screens/tables.js',
  '/js/story/recap.css',
  '/js/story/recap.js',
  '/js/webhooks/webhooks.js',
  '/js/words.js',
  '/manifest.webmanifest'
];
// --- end of stamp ---

const CACHE = `euchre-shell-${VERSION}`;

self.addEventListener('install', (event) => {
  // Installed only once every shell file is in the cache: a half-filled cache never serves.
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(SHELL.map((url) => new Request(url, {cache: 'reload'})));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('euchre-shell-') && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// A page that started loading while this worker was installing can miss the claim above
// (seen in Chromium when a runner changes screen during the first visit's install); it asks
// for it here, so its lazy imports and reloads are served offline too.
self.addEventListener('message', (event) => {
  if (event.data === 'claim') event.waitUntil(self.clients.claim());
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return; // writes always go straight to the network
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    // Every screen's address is the same shell: answer from the cache, even with no network.
    event.respondWith((async () => {
      const cached = await caches.match('/index.html', {cacheName: CACHE});
      return cached || fetch(request);
    })());
    return;
  }
  event.respondWith((async () => {
    const cached = await caches.match(request, {cacheName: CACHE, ignoreSearch: true});
    return cached || fetch(request);
  })());
});
