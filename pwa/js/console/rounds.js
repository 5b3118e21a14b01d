/** /e/<id>/organize/rounds: preview and seat the next round; the round being played (clock,
 * call time, close, progress board, table map); the rounds before it, the latest reopenable. */

import {button, h, mount} from '../dom.js';
import {roundClock} from '../screens/clock.js';
import {clockLevel, clockText} from '../words.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {board, tableMap} from './progress.js';
import {swapCard} from './seats.js';
import {tableCalls} from './table-calls.js';
import {card, does, failure, inp, lab, load, msg} from './ui.js';

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'rounds', 'Rounds');
  if (!framed) return;
  const clock = roundClock();
  let timers = [];
  const stop = () => { timers.forEach(clearInterval); timers = []; };

  /** The closed rounds; the latest one reopens (for a late correction) while none is after it. */
  const past = (history) => {
    const done = history.filter((r) => r.status === 'closed');
    const last = history.at(-1);
    const out = msg();
    return done.length > 0 && card('Earlier rounds',
      h('ul', {class: 'plain-list'}, done.map((r) => h('li', {}, `${r.label}: closed · ${r.progress.hands} hands`,
        r !== last && h('span', {class: 'hint'}, ' · only the latest round can be reopened; fix its games under ',
          h('a', {href: `/e/${id}/organize/corrections`}, 'Corrections'))))),
      last?.status === 'closed' && [h('p', {class: 'hint'}, `Reopen ${last.label} to let runners change its games `
        + 'again; close it once they are done.'),
      does(`Reopen ${last.label}`, out, () => calls.roundDo(id, last.id, 'reopen'), draw,
        {sure: `Tap again: ${last.label} is played again`, pending: 'Reopening…'})], out);
  };

  /** Start the clock, or start it again, with the minutes typed (empty: the round's own). */
  const clockForm = (round, out, show, el = h('div', {class: 'clock-form'})) => {
    const minutes = inp('clock-minutes', {type: 'number', min: 1, max: 240, inputmode: 'numeric',
      value: round.clock?.minutes || '', placeholder: 'the round\'s own'});
    return mount(el, lab(minutes, 'Minutes from now'), minutes,
      does(round.clock ? 'Restart the clock' : 'Start the clock', out,
        () => calls.roundDo(id, round.id, 'clock', {minutes: minutes.value === '' ? null : Number(minutes.value)}),
        (r) => { show(r); clockForm(r, out, show, el); },
        {sure: () => `Tap again: ${minutes.value || round.clock?.minutes || 'the usual'} minutes from now`,
          pending: 'Starting the clock…'}));
  };

  const playing = (round, history) => {
    const out = msg();
    const clockEl = h('p', {class: 'big-clock', role: 'timer'});
    const boardEl = h('div', {});
    const summary = h('p', {class: 'counts', 'aria-live': 'polite'});
    const updated = h('p', {class: 'hint'});
    const waiting = tableCalls(id);
    const tick = () => {
      const left = clock.secondsLeft();
      clockEl.className = `big-clock clock-${clockLevel(left)}`;
      clockEl.textContent = round.time_called ? 'Time called' : left === null ? 'No clock'
        : left ? `${clockText(left)} left` : 'Time is up: call time';
    };
    const show = (r) => {
      round = r;
      clock.update(r.clock);
      tick();
      mount(summary, `${r.progress.finished} of ${r.progress.tables} tables finished · ${r.progress.hands} hands entered`);
      mount(boardEl, board(id, r));
      mount(updated, `Updated ${new Date().toLocaleTimeString()}`);
      waiting.refresh();
    };
    const roundDo = (label, what, extra) => does(label, out, () => calls.roundDo(id, round.id, what),
      (r) => (r.status === 'closed' ? draw() : show(r)), extra);
    mount(framed.body,
      card(`${round.label}: being played`, clockEl, summary,
        h('div', {class: 'actions'},
          roundDo('Call time', 'time', {sure: 'Tap again: unfinished games end now', pending: 'Calling time…'}),
          roundDo('Close the round', 'close', {class: 'btn-primary', pending: 'Closing…'})),
        out,
        framed.event?.preset !== 'league' && clockForm(round, out, show)),
      waiting.el,
      card('Progress', updated, boardEl),
      card('Table map', tableMap(round.tables)),
      framed.event?.preset !== 'league' && swapCard(id, round, framed.event?.format?.parameters?.entry === 'team', draw),
      past(history));
    show(round);
    timers.push(setInterval(tick, 1000), setInterval(async () => {
      if (document.hidden) return;
      try { show(await calls.round(round.id)); } catch (error) { mount(updated, `Not updated: ${failure(error, true)}`); }
    }, 5000));
  };

  const preview = (history, all) => {
    let spot;
    const out = msg();
    const area = h('div', {});
    // A table may still call once its round has closed (a correction in its window).
    const waiting = tableCalls(id);
    waiting.refresh();
    timers.push(setInterval(() => document.hidden || waiting.refresh(), 5000));
    mount(framed.body, waiting.el, area, past(history));
    load(area, () => Promise.all([calls.next(id), calls.event(id)]), ([plan, event]) => mount(area,
      event.status === 'finished'
        ? card('The event is finished', h('p', {}, 'Its standings are final. To seat another round, '
          + 'open it again on the Event tab.'), h('div', {class: 'actions'},
          h('a', {class: 'btn', href: `/e/${id}/organize`}, 'Event'),
          h('a', {class: 'btn btn-primary', href: `/e/${id}/organize/standings`}, 'Standings')))
      : plan.code === 'event-complete'
      ? card('Every round is played', h('p', {class: 'complete'}, plan.reason),
        h('div', {class: 'actions'}, h('a', {class: 'btn', href: `/e/${id}/organize/standings`}, 'Standings'),
          h('a', {class: 'btn btn-primary', href: `/e/${id}/organize/print`}, 'Print & export')))
      : plan.reason ? card('The next round', h('p', {class: 'error', role: 'alert'}, plan.reason), h('div', {class: 'actions'},
        button('Try again', draw), h('a', {class: 'btn btn-primary', href: `/e/${id}/organize/players`}, 'Players')))
      : card(`${plan.label}: preview`,
        h('p', {}, `Nothing is stored until you seat it.${plan.minutes ? ` ${plan.minutes} minutes.` : ''}`),
        plan.notes.map((n) => h('p', {class: 'note'}, n)), spot = h('div', {}, tableMap(plan.tables)),
        plan.number < 2 && void import('../balance/balance.js').then((m) => m.offer(id, spot)),
        does(`Seat ${plan.label}`, out, () => calls.seat(id, plan.number, spot.balanced), draw, {class: 'btn-primary', pending: 'Seating…'}), out)));
  };

  async function draw() {
    stop();
    await load(framed.body, () => calls.rounds(id), (all) => {
      const history = all.filter((r) => r.status !== 'scheduled');
      const current = history.find((r) => r.status === 'playing');
      if (current) playing(current, history);
      else preview(history, all);
    });
  }
  await draw();
  return stop;
}
