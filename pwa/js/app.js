/** Start the app: the service worker, the outbox's triggers, the "not sent" badge, the router. */

import * as api from './api.js';
import {banner, h, toast} from './dom.js';
import * as router from './router.js';

async function updateBadge() {
  const badge = document.getElementById('outbox-badge');
  if (!badge) return;
  const {pending, refused} = await api.outboxCounts();
  badge.hidden = pending + refused === 0;
  badge.classList.toggle('has-refused', refused > 0);
  const parts = [];
  if (pending) parts.push(`${pending} not sent`);
  if (refused) parts.push(`${refused} refused`);
  badge.textContent = `⟳ ${parts.join(' · ')}`;
  badge.setAttribute('aria-label', `${parts.join(', ')}: show the hands waiting on this phone`);
}

async function showKeyProblem({eventId, table = null}) {
  const detail = await api.keyProblem(eventId);
  if (!detail) return;
  const mine = await api.keysOf(eventId);
  // Join again for what the failed key covered: that table's own key, else all tables (a
  // phone may hold several keys), else the one table this phone had.
  const own = table !== null && mine.some((k) => k.table === table);
  const rejoin = own ? table : mine.some((k) => k.table === null) ? null : mine[0]?.table;
  banner(h('p', {}, `${detail} Hands entered on this phone are kept and will be sent once a `
    + 'working key is here. ',
  h('a', {href: `/?event=${eventId}&rejoin=1${rejoin ? `&table=${rejoin}` : ''}`},
    'Join again')));
}

/**
 * The service worker, registered once the first screen is drawn (its install fetches every
 * shell file, the console's too: nothing a runner's first screen should wait behind). When a
 * newer one takes over a page that an older one served, the router reloads at the next change
 * of screen, so modules of two versions never meet (pwa/README.md).
 */
function serviceWorker() {
  if (!('serviceWorker' in navigator)) return;
  let served = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (served) router.newVersion();
    served = true;
  });
  navigator.serviceWorker.register('/sw.js', {scope: '/'}).catch(() => {
    // Without a service worker the app still works online; offline start needs it.
  });
  // Active but not serving this page (it began loading during the install): ask to be claimed.
  navigator.serviceWorker.ready.then((registration) => {
    if (!navigator.serviceWorker.controller) registration.active?.postMessage('claim');
  });
}

function start() {
  api.on('outbox', updateBadge);
  api.on('key-needed', showKeyProblem);
  api.on('keys', () => banner(null));
  // A refusal can arrive long after the hand was typed (it waited offline): say so wherever
  // the runner is, and keep it under "Refused" until they decide.
  api.on('refused', ({entry, detail}) => toast(`${entry.label || 'A hand'} was not accepted: `
    + `${detail || 'refused'}`, {label: 'Review', run: () => router.navigate('/outbox')},
  {kind: 'error', ms: 15000}));
  updateBadge();
  api.startOutbox();
  router.start().finally(serviceWorker);
}

start();
