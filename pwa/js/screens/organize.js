/**
 * /e/<id>/organize[#key=...]: the organizer console's first screen: the event at a glance and
 * the next thing to do. The sections (access, players, rounds, ...) are in pwa/js/console/.
 */

import * as calls from '../console/calls.js';
import {frame} from '../console/frame.js';
import {act, confirmButton, load, msg, plain} from '../console/ui.js';
import {h, mount} from '../dom.js';
import {navigate} from '../router.js';

function nextStep(base, event, rounds) {
  const current = rounds.filter((r) => r.status !== 'scheduled').at(-1);
  const entrants = event.format.parameters.entry === 'team' ? event.teams : event.players;
  const [text, path, label] = !entrants
    ? ['Nobody is registered yet.', '/players', 'Add players']
    : !current ? ['Nobody is seated yet: preview round 1, then seat it.', '/rounds', 'Seat round 1']
      : current.status === 'playing'
        ? [`${current.label} is being played: ${current.progress.finished} of `
          + `${current.progress.tables} tables finished.`, '/rounds', `Follow ${current.label}`]
        : [`${current.label} is closed.`, '/rounds', 'Next round'];
  return h('section', {class: 'card next-step'}, h('h2', {}, 'Next'), h('p', {}, text),
    h('a', {class: 'btn btn-primary', href: base + path}, label));
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'home', 'Event');
  if (!framed) return;
  const base = `/e/${id}/organize`;
  await load(framed.body, async () => [await calls.event(id), await calls.rounds(id)],
    ([event, rounds]) => {
      const out = msg();
      const finished = event.status === 'finished';
      mount(framed.body,
        nextStep(base, event, rounds),
        h('section', {class: 'card'},
          h('h2', {}, event.format.name),
          h('p', {}, event.format.summary),
          h('p', {}, `${event.players} players`, event.teams ? ` in ${event.teams} teams` : '',
            ` · ${event.rounds} of ${plain(event.format.parameters.rounds)} rounds seated`)),
        h('section', {class: 'card'},
          h('h2', {}, 'For everyone'),
          h('ul', {class: 'link-list'},
            h('li', {}, h('a', {class: 'btn btn-link', href: `/e/${id}/run`}, 'Enter hands at any table')),
            h('li', {}, h('a', {class: 'btn btn-link', href: `/e/${id}/board`}, 'Leaderboard')),
            h('li', {}, h('a', {class: 'btn btn-link', href: `/e/${id}/projector`}, 'Projector mode')))),
        h('section', {class: 'card'},
          h('h2', {}, finished ? 'The event is finished' : 'When it is over'),
          h('p', {class: 'hint'}, finished ? 'Reopen it to seat or correct more.'
            : 'Mark the event finished once the prizes are given (it can be reopened).'),
          confirmButton(finished ? 'Reopen the event' : 'Mark the event finished', 'Tap again to confirm',
            async (btn) => {
              if (await act(btn, out, () => calls.setEvent(id, {status: finished ? 'open' : 'finished'}))) {
                navigate(base, {replace: true});
              }
            }), out));
    });
}
