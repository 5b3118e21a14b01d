/**
 * /e/<id>/organize/access: what to hand out. The event code and join PIN, the public links with
 * their QR codes, runner links (all tables or one), another organizer key, and every key with
 * Revoke. Secrets are answered once by the server, so a new link is shown once, here.
 */

import * as api from '../api.js';
import {button, h, mount} from '../dom.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {act, confirmButton, linkBox, load, msg} from './ui.js';

function keyRow(id, key, mine, reload) {
  const out = msg();
  const what = key.role === 'organizer' ? 'Organizer'
    : key.table ? `Runner, table ${key.table}` : 'Runner, all tables';
  return h('li', {class: ['key-row', key.revoked && 'revoked']},
    h('span', {}, h('strong', {}, what), ` · ${key.label || 'no label'} · ends in …${key.hint}`,
      mine ? ' · this device' : '', key.revoked ? ' · revoked' : ''),
    !key.revoked && confirmButton('Revoke', 'Tap again: it stops working', async (btn) => {
      if (await act(btn, out, () => calls.revokeKey(id, key.id), 'Revoking…')) reload();
    }, {'aria-label': `Revoke: ${what}, ${key.label}, …${key.hint}`, class: 'btn-small'}), out);
}

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'access', 'Access');
  if (!framed) return;
  const issued = h('div', {class: 'issued', 'aria-live': 'polite'});
  const show = async (label, link, note) => {
    let qr = null;
    try { qr = await calls.qr(link, label); } catch { /* the link alone still works */ }
    mount(issued, h('div', {class: 'card once'}, h('h3', {}, `${label}: shown once`),
      linkBox(label, link, qr, note)));
    issued.scrollIntoView({block: 'nearest'});
  };
  const paint = ([access, keys]) => {
    const out = msg();
    const pinOut = msg();
    const table = h('input', {id: 'runner-table', class: 'input', type: 'number', min: 1,
      max: 1000, inputmode: 'numeric', placeholder: 'all tables'});
    const mineHint = framed.key.slice(-4);
    mount(framed.body,
      h('section', {class: 'card'},
        h('h2', {}, 'Runners join with'),
        h('p', {class: 'join-words'}, 'Event code ', h('strong', {class: 'big-code'}, access.code),
          ' · PIN ', h('strong', {class: 'big-code', 'data-k': 'pin'}, access.join_pin)),
        h('p', {class: 'hint'}, 'Announce them, or hand out the runner links below. A new PIN '
          + 'stops the old one (runners already in keep working).'),
        confirmButton('New PIN', 'Tap again for a new PIN', async (btn) => {
          if (await act(btn, pinOut, () => calls.newPin(id), 'Issuing…')) reload();
        }), pinOut),
      h('section', {class: 'card'},
        h('h2', {}, 'Runner links'),
        h('p', {class: 'hint'}, 'A runner link opens the table\'s game screen with no PIN. Give '
          + 'one per table, or one for all tables to a floor runner.'),
        h('label', {for: 'runner-table'}, 'Table (leave empty for all tables)'), table,
        button('Make a runner link', async (e) => {
          const n = table.value ? Number(table.value) : null;
          const key = await act(e.currentTarget, out, () => calls.issueKey(id, n,
            n ? `table ${n}` : 'all tables'), 'Issuing…');
          if (key) {
            await reload();
            await show(n ? `Runner link, table ${n}` : 'Runner link, all tables', key.link);
          }
        }, {class: 'btn-primary'}), out),
      issued,
      h('section', {class: 'card'},
        h('h2', {}, 'Public links'),
        linkBox('Leaderboard (players\' phones)', access.links.leaderboard, api.qrSvgUrl(id, 'board')),
        linkBox('Projector mode (the venue screen)', access.links.projector),
        linkBox('Join page (runners type the PIN)', access.links.join, api.qrSvgUrl(id, 'join'))),
      h('section', {class: 'card'},
        h('h2', {}, 'Organizer'),
        h('p', {class: 'hint'}, 'The organizer key was shown once. For a second desk, issue '
          + 'another organizer link; revoke any you no longer trust below.'),
        button('Another organizer link', async (e) => {
          const made = await act(e.currentTarget, out, () => calls.newOrganizerKey(id), 'Issuing…');
          if (made) {
            await reload();
            await show('Organizer link', `${access.links.organizer}#key=${made.organizer_key}`,
              'Anyone with it can change the event.');
          }
        })),
      h('section', {class: 'card'},
        h('h2', {}, 'Keys'),
        h('ul', {class: 'plain-list'}, keys.map((k) => keyRow(id, k, k.hint === mineHint
          && k.role === 'organizer', reload)))));
  };
  const reload = () => load(framed.body, () => Promise.all([calls.access(id), calls.keys(id)]),
    paint);
  reload();
}
