/**
 * Pick an entrant by name: a text box with the names to choose from (a datalist), as fast at a
 * prize table as a list of 200 names is long. `value()` is the entrant's id, or null when the
 * text names nobody (the caller says so).
 */

import {h} from '../dom.js';
import {inp} from './ui.js';

let lists = 0;

export function entrantPicker(id, label, attrs = {}) {
  const listId = `entrants-${++lists}`;
  const field = inp(id, {list: listId, placeholder: 'Start typing a name', ...attrs});
  const options = h('datalist', {id: listId});
  let byName = new Map();
  return {
    field, options,
    label: h('label', {for: id}, label),
    /** The entrants to choose from: [{id, name}]. */
    set(entrants) {
      byName = new Map(entrants.map((e) => [e.name.toLowerCase(), e.id]));
      options.replaceChildren(...entrants.map((e) => h('option', {value: e.name})));
    },
    value: () => byName.get(field.value.trim().toLowerCase()) ?? null,
  };
}
