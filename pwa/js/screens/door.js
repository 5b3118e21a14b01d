/**
 * /door/<CODE>#t=<door code>: self check-in, opened from the door QR. Type a few letters, tap
 * your name, confirm: a banner says you are checked in, when (and your table once seated).
 * Not on the list: ask to be added, and the page follows the request until the organizer
 * decides. Outside the check-in window it says when check-in opens, or that it closed.
 * What this phone did is kept on it, so a reload shows it again.
 */

import * as api from '../api.js';
import {button, h, mount, setTitle} from '../dom.js';

const POLL_MS = 15000;
const WAITING_MS = 5000;
const SHOWN = 40;

export async function render(main, {code}) {
  setTitle('Check in');
  const token = new URLSearchParams(location.hash.slice(1)).get('t') || '';
  const base = `/api/door/${encodeURIComponent(code)}`;
  const store = `door:${code.toUpperCase()}`;
  const mine = () => { try { return JSON.parse(localStorage.getItem(store)) || {}; } catch { return {}; } };
  const keep = (value) => { try { localStorage.setItem(store, JSON.stringify(value)); } catch { /* private mode */ } };

  const title = h('h1', {class: 'page-title'}, 'Check in');
  const banner = h('div', {class: 'msg msg-ok door-done', role: 'status', hidden: true});
  const state = h('p', {class: 'door-window'});
  const out = h('p', {class: 'msg msg-error', role: 'alert', hidden: true});
  // Where a request to be added stands: news, not an error (amber, read politely).
  const note = h('p', {class: 'msg msg-info door-note', role: 'status', hidden: true});
  const search = h('input', {id: 'door-search', class: 'input', type: 'search', autocomplete: 'off',
    placeholder: 'A few letters of your name', oninput: () => paint()});
  const list = h('ul', {class: 'plain-list door-names'});
  const finder = h('section', {class: 'card', hidden: true},
    h('label', {for: 'door-search'}, 'Find your name'), search, list);
  const askName = h('input', {id: 'door-ask', class: 'input', maxlength: 120, required: true});
  const ask = h('form', {class: 'card form', hidden: true, onsubmit: (e) => { e.preventDefault(); request(); }},
    h('h2', {}, 'Not on the list?'), h('label', {for: 'door-ask'}, 'Your name'), askName,
    h('button', {type: 'submit', class: 'btn'}, 'Ask to be added'));
  mount(main, title, banner, state, note, out, finder, ask);

  let page = null;
  let shown = '';
  let timer = null;
  let stopped = false;
  const say = (el, text) => { el.hidden = !text; el.textContent = text || ''; };

  /** Checked in (by this phone): the banner, and a way to check in someone else. */
  function done(text) {
    mount(banner, h('p', {}, text), button('Check in someone else', () => {
      keep({});
      banner.hidden = true;
      shown = '';
      load();
    }, {class: 'btn-small'}));
    banner.hidden = false;
    finder.hidden = ask.hidden = true;
    say(note, '');
  }

  async function send(path, body) {
    say(out, '');
    try {
      const answer = await api.request('POST', `${base}/${path}`, {body: {token, ...body}});
      if (answer.status < 400) return answer.data;
      say(out, answer.data?.detail || `The server answered ${answer.status}.`);
    } catch (error) {
      say(out, `${error.message} Try again.`);
    }
    return null;
  }

  function row(n) {
    const who = n.team ? `${n.name} (${n.team})` : n.name;
    const item = h('li', {class: 'door-name'});
    const sure = () => mount(item, h('p', {}, `You are ${who}?`),
      button(`Check me in: ${n.name}`, async (e) => {
        e.currentTarget.disabled = true;
        const made = await send('check-in', {player_id: n.player_id});
        if (made) {
          keep({message: made.message});
          done(made.message);
        } else load();
      }, {class: 'btn-primary'}),
      button('Not me', () => mount(item, pick), {class: 'btn-small'}));
    const pick = button(who, sure, {class: 'btn-block'});
    return mount(item, pick);
  }

  function paint() {
    const q = search.value.trim().toLowerCase();
    const names = (page?.names || []).filter((n) => `${n.name} ${n.team || ''}`.toLowerCase().includes(q));
    mount(list, !names.length ? h('li', {class: 'empty'}, page?.requests
      ? 'No name like that: ask to be added below.' : 'No name like that: see the organizer at the desk.')
      : names.length > SHOWN ? h('li', {class: 'empty'}, 'Type a few letters of your name.')
        : names.map(row));
  }

  function draw() {
    if (!page) return;
    title.textContent = `Check in to ${page.event_name}`;
    setTitle(`Check in · ${page.event_name}`);
    const open = page.window.state === 'open';
    say(state, page.window.state === 'not-set' ? 'Check-in at the door is not open: see the organizer at the desk.'
      : page.window.message);
    const req = page.request;
    if (mine().message) return done(mine().message);
    if (req?.status === 'accepted' && req.time) {
      return done(`You're checked in, ${req.name}, at ${req.time}.${req.table ? ` Your table: ${req.table}.` : ''}`);
    }
    finder.hidden = !open;
    ask.hidden = !open || !page.requests || req?.status === 'waiting';
    say(note, req?.status === 'waiting' ? `Asked as ${req.name}. Waiting for the organizer to add you: this page `
      + 'updates by itself.' : req?.status === 'declined' ? `The organizer did not add ${req.name}: see them at the desk.` : '');
    // Repainted only when the names changed: a poll must not undo a tap half made.
    const names = JSON.stringify(page.names);
    if (names !== shown) paint();
    shown = names;
  }

  async function request() {
    const made = await send('requests', {name: askName.value});
    if (!made) return;
    keep({request: made.id});
    askName.value = '';
    load();
  }

  async function load() {
    clearTimeout(timer);
    const req = mine().request;
    try {
      const answer = await api.request('GET', `${base}?token=${encodeURIComponent(token)}${req ? `&request=${req}` : ''}`);
      if (answer.status === 404 && req) {
        keep({});
        return load();
      }
      if (answer.status >= 400) {
        finder.hidden = ask.hidden = true;
        say(out, answer.data?.detail || `The server answered ${answer.status}.`);
        return;
      }
      page = answer.data;
      draw();
    } catch (error) {
      say(out, `${error.message} Trying again…`);
    }
    if (!stopped && banner.hidden) timer = setTimeout(load, page?.request?.status === 'waiting' ? WAITING_MS : POLL_MS);
  }

  await load();
  return () => { stopped = true; clearTimeout(timer); };
}
