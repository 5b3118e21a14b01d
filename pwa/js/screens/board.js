/**
 * The public leaderboard on a phone: live (polled with If-None-Match), searchable, with a
 * followed player pinned on top, per-round scores and links to each player's scoresheet. For a
 * format with a bump cup (WEC), the cup and the awards (Low Score, High Game) below the
 * standings, read again whenever the leaderboard changes. Each name leads to the player's club
 * profile when they have a public one, else to their scoresheet. Where the event has each
 * hand agreed by both pairs, a row whose table has hands still waiting for that (or a mismatch
 * to settle) says so under the name, since its total leaves them out. Once the organizer finishes
 * the event the board says its results are final, shows no clock, and tells the night's story
 * (story/recap.js, loaded then).
 */

import * as api from '../api.js';
import {button, h, hidden, mount, setTitle} from '../dom.js';
import {agoWords, clockLevel, clockText, matchesSearch, movement, plural, roundKeys} from '../words.js';
import {roundClock} from './clock.js';
import {nextSeat} from './next-seat.js';

/** A row's place: "=3" when shared, "–" for an entrant struck from the places. */
const placeWords = (row) => (row.place === null ? '–' : row.shared ? `=${row.place}` : String(row.place));

export async function render(main, {eventId}) {
  const id = Number(eventId);
  setTitle('Leaderboard');
  const s = {board: null, query: '', follow: await api.followed(id), checkedAt: null,
    changedAt: null, offline: false, teams: null, awards: null};

  const search = h('input', {id: 'board-search', type: 'search', class: 'input',
    autocomplete: 'off', placeholder: 'Name', oninput: () => { s.query = search.value; drawRows(); }});
  const updated = h('p', {class: 'updated', 'aria-live': 'off'});
  const clock = h('p', {class: 'clock', hidden: true});
  const pinned = h('div', {class: 'pinned'});
  const seatLine = h('p', {class: 'next-seat', role: 'status', hidden: true});
  const seat = nextSeat(id, seatLine);
  const list = h('ol', {class: 'board', 'aria-label': 'Standings'});
  const title = h('h1', {class: 'page-title'}, 'Leaderboard');
  const awards = h('section', {class: 'awards', 'aria-label': 'Bump cup and awards', hidden: true});
  const story = h('div', {});
  const calendar = h('section', {class: 'board-calendar'}); // "Add to calendar", once the feed is known
  mount(main, title, seatLine, h('div', {class: 'board-tools'}, clock,
    h('label', {for: 'board-search'}, 'Search by name'), search, updated), pinned, list, story, awards,
  h('p', {class: 'actions'}, h('a', {class: 'btn', href: `/e/${id}/projector`}, 'Projector mode')), calendar);
  import('../feeds/calendar.js').then((m) => m.eventCalendar(calendar, id)).catch(() => {});

  // --- the bump cup and the awards (formats that keep bumps) ---------------------------------
  let awardsLoading = false;
  let awardsAgain = false;
  async function loadAwards() {
    if (s.board?.bump_cup_total === undefined) return;
    if (awardsLoading) { awardsAgain = true; return; }
    awardsLoading = true;
    try {
      const {data} = await api.getAwards(id);
      s.awards = data;
      drawAwards();
    } catch { /* the standings stand on their own; the cup shows at the next change */ }
    awardsLoading = false;
    if (awardsAgain) { awardsAgain = false; loadAwards(); }
  }

  const dollars = (n) => `$${n}`;
  const who = (people) => people.map((p) => p.name || '?').join(', ');
  // A long tie in one line: the first few names and how many more.
  const FEW = 3;
  const tied = (people) => (people.length <= FEW + 1 ? who(people)
    : `${people.length} tied: ${who(people.slice(0, FEW))} and ${people.length - FEW} more`);

  function drawAwards() {
    const a = s.awards;
    if (!a) return;
    const cup = a.bump_cup;
    const low = a.low_score;
    const high = a.high_game;
    awards.hidden = false;
    mount(awards,
      h('h2', {}, 'Bump cup'),
      h('p', {class: 'cup-total'}, cup.total ? [h('strong', {}, dollars(cup.total)), ' in the cup']
        : 'No bumps yet.'),
      cup.players.length > 0 && h('ol', {class: 'cup-list', 'aria-label': 'Bumps by player'},
        cup.players.map((p) => h('li', {}, h('span', {class: 'cup-name'}, p.name || '?'),
          h('span', {class: 'cup-dollars'}, dollars(p.dollars))))),
      cup.tables.length > 0 && h('details', {class: 'cup-tables'},
        h('summary', {class: 'btn'}, 'Bumps by table'),
        h('ul', {class: 'cup-list'}, cup.tables.map((t) => h('li', {},
          h('span', {class: 'cup-name'}, `Round ${t.round} · table ${t.table}`),
          h('span', {class: 'cup-dollars'}, dollars(t.dollars)))))),
      h('h2', {}, 'Awards'),
      h('dl', {class: 'award-list'},
        h('dt', {}, 'Low Score'),
        h('dd', {}, low.earned === false ? 'Not yet: no game is over.'
          : low.total === null || !low.entrants.length ? '–'
            : `${tied(low.entrants)} · ${low.total} points`),
        h('dt', {}, 'High Game'),
        h('dd', {}, high.points === null || !high.games.length ? 'Not yet: no game is over.'
          : `${high.points} points · ${high.games.map((g) => `${g.name || '?'} (R${g.round})`)
            .join(', ')}`)));
  }

  // Team events: a row is a team; link each member's scoresheet by their player id.
  async function memberIds() {
    if (s.teams || s.board?.entry !== 'team') return;
    try {
      const {data} = await api.getTeams(id);
      s.teams = new Map(data.map((t) => [t.id, t.members]));
      drawRows();
    } catch { /* no links for members then */ }
  }

  function sheetLinks(row) {
    if (s.board.entry !== 'team') {
      return [h('a', {href: `/e/${id}/players/${row.entrant_id}`}, 'Scoresheet',
        hidden(` of ${row.name}`))];
    }
    const members = s.teams?.get(row.entrant_id) || [];
    return members.map((m) => h('a', {href: `/e/${id}/players/${m.id}`}, `${m.name}'s scoresheet`));
  }

  /** A player's name leads to their public club profile, else to their scoresheet; a team's
   * name leads nowhere (its members' scoresheets are linked below it). */
  function nameEl(row) {
    if (s.board.entry === 'team') return h('span', {class: 'name'}, row.name);
    return h('a', {class: 'name', href: row.profile || `/e/${id}/players/${row.entrant_id}`,
      'data-to': row.profile ? 'profile' : 'scoresheet'}, row.name);
  }

  function rowEl(row, keys, isPinned = false) {
    const move = movement(row.movement);
    const followed = s.follow === row.entrant_id;
    return h('li', {class: ['board-row', followed && 'followed', row.prize && 'prize',
      row.withdrawn && 'withdrawn', row.removed && 'removed'], 'data-entrant': row.entrant_id},
    h('span', {class: 'place'}, placeWords(row)),
    h('span', {class: 'who'},
      nameEl(row),
      row.removed ? h('span', {class: 'struck-note'}, 'removed from the league: no place') : null,
      row.division && row.prize ? h('span', {class: 'prize-mark'}, `${row.division}: a prize place`) : null,
      row.disqualified ? h('span', {class: 'struck-note'}, `disqualified: ${row.disqualified}`) : null,
      row.payout ? h('span', {class: 'payout'}, `wins ${s.board.money.currency}${row.payout}`) : null,
      row.members?.length ? h('span', {class: 'members'}, row.members.join(' & ')) : null,
      // Under confirm each hand or double entry: what the table entered that the other side
      // has not agreed to yet, which the total leaves out (the server's words).
      row.waiting ? h('span', {class: 'waiting-note'}, `${row.waiting.words} (not in the total yet)`) : null,
      h('span', {class: 'rounds'}, keys.map((k) => h('span', {class: 'round-score'},
        `R${k} ${row.rounds[k] ?? '–'}`))),
      h('span', {class: 'links'}, sheetLinks(row))),
    move.mark ? h('span', {class: ['move', row.movement > 0 ? 'up' : 'down']},
      h('span', {'aria-hidden': 'true'}, move.mark), hidden(move.words)) : h('span', {class: 'move'}),
    h('span', {class: 'total'}, String(row.total), hidden(' points')),
    button(followed ? '★' : '☆', async () => {
      s.follow = followed ? null : row.entrant_id;
      await api.follow(id, s.follow);
      drawRows();
    }, {class: 'follow', 'aria-pressed': String(followed),
      'aria-label': `${followed ? 'Stop following' : 'Follow'} ${row.name}`,
      'data-pinned': isPinned ? 'true' : null}));
  }

  /** What the night holds for the followed entrant: their prize money, the organizer's awards
   * they won, a door prize drawn for them (the server's words and figures). */
  function theirs(row) {
    const b = s.board;
    const lines = [];
    if (row.payout) lines.push(`Prize money: ${b.money.currency}${row.payout}`);
    (b.named_awards || []).filter((a) => a.winners.some((w) => w.id === row.entrant_id))
      .forEach((a) => lines.push(`Award: ${a.name}${a.note ? ` (${a.note})` : ''}`));
    // Every draw they won, not only the latest (the board lists each winner's draws).
    const won = (b.door_prizes || []).find((w) => w.entrant_id === row.entrant_id)?.draws
      || (b.draw?.winners.some((w) => w.id === row.entrant_id) ? [b.draw.number] : []);
    if (won.length) lines.push(`Door prize${won.length > 1 ? 's' : ''}: drawn in draw${won.length > 1 ? 's' : ''} ${won.join(', ')}`);
    (b.categories || []).forEach((c) => {
      const mineThere = c.rows.find((r) => r.entrant_id === row.entrant_id);
      if (mineThere?.place) lines.push(`${c.name}: ${mineThere.shared ? '=' : ''}${mineThere.place}${mineThere.prize ? ' (a prize place)' : ''}`);
    });
    return lines.length ? h('ul', {class: 'plain-list their-night'}, lines.map((l) => h('li', {}, l))) : null;
  }

  // --- the night's story, once the night is finished -----------------------------------------
  let told = null;
  async function tell() {
    const finished = Boolean(s.board?.finished);
    if (finished && told === s.board.revision) return;
    told = finished ? s.board.revision : null;
    if (!finished) { mount(story, null); return; }
    const {recapCard} = await import('../story/recap.js');
    mount(story, await recapCard(id));
  }

  function drawRows() {
    if (!s.board) return;
    const keys = roundKeys(s.board.rows);
    const rows = s.board.rows.filter((row) => matchesSearch(row, s.query));
    const mine = s.board.rows.find((row) => row.entrant_id === s.follow);
    seat(s.board, s.follow);
    mount(pinned, mine ? [h('h2', {class: 'pinned-title'}, 'Following'),
      h('ol', {class: 'board'}, rowEl(mine, keys, true)), theirs(mine)] : null);
    // A league in divisions: each division's rows under its name, with its own places and
    // prize (RULES.md §6: no overall place).
    const head = (row, i) => row.division && row.division !== rows[i - 1]?.division
      && h('li', {class: 'division-head'}, h('h2', {}, row.division));
    mount(list, rows.length ? rows.flatMap((row, i) => [head(row, i), rowEl(row, keys)])
      : h('li', {class: 'empty'}, s.query ? 'Nobody by that name.' : 'No scores yet.'));
  }

  function drawMeta() {
    if (!s.board) return;
    title.textContent = s.board.event_name;
    setTitle(`${s.board.event_name}: leaderboard`);
    const cr = s.board.current_round;
    // A finished event has final results and no clock; a closed round's clock has stopped.
    const left = s.board.finished || cr?.status !== 'playing' ? null : clockState.secondsLeft();
    clock.hidden = !cr && !s.board.finished;
    if (s.board.finished) {
      clock.className = 'clock clock-final';
      clock.textContent = `Final results${s.board.rounds_played ? ` · ${plural(s.board.rounds_played, 'round')} played` : ''}`;
    } else if (cr) {
      clock.className = `clock clock-${clockLevel(left)}`;
      clock.textContent = `${cr.label}${left === null ? '' : ` · ${clockText(left)} left`}`;
    }
    updated.textContent = s.checkedAt
      ? `${s.offline ? 'No network · last ' : 'Live · '}updated ${agoWords(Date.now() - s.checkedAt)}`
      : '';
  }

  const clockState = roundClock();
  const stopPoll = api.pollLeaderboard(id, (board, info) => {
    s.offline = !info.fresh;
    if (info.checkedAt) s.checkedAt = info.checkedAt;
    if (board) {
      s.board = board;
      s.changedAt = info.checkedAt || Date.now();
      clockState.update(board.current_round?.clock);
      drawRows();
      memberIds();
      loadAwards();
      tell();
    }
    drawMeta();
  });
  const tick = setInterval(drawMeta, 1000);
  return () => { stopPoll(); clearInterval(tick); };
}
