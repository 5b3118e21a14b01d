/**
 * One table's game, as the runner enters it: the score, two taps per hand (maker, then tricks),
 * "alone", a guided renege, undo/edit/delete, and the end of the game (winner, tie settlement,
 * sign-off, the WEC game sheet). Every number shown comes from the server's answers; while
 * hands wait on this phone, the score adds their values from the event's points table as the
 * server serves it (provisional.js), marked provisional until the server's answer replaces it.
 *
 * The game's data and server calls live in js/game/game-store.js. Each part of the screen is a
 * component under js/game/ (named like its root's CSS class) owning its element and what only
 * it needs; `view()` fills the element from the store. This module lays them out and picks the
 * panel under the score as they ask by events (`renege`, `edit`, `close`, `entered`, `orphaned`).
 *
 * Phone first: on a 360x640 screen both taps (maker, then tricks) sit in view without a scroll,
 * with the toasts (#toasts, moved into the page), the last outcome and the hands list below
 * them, so nothing ever covers the entry buttons, the score or the table line.
 */

import {h, mount, refill, setTitle} from '../dom.js';
import {allEnteredPanel, entryPad} from '../game/entry-pad.js';
import {gameHead} from '../game/game-head.js';
import {gameOver} from '../game/game-over.js';
import {GameStore} from '../game/game-store.js';
import {callLine, editForm, hands, orphanPanel} from '../game/hands.js';
import {keyNeeded} from '../game/key-needed.js';
import {renegeWalk} from '../game/renege-walk.js';
import {scoreNotes, scores} from '../game/scores.js';
import {sheetEntry} from '../game/sheet-entry.js';

/** Every component of the screen, each made once for the screen's life. */
function components(store) {
  return {head: gameHead(store), scores: scores(store), notes: scoreNotes(store),
    pad: entryPad(store), done: allEnteredPanel(store), renege: renegeWalk(store),
    edit: editForm(store), orphan: orphanPanel(store), over: gameOver(store),
    key: keyNeeded(store), sheet: sheetEntry(store), hands: hands(store), call: callLine(store)};
}

/** The panel under the score: `open` is the one asked for (pad, renege, edit or orphan). */
function panel(store, parts, open) {
  const g = store.game;
  const over = g.over || g.signed_off;
  if (!store.covered) return [over && parts.over.view(), parts.key.view()];
  if (open === 'orphan' || open === 'edit') return parts[open].view();
  if (over) return parts.over.view();
  if (store.allEntered()) return parts.done.view();
  return parts[open === 'renege' ? 'renege' : 'pad'].view();
}

/** What sits between the panel and the hands list: the last outcome, the ways to enter a sheet. */
function below(store, parts, outcome) {
  const g = store.game;
  const sheetLink = store.covered && !g.over && !g.signed_off && h('p', {class: 'actions'},
    h('a', {class: 'btn btn-small', href: `/e/${store.eid}/games/${store.gid}/sheet`},
      'Enter from a paper sheet'));
  // A live region that stays, its words changed only when they change: said once.
  if (store.lastOutcome && outcome.textContent !== store.lastOutcome) {
    outcome.textContent = store.lastOutcome;
  }
  return [store.lastOutcome && outcome, parts.sheet.view(), sheetLink, store.covered && parts.call];
}

/**
 * Lay the components out in `main` and answer what they ask for (which panel shows under the
 * score); returns the function that draws the screen again.
 */
function layout(main, store, parts, toasts) {
  const outcome = h('p', {class: 'last-outcome', 'aria-live': 'polite'});
  let open = 'pad'; // the panel asked for: pad, renege, edit or orphan
  const draw = () => {
    setTitle(store.eventName);
    const p = panel(store, parts, open);
    refill(main, parts.head.view(), parts.scores.view(), parts.notes.view(),
      parts.verify ? parts.verify.view(p) : p, toasts, below(store, parts, outcome), parts.hands.view());
  };
  const show = (name, editing = null) => { open = name; store.editing = editing; draw(); };
  parts.pad.el.addEventListener('renege', ({detail}) => { parts.renege.open(detail); show('renege'); });
  parts.hands.el.addEventListener('edit', ({detail: hand}) => {
    store.notice = null;
    parts.edit.open(hand);
    show('edit', hand.id);
    // scroll-margin-top (app.css) keeps the heading below the sticky bar.
    parts.edit.el.scrollIntoView({block: 'start'});
  });
  for (const name of ['renege', 'edit', 'orphan']) {
    parts[name].el.addEventListener('close', () => show('pad'));
  }
  store.addEventListener('entered', () => { open = 'pad'; });
  store.addEventListener('orphaned', () => {
    parts.orphan.open(parts.edit.draft());
    open = 'orphan';
    store.editing = null;
  });
  return draw;
}

export async function render(main, {eventId, gameId}) {
  const store = new GameStore(Number(eventId), Number(gameId));
  document.body.classList.add('game-mode');
  const toasts = document.getElementById('toasts');
  mount(main, h('p', {class: 'loading'}, 'Loading the game…'));
  try {
    await store.load();
  } catch (error) {
    mount(main, h('p', {class: 'error', role: 'alert'}, error.message),
      h('a', {class: 'btn', href: `/e/${store.eid}/run`}, 'Back to your tables'));
    return () => document.body.classList.remove('game-mode');
  }
  const parts = components(store);
  // Scores both sides agree on (RULES.md section 7): loaded only for a game that needs it.
  if (store.game.verification) parts.verify = (await import('../game/verify.js')).verify(store);
  const draw = layout(main, store, parts, toasts);
  store.addEventListener('change', draw);
  draw();
  const stop = store.listen();
  return () => {
    stop();
    document.body.classList.remove('game-mode');
    if (toasts) document.body.append(toasts);
  };
}
