/** /e/<id>/organize[#key=...]: the event at a glance, what to do next, and marking it finished. */

import {h, mount} from '../dom.js';
import {navigate} from '../nav.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {card, does, load, msg, plain} from './ui.js';

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'home', 'Event');
  if (!framed) return;
  const base = `/e/${id}/organize`;
  await load(framed.body, () => Promise.all([calls.event(id), calls.rounds(id), calls.next(id)]), ([event, rounds, plan]) => {
    const now = rounds.filter((r) => r.status !== 'scheduled').at(-1);
    // After the last round there is no next one: the server's preview says so (and why).
    const complete = !plan.ready && plan.code === 'event-complete';
    const [text, path, label] = !(event.players || event.teams) ? ['Nobody is registered yet.', '/players', 'Add players']
      : event.status === 'finished' ? ['The event is finished: its standings are final.', '/standings', 'Standings']
        : !now ? ['Nobody is seated yet.', '/rounds', 'Seat round 1']
          : now.status === 'playing' ? [`${now.label} is being played: ${now.progress.finished} of `
            + `${now.progress.tables} tables finished.`, '/rounds', `Follow ${now.label}`]
            : complete ? [`${now.label} is closed. ${plan.reason}`, '/standings', 'Standings']
              : [`${now.label} is closed.`, '/rounds', 'Next round'];
    const link = (href, words) => h('li', {}, h('a', {class: 'btn btn-link', href}, words));
    const finished = event.status === 'finished';
    const out = msg();
    mount(framed.body,
      card('Next', h('p', {class: 'next-step'}, text), h('a', {class: 'btn btn-primary', href: base + path}, label)),
      card(event.format.name, h('p', {}, event.format.summary),
        h('p', {}, `${event.players} players${event.teams ? ` in ${event.teams} teams` : ''} · `
          + `${event.rounds} of ${plain(event.format.parameters.rounds)} rounds seated`)),
      card('For everyone', h('ul', {class: 'link-list'}, link(`/e/${id}/run`, 'Enter hands at any table'),
        link(`${base}/standings`, 'Standings'), link(`/e/${id}/board`, 'Public leaderboard'),
        link(`/e/${id}/projector`, 'Projector mode'))),
      card(finished ? 'The event is finished' : 'When it is over',
        h('p', {class: 'hint'}, finished ? 'Its standings are final. Open it again to seat or correct more.'
          : 'Mark the event finished once the prizes are given. It can be opened again.'),
        does(finished ? 'Open the event again' : 'Mark the event finished', out,
          () => calls.setEvent(id, {status: finished ? 'open' : 'finished'}),
          () => navigate(base, {replace: true}), {sure: finished ? 'Tap again to open it' : 'Tap again: it is finished'}),
        out));
  });
}
