/** The calls from tables waiting for the organizer (RULES.md §7), on the Rounds tab: each with
 * its table and how long it has waited, oldest first, with Answer; the card's badge counts
 * them, and a new call sounds a short tone (where the browser lets a page play one). Read
 * again with the progress board. */

import {h, mount} from '../dom.js';
import {plural} from '../words.js';
import * as calls from './calls.js';
import {card, does, failure, msg} from './ui.js';

const age = (s) => (s < 60 ? plural(s, 'second') : plural(Math.floor(s / 60), 'minute'));

/** A short tone; no sound at all where the browser has none to give (the badge says it). */
function chime() {
  try {
    const sound = new AudioContext();
    const tone = sound.createOscillator();
    tone.frequency.value = 880;
    tone.connect(sound.destination);
    tone.start();
    tone.stop(sound.currentTime + 0.2);
  } catch { /* no audio here */ }
}

export function tableCalls(id) {
  const list = h('div', {class: 'table-calls'});
  const badge = h('span', {class: 'badge calls-badge', 'aria-live': 'polite'});
  const out = msg();
  let known = null; // the waiting calls' ids last shown (null: nothing shown yet)
  const show = (answer) => {
    const waiting = answer.calls.filter((c) => c.waiting);
    mount(badge, waiting.length ? ` ${waiting.length} waiting` : '');
    if (known && waiting.some((c) => !known.has(c.id))) chime();
    known = new Set(waiting.map((c) => c.id));
    mount(list, waiting.length
      ? h('ul', {class: 'plain-list'}, waiting.map((c) => h('li', {class: 'call-waiting', 'data-table': c.table},
        h('strong', {}, `Table ${c.table}`), c.round_closed ? ` · about ${c.round_label} (closed)` : '',
        ` · waiting ${age(c.age_seconds)} `,
        h('a', {href: `/e/${id}/games/${c.game_id}`, class: 'inline-link'}, 'Open'), ' ',
        does('Answer', out, () => calls.answerCall(id, c.id), refresh,
          {pending: 'Answering…', class: 'btn-small', 'aria-label': `Answer table ${c.table}`}))))
      : h('p', {class: 'hint'}, `No table is calling. ${plural(answer.total, 'call')} tonight, `
        + `${answer.answered} answered.`));
  };
  async function refresh() {
    try {
      show(await calls.organizerCalls(id));
    } catch (error) {
      mount(list, h('p', {class: 'error'}, `Calls not read: ${failure(error, true)}`));
    }
  }
  return {el: card(['Calls from tables', badge], list, out), refresh};
}
