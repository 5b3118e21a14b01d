/** The door, on the Players screen: the check-in window (in the event's time zone), the door
 * QR that lets players check themselves in (printable), and rotating its code. */

import * as api from '../api.js';
import {button, h, mount} from '../dom.js';
import * as calls from './calls.js';
import {organizerKey} from './frame.js';
import {card, does, inp, lab, linkBox, msg, say} from './ui.js';

const E = (id) => `/api/events/${id}`;

async function call(id, method, path, body) {
  const answer = await api.request(method, E(id) + path, {body, key: await organizerKey(id)});
  if (answer.status >= 400) throw new api.ApiError(answer.status, answer.data);
  return answer.data;
}

/** The door card; `event`: the event as the frame read it (its name, for the poster). */
export function doorCard(id, event) {
  const out = msg();
  const state = h('p', {class: 'door-window'});
  const opens = inp('window-opens', {type: 'datetime-local'});
  const closes = inp('window-closes', {type: 'datetime-local'});
  const qr = h('div');
  const zone = h('div');
  // What a phone scanning the door QR is told now, said where the QR is: until a window is
  // saved (or once it has closed) the QR only says "see the organizer at the desk".
  const reach = h('p', {class: 'msg door-reach', role: 'status', hidden: true});
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const shown = (w) => {
    opens.value = w.opens || '';
    closes.value = w.closes || '';
    say(state, `${w.message} (${w.time_zone})`, w.state === 'open' ? 'ok' : 'info');
    const reachWords = {
      'not-set': ['No check-in window is saved, so the door QR does not check anyone in yet: a phone that scans it is '
        + 'told check-in is not open. Save a window above (Opens, and Closes if you like) to open the door.', 'info'],
      'not-yet': ['The door QR starts checking players in when check-in opens; until then a phone that scans it '
        + 'is told when it opens.', 'info'],
      closed: ['Check-in has closed: the door QR now tells players to see you at the desk. Check late arrivals in '
        + 'below (Check in anyway).', 'info'],
      open: ['The door QR is live: players who scan it can check themselves in now.', 'ok'],
    }[w.state];
    if (reachWords) say(reach, ...reachWords); else say(reach, '');
    // The times are the event's local time: offer this device's zone when the event's differs.
    mount(zone, here && here !== w.time_zone && does(`Use ${here} (this device's time zone)`, out,
      () => calls.setEvent(id, {time_zone: here}), () => call(id, 'GET', '/check-in-window').then((n) => {
        shown(n);
        say(out, `Times are now in ${here}: check the window and save it again.`);
      }), {class: 'btn-small'}));
    return w;
  };
  const setWindow = (body) => call(id, 'PUT', '/check-in-window', body).then(shown);

  function paintQr(door) {
    if (!door.token) {
      mount(qr, h('p', {class: 'hint'}, 'Players check themselves in by scanning a door QR code, inside the window.'),
        does('Make the door QR', out, () => call(id, 'POST', '/door-token'), paintQr, {class: 'btn-primary'}));
      return;
    }
    calls.qr(door.link, 'Check in').then((image) => {
      const poster = h('article', {class: 'table-card-print', hidden: true},
        h('p', {}, event?.name || ''), h('p', {class: 'card-table'}, 'Check in here'),
        h('img', {class: 'card-qr', src: image, alt: 'QR code: self check-in', width: 220, height: 220}),
        h('p', {}, 'Scan with your phone\'s camera, find your name and tap it.'), h('p', {}, state.textContent));
      mount(qr, linkBox('Self check-in link (the door QR)', door.link, image),
        h('div', {class: 'actions'}, button('Print the door QR', () => printPoster(poster)),
          does('Rotate door code', out, () => call(id, 'POST', '/door-token'), (made) => {
            paintQr(made);
            say(out, 'New door code: the QR printed or shown before no longer works.');
          }, {sure: 'Tap again: the old QR stops working'})),
        poster);
    }, () => mount(qr, linkBox('Self check-in link', door.link)));
  }

  const section = card('Check-in window and door QR',
    h('p', {class: 'hint'}, 'After check-in closes only you can check someone in (Check in anyway).'),
    state, zone, h('div', {class: 'inline-form'}, h('span', {}, lab(opens, 'Opens'), opens),
      h('span', {}, lab(closes, 'Closes'), closes)),
    h('div', {class: 'actions'},
      does('Save the window', out, () => setWindow({opens: opens.value || null, closes: closes.value || null}), () => say(out, 'Saved.')),
      does('Clear', out, () => setWindow({opens: null, closes: null}), () => say(out, 'No window: check-in at the desk only.'),
        {class: 'btn-small'})),
    reach, qr, floodBox(id), out);
  call(id, 'GET', '/check-in-window').then(shown, () => {});
  call(id, 'GET', '/door-token').then(paintQr, (error) => say(out, error.message, 'error'));
  return section;
}

/** A flood of requests to be added (strangers with the door QR): decline every waiting one, or
 * those made since a time, in one step. Real walk-ins among them simply ask again. */
function floodBox(id) {
  const out = msg();
  const since = inp('decline-since', {type: 'datetime-local'});
  return h('div', {class: 'door-flood'},
    h('p', {class: 'hint'}, 'Flooded with requests to be added? Decline the waiting ones at once '
      + '(only those made since a time, if you give one).'),
    h('div', {class: 'inline-form'}, h('span', {}, lab(since, 'Made since (optional)'), since),
      does('Decline waiting requests', out, () => call(id, 'POST', '/door-requests/decline',
        since.value ? {since: since.value} : {}),
      (r) => say(out, r.declined ? `${r.declined} request${r.declined > 1 ? 's' : ''} declined.`
        : 'No request was waiting.'), {class: 'btn-small', sure: 'Tap again to decline them'})),
    out);
}

/** Print only the poster: everything else on the page is left out of the print for now. */
function printPoster(poster) {
  const others = [...document.querySelectorAll('main *:not(.table-card-print):not(.table-card-print *)')]
    .filter((el) => !el.contains(poster) && !el.classList.contains('no-print'));
  others.forEach((el) => el.classList.add('no-print'));
  poster.hidden = false;
  const back = () => {
    others.forEach((el) => el.classList.remove('no-print'));
    poster.hidden = true;
    window.removeEventListener('afterprint', back);
  };
  window.addEventListener('afterprint', back);
  window.print();
}
