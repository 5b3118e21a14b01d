/**
 * A game from its paper scoresheet (Loner Seekers rule 17: no phones at the table), one row a
 * hand, on a runner's phone after play: who called trump, alone, the tricks, and a renege when
 * there was one. The sheet goes to the server as one request (POST /api/games/<id>/paper-sheet),
 * stored whole or refused with each mistake on its row. The running totals add the event's
 * points table as the server serves it (provisional.js): no euchre rules here.
 *
 * Taps, not typing: each side is a button with its players' names, the tricks are six buttons,
 * Alone and Renege are toggles, every one at least 44 px square. Tapping who called fills in 3
 * tricks (the commonest hand, "+1", which is all a paper sheet says of a hand made with 3 or 4),
 * so such a row is one tap; another number is one tap more. The draft is kept on the phone
 * (localStorage, per game) at every tap, so a reload, a closed tab or no network loses nothing;
 * it is dropped once the server has stored the sheet. Keys still work on a keyboard: A or B
 * (1, 2) on a row's maker, a digit on its tricks, L for a loner, Enter sends.
 * Opened at /e/<id>/games/<gid>/sheet (from the game screen and the organizer's progress board).
 */

import * as api from '../api.js';
import {button, h, hidden, mount, setTitle, toast} from '../dom.js';
import {provisionalScore} from '../provisional.js';
import {navigate} from '../router.js';
import {SIDES, seats, sideName, tricksRows} from '../words.js';
import {sideLabel} from './hand-taps.js';

const TO_TARGET_ROWS = 6; // a game to a target starts with these; a row is added as needed
const TRICKS = [0, 1, 2, 3, 4, 5];
const USUAL = 3; // the tricks a tap on who called fills in
const CSS = '/js/game/sheet-grid.css'; // its own styles, out of the runner's shell

if (!document.querySelector(`link[href="${CSS}"]`)) {
  document.head.append(h('link', {rel: 'stylesheet', href: CSS}));
}

const bad = (v) => (Array.isArray(v) ? v.join(' ')
  : Object.entries(v || {}).map(([k, m]) => `${k}: ${bad(m)}`).join('; '));

// --- the draft, kept on this phone until the server has the sheet -----------------------------

const draftKey = (gameId) => `euchre-paper-sheet:${gameId}`;

function readDraft(gameId) {
  try { return JSON.parse(localStorage.getItem(draftKey(gameId))) || null; } catch { return null; }
}

function keepDraft(gameId, draft) {
  try {
    if (draft) localStorage.setItem(draftKey(gameId), JSON.stringify(draft));
    else localStorage.removeItem(draftKey(gameId));
  } catch { /* private mode or full: the grid still works, the draft is not kept */ }
}

const dropDraft = (gameId) => keepDraft(gameId, null);

/**
 * The grid for one game ({el, focus}). `onSaved(game, n)` hears the server's game once stored.
 * Rows continue after the hands the game already has.
 */
export function sheetGrid(game, format, onSaved) {
  const kept = readDraft(game.id);
  const first = game.hands.length + 1;
  const draft = kept && Array.isArray(kept.rows) ? kept : null;
  // A draft begun when the game had other hands is still shown, under a new sheet id.
  const moved = draft && draft.first !== first;
  const sheetId = (!moved && draft?.id) || `sheet-${api.newHandId()}`.slice(0, 56);
  const fixed = game.hands_to_go ?? null;
  const bumps = Boolean(format?.parameters?.bumps);
  const results = Object.fromEntries(tricksRows(format?.hand_values, false)
    .map((row) => [row.tricks, row.result]));
  const rows = [];
  const list = h('ol', {class: 'paper-rows'});
  const top = h('p', {class: 'error', role: 'alert', tabindex: -1, hidden: true});
  const names = Object.fromEntries(SIDES.map((side) => [side, sideLabel({s: {game}}, side)]));

  const pressed = (el, on) => el.setAttribute('aria-pressed', String(Boolean(on)));

  function addRow(saved = null) {
    const n = first + rows.length;
    const r = {n, m: null, a: false, t: null, tUsual: false, by: '', up: false, loner: ''};
    const again = (fn) => (e) => { fn(e); changed(); };
    r.makers = Object.fromEntries(SIDES.map((side) => [side, button(names[side].cloneNode(true),
      again(() => pickMaker(r, side)), {class: 'paper-maker',
        'aria-label': `Hand ${n}: ${sideName(game, side)} called trump`})]));
    r.alone = button('Alone', again(() => { r.a = !r.a; if (bumps && r.a) r.more.hidden = false; }),
      {class: 'paper-alone', 'aria-label': `Hand ${n}: alone`});
    r.tricks = TRICKS.map((t) => button(String(t), again(() => pickTricks(r, t)),
      {class: ['paper-trick', results[t] && `result-${results[t]}`],
        'aria-label': `Hand ${n}: ${t} trick${t === 1 ? '' : 's'}`, 'data-tricks': t}));
    r.byButtons = [['', 'No renege'], ...SIDES.map((side) => [side, `by ${sideName(game, side)}`])]
      .map(([side, text]) => button(text, again(() => { r.by = side; }),
        {class: 'paper-by', 'aria-label': `Hand ${n}: ${side ? `renege ${text}` : 'no renege'}`}));
    r.upheld = button('Upheld', again(() => { r.up = !r.up; }),
      {class: 'paper-upheld', 'aria-label': `Hand ${n}: renege upheld`});
    r.lonerSelect = h('select', {class: 'input', 'aria-label': `Hand ${n}: who went alone`,
      onchange: again(() => { r.loner = r.lonerSelect.value; })},
    [['', 'Who went alone?'], ...seats(game).map((p) => [String(p.seat), `${p.name} (seat ${p.seat})`])]
      .map(([value, text]) => h('option', {value}, text)));
    r.more = h('div', {class: 'paper-more', hidden: true},
      h('div', {class: 'paper-line', role: 'group', 'aria-label': `Hand ${n}: renege`}, r.byButtons),
      r.upheld, bumps && r.lonerSelect);
    r.renege = button([h('span', {'aria-hidden': 'true'}, 'R'), h('span', {class: 'paper-wide', 'aria-hidden': 'true'}, 'enege')],
      () => { r.more.hidden = !r.more.hidden; paint(r); },
      {class: 'paper-renege', 'aria-label': `Hand ${n}: renege${bumps ? ' or loner seat' : ''}`});
    r.total = h('span', {class: 'grid-total'});
    r.bad = h('p', {class: 'paper-bad', role: 'alert', hidden: true});
    r.line = h('li', {class: 'paper-row', 'data-row': n},
      h('div', {class: 'paper-head'}, h('span', {class: 'paper-no'}, `Hand ${n}`),
        h('span', {}, hidden('Score after it: '), r.total)),
      h('div', {class: 'paper-line', role: 'group', 'aria-label': `Hand ${n}: who called trump`},
        r.makers.A, r.makers.B, r.alone),
      h('div', {class: 'paper-line'},
        h('div', {class: 'paper-tricks', role: 'group', 'aria-label': `Hand ${n}: tricks the makers took`}, r.tricks),
        r.renege),
      r.more, r.bad);
    r.line.addEventListener('keydown', (e) => keyed(r, e));
    if (saved) {
      Object.assign(r, {m: saved.m ?? null, a: Boolean(saved.a), t: saved.t ?? null,
        tUsual: Boolean(saved.tUsual), by: saved.by || '', up: Boolean(saved.up), loner: saved.loner || ''});
      r.lonerSelect.value = r.loner;
      if (r.by || (bumps && r.loner)) r.more.hidden = false;
    }
    rows.push(r);
    list.append(r.line);
    paint(r);
  }

  function pickMaker(r, side) {
    if (r.m === side) {
      // A second tap takes the row back, and the 3 tricks it filled in.
      r.m = null;
      if (r.tUsual) { r.t = null; r.tUsual = false; }
      return;
    }
    r.m = side;
    if (r.t === null) { r.t = USUAL; r.tUsual = true; }
  }

  function pickTricks(r, t) {
    r.t = r.t === t && !r.tUsual ? null : t;
    r.tUsual = false;
  }

  /** Keys, for a phone with a keyboard or a laptop: A/B/1/2 on the makers, digits on the
   * tricks, L for a loner; Enter (elsewhere than on a toggle) sends. */
  function keyed(r, e) {
    const key = e.key.toLowerCase();
    const side = {1: 'A', 2: 'B', a: 'A', b: 'B'}[key];
    if (side && e.target.matches('.paper-maker')) {
      if (r.m !== side) pickMaker(r, side);
      changed();
      r.tricks[r.t ?? USUAL].focus();
    } else if (/^[0-5]$/.test(key) && e.target.matches('.paper-trick')) {
      r.t = Number(key);
      r.tUsual = false;
      changed();
      (rows[rows.indexOf(r) + 1]?.makers.A || sendButton).focus();
    } else if (key === 'l' && e.target !== r.renege && e.target.tagName !== 'SELECT') {
      r.a = !r.a;
      changed();
    } else {
      return;
    }
    e.preventDefault();
  }

  function paint(r) {
    SIDES.forEach((side) => pressed(r.makers[side], r.m === side));
    pressed(r.alone, r.a);
    r.tricks.forEach((el, t) => pressed(el, r.t === t));
    r.byButtons.forEach((el, i) => pressed(el, (['', ...SIDES][i]) === r.by));
    pressed(r.upheld, r.up);
    r.upheld.hidden = !r.by;
    r.lonerSelect.hidden = !r.a;
    r.renege.setAttribute('aria-expanded', String(!r.more.hidden));
    pressed(r.renege, Boolean(r.by));
  }

  const hand = (r) => {
    const out = {maker: r.m, tricks: r.t, alone: r.a};
    if (r.a && r.loner) out.loner_seat = Number(r.loner);
    if (r.by) out.renege = {by: r.by, upheld: r.up};
    return out;
  };
  const blank = (r) => !r.m && r.t === null && !r.a && !r.by;
  /** The rows to send: up to the last one filled in. */
  const filled = () => rows.slice(0, rows.findLastIndex((r) => !blank(r)) + 1);

  function changed() {
    let sum = {A: game.points.A, B: game.points.B};
    for (const r of rows) {
      paint(r);
      if (blank(r)) { r.total.textContent = ''; continue; }
      const p = provisionalScore(sum, [{handId: 'row', body: hand(r)}], format);
      if (!p.missing) sum = p.points;
      r.total.textContent = p.missing || r.t === null && !r.by ? '…' : `${sum.A}–${sum.B}`;
    }
    const target = game.format?.target_points;
    if (fixed === null && target && !blank(rows.at(-1)) && Math.max(sum.A, sum.B) < target) addRow();
    const any = rows.some((r) => !blank(r));
    keepDraft(game.id, any ? {id: sheetId, first, rows: rows.map(({m, a, t, tUsual, by, up, loner}) =>
      ({m, a, t, tUsual, by, up, loner}))} : null);
  }

  function clearErrors() {
    rows.forEach((r) => { r.bad.hidden = true; r.line.classList.remove('paper-wrong'); });
    top.hidden = true;
  }

  function showErrors(problem) {
    const per = problem.errors?.hands && typeof problem.errors.hands === 'object' ? problem.errors.hands : {};
    let focus = null;
    for (const [i, why] of Object.entries(per)) {
      const r = rows[Number(i)];
      if (!r) continue;
      r.bad.hidden = false;
      r.line.classList.add('paper-wrong');
      r.bad.textContent = `Hand ${r.n}: ${bad(why)}`;
      focus ??= r;
    }
    top.hidden = false;
    top.textContent = focus ? 'Nothing was stored: fix the hands marked below and send again.'
      : problem.detail || 'Nothing was stored.';
    if (focus) {
      focus.line.scrollIntoView({block: 'center'});
      focus.makers.A.focus({preventScroll: true});
    } else {
      top.focus?.();
    }
  }

  let busy = false;
  async function send() {
    if (busy) return;
    clearErrors();
    const sent = filled();
    if (!sent.length) { showErrors({detail: 'Fill in at least one hand.'}); return; }
    busy = true;
    sendButton.disabled = true;
    try {
      const key = await api.keyFor(game.event_id, game.table);
      const answer = await api.request('POST', `/api/games/${game.id}/paper-sheet`,
        {key, body: {id: sheetId, hands: sent.map(hand)}});
      if (answer.status < 300) {
        dropDraft(game.id);
        await onSaved(answer.data, sent.length);
      } else {
        showErrors(answer.data || {detail: `The server answered ${answer.status}.`});
      }
    } catch (error) {
      showErrors({detail: `${error.message} The sheet is kept on this phone, even if this page `
        + 'is closed: send it again when the network is back.'});
    } finally {
      busy = false;
      sendButton.disabled = false;
    }
  }

  const sendButton = h('button', {type: 'submit', class: 'btn btn-primary paper-send'}, 'Send the sheet');
  const restored = draft?.rows || [];
  for (let i = 0; i < Math.max(fixed ?? TO_TARGET_ROWS, restored.length); i++) addRow(restored[i]);
  const form = h('form', {class: 'paper-form', onsubmit: (e) => { e.preventDefault(); send(); },
    onkeydown: (e) => {
      if (e.key === 'Enter' && e.target.matches('select, .paper-maker, .paper-trick')) {
        e.preventDefault();
        send();
      }
    }},
  h('p', {class: 'hint'}, 'For each hand, tap the side that called trump: that fills in 3 tricks '
    + '(+1). If they took another number, tap it. Alone marks a loner; Renege opens the rare '
    + 'renege. Check the score on each hand against the paper.'),
  first > 1 && h('p', {class: 'note'}, `Hands 1 to ${first - 1} are entered already: the sheet goes on from hand ${first}.`),
  draft && h('p', {class: 'note paper-restored', role: 'status'}, 'The sheet as you left it, kept on this phone: '
    + (moved ? `it was begun when the game had ${draft.first - 1} hands, and it has ${first - 1} now: `
      + 'check each hand, then send it.' : 'check it and send it.')),
  top, list,
  h('p', {class: 'actions'}, sendButton),
  h('p', {class: 'hint'}, 'Kept on this phone as you tap, until the server has it.'));
  changed();
  return {el: form, focus: () => rows[0]?.makers.A.focus({preventScroll: true})};
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
  if (game.over) dropDraft(gid); // nothing more can be entered: a draft left here is moot
  if (game.over || !(await api.keyFor(eid, game.table))) {
    mount(main, head, h('p', {class: 'note'}, game.over ? 'This game is over: nothing more to enter.'
      : `This device has no key for table ${game.table}: open the game and join with the PIN first.`), link);
    return;
  }
  const grid = sheetGrid(game, event.format, (saved, n) => {
    toast(`Sheet saved: ${n} hand${n === 1 ? '' : 's'}, ${sideName(saved, 'A')} ${saved.points.A} – ${saved.points.B} ${sideName(saved, 'B')}.`);
    navigate(back);
  });
  // No focus moved into the grid: on a phone it would only draw a ring round the first button.
  mount(main, head, grid.el, link);
}
