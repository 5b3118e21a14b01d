/**
 * /e/<id>/team/<teamId>: a league team's page for its captain's phone: every week's night,
 * opponent, table, result and points, every forfeit (an opponent's announced ahead too), its
 * playoff matches with their nights, the roster. With the team key (kept on this phone, or brought by the link's #key=) the captain
 * edits the roster until it is final, says "We can't come" for a week not started, and takes that
 * back (a substitute found) until the week starts.
 */

import * as api from '../api.js';
import {button, h, mount, setTitle} from '../dom.js';

const CSS = '/js/league/league.css'; // its own styles, out of the runner's shell

export function styles() {
  if (!document.querySelector(`link[href="${CSS}"]`)) document.head.append(h('link', {rel: 'stylesheet', href: CSS}));
}

const store = (eventId, teamId) => `team-key:${eventId}:${teamId}`;

export function keepTeamKey(eventId, teamId, key) {
  try { localStorage.setItem(store(eventId, teamId), key); } catch { /* private mode: the link still works */ }
}

function teamKey(eventId, teamId) {
  const given = new URLSearchParams(location.hash.slice(1)).get('key');
  if (given) {
    keepTeamKey(eventId, teamId, given);
    history.replaceState(null, '', location.pathname); // the key leaves the address bar
    return given;
  }
  try { return localStorage.getItem(store(eventId, teamId)); } catch { return null; }
}

const night = (w) => (w.date ? new Date(`${w.date}T12:00`).toLocaleDateString(undefined,
  {weekday: 'short', month: 'short', day: 'numeric'}) + (w.start ? ` ${w.start}` : '') : '');

export async function render(main, {eventId, teamId}) {
  styles();
  setTitle('Team');
  const key = teamKey(eventId, teamId);
  const base = `/api/events/${eventId}/teams/${teamId}`;
  const out = h('p', {class: 'msg msg-error', role: 'alert', hidden: true});
  const said = h('p', {class: 'msg msg-ok', role: 'status', hidden: true});
  const say = (el, text) => { el.hidden = !text; el.textContent = text || ''; };

  async function write(method, path, body) {
    say(out, '');
    say(said, '');
    try {
      const answer = await api.request(method, `${base}/${path}`, {body, key});
      if (answer.status < 400) return answer.data;
      say(out, answer.data?.detail || `The server answered ${answer.status}.`);
    } catch (error) {
      say(out, `${error.message} Try again.`);
    }
    return null;
  }

  function forfeitLine(f, us, w) {
    const who = f.team_id === us ? 'You' : f.name;
    const games = `game${f.games.length > 1 ? 's' : ''} ${f.games.join(', ')}`;
    return [h('p', {class: ['note', 'forfeit', f.advance && 'ahead']}, `${who} ${f.team_id === us ? 'forfeit' : 'forfeits'} `
      + `${games}${f.advance ? ', announced before the night' : ''}${f.note ? ` (${f.note})` : ''}.`),
    key && f.team_id === us && f.advance && w.status === 'scheduled' && takeBack(w)];
  }

  /** The team found a substitute: its forfeit announced for a week not started is taken back
   * (a second tap confirms). Gone once the week starts: the forfeit stands then. */
  function takeBack(w) {
    return button('Take back: we can play', async (e) => {
      const btn = e.currentTarget;
      if (btn.dataset.sure !== 'yes') {
        btn.dataset.sure = 'yes';
        btn.textContent = `Tap again: we play week ${w.week}`;
        return;
      }
      btn.disabled = true;
      const done = await write('DELETE', `advance-forfeits/${w.week}`);
      if (done) { await load(); say(said, done.message); } else btn.disabled = false;
    }, {class: 'btn-small take-back'});
  }

  function week(d, w) {
    const mine = w.forfeits.some((f) => f.team_id === d.team.id);
    const result = w.games_won && (w.games_won.us || w.games_won.them)
      ? `${w.games_won.us}–${w.games_won.them}${w.points !== null ? ` · ${w.points} points` : ''}` : '';
    const item = h('li', {class: 'team-week', 'data-week': w.week},
      h('p', {class: 'row-between'}, h('strong', {}, `Week ${w.week}`), h('span', {class: 'hint'}, night(w))),
      h('p', {}, w.bye ? 'Bye: no match this week.' : `${w.home ? 'Home' : 'Away'} v ${w.opponent.name}`
        + `${w.table ? ` · table ${w.table}` : ''}`, result && h('strong', {class: 'team-result'}, ` ${result}`)),
      w.forfeits.map((f) => forfeitLine(f, d.team.id, w)));
    if (key && !w.bye && w.status === 'scheduled' && !mine) {
      const sure = button(`We can't come in week ${w.week}`, async (e) => {
        if (e.currentTarget.dataset.sure !== 'yes') {
          e.currentTarget.dataset.sure = 'yes';
          e.currentTarget.textContent = `Tap again: forfeit week ${w.week} (all 3 games)`;
          return;
        }
        e.currentTarget.disabled = true;
        const done = await write('POST', 'advance-forfeits', {week: w.week});
        if (done) { await load(); say(said, `Week ${w.week}: forfeit announced. ${w.opponent.name} see it now.`); }
      }, {class: 'btn-small cant-come'});
      item.append(sure);
    }
    return item;
  }

  /** A playoff match: its round, night, opponent, table and games won (best of 3). */
  function playoff(p) {
    const score = p.games_won.us || p.games_won.them ? `${p.games_won.us}–${p.games_won.them}` : '';
    const went = p.won === true ? ' · through' : p.won === false ? ' · out' : '';
    return h('li', {class: 'team-week team-playoff', 'data-round': p.round},
      h('p', {class: 'row-between'}, h('strong', {}, p.label || `Playoff round ${p.round}`), h('span', {class: 'hint'}, night(p))),
      h('p', {}, `v ${p.opponent.name}${p.table ? ` · table ${p.table}` : ''}`,
        score && h('strong', {class: 'team-result'}, ` ${score}${went}`)));
  }

  function rosterForm(d) {
    const input = (id, label, value) => [h('label', {for: id}, label),
      h('input', {id, class: 'input', maxlength: 120, value, autocomplete: 'off'})];
    const [l1, name] = input('ro-name', 'Team name', d.team.name);
    const [l2, one] = input('ro-p1', 'Player 1', d.team.players[0]);
    const [l3, two] = input('ro-p2', 'Player 2', d.team.players[1]);
    const subs = h('textarea', {id: 'ro-subs', class: 'input', rows: 3}, d.team.substitutes.join('\n'));
    return h('form', {class: 'form', onsubmit: async (e) => {
      e.preventDefault();
      const done = await write('PUT', 'roster', {name: name.value, players: [one.value, two.value],
        substitutes: subs.value.split('\n').map((s) => s.trim()).filter(Boolean)});
      if (done) { paint(done); say(said, 'Roster saved.'); }
    }}, l1, name, l2, one, l3, two, h('label', {for: 'ro-subs'}, 'Substitutes, one a line'), subs,
    h('button', {type: 'submit', class: 'btn btn-primary'}, 'Save the roster'));
  }

  function paint(d) {
    setTitle(d.team.name);
    const o = d.offences;
    const calendar = h('section', {class: 'card team-calendar'});
    import('../feeds/calendar.js').then((m) => m.teamCalendar(calendar, eventId, teamId, key)).catch(() => {});
    mount(main, h('h1', {class: 'page-title'}, d.team.name),
      h('p', {class: 'hint'}, `${d.event_name}${d.team.division ? ` · ${d.team.division}` : ''}`),
      said, out,
      o && o.offences > 0 && h('p', {class: 'msg msg-info'}, o.message),
      o?.ahead_message && h('p', {class: 'msg msg-info offences-ahead'}, o.ahead_message),
      h('section', {class: 'card'}, h('h2', {}, 'Schedule and results'),
        h('ul', {class: 'plain-list team-weeks'}, d.weeks.map((w) => week(d, w))),
        !d.weeks.length && h('p', {}, 'The season is not scheduled yet.')),
      d.playoffs?.length > 0 && h('section', {class: 'card'}, h('h2', {}, 'Playoffs'),
        h('ul', {class: 'plain-list team-weeks team-playoffs'}, d.playoffs.map(playoff))),
      calendar,
      d.protests?.length > 0 && h('section', {class: 'card'}, h('h2', {}, 'Protests'),
        h('ul', {class: 'plain-list team-protests'}, d.protests.map((p) => h('li', {},
          `${p.team_name} protested ${p.player_name} (${p.against_team_name}): ${p.grounds} · `,
          h('strong', {}, p.status === 'waiting' ? 'waiting for a ruling' : `${p.status}: ${p.ruling_reason}`))))),
      h('section', {class: 'card'}, h('h2', {}, 'Roster'),
        h('p', {}, `Players: ${d.team.players.join(' and ')}`),
        h('p', {}, `Substitutes: ${d.team.substitutes.join(', ') || 'none'}`),
        h('p', {class: 'hint roster-state'}, d.roster_message),
        key && !d.roster_locked && rosterForm(d),
        !key && h('p', {class: 'hint'}, 'Captains: open the link you got when registering to change the roster.')));
  }

  async function load() {
    try {
      const answer = await api.request('GET', `${base}/schedule`);
      if (answer.status >= 400) return mount(main, h('p', {class: 'msg msg-error'}, answer.data?.detail || 'Not found.'));
      paint(answer.data);
    } catch (error) {
      mount(main, h('p', {class: 'msg msg-error'}, `${error.message} Try again.`));
    }
  }
  await load();
}
