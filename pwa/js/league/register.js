/**
 * /register/<CODE>#t=<token>: a league team's captain registers the team from the
 * registration QR: its name, two players, substitutes, and its division when the organizer
 * offers a choice. The answer's team key is kept on this
 * phone (and shown once as a link, to open the team page elsewhere); the team page follows.
 */

import * as api from '../api.js';
import {h, mount, setTitle} from '../dom.js';
import {keepTeamKey, styles} from './team.js';

export async function render(main, {code}) {
  styles();
  setTitle('Register a team');
  const token = new URLSearchParams(location.hash.slice(1)).get('t') || '';
  const base = `/api/register/${encodeURIComponent(code)}`;
  const title = h('h1', {class: 'page-title'}, 'Register a team');
  const state = h('p', {class: 'reg-state'});
  const out = h('p', {class: 'msg msg-error', role: 'alert', hidden: true});
  mount(main, title, state, out);
  const say = (el, text) => { el.hidden = !text; el.textContent = text || ''; };

  let page;
  try {
    const answer = await api.request('GET', `${base}?token=${encodeURIComponent(token)}`);
    if (answer.status >= 400) return say(out, answer.data?.detail || `The server answered ${answer.status}.`);
    page = answer.data;
  } catch (error) {
    return say(out, `${error.message} Try again.`);
  }
  title.textContent = `Register a team for ${page.event_name}`;
  setTitle(`Register · ${page.event_name}`);
  say(state, page.message);
  if (!page.open) return;

  const field = (id, label, attrs = {}) => [h('label', {for: id}, label),
    h('input', {id, class: 'input', maxlength: 120, autocomplete: 'off', ...attrs})];
  const [nameLabel, name] = field('reg-name', 'Team name', {required: true});
  const [oneLabel, one] = field('reg-p1', 'Player 1 (the captain, say)', {required: true, autocomplete: 'name'});
  const [twoLabel, two] = field('reg-p2', 'Player 2', {required: true});
  const subs = h('textarea', {id: 'reg-subs', class: 'input', rows: 3, maxlength: 1200});
  // The organizer's divisions (skill levels), when captains choose one: a required choice.
  const division = page.divisions?.length ? h('select', {id: 'reg-division', class: 'input', required: true},
    h('option', {value: ''}, 'Choose…'), page.divisions.map((d) => h('option', {value: d}, d))) : null;
  const send = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Register the team');
  const form = h('form', {class: 'card form', onsubmit: (e) => { e.preventDefault(); register(); }},
    nameLabel, name, oneLabel, one, twoLabel, two,
    division && [h('label', {for: 'reg-division'}, 'Division (skill level)'), division],
    h('label', {for: 'reg-subs'}, `Substitutes, one a line (up to ${page.substitutes}; they play in the regular season only)`), subs,
    h('p', {class: 'hint'}, `You can change the roster until week ${page.lock_after_week} is over; then only the organizer can.`),
    send);
  main.append(form);

  async function register() {
    say(out, '');
    send.disabled = true;
    try {
      const answer = await api.request('POST', base, {body: {token, name: name.value, players: [one.value, two.value],
        substitutes: subs.value.split('\n').map((s) => s.trim()).filter(Boolean),
        ...(division ? {division: division.value || null} : {})}});
      if (answer.status >= 400) return say(out, answer.data?.detail || `The server answered ${answer.status}.`);
      const made = answer.data;
      keepTeamKey(made.event_id, made.team.id, made.key);
      form.replaceWith(h('section', {class: 'card reg-done', role: 'status'},
        h('h2', {}, `${made.team.name} is registered${made.team.division ? ` in ${made.team.division}` : ''}`),
        h('p', {}, 'Your team key is kept on this phone. To open your team page on another phone, keep this '
          + 'link somewhere safe: it is shown only now.'),
        h('input', {class: 'input', readonly: true, value: made.link, 'aria-label': 'Your team link'}),
        h('a', {class: 'btn btn-primary', href: `/e/${made.event_id}/team/${made.team.id}`}, 'Open my team page')));
      say(state, '');
    } catch (error) {
      say(out, `${error.message} Try again.`);
    } finally {
      send.disabled = false;
    }
  }
}
