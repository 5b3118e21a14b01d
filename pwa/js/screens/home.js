/** Home: join an event as a runner (code + PIN), open the tables this phone runs, find a board. */

import * as api from '../api.js';
import {button, h, mount, setTitle} from '../dom.js';
import {navigate} from '../router.js';

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

export async function render(main) {
  setTitle('');
  const params = new URLSearchParams(location.search);
  const all = await api.keys();
  const events = new Map();
  for (const k of all) if (!events.has(k.eventId)) events.set(k.eventId, k);
  const note = params.get('rejoin')
    ? 'The key on this phone stopped working. Join again: nothing you entered is lost.' : '';
  mount(main,
    h('h1', {class: 'page-title'}, 'Euchre scorekeeper'),
    events.size > 0 && h('section', {class: 'card'},
      h('h2', {}, 'Your events'),
      h('ul', {class: 'link-list'}, [...events.values()].map((k) => h('li', {},
        h('a', {class: 'btn btn-link', href: `/e/${k.eventId}/run`}, `${k.eventName}: your tables`),
        all.some((o) => o.eventId === k.eventId && o.role === 'organizer')
          && h('a', {class: 'btn btn-link', href: `/e/${k.eventId}/organize`}, 'Console'),
        h('a', {class: 'btn btn-link', href: `/e/${k.eventId}/board`}, 'Leaderboard'))))),
    joinForm({table: params.get('table') || '', note}),
    boardFinder(),
    h('section', {class: 'card'}, h('h2', {}, 'Run a tournament'),
      h('p', {}, 'Create an event, check players in, seat rounds and follow every table.'),
      h('a', {class: 'btn btn-link', href: '/organize/new'}, 'Create an event')),
    events.size > 0 && h('section', {class: 'card'},
      h('h2', {}, 'Keys on this phone'),
      h('ul', {class: 'plain-list'}, all.map((k) => h('li', {class: 'row-between'},
        h('span', {}, `${k.eventName} · ${k.role}${k.table ? ` · table ${k.table}` : ''}`),
        button('Forget', async () => { await api.forgetKey(k.key); render(main); },
          {'aria-label': `Forget the key for ${k.eventName}`}))))));
}
