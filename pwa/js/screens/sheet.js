/** A player's own scoresheet: per round, table, partner, opponents, score and running total. */

import * as api from '../api.js';
import {h, mount, setTitle} from '../dom.js';

export async function render(main, {eventId, playerId}) {
  setTitle('Scoresheet');
  mount(main, h('p', {class: 'loading'}, 'Loading the scoresheet…'));
  let sheet;
  let fresh;
  try {
    ({data: sheet, fresh} = await api.getScoresheet(Number(eventId), Number(playerId)));
  } catch (error) {
    mount(main, h('p', {class: 'error', role: 'alert'}, error.message));
    return;
  }
  setTitle(`${sheet.name}: scoresheet`);
  mount(main,
    h('h1', {class: 'page-title'}, sheet.name),
    h('p', {class: 'hint'}, sheet.event_name),
    !fresh && h('p', {class: 'note'}, 'No network: this is the scoresheet as last seen.'),
    sheet.rounds.length
      ? h('table', {class: 'sheet-table'},
        h('caption', {}, 'Scoresheet by round'),
        h('thead', {}, h('tr', {},
          ['Round', 'Table', 'Partner', 'Opponents', 'Score', 'Total'].map((c) =>
            h('th', {scope: 'col'}, c)))),
        h('tbody', {}, sheet.rounds.map((r) => h('tr', {},
          h('th', {scope: 'row'}, r.label),
          h('td', {}, String(r.table)),
          h('td', {}, r.partner),
          h('td', {}, r.opponents.join(' & ')),
          h('td', {class: 'num'}, String(r.score)),
          h('td', {class: 'num'}, r.running_total === null ? '' : String(r.running_total))))))
      : h('p', {}, 'No rounds played yet.'),
    h('p', {class: 'sheet-total'}, 'Total: ', h('strong', {}, String(sheet.total ?? 0))),
    h('p', {class: 'actions'}, h('a', {class: 'btn', href: `/e/${eventId}/board`}, 'Leaderboard')));
}
