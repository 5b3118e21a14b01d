/**
 * A balanced first round (issue 30): offered in the Rounds preview of round 1, loaded only
 * there. The server previews the round balanced by rating; a format whose rules draw at random
 * refuses, and nothing is offered. Ticking the box shows the balanced tables and the spread
 * they reach against the random draw's; seating then asks for the same (`spot.balanced`).
 */

import * as api from '../api.js';
import {organizerKey} from '../console/frame.js';
import {tableMap} from '../console/progress.js';
import {h, mount} from '../dom.js';

export async function offer(id, spot) {
  let answer;
  try {
    answer = await api.request('GET', `/api/events/${id}/rounds/next?balanced=true`,
      {key: await organizerKey(id)});
  } catch { return; }
  const plan = answer.data;
  if (answer.status !== 200 || !plan?.balance) return;
  const drawn = [...spot.childNodes];
  const b = plan.balance;
  const box = h('input', {type: 'checkbox'});
  box.onchange = () => {
    spot.balanced = box.checked || undefined;
    mount(spot, box.checked ? tableMap(plan.tables) : drawn);
  };
  spot.before(h('label', {class: 'balance'}, box, ' Balance partners by rating'),
    h('p', {class: 'hint'}, `Largest difference between two sides’ ratings at a table: ${b.spread} balanced, `
      + `${b.drawn_spread} in the random draw (${b.rated} of ${b.players} players rated; the others count as the start rating).`));
}
