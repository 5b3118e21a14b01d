/**
 * Projector mode (16:9, read from the back of the hall): the standings in as many columns as
 * the screen holds, at a size readable from the back, in pages that cycle every 10 s; the
 * round clock (amber, then red, near the end), the event name, and a QR code that opens the
 * leaderboard on a phone.
 *
 * Between rounds (the next round is seated and no hand of it is entered yet: the round read's
 * `progress.begun`, which counts a hand waiting for the other pair to agree it as entered) the
 * same space shows where everyone sits next: every player by name, alphabetically, with their table and
 * seat, in columns and pages. The seats come from the round views the API serves; nothing is
 * worked out here. Every name is shown whole: the columns are as wide as the longest name and
 * its seat need (the type a little smaller when that fits another column), and each page says
 * the names it holds ("Ann Abbott – Dave Dubois"), so a player knows which page to wait for.
 *
 * Where both pairs agree each hand, a line under the heading names the tables whose hands
 * still wait for that (or whose scores differ): the totals leave those hands out. It shows
 * over the seating pages too, whenever the leaderboard says something waits.
 *
 * Once the organizer finishes the event: the final results, and no clock.
 */

import * as api from '../api.js';
import {h, hidden, mount, setTitle} from '../dom.js';
import {clockLevel, clockText, movement, pages} from '../words.js';
import {roundClock} from './clock.js';
import {doorQr} from './projector-door.js';
import {drawOverlay} from './projector-draw.js';

const PAGE_MS = 10000;
// A row is 1.45 lines of the screen's type; a column is at least this many ems wide (place,
// a name, the movement and the total; a seat line is about as wide).
const ROW_EM = 1.45;
const COLUMN_EM = 16;
// The seating pages may set their type this small (px) to fit one more column of whole names;
// still read from the back of the hall.
const SEATING_MIN_PX = 28;
// Room for a seat row's gap (.4em) and a little slack, in ems, beside the measured text.
const SEAT_ROW_SLACK_EM = 0.5;

let measurer = null;
/** The width in px of `text` in a font (canvas measurement: no layout of 400 rows). */
function textWidth(text, font) {
  measurer ||= document.createElement('canvas').getContext('2d');
  measurer.font = font;
  return measurer.measureText(text).width;
}

/** The widest seat row's width in ems at the list's font: the name (bold), then
 * "table 12" (heavier) and ", seat 3". */
function seatRowEm(places, list) {
  const style = getComputedStyle(list);
  const family = style.fontFamily;
  const size = 100;  // measured large, as a fraction of an em
  let widest = 0;
  for (const place of places) {
    const width = textWidth(place.name, `700 ${size}px ${family}`)
      + textWidth(`table ${place.table}`, `800 ${size}px ${family}`)
      + textWidth(`, seat ${place.seat}`, `400 ${size}px ${family}`);
    widest = Math.max(widest, width);
  }
  return widest / size + SEAT_ROW_SLACK_EM;
}

/** Everyone seated in a round, by name: [{name, table, seat}], ghosts left out. */
export function seatingList(round) {
  const out = [];
  for (const table of round?.tables || []) {
    for (const seat of table.seats || []) {
      if (seat.player_id !== null && seat.player_id !== undefined) {
        out.push({name: seat.name, table: table.table, seat: seat.seat});
      }
    }
  }
  return out.sort((a, b) => a.name.localeCompare(b.name, undefined, {sensitivity: 'base'})
    || a.table - b.table);
}

// Tables named on the projector's waiting line; the rest are counted.
const WAITING_TABLES = 3;

/** The tables whose hands wait to be agreed (confirm each hand, double entry), in one line:
 * "Not in the totals yet · table 3: 2 hands waiting to be agreed · table 7: scores differ:
 * waiting to be settled · 4 more tables". Empty when nothing waits (always under sign-off). */
export function waitingLine(tables) {
  if (!tables?.length) return '';
  const named = tables.slice(0, WAITING_TABLES).map((t) =>
    `table ${t.table}${t.game > 1 ? ` game ${t.game}` : ''}: ${t.words}`);
  const more = tables.length - named.length;
  return ['Not in the totals yet', ...named,
    ...(more > 0 ? [`${more} more table${more === 1 ? '' : 's'}`] : [])].join(' · ');
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  document.body.className = 'projector-mode';
  setTitle('Projector');
  // `seating`: the round to show seats for, while it waits to start (else null).
  // `narrower`: at most this many seating columns, for the round `narrowerFor` (set when a
  // page showed a name cut: the text measured narrower than the screen draws it).
  const s = {board: null, page: 0, seating: null, started: new Set(), checked: null,
    narrower: null, narrowerFor: null};
  const name = h('h1', {class: 'proj-name'}, 'Leaderboard');
  const round = h('p', {class: 'proj-round'});
  const title = h('h2', {class: 'proj-title'});
  const range = h('p', {class: 'proj-range', hidden: true});
  const waiting = h('p', {class: 'proj-waiting', hidden: true});
  const clock = h('p', {class: 'proj-clock', 'aria-label': 'Round clock'});
  const pageNo = h('p', {class: 'proj-page'});
  const list = h('ol', {class: 'proj-rows', 'aria-label': 'Standings'});
  const qr = h('figure', {class: 'proj-qr'},
    h('img', {src: api.qrSvgUrl(id, 'board'), alt: 'QR code: open the leaderboard on your phone',
      width: 220, height: 220}),
    h('figcaption', {}, 'Scan for the live leaderboard'));
  const door = doorQr(id);
  const doorPrize = drawOverlay();
  mount(main, h('div', {class: 'proj'},
    h('header', {class: 'proj-head'}, h('div', {class: 'proj-names'}, name, round),
      h('div', {class: 'proj-titles'}, title, range, waiting), clock),
    list, h('footer', {class: 'proj-foot'}, pageNo, door.el, qr)), doorPrize.el);

  const clockState = roundClock();

  /** Rows a page: as many rows as fit the list's height, times the columns its width holds
   * (set on the list as --rows and --cols, which the CSS grid lays out). Seating rows
   * (`places`) take columns as wide as their longest name needs, in type a little smaller
   * when that fits one more column. */
  function perPage(places = null) {
    list.style.fontSize = '';
    let font = parseFloat(getComputedStyle(list).fontSize) || 30;
    const gap = parseFloat(getComputedStyle(list).columnGap) || 0;
    // At most `narrower` columns once a page showed a name cut (see drawPage).
    const cap = places && s.narrowerFor === s.seating?.id && s.narrower ? s.narrower : Infinity;
    const fit = (px, em) => Math.min(cap,
      Math.max(1, Math.floor((list.clientWidth + gap) / (px * em + gap))));
    let em = COLUMN_EM;
    if (places) {
      // As wide as the standings' columns at least (the same pages before and after the
      // round starts), wider when a name needs it.
      em = Math.max(COLUMN_EM, seatRowEm(places, list));
      const small = Math.min(font, SEATING_MIN_PX);
      if (fit(small, em) > fit(font, em)) {
        font = small;
        list.style.fontSize = `${small}px`;
      }
    }
    const rows = Math.max(1, Math.floor(list.clientHeight / (font * ROW_EM)));
    const cols = fit(font, em);
    list.style.setProperty('--rows', String(rows));
    list.style.setProperty('--cols', String(cols));
    return rows * cols;
  }

  function standingRow(row) {
    const move = movement(row.movement);
    return h('li', {class: ['proj-row', row.prize && 'prize', row.removed && 'removed']},
      h('span', {class: 'place'}, row.place === null ? '–' : row.shared ? `=${row.place}` : String(row.place)),
      h('span', {class: 'name'}, row.name,
        row.members?.length ? h('span', {class: 'members'}, ` ${row.members.join(' & ')}`) : null,
        // A league in divisions: the place is the division's (RULES.md §6), so say which.
        row.division ? h('span', {class: 'members proj-division'}, ` · ${row.division}`) : null),
      h('span', {class: ['move', row.movement > 0 ? 'up' : 'down']},
        h('span', {'aria-hidden': 'true'}, move.mark), hidden(move.words)),
      h('span', {class: 'total'}, String(row.total)));
  }

  function seatRow(place) {
    return h('li', {class: 'proj-row seat-row'},
      h('span', {class: 'name'}, place.name),
      h('span', {class: 'where'}, hidden(': '), h('span', {class: 'where-table'}, `table ${place.table}`),
        `, seat ${place.seat}`));
  }

  function drawPage() {
    if (!s.board) return;
    const seating = s.board.finished ? null : s.seating;
    // Before the rows: the line takes room from the list, as the heading does.
    const waits = waitingLine(s.board.waiting);
    waiting.hidden = !waits;
    waiting.textContent = waits;
    // The heading first: the list's room (hence the rows a page) is what the heading leaves.
    title.textContent = seating ? `${seating.label}: where everyone sits`
      : s.board.finished ? 'Final results' : 'Standings';
    range.hidden = !seating;
    if (seating) range.textContent = '\u00a0';  // its line counted before the rows are
    list.classList.toggle('proj-seating', Boolean(seating));
    list.setAttribute('aria-label', seating ? `Where everyone sits: ${seating.label}`
      : title.textContent);
    const items = seating ? seatingList(seating) : s.board.rows;
    const all = pages(items, perPage(seating ? items : null));
    if (s.page >= all.length) s.page = 0;
    const shown = all[s.page];
    mount(list, shown.map(seating ? seatRow : standingRow));
    if (seating) {
      range.textContent = shown.length ? `${shown[0].name} – ${shown.at(-1).name}` : '';
      // Whole names, whatever the measurement said: a name cut here means one column fewer.
      const cols = Number(list.style.getPropertyValue('--cols'));
      const cut = [...list.querySelectorAll('.name')].some((n) => n.scrollWidth > n.clientWidth);
      if (cut && cols > 1) {
        s.narrower = cols - 1;
        s.narrowerFor = seating.id;
        drawPage();
        return;
      }
    }
    pageNo.textContent = all.length > 1 ? `Page ${s.page + 1} of ${all.length}` : '';
  }

  function drawClock() {
    const cr = s.board?.current_round;
    const over = s.board?.finished || cr?.status !== 'playing';
    const left = over ? null : clockState.secondsLeft();
    round.textContent = s.board?.finished ? 'Results are final' : cr ? cr.label : '';
    clock.className = `proj-clock clock-${clockLevel(left)}`;
    clock.textContent = left === null ? '' : clockText(left);
  }

  /**
   * Is a round seated and waiting to start? The latest seated round while the API says play
   * has not begun at its tables (no hand entered, counted or waiting to be agreed), or, once
   * it is closed, the next round when it is already scheduled (a WEC
   * event's games are seated at check-in). Asked only when the board changed (a hand came
   * in, a round was seated or closed), never again for a round seen started, and once for a
   * closed round.
   */
  async function findSeating() {
    const cr = s.board?.current_round;
    if (!cr || s.board.finished) return null;
    try {
      if (cr.status === 'playing' && !s.started.has(cr.id)) {
        const {data} = await api.getRound(cr.id);
        if (!data.progress.begun) return data;
        s.started.add(cr.id);
      } else if (cr.status === 'closed') {
        if (s.checked === cr.id) return s.seating;
        s.checked = cr.id;
        const {data} = await api.getRounds(id);
        return data.find((r) => r.status === 'scheduled' && r.number > cr.number) || null;
      }
    } catch {
      return s.seating;  // no answer: keep showing what was shown
    }
    return null;
  }

  const stopPoll = api.pollLeaderboard(id, async (board) => {
    if (!board) return;
    s.board = board;
    doorPrize.update(board);
    name.textContent = board.event_name;
    setTitle(`${board.event_name}: projector`);
    clockState.update(board.current_round?.clock);
    const seating = await findSeating();
    if ((seating?.id ?? null) !== (s.seating?.id ?? null)) s.page = 0;
    s.seating = seating;
    drawClock();
    drawPage();
  });
  const flip = setInterval(() => { s.page += 1; drawPage(); }, PAGE_MS);
  const tick = setInterval(drawClock, 1000);
  const resize = () => drawPage();
  window.addEventListener('resize', resize);
  return () => {
    stopPoll(); clearInterval(flip); clearInterval(tick); door.stop(); doorPrize.stop();
    window.removeEventListener('resize', resize);
  };
}
