/**
 * /e/<id>/organize/players: the field. Add one, paste a list, import a CSV (refused rows shown
 * by line), check-in at the door with search, late arrivals, withdrawals; and, before seating,
 * the ghost seats the next round will need (the server's preview says so).
 */

import {button, h, mount} from '../dom.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {act, failure, load, msg, say} from './ui.js';

/** One CSV cell (quoted when it holds a comma, a quote or a line break). */
const cell = (text) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function stateWords(who, seated) {
  if (who.withdrawn) return ['withdrawn', 'gone'];
  if (who.removed) return ['removed', 'gone'];
  if (!who.checked_in) return [seated ? 'not here (arrives late)' : 'not here yet', 'away'];
  return [who.late ? 'here · late arrival' : 'here', 'here'];
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'players', 'Players');
  if (!framed) return;
  const teams = framed.event?.format?.parameters?.entry === 'team';
  const seated = (framed.event?.rounds || 0) > 0;
  const ghosts = h('p', {class: 'ghosts', 'aria-live': 'polite'});
  const counts = h('p', {class: 'counts'});
  const list = h('ul', {class: 'plain-list people'});
  const search = h('input', {id: 'people-search', class: 'input', type: 'search',
    autocomplete: 'off', placeholder: 'Type a few letters of a name'});
  let field = [];

  const refreshGhosts = async () => {
    try {
      const plan = await calls.plan(id);
      say(ghosts, `${plan.label}: ${plan.notes.length ? plan.notes.join(' ')
        : 'no ghost seats (every table has four players).'}`, 'info');
    } catch (error) {
      say(ghosts, `Next round: ${failure(error, true)}`, 'info');
    }
  };

  const isHere = (who) => (teams ? who.members.every((m) => m.checked_in || m.role !== 'player')
    : who.checked_in);
  const row = (who) => {
    const out = msg();
    const here = isHere(who);
    const [words, kind] = stateWords({...who, checked_in: here,
      late: teams ? who.members.some((m) => m.late) : who.late}, seated);
    const change = (label, pending, changes) => button(label, (e) => act(e.currentTarget, out, async () => {
      const saved = await (teams ? calls.setTeam(id, who.id, changes) : calls.setPlayer(id, who.id, changes));
      field = field.map((x) => (x.id === saved.id ? saved : x));
      paint();
      refreshGhosts();
    }, pending), {class: 'btn-small', 'aria-label': `${label}: ${who.name}`});
    return h('li', {class: ['person', `is-${kind}`], 'data-name': who.name},
      h('span', {class: 'person-name'}, who.name,
        teams && h('span', {class: 'hint'}, ` (${who.members.filter((m) => m.role === 'player')
          .map((m) => m.name).join(' & ')})`)),
      h('span', {class: ['badge', `badge-${kind}`]}, words),
      h('span', {class: 'person-actions'},
        who.withdrawn || who.removed ? change('Bring back', 'Saving…', {withdrawn: false})
          : [!here && change('Check in', 'Checking in…', {checked_in: true}),
            here && !seated && change('Undo check-in', 'Saving…', {checked_in: false}),
            change('Withdraw', 'Withdrawing…', {withdrawn: true})]),
      out);
  };

  function paint() {
    const q = search.value.trim().toLowerCase();
    const shown = field.filter((p) => !q || p.name.toLowerCase().includes(q)
      || (p.members || []).some((m) => m.name.toLowerCase().includes(q)));
    const here = field.filter((p) => !p.withdrawn && !p.removed && isHere(p));
    mount(counts, `${field.length} registered · ${here.length} checked in · `
      + `${field.filter((p) => p.withdrawn).length} withdrawn`);
    mount(list, shown.length ? shown.map(row) : h('li', {class: 'empty'},
      field.length ? 'Nobody by that name.' : 'Nobody yet: add players below.'));
  }

  const reload = async () => {
    const data = await (teams ? calls.teams(id) : calls.players(id));
    field = teams ? data : data.filter((p) => p.role === 'player');
    paint();
    refreshGhosts();
  };
  search.addEventListener('input', paint);

  // --- add one -------------------------------------------------------------------------------
  const addOut = msg();
  const name = h('input', {id: 'add-name', class: 'input', required: true, maxlength: 120, autocomplete: 'off'});
  const mates = teams ? [1, 2].map((n) => h('input', {id: `add-p${n}`, class: 'input', required: true,
    maxlength: 120, autocomplete: 'off'})) : [];
  const nowHere = h('input', {id: 'add-here', type: 'checkbox', checked: true});
  const addButton = h('button', {type: 'submit', class: 'btn btn-primary'}, teams ? 'Add the team' : 'Add the player');
  const addForm = h('form', {class: 'card form', onsubmit: async (e) => {
    e.preventDefault();
    const label = name.value.trim();
    const made = await act(addButton, addOut, () => (teams
      ? calls.addTeam(id, label, mates.map((m) => m.value.trim()), nowHere.checked)
      : calls.addPlayer(id, label, nowHere.checked)), 'Adding…');
    if (made) {
      say(addOut, `${made.name} added${nowHere.checked ? ' and checked in' : ''}.`);
      addForm.reset();
      nowHere.checked = true;
      name.focus();
    }
    // Reload either way: when the answer was lost, the list shows whether it was stored.
    reload().catch(() => {});
  }},
  h('h2', {}, teams ? 'Add a team' : 'Add a player'),
  h('label', {for: 'add-name'}, teams ? 'Team name' : 'Name'), name,
  mates.map((m, i) => [h('label', {for: m.id}, `Player ${i + 1}`), m]),
  h('label', {class: 'check'}, nowHere, ' Here now (check in)'),
  addButton, addOut);

  // --- a pasted list, or a CSV file ----------------------------------------------------------
  const bulkOut = msg();
  const pasted = h('textarea', {id: 'paste-list', class: 'input', rows: 5, autocomplete: 'off',
    placeholder: teams ? 'Aces, Ann Lee, Bob Roy' : 'Ann Lee\nBob Roy'});
  const pastedHere = h('input', {type: 'checkbox', id: 'paste-here'});
  const file = h('input', {id: 'csv-file', class: 'input', type: 'file', accept: '.csv,text/csv'});
  const send = async (btn, csv, shift) => {
    const done = await act(btn, bulkOut, () => calls.importCsv(id, csv), 'Importing…', shift);
    if (done) {
      say(bulkOut, teams ? `Added ${done.teams} teams (${done.players} players).`
        : `Added ${done.players} players.`);
      await reload();
    }
    return done;
  };
  // The server numbers CSV lines from its header line: a pasted list gets one, so its lines
  // are reported shifted back by one.
  const pasteButton = button('Add the list', async (e) => {
    const yes = pastedHere.checked ? 'yes' : 'no';
    const rows = pasted.value.split(/\r?\n/).map((l) => l.trim())
      .map((l) => (l ? `${teams ? l : cell(l)},${yes}` : ''));
    const head = teams ? 'team,player1,player2,checked_in' : 'name,checked_in';
    if (await send(e.currentTarget, `${head}\n${rows.join('\n')}`, 1)) pasted.value = '';
  });
  const fileButton = button('Import the file', async (e) => {
    const chosen = file.files[0];
    if (!chosen) { say(bulkOut, 'Choose a CSV file first.', 'error'); return; }
    const btn = e.currentTarget;
    if (await send(btn, await chosen.text(), 0)) file.value = '';
  });

  mount(framed.body,
    h('section', {class: 'card'},
      h('h2', {}, 'Check-in at the door'),
      counts, ghosts,
      h('label', {for: 'people-search'}, 'Find a name'), search, list),
    addForm,
    h('section', {class: 'card form'},
      h('h2', {}, 'Many at once'),
      h('label', {for: 'paste-list'}, teams ? 'Paste a list: one team a line, "team, player 1, player 2"'
        : 'Paste a list: one name a line'), pasted,
      h('label', {class: 'check'}, pastedHere, ' They are all here now (check in)'),
      pasteButton,
      h('label', {for: 'csv-file'}, teams ? 'Or import a CSV file with a header: team,player1,player2 (optional: checked_in)'
        : 'Or import a CSV file with a header: name (optional: checked_in yes/no)'), file,
      fileButton, bulkOut));
  await load(list, reload, () => {});
}
