/**
 * /c/<slug>/people/<id>: a player's profile in a club. The events they played (place, points)
 * and what only a hand-by-hand record can tell: calls and make %, marches, loners, euchres,
 * reneges, points per hand, the best partner; two small charts over time. The figures are the
 * server's; the screen says how many hands they rest on.
 */

import {h, mount, setTitle} from '../dom.js';
import {barChart} from './chart.js';
import {call, clubBySlug, dateWords, day, placeWords} from './keys.js';

const pct = (v) => (v === null || v === undefined ? '–' : `${Math.round(v)}%`);
const short = (iso) => day(iso).toLocaleDateString(undefined, {month: 'short', day: 'numeric'});

function figure(label, value, hint = '') {
  return h('div', {class: 'figure'}, h('span', {class: 'figure-value'}, value),
    h('span', {class: 'figure-label'}, label), hint && h('span', {class: 'hint'}, hint));
}

export async function render(main, {slug, personId}) {
  setTitle('Player');
  mount(main, h('p', {class: 'loading'}, 'Loading the profile…'));
  let profile;
  let club;
  let key;
  try {
    ({club, key} = await clubBySlug(slug));
    profile = (await call('GET', `/api/clubs/${club.id}/people/${personId}`, {key})).data;
  } catch (error) {
    mount(main, h('h1', {class: 'page-title'}, 'Player'), h('p', {class: 'error', role: 'alert'}, error.message),
      h('p', {}, h('a', {href: `/c/${slug}`}, 'Back to the club')));
    return;
  }
  setTitle(`${profile.name} · ${club.name}`);
  const s = profile.stats;
  const loners = s.loners ? `${s.loners_made} of ${s.loners} made, ${s.loners_marched} marched`
    : 'none';
  const partner = profile.best_partner;
  mount(main,
    h('h1', {class: 'page-title'}, profile.name), h('p', {class: 'hint'}, h('a', {href: `/c/${slug}`}, club.name),
      ` · ${profile.events.length} event${profile.events.length === 1 ? '' : 's'}${profile.private ? ' · private' : ''}`),
    h('section', {class: 'card'}, h('h2', {}, 'From the hands'),
      h('p', {class: 'hint'}, profile.hands_counted
        ? `From ${profile.hands_counted} hands entered hand by hand (games entered from a sheet or forfeited have no hands to count).`
        : 'No hands entered hand by hand yet: games from a sheet or forfeits have none to count.'),
      h('div', {class: 'figures'},
        figure('make %', pct(s.make_pct), `${s.made} of ${s.called} calls`),
        figure('points a hand', s.points_per_hand === null ? '–' : s.points_per_hand.toFixed(2)),
        figure('marches', String(s.marches)),
        figure('loners', loners, s.loners_unattributed ? `${s.loners_unattributed} with the seat not recorded` : ''),
        figure('euchred', String(s.euchred), 'as makers'),
        figure('euchres', String(s.euchres), 'as defenders'),
        figure('reneges', String(s.reneges), 'upheld against their side')),
      h('p', {}, partner ? ['Best partner: ', h('a', {href: `/c/${slug}/people/${partner.person_id}`}, partner.name),
        ` (${partner.points_per_hand.toFixed(2)} points a hand over ${partner.hands} hands)`]
        : `Best partner: not yet (it takes ${profile.best_partner_min_hands} hands together).`)),
    profile.events.length > 0 && h('section', {class: 'card'}, h('h2', {}, 'Over time'),
      h('h3', {}, 'Points per event'), barChart('Points per event', profile.events.map((e) => ({label: short(e.date), value: e.total}))),
      h('h3', {}, 'Make % per event'), barChart('Make % per event', profile.events.map((e) => ({label: short(e.date), value: e.stats?.make_pct ?? null})),
        {format: pct, max: 100})),
    h('section', {class: 'card'}, h('h2', {}, 'Events'), profile.events.length
      ? h('table', {class: 'standings profile-events'}, h('thead', {}, h('tr', {},
        ['Event', 'Place', 'Pts', 'Make'].map((c) => h('th', {scope: 'col'}, c)))),
      h('tbody', {}, profile.events.slice().reverse().map((e) => h('tr', {},
        h('th', {scope: 'row'}, h('a', {href: `/e/${e.event_id}/board`}, e.name), h('span', {class: 'hint'}, ` ${dateWords(e.date)}`)),
        h('td', {}, e.place === null ? '–' : [placeWords(e.place), h('span', {class: 'hint'}, ` of ${e.field}`),
          e.prize && h('span', {class: 'prize-mark', title: 'A prize place'}, ' prize')]),
        h('td', {}, e.total ?? '–'), h('td', {}, pct(e.stats?.make_pct))))))
      : h('p', {class: 'empty'}, 'No events yet.')));
  // The rating's card loads on its own (its module on first use), after the figures.
  const rating = h('div', {class: 'rating-slot'});
  main.querySelector('.card')?.before(rating);
  try {
    const {ratingCard} = await import('./ratings.js');
    rating.replaceWith(await ratingCard(club.id, personId, key));
  } catch (error) {
    rating.replaceWith(h('p', {class: 'error', role: 'alert'}, `The rating could not be read: ${error.message}`));
  }
}
