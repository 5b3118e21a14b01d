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
  const save = (name) => (blob) => {
    saveFile(blob, `${framed.event?.code || id}-${name}`);
    say(out, `${name} saved to your downloads.`);
  };
  mount(framed.body,
    card('Table cards', h('p', {}, 'A card a table: its number and a QR code that opens its game screen on a '
      + 'runner\'s phone (a new runner key each; revoke old ones under Access).'), lab(count, 'Number of tables'), count,
    h('a', {class: 'btn btn-primary', href: `${base}/cards`, onclick: (e) => { e.currentTarget.href += `?tables=${count.value}`; }},
      'Make the table cards')),
    card('Scoresheets', h('p', {}, 'A page a player: every round\'s table, partner, opponents and score.'),
      h('a', {class: 'btn btn-primary', href: `${base}/sheets`}, 'Print the scoresheets')),
    card('Exports (CSV)', h('ul', {class: 'link-list'}, ['Standings', 'Scoresheets', 'Games', 'Hands'].map((label) => {
      const name = `${label.toLowerCase()}.csv`;
      return h('li', {}, does(`${label} (${name})`, out, () => calls.download(id, name), save(name), {pending: 'Downloading…'}));
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

/** /e/<id>/organize/print/cards[?tables=N]: a runner key and its QR code per table. */
export const cards = (main, {eventId}) => printPage(main, eventId, 'Table cards', async (event) => {
  const made = [];
  const n = Number(query().get('tables'));
  for (const table of n ? Array.from({length: n}, (_, i) => i + 1) : await tableNumbers(eventId)) {
    const {link} = await calls.issueKey(eventId, table, `table card ${table}`);
    made.push([table, await calls.qr(link, `Table ${table}`)]);
  }
  return made;
}, (made, event) => h('div', {class: 'cards'}, made.map(([table, qr]) => h('article', {class: 'table-card-print'},
  h('p', {}, event.name), h('p', {class: 'card-table'}, `Table ${table}`),
  h('img', {class: 'card-qr', src: qr, alt: `QR code: runner link for table ${table}`, width: 220, height: 220}),
  h('p', {}, `Runner: scan to enter this table's hands, or join with event code ${event.code} and the PIN.`)))));

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

/** /e/<id>/organize/print/sheets: every player's scoresheet, a page each. */
export const sheets = (main, {eventId}) => printPage(main, eventId, 'Scoresheets', () => calls.scoresheets(eventId),
  (all, event) => all.map((s) => sheet(s, s.upcoming?.length > 0 || event.format?.parameters?.movement === 'wec-singles')));
