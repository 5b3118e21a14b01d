/**
 * A game from its paper scoresheet (Loner Seekers rule 17: no phones at the table), one row a
 * hand: maker, alone, tricks, and a renege when there was one. The sheet goes to the server as
 * one request (POST /api/games/<id>/paper-sheet), stored whole or refused with each mistake on
 * its row. The running totals add the event's points table as the server serves it
 * (provisional.js): no euchre rules here.
 *
 * Keys: on a row's maker, A or B (or 1, 2) picks the side and moves on to its tricks; a digit
 * there moves on to the next row; L marks a loner; Enter sends the sheet. Tab reaches the rest.
 * Opened at /e/<id>/games/<gid>/sheet, and by the scorekeepers' desk (console/desk.js).
 */

import * as api from '../api.js';
import {button, h, mount, setTitle, toast} from '../dom.js';
import {provisionalScore} from '../provisional.js';
import {navigate} from '../router.js';
import {seats, sideName} from '../words.js';

const TO_TARGET_ROWS = 6; // a game to a target starts with these; a row is added as needed
const CSS = '/js/game/sheet-grid.css'; // its own styles, out of the runner's shell

if (!document.querySelector(`link[href="${CSS}"]`)) {
  document.head.append(h('link', {rel: 'stylesheet', href: CSS}));
}

const bad = (v) => (Array.isArray(v) ? v.join(' ')
  : Object.entries(v || {}).map(([k, m]) => `${k}: ${bad(m)}`).join('; '));

/**
 * The grid for one game ({el, focus}). `onSaved(game)` hears the server's game once stored.
 * Rows continue after the hands the game already has.
 */
export function sheetGrid(game, format, onSaved) {
  const sheetId = `sheet-${api.newHandId()}`.slice(0, 56);
  const fixed = game.hands_to_go ?? null;
  const bumps = Boolean(format?.parameters?.bumps);
  const first = game.hands.length + 1;
  const rows = [];
  const body = h('tbody', {});
  const top = h('p', {class: 'error', role: 'alert', tabindex: -1, hidden: true});
  const picks = ['', 'A', 'B'].map((s) => [s, s ? `${s}: ${sideName(game, s)}` : '–']);
  const select = (label, options, cls) => h('select', {class: ['input', cls], 'aria-label': label},
    options.map(([value, text]) => h('option', {value}, text)));

  function addRow() {
    const n = first + rows.length;
    const r = {
      maker: select(`Hand ${n}: maker`, picks, 'grid-maker'),
      alone: h('input', {type: 'checkbox', 'aria-label': `Hand ${n}: alone`}),
      tricks: h('input', {class: 'input grid-tricks', inputmode: 'numeric', maxlength: 1,
        autocomplete: 'off', 'aria-label': `Hand ${n}: tricks the makers took (0 to 5)`}),
      by: select(`Hand ${n}: renege by`, picks.map(([s, t]) => [s, s ? t : 'no renege'])),
      upheld: h('input', {type: 'checkbox', 'aria-label': `Hand ${n}: renege upheld`}),
      loner: select(`Hand ${n}: who went alone`, [['', 'who went alone?'],
        ...seats(game).map((p) => [String(p.seat), `${p.name} (seat ${p.seat})`])]),
      total: h('td', {class: 'grid-total'}),
      error: h('td', {colspan: 6, role: 'alert'}),
    };
    r.more = h('tr', {class: 'grid-more', hidden: true}, h('td', {}), h('td', {colspan: 5},
      h('label', {}, 'Renege by ', r.by), ' ', h('label', {}, r.upheld, ' upheld'),
      bumps ? [' ', r.loner] : null));
    r.toggle = button('R', () => { r.more.hidden = !r.more.hidden; r.toggle.setAttribute('aria-expanded', String(!r.more.hidden)); },
      {class: 'btn-small', 'aria-expanded': 'false', 'aria-label': `Hand ${n}: renege${bumps ? ' or loner seat' : ''}`});
    r.line = h('tr', {class: 'grid-row', 'data-row': n}, h('th', {scope: 'row'}, n),
      h('td', {}, r.maker), h('td', {}, r.alone), h('td', {}, r.tricks), h('td', {}, r.toggle), r.total);
    r.bad = h('tr', {class: 'grid-bad', hidden: true}, r.error);
    r.maker.addEventListener('keydown', (e) => {
      const side = {1: 'A', 2: 'B', a: 'A', b: 'B'}[e.key.toLowerCase()];
      if (!side) return;
      e.preventDefault();
      r.maker.value = side;
      changed();
      r.tricks.focus();
    });
    r.maker.addEventListener('change', () => { changed(); if (r.maker.value) r.tricks.focus(); });
    r.tricks.addEventListener('input', () => {
      r.tricks.value = r.tricks.value.replace(/[^0-5]/g, '');
      changed();
      if (r.tricks.value) (rows[rows.indexOf(r) + 1]?.maker || sendButton).focus();
    });
    r.alone.addEventListener('change', () => { if (bumps && r.alone.checked) r.more.hidden = false; changed(); });
    [r.by, r.upheld, r.loner].forEach((el) => el.addEventListener('change', changed));
    r.line.addEventListener('keydown', (e) => {
      if (e.key.toLowerCase() !== 'l' || e.target === r.toggle) return;
      e.preventDefault();
      r.alone.checked = !r.alone.checked;
      r.alone.dispatchEvent(new Event('change'));
    });
    rows.push(r);
    body.append(r.line, r.more, r.bad);
  }

  const hand = (r) => {
    const out = {maker: r.maker.value || null, tricks: r.tricks.value === '' ? null : Number(r.tricks.value),
      alone: r.alone.checked};
    if (r.alone.checked && r.loner.value) out.loner_seat = Number(r.loner.value);
    if (r.by.value) out.renege = {by: r.by.value, upheld: r.upheld.checked};
    return out;
  };
  const blank = (r) => !r.maker.value && r.tricks.value === '' && !r.alone.checked && !r.by.value;
  /** The rows to send: up to the last one filled in. */
  const filled = () => rows.slice(0, rows.findLastIndex((r) => !blank(r)) + 1);

  function changed() {
    let sum = {A: game.points.A, B: game.points.B};
    for (const r of rows) {
      if (blank(r)) { r.total.textContent = ''; continue; }
      const p = provisionalScore(sum, [{handId: 'row', body: hand(r)}], format);
      if (!p.missing) sum = p.points;
      r.total.textContent = p.missing || r.tricks.value === '' && !r.by.value ? '…' : `${sum.A}–${sum.B}`;
    }
    const target = game.format?.target_points;
    if (fixed === null && target && !blank(rows.at(-1)) && Math.max(sum.A, sum.B) < target) addRow();
  }

  function showErrors(problem) {
    const per = problem.errors?.hands && typeof problem.errors.hands === 'object' ? problem.errors.hands : {};
    let focus = null;
    for (const [i, why] of Object.entries(per)) {
      const r = rows[Number(i)];
      if (!r) continue;
      r.bad.hidden = false;
      r.line.classList.add('grid-wrong');
      r.error.textContent = `Hand ${first + Number(i)}: ${bad(why)}`;
      focus ??= r;
    }
    top.hidden = false;
    top.textContent = focus ? 'Nothing was stored: fix the rows marked below and send again.'
      : problem.detail || 'Nothing was stored.';
    (focus?.maker || top).focus?.();
  }

  let busy = false;
  async function send() {
    if (busy) return;
    rows.forEach((r) => { r.bad.hidden = true; r.line.classList.remove('grid-wrong'); });
    top.hidden = true;
    const sent = filled();
    if (!sent.length) { showErrors({detail: 'Fill in at least one hand.'}); return; }
    busy = true;
    sendButton.disabled = true;
    try {
      const key = await api.keyFor(game.event_id, game.table);
      const answer = await api.request('POST', `/api/games/${game.id}/paper-sheet`,
        {key, body: {id: sheetId, hands: sent.map(hand)}});
      if (answer.status < 300) await onSaved(answer.data, sent.length);
      else showErrors(answer.data || {detail: `The server answered ${answer.status}.`});
    } catch (error) {
      showErrors({detail: `${error.message} Nothing is lost: send again when the network is back.`});
    } finally {
      busy = false;
      sendButton.disabled = false;
    }
  }

  const sendButton = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Send the sheet');
  for (let i = 0; i < (fixed ?? TO_TARGET_ROWS); i++) addRow();
  const form = h('form', {class: 'grid-form', onsubmit: (e) => { e.preventDefault(); send(); },
    onkeydown: (e) => {
      if (e.key === 'Enter' && e.target.tagName !== 'BUTTON') { e.preventDefault(); send(); }
    }},
  h('p', {class: 'hint'}, `A: ${sideName(game, 'A')} · B: ${sideName(game, 'B')}. Keys: A or B for the maker, `
    + 'then the tricks (0–5); L for a loner; Enter sends.'),
  first > 1 && h('p', {class: 'note'}, `Hands 1 to ${first - 1} are entered already: the sheet goes on from hand ${first}.`),
  top,
  h('table', {class: 'grid'}, h('thead', {}, h('tr', {}, ['#', 'Maker', 'Alone', 'Tricks', 'Renege', 'Score']
    .map((t) => h('th', {scope: 'col'}, t)))), body),
  h('p', {class: 'actions'}, sendButton));
  changed();
  return {el: form, focus: () => rows[0]?.maker.focus()};
}

/** /e/<id>/games/<gid>/sheet */
export async function render(main, {eventId, gameId}) {
  const eid = Number(eventId);
  const gid = Number(gameId);
  const back = `/e/${eid}/games/${gid}`;
  mount(main, h('p', {class: 'loading'}, 'Loading the game…'));
  let game;
  let event;
  try {
    [{data: game}, {data: event}] = await Promise.all([api.getGame(gid), api.getEvent(eid)]);
  } catch (error) {
    mount(main, h('p', {class: 'error', role: 'alert'}, error.message), h('a', {class: 'btn', href: back}, 'Back'));
    return;
  }
  setTitle(event.name);
  const head = h('h1', {class: 'page-title'}, `Table ${game.table} · ${game.round.label}: paper sheet`);
  const link = h('a', {class: 'btn', href: back}, 'Back to the game');
  if (game.over || !(await api.keyFor(eid, game.table))) {
    mount(main, head, h('p', {class: 'note'}, game.over ? 'This game is over: nothing more to enter.'
      : `This device has no key for table ${game.table}: open the game and join with the PIN first.`), link);
    return;
  }
  const grid = sheetGrid(game, event.format, (saved, n) => {
    toast(`Sheet saved: ${n} hand${n === 1 ? '' : 's'}, ${sideName(saved, 'A')} ${saved.points.A} – ${saved.points.B} ${sideName(saved, 'B')}.`);
    navigate(back);
  });
  mount(main, head, grid.el, link);
  grid.focus();
}
