/**
 * /e/<id>/organize/desk: the scorekeepers' desk (the WEC's: one laptop, many tables). The games
 * of the round being played that are still to enter, in a queue. A WEC game is entered from its
 * game sheet (final points and bumps per player: PUT /api/games/<id>/sheet); a game entered hand
 * by hand, or a format without a game sheet, from the paper sheet's hands in a grid (POST
 * /api/games/<id>/paper-sheet). Both are in desk-entry.js.
 *
 * The keyboard belongs to the desk: every key typed in the open sheet (or with the focus lost,
 * on the page itself) goes into the desk's own queue of keys and is applied, in order, to the
 * sheet it was typed for. Enter sends that sheet and opens the next at once, so a scorekeeper
 * types ahead while the server answers; keys typed before the next sheet is read wait for it.
 * A sheet the server refuses (or a level game that needs its playoff, or a sheet short of
 * hands after time was called) comes back, with what was typed and the reason, once the sheets
 * after it are typed; it can also be picked in the list. Tab stays in the sheet; Esc leaves it.
 */

import {button, h, mount} from '../dom.js';
import * as calls from './calls.js';
import {handGrid, wecSheet} from './desk-entry.js';
import {frame} from './frame.js';
import {card, failure, load, problemLines, sides} from './ui.js';

for (const css of ['/js/game/sheet-grid.css', '/js/console/desk.css']) {
  if (!document.querySelector(`link[href="${css}"]`)) document.head.append(h('link', {rel: 'stylesheet', href: css}));
}

const TAKEN = new Set(['Tab', 'Enter', 'Backspace', 'Delete']);
/** Entered already: over, except a game that time ended before any hand was entered (its paper
 * sheet still has to be typed). */
const done = (g) => g.over && !(g.end === 'time' && !g.hands_played && !g.from_sheet && !g.forfeited_by);

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'desk', 'Scorekeepers\' desk');
  if (!framed) return;
  const format = framed.event?.format;
  const s = {round: null, queue: [], entered: 0, typing: null};
  const keys = [];
  const queueEl = h('ol', {class: 'desk-queue', 'aria-label': 'Games still to enter'});
  const openEl = h('section', {class: 'desk-open'});
  const note = h('p', {class: 'msg msg-info desk-note', role: 'status', hidden: true});
  const count = h('p', {class: 'counts', role: 'status'});

  function drawQueue() {
    mount(count, `${s.entered} entered here · ${s.queue.length} to go`);
    mount(queueEl, s.queue.map((item) => h('li', {class: [item === s.typing && 'current', `desk-${item.status}`]},
      button([`Table ${item.table}: ${item.names}`, item.status === 'saving' ? ' · saving…'
        : item.status === 'back' ? ' · to fix' : ''], () => { open(item); item.entry?.focus(); },
      {class: 'btn-small btn-link', 'aria-current': item === s.typing ? 'true' : null, 'data-table': item.table}))));
  }

  /** Read a game of the queue and make its sheet (a runner may have entered it since). */
  function prepare(item) {
    item.ready = calls.game(item.id).then((game) => {
      item.game = game;
      if (done(game)) { drop(item); return; }
      item.grid = !(format?.parameters?.game_sheet && !game.hands.length);
      item.sheetId = `desk-${game.id}-${Date.now().toString(36)}`;
      item.entry = item.grid ? handGrid(game, format) : wecSheet(game);
      item.head = h('h2', {tabindex: -1}, `Table ${item.table} · ${game.round.label}`);
      if (s.typing === item) open(item);
    }, (error) => {
      item.failed = error;
      if (s.typing === item) open(item);
    });
  }

  /** Where the keys go now; its sheet is shown. None: every sheet left is being saved. */
  function open(item) {
    s.typing = item ?? null;
    drawQueue();
    if (!item) {
      const saving = s.queue.length > 0;
      mount(openEl, h('h2', {}, saving ? 'Saving…' : 'Every game is entered'),
        h('p', {}, saving ? 'The last sheets are being saved; one the server refuses comes back here.'
          : `Nothing is left to enter in ${s.round?.label || 'this round'}.`),
        !saving && h('a', {class: 'btn', href: `/e/${id}/organize/rounds`}, 'Rounds'));
      return;
    }
    if (item.failed) {
      mount(openEl, h('p', {class: 'error', role: 'alert'}, failure(item.failed, true)),
        button('Try again', () => { item.failed = null; prepare(item); open(item); }));
      return;
    }
    if (!item.entry) { mount(openEl, h('p', {class: 'loading'}, `Table ${item.table}: loading…`)); return; }
    if (note.dataset.table === String(item.table)) note.hidden = true; // said in the sheet itself
    mount(openEl, item.head, h('p', {class: 'hint'}, item.names), item.entry.el);
    const top = item.head.getBoundingClientRect().top;
    if (top < 0 || top > innerHeight / 3) item.head.scrollIntoView({block: 'start'});
    item.entry.focus();
    pump();
  }

  /** The next sheet to type after `from`: the next one not typed yet, then those come back. */
  function after(from) {
    const i = s.queue.indexOf(from);
    return [...s.queue.slice(i + 1), ...s.queue.slice(0, i + 1)].find((x) => x.status === 'new')
      || s.queue.find((x) => x.status === 'back') || null;
  }

  function drop(item) {
    s.queue = s.queue.filter((x) => x !== item);
    if (s.typing === item || !s.typing) open(after(null));
    else drawQueue();
  }

  /** A sheet comes back with what was typed and why. */
  function back(item, text, extra) {
    item.status = 'back';
    item.entry.say(text, extra);
    if (!s.typing) { open(item); return; }
    if (s.typing !== item) {
      note.hidden = false;
      note.dataset.table = item.table;
      note.textContent = `Table ${item.table} is not finished: ${text} It comes back after the sheets `
        + 'still to type, or pick it in the list.';
    }
    drawQueue();
  }

  async function send(item) {
    const e = item.entry;
    const body = e.body();
    if (body.error) { e.to(e.fields[body.at]); back(item, body.error); return; }
    const game = item.stored || item.game;
    const short = item.grid && game.round.time_called && e.rows() < (e.size ?? 0);
    if (short && !item.asked) {
      item.asked = true;
      back(item, `Time was called: this sheet has ${e.rows()} of the game's ${e.size} hands. `
        + `Enter stores the game as ended by time with these ${e.rows()}; or type the hands that are missing.`);
      return;
    }
    item.status = 'saving';
    e.say('');
    drawQueue();
    const tie = body.tie ? {tie: body.tie} : {};
    try {
      let answer;
      if (item.grid && item.stored) {
        const t = e.tie();
        if (!t) throw new Error(item.stored.attention);
        answer = await calls.settle(id, game.id, t.winner, t.method);
      } else if (item.grid) {
        answer = await calls.paperSheet(game, {id: item.sheetId, hands: body.hands, ...tie});
      } else {
        answer = await calls.putSheet(game, {points: body.points, bumps: body.bumps, ...tie}, item.stored?.version)
          .catch(async (error) => { // a lost answer, sent again: stored the first time?
            const now = error.status === 428 && !item.stored && await calls.game(game.id);
            if (now?.from_sheet && now.points.A === body.points.A && now.points.B === body.points.B) return now;
            throw error;
          });
      }
      if (answer.attention) { item.stored = answer; e.to(e.tieField); back(item, answer.attention); return; }
      s.entered += 1;
      drop(item);
    } catch (error) {
      e.refused(error.problem);
      const said = failure(error);
      back(item, said, item.grid ? null : problemLines(error, 0, said)); // the grid says each on its row
    }
  }

  /** Apply the keys waiting, in order, to the sheet they were typed for. */
  function pump() {
    while (keys.length && s.typing?.entry) {
      const item = s.typing;
      if (item.entry.key(keys.shift()) === 'send') {
        send(item);
        if (s.typing === item) open(after(item));
        if (s.typing !== item) continue;
      }
      item.entry.focus();
    }
  }

  function onKey(e) {
    if (!openEl.isConnected) { removeEventListener('keydown', onKey, true); return; }
    const k = e.key;
    const all = e.ctrlKey && k.toLowerCase() === 'a';
    if (e.altKey || e.metaKey || e.isComposing || (e.ctrlKey && !all) || !s.queue.length) return;
    const at = document.activeElement;
    const mine = !at || at === document.body || openEl.contains(at);
    if (!mine && !keys.length) return; // the list, the console's tabs: their own keys
    if (k === 'Escape' && !keys.length) {
      (queueEl.querySelector('[aria-current]') || queueEl.querySelector('button'))?.focus();
      return;
    }
    if (!all && k.length !== 1 && !TAKEN.has(k)) return;
    e.preventDefault();
    e.stopPropagation();
    keys.push({k: all ? 'SelectAll' : k, shift: e.shiftKey});
    pump();
  }

  await load(framed.body, () => calls.rounds(id), (rounds) => {
    s.round = rounds.find((r) => r.status === 'playing') || null;
    if (!s.round) {
      mount(framed.body, card('Nothing to enter', h('p', {}, 'No round is being played. Start one under Rounds; '
        + 'its games then wait here to be entered.'), h('a', {class: 'btn', href: `/e/${id}/organize/rounds`}, 'Rounds')));
      return;
    }
    s.queue = s.round.tables.flatMap((t) => t.games.filter((g) => !done(g) && !g.signed_off)
      .map((g) => ({id: g.id, table: t.table, names: `${sides(t).A} v ${sides(t).B}`, status: 'new'})));
    s.queue.forEach(prepare);
    mount(framed.body, card(`${s.round.label}: games to enter`, count,
      h('div', {class: 'desk'}, queueEl, h('div', {}, note, openEl))));
    addEventListener('keydown', onKey, true);
    open(s.queue[0]);
  });
}
