/**
 * /join/<CODE>: a table card's QR link. With #key=... (never sent to the server) the key is kept
 * on the phone at once; without one, the runner types the PIN.
 */

import * as api from '../api.js';
import {h, mount, setTitle} from '../dom.js';
import {navigate} from '../nav.js';
import {joinForm} from './home.js';

export async function render(main, {code}) {
  setTitle('Join');
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  if (!key) {
    mount(main, h('h1', {class: 'page-title'}, 'Join as a table runner'), joinForm({code}));
    return;
  }
  // Take the key out of the address bar (and history) before anything else.
  history.replaceState(null, '', location.pathname);
  mount(main, h('p', {class: 'loading'}, 'Checking the link…'));
  try {
    const me = await api.adoptKey(key);
    navigate(`/e/${me.event_id}/run`, {replace: true});
  } catch (error) {
    mount(main, h('h1', {class: 'page-title'}, 'Join as a table runner'),
      h('p', {class: 'error', role: 'alert'}, `This link did not work: ${error.message}`),
      joinForm({code}));
  }
}
