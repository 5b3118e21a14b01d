/** /e/<id>/organize/access: code and PIN, runner, public and organizer links with QR codes,
 * the keys and revoking them. */

import * as api from '../api.js';
import {h, mount} from '../dom.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {card, does, inp, lab, linkBox, load, msg} from './ui.js';

const where = (table) => (table ? `table ${table}` : 'all tables');

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'access', 'Access');
  if (!framed) return;
  const issued = h('div', {class: 'issued'});
  const out = msg();
  const issue = (label, work, linkOf) => does(label, out, work, async (made) => {
    const [title, link] = linkOf(made);
    await reload();
    mount(issued, h('div', {class: 'card once'}, h('h3', {}, `${title}: shown once`),
      linkBox(title, link, await calls.qr(link, title).catch(() => null))));
    issued.scrollIntoView({block: 'nearest'});
  }, {pending: 'Issuing…'});
  const paint = ([access, keys]) => {
    const table = inp('runner-table', {type: 'number', min: 1, max: 1000, inputmode: 'numeric', placeholder: 'all tables'});
    mount(framed.body,
      card('Runners join with', h('p', {}, 'Event code ', h('strong', {class: 'big-code'}, access.code),
        ' · PIN ', h('strong', {class: 'big-code', 'data-k': 'pin'}, access.join_pin)),
      h('p', {class: 'hint'}, 'A new PIN stops the old one; runners already in keep working.'),
      access.wrong_pins?.advice && h('p', {class: 'warn', role: 'alert', 'data-k': 'wrong-pins'},
        `${access.wrong_pins.count} wrong PINs were tried in the last few minutes. If that `
        + 'was not your runners mistyping, make a new PIN: the guesses so far are then worth '
        + 'nothing.'),
      does('New PIN', out, () => calls.newPin(id), reload, {sure: 'Tap again for a new PIN'})),
      card('Runner links', h('p', {class: 'hint'}, 'A runner link opens the game screen without the PIN: '
        + 'one a table, or one for all tables.'), lab(table, 'Table (empty: all tables)'), table,
      issue('Make a runner link', () => calls.issueKey(id, Number(table.value) || null, where(table.value)),
        (k) => [`Runner link, ${where(k.table)}`, k.link])),
      out, issued,
      card('Public links',
        linkBox('Leaderboard (players\' phones)', access.links.leaderboard, api.qrSvgUrl(id, 'board')),
        linkBox('Join page (runners type the PIN)', access.links.join, api.qrSvgUrl(id, 'join'))),
      card('Organizer', h('p', {class: 'hint'}, 'Another organizer link, for a second desk.'),
        issue('Another organizer link', () => calls.newOrganizerKey(id),
          (k) => ['Organizer link', `${access.links.organizer}#key=${k.organizer_key}`])),
      card('Keys', h('ul', {class: 'plain-list'}, keys.map((k) => {
        const what = k.role === 'organizer' ? 'Organizer' : `Runner, ${where(k.table)}`;
        return h('li', {class: ['key-row', k.revoked && 'revoked']},
          h('span', {}, h('strong', {}, what), ` · ${k.label} · …${k.hint}`,
            k.role === 'organizer' && framed.key.endsWith(k.hint) ? ' · this device' : '', k.revoked ? ' · revoked' : ''),
          !k.revoked && does('Revoke', out, () => calls.revokeKey(id, k.id), reload,
            {sure: 'Tap again: it stops working', class: 'btn-small', 'aria-label': `Revoke: ${what}, …${k.hint}`}));
      }))));
  };
  const reload = () => load(framed.body, () => Promise.all([calls.access(id), calls.keys(id)]), paint);
  await reload();
}
