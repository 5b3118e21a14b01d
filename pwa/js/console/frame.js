/**
 * The organizer console's frame: the organizer key for this event, and the section tabs shared
 * by every console screen. A console screen calls `frame(main, eventId, 'players', 'Players')`
 * and fills what it returns; without an organizer key here it says how to get one and
 * returns null. An organizer link (…#key=...) opens any section.
 */

import * as api from '../api.js';
import {h, mount, setTitle} from '../dom.js';

/** [section, label, path under /e/<id>/organize, shown for which presets (null: all)] */
const SECTIONS = [
  ['home', 'Event', '', null],
  // Second: near in Tab order (and Alt+K).
  ['desk', 'Desk', '/desk', ['wec-singles', 'wec-doubles', 'progressive', 'teams']],
  ['access', 'Access', '/access', null],
  ['players', 'Players', '/players', null],
  ['rounds', 'Rounds', '/rounds', null],
  ['standings', 'Standings', '/standings', null],
  ['prizes', 'Prizes', '/prizes', null],
  ['league', 'League', '/league', ['league']],
  ['ties', 'Ties', '/ties', null],
  ['corrections', 'Corrections', '/corrections', null],
  ['print', 'Print & export', '/print', null],
  ['webhooks', 'Webhooks', '/webhooks', null],
];

const DESK_KEY = {'aria-keyshortcuts': 'Alt+K', title: 'Desk (Alt+K)'};
// Alt+K opens the desk from any console screen that shows its tab.
addEventListener('keydown', (e) => {
  const tab = e.altKey && !e.ctrlKey && e.key.toLowerCase() === 'k'
    && document.querySelector('.console-tab[aria-keyshortcuts="Alt+K"]');
  if (tab) { e.preventDefault(); tab.click(); }
});

/** The organizer key kept on this device for the event, or null. */
export async function organizerKey(eventId) {
  const mine = await api.keysOf(eventId);
  return mine.find((k) => k.role === 'organizer')?.key || null;
}

export function sectionsFor(preset) {
  return SECTIONS.filter(([, , , only]) => !only || only.includes(preset));
}

/** Keep the key of an organizer link (#key=...), out of the address bar first; says why not. */
async function adoptLinkKey() {
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  if (!key) return '';
  history.replaceState(null, '', location.pathname + location.search);
  try {
    return (await api.adoptKey(key)).role === 'organizer' ? ''
      : 'That is a runner link: it enters hands but cannot run the event.';
  } catch (error) {
    return `This link did not work: ${error.message}`;
  }
}

/**
 * Mount the console frame. Returns {body, key, event} where body is the element to fill, or
 * null when this device holds no organizer key for the event.
 */
export async function frame(main, eventId, section, title) {
  setTitle(title);
  document.body.classList.add('console');
  const problem = await adoptLinkKey();
  const key = await organizerKey(eventId);
  if (!key) {
    mount(main, h('h1', {class: 'page-title'}, title),
      problem && h('p', {class: 'error', role: 'alert'}, problem),
      h('p', {}, 'This device has no organizer key for this event. Open the organizer link '
        + 'you were given when the event was created (it ends in #key=...).'),
      h('a', {class: 'btn', href: '/organize/new'}, 'Create a new event'));
    return null;
  }
  let event = null;
  let fresh = false;
  try {
    ({data: event, fresh} = await api.getEvent(eventId));
  } catch { /* shown below without it */ }
  const base = `/e/${eventId}/organize`;
  const body = h('div', {class: 'console-body'});
  if (event) setTitle(`${title} · ${event.name}`);
  mount(main,
    h('nav', {class: 'console-tabs', 'aria-label': 'Console sections'},
      sectionsFor(event?.preset).map(([name, label, path]) => h('a', {
        href: base + path, class: ['console-tab', name === section && 'current'],
        'aria-current': name === section ? 'page' : null, ...(name === 'desk' ? DESK_KEY : {})}, label))),
    h('h1', {class: 'page-title'}, title),
    event && h('p', {class: 'console-event'}, `${event.name} · ${event.format.name} · code `,
      h('strong', {}, event.code), event.status === 'finished' ? ' · finished' : ''),
    !fresh && h('p', {class: 'note'}, 'No network: this may be out of date, and changes wait '
      + 'until the server answers.'),
    body);
  return {body, key, event};
}
