/** /e/<id>/organize/players: add, paste, import; check-in at the door, late arrivals,
 * withdrawals; the ghost seats the next round needs, from the server's preview. The list
 * follows the door live: it polls the door's requests (whose ETag is the event's revision), so
 * a self check-in or a request to be added shows without a reload. */

import * as api from '../api.js';
import {button, h, mount} from '../dom.js';
import * as calls from './calls.js';
import {registering} from './decide.js';
import {doorCard} from './door.js';
import {frame, organizerKey} from './frame.js';
import {stayPicker} from './seats.js';
import {act, card, does, failure, inp, lab, load, msg, say} from './ui.js';

const cell = (text) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/** /e/<id>/organize/players: the field and the door. */
export async function render(main, {eventId}) {
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
  const opened = new Set();  // rows whose "More" is open, kept open across repaints

  const refreshGhosts = () => calls.next(id).then(
    (plan) => say(ghosts, plan.reason ? `Next round: ${plan.reason}`
      : `${plan.label}: ${plan.notes.join(' ') || 'no ghost seats (every table has four players).'}`, 'info'),
    (error) => say(ghosts, `Next round: ${failure(error, true)}`, 'info'));

  const row = (p) => {
    const out = msg();
    const late = teams ? members(p).some((m) => m.late) : p.late;
    const [words, kind] = p.withdrawn || p.removed ? [p.removed ? 'removed' : 'withdrawn', 'gone']
      : here(p) ? [late ? 'here · late arrival' : 'here', 'here'] : [seated ? 'not here (late?)' : 'not here yet', 'away'];
    const anyway = h('span');
    const change = (label, body, then = () => {}, extra = {}) => does(label, out,
      () => calls.setEntrant(id, teams, p.id, body).catch((error) => {
        // After the window closed: the organizer's exception for this one person.
        if (error.code === 'check-in-closed') {
          mount(anyway, change('Check in anyway', {checked_in: true, after_window: true}, checkedIn));
        }
        throw error;
      }), (saved) => {
        field = field.map((x) => (x.id === saved.id ? saved : x));
        then(saved);
        paint();
        refreshGhosts();
      }, {class: 'btn-small', 'aria-label': `${label}: ${p.name}`, ...extra});
    // One line at the door: the name with its badge, and the one tap the desk needs most
    // (Check in, or Undo). Withdraw and where they sit are behind "More", so a phone shows a
    // dozen names at a time.
    const more = h('div', {class: 'person-more', id: `more-${p.id}`, hidden: !opened.has(p.id)},
      kind === 'gone' ? null : change('Withdraw', {withdrawn: true}, () => {}, {sure: `Withdraw ${p.name}? Tap again`}),
      !league && kind !== 'gone' && stayPicker(id, teams, p, tables(), (saved) => {
        field = field.map((x) => (x.id === saved.id ? saved : x));
        paint();
        refreshGhosts();
      }));
    const toggle = kind !== 'gone' && button('More', () => {
      more.hidden = !more.hidden;
      toggle.setAttribute('aria-expanded', String(!more.hidden));
      if (more.hidden) opened.delete(p.id); else opened.add(p.id);
    }, {class: 'btn-small person-toggle', 'aria-expanded': String(opened.has(p.id)),
      'aria-controls': `more-${p.id}`, 'aria-label': `More for ${p.name}`});
    return h('li', {class: ['person', `is-${kind}`], 'data-name': p.name},
      h('span', {class: 'person-who'}, h('span', {class: 'person-name'}, p.name, teams && h('span', {class: 'hint'},
        ` (${members(p).map((m) => m.name).join(' & ')})${p.division ? ` · ${p.division}` : ''}`)),
      h('span', {class: ['badge', `badge-${kind}`]}, words)),
      h('span', {class: 'person-actions'}, kind === 'gone' ? change('Bring back', {withdrawn: false})
        : kind === 'away' ? change('Check in', {checked_in: true}, checkedIn) : change('Undo check-in', {checked_in: false}),
      toggle),
      more, out, anyway);
  };

  // At the door: after a check-in the search is empty and ready for the next name, and the
  // line above the list says who came in, with an Undo for a wrong tap.
  const door = msg('door');
  function checkedIn(saved) {
    search.value = '';
    search.focus();
    const undo = does('Undo', door, () => calls.setEntrant(id, teams, saved.id, {checked_in: false}), (back) => {
      field = field.map((x) => (x.id === back.id ? back : x));
      say(door, `${back.name}: check-in undone.`);
      paint();
      refreshGhosts();
    }, {class: 'btn-small', 'aria-label': `Undo the check-in of ${saved.name}`});
    const late = teams ? members(saved).some((m) => m.late) : saved.late;
    say(door, `${saved.name} checked in${late ? ' (late arrival)' : ''}. `, 'ok', undo);
  }

  // The tables a stay can name: as many as the field fills (a stay beyond them is refused).
  const tables = () => Math.max(1, Math.ceil(field.filter((p) => !p.withdrawn && !p.removed).length / (teams ? 2 : 4)));
  const byName = (a, b) => a.name.localeCompare(b.name, undefined, {sensitivity: 'base', numeric: true});

  function paint() {
    const q = search.value.trim().toLowerCase();
    const hit = (p) => [p.name, ...(p.members || []).map((m) => m.name)].some((n) => n.toLowerCase().includes(q));
    mount(counts, `${field.length} registered · ${field.filter((p) => !p.withdrawn && !p.removed && here(p)).length} `
      + `checked in · ${field.filter((p) => p.withdrawn).length} withdrawn`);
    const shown = field.filter(hit).sort(byName);
    mount(list, shown.length ? shown.map(row) : h('li', {class: 'empty'}, field.length ? 'Nobody by that name.' : 'Nobody yet.'));
  }

  const reload = async () => {
    const data = await (teams ? calls.teams(id) : calls.players(id));
    field = teams ? data : data.filter((p) => p.role === 'player');
    paint();
    refreshGhosts();
  };

  // Requests to be added, made at the door: Accept adds the person, checked in.
  const asking = h('div');
  const paintRequests = (all) => mount(asking, all.filter((r) => r.status === 'waiting').map((r) => {
    const out = msg();
    const decide = (label, accept, extra = {}) => does(label, out,
      () => api.request('POST', `/api/events/${id}/door-requests/${r.id}`, {body: {accept}, key})
        .then((a) => { if (a.status >= 400) throw new api.ApiError(a.status, a.data); return a.data; }),
      () => poll(), {class: 'btn-small', 'aria-label': `${label}: ${r.name}`, ...extra});
    return h('p', {class: 'door-request'}, h('strong', {}, r.name), ' asks to be added at the door. ',
      decide('Accept', true), decide('Decline', false, {sure: 'Tap again to decline'}), out);
  }));
  const key = await organizerKey(id);
  let etag = null;
  let timer = null;
  let stopped = false;
  async function poll() {
    clearTimeout(timer);
    try {
      const answer = await api.request('GET', `/api/events/${id}/door-requests`, {key, ifNoneMatch: etag});
      if (answer.status === 200) {
        if (etag) await reload();
        etag = answer.etag;
        paintRequests(answer.data);
      }
    } catch { /* no network: the next poll tries again */ }
    if (!stopped) timer = setTimeout(poll, 3000);
  }

  // Add one. Reloaded whatever happened: when an answer was lost, the list shows what is stored.
  const addOut = msg();
  const name = inp('add-name', {required: true, maxlength: 120});
  const mates = teams ? [1, 2].map((n) => inp(`add-p${n}`, {required: true, maxlength: 120})) : [];
  const league = framed.event?.format?.parameters?.movement === 'league-schedule';
  const division = league ? inp('add-division', {maxlength: 40, placeholder: 'e.g. Upper (leave empty: one pool)'}) : null;
  const nowHere = h('input', {id: 'add-here', type: 'checkbox', checked: true});
  const addButton = h('button', {type: 'submit', class: 'btn btn-primary'}, teams ? 'Add the team' : 'Add the player');
  const addDecide = h('div');
  const added = (made, here) => {
    if (!made) return;
    say(addOut, `${made.name} added${here ? ' and checked in' : ''}.`);
    addForm.reset();
    nowHere.checked = true;
    name.focus();
    reload().catch(() => {});
  };
  const addForm = h('form', {class: 'card form', onsubmit: async (e) => {
    e.preventDefault();
    const [who, members, here] = [name.value.trim(), mates.map((m) => m.value.trim()), nowHere.checked];
    const made = await act(addButton, addOut, () => registering(addDecide, (people) => (teams
      ? calls.addTeam(id, who, members, here, people, division?.value.trim() || null)
      : calls.addPlayer(id, who, here, people)),
    (done) => added(done, here)), 'Adding…');
    added(made, here);
    if (!made) reload().catch(() => {});
  }},
  h('h2', {}, teams ? 'Add a team' : 'Add a player'), lab(name, teams ? 'Team name' : 'Name'), name,
  mates.map((m, i) => [lab(m, `Player ${i + 1}`), m]),
  division && [lab(division, 'Division (skill level, optional)'), division],
  h('label', {class: 'check'}, nowHere, ' Here now (check in)'), addButton, addOut, addDecide);

  // A pasted list becomes CSV with a header line: the server's line numbers are one ahead.
  const bulkOut = msg();
  const pasted = inp('paste-list', {rows: 5, placeholder: teams ? 'Aces, Ann Lee, Bob Roy' : 'Ann Lee\nBob Roy'});
  const pastedHere = h('input', {type: 'checkbox', id: 'paste-here'});
  const file = inp('csv-file', {type: 'file', accept: '.csv,text/csv'});
  const bulkDecide = h('div');
  const imported = async (done) => {
    pasted.value = '';
    file.value = '';
    say(bulkOut, teams ? `Added ${done.teams} teams.` : `Added ${done.players} players.`);
    await reload();
  };
  const send = async (btn, csv, shift) => {
    const done = await act(btn, bulkOut, () => registering(bulkDecide,
      (people) => calls.importCsv(id, csv, people), imported), 'Importing…', shift);
    if (done) await imported(done);
    return done;
  };
  mount(framed.body,
    card('Check-in at the door', counts, ghosts, asking, lab(search, 'Find a name'), search, door, list),
    doorCard(id, framed.event), addForm,
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
      }), bulkOut, bulkDecide));
  await load(list, reload, () => {});
  poll();
  return () => { stopped = true; clearTimeout(timer); };
}
