/**
 * /c/<slug>/series/<id>: a series' standings on a phone (tap a row for its events), live; and
 * /c/<slug>/series/<id>/projector: the same on a big screen, in columns, a page at a time.
 * The server scores; this screen only shows what it answers.
 */

import {request} from '../api.js';
import {h, mount, setTitle} from '../dom.js';
import {clubBySlug, dateWords, placeWords} from './keys.js';

const POLL_MS = 10000;
const PAGE_MS = 12000;
const PROJECTOR_ROWS = 36; // two columns of 18 at 1920x1080
const PROJECTOR_PAGES = 10; // the top 360: a hall does not read further

const pts = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
const rule = (s) => [s.scoring.method === 'places' ? `points by place (${s.scoring.points.join(', ')}, …)`
  : 'each event\'s total points', s.best_of && `best ${s.best_of} events count`,
s.min_events && `ranked from ${s.min_events} events`].filter(Boolean).join(' · ');

/** Poll the standings with If-None-Match (the first `rows()` rows); `draw(table)` on every
 * change. Returns {stop, now}: `now` reads at once (after asking for more rows). */
function follow(clubId, seriesId, key, rows, draw, failed) {
  let tag = null;
  let stopped = false;
  let timer = null;
  const tick = async () => {
    clearTimeout(timer);
    try {
      const answer = await request('GET', `/api/clubs/${clubId}/series/${seriesId}?limit=${rows()}`,
        {key, ifNoneMatch: tag});
      if (answer.status === 200) {
        tag = answer.etag;
        draw(answer.data);
      } else if (answer.status !== 304) {
        failed(answer.data?.detail || `The server answered ${answer.status}.`);
      }
    } catch (error) {
      failed(error.message);
    }
    if (!stopped) timer = setTimeout(tick, POLL_MS);
  };
  tick();
  return {stop: () => { stopped = true; clearTimeout(timer); }, now: tick};
}

export async function render(main, {slug, seriesId}) {
  setTitle('Series');
  let club;
  let key;
  try {
    ({club, key} = await clubBySlug(slug));
  } catch (error) {
    mount(main, h('p', {class: 'error', role: 'alert'}, error.message));
    return undefined;
  }
  const head = h('div');
  const note = h('p', {class: 'note', hidden: true});
  const body = h('div', {class: 'series-rows'});
  const open = new Set();
  let table = null;
  let wanted = 100;
  const row = (r) => {
    const names = Object.fromEntries(table.events.map((e) => [e.id, e.name]));
    const expanded = open.has(r.person_id);
    return h('li', {class: ['series-row', !r.ranked && 'unranked'], 'data-person': r.person_id},
      h('button', {type: 'button', class: 'series-line', 'aria-expanded': String(expanded),
        onclick: () => { if (!open.delete(r.person_id)) open.add(r.person_id); draw(); }},
      h('span', {class: 'place'}, r.ranked ? placeWords(r.place) : '–'),
      h('span', {class: 'name'}, r.name),
      h('span', {class: 'hint events'}, String(r.events_played)),
      h('span', {class: 'total'}, pts(r.total))),
      expanded && h('ul', {class: 'plain-list series-results'},
        r.results.length ? r.results.map((x) => h('li', {class: x.counted ? 'counted' : 'dropped'},
          `${names[x.event_id]}: ${placeWords(x.place)}, ${x.event_total} pts → `,
          h('strong', {}, pts(x.points)), x.counted ? '' : ' (not counted)'))
          : h('li', {class: 'hint'}, 'Private.'),
        h('li', {}, h('a', {href: `/c/${slug}/people/${r.person_id}`}, 'Profile'))));
  };
  // The columns' headings, on the rows' own grid (the rows are buttons that open a player's
  // events, so a list rather than a table; screen readers have the list's label).
  const headRow = () => h('div', {class: 'series-line series-head', 'aria-hidden': 'true'},
    h('span', {class: 'place'}, 'Place'), h('span', {class: 'name'}, 'Player'),
    h('span', {class: 'events'}, 'Events'), h('span', {class: 'total'}, 'Points'));
  function draw(data = table) {
    table = data;
    setTitle(`${table.name} · ${club.name}`);
    mount(head, h('h1', {class: 'page-title'}, table.name), h('p', {class: 'hint'}, `${club.name} · ${rule(table)}`),
      h('p', {class: 'hint'}, `${table.events.length} event${table.events.length === 1 ? '' : 's'}: `,
        table.events.map((e) => `${e.name} (${dateWords(e.date)})`).join(', ')));
    mount(body, table.rows.length ? [headRow(),
      h('ol', {class: 'plain-list series-table', 'aria-label': 'Standings: place, player, events, points'},
        table.rows.map(row))]
      : h('p', {class: 'empty'}, 'No results yet.'),
    table.total_rows > table.rows.length && h('p', {class: 'actions'}, h('button', {type: 'button', class: 'btn',
      onclick: () => { wanted = Math.min(1000, wanted + 100); reading.now(); }},
    `Show more (${table.rows.length} of ${table.total_rows})`)));
  }
  mount(main, head, note, body, h('p', {class: 'actions'},
    h('a', {class: 'btn', href: `/c/${slug}/series/${seriesId}/projector`}, 'Projector mode'),
    h('a', {class: 'btn', href: `/api/clubs/${club.id}/series/${seriesId}/standings.csv`, download: ''}, 'Download (CSV)'),
    h('a', {class: 'btn', href: `/c/${slug}`}, club.name)));
  const reading = follow(club.id, Number(seriesId), key, () => wanted, (data) => { note.hidden = true; draw(data); },
    (why) => { note.hidden = false; mount(note, `Not updated: ${why}`); });
  return reading.stop;
}

/** The big screen: rows in two columns, PROJECTOR_ROWS a page, pages turning by themselves. */
export async function projector(main, {slug, seriesId}) {
  document.body.classList.add('projector-mode');
  let club;
  try {
    ({club} = await clubBySlug(slug));
  } catch (error) {
    mount(main, h('p', {class: 'error', role: 'alert'}, error.message));
    return undefined;
  }
  const title = h('h1', {class: 'series-projector-title'});
  const pageNo = h('p', {class: 'series-projector-page'});
  const grid = h('ol', {class: 'series-projector-grid'});
  mount(main, h('div', {class: 'series-projector'}, title, grid, pageNo));
  let table = null;
  let page = 0;
  const paint = () => {
    if (!table) return;
    const pages = Math.max(1, Math.ceil(table.rows.length / PROJECTOR_ROWS));
    page %= pages;
    title.textContent = `${table.name} · ${club.name}`;
    pageNo.textContent = pages > 1 ? `Page ${page + 1} of ${pages}` : '';
    mount(grid, table.rows.slice(page * PROJECTOR_ROWS, (page + 1) * PROJECTOR_ROWS).map((r) =>
      h('li', {class: 'series-projector-row'}, h('span', {class: 'place'}, r.ranked ? placeWords(r.place) : '–'),
        h('span', {class: 'name'}, r.name), h('span', {class: 'total'}, pts(r.total)))));
  };
  const reading = follow(club.id, Number(seriesId), null, () => PROJECTOR_ROWS * PROJECTOR_PAGES,
    (data) => { table = data; paint(); }, () => {});
  const flip = setInterval(() => { page += 1; paint(); }, PAGE_MS);
  return () => { reading.stop(); clearInterval(flip); document.body.classList.remove('projector-mode'); };
}
