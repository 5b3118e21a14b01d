/**
 * Screens by address (history API). Each route names one screen module; a screen module exports
 * `render(main, params)` and may return a function that stops its timers when the screen is left.
 *
 * The runners' and players' screens are imported up front (statically, and preloaded by
 * index.html): they are small, and a phone in a bar has its first screen without another
 * request. The organizer console (console/*.js, one module a section) is imported with import()
 * only when a console address is opened, so none of it is fetched or parsed before a runner's
 * first screen, nor counted in the runner's size budget (tests/e2e/test_shell_files.py). The
 * service worker still precaches it, so it opens offline after the first visit.
 *
 * Screens never import this module: one changes screens by `navigate` from nav.js (an event
 * this module hears), so the imports run one way, app.js → router.js → screens.
 *
 * One version at a time: sw.js takes over open pages when a new version is installed
 * (skipWaiting + clients.claim), and an import() after that would come from the newer cache
 * while the page runs the older modules. app.js calls `newVersion()` then, and the next change
 * of screen reloads the page instead, once no write is waiting for the server (pwa/README.md).
 */

import {writesSettled} from './api.js';
import {h, mount, setTitle} from './dom.js';
import * as board from './screens/board.js';
import * as door from './screens/door.js';
import * as game from './screens/game.js';
import * as home from './screens/home.js';
import * as join from './screens/join.js';
import * as missing from './screens/missing.js';
import * as outbox from './screens/outbox.js';
import * as sheet from './screens/sheet.js';
import * as tables from './screens/tables.js';

/** Console sections, loaded on first use (literal paths: the shell test follows them). */
const section = {
  event: () => import('./console/event.js'),
  projector: () => import('./screens/projector.js'),
  create: () => import('./console/create.js'),
  access: () => import('./console/access.js'),
  players: () => import('./console/players.js'),
  rounds: () => import('./console/rounds.js'),
  standings: () => import('./console/standings.js'),
  prizes: () => import('./console/prizes.js'),
  league: () => import('./console/league.js'),
  ties: () => import('./console/ties.js'),
  corrections: () => import('./console/corrections.js'),
  print: () => import('./console/print.js'),
  club: () => import('./club/club.js'),
  series: () => import('./club/series.js'),
  person: () => import('./club/person.js'),
  manage: () => import('./club/manage.js'),
  register: () => import('./league/register.js'),
  team: () => import('./league/team.js'),
  desk: () => import('./console/desk.js'),
  webhooks: () => import('./webhooks/webhooks.js'),
  /* A paper sheet's grid: entered after play, so not in the runner's shell. */
  grid: () => import('./game/sheet-grid.js'),
};
const later = (load, name = 'render') => ({load, name});
const E = '^\\/e\\/(\\d+)\\/organize';
const organize = (path, load, name) => [new RegExp(`${E}${path}\\/?$`), later(load, name), ['eventId']];

const routes = [
  [/^\/$/, home],
  [/^\/join\/([^/]+)\/?$/, join, ['code']],
  [/^\/door\/([^/]+)\/?$/, door, ['code']],
  [/^\/e\/(\d+)\/run\/?$/, tables, ['eventId']],
  [/^\/e\/(\d+)\/games\/(\d+)\/?$/, game, ['eventId', 'gameId']],
  [/^\/e\/(\d+)\/games\/(\d+)\/sheet\/?$/, later(section.grid), ['eventId', 'gameId']],
  [/^\/e\/(\d+)\/board\/?$/, board, ['eventId']],
  [/^\/e\/(\d+)\/players\/(\d+)\/?$/, sheet, ['eventId', 'playerId']],
  [/^\/e\/(\d+)\/projector\/?$/, later(section.projector), ['eventId']],
  [/^\/organize\/new\/?$/, later(section.create)],
  organize('', section.event),
  organize('\\/access', section.access),
  organize('\\/players', section.players),
  organize('\\/rounds', section.rounds),
  organize('\\/standings', section.standings),
  organize('\\/prizes', section.prizes),
  organize('\\/league', section.league),
  organize('\\/ties', section.ties),
  organize('\\/corrections', section.corrections),
  organize('\\/print', section.print),
  organize('\\/desk', section.desk),
  organize('\\/webhooks', section.webhooks),
  organize('\\/print\\/cards', section.print, 'cards'),
  organize('\\/print\\/sheets', section.print, 'sheets'),
  organize('\\/print\\/seating', section.print, 'seating'),
  [/^\/outbox\/?$/, outbox],
  [/^\/register\/([^/]+)\/?$/, later(section.register), ['code']],
  [/^\/e\/(\d+)\/team\/(\d+)\/?$/, later(section.team), ['eventId', 'teamId']],
  [/^\/clubs\/new\/?$/, later(section.manage, 'create')],
  [/^\/c\/([a-z0-9-]+)\/?$/, later(section.club), ['slug']],
  [/^\/c\/([a-z0-9-]+)\/manage\/?$/, later(section.manage), ['slug']],
  [/^\/c\/([a-z0-9-]+)\/series\/(\d+)\/?$/, later(section.series), ['slug', 'seriesId']],
  [/^\/c\/([a-z0-9-]+)\/series\/(\d+)\/projector\/?$/, later(section.series, 'projector'), ['slug', 'seriesId']],
  [/^\/c\/([a-z0-9-]+)\/people\/(\d+)\/?$/, later(section.person), ['slug', 'personId']],
];

let leave = null;
let renderCount = 0;
let stale = false;

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

/** A newer version of the app now controls this page: reload at the next change of screen. */
export function newVersion() {
  stale = true;
}

/** The screen module of a route: imported now when it is loaded on first use. */
async function screenOf(module) {
  if (!module.load) return module;
  const loaded = await module.load();
  return {render: loaded[module.name]};
}

function notLoaded(main, error) {
  setTitle('Not loaded');
  mount(main, h('h1', {class: 'page-title'}, 'This screen did not load'),
    h('p', {class: 'error', role: 'alert'}, navigator.onLine === false
      ? 'No network, and this screen is not on this device yet: open it once with a connection.'
      : `It could not be loaded (${error.message}).`),
    h('p', {class: 'actions'}, h('button', {type: 'button', class: 'btn btn-primary',
      onclick: () => render()}, 'Try again'), h('a', {class: 'btn', href: '/'}, 'Home')));
}

/** Show the screen for the current address. */
export async function render() {
  const count = ++renderCount;
  const main = document.getElementById('main');
  if (leave) { try { leave(); } catch { /* a screen failing to stop must not block the next */ } }
  leave = null;
  if (stale) {
    // The address is already the new one: a reload shows it from the newer version, whole.
    mount(main, h('p', {class: 'loading'}, 'Loading…'));
    await writesSettled();
    location.reload();
    return;
  }
  document.body.className = '';
  const {module, params} = match(location.pathname);
  if (module.load) mount(main, h('p', {class: 'loading'}, 'Loading…'));
  let screen;
  try {
    screen = await screenOf(module);
  } catch (error) {
    if (count === renderCount) notLoaded(main, error);
    return;
  }
  if (count !== renderCount) return;
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
  window.addEventListener('navigate', ({detail}) => navigate(detail.path, detail));
  return render();
}
