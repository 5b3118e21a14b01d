/**
 * Screens by address (history API). Each route names one screen module; a screen module exports
 * `render(main, params)` and may return a function that stops its timers when the screen is left.
 * The organizer console lives in console/: its sections grouped by when they are used (setup:
 * before play; play: rounds, corrections, print), since every module costs the shell a file.
 *
 * Screens are imported up front (they are small): the whole app then comes from one version of
 * the service worker's cache, never a mix of an old page and a newer screen.
 */

import * as league from './console/league.js';
import * as play from './console/play.js';
import * as setup from './console/setup.js';
import * as ties from './console/ties.js';
import * as board from './screens/board.js';
import * as game from './screens/game.js';
import * as home from './screens/home.js';
import * as join from './screens/join.js';
import * as missing from './screens/missing.js';
import * as outbox from './screens/outbox.js';
import * as projector from './screens/projector.js';
import * as sheet from './screens/sheet.js';
import * as tables from './screens/tables.js';

const routes = [
  [/^\/$/, home],
  [/^\/join\/([^/]+)\/?$/, join, ['code']],
  [/^\/e\/(\d+)\/run\/?$/, tables, ['eventId']],
  [/^\/e\/(\d+)\/games\/(\d+)\/?$/, game, ['eventId', 'gameId']],
  [/^\/e\/(\d+)\/board\/?$/, board, ['eventId']],
  [/^\/e\/(\d+)\/players\/(\d+)\/?$/, sheet, ['eventId', 'playerId']],
  [/^\/e\/(\d+)\/projector\/?$/, projector, ['eventId']],
  [/^\/e\/(\d+)\/organize\/?$/, setup, ['eventId']],
  [/^\/organize\/new\/?$/, {render: setup.create}],
  [/^\/e\/(\d+)\/organize\/access\/?$/, {render: setup.access}, ['eventId']],
  [/^\/e\/(\d+)\/organize\/players\/?$/, {render: setup.players}, ['eventId']],
  [/^\/e\/(\d+)\/organize\/rounds\/?$/, play, ['eventId']],
  [/^\/e\/(\d+)\/organize\/league\/?$/, league, ['eventId']],
  [/^\/e\/(\d+)\/organize\/ties\/?$/, ties, ['eventId']],
  [/^\/e\/(\d+)\/organize\/corrections\/?$/, {render: play.corrections}, ['eventId']],
  [/^\/e\/(\d+)\/organize\/print\/?$/, {render: play.print}, ['eventId']],
  [/^\/e\/(\d+)\/organize\/print\/cards\/?$/, {render: play.cards}, ['eventId']],
  [/^\/e\/(\d+)\/organize\/print\/sheets\/?$/, {render: play.sheets}, ['eventId']],
  [/^\/outbox\/?$/, outbox],
];

let leave = null;
let renderCount = 0;

export function match(path) {
  for (const [pattern, module, names = []] of routes) {
    const found = pattern.exec(path);
    if (found) {
      const params = Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(found[i + 1])]));
      return {module, params};
    }
  }
  return {module: missing, params: {path}};
}

/** Show the screen for the current address. */
export async function render() {
  const count = ++renderCount;
  const main = document.getElementById('main');
  if (leave) { try { leave(); } catch { /* a screen failing to stop must not block the next */ } }
  leave = null;
  document.body.className = '';
  const {module: screen, params} = match(location.pathname);
  main.replaceChildren();
  leave = (await screen.render(main, params)) || null;
  if (count !== renderCount && leave) { leave(); leave = null; }
}

export function navigate(path, {replace = false} = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.scrollTo(0, 0);
  render();
  document.getElementById('main')?.focus({preventScroll: true});
}

/** Links inside the app change screens without a page load. */
export function start() {
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey
        || event.shiftKey || event.altKey) return;
    const link = event.target.closest('a[href]');
    if (!link || link.target || link.hasAttribute('download')) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
    if (url.pathname === location.pathname && url.hash) return;
    event.preventDefault();
    navigate(url.pathname + url.search);
  });
  window.addEventListener('popstate', () => render());
  return render();
}
