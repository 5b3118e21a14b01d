/**
 * People's data in the club's console (RULES.md section 9): the club's two privacy settings,
 * and for each person their data as a file and, at their request, erasing them (asked twice,
 * in place: it cannot be undone).
 */

import {button, h, mount} from '../dom.js';
import {call} from './keys.js';

/** The club's settings: new people private by default; people's pages for search engines. */
export function privacyCard(club, key, run, reload) {
  const out = h('p', {class: 'msg', role: 'status', hidden: true});
  const box = (id, checked, words) => {
    const input = h('input', {type: 'checkbox', id, checked});
    return [input, h('label', {class: 'check', for: id}, input, ` ${words}`)];
  };
  const [privateBox, privateLabel] = box('club-private-default', club.people_private_by_default,
    'New people start private (only the club sees their profile)');
  const [indexBox, indexLabel] = box('club-indexable', club.indexable,
    'Let search engines index the people\'s pages');
  const save = button('Save', (e) => run(e.currentTarget, out, () => call('PATCH', `/api/clubs/${club.id}`,
    {key, body: {people_private_by_default: privateBox.checked, indexable: indexBox.checked}}), reload),
  {class: 'btn-small'});
  return h('section', {class: 'card form'}, h('h2', {}, 'People\'s data'),
    h('p', {class: 'hint'}, 'A person may ask for all the club keeps about them (a file), or to be erased: '
      + 'their name becomes "Former player N" everywhere, and every result stays.'),
    privateLabel, indexLabel, save, out);
}

/** A person's "Their data" and "Erase…" buttons. */
export function personDataActions(p, base, key, run, out, reload) {
  const actions = h('div', {class: 'actions'});
  const download = button('Their data', (e) => run(e.currentTarget, out,
    () => call('GET', `${base}/people/${p.id}/data`, {key}), (answer) => {
      const blob = new Blob([JSON.stringify(answer.data, null, 1)], {type: 'application/json'});
      const link = h('a', {href: URL.createObjectURL(blob), download: `person-${p.id}-data.json`});
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
    }), {class: 'btn-small', 'aria-label': `The data of ${p.name}, as a file`});
  const plain = () => mount(actions, download, p.erased ? h('span', {class: 'hint'}, 'Erased')
    : button('Erase…', () => sure(), {class: 'btn-small', 'aria-label': `Erase ${p.name}`}));
  const sure = () => mount(actions, h('span', {}, `Erase ${p.name} for good? Their name becomes "Former player N" everywhere. `),
    button('Yes, erase', (e) => run(e.currentTarget, out, () => call('POST', `${base}/people/${p.id}/erase`, {key}), reload),
      {class: 'btn-small btn-danger'}),
    button('Keep', () => plain(), {class: 'btn-small'}));
  plain();
  return actions;
}
