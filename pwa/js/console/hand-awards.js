/**
 * The awards from the hands, on the console's Standings: the organizer ticks which to give
 * (most loners made, most marches, best make %), and the winners show as the hands come in.
 * The server picks them (api/rules/stats.py); players level on the figure share one.
 */

import {h, mount} from '../dom.js';
import * as calls from './calls.js';
import {failure, msg, say} from './ui.js';

const AWARDS = [['most-loners', 'Most loners made'], ['most-marches', 'Most marches'],
  ['best-make-pct', 'Best make % (at least 5 calls)']];
const figure = (a) => (a.award === 'best-make-pct' ? `${a.value}%` : `${a.value}`);

/** Mount the card after `after`; returns the function that reads the winners again. */
export function handAwardsCard(id, event, after) {
  const out = msg();
  const winners = h('dl', {class: 'awards hand-awards'});
  let chosen = new Set(event?.hand_awards || []);
  // Saves go one after another, each sending every box as it is then: two quick ticks end
  // with both given, whatever order the answers come in.
  let saving = Promise.resolve();
  const save = (box, words) => {
    saving = saving.then(async () => {
      const wanted = boxes.map((b) => b.firstChild).filter((b) => b.checked).map((b) => b.dataset.award);
      try {
        const saved = await calls.setEvent(id, {hand_awards: wanted});
        chosen = new Set(saved.hand_awards);
        say(out, `${words}: ${box.checked ? 'given' : 'not given'} at this event.`);
        refresh();
      } catch (error) {
        box.checked = chosen.has(box.dataset.award);
        say(out, failure(error), 'error');
      }
    });
  };
  const boxes = AWARDS.map(([key, words]) => h('label', {class: 'check'}, h('input', {
    type: 'checkbox', checked: chosen.has(key), 'data-award': key,
    onchange: (e) => save(e.currentTarget, words)}), ` ${words}`));
  after.after(h('section', {class: 'card'}, h('h2', {}, 'Awards from the hands'),
    h('p', {class: 'hint'}, 'Besides the standings: counted from hands entered hand by hand.'),
    h('div', {class: 'checks'}, boxes), winners, out));
  let busy = false;
  async function refresh() {
    if (busy || chosen.size === 0) { if (!chosen.size) mount(winners); return; }
    busy = true;
    try {
      const {hands} = await calls.awards(id);
      mount(winners, hands.map((a) => h('div', {class: 'param'}, h('dt', {}, a.label),
        h('dd', {}, a.players.length ? `${figure(a)}: ${a.players.map((p) => p.name).join(', ')}` : 'Nobody yet.'))));
    } catch (error) {
      mount(winners, h('p', {class: 'hint'}, `Not updated: ${failure(error, true)}`));
    } finally {
      busy = false;
    }
  }
  refresh();
  return refresh;
}
