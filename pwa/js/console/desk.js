/**
 * /e/<id>/organize/desk: the scorekeepers' desk (the WEC's: one laptop, many tables). The games
 * of the round being played that are still to enter, in a queue; the first is open, and saving
 * it opens the next at once. A WEC game is entered from its game sheet (final points and bumps
 * per player: PUT /api/games/<id>/sheet); a game entered hand by hand, or a format without a
 * game sheet, from the paper sheet's hands in the grid (game/sheet-grid.js). Tab, digits and
 * Enter do everything; a refusal is shown where the typing is, and nothing moves on.
 */

import {button, h, mount} from '../dom.js';
import {sheetGrid} from '../game/sheet-grid.js';
import {seats, sideName} from '../words.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {card, failure, load, msg, problemLines, say, sides} from './ui.js';

const whole = (v) => (/^\d{1,4}$/.test(v.trim()) ? Number(v) : v.trim() === '' ? null : NaN);

/** The WEC game sheet: both sides' points, then each player's bumps (blank is none). */
function sheetForm(game, saved) {
  const out = msg();
  out.setAttribute('role', 'alert');
  const field = (id, label) => [h('label', {for: id}, label),
    h('input', {id, class: 'input desk-num', inputmode: 'numeric', autocomplete: 'off'})];
  const players = seats(game);
  const form = h('form', {class: 'form desk-sheet', onsubmit: async (e) => {
    e.preventDefault();
    const value = (id) => whole(form.querySelector(`#${id}`).value);
    const points = {A: value('desk-a'), B: value('desk-b')};
    const wrong = [['A', points.A], ['B', points.B]].find(([, v]) => v === null || Number.isNaN(v));
    if (wrong) { say(out, `Type ${sideName(game, wrong[0])}'s points: a whole number.`, 'error'); form.querySelector(`#desk-${wrong[0].toLowerCase()}`).focus(); return; }
    const bumps = {};
    for (const p of players) {
      const n = value(`desk-bump-${p.seat}`);
      if (Number.isNaN(n)) { say(out, `${p.name}'s bumps: a whole number of dollars, or blank for none.`, 'error'); return; }
      if (n) bumps[String(p.seat)] = n;
    }
    save.disabled = true;
    try {
      saved(await calls.putSheet(game, {points, bumps}));
    } catch (error) {
      say(out, failure(error), 'error', problemLines(error));
    } finally {
      save.disabled = false;
    }
  }},
  field('desk-a', `${sideName(game, 'A')}: points`), field('desk-b', `${sideName(game, 'B')}: points`),
  h('fieldset', {}, h('legend', {}, 'Bumps (dollars; blank is none)'),
    players.map((p) => field(`desk-bump-${p.seat}`, `${p.name} (seat ${p.seat})`))),
  out);
  const save = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Save and open the next');
  form.append(save);
  return {el: form, focus: () => form.querySelector('#desk-a').focus()};
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'desk', 'Scorekeepers\' desk');
  if (!framed) return;
  const format = framed.event?.format;
  const s = {round: null, queue: [], entered: 0, open: null};
  const queueEl = h('ol', {class: 'desk-queue', 'aria-label': 'Games still to enter'});
  const openEl = h('section', {class: 'desk-open', 'aria-live': 'polite'});
  const count = h('p', {class: 'counts', role: 'status'});

  function drawQueue() {
    mount(count, `${s.entered} entered here · ${s.queue.length} to go`);
    mount(queueEl, s.queue.map((item) => h('li', {class: item === s.open && 'current'},
      button(`Table ${item.table}: ${item.names}`, () => open(item),
        {class: 'btn-small btn-link', 'aria-current': item === s.open ? 'true' : null}))));
  }

  // The next game is read while this one is typed, so it opens the moment this one is saved.
  const reads = new Map();
  const read = (gid) => {
    if (!reads.has(gid)) reads.set(gid, calls.game(gid).catch((e) => { reads.delete(gid); throw e; }));
    return reads.get(gid);
  };

  /** Open a game of the queue (as read just before: a runner may have entered it since). */
  async function open(item) {
    s.open = item ?? null;
    drawQueue();
    if (!item) {
      mount(openEl, h('h2', {}, 'Every game is entered'),
        h('p', {}, `Nothing is left to enter in ${s.round?.label || 'this round'}.`),
        h('a', {class: 'btn', href: `/e/${id}/organize/rounds`}, 'Rounds'));
      return;
    }
    mount(openEl, h('p', {class: 'loading'}, 'Loading…'));
    let game;
    try {
      game = await read(item.id);
      reads.delete(item.id);
    } catch (error) {
      mount(openEl, h('p', {class: 'error', role: 'alert'}, failure(error, true)), button('Try again', () => open(item)));
      return;
    }
    if (game.over) { done(item); return; }
    const saved = () => { s.entered += 1; done(item); };
    const useSheet = format?.parameters?.game_sheet && !game.hands.length;
    const entry = useSheet ? sheetForm(game, saved) : sheetGrid(game, format, saved);
    mount(openEl, h('h2', {}, `Table ${item.table} · ${game.round.label}`),
      h('p', {class: 'hint'}, `${sideName(game, 'A')} v ${sideName(game, 'B')}`), entry.el);
    entry.focus();
    const next = s.queue[s.queue.indexOf(item) + 1];
    if (next) read(next.id).catch(() => {});
  }

  function done(item) {
    s.queue = s.queue.filter((x) => x !== item);
    open(s.queue[0]);
  }

  await load(framed.body, () => calls.rounds(id), (rounds) => {
    s.round = rounds.find((r) => r.status === 'playing') || null;
    if (!s.round) {
      mount(framed.body, card('Nothing to enter', h('p', {}, 'No round is being played. Start one under Rounds; '
        + 'its games then wait here to be entered.'), h('a', {class: 'btn', href: `/e/${id}/organize/rounds`}, 'Rounds')));
      return;
    }
    s.queue = s.round.tables.flatMap((t) => t.games.filter((g) => !g.over && !g.signed_off)
      .map((g) => ({id: g.id, table: t.table, names: `${sides(t).A} v ${sides(t).B}`})));
    mount(framed.body, card(`${s.round.label}: games to enter`, count,
      h('div', {class: 'desk'}, queueEl, openEl)));
    open(s.queue[0]);
  });
}
