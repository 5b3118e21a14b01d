/**
 * A player's own scoresheet: per round, table and seat, partner, opponents, score and running
 * total ("–" while a round is still being played), then the games the fixed schedule still
 * holds for them (WEC singles). Four columns, so it fits a 360 px phone without breaking words.
 */

import * as api from '../api.js';
import {h, hidden, mount, setTitle} from '../dom.js';
import {namesWords} from '../words.js';

function roundRow(r) {
  return h('tr', {class: r.finished ? null : 'in-play'},
    h('th', {scope: 'row'}, h('span', {class: 'sheet-label'}, r.label),
      h('span', {class: 'sheet-sub'}, `table ${r.table}`),
      h('span', {class: 'sheet-sub'}, `seat ${r.seat}`)),
    h('td', {class: 'sheet-players'}, h('span', {}, `with ${r.partner}`),
      h('span', {}, `against ${namesWords(r.opponents)}`)),
    h('td', {class: 'num'}, r.finished ? String(r.score)
      : [h('span', {'aria-hidden': 'true'}, '–'), hidden('still being played')]),
    h('td', {class: 'num'}, r.running_total === null ? '' : String(r.running_total)));
}

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
  const upcoming = sheet.upcoming || [];
  mount(main,
    h('h1', {class: 'page-title'}, sheet.name),
    h('p', {class: 'hint'}, sheet.event_name),
    !fresh && h('p', {class: 'note'}, 'No network: this is the scoresheet as last seen.'),
    sheet.rounds.length
      ? h('table', {class: 'sheet-table sheet-screen'},
        h('caption', {}, 'Scoresheet by round'),
        h('thead', {}, h('tr', {},
          ['Round', 'Players', 'Score', 'Total'].map((c) => h('th', {scope: 'col'}, c)))),
        h('tbody', {}, sheet.rounds.map(roundRow)))
      : h('p', {}, 'No rounds played yet.'),
    h('p', {class: 'sheet-total'}, 'Total: ', h('strong', {}, String(sheet.total ?? 0))),
    upcoming.length > 0 && h('section', {class: 'card upcoming'},
      h('h2', {}, 'Games to come'),
      h('ol', {class: 'plain-list upcoming-list'}, upcoming.map((u) => h('li', {},
        h('strong', {}, `${u.label}: `), `table ${u.table}, seat ${u.seat}, with ${u.partner} `
          + `against ${namesWords(u.opponents)}`))),
      h('p', {class: 'hint'}, 'From the schedule: a late arrival or a withdrawal can still '
        + 'change a seat.')),
    h('p', {class: 'actions'}, h('a', {class: 'btn', href: `/e/${eventId}/board`}, 'Leaderboard'),
      sheet.profile && h('a', {class: 'btn', href: sheet.profile}, 'Profile and statistics')));
}
