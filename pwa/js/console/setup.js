/** The console before play: create an event, its overview, the players, access and keys. */

import * as api from '../api.js';
import {button, h, mount, setTitle} from '../dom.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {act, card, does, failure, inp, lab, linkBox, load, msg, plain, say} from './ui.js';

/** /e/<id>/organize[#key=...]: the event at a glance and what to do next. */
export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'home', 'Event');
  if (!framed) return;
  const base = `/e/${id}/organize`;
  await load(framed.body, () => Promise.all([calls.event(id), calls.rounds(id)]), ([event, rounds]) => {
    const now = rounds.filter((r) => r.status !== 'scheduled').at(-1);
    const [text, path, label] = !(event.players || event.teams) ? ['Nobody is registered yet.', '/players', 'Add players']
      : !now ? ['Nobody is seated yet.', '/rounds', 'Seat round 1']
        : now.status === 'playing' ? [`${now.label} is being played: ${now.progress.finished} of `
          + `${now.progress.tables} tables finished.`, '/rounds', `Follow ${now.label}`]
          : [`${now.label} is closed.`, '/rounds', 'Next round'];
    const link = (href, words) => h('li', {}, h('a', {class: 'btn btn-link', href}, words));
    mount(framed.body,
      card('Next', h('p', {class: 'next-step'}, text), h('a', {class: 'btn btn-primary', href: base + path}, label)),
      card(event.format.name, h('p', {}, event.format.summary),
        h('p', {}, `${event.players} players${event.teams ? ` in ${event.teams} teams` : ''} · `
          + `${event.rounds} of ${plain(event.format.parameters.rounds)} rounds seated`)),
      card('For everyone', h('ul', {class: 'link-list'}, link(`/e/${id}/run`, 'Enter hands at any table'),
        link(`/e/${id}/board`, 'Leaderboard'), link(`/e/${id}/projector`, 'Projector mode'))));
  });
}

/** The preset's parameters in words, and inputs to change its numbers and switches. */
function format(preset) {
  const said = (name) => preset.descriptions[name] || name;
  const fields = Object.entries(preset.parameters).filter(([, v]) => v === null || /number|boolean/.test(typeof v))
    .map(([name, v]) => [name, v, typeof v === 'boolean'
      ? h('select', {id: `p-${name}`, class: 'input'}, [true, false].map((x) => h('option', {value: x, selected: x === v}, plain(x))))
      : inp(`p-${name}`, {type: 'number', inputmode: 'numeric', min: 0, value: v ?? '', placeholder: 'none'})]);
  const changes = () => Object.fromEntries(fields.map(([name, v, input]) => [name, typeof v === 'boolean'
    ? input.value === 'true' : input.value === '' ? null : Number(input.value)]).filter(([name, v]) => v !== preset.parameters[name]));
  return [[h('dl', {class: 'params', 'aria-label': `${preset.name}, in full`},
    Object.entries(preset.parameters).map(([name, v]) => [h('dt', {}, said(name)), h('dd', {}, plain(v))])),
  h('details', {class: 'card'}, h('summary', {class: 'btn btn-link'}, 'Custom format: change its numbers'),
    h('p', {class: 'hint'}, 'A combination that makes no sense is refused with the reason.'),
    fields.map(([name, , input]) => [lab(input, said(name)), input]))], changes];
}

/** The organizer link, shown once: the server answers the key only when the event is made. */
async function created(main, event) {
  let kept = 'This device keeps the key: the console is under "Your events" on the home screen.';
  try { await api.adoptKey(event.organizer_key); } catch (error) {
    kept = `This device could not keep the key (${error.message}): open the link to keep it.`;
  }
  const link = event.links.organizer;
  setTitle(event.name);
  mount(main, h('h1', {class: 'page-title'}, `${event.name} is ready`),
    h('section', {class: 'card once', role: 'alert'}, h('h2', {}, 'Your organizer link: shown only this once'),
      h('p', {}, 'It opens the console on any device and can change everything: save it now (copy it, '
        + 'or photograph the QR code) and share it only with people running the event.'),
      linkBox('Organizer link', link, await calls.qr(link, 'Organizer').catch(() => null)), h('p', {class: 'hint'}, kept)),
    card('For the table runners', h('p', {}, 'Event code ', h('strong', {class: 'big-code'}, event.code),
      ' · join PIN ', h('strong', {class: 'big-code'}, event.join_pin))),
    h('p', {class: 'actions'}, h('a', {class: 'btn btn-primary', href: `/e/${event.id}/organize/players`}, 'Add players'),
      h('a', {class: 'btn', href: `/e/${event.id}/organize`}, 'Open the console')));
}

/** /organize/new: pick a preset, see it in plain words, change it if need be. */
export async function create(main) {
  setTitle('New event');
  document.body.classList.add('console');
  await load(main, calls.presets, (presets) => {
    let chosen = presets.find((p) => p.key === 'progressive') || presets[0];
    let changes;
    const detail = h('div', {});
    const show = () => { let kids; [kids, changes] = format(chosen); mount(detail, kids); };
    const name = inp('event-name', {required: true, maxlength: 120, placeholder: 'Friday night euchre'});
    const out = msg();
    const submit = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Create the event');
    show();
    mount(main, h('h1', {class: 'page-title'}, 'Create an event'), h('form', {class: 'card form', onsubmit: async (e) => {
      e.preventDefault();
      const overrides = changes();
      // Sent once, never retried: a repeat would make a second event whose key nobody sees.
      const event = await act(submit, out, () => calls.createEvent({name: name.value.trim(), preset: chosen.key,
        ...(Object.keys(overrides).length ? {overrides} : {})}), 'Creating…');
      if (event) await created(main, event);
    }}, lab(name, 'Event name'), name,
    h('fieldset', {class: 'presets'}, h('legend', {}, 'Format'), presets.map((p) => h('label', {class: 'preset-option'},
      h('input', {type: 'radio', name: 'preset', value: p.key, checked: p === chosen, onchange: () => { chosen = p; show(); }}),
      h('span', {}, h('strong', {}, p.name), h('span', {class: 'hint'}, p.summary))))),
    detail, out, submit));
  });
}

const cell = (text) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** /e/<id>/organize/players: the field and the door. */
export async function players(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'players', 'Players');
  if (!framed) return;
  const teams = framed.event?.format?.parameters?.entry === 'team';
  const seated = framed.event?.rounds > 0;
  const ghosts = msg('ghosts');
  const counts = h('p', {class: 'counts'});
  const list = h('ul', {class: 'plain-list people'});
  const search = inp('people-search', {type: 'search', placeholder: 'A few letters of a name', oninput: () => paint()});
  const members = (t) => t.members.filter((m) => m.role === 'player');
  const here = (p) => (teams ? members(p).every((m) => m.checked_in) : p.checked_in);
  let field = [];

  const refreshGhosts = () => calls.plan(id).then(
    (plan) => say(ghosts, `${plan.label}: ${plan.notes.join(' ') || 'no ghost seats (every table has four players).'}`, 'info'),
    (error) => say(ghosts, `Next round: ${failure(error, true)}`, 'info'));

  const row = (p) => {
    const out = msg();
    const late = teams ? members(p).some((m) => m.late) : p.late;
    const [words, kind] = p.withdrawn || p.removed ? [p.removed ? 'removed' : 'withdrawn', 'gone']
      : here(p) ? [late ? 'here · late arrival' : 'here', 'here'] : [seated ? 'not here (late?)' : 'not here yet', 'away'];
    const change = (label, body) => does(label, out, () => calls.setEntrant(id, teams, p.id, body), (saved) => {
      field = field.map((x) => (x.id === saved.id ? saved : x));
      paint();
      refreshGhosts();
    }, {class: 'btn-small', 'aria-label': `${label}: ${p.name}`});
    return h('li', {class: ['person', `is-${kind}`], 'data-name': p.name},
      h('span', {class: 'person-name'}, p.name, teams && h('span', {class: 'hint'}, ` (${members(p).map((m) => m.name).join(' & ')})`)),
      h('span', {class: ['badge', `badge-${kind}`]}, words),
      h('span', {class: 'person-actions'}, kind === 'gone' ? change('Bring back', {withdrawn: false})
        : [kind === 'away' && change('Check in', {checked_in: true}), change('Withdraw', {withdrawn: true})]),
      out);
  };

  function paint() {
    const q = search.value.trim().toLowerCase();
    const hit = (p) => [p.name, ...(p.members || []).map((m) => m.name)].some((n) => n.toLowerCase().includes(q));
    mount(counts, `${field.length} registered · ${field.filter((p) => !p.withdrawn && !p.removed && here(p)).length} `
      + `checked in · ${field.filter((p) => p.withdrawn).length} withdrawn`);
    const shown = field.filter(hit);
    mount(list, shown.length ? shown.map(row) : h('li', {class: 'empty'}, field.length ? 'Nobody by that name.' : 'Nobody yet.'));
  }

  const reload = async () => {
    const data = await (teams ? calls.teams(id) : calls.players(id));
    field = teams ? data : data.filter((p) => p.role === 'player');
    paint();
    refreshGhosts();
  };

  // Add one. Reloaded whatever happened: when an answer was lost, the list shows what is stored.
  const addOut = msg();
  const name = inp('add-name', {required: true, maxlength: 120});
  const mates = teams ? [1, 2].map((n) => inp(`add-p${n}`, {required: true, maxlength: 120})) : [];
  const nowHere = h('input', {id: 'add-here', type: 'checkbox', checked: true});
  const addButton = h('button', {type: 'submit', class: 'btn btn-primary'}, teams ? 'Add the team' : 'Add the player');
  const addForm = h('form', {class: 'card form', onsubmit: async (e) => {
    e.preventDefault();
    const made = await act(addButton, addOut, () => (teams
      ? calls.addTeam(id, name.value.trim(), mates.map((m) => m.value.trim()), nowHere.checked)
      : calls.addPlayer(id, name.value.trim(), nowHere.checked)), 'Adding…');
    if (made) {
      say(addOut, `${made.name} added${nowHere.checked ? ' and checked in' : ''}.`);
      addForm.reset();
      nowHere.checked = true;
      name.focus();
    }
    reload().catch(() => {});
  }},
  h('h2', {}, teams ? 'Add a team' : 'Add a player'), lab(name, teams ? 'Team name' : 'Name'), name,
  mates.map((m, i) => [lab(m, `Player ${i + 1}`), m]),
  h('label', {class: 'check'}, nowHere, ' Here now (check in)'), addButton, addOut);

  // A pasted list becomes CSV with a header line: the server's line numbers are one ahead.
  const bulkOut = msg();
  const pasted = inp('paste-list', {rows: 5, placeholder: teams ? 'Aces, Ann Lee, Bob Roy' : 'Ann Lee\nBob Roy'});
  const pastedHere = h('input', {type: 'checkbox', id: 'paste-here'});
  const file = inp('csv-file', {type: 'file', accept: '.csv,text/csv'});
  const send = async (btn, csv, shift) => {
    const done = await act(btn, bulkOut, () => calls.importCsv(id, csv), 'Importing…', shift);
    if (done) {
      say(bulkOut, teams ? `Added ${done.teams} teams.` : `Added ${done.players} players.`);
      await reload();
    }
    return done;
  };
  mount(framed.body,
    card('Check-in at the door', counts, ghosts, lab(search, 'Find a name'), search, list),
    addForm,
    h('section', {class: 'card form'}, h('h2', {}, 'Many at once'),
      lab(pasted, teams ? 'Paste a list: one team a line, "team, player 1, player 2"' : 'Paste a list: one name a line'), pasted,
      h('label', {class: 'check'}, pastedHere, ' They are all here now (check in)'),
      button('Add the list', async (e) => {
        const yes = pastedHere.checked ? 'yes' : 'no';
        // A team's line is "team, player 1, player 2": its cells go in their columns, checked_in last.
        const rows = pasted.value.split(/\r?\n/).map((l) => l.trim()).map((l) => {
          const [first, ...more] = teams ? l.split(',').map((c) => c.trim()) : [l];
          return l ? [first, ...(teams ? [more[0] ?? '', more[1] ?? '', yes, ...more.slice(2)] : [yes])].map(cell).join(',') : '';
        });
        const csv = `${teams ? 'team,player1,player2' : 'name'},checked_in\n${rows.join('\n')}`;
        if (await send(e.currentTarget, csv, 1)) pasted.value = '';
      }),
      lab(file, `Or a CSV file with a header line: ${teams ? 'team,player1,player2' : 'name'} (and optionally checked_in)`), file,
      button('Import the file', async (e) => {
        const btn = e.currentTarget;
        if (!file.files[0]) say(bulkOut, 'Choose a CSV file first.', 'error');
        else if (await send(btn, await file.files[0].text(), 0)) file.value = '';
      }), bulkOut));
  await load(list, reload, () => {});
}

const where = (table) => (table ? `table ${table}` : 'all tables');

export async function access(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'access', 'Access');
  if (!framed) return;
  const issued = h('div', {class: 'issued'});
  const out = msg();
  const issue = (label, work, linkOf) => does(label, out, work, async (made) => {
    const [title, link] = linkOf(made);
    await reload();
    mount(issued, h('div', {class: 'card once'}, h('h3', {}, `${title}: shown once`),
      linkBox(title, link, await calls.qr(link, title).catch(() => null))));
    issued.scrollIntoView({block: 'nearest'});
  }, {pending: 'Issuing…'});
  const paint = ([access, keys]) => {
    const table = inp('runner-table', {type: 'number', min: 1, max: 1000, inputmode: 'numeric', placeholder: 'all tables'});
    mount(framed.body,
      card('Runners join with', h('p', {}, 'Event code ', h('strong', {class: 'big-code'}, access.code),
        ' · PIN ', h('strong', {class: 'big-code', 'data-k': 'pin'}, access.join_pin)),
      h('p', {class: 'hint'}, 'A new PIN stops the old one; runners already in keep working.'),
      does('New PIN', out, () => calls.newPin(id), reload, {sure: 'Tap again for a new PIN'})),
      card('Runner links', h('p', {class: 'hint'}, 'A runner link opens the game screen without the PIN: '
        + 'one a table, or one for all tables.'), lab(table, 'Table (empty: all tables)'), table,
      issue('Make a runner link', () => calls.issueKey(id, Number(table.value) || null, where(table.value)),
        (k) => [`Runner link, ${where(k.table)}`, k.link])),
      out, issued,
      card('Public links',
        linkBox('Leaderboard (players\' phones)', access.links.leaderboard, api.qrSvgUrl(id, 'board')),
        linkBox('Join page (runners type the PIN)', access.links.join, api.qrSvgUrl(id, 'join'))),
      card('Organizer', h('p', {class: 'hint'}, 'Another organizer link, for a second desk.'),
        issue('Another organizer link', () => calls.newOrganizerKey(id),
          (k) => ['Organizer link', `${access.links.organizer}#key=${k.organizer_key}`])),
      card('Keys', h('ul', {class: 'plain-list'}, keys.map((k) => {
        const what = k.role === 'organizer' ? 'Organizer' : `Runner, ${where(k.table)}`;
        return h('li', {class: ['key-row', k.revoked && 'revoked']},
          h('span', {}, h('strong', {}, what), ` · ${k.label} · …${k.hint}`,
            k.role === 'organizer' && framed.key.endsWith(k.hint) ? ' · this device' : '', k.revoked ? ' · revoked' : ''),
          !k.revoked && does('Revoke', out, () => calls.revokeKey(id, k.id), reload,
            {sure: 'Tap again: it stops working', class: 'btn-small', 'aria-label': `Revoke: ${what}, …${k.hint}`}));
      }))));
  };
  const reload = () => load(framed.body, () => Promise.all([calls.access(id), calls.keys(id)]), paint);
  await reload();
}
