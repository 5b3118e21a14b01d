/**
 * Projector mode (16:9, read from the back of the room): the standings in pages that cycle
 * every 10 s, the round clock (amber, then red, near the end), the event name, and a QR code
 * that opens the leaderboard on a phone.
 */

import * as api from '../api.js';
import {h, hidden, mount, setTitle} from '../dom.js';
import {clockLevel, clockText, movement, pages} from '../words.js';
import {roundClock} from './clock.js';

const PAGE_MS = 10000;
const ROWS_PER_PAGE = 10;

export async function render(main, {eventId}) {
  const id = Number(eventId);
  document.body.className = 'projector-mode';
  setTitle('Projector');
  const s = {board: null, page: 0};
  const name = h('h1', {class: 'proj-name'}, 'Leaderboard');
  const round = h('p', {class: 'proj-round'});
  const clock = h('p', {class: 'proj-clock', 'aria-label': 'Round clock'});
  const pageNo = h('p', {class: 'proj-page'});
  const table = h('ol', {class: 'proj-rows', 'aria-label': 'Standings'});
  const qr = h('figure', {class: 'proj-qr'},
    h('img', {src: api.qrSvgUrl(id, 'board'), alt: 'QR code: open the leaderboard on your phone',
      width: 220, height: 220}),
    h('figcaption', {}, 'Scan for the live leaderboard'));
  mount(main, h('div', {class: 'proj'},
    h('header', {class: 'proj-head'}, h('div', {}, name, round), clock),
    table, h('footer', {class: 'proj-foot'}, pageNo, qr)));

  const clockState = roundClock();

  function drawPage() {
    if (!s.board) return;
    const all = pages(s.board.rows, ROWS_PER_PAGE);
    if (s.page >= all.length) s.page = 0;
    mount(table, all[s.page].map((row) => {
      const move = movement(row.movement);
      return h('li', {class: ['proj-row', row.prize && 'prize']},
        h('span', {class: 'place'}, row.shared ? `=${row.place}` : String(row.place)),
        h('span', {class: 'name'}, row.name,
          row.members?.length ? h('span', {class: 'members'}, ` ${row.members.join(' & ')}`) : null),
        h('span', {class: ['move', row.movement > 0 ? 'up' : 'down']},
          h('span', {'aria-hidden': 'true'}, move.mark), hidden(move.words)),
        h('span', {class: 'total'}, String(row.total)));
    }));
    pageNo.textContent = all.length > 1 ? `Page ${s.page + 1} of ${all.length}` : '';
  }

  function drawClock() {
    const cr = s.board?.current_round;
    const left = clockState.secondsLeft();
    round.textContent = cr ? cr.label : '';
    clock.className = `proj-clock clock-${clockLevel(left)}`;
    clock.textContent = left === null ? '' : clockText(left);
  }

  const stopPoll = api.pollLeaderboard(id, (board) => {
    if (!board) return;
    s.board = board;
    name.textContent = board.event_name;
    setTitle(`${board.event_name}: projector`);
    clockState.update(board.current_round?.clock);
    drawPage();
    drawClock();
  });
  const flip = setInterval(() => { s.page += 1; drawPage(); }, PAGE_MS);
  const tick = setInterval(drawClock, 1000);
  return () => { stopPoll(); clearInterval(flip); clearInterval(tick); };
}
