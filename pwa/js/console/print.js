/**
 * /e/<id>/organize/print: table cards and scoresheets as print-ready pages (print CSS in
 * app.css), and the CSV exports as downloads. The exports need the organizer key, which a link
 * cannot carry, so each is fetched with it and saved from a Blob.
 */

import {button, h, mount, setTitle} from '../dom.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {act, load, msg, query, say} from './ui.js';

const EXPORTS = [
  ['standings.csv', 'Standings', 'places, totals and round scores'],
  ['scoresheets.csv', 'Scoresheets', 'every player\'s rounds: table, partner, score'],
  ['games.csv', 'Games', 'every game\'s score and winner'],
  ['hands.csv', 'Hands', 'every hand as entered'],
];

function save(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = h('a', {href: url, download: filename, hidden: true});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30000);
}

/** How many tables: the round being played, else the next round's preview. */
async function tableNumbers(id) {
  const rounds = (await calls.rounds(id)).filter((r) => r.status !== 'scheduled');
  const current = rounds.find((r) => r.status === 'playing');
  if (current) return current.tables.map((t) => t.table);
  try { return (await calls.plan(id)).tables.map((t) => t.table); } catch { /* no next round */ }
  return (rounds.at(-1)?.tables || []).map((t) => t.table);
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'print', 'Print & export');
  if (!framed) return;
  const out = msg();
  const base = `/e/${id}/organize/print`;
  const count = h('input', {id: 'card-tables', class: 'input', type: 'number', min: 1, max: 200,
    inputmode: 'numeric'});
  mount(framed.body,
    h('section', {class: 'card'},
      h('h2', {}, 'Table cards'),
      h('p', {}, 'One card a table: its number, the event code, and a QR code that opens that '
        + 'table\'s game screen on a runner\'s phone. Each card carries a new runner key for its '
        + 'table (revoke old ones under Access).'),
      h('label', {for: 'card-tables'}, 'Number of tables'), count,
      h('a', {class: 'btn btn-primary', href: `${base}/cards`, onclick: (e) => {
        e.currentTarget.href = `${base}/cards${count.value ? `?tables=${count.value}` : ''}`;
      }}, 'Make the table cards')),
    h('section', {class: 'card'},
      h('h2', {}, 'Scoresheets'),
      h('p', {}, 'A page a player: table, partner, opponents and score of every round.'),
      h('a', {class: 'btn btn-primary', href: `${base}/sheets`}, 'Print the scoresheets')),
    h('section', {class: 'card'},
      h('h2', {}, 'Exports (CSV)'),
      h('ul', {class: 'link-list'}, EXPORTS.map(([name, label, what]) => h('li', {},
        button(`${label} (${name})`, async (e) => {
          const blob = await act(e.currentTarget, out, () => calls.download(id, name), 'Downloading…');
          if (blob) {
            save(blob, `${framed.event?.code || id}-${name}`);
            say(out, `${name} saved to your downloads.`);
          }
        }, {'data-export': name}), h('span', {class: 'hint'}, what)))), out));
  tableNumbers(id).then((tables) => { if (!count.value && tables.length) count.value = tables.length; })
    .catch(() => {});
}

function printBar(title, backTo, ready) {
  return h('div', {class: 'print-bar no-print'},
    h('a', {class: 'btn', href: backTo}, '← Back'),
    button('Print', () => window.print(), {class: 'btn-primary', disabled: !ready}),
    h('span', {class: 'hint'}, title));
}

/** /e/<id>/organize/print/cards[?tables=N]: the table cards, two to a page. */
export async function cards(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'print', 'Table cards');
  if (!framed) return;
  document.body.classList.add('printing');
  const back = `/e/${id}/organize/print`;
  await load(framed.body, async () => {
    const wanted = Number(query().get('tables'));
    const numbers = wanted ? Array.from({length: wanted}, (_, i) => i + 1) : await tableNumbers(id);
    const made = [];
    for (const table of numbers) {
      const key = await calls.issueKey(id, table, `table card ${table}`);
      made.push({table, link: key.link, qr: await calls.qr(key.link, `Table ${table}`)});
    }
    return made;
  }, (made) => mount(framed.body,
    printBar(`${made.length} cards`, back, made.length > 0),
    !made.length && h('p', {class: 'empty'}, 'No tables yet: give the number of tables.'),
    h('div', {class: 'cards'}, made.map((c) => h('article', {class: 'table-card-print'},
      h('p', {class: 'card-event'}, framed.event?.name || ''),
      h('p', {class: 'card-table'}, `Table ${c.table}`),
      h('img', {class: 'card-qr', src: c.qr, alt: `QR code: runner link for table ${c.table}`, width: 220, height: 220}),
      h('p', {}, 'Runner: scan to enter this table\'s hands.'),
      h('p', {class: 'hint'}, `Or open the app, event code ${framed.event?.code || ''}, table ${c.table}, and the PIN from the organizer.`))))));
}

/** /e/<id>/organize/print/sheets: every player's scoresheet, one a page. */
export async function sheets(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'print', 'Scoresheets');
  if (!framed) return;
  document.body.classList.add('printing');
  setTitle('Scoresheets');
  await load(framed.body, () => calls.scoresheets(id), (all) => mount(framed.body,
    printBar(`${all.length} scoresheets`, `/e/${id}/organize/print`, all.length > 0),
    all.map((s) => h('article', {class: 'sheet-page'},
      h('h2', {}, s.name), h('p', {class: 'hint'}, s.event_name),
      h('table', {class: 'sheet-table'},
        h('thead', {}, h('tr', {}, ['Round', 'Table', 'Partner', 'Opponents', 'Score', 'Total']
          .map((c) => h('th', {scope: 'col'}, c)))),
        h('tbody', {}, s.rounds.map((r) => h('tr', {},
          h('td', {}, r.label), h('td', {}, r.table), h('td', {}, r.partner),
          h('td', {}, r.opponents.join(' & ')), h('td', {class: 'num'}, r.score),
          h('td', {class: 'num'}, r.running_total ?? '')))),
        h('tfoot', {}, h('tr', {}, h('th', {scope: 'row', colspan: 5}, 'Total'),
          h('td', {class: 'num sheet-total'}, s.total ?? ''))))))));
}
