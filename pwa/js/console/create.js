/** /organize/new: create an event from a preset, shown in plain words; the organizer link once. */

import * as api from '../api.js';
import {h, mount, setTitle} from '../dom.js';
import * as calls from './calls.js';
import {act, card, inp, lab, linkBox, load, msg, plain} from './ui.js';

/** The preset's parameters in words, and inputs to change its numbers and switches. */
function format(preset) {
  const said = (name) => preset.descriptions[name] || name;
  const fields = Object.entries(preset.parameters).filter(([, v]) => v === null || /number|boolean/.test(typeof v))
    .map(([name, v]) => [name, v, typeof v === 'boolean'
      ? h('select', {id: `p-${name}`, class: 'input'}, [true, false].map((x) => h('option', {value: x, selected: x === v}, plain(x))))
      : inp(`p-${name}`, {type: 'number', inputmode: 'numeric', min: 0, value: v ?? '', placeholder: 'none'})]);
  const changes = () => Object.fromEntries(fields.map(([name, v, input]) => [name, typeof v === 'boolean'
    ? input.value === 'true' : input.value === '' ? null : Number(input.value)]).filter(([name, v]) => v !== preset.parameters[name]));
  return [[h('dl', {class: 'params', 'aria-label': `${preset.name}, in full`},
    Object.entries(preset.parameters).map(([name, v]) => [h('dt', {}, said(name)), h('dd', {}, plain(v))])),
  h('details', {class: 'card'}, h('summary', {class: 'btn btn-link'}, 'Custom format: change its numbers'),
    h('p', {class: 'hint'}, 'A combination that makes no sense is refused with the reason.'),
    fields.map(([name, , input]) => [lab(input, said(name)), input]))], changes];
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
    const detail = h('div', {});
    const show = () => { let kids; [kids, changes] = format(chosen); mount(detail, kids); };
    const name = inp('event-name', {required: true, maxlength: 120, placeholder: 'Friday night euchre'});
    const out = msg();
    const submit = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Create the event');
    show();
    mount(main, h('h1', {class: 'page-title'}, 'Create an event'), h('form', {class: 'card form', onsubmit: async (e) => {
      e.preventDefault();
      const overrides = changes();
      // Sent once, never retried: a repeat would make a second event whose key nobody sees.
      const event = await act(submit, out, () => calls.createEvent({name: name.value.trim(), preset: chosen.key,
        ...(Object.keys(overrides).length ? {overrides} : {})}), 'Creating…');
      if (event) await created(main, event);
    }}, lab(name, 'Event name'), name,
    h('fieldset', {class: 'presets'}, h('legend', {}, 'Format'), presets.map((p) => h('label', {class: 'preset-option'},
      h('input', {type: 'radio', name: 'preset', value: p.key, checked: p === chosen, onchange: () => { chosen = p; show(); }}),
      h('span', {}, h('strong', {}, p.name), h('span', {class: 'hint'}, p.summary))))),
    detail, out, submit));
  });
}
