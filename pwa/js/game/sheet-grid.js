/**
 * A game from its paper scoresheet (Loner Seekers rule 17), a card a hand, on a runner's phone:
 * sent as one request (POST /api/games/<id>/paper-sheet), stored whole or refused with each
 * mistake on its hand. The running totals add the points table the server serves (provisional.js).
 * Taps only, each at least 44 px: who called (their names on the button) fills in 3 tricks, all a
 * paper sheet says of a hand made with 3 or 4 (+1); another number is one tap more. What is
 * tapped is kept on the phone (localStorage, per game) until the server has stored the sheet.
 */

import * as api from '../api.js';
import {button, h, hidden, mount, setTitle, toast} from '../dom.js';
import {navigate} from '../nav.js';
import {provisionalScore} from '../provisional.js';
import {SIDES, seats, sideName, tricksRows} from '../words.js';
import {sideLabel} from './hand-taps.js';

const CSS = '/js/game/sheet-grid.css'; // its own styles, out of the runner's shell
if (!document.querySelector(`link[href="${CSS}"]`)) {
  document.head.append(h('link', {rel: 'stylesheet', href: CSS}));
}

const bad = (v) => (Array.isArray(v) ? v.join(' ')
  : Object.entries(v || {}).map(([k, m]) => `${k}: ${bad(m)}`).join('; '));

const draftKey = (gameId) => `euchre-paper-sheet:${gameId}`;
function keepDraft(gameId, draft) {
  try {
    if (draft) localStorage.setItem(draftKey(gameId), JSON.stringify(draft));
    else localStorage.removeItem(draftKey(gameId));
  } catch { /* private mode or full: the grid still works */ }
}
function readDraft(gameId) {
  try { return JSON.parse(localStorage.getItem(draftKey(gameId))); } catch { return null; }
}

/** The grid for one game ({el}); `onSaved(game, n)` hears the server's game once stored. Rows
 * go on after the hands the game already has (6 for a game to a target, added as it goes). */
export function sheetGrid(game, format, onSaved) {
  const first = game.hands.length + 1;
  const kept = readDraft(game.id);
  const draft = Array.isArray(kept?.rows) ? kept : null;
  // A draft begun when the game had other hands is still shown, under a new sheet id.
  const moved = draft && draft.first !== first;
  const sheetId = (!moved && draft?.id) || `sheet-${api.newHandId()}`.slice(0, 56);
  const fixed = game.hands_to_go ?? null;
  const bumps = Boolean(format?.parameters?.bumps);
  const results = Object.fromEntries(tricksRows(format?.hand_values, false).map((x) => [x.tricks, x.result]));
  const rows = [];
  const list = h('ol', {class: 'paper-rows'});
  const top = h('p', {class: 'error', role: 'alert', tabindex: -1, hidden: true});
  const pressed = (el, on) => el.setAttribute('aria-pressed', String(on));

  function addRow(saved) {
    const n = first + rows.length;
    // m maker, a alone, t tricks, u t was filled in by the maker's tap, by/up renege, loner seat
    const v = {m: null, a: false, t: null, u: false, by: '', up: false, loner: '', ...saved};
    const r = {n, v};
    const tap = (fn, label, cls, text) => button(text ?? label, () => { fn(); changed(); },
      {class: cls, 'aria-label': `Hand ${n}: ${label}`});
    r.makers = SIDES.map((side) => tap(() => {
      if (v.m === side) { // a second tap takes the row back, with the 3 tricks it filled in
        v.m = null;
        if (v.u) Object.assign(v, {t: null, u: false});
      } else {
        v.m = side;
        if (v.t === null) Object.assign(v, {t: 3, u: true});
      }
    }, `${sideName(game, side)} called trump`, 'paper-maker', sideLabel(game, side)));
    r.alone = tap(() => { v.a = !v.a; if (bumps && v.a) r.more.hidden = false; }, 'alone', 'paper-alone', 'Alone');
    r.tricks = [0, 1, 2, 3, 4, 5].map((t) => tap(() => Object.assign(v, {t: v.t === t && !v.u ? null : t, u: false}),
      `${t} trick${t === 1 ? '' : 's'}`, ['paper-trick', results[t] && `result-${results[t]}`], String(t)));
    r.by = ['', ...SIDES].map((side) => tap(() => { v.by = side; },
      side ? `renege by ${sideName(game, side)}` : 'no renege', 'paper-by',
      side ? `by ${sideName(game, side)}` : 'No renege'));
    r.upheld = tap(() => { v.up = !v.up; }, 'renege upheld', 'paper-upheld', 'Upheld');
    r.loner = h('select', {class: 'input', 'aria-label': `Hand ${n}: who went alone`,
      onchange: () => { v.loner = r.loner.value; changed(); }},
    [['', 'Who went alone?'], ...seats(game).map((p) => [String(p.seat), `${p.name} (seat ${p.seat})`])]
      .map(([value, text]) => h('option', {value}, text)));
    r.loner.value = v.loner;
    r.more = h('div', {class: 'paper-more', hidden: !v.by && !(bumps && v.loner)},
      h('div', {class: 'paper-line'}, r.by), r.upheld, bumps && r.loner);
    r.renege = button([h('span', {'aria-hidden': 'true'}, 'R'), h('span', {class: 'paper-wide', 'aria-hidden': 'true'}, 'enege')],
      () => { r.more.hidden = !r.more.hidden; paint(r); },
      {class: 'paper-renege', 'aria-label': `Hand ${n}: renege${bumps ? ' or loner seat' : ''}`});
    r.total = h('span', {class: 'grid-total'});
    r.bad = h('p', {class: 'paper-bad', role: 'alert', hidden: true});
    r.line = h('li', {class: 'paper-row', 'data-row': n},
      h('div', {class: 'paper-head'}, h('span', {class: 'paper-no'}, `Hand ${n}`),
        h('span', {}, hidden('Score after it: '), r.total)),
      h('div', {class: 'paper-line', role: 'group', 'aria-label': `Hand ${n}: who called trump`}, r.makers, r.alone),
      h('div', {class: 'paper-line'}, h('div', {class: 'paper-tricks', role: 'group',
        'aria-label': `Hand ${n}: tricks the makers took`}, r.tricks), r.renege),
      r.more, r.bad);
    rows.push(r);
    list.append(r.line);
    paint(r);
  }

  function paint({v, ...r}) {
    r.makers.forEach((el, i) => pressed(el, v.m === SIDES[i]));
    pressed(r.alone, v.a);
    r.tricks.forEach((el, t) => pressed(el, v.t === t));
    r.by.forEach((el, i) => pressed(el, ['', ...SIDES][i] === v.by));
    pressed(r.upheld, v.up);
    pressed(r.renege, Boolean(v.by));
    r.upheld.hidden = !v.by;
    r.loner.hidden = !v.a;
    r.renege.setAttribute('aria-expanded', String(!r.more.hidden));
  }

  const hand = ({v}) => ({maker: v.m, tricks: v.t, alone: v.a,
    ...(v.a && v.loner ? {loner_seat: Number(v.loner)} : {}),
    ...(v.by ? {renege: {by: v.by, upheld: v.up}} : {})});
  const blank = ({v}) => !v.m && v.t === null && !v.a && !v.by;
  /** The rows to send: up to the last one filled in. */
  const filled = () => rows.slice(0, rows.findLastIndex((r) => !blank(r)) + 1);

  function changed() {
    let sum = {...game.points};
    for (const r of rows) {
      paint(r);
      if (blank(r)) { r.total.textContent = ''; continue; }
      const p = provisionalScore(sum, [{handId: 'row', body: hand(r)}], format);
      if (!p.missing) sum = p.points;
      r.total.textContent = p.missing || r.v.t === null && !r.v.by ? '…' : `${sum.A}–${sum.B}`;
    }
    const target = game.format?.target_points;
    if (fixed === null && target && !blank(rows.at(-1)) && Math.max(sum.A, sum.B) < target) addRow();
    keepDraft(game.id, filled().length && {id: sheetId, first, rows: rows.map((r) => r.v)});
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
    (focus?.line || top).scrollIntoView({block: 'center'});
  }

  let busy = false;
  async function send() {
    if (busy) return;
    rows.forEach((r) => { r.bad.hidden = true; r.line.classList.remove('paper-wrong'); });
    top.hidden = true;
    const sent = filled();
    if (!sent.length) { showErrors({detail: 'Fill in at least one hand.'}); return; }
    busy = sendButton.disabled = true;
    try {
      const key = await api.keyFor(game.event_id, game.table);
      const answer = await api.request('POST', `/api/games/${game.id}/paper-sheet`,
        // The pair this phone enters for, when the event has both sides agree (game/verify.js).
        {key, body: {id: sheetId, hands: sent.map(hand),
          side: localStorage.getItem(`euchre-side:${game.id}`) || undefined}});
      if (answer.status >= 300) showErrors(answer.data || {detail: `The server answered ${answer.status}.`});
      else { keepDraft(game.id, null); await onSaved(answer.data, sent.length); }
    } catch (error) {
      showErrors({detail: `${error.message} The sheet is kept on this phone, even if this page `
        + 'is closed: send it again when the network is back.'});
    } finally {
      busy = sendButton.disabled = false;
    }
  }

  const sendButton = h('button', {type: 'submit', class: 'btn btn-primary paper-send'}, 'Send the sheet');
  const restored = draft?.rows || [];
  for (let i = 0; i < Math.max(fixed ?? 6, restored.length); i++) addRow(restored[i]);
  const form = h('form', {class: 'paper-form', onsubmit: (e) => { e.preventDefault(); send(); }},
    h('p', {class: 'hint'}, 'For each hand, tap the side that called trump: that fills in 3 tricks '
      + '(+1). If they took another number, tap it. Alone marks a loner; Renege opens the rare '
      + 'renege. Check the score on each hand against the paper.'),
    first > 1 && h('p', {class: 'note'}, `Hands 1 to ${first - 1} are entered already: the sheet goes on from hand ${first}.`),
    draft && h('p', {class: 'note paper-restored', role: 'status'}, 'The sheet as you left it, kept on this phone: '
      + (moved ? `begun when the game had ${draft.first - 1} hands (it has ${first - 1} now): check each hand.`
        : 'check it and send it.')),
    top, list, h('p', {class: 'actions'}, sendButton),
    h('p', {class: 'hint'}, 'Kept on this phone as you tap, until the server has it.'));
  changed();
  return {el: form};
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
  if (game.over) keepDraft(gid, null); // nothing more can be entered: a draft left here is moot
  if (game.over || !(await api.keyFor(eid, game.table))) {
    mount(main, head, h('p', {class: 'note'}, game.over ? 'This game is over: nothing more to enter.'
      : `This device has no key for table ${game.table}: open the game and join with the PIN first.`), link);
    return;
  }
  mount(main, head, sheetGrid(game, event.format, (saved, n) => {
    // Where both pairs agree the score (game/verify.js), the sheet waits for the other pair's.
    toast(saved.waiting ? `Sheet sent as your pair's entry: its ${n} hands count once the other `
      + 'pair agrees.' : `Sheet saved: ${n} hand${n === 1 ? '' : 's'}, ${sideName(saved, 'A')} ${saved.points.A} – ${saved.points.B} ${sideName(saved, 'B')}.`);
    navigate(back);
  }).el, link);
}
