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
import {handAwardsCard} from './hand-awards.js';
import {does, failure, msg, saveFile, say} from './ui.js';

const dollars = (n) => `$${n}`;
const who = (list) => list.map((e) => e.name || '?').join(', ');

/**
 * The awards of a format with a bump cup (WEC), under the standings: Low Score, High Game and
 * the bump cup in all, by player and by table, as the server counts them. Returns the function
 * that reads them again (called when the leaderboard changed); a folded list stays as it was.
 */
function awardsCard(id, body, after) {
  const status = h('p', {class: 'hint'}, 'Loading…');
  const prizes = h('dl', {class: 'awards'});
  const cup = h('p', {class: 'cup-total'});
  const fold = (what) => {
    const title = h('span', {});
    const list = h('div', {class: 'scroll', tabindex: 0, role: 'region', 'aria-label': what});
    return [h('details', {class: 'awards-more'}, h('summary', {class: 'btn btn-link'}, title), list), title, list];
  };
  const [players, playersTitle, playersList] = fold('Bump cup by player');
  const [tables, tablesTitle, tablesList] = fold('Bump cup by table');
  after.after(h('section', {class: 'card awards-card'}, h('h2', {}, 'Awards and the bump cup'), status, prizes,
    h('h3', {}, 'Bump cup'), cup, players, tables));
  let labels = new Map();
  const label = (n) => labels.get(n) || `Round ${n}`;
  const grid = (heads, rows) => (rows.length ? h('table', {class: 'standings awards-table'},
    h('thead', {}, h('tr', {}, heads.map((c) => h('th', {scope: 'col'}, c)))),
    h('tbody', {}, rows.map(([name, ...cells]) => h('tr', {}, h('th', {scope: 'row'}, name), cells.map((c) => h('td', {}, c))))))
    : h('p', {class: 'empty'}, 'No bumps yet.'));
  let busy = false;
  return async () => {
    if (busy) return;
    busy = true;
    try {
      const a = await calls.awards(id);
      const rounds = [...a.high_game.games.map((g) => g.round), ...a.bump_cup.tables.map((t) => t.round)];
      if (rounds.some((n) => !labels.has(n))) labels = new Map((await calls.rounds(id)).map((r) => [r.number, r.label]));
      const played = a.high_game.points !== null;
      mount(status, played ? '' : 'Low Score and High Game are known once a game is finished.');
      mount(prizes, played && [
        h('div', {class: 'param'}, h('dt', {}, 'Low Score (the lowest total)'),
          h('dd', {}, `${a.low_score.total} points: ${who(a.low_score.entrants)}`)),
        h('div', {class: 'param'}, h('dt', {}, 'High Game (the most points in one game)'),
          h('dd', {}, `${a.high_game.points} points: ${a.high_game.games.map((g) => `${g.name || '?'} (${label(g.round)})`).join(', ')}`))]);
      mount(cup, `${dollars(a.bump_cup.total)} in all`);
      mount(playersTitle, `By player (${a.bump_cup.players.length})`);
      mount(playersList, grid(['Player', 'Dollars'], a.bump_cup.players.map((p) => [p.name || '?', dollars(p.dollars)])));
      mount(tablesTitle, `By table (${a.bump_cup.tables.length})`);
      mount(tablesList, grid(['Game and table', 'Dollars'], a.bump_cup.tables.map((t) => [`${label(t.round)} · table ${t.table}`, dollars(t.dollars)])));
    } catch (error) {
      mount(status, `Awards not updated: ${failure(error, true)}`);
    } finally {
      busy = false;
    }
  };
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'standings', 'Standings');
  if (!framed) return;
  const base = `/e/${id}/organize`;
  const out = msg();
  const status = h('p', {class: 'hint', 'aria-live': 'off'}, 'Loading…');
  const ties = h('div', {});
  const table = h('div', {class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Standings'});
  const extras = h('div', {class: 'standings-extras'});
  const finished = framed.event?.status === 'finished';
  mount(framed.body,
    h('section', {class: 'card wide'}, h('h2', {}, 'The standings'), status, ties, table, extras),
    h('section', {class: 'card no-print'}, h('h2', {}, 'At the prize table'), h('ul', {class: 'link-list'},
      h('li', {}, h('button', {type: 'button', class: 'btn', onclick: () => window.print()}, 'Print the results')),
      h('li', {}, does('Download the standings (CSV)', out, () => calls.download(id, 'standings.csv'),
        ({blob, filename}) => {
          saveFile(blob, filename);
          say(out, `${filename} saved to your downloads.`);
        }, {pending: 'Downloading…'})),
      [[`/e/${id}/board`, 'Public leaderboard'], [`/e/${id}/projector`, 'Projector mode'],
        [`${base}/print/sheets`, 'Print the scoresheets'],
        [`${base}/prizes`, 'Prize money, awards and door prizes (Prizes)'],
        [base, finished ? 'The event is finished (Event)' : 'Mark the event finished (Event)']]
        .map(([href, words]) => h('li', {}, h('a', {class: 'btn btn-link', href}, words)))), out));

  const paint = (board) => {
    const level = new Map(board.ties.flatMap((g) => g.entrants.map((e) => [e.id, g])));
    const keys = roundKeys(board.rows);
    mount(ties, board.ties.length > 0 && h('div', {class: 'warn level-places'},
      h('ul', {class: 'plain-list'}, board.ties.map((g) => h('li', {}, `Place ${g.place} is shared: `
        + `${g.entrants.map((e) => e.name).join(', ')}${g.affects_prizes ? ' (it decides a prize)' : ''}.`))),
      h('a', {href: `${base}/ties`}, 'Settle shared places under Ties')));
    const money = board.money;
    const cash = (n) => `${money.currency}${n}`;
    mount(table, board.rows.length ? h('table', {class: 'standings by-name'},
      h('thead', {}, h('tr', {}, ['Place', board.entry === 'team' ? 'Team' : 'Player', 'Total',
        ...keys.map((k) => `R${k}`), money && 'Payout'].filter(Boolean).map((c) => h('th', {scope: 'col'}, c)))),
      h('tbody', {}, board.rows.map((r) => h('tr', {class: [level.has(r.entrant_id) && 'level', r.prize && 'prize',
        r.withdrawn && 'withdrawn', r.removed && 'removed', r.disqualified && 'disqualified'], 'data-entrant': r.entrant_id},
      h('td', {}, r.place === null ? '–' : r.shared ? `=${r.place}` : r.place),
      h('th', {scope: 'row'}, r.name, r.members?.length ? h('span', {class: 'hint'}, ` (${r.members.join(' & ')})`) : '',
        r.withdrawn ? ' · withdrawn' : '', r.removed ? ' · removed from the league (no place)' : '',
        r.disqualified ? ` · disqualified: ${r.disqualified}` : ''),
      h('td', {class: 'total'}, r.total), keys.map((k) => h('td', {}, r.rounds[k] ?? '–')),
      money && h('td', {class: 'payout'}, r.payout ? cash(r.payout) : '–')))))
      : h('p', {class: 'empty'}, 'No scores yet.'));
    mount(extras, money && h('p', {class: 'pool'}, `Prize pool ${cash(money.pool)}, paid to ${money.paid_places} `
      + `place${money.paid_places === 1 ? '' : 's'}${money.remainder ? `; ${cash(money.remainder)} left over stays with the organizer` : ''}.`),
    board.named_awards?.length > 0 && h('dl', {class: 'awards named-awards'}, board.named_awards.map((a) => h('div', {class: 'param'},
      h('dt', {}, a.name), h('dd', {}, a.winners.map((w) => w.name).join(', '), a.note ? ` (${a.note})` : '')))),
    (board.categories || []).map((c) => h('div', {class: 'category-board'}, h('h3', {}, c.name),
      h('ol', {class: 'plain-list'}, c.rows.filter((r) => r.place !== null && r.place <= Math.max(c.prize_places, 3))
        .map((r) => h('li', {class: r.prize && 'prize'}, `${r.shared ? '=' : ''}${r.place}. ${r.name} · ${r.total}`))))));
  };

  const refreshAwards = framed.event?.format?.parameters?.bumps ? awardsCard(id, framed.body, table.parentElement) : () => {};
  const refreshHandAwards = framed.event?.format?.parameters?.entry === 'team' ? () => {}
    : handAwardsCard(id, framed.event, table.parentElement);
  let last = null;
  return pollLeaderboard(id, (board, info) => {
    if (board) {
      paint(last = board);
      refreshAwards();
      refreshHandAwards();
    }
    const round = last?.current_round;
    mount(status, info.fresh ? `Live · updated ${new Date().toLocaleTimeString()}` : `Not updated: ${failure(info.error, true)}`,
      last && ` · ${last.rounds_played} of ${last.rounds_total ?? '?'} rounds closed`
        + `${round?.status === 'playing' ? ` · ${round.label} being played` : ''}`);
  }, 5000);
}
