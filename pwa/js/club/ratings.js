/**
 * Ratings (RULES.md §8), loaded on first use by the profile and the club page: a person's
 * rating "mu − 3σ (±σ)" with a small line chart over their nights, and the club's ratings
 * table with its CSV. The figures are the server's; a private person is the club key's alone.
 */

import {h} from '../dom.js';
import {call, day} from './keys.js';

const NS = new DOMParser().parseFromString('<svg></svg>', 'text/html').body.firstChild.namespaceURI;
const W = 320;
const H = 140;
const PAD = {left: 40, right: 8, top: 14, bottom: 26};
const fixed = (v) => v.toFixed(1);
const short = (iso) => day(iso).toLocaleDateString(undefined, {month: 'short', day: 'numeric'});

function el(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The rating after each night (oldest first), a band of ±σ around it: an SVG line. */
export function ratingChart(nights) {
  const title = `Rating over nights: ${nights.map((n) => `${short(n.date)} ${fixed(n.rating)}`).join(', ')}`;
  const svg = el('svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'chart rating-chart', 'aria-label': 'Rating over nights'});
  svg.append(el('title', {}, title));
  const values = [0, ...nights.map((n) => n.rating)];
  const top = Math.max(...values);
  const low = Math.min(...values);
  const span = top - low || 1;
  const x = (i) => PAD.left + (W - PAD.left - PAD.right) * (nights.length > 1 ? i / (nights.length - 1) : 0.5);
  const y = (v) => PAD.top + (H - PAD.top - PAD.bottom) * (1 - (v - low) / span);
  svg.append(el('line', {x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0), class: 'chart-axis'}));
  svg.append(el('text', {x: PAD.left - 4, y: y(top) + 4, 'text-anchor': 'end', class: 'chart-label'}, fixed(top)));
  svg.append(el('text', {x: PAD.left - 4, y: y(low) + 4, 'text-anchor': 'end', class: 'chart-label'}, fixed(low)));
  svg.append(el('polyline', {points: nights.map((n, i) => `${x(i)},${y(n.rating)}`).join(' '), class: 'chart-line'}));
  nights.forEach((n, i) => svg.append(el('circle', {cx: x(i), cy: y(n.rating), r: 3, class: 'chart-dot'})));
  const first = nights[0];
  const last = nights[nights.length - 1];
  svg.append(el('text', {x: PAD.left, y: H - 8, class: 'chart-label'}, short(first.date)));
  if (nights.length > 1) svg.append(el('text', {x: W - PAD.right, y: H - 8, 'text-anchor': 'end', class: 'chart-label'}, short(last.date)));
  return svg;
}

const words = (r) => `${fixed(r.rating)} (±${fixed(r.sigma)})`;

/** The profile's card: the rating now and the chart, or why there is none yet. */
export async function ratingCard(clubId, personId, key) {
  const found = (await call('GET', `/api/clubs/${clubId}/people/${personId}/rating`, {key})).data;
  return h('section', {class: 'card rating-card'}, h('h2', {}, 'Rating'),
    found.rated
      ? [h('p', {class: 'rating-now'}, h('strong', {}, words(found)),
        h('span', {class: 'hint'}, ` after ${found.games} rated game${found.games === 1 ? '' : 's'}, ${found.wins} won`)),
      ratingChart(found.nights)]
      : h('p', {class: 'empty'}, 'No rated game yet.'),
    h('p', {class: 'hint'}, 'A cautious estimate of skill from games won and lost with rotating partners (μ − 3σ; ±σ is how unsure it still is). Ghost seats, forfeits and card draws are not rated.'));
}

/** The club page's card: the table best first, a page of 100 at a time ("Show more" adds the
 * next; the places are the whole table's), each name linking to the profile. */
export async function ratingsTable(clubId, key, base) {
  const read = async (offset) => (await call('GET', `/api/clubs/${clubId}/ratings?offset=${offset}`, {key})).data;
  const first = await read(0);
  const csv = h('p', {}, h('a', {href: `/api/clubs/${clubId}/ratings.csv`, download: ''}, 'Download the ratings (CSV)'));
  const card = h('section', {class: 'card club-ratings'}, h('h2', {}, 'Ratings'));
  if (!first.rows.length) {
    card.append(h('p', {class: 'empty'}, 'No rated game yet.'), csv);
    return card;
  }
  const body = h('tbody');
  const shown = new Set();
  let next = 0;
  const more = h('button', {type: 'button', class: 'btn'});
  const moreLine = h('p', {class: 'actions'}, more);
  const note = h('p', {class: 'error', role: 'alert', hidden: true});
  const add = (page) => {
    // A night rated between two pages moves rows: a person already shown is not shown twice.
    const rows = page.rows.filter((r) => !shown.has(r.person_id));
    rows.forEach((r) => shown.add(r.person_id));
    body.append(...rows.map((r) => h('tr', {}, h('td', {}, String(r.place)),
      h('th', {scope: 'row'}, h('a', {href: `${base}/people/${r.person_id}`}, r.name)),
      h('td', {}, fixed(r.rating)), h('td', {}, fixed(r.sigma)), h('td', {}, String(r.games)))));
    next = page.offset + page.rows.length;
    more.textContent = `Show more (${body.rows.length} of ${page.total_rows})`;
    moreLine.hidden = next >= page.total_rows;
  };
  more.onclick = async () => {
    more.disabled = true;
    try {
      add(await read(next));
      note.hidden = true;
    } catch (error) {
      note.hidden = false;
      note.textContent = `The next ratings could not be read: ${error.message}`;
    } finally {
      more.disabled = false;
    }
  };
  card.append(h('table', {class: 'standings'}, h('thead', {}, h('tr', {},
    ['#', 'Player', 'Rating', '±', 'Games'].map((c) => h('th', {scope: 'col'}, c)))), body),
  note, moreLine, csv);
  add(first);
  return card;
}
