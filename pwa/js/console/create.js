/**
 * /organize/new: create an event from a preset (its parameters in plain words, changes for a
 * custom format), then hand the organizer link over once: the server answers the key only once.
 */

import * as api from '../api.js';
import {button, h, mount, setTitle} from '../dom.js';
import {navigate} from '../router.js';
import * as calls from './calls.js';
import {act, linkBox, load, msg, plain} from './ui.js';

/** The preset's parameters as "meaning: value" rows. */
function parameters(preset) {
  return h('dl', {class: 'params'}, Object.entries(preset.parameters).map(([name, value]) => [
    h('dt', {}, preset.descriptions[name] || name), h('dd', {}, plain(value))]));
}

/** Inputs for the numbers and switches of a format; returns [element, () => overrides]. */
function customFields(preset) {
  const inputs = [];
  const rows = Object.entries(preset.parameters)
    .filter(([, v]) => v === null || typeof v === 'number' || typeof v === 'boolean')
    .map(([name, value]) => {
      const id = `p-${name}`;
      const input = typeof value === 'boolean'
        ? h('select', {id, class: 'input'}, h('option', {value: 'true', selected: value}, 'yes'),
          h('option', {value: 'false', selected: !value}, 'no'))
        : h('input', {id, class: 'input', type: 'number', inputmode: 'numeric', min: 0,
          value: value ?? '', placeholder: 'none'});
      inputs.push([name, value, input]);
      return h('div', {class: 'field'}, h('label', {for: id}, preset.descriptions[name] || name), input);
    });
  const read = () => {
    const out = {};
    for (const [name, value, input] of inputs) {
      const now = typeof value === 'boolean' ? input.value === 'true'
        : input.value === '' ? null : Number(input.value);
      if (now !== value) out[name] = now;
    }
    return out;
  };
  return [h('details', {class: 'card custom'},
    h('summary', {class: 'btn btn-link'}, 'Custom format: change its numbers'),
    h('p', {class: 'hint'}, 'Start from this preset and change what differs. A combination '
      + 'that makes no sense is refused with the reason.'), rows), read];
}

async function created(main, event) {
  let kept = '';
  try {
    await api.adoptKey(event.organizer_key);
  } catch (error) {
    kept = `This device could not keep the key (${error.message}): open the link below to keep it.`;
  }
  const link = event.links.organizer;
  let qr = null;
  try { qr = await calls.qr(link, `${event.name}: organizer`); } catch { /* the link is enough */ }
  setTitle(event.name);
  mount(main,
    h('h1', {class: 'page-title'}, `${event.name} is ready`),
    h('section', {class: 'card once', role: 'alert'},
      h('h2', {}, 'Your organizer link: shown only this once'),
      h('p', {}, 'It opens this event\'s console on any device and can change everything. Save '
        + 'it now (copy it somewhere safe, or photograph the QR code) and share it only with '
        + 'people who run the event.'),
      linkBox('Organizer link', link, qr),
      h('p', {class: kept ? 'error' : 'hint'}, kept || 'This device keeps the key: the console '
        + 'is under "Your events" on the home screen.')),
    h('section', {class: 'card'},
      h('h2', {}, 'For the table runners'),
      h('p', {}, 'Event code ', h('strong', {class: 'big-code'}, event.code), ' · join PIN ',
        h('strong', {class: 'big-code'}, event.join_pin)),
      h('p', {class: 'hint'}, 'Runner links, table cards and more are under Access and Print.')),
    h('p', {class: 'actions'}, h('a', {class: 'btn btn-primary', href: `/e/${event.id}/organize/players`},
      'Add players'), h('a', {class: 'btn', href: `/e/${event.id}/organize`}, 'Open the console')));
}

export async function render(main) {
  setTitle('New event');
  document.body.classList.add('console');
  await load(main, calls.presets, (presets) => {
    let chosen = presets.find((p) => p.key === 'progressive') || presets[0];
    const detail = h('div', {});
    const show = () => {
      const [fields, read] = customFields(chosen);
      readOverrides = read;
      mount(detail, h('h3', {}, `${chosen.name}: the format in full`), parameters(chosen), fields);
    };
    let readOverrides = () => ({});
    const name = h('input', {id: 'event-name', class: 'input', required: true, maxlength: 120,
      autocomplete: 'off', placeholder: 'Friday night euchre'});
    const out = msg();
    const submit = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Create the event');
    const form = h('form', {class: 'card form', onsubmit: async (e) => {
      e.preventDefault();
      const overrides = readOverrides();
      const body = {name: name.value.trim(), preset: chosen.key};
      if (Object.keys(overrides).length) body.overrides = overrides;
      // Sent once: a repeat would make a second event (its key would be lost).
      const event = await act(submit, out, () => calls.createEvent(body), 'Creating…');
      if (event) await created(main, event);
    }},
    h('label', {for: 'event-name'}, 'Event name'), name,
    h('fieldset', {class: 'presets'}, h('legend', {}, 'Format'),
      presets.map((p) => h('label', {class: 'preset-option'},
        h('input', {type: 'radio', name: 'preset', value: p.key, checked: p === chosen,
          onchange: () => { chosen = p; show(); }}),
        h('span', {}, h('strong', {}, p.name), h('span', {class: 'hint'}, p.summary))))),
    detail, out, submit);
    show();
    mount(main, h('h1', {class: 'page-title'}, 'Create an event'), form,
      h('p', {class: 'hint'}, 'Already have an event? Open its organizer link. ',
        button('Back home', () => navigate('/'), {class: 'btn-small'})));
  });
}
