/**
 * /e/<id>/organize/rounds: preview the next round's seating and confirm it (the round's number
 * goes with it, so a double tap seats one round); then the table map, the progress board
 * (hands per table, finished, signed off; quiet tables stand out), the round clock with time
 * calling, and closing the round. Every number on it comes from the server.
 */

import {button, h, mount} from '../dom.js';
import {roundClock} from '../screens/clock.js';
import {clockLevel, clockText} from '../words.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {act, confirmButton, failure, load, msg, sides} from './ui.js';

const POLL_MS = 5000;
const QUIET_SECONDS = 300; // a table with no entry for 5 minutes is worth a walk over

/** The table map: each table drawn with its four seats around it (1 south, then clockwise). */
function tableMap(tables) {
  return h('ul', {class: 'table-map'}, tables.map((t) => h('li', {class: 'map-table'},
    h('span', {class: 'map-no'}, `Table ${t.table}`),
    t.seats.map((s) => h('span', {class: ['map-seat', `seat-${s.seat}`, !s.player_id && 'ghost']},
      h('span', {class: 'sr-only'}, `seat ${s.seat}, side ${s.seat % 2 ? 'A' : 'B'}: `), s.name)))));
}

function gameWords(g) {
  const count = g.hands_per_game ? `${g.hands_played} of ${g.hands_per_game} hands`
    : `${g.hands_played} hands${g.target_points ? `, to ${g.target_points}` : ''}`;
  if (g.signed_off) return [`${count} · signed off`, 'signed'];
  if (g.over && g.level && !g.winner) return [`${count} · level: needs a playoff hand or card draw`, 'level'];
  if (g.over) return [`${count} · finished${g.end === 'time' ? ' (time called)' : ''}`, 'done'];
  if (g.idle_seconds !== null && g.idle_seconds >= QUIET_SECONDS) {
    return [`${count} · no entry for ${Math.floor(g.idle_seconds / 60)} min`, 'quiet'];
  }
  return [count, 'playing'];
}

/** The progress board: one row a table, the quiet ones marked. */
function board(eventId, round) {
  return h('ul', {class: 'progress-board'}, round.tables.map((t) => {
    const names = sides(t);
    return h('li', {class: 'progress-table', 'data-table': t.table}, h('span', {class: 'table-no'}, `Table ${t.table}`),
      h('span', {class: 'table-sides'}, `${names.A} v ${names.B}`),
      t.games.map((g) => {
        const [words, kind] = gameWords(g);
        return h('span', {class: ['game-line', `is-${kind}`]},
          h('span', {class: 'game-score'}, `${g.points.A}–${g.points.B}`), ' ', words, ' ',
          h('a', {href: `/e/${eventId}/games/${g.id}`, class: 'inline-link'}, 'Open'),
          h('a', {href: `/e/${eventId}/organize/corrections?game=${g.id}`, class: 'inline-link'}, 'Fix'));
      }));
  }));
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'rounds', 'Rounds');
  if (!framed) return;
  const clock = roundClock();
  let timers = [];
  const stop = () => { timers.forEach(clearInterval); timers = []; };

  const playing = (round, history) => {
    stop();
    const out = msg();
    const clockEl = h('p', {class: 'clock big-clock', role: 'timer', 'aria-live': 'off'});
    const boardEl = h('div', {'aria-live': 'polite'});
    const summary = h('p', {class: 'counts'});
    const updated = h('p', {class: 'hint'});
    const minutes = h('input', {id: 'clock-minutes', class: 'input', type: 'number', min: 1,
      max: 240, inputmode: 'numeric', value: round.clock?.minutes || ''});
    const tick = () => {
      const left = clock.secondsLeft();
      clockEl.className = `clock big-clock clock-${clockLevel(left)}`;
      clockEl.textContent = round.time_called ? 'Time called'
        : left === null ? 'No clock' : left === 0 ? 'Time is up: call time' : `${clockText(left)} left`;
    };
    const show = (r) => {
      round = r;
      clock.update(r.clock);
      tick();
      mount(summary, `${r.progress.finished} of ${r.progress.tables} tables finished · `
        + `${r.progress.hands} hands entered${r.time_called ? ' · time called' : ''}`);
      mount(boardEl, board(id, r));
      mount(updated, `Updated ${new Date().toLocaleTimeString()}`);
    };
    const write = (work, pending) => async (btn) => {
      const r = await act(btn, out, work, pending);
      if (r) { show(r); if (r.status === 'closed') draw(); }
    };
    mount(framed.body,
      h('section', {class: 'card'},
        h('h2', {}, `${round.label}: being played`),
        clockEl, summary,
        h('div', {class: 'actions'},
          confirmButton('Call time', 'Tap again: unfinished games end now',
            write(() => calls.callTime(id, round.id), 'Calling time…')),
          button('Close the round', (e) => write(() => calls.closeRound(id, round.id), 'Closing…')(e.currentTarget),
            {class: 'btn-primary'})),
        out,
        h('details', {class: 'clock-set'}, h('summary', {class: 'btn btn-link'}, 'Restart the clock'),
          h('label', {for: 'clock-minutes'}, 'Minutes from now'), minutes,
          button('Start the clock', (e) => write(() => calls.startClock(id, round.id,
            minutes.value ? Number(minutes.value) : null), 'Starting…')(e.currentTarget)))),
      h('section', {class: 'card'}, h('h2', {}, 'Progress'), updated, boardEl),
      h('details', {class: 'card', open: true}, h('summary', {class: 'btn btn-link'}, 'Table map: who sits where'),
        tableMap(round.tables)),
      pastRounds(history));
    show(round);
    timers.push(setInterval(tick, 1000));
    timers.push(setInterval(async () => {
      if (document.hidden) return;
      try { show(await calls.round(round.id)); } catch (error) {
        mount(updated, `Not updated: ${failure(error, true)}`);
      }
    }, POLL_MS));
  };

  const preview = (history) => {
    stop();
    const out = msg();
    const area = h('div', {});
    mount(framed.body, area, pastRounds(history));
    load(area, () => calls.plan(id), (plan) => {
      const seatIt = button(`Seat ${plan.label}`, async (e) => {
        const r = await act(e.currentTarget, out, () => calls.seat(id, plan.number), 'Seating…');
        if (r) draw();
      }, {class: 'btn-primary'});
      mount(area, h('section', {class: 'card'},
        h('h2', {}, `${plan.label}: preview`),
        h('p', {}, 'Nothing is stored until you seat it. ', plan.minutes ? `${plan.minutes} minutes a round.` : ''),
        plan.notes.map((n) => h('p', {class: 'note'}, n)),
        tableMap(plan.tables),
        h('div', {class: 'actions'}, seatIt, button('Preview again', () => preview(history))), out));
    });
  };

  function pastRounds(history) {
    const done = history.filter((r) => r.status === 'closed');
    if (!done.length) return null;
    const last = done.at(-1);
    const out = msg();
    return h('section', {class: 'card'}, h('h2', {}, 'Earlier rounds'),
      h('ul', {class: 'plain-list'}, done.map((r) => h('li', {}, `${r.label}: closed · `
        + `${r.progress.hands} hands`))),
      history.at(-1) === last && confirmButton(`Reopen ${last.label}`, 'Tap again to reopen it',
        async (btn) => { if (await act(btn, out, () => calls.reopenRound(id, last.id), 'Reopening…')) draw(); }),
      out);
  }

  async function draw() {
    stop();
    await load(framed.body, () => calls.rounds(id), (all) => {
      const history = all.filter((r) => r.status !== 'scheduled');
      const current = history.find((r) => r.status === 'playing');
      if (current) playing(current, history);
      else preview(history);
    });
  }
  await draw();
  return stop;
}

