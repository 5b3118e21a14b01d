/**
 * A mismatch under double entry (RULES.md section 7), side by side: the two pairs' entries of a
 * hand (or a paper sheet), field by field, the fields the server found different marked (≠,
 * `tr.differ`). Only what the game read says: `m` is one of its `mismatches`.
 */

import {h} from '../dom.js';
import {SIDES, sideName} from '../words.js';

const FIELDS = {maker: 'Called trump', alone: 'Alone', loner_seat: 'Who went alone',
  tricks: 'Tricks', renege: 'Renege', kind: 'Kind'};

/** A field's value in words. */
function fieldWords(g, name, value) {
  if (value === null || value === undefined || value === false) return '—';
  if (value === true) return 'yes';
  if (name === 'maker') return sideName(g, value);
  if (name === 'loner_seat') {
    return SIDES.flatMap((s) => g.sides[s]?.players || []).find((p) => p.seat === value)?.name
      || `seat ${value}`;
  }
  if (name === 'renege') return `by ${sideName(g, value.by)}, ${value.upheld ? 'upheld' : 'rejected'}`;
  return String(value);
}

/** A row's label and value: a hand's field ("tricks"), or a sheet's ("hands[2].tricks"). */
function row(g, m, field, entry) {
  const path = /^hands\[(\d+)\]\.(\w+)$/.exec(field);
  if (m.kind === 'hand') return [FIELDS[field] || field, fieldWords(g, field, entry.hand?.[field])];
  if (!path) return [field, ''];
  const [, n, name] = path;
  return [`Hand ${Number(n) + 1}: ${(FIELDS[name] || name).toLowerCase()}`,
    fieldWords(g, name, entry.sheet?.hands?.[n]?.[name])];
}

/** The table: this phone's pair ("Ours") beside the other ("Theirs"); for the organizer
 * (`neutral`), side `side` beside the other, by their letters. */
export function mismatchTable(g, m, side, neutral) {
  const other = side === 'A' ? 'B' : 'A';
  const fields = m.kind === 'hand' ? Object.keys(FIELDS).filter((f) => f !== 'kind'
    && (m.differ.includes(f) || f === 'maker' || f === 'tricks')) : m.differ;
  return h('table', {class: 'mismatch'},
    h('thead', {}, h('tr', {}, h('th', {}, ''),
      h('th', {scope: 'col'}, `${neutral ? `Side ${side}` : 'Ours'} (${sideName(g, side)})`),
      h('th', {scope: 'col'}, `${neutral ? `Side ${other}` : 'Theirs'} (${sideName(g, other)})`))),
    h('tbody', {}, fields.map((f) => {
      const [label, ours] = row(g, m, f, m.entries[side]);
      const differs = m.differ.includes(f);
      return h('tr', {class: differs ? 'differ' : null, 'data-field': f},
        h('th', {scope: 'row'}, label, differs ? ' ≠' : ''),
        h('td', {}, ours), h('td', {}, row(g, m, f, m.entries[other])[1]));
    })));
}

/** The organizer's view of a game's mismatches (the console's Corrections): for each, side A
 * beside side B, then per side the button `choice(label, number, side)` makes, which takes
 * that side's entry of hand `number`. */
export const settleBoxes = (g, choice) => g.mismatches.map((m) => h('div', {class: 'card'},
  h('h3', {}, `Hand ${m.number}: the pairs disagree`), mismatchTable(g, m, 'A', 1),
  ['A', 'B'].map((side) => choice(`Side ${side}'s is right`, m.number, side))));
