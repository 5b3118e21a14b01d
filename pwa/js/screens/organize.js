/**
 * /e/<id>/organize#key=...: the organizer console's place (a later issue builds it here, as one
 * screen module). For now it keeps the organizer key on this device, so the runner screens
 * work with it, and links to what exists.
 */

import * as api from '../api.js';
import {h, mount, setTitle} from '../dom.js';

export async function render(main, {eventId}) {
  setTitle('Organizer');
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  let note = '';
  if (key) {
    history.replaceState(null, '', location.pathname);
    try {
      await api.adoptKey(key);
      note = 'The organizer key is kept on this device.';
    } catch (error) {
      note = `This link did not work: ${error.message}`;
    }
  }
  mount(main,
    h('h1', {class: 'page-title'}, 'Organizer'),
    note && h('p', {class: 'note'}, note),
    h('p', {}, 'The organizer console is not built yet. Meanwhile:'),
    h('ul', {class: 'link-list'},
      h('li', {}, h('a', {class: 'btn btn-link', href: `/e/${eventId}/run`}, 'Enter hands at any table')),
      h('li', {}, h('a', {class: 'btn btn-link', href: `/e/${eventId}/board`}, 'Leaderboard')),
      h('li', {}, h('a', {class: 'btn btn-link', href: `/e/${eventId}/projector`}, 'Projector')),
      h('li', {}, h('a', {class: 'btn btn-link', href: '/api/docs'}, 'The API documentation'))));
}
