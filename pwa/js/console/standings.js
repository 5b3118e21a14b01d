/**
 * /e/<id>/organize/standings: the leaderboard as the organizer needs it at the prize table,
 * live (the same If-None-Match poll as the public board), shared places highlighted with the
 * way to settle them, and the tools of that moment: the CSV, the public and projector views,
 * the scoresheets, marking the event finished. Every number is the server's.
 */

import {pollLeaderboard} from '../api.js';
import {h, mount} from '../dom.js';
import {roundKeys} from '../words.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {card, does, failure, msg, saveFile, say} from './ui.js';

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'standings', 'Standings');
  if (!framed) return;
  const base = `/e/${id}/organize`;
  const out = msg();
  const status = h('p', {class: 'hint', 'aria-live': 'off'}, 'Loading…');
  const ties = h('div', {});
  const table = h('div', {class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Standings'});
  const name = `${framed.event?.code || id}-standings.csv`;
  const finished = framed.event?.status === 'finished';
  mount(framed.body,
    h('section', {class: 'card wide'}, h('h2', {}, 'The standings'), status, ties, table),
    card('At the prize table', h('ul', {class: 'link-list'},
      h('li', {}, does('Download the standings (CSV)', out, () => calls.download(id, 'standings.csv'), (blob) => {
        saveFile(blob, name);
        say(out, `${name} saved to your downloads.`);
      }, {pending: 'Downloading…'})),
      [[`/e/${id}/board`, 'Public leaderboard'], [`/e/${id}/projector`, 'Projector mode'],
        [`${base}/print/sheets`, 'Print the scoresheets'],
        [base, finished ? 'The event is finished (Event)' : 'Mark the event finished (Event)']]
        .map(([href, words]) => h('li', {}, h('a', {class: 'btn btn-link', href}, words)))), out));

  const paint = (board) => {
    const level = new Map(board.ties.flatMap((g) => g.entrants.map((e) => [e.id, g])));
    const keys = roundKeys(board.rows);
    mount(ties, board.ties.length > 0 && h('div', {class: 'warn level-places'},
      h('ul', {class: 'plain-list'}, board.ties.map((g) => h('li', {}, `Place ${g.place} is shared: `
        + `${g.entrants.map((e) => e.name).join(', ')}${g.affects_prizes ? ' (it decides a prize)' : ''}.`))),
      h('a', {href: `${base}/ties`}, 'Settle shared places under Ties')));
    mount(table, board.rows.length ? h('table', {class: 'standings by-name'},
      h('thead', {}, h('tr', {}, ['Place', board.entry === 'team' ? 'Team' : 'Player', 'Total',
        ...keys.map((k) => `R${k}`)].map((c) => h('th', {scope: 'col'}, c)))),
      h('tbody', {}, board.rows.map((r) => h('tr', {class: [level.has(r.entrant_id) && 'level', r.prize && 'prize',
        r.withdrawn && 'withdrawn'], 'data-entrant': r.entrant_id},
      h('td', {}, r.shared ? `=${r.place}` : r.place),
      h('th', {scope: 'row'}, r.name, r.members?.length ? h('span', {class: 'hint'}, ` (${r.members.join(' & ')})`) : '',
        r.withdrawn ? ' · withdrawn' : ''),
      h('td', {class: 'total'}, r.total), keys.map((k) => h('td', {}, r.rounds[k] ?? '–'))))))
      : h('p', {class: 'empty'}, 'No scores yet.'));
  };

  let last = null;
  return pollLeaderboard(id, (board, info) => {
    if (board) paint(last = board);
    const round = last?.current_round;
    mount(status, info.fresh ? `Live · updated ${new Date().toLocaleTimeString()}` : `Not updated: ${failure(info.error, true)}`,
      last && ` · ${last.rounds_played} of ${last.rounds_total ?? '?'} rounds closed`
        + `${round?.status === 'playing' ? ` · ${round.label} being played` : ''}`);
  }, 5000);
}
