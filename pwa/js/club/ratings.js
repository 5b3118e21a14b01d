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

/** The club page's card: the table, best first, each name linking to the profile. */
export async function ratingsTable(clubId, key, base) {
  const rows = (await call('GET', `/api/clubs/${clubId}/ratings`, {key})).data;
  return h('section', {class: 'card club-ratings'}, h('h2', {}, 'Ratings'),
    rows.length
      ? h('table', {class: 'standings'}, h('thead', {}, h('tr', {},
        ['#', 'Player', 'Rating', '±', 'Games'].map((c) => h('th', {scope: 'col'}, c)))),
      h('tbody', {}, rows.map((r) => h('tr', {}, h('td', {}, String(r.place)),
        h('th', {scope: 'row'}, h('a', {href: `${base}/people/${r.person_id}`}, r.name)),
        h('td', {}, fixed(r.rating)), h('td', {}, fixed(r.sigma)), h('td', {}, String(r.games))))))
      : h('p', {class: 'empty'}, 'No rated game yet.'),
    h('p', {}, h('a', {href: `/api/clubs/${clubId}/ratings.csv`, download: ''}, 'Download the ratings (CSV)')));
}
