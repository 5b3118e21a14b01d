/**
 * /c/<slug>: a club's public page. Its events (being played, then past), its series with their
 * standings, and its people, each linking to a profile; a club key holder also sees the way to
 * manage the club.
 */

import {h, mount, setTitle} from '../dom.js';
import {clubBySlug, dateWords} from './keys.js';

export async function render(main, {slug}) {
  setTitle('Club');
  mount(main, h('p', {class: 'loading'}, 'Loading the club…'));
  let found;
  try {
    found = await clubBySlug(slug);
  } catch (error) {
    mount(main, h('h1', {class: 'page-title'}, 'Club'), h('p', {class: 'error', role: 'alert'}, error.message));
    return;
  }
  const {club, key} = found;
  setTitle(club.name);
  const base = `/c/${slug}`;
  // The nights the club set aside (listed to its key, for the manage page) stay off this page.
  const events = club.events.filter((e) => !e.archived);
  const open = events.filter((e) => e.status !== 'finished');
  const past = events.filter((e) => e.status === 'finished');
  const eventItem = (e) => h('li', {}, h('a', {href: `/e/${e.id}/board`}, e.name),
    h('span', {class: 'hint'}, ` · ${dateWords(e.date)}`));
  const search = h('input', {id: 'club-people-search', type: 'search', class: 'input', autocomplete: 'off',
    placeholder: 'A few letters of a name', oninput: () => drawPeople()});
  const people = h('ul', {class: 'link-list club-people'});
  function drawPeople() {
    const q = search.value.trim().toLowerCase();
    const shown = club.people.filter((p) => p.name.toLowerCase().includes(q));
    mount(people, shown.length ? shown.map((p) => h('li', {}, h('a', {href: `${base}/people/${p.id}`}, p.name),
      h('span', {class: 'hint'}, ` · ${p.events} event${p.events === 1 ? '' : 's'}${p.private ? ' · private' : ''}`)))
      : h('li', {class: 'empty'}, club.people.length ? 'Nobody by that name.' : 'Nobody has played yet.'));
  }
  mount(main, h('h1', {class: 'page-title'}, club.name),
    key && h('p', {class: 'actions'}, h('a', {class: 'btn btn-primary', href: `${base}/manage`}, 'Manage the club')),
    h('section', {class: 'card'}, h('h2', {}, 'Now and next'),
      open.length ? h('ul', {class: 'link-list'}, open.map(eventItem)) : h('p', {class: 'empty'}, 'No event is open.')),
    h('section', {class: 'card'}, h('h2', {}, 'Series'),
      club.series.length ? h('ul', {class: 'link-list'}, club.series.map((s) => h('li', {},
        h('a', {href: `${base}/series/${s.id}`}, s.name),
        h('span', {class: 'hint'}, ` · ${s.event_ids.length} event${s.event_ids.length === 1 ? '' : 's'}`))))
        : h('p', {class: 'empty'}, 'No series yet.')),
    h('div', {class: 'ratings-slot'}),
    h('section', {class: 'card'}, h('h2', {}, 'Players'), h('label', {for: 'club-people-search'}, 'Find a player'), search, people),
    past.length > 0 && h('section', {class: 'card'}, h('h2', {}, 'Past events'), h('ul', {class: 'link-list'}, past.map(eventItem))));
  drawPeople();
  const slot = main.querySelector('.ratings-slot');
  try {
    const {ratingsTable} = await import('./ratings.js');
    slot.replaceWith(await ratingsTable(club.id, key, base));
  } catch (error) {
    slot.replaceWith(h('p', {class: 'error', role: 'alert'}, `The ratings could not be read: ${error.message}`));
  }
}
