/** /organize/new: create an event from a preset, shown in plain words; the organizer link once. */

import * as api from '../api.js';
import {h, mount, setTitle} from '../dom.js';
import * as calls from './calls.js';
import {act, card, inp, lab, linkBox, load, msg, plain} from './ui.js';

/** A parameter's value in words, from what GET /api/presets says of it (parameter_info). */
function words(info, v) {
  if (v === null || v === undefined) return info?.none_means || 'none';
  if (typeof v === 'string') return info?.choices.find((c) => c.value === v)?.words || v;
  if (Array.isArray(v)) return v.map(([field, n]) => (field > 1 ? `${n} with ${field} or more entrants` : `${n}`)).join('; ');
  return plain(v);
}

/** The preset's parameters in words (those its movement uses first), inputs to change its
 * numbers and switches, and what the event will be. Returns [elements, overrides()]. */
function format(preset) {
  const info = preset.parameter_info;
  const said = (name) => info[name]?.description || name;
  // Parameters only some movements use are folded away for the others (the server says which).
  const used = (name) => !info[name]?.only_for.length || info[name].only_for.includes(preset.parameters.movement);
  const all = Object.entries(preset.parameters);
  const list = (entries, cls) => h('dl', {class: cls, 'aria-label': `${preset.name}: ${cls === 'params' ? 'its settings' : 'settings it does not use'}`},
    entries.map(([name, v]) => h('div', {class: 'param', 'data-param': name}, h('dt', {}, said(name)), h('dd', {}, words(info[name], v)))));
  const other = all.filter(([name]) => !used(name));
  const fields = all.filter(([name, v]) => used(name) && (v === null || /number|boolean/.test(typeof v)))
    .map(([name, v]) => [name, v, typeof v === 'boolean'
      ? h('select', {id: `p-${name}`, class: 'input'}, [true, false].map((x) => h('option', {value: String(x), selected: x === v}, plain(x))))
      : inp(`p-${name}`, {type: 'number', inputmode: 'numeric', min: 0, value: v ?? '', placeholder: 'none'})]);
  const read = (v, input) => (typeof v === 'boolean' ? input.value === 'true' : input.value === '' ? null : Number(input.value));
  const changed = () => fields.map(([name, v, input]) => [name, v, read(v, input)]).filter(([, v, now]) => now !== v);
  const state = h('p', {class: 'custom-state', 'aria-live': 'polite'});
  const show = () => {
    const diff = changed();
    mount(state, diff.length ? [h('strong', {}, `A custom format ("${preset.name} (custom)"), ${diff.length} `
      + `change${diff.length > 1 ? 's' : ''}:`), h('ul', {}, diff.map(([name, v, now]) => h('li', {}, `${said(name)} `,
      h('strong', {}, `${words(info[name], v)} → ${words(info[name], now)}`))))]
      : `Exactly the ${preset.name} format as described.`);
  };
  show();
  return [[
    h('h2', {}, 'The format in full'), h('p', {class: 'summary'}, preset.summary), list(all.filter(([name]) => used(name)), 'params'),
    other.length > 0 && h('details', {class: 'other-params'}, h('summary', {class: 'btn btn-link'},
      `Settings other formats use (${other.length})`), h('p', {class: 'hint'}, 'This format does not use them.'),
    list(other, 'params-other')),
    h('details', {class: 'card custom', oninput: show, onchange: show},
      h('summary', {class: 'btn btn-link'}, 'Custom format: change its numbers'),
      h('p', {class: 'hint'}, 'A combination that makes no sense is refused with the reason.'),
      fields.map(([name, , input]) => h('div', {class: 'field'}, lab(input, said(name)), input))),
    state],
  () => Object.fromEntries(changed().map(([name, , now]) => [name, now]))];
}

/** The organizer link, shown once: the server answers the key only when the event is made. */
async function created(main, event) {
  let kept = 'This device keeps the key: the console is under "Your events" on the home screen.';
  try { await api.adoptKey(event.organizer_key); } catch (error) {
    kept = `This device could not keep the key (${error.message}): open the link to keep it.`;
  }
  const link = event.links.organizer;
  setTitle(event.name);
  mount(main, h('h1', {class: 'page-title'}, `${event.name} is ready`),
    h('section', {class: 'card once', role: 'alert'}, h('h2', {}, 'Your organizer link: shown only this once'),
      h('p', {}, 'It opens the console on any device and can change everything: save it now (copy it, '
        + 'or photograph the QR code) and share it only with people running the event.'),
      linkBox('Organizer link', link, await calls.qr(link, 'Organizer').catch(() => null)), h('p', {class: 'hint'}, kept)),
    card('For the table runners', h('p', {}, 'Event code ', h('strong', {class: 'big-code'}, event.code),
      ' · join PIN ', h('strong', {class: 'big-code'}, event.join_pin))),
    h('p', {class: 'actions'}, h('a', {class: 'btn btn-primary', href: `/e/${event.id}/organize/players`}, 'Add players'),
      h('a', {class: 'btn', href: `/e/${event.id}/organize`}, 'Open the console')));
}

/** /organize/new: pick a preset, see it in plain words, change it if need be. */
export async function render(main) {
  setTitle('New event');
  document.body.classList.add('console');
  await load(main, calls.presets, (presets) => {
    let chosen = presets.find((p) => p.key === 'progressive') || presets[0];
    let changes;
    const detail = h('div', {class: 'format-detail'});
    const show = () => { let kids; [kids, changes] = format(chosen); mount(detail, kids); };
    const name = inp('event-name', {required: true, maxlength: 120, placeholder: 'Friday night euchre'});
    const out = msg();
    const submit = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Create the event');
    show();
    mount(main, h('h1', {class: 'page-title'}, 'Create an event'), h('form', {class: 'card form create-form', onsubmit: async (e) => {
      e.preventDefault();
      // Only what the organizer changed: an untouched preset is created as exactly that preset.
      const overrides = changes();
      // Sent once, never retried: a repeat would make a second event whose key nobody sees.
      const event = await act(submit, out, () => calls.createEvent({name: name.value.trim(), preset: chosen.key,
        ...(Object.keys(overrides).length ? {overrides} : {})}), 'Creating…');
      if (event) await created(main, event);
    }}, lab(name, 'Event name'), name,
    h('fieldset', {class: 'presets'}, h('legend', {}, 'Format'), presets.map((p) => h('label', {class: 'preset-option'},
      h('input', {type: 'radio', name: 'preset', value: p.key, checked: p === chosen, onchange: () => { chosen = p; show(); }}),
      h('strong', {}, p.name)))),
    detail, out, submit));
  });
}
