/**
 * The desk's two sheets, driven by the keys the desk hands them one at a time (desk.js owns the
 * keyboard): the WEC game sheet (points, bumps, a level game's playoff) and a paper sheet's
 * hands in a grid, one row a hand. The fields hold what was typed; `cur` is where the next key
 * goes. A key never depends on the server's answers, so keys typed ahead land where they were
 * meant at any speed: a tricks digit, even a wrong one, always ends its row, and a side typed
 * where a row's tricks were expected starts the next row, so rows never shift. The euchre rules
 * stay on the server: a wrong row comes back refused on its row.
 */

import {h} from '../dom.js';
import {provisionalScore} from '../provisional.js';
import {seats, sideName} from '../words.js';

const SIDE = {a: 'A', 1: 'A', b: 'B', 2: 'B'};
const HOW = {p: 'playoff-hand', c: 'card-draw'};
const pick = (label, options, cls) => h('select', {class: ['input', cls], 'aria-label': label},
  options.map(([value, text]) => h('option', {value}, text)));
const sides = (game, none) => [['', none], ['A', `A: ${sideName(game, 'A')}`], ['B', `B: ${sideName(game, 'B')}`]];

/** A field: its element, its kind of value, and its row in a grid. */
function field(el, kind, extra = {}) {
  return {el, kind, ...extra};
}

/** Apply one key to one field; returns 'next' to move on, or nothing. */
function edit(f, key, fresh) {
  const el = f.el;
  const k = key.toLowerCase();
  if (key === 'Backspace' || key === 'Delete') {
    if (f.kind === 'check') el.checked = false;
    else el.value = f.kind === 'num' && !fresh && key === 'Backspace' ? el.value.slice(0, -1) : '';
    return;
  }
  if (f.kind === 'num' && /^\d$/.test(key)) {
    el.value = (fresh ? '' : el.value) + key;
    if (el.value.length >= (f.max || 4)) el.value = el.value.slice(-(f.max || 4));
    return f.max === 1 ? 'next' : undefined;
  }
  if (f.kind === 'side' && SIDE[k]) { el.value = SIDE[k]; return f.onSide; }
  if (f.kind === 'how' && HOW[k]) { el.value = HOW[k]; return; }
  if (f.kind === 'seat' && /^[1-4]$/.test(key)) { el.value = key; return; }
  if (f.kind === 'check' && (key === ' ' || k === 'x' || k === 'y')) { el.checked = !el.checked; return; }
  if (f.kind === 'save' && key === ' ') return 'send';
}

/** What both sheets share: the cursor, Tab and Shift+Tab within the sheet, Enter, the message
 * lines, and the fields typed into afresh (Tab selects a field's text, as a browser does). */
function sheet(el, fields, out, onKey) {
  const s = {el, fields, cur: 0, fresh: true, out};
  const move = (to) => { s.cur = (to + fields.length) % fields.length; s.fresh = true; };
  fields.forEach((f, i) => f.el.addEventListener('focusin', () => { if (s.cur !== i) move(i); }));
  s.to = (f) => { s.cur = fields.indexOf(f); s.fresh = true; };
  s.key = ({k, shift}) => {
    if (k === 'Enter') return 'send';
    if (k === 'Tab') { move(s.cur + (shift ? -1 : 1)); return; }
    if (k === 'SelectAll') { s.fresh = true; return; }
    const fresh = s.fresh;
    s.fresh = false;
    const done = (onKey || edit)(fields[s.cur], k, fresh);
    s.changed?.();
    if (done === 'send') return 'send';
    if (done === 'next') move(s.cur + 1);
    else if (done?.el) s.to(done);
  };
  s.focus = () => {
    const el2 = fields[s.cur].el;
    el2.focus({preventScroll: true});
    el2.scrollIntoView?.({block: 'nearest'});
  };
  s.say = (text, extra) => { out.hidden = !text; out.replaceChildren(text || '', extra || ''); };
  return s;
}

const save = (label) => h('button', {type: 'button', class: 'btn btn-primary desk-save'}, label);
const tieFields = (game, n) => [
  pick(`Level game: who won the playoff hand or card draw (A or B)`, sides(game, 'not level'), 'desk-tie'),
  pick('Level game: how (P: playoff hand, C: card draw)', [['', '–'], ['playoff-hand', 'P: playoff hand'],
    ['card-draw', 'C: card draw']], 'desk-tie-how'),
].map((el, i) => field(el, i ? 'how' : 'side', {n}));
const tieOf = (fs) => {
  const [w, how] = fs.map((f) => f.el.value);
  return w ? {winner: w, method: how || 'playoff-hand'} : null;
};

/** The WEC game sheet: both sides' points, each player's bumps (blank is none), and for a
 * level game who won its playoff hand or card draw. */
export function wecSheet(game) {
  const out = h('p', {class: 'msg msg-error', role: 'alert', hidden: true});
  const num = (id, label) => field(h('input', {id, class: 'input desk-num', inputmode: 'numeric',
    autocomplete: 'off', 'aria-label': label}), 'num');
  const players = seats(game);
  const pts = ['A', 'B'].map((x) => num(`desk-${x.toLowerCase()}`, `${sideName(game, x)}: points`));
  const bumps = players.map((p) => num(`desk-bump-${p.seat}`, `${p.name} (seat ${p.seat}): bumps`));
  const tie = tieFields(game);
  const btn = field(save('Save and open the next'), 'save');
  const cell = (f, text) => h('label', {class: 'desk-cell'}, h('span', {}, text), f.el);
  const el = h('form', {class: 'form desk-sheet', onsubmit: (e) => e.preventDefault()},
    h('p', {class: 'hint'}, 'Tab moves on; Enter saves and opens the next (type ahead: no key is lost); Esc leaves the sheet.'),
    h('div', {class: 'desk-line'}, pts.map((f, i) => cell(f, `${sideName(game, 'AB'[i])}: points`))),
    h('fieldset', {class: 'desk-line'}, h('legend', {}, 'Bumps (dollars; blank is none)'),
      bumps.map((f, i) => cell(f, `${players[i].name} (seat ${players[i].seat})`))),
    h('fieldset', {class: 'desk-line'}, h('legend', {}, 'Only a level game: its playoff hand or card draw'),
      cell(tie[0], 'Won by (A or B)'), cell(tie[1], 'How (P or C)')),
    out, h('p', {class: 'desk-actions'}, btn.el));
  const s = sheet(el, [...pts, ...bumps, ...tie, btn], out);
  s.body = () => {
    const v = (f) => f.el.value.trim();
    const missing = pts.findIndex((f) => !/^\d+$/.test(v(f)));
    if (missing >= 0) return {error: `Type ${sideName(game, 'AB'[missing])}'s points: a whole number.`, at: missing};
    const b = {};
    bumps.forEach((f, i) => { if (Number(v(f))) b[String(players[i].seat)] = Number(v(f)); });
    return {points: {A: Number(v(pts[0])), B: Number(v(pts[1]))}, bumps: b, tie: tieOf(tie)};
  };
  s.tie = () => tieOf(tie);
  s.tieField = tie[0];
  s.refused = () => {};
  return s;
}

/** A paper sheet's hands, one row a hand: maker, alone, tricks, renege by and upheld (and the
 * loner's seat where bumps are paid), then a level game's playoff. Keys: A or B (1, 2) for the
 * maker, L for a loner, a digit for the tricks ends the row. */
export function handGrid(game, format) {
  // The rows still to type (a game that time ended before any hand was entered has them all).
  const per = game.format?.hands_per_game;
  const fixed = per ? Math.max(per - game.hands_played, 1) : null;
  const bumps = Boolean(format?.parameters?.bumps);
  const first = game.hands.length + 1;
  const out = h('p', {class: 'msg msg-error', role: 'alert', tabindex: -1, hidden: true});
  const body = h('tbody', {});
  const rows = [];
  const fields = [];
  const btn = field(save('Save and open the next'), 'save');
  const tie = fixed === null ? [] : tieFields(game);
  function addRow() {
    const n = first + rows.length;
    const r = {n, total: h('td', {class: 'grid-total'}), error: h('td', {colspan: 8})};
    const own = {row: r};
    r.maker = field(pick(`Hand ${n}: maker`, sides(game, '–'), 'grid-maker'), 'side', {...own, onSide: 'tricks'});
    r.alone = field(h('input', {type: 'checkbox', 'aria-label': `Hand ${n}: alone`}), 'check', own);
    r.tricks = field(h('input', {class: 'input grid-tricks', inputmode: 'numeric', autocomplete: 'off',
      'aria-label': `Hand ${n}: tricks the makers took (0 to 5)`}), 'num', {...own, max: 1});
    r.by = field(pick(`Hand ${n}: renege by`, sides(game, 'no renege')), 'side', own);
    r.upheld = field(h('input', {type: 'checkbox', 'aria-label': `Hand ${n}: renege upheld`}), 'check', own);
    r.loner = bumps && field(pick(`Hand ${n}: who went alone`, [['', '–'],
      ...seats(game).map((p) => [String(p.seat), `${p.seat}: ${p.name}`])]), 'seat', own);
    r.own = [r.maker, r.alone, r.tricks, r.by, r.upheld, r.loner].filter(Boolean);
    r.line = h('tr', {class: 'grid-row', 'data-row': n}, h('th', {scope: 'row'}, n),
      r.own.map((f) => h('td', {}, f.el)), r.total);
    r.bad = h('tr', {class: 'grid-bad', hidden: true}, r.error);
    rows.push(r);
    fields.splice(fields.length - tie.length - 1, 0, ...r.own);
    body.append(r.line, r.bad);
    r.own.forEach((f) => {
      f.el.addEventListener('change', () => s.changed());
      f.el.addEventListener('focusin', () => { if (fields[s.cur] !== f) s.to(f); }); // a click
    });
  }
  fields.push(...tie, btn);
  const s = sheet(null, fields, out, (f, key, fresh) => {
    const r = f.row;
    if (!r) return edit(f, key, fresh);
    const k = key.toLowerCase();
    const after = () => {
      if (!rows[rows.indexOf(r) + 1] && fixed === null) addRow();
      return rows[rows.indexOf(r) + 1]?.maker || tie[0] || btn;
    };
    if (k === 'l') { r.alone.el.checked = !r.alone.el.checked; return; }
    // The maker left out: the digit is this row's tricks, and the row ends.
    if (f === r.maker && /^[03-9]$/.test(key)) { r.tricks.el.value = key; return after(); }
    // The tricks left out: the side is the next row's maker.
    if (f === r.tricks && /^[ab]$/.test(k)) {
      const next = after();
      if (next.row) { next.el.value = SIDE[k]; return next.row.tricks; }
      return;
    }
    const done = edit(f, key, fresh);
    if (done === 'tricks') return r.tricks;
    return done === 'next' ? after() : done;
  });
  const hand = (r) => {
    const o = {maker: r.maker.el.value || null, tricks: r.tricks.el.value === '' ? null : Number(r.tricks.el.value),
      alone: r.alone.el.checked};
    if (o.alone && r.loner && r.loner.el.value) o.loner_seat = Number(r.loner.el.value);
    if (r.by.el.value) o.renege = {by: r.by.el.value, upheld: r.upheld.el.checked};
    return o;
  };
  const blank = (r) => !r.maker.el.value && r.tricks.el.value === '' && !r.alone.el.checked && !r.by.el.value;
  const filled = () => rows.slice(0, rows.findLastIndex((r) => !blank(r)) + 1);
  s.changed = () => {
    let sum = {...game.points};
    for (const r of rows) {
      if (blank(r)) { r.total.textContent = ''; continue; }
      const p = provisionalScore(sum, [{handId: 'row', body: hand(r)}], format);
      if (!p.missing) sum = p.points;
      r.total.textContent = p.missing || r.tricks.el.value === '' && !r.by.el.value ? '…' : `${sum.A}–${sum.B}`;
    }
  };
  s.rows = () => filled().length;
  s.size = fixed;
  s.body = () => {
    const sent = filled();
    return sent.length ? {hands: sent.map(hand), tie: tieOf(tie)} : {error: 'Type at least one hand.', at: 0};
  };
  s.tie = () => tieOf(tie);
  s.tieField = tie[0] || btn;
  /** The server's refusal on its rows; the cursor goes to the first wrong row. */
  s.refused = (problem) => {
    rows.forEach((r) => { r.bad.hidden = true; r.line.classList.remove('grid-wrong'); });
    const per = problem?.errors?.hands;
    let at = null;
    for (const [i, why] of Object.entries(per && typeof per === 'object' ? per : {})) {
      const r = rows[Number(i)];
      if (!r) continue;
      r.bad.hidden = false;
      r.line.classList.add('grid-wrong');
      r.error.textContent = `Hand ${r.n}: ${[why].flat().map((x) => (typeof x === 'object' ? Object.values(x).flat().join(' ') : x)).join(' ')}`;
      at ??= r;
    }
    if (at) s.to(at.maker);
  };
  for (let i = 0; i < (fixed ?? 6); i++) addRow();
  s.el = h('form', {class: 'grid-form', onsubmit: (e) => e.preventDefault()},
    h('p', {class: 'hint'}, `A: ${sideName(game, 'A')} · B: ${sideName(game, 'B')}. Keys: A or B for the maker, `
      + 'then the tricks (0–5); L for a loner; Enter saves; Esc leaves the sheet.'),
    first > 1 && h('p', {class: 'note'}, `Hands 1 to ${first - 1} are entered already: the sheet goes on from hand ${first}.`),
    out,
    h('table', {class: 'grid desk-grid'}, h('thead', {}, h('tr', {}, ['#', 'Maker', 'Alone', 'Tricks', 'Renege by',
      'Upheld', bumps && 'Loner', 'Score'].filter(Boolean).map((t) => h('th', {scope: 'col'}, t)))), body),
    tie.length ? h('p', {class: 'desk-line'}, h('span', {}, 'Only a level game: '),
      tie.map((f, i) => h('label', {class: 'desk-cell'}, h('span', {}, i ? 'How (P or C)' : 'Won by (A or B)'), f.el))) : null,
    h('p', {class: 'desk-actions'}, btn.el));
  s.changed();
  return s;
}
