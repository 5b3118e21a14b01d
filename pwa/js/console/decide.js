/**
 * Who is who, in a club's event: when the club's registry has only near matches for a name
 * ("Ann B." when it has Ann Baker and Ann Brown), the server registers nobody and lists the
 * names with their candidates. The organizer picks, per name, one of the candidates or "a new
 * person", and the same registration is sent again with those decisions. Nothing is linked on
 * a guess, by the server or here.
 */

import {button, h, mount} from '../dom.js';

/**
 * Run `send(decisions)`; on a 'people-to-decide' refusal, ask in `panel` and return null (the
 * organizer's answer sends again and calls `then` with the result). Other errors are thrown.
 */
export async function registering(panel, send, then) {
  mount(panel);
  try {
    return await send(undefined);
  } catch (error) {
    if (error.code !== 'people-to-decide') throw error;
    ask(panel, error.problem.decisions || [], send, then);
    return null;
  }
}

function ask(panel, pending, send, then) {
  const chosen = new Map();
  const out = h('p', {class: 'msg', role: 'status', hidden: true});
  const go = button('Register with these choices', async () => {
    if (chosen.size < pending.length) {
      out.hidden = false;
      mount(out, `Choose for every name first (${pending.length - chosen.size} left).`);
      return;
    }
    go.disabled = true;
    try {
      const done = await send(Object.fromEntries(chosen));
      mount(panel);
      then(done);
    } catch (error) {
      out.hidden = false;
      mount(out, error.message);
    } finally {
      go.disabled = false;
    }
  }, {class: 'btn-primary'});
  mount(panel, h('div', {class: 'panel decide', role: 'group', 'aria-label': 'Who is who'},
    h('p', {class: 'warn'}, 'The club has people with names like these. Nobody was registered yet: '
      + 'say who each one is.'),
    pending.map((d, i) => h('fieldset', {class: 'decide-name'}, h('legend', {}, d.name),
      [...d.candidates.map((c) => [c.id, `Same person as ${c.name}`]), ['new', 'A new person']].map(([value, words]) =>
        h('label', {class: 'check'}, h('input', {type: 'radio', name: `decide-${i}`, value: String(value),
          onchange: () => chosen.set(d.name, value)}), ` ${words}`)))),
    go, out));
}
