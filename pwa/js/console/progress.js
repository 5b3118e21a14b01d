/** What Rounds and Corrections share: the table map and the progress board of a round. */

import {h} from '../dom.js';
import {sides} from './ui.js';

const QUIET = 300; // seconds without an entry before a table is worth a walk over

/** Each table drawn with its seats around it: 1 south, then clockwise; 1 & 3 are side A. */
export const tableMap = (tables) => h('ul', {class: 'table-map'}, tables.map((t) => h('li', {class: 'map-table'},
  h('span', {class: 'map-no'}, `Table ${t.table}`),
  t.seats.map((s) => h('span', {class: ['map-seat', `seat-${s.seat}`, !s.player_id && 'ghost']},
    h('span', {class: 'sr-only'}, `seat ${s.seat}: `), s.name)))));

function gameWords(g) {
  const n = `${g.hands_played}${g.hands_per_game ? ` of ${g.hands_per_game}` : ''} hands${g.target_points ? `, to ${g.target_points}` : ''}`;
  return g.signed_off ? [`${n} · signed off`, 'signed']
    : g.over && g.level && !g.winner ? [`${n} · level: needs a playoff hand or card draw`, 'level']
      : g.over ? [`${n} · finished${g.end === 'time' ? ' (time called)' : ''}`, 'done']
        : g.idle_seconds >= QUIET ? [`${n} · no entry for ${Math.floor(g.idle_seconds / 60)} min`, 'quiet']
          : [n, 'playing'];
}

/** A call still waiting from a table about a game of another round (a correction after that
 * round closed): listed first on the board of the round being played, where the organizer
 * looks, linked to that game's Corrections. */
const lateCall = (id, c) => h('li', {class: 'progress-table late-call', 'data-call': c.call_id},
  h('strong', {}, `Table ${c.table} `),
  h('a', {href: `/e/${id}/organize/corrections?game=${c.game_id}`, class: 'wait'}, c.words));

/** Each table's waits, in the server's words, link to the game's Corrections. */
export const board = (id, round) => h('ul', {class: 'progress-board'},
  (round.late_calls || []).map((c) => lateCall(id, c)), round.tables.map((t) => {
    const s = sides(t);
    return h('li', {class: 'progress-table', 'data-table': t.table},
      h('strong', {}, `Table ${t.table} `), `${s.A} v ${s.B}`,
      t.waits.map((w) => h('a', {href: `/e/${id}/organize/corrections?game=${w.game_id}`, class: 'wait'}, w.words)),
      t.games.map((g) => {
        const [words, kind] = gameWords(g);
        return h('span', {class: ['game-line', `is-${kind}`]}, h('span', {class: 'game-score'}, `${g.points.A}–${g.points.B}`), words,
          h('a', {href: `/e/${id}/games/${g.id}`, class: 'inline-link'}, 'Open'),
          !g.over && !g.hands_played && h('a', {href: `/e/${id}/games/${g.id}/sheet`, class: 'inline-link'}, 'Paper sheet'),
          h('a', {href: `/e/${id}/organize/corrections?game=${g.id}`, class: 'inline-link'}, 'Fix'));
      }));
  }));
