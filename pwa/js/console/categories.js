/**
 * Categories, on the Prizes section ("High lady / High man" nights): the organizer names the
 * categories and their prize places, puts entrants in them, and each category's own place list
 * shows live from the leaderboard (the server ranks it: the overall order, places renumbered).
 */

import {button, h, mount} from '../dom.js';
import * as calls from './calls.js';
import {entrantPicker} from './pick.js';
import {act, failure, inp, lab, msg, say} from './ui.js';

export function categoriesCard(id, teams, entrants) {
  const out = msg();
  const boards = h('div', {class: 'category-boards'});
  const name = inp('category-name', {maxlength: 40, placeholder: 'e.g. High lady'});
  const places = inp('category-places', {type: 'number', min: 0, max: 20, value: 1, inputmode: 'numeric'});
  const add = h('button', {type: 'submit', class: 'btn'}, 'Add the category');
  const who = entrantPicker('category-who', teams ? 'Team to put in' : 'Player to put in');
  const which = h('select', {id: 'category-which', class: 'input'});
  const tag = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Put in the category');
  let list = [];
  let field = [];
  let last = null;

  const paintChoices = () => mount(which, list.map((c) => h('option', {value: c.name}, c.name)));
  const tagsOf = (entrant) => field.find((e) => e.id === entrant)?.categories || [];
  const setTags = async (btn, entrant, tags, words) => {
    const saved = await act(btn, out, () => calls.setEntrant(id, teams, entrant, {categories: tags}));
    if (saved) {
      field = field.map((e) => (e.id === saved.id ? saved : e));
      say(out, words(saved));
    }
    return saved;
  };

  const defineForm = h('form', {class: 'form inline-form', onsubmit: async (e) => {
    e.preventDefault();
    if (!name.value.trim()) { say(out, 'Name the category.', 'error'); return; }
    const next = [...list, {name: name.value.trim(), prize_places: Number(places.value || 0)}];
    const saved = await act(add, out, () => calls.setCategories(id, next));
    if (saved) { list = saved; paintChoices(); say(out, `${name.value.trim()} added.`); defineForm.reset(); }
  }}, lab(name, 'New category'), name, lab(places, 'Prize places'), places, add);

  const tagForm = h('form', {class: 'form', onsubmit: async (e) => {
    e.preventDefault();
    const entrant = who.value();
    if (entrant === null) { say(out, 'Pick a name from the list.', 'error'); return; }
    if (!which.value) { say(out, 'Add a category first.', 'error'); return; }
    const saved = await setTags(tag, entrant, [...new Set([...tagsOf(entrant), which.value])],
      (s) => `${s.name} is in ${which.value}.`);
    if (saved) tagForm.reset();
  }}, who.label, who.field, who.options, lab(which, 'Category'), which, tag);

  function update(board) {
    last = board;
    const shown = board.categories || [];
    mount(boards, shown.length ? shown.map((c) => h('section', {class: 'category-board'},
      h('h3', {}, `${c.name} · ${c.prize_places} prize place${c.prize_places === 1 ? '' : 's'}`),
      c.rows.length ? h('ol', {class: 'plain-list'}, c.rows.map((r) => h('li', {class: r.prize && 'prize'},
        `${r.place === null ? '–' : r.shared ? `=${r.place}` : r.place}. ${r.name} · ${r.total} `,
        button('Take out', (ev) => setTags(ev.currentTarget, r.entrant_id, tagsOf(r.entrant_id).filter((t) => t !== c.name),
          (s) => `${s.name} is no longer in ${c.name}.`), {class: 'btn-small', 'aria-label': `Take ${r.name} out of ${c.name}`}))))
        : h('p', {class: 'empty'}, 'Nobody in it yet.'))) : h('p', {class: 'hint'}, 'No categories at this event.'));
  }

  (async () => {
    try {
      [list, field] = await Promise.all([calls.categories(id), entrants()]);
      who.set(field);
      paintChoices();
      if (last) update(last);
    } catch (error) {
      say(out, failure(error, true), 'error');
    }
  })();
  return {el: h('section', {class: 'card'}, h('h2', {}, 'Categories'),
    h('p', {class: 'hint'}, 'Groups with their own place list and prizes, e.g. High lady and High man.'),
    boards, tagForm, defineForm, out), update};
}
