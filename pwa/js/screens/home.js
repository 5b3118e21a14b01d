/** Home: join an event as a runner (code + PIN), open the tables this phone runs, find a board. */

import * as api from '../api.js';
import {button, h, mount, setTitle} from '../dom.js';
import {navigate} from '../nav.js';

export function joinForm({code = '', table = '', note = ''} = {}) {
  const error = h('p', {class: 'error', role: 'alert', hidden: true});
  const codeInput = h('input', {id: 'join-code', name: 'code', required: true, value: code,
    autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false', maxlength: 12,
    class: 'input code-input'});
  const pinInput = h('input', {id: 'join-pin', name: 'pin', required: true, inputmode: 'numeric',
    autocomplete: 'off', maxlength: 12, class: 'input'});
  const tableInput = h('input', {id: 'join-table', name: 'table', inputmode: 'numeric',
    type: 'number', min: 1, max: 1000, value: table, class: 'input'});
  const submit = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Join');
  const form = h('form', {class: 'card form', onsubmit: async (event) => {
    event.preventDefault();
    error.hidden = true;
    submit.disabled = true;
    try {
      const joined = await api.join(codeInput.value, pinInput.value,
        tableInput.value ? Number(tableInput.value) : null);
      navigate(`/e/${joined.event_id}/run`);
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    } finally {
      submit.disabled = false;
    }
  }},
  h('h2', {}, 'Run a table'),
  note && h('p', {class: 'note'}, note),
  h('label', {for: 'join-code'}, 'Event code (on the table card)'), codeInput,
  h('label', {for: 'join-pin'}, 'Join PIN (from the organizer)'), pinInput,
  h('label', {for: 'join-table'}, 'Table number (leave empty to run several tables)'), tableInput,
  error, submit);
  return form;
}

function boardFinder() {
  const error = h('p', {class: 'error', role: 'alert', hidden: true});
  const input = h('input', {id: 'board-code', required: true, autocapitalize: 'characters',
    autocomplete: 'off', maxlength: 12, class: 'input code-input'});
  return h('form', {class: 'card form', onsubmit: async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      const found = await api.getEventByCode(input.value.trim().toUpperCase());
      navigate(`/e/${found.id}/board`);
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  }},
  h('h2', {}, 'Follow the leaderboard'),
  h('label', {for: 'board-code'}, 'Event code'), input, error,
  h('button', {type: 'submit', class: 'btn'}, 'Show the leaderboard'));
}

/** An event's links by what this phone holds: the console (organizer key), the tables its
 * runner keys open, the leaderboard for everyone. */
function eventLinks(mine) {
  const id = mine[0].eventId;
  const organizer = mine.some((k) => k.role === 'organizer');
  const tables = mine.filter((k) => k.role === 'runner').map((k) => k.table);
  const runs = organizer || tables.includes(null) ? 'Enter hands at any table'
    : `Enter hands: table${tables.length > 1 ? 's' : ''} ${tables.sort((a, b) => a - b).join(', ')}`;
  return h('li', {class: 'my-event'}, h('p', {class: 'my-event-name'}, mine[0].eventName),
    h('div', {class: 'my-event-links'},
      organizer && h('a', {class: 'btn btn-primary', href: `/e/${id}/organize`}, 'Organizer console'),
      h('a', {class: 'btn', href: `/e/${id}/run`}, runs),
      h('a', {class: 'btn', href: `/e/${id}/board`}, 'Leaderboard')));
}

const roleWords = (k) => (k.role === 'organizer' ? 'organizer key: opens the console'
  : `runner key: ${k.table ? `table ${k.table}` : 'every table'}`);

/** A key with Forget, which takes a second tap; forgetting an organizer key says first that the
 * console then no longer opens on this phone, and offers its link to keep. */
function keyRow(k, main) {
  const warning = h('div', {class: 'forget-warning', role: 'alert', hidden: true});
  const keep = button('Keep the key', () => disarm(), {class: 'btn-small', hidden: true,
    'aria-label': `Keep the key for ${k.eventName}`});
  const forget = button('Forget', async () => {
    if (!forget.classList.contains('armed')) {
      forget.classList.add('armed');
      forget.textContent = 'Tap again to forget';
      forget.setAttribute('aria-label', `Tap again to forget the key for ${k.eventName}`);
      keep.hidden = false;
      mount(warning, ...(k.role === 'organizer' ? organizerWarning(k) : [h('p', {},
        `This phone will need the event code and PIN again to enter hands at ${k.eventName}.`)]));
      warning.hidden = false;
      return;
    }
    forget.disabled = true;
    await api.forgetKey(k.key);
    render(main);
  }, {class: 'btn-small', 'aria-label': `Forget the key for ${k.eventName}`});
  function disarm() {
    forget.classList.remove('armed');
    forget.textContent = 'Forget';
    forget.setAttribute('aria-label', `Forget the key for ${k.eventName}`);
    keep.hidden = true;
    warning.hidden = true;
  }
  return h('li', {class: 'key-item'}, h('div', {class: 'row-between'},
    h('span', {}, h('strong', {}, k.eventName), h('span', {class: 'hint key-role'}, roleWords(k))),
    h('span', {class: 'key-actions'}, keep, forget)), warning);
}

function organizerWarning(k) {
  const link = `${location.origin}/e/${k.eventId}/organize#key=${k.key}`;
  const field = h('input', {id: `org-link-${k.eventId}`, class: 'input', readonly: true, value: link});
  const said = h('span', {class: 'hint', 'aria-live': 'polite'});
  return [h('p', {}, h('strong', {}, 'Without the organizer link, the console for '
    + `${k.eventName} can't be opened again on this phone.`), ' The link was shown only once, '
    + 'when the event was created. If nobody kept it, copy it now before forgetting the key.'),
  h('label', {for: field.id}, 'Organizer link'), field,
  button('Copy the organizer link', async () => {
    field.select();
    try { await navigator.clipboard.writeText(link); said.textContent = 'Copied.'; } catch { said.textContent = 'Selected: copy it.'; }
  }), ' ', said];
}

export async function render(main) {
  setTitle('');
  const params = new URLSearchParams(location.search);
  const all = await api.keys();
  const events = new Map();
  for (const k of all) events.set(k.eventId, [...(events.get(k.eventId) || []), k]);
  const note = params.get('rejoin')
    ? 'The key on this phone stopped working. Join again: nothing you entered is lost.' : '';
  mount(main,
    h('h1', {class: 'page-title'}, 'Euchre scorekeeper'),
    events.size > 0 && h('section', {class: 'card'},
      h('h2', {}, 'Your events'),
      h('ul', {class: 'my-events'}, [...events.values()].map(eventLinks))),
    joinForm({table: params.get('table') || '', note}),
    boardFinder(),
    h('section', {class: 'card'}, h('h2', {}, 'Run a tournament'),
      h('p', {}, 'Create an event, check players in, seat rounds and follow every table.'),
      h('a', {class: 'btn btn-link', href: '/organize/new'}, 'Create an event')),
    h('section', {class: 'card'}, h('h2', {}, 'A club that plays every month'),
      h('p', {}, 'Keep your players from one night to the next: series standings, and each '
        + 'player\'s record and statistics from the hands.'),
      h('a', {class: 'btn btn-link', href: '/clubs/new'}, 'Create a club')),
    events.size > 0 && h('section', {class: 'card'},
      h('h2', {}, 'Keys on this phone'),
      h('ul', {class: 'plain-list'}, all.map((k) => keyRow(k, main)))));
}
