/** /e/<id>/organize/print: table cards and scoresheets as print pages, the CSV exports. */

import {button, h, mount} from '../dom.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {card, does, inp, lab, load, msg, query, saveFile, say} from './ui.js';

/** The tables: the round being played, else the next round's preview, else the last one. */
async function tableNumbers(id) {
  const all = await calls.rounds(id);
  const rounds = all.filter((r) => r.status !== 'scheduled');
  const next = rounds.find((r) => r.status === 'playing') ? null : await calls.next(id).catch(() => null);
  const now = rounds.find((r) => r.status === 'playing') || (next?.ready ? next : rounds.at(-1));
  return (now?.tables || []).map((t) => t.table);
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'print', 'Print & export');
  if (!framed) return;
  const out = msg();
  const base = `/e/${id}/organize/print`;
  const count = inp('card-tables', {type: 'number', min: 1, max: 200, inputmode: 'numeric'});
  const save = () => ({blob, filename}) => {
    saveFile(blob, filename);
    say(out, `${filename} saved to your downloads.`);
  };
  mount(framed.body,
    card('Table cards', h('p', {}, 'A card a table: its number and a QR code that opens its game screen on a '
      + 'runner\'s phone. Making them again replaces the cards printed before: their keys stop working.'),
    lab(count, 'Number of tables'), count,
    h('a', {class: 'btn btn-primary', href: `${base}/cards`, onclick: (e) => { e.currentTarget.href += `?tables=${count.value}`; }},
      'Make the table cards')),
    card('Scoresheets', h('p', {}, 'A page a player: every round\'s table, partner, opponents and score.'),
      h('div', {class: 'actions'},
        h('a', {class: 'btn btn-primary', href: `${base}/sheets?order=name`}, 'In name order'),
        h('a', {class: 'btn', href: `${base}/sheets?order=table`}, 'In table order'))),
    card('Seating lists', h('p', {}, 'A page a round to post on the wall: every name, A to Z, with its '
      + 'table and seat, so players find their place at a glance.'),
    h('a', {class: 'btn btn-primary', href: `${base}/seating`}, 'Print the seating lists')),
    card('Exports (CSV)', h('ul', {class: 'link-list'}, ['Standings', 'Scoresheets', 'Games', 'Hands'].map((label) => {
      const name = `${label.toLowerCase()}.csv`;
      return h('li', {}, does(`${label} (${name})`, out, () => calls.download(id, name), save(), {pending: 'Downloading…'}));
    })), out));
  tableNumbers(id).then((t) => { count.value ||= t.length || ''; }, () => {});
}

/** A print page: a toolbar that is not printed, then the pages. */
async function printPage(main, id, title, work, paint) {
  const framed = await frame(main, id, 'print', title);
  if (!framed) return;
  document.body.classList.add('printing');
  await load(framed.body, () => work(framed.event || {}), (data) => mount(framed.body,
    h('div', {class: 'actions no-print'}, h('a', {class: 'btn', href: `/e/${id}/organize/print`}, '← Back'),
      button('Print', () => window.print(), {class: 'btn-primary'})),
    data.length ? paint(data, framed.event || {}) : h('p', {class: 'empty'}, 'Nothing to print yet.')));
}

/** /e/<id>/organize/print/cards[?tables=N]: a runner key and its QR code per table, made
 * when the organizer asks (a visit or a reload makes none), replacing the cards made before. */
export async function cards(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'print', 'Table cards');
  if (!framed) return;
  document.body.classList.add('printing');
  const event = framed.event || {};
  const n = Number(query().get('tables')) || (await tableNumbers(id).catch(() => [])).length;
  const out = msg();
  const sheet = h('div', {});
  const make = does(`Make the cards for ${n} tables`, out, async () => {
    const made = await calls.tableCards(id, n);
    return {...made, qrs: await Promise.all(made.cards.map((c) => calls.qr(c.link, `Table ${c.table}`)))};
  }, (made) => {
    make.hidden = true;
    mount(sheet, h('p', {class: 'note no-print', role: 'status'}, made.replaced
      ? `${made.replaced} cards printed before no longer work: runners who scanned them scan the new ones.`
      : 'These are the event\'s first table cards.'),
    h('div', {class: 'actions no-print'}, button('Print', () => window.print(), {class: 'btn-primary'})),
    h('div', {class: 'cards'}, made.cards.map((c, i) => h('article', {class: 'table-card-print'},
      h('p', {}, event.name), h('p', {class: 'card-table'}, `Table ${c.table}`),
      h('img', {class: 'card-qr', src: made.qrs[i], alt: `QR code: runner link for table ${c.table}`,
        width: 220, height: 220}),
      h('p', {}, `Runner: scan to enter this table's hands, or join with event code ${event.code} and the PIN.`)))));
  }, {class: 'btn-primary', pending: 'Making the cards…'});
  mount(framed.body, h('div', {class: 'actions no-print'}, h('a', {class: 'btn', href: `/e/${id}/organize/print`}, '← Back'),
    n ? make : h('p', {class: 'empty'}, 'Say how many tables on the Print page first.')),
  h('p', {class: 'hint no-print'}, 'Making the cards replaces any cards printed before: their QR codes stop working. '
    + 'Reloading this page makes none.'), out, sheet);
}

/** One player's sheet: each round played (a round still being played shows "–", not a score),
 * then, when the schedule is fixed (WEC singles), the games still to come with blank boxes. */
function sheet(s, seats) {
  const cells = (r) => [r.label, r.table, seats && r.seat, r.partner, r.opponents.join(' & ')]
    .filter((c) => c !== false).map((c) => h('td', {}, c));
  const heads = ['Round', 'Table', seats && 'Seat', 'Partner', 'Opponents'].filter(Boolean);
  const span = heads.length + 2;
  return h('article', {class: 'sheet-page'}, h('h2', {}, s.name), h('p', {}, s.event_name),
    h('table', {class: 'sheet-table'},
      h('thead', {}, h('tr', {}, heads.map((c) => h('th', {scope: 'col'}, c)),
        ['Score', 'Total'].map((c) => h('th', {scope: 'col', class: 'num'}, c)))),
      h('tbody', {}, s.rounds.map((r) => h('tr', {class: !r.finished && 'in-play'}, cells(r),
        (r.finished ? [r.score, r.running_total] : ['–', '–']).map((c) => h('td', {class: 'num'}, c ?? ''))))),
      s.upcoming?.length > 0 && h('tbody', {class: 'to-come'},
        h('tr', {}, h('th', {scope: 'rowgroup', colspan: span}, 'Still to come (the schedule is fixed)')),
        s.upcoming.map((r) => h('tr', {}, cells(r), h('td', {class: 'num blank'}), h('td', {class: 'num blank'})))),
      h('tfoot', {}, h('tr', {}, h('th', {scope: 'row', colspan: span - 1}, 'Total'), h('td', {class: 'num sheet-total'}, s.total ?? '')))));
}

const byName = (a, b) => a.name.localeCompare(b.name, undefined, {sensitivity: 'base', numeric: true});

/** A sheet's place in table order: the table and seat of the player's latest round. */
const tableOrder = (s) => {
  const last = s.rounds.at(-1) || s.upcoming?.[0];
  return last ? [last.table, last.seat] : [Infinity, Infinity];
};

/** /e/<id>/organize/print/sheets[?order=name|table]: every player's scoresheet, a page each,
 * in name order (A to Z) or in table order (the table and seat each last played at). */
export const sheets = (main, {eventId}) => printPage(main, eventId, 'Scoresheets', async () => {
  const all = await calls.scoresheets(eventId);
  if (query().get('order') === 'table') {
    return all.sort((a, b) => tableOrder(a)[0] - tableOrder(b)[0] || tableOrder(a)[1] - tableOrder(b)[1]
      || byName(a, b));
  }
  return all.sort(byName);
}, (all, event) => all.map((s) => sheet(s, s.upcoming?.length > 0 || event.format?.parameters?.movement === 'wec-singles')));

/** One round's seating list: every name A to Z with its table and seat, in columns. */
function seatingPage(round, event) {
  const places = round.tables.flatMap((t) => t.seats.filter((s) => s.player_id)
    .map((s) => ({name: s.name, table: t.table, seat: s.seat, team: s.side === 'A' ? t.team_a : t.team_b})))
    .sort(byName);
  return h('article', {class: 'seating-page'}, h('h2', {}, `${round.label}: where to sit`), h('p', {}, event.name),
    h('ol', {class: 'seating-list'}, places.map((p) => h('li', {},
      h('span', {class: 'seating-name'}, p.name), ' → ', h('strong', {}, `table ${p.table}`), `, seat ${p.seat}`,
      p.team ? h('span', {class: 'hint'}, ` (${p.team.name})`) : ''))));
}

/** /e/<id>/organize/print/seating[?round=N]: a page a round (or round N): names A to Z with
 * their table and seat, for the wall. */
export const seating = (main, {eventId}) => printPage(main, eventId, 'Seating lists', async () => {
  const rounds = (await calls.rounds(eventId)).filter((r) => r.status !== 'scheduled');
  const wanted = Number(query().get('round'));
  return wanted ? rounds.filter((r) => r.number === wanted) : rounds;
}, (rounds, event) => rounds.map((r) => seatingPage(r, event)));
