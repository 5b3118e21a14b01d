/**
 * /e/<id>/organize/webhooks: the URLs told of this event's news (docs/webhooks.md), each
 * secret shown once (at registration and after a rotation), and the delivery log: status,
 * attempts, the last error, and "Retry now". The club's manage page shows the same panel for
 * the club's webhooks (every event of the club), with the club key. Loaded on first use, with
 * its own size budget (tests/e2e/test_shell_files.py), not the console's.
 */

import * as api from '../api.js';
import {button, h, mount} from '../dom.js';
import {frame, organizerKey} from '../console/frame.js';
import {card, does, inp, lab, linkBox, load, msg} from '../console/ui.js';

const KINDS = {
  'hand.stored': 'a hand stored', 'game.agreed': 'a game agreed', 'round.closed': 'a round closed',
  'night.finished': 'the night finished', 'standings.changed': 'standings changed',
  mismatch: 'a mismatch', call: 'a call to the organizer',
};
const WHEN = (t) => (t ? new Date(t).toLocaleTimeString() : '');
// A claimed delivery waits for the receiver's answer: "sending", not a next time gone by.
const STATUS = (d) => {
  if (d.sending) return 'sending now';
  return d.status === 'pending' && d.next_at ? `pending, next ${WHEN(d.next_at)}` : d.status;
};

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'webhooks', 'Webhooks');
  if (framed) await panel(framed.body, `/api/events/${id}`, () => organizerKey(id));
}

/** The webhooks of `base` (/api/events/<id> or /api/clubs/<id>) and their log, in `body`. */
export async function panel(body, base, keyOf) {
  const call = async (method, path, data) => {
    const answer = await api.request(method, path, {body: data, key: await keyOf()});
    if (answer.status >= 400) throw new api.ApiError(answer.status, answer.data);
    return answer.data;
  };
  const out = msg();
  const shown = h('div', {class: 'issued'});
  let only = '';
  const once = (hook, title) => {
    mount(shown, h('div', {class: 'card once'}, h('h3', {}, `${title}: shown once`),
      h('p', {class: 'hint'}, 'Give it to the receiver: it checks every delivery\'s signature with it.'),
      linkBox(`Secret for ${hook.url}`, hook.secret)));
    shown.scrollIntoView({block: 'nearest'});
  };

  const deliveries = () => call('GET', `${base}/webhook-deliveries${only ? `?status=${only}` : ''}`);
  const logEl = h('div');
  let again = 0;
  const paintLog = (log) => {
    // A delivery being sent has its outcome in a moment: the log (only) is read again till then.
    clearTimeout(again);
    if (log.some((d) => d.sending)) {
      again = setTimeout(() => logEl.isConnected && deliveries().then(paintLog, () => {}), 1500);
    }
    mount(logEl, log.length ? h('table', {class: 'deliveries'},
      h('thead', {}, h('tr', {}, ['What', 'To', 'Status', 'Attempts', 'Last error', ''].map((t) => h('th', {}, t)))),
      h('tbody', {}, log.map((d) => h('tr', {class: `delivery-${d.status}`, 'data-id': d.id},
        h('td', {}, `${d.kind} · ${WHEN(d.created_at)}`), h('td', {'data-th': 'To'}, d.url),
        h('td', {'data-th': 'Status'}, STATUS(d)),
        h('td', {'data-th': 'Attempts'}, String(d.attempts)),
        h('td', {'data-th': 'Last error'}, d.last_error || (d.last_status ? `HTTP ${d.last_status}` : '')),
        h('td', {}, d.status !== 'delivered' && !d.sending && does('Retry now', out,
          () => call('POST', `/api/webhook-deliveries/${d.id}/redeliver`), reload,
          {class: 'btn-small', 'aria-label': `Retry now: ${d.kind} to ${d.url}`}))))))
      : h('p', {}, only ? 'No failed deliveries.' : 'No deliveries yet.'));
  };

  const paint = ([hooks, log]) => {
    const url = inp('hook-url', {type: 'url', placeholder: 'the receiver\'s https address'});
    const boxes = Object.entries(KINDS).map(([kind, words]) => {
      const box = inp(`kind-${kind.replace('.', '-')}`, {type: 'checkbox', checked: true, value: kind});
      return h('div', {class: 'check'}, box, lab(box, `${words} (${kind})`));
    });
    const kinds = () => boxes.map((b) => b.querySelector('input')).filter((b) => b.checked).map((b) => b.value);
    paintLog(log);
    mount(body,
      card('Register a URL', h('p', {class: 'hint'}, 'The server POSTs each piece of news to it, signed '
        + '(Standard Webhooks). Deliveries wait in the database and are retried if the receiver is down.'),
      lab(url, 'URL'), url, h('fieldset', {class: 'kinds'}, h('legend', {}, 'Tell it of'), boxes),
      does('Register', out, () => call('POST', `${base}/webhooks`, {url: url.value, kinds: kinds()}),
        (made) => { reload(); once(made, 'Signing secret'); }, {pending: 'Registering…'})),
      out, shown,
      card('Webhooks', hooks.length ? h('ul', {class: 'plain-list'}, hooks.map((w) => h('li', {class: 'hook-row'},
        h('span', {}, h('strong', {}, w.url), ` · ${w.kinds.join(', ')}`),
        does('New secret', out, () => call('POST', `/api/webhooks/${w.id}/secret`),
          (made) => { reload(); once(made, 'New signing secret'); },
          {sure: 'Tap again: the old secret stops', class: 'btn-small', 'aria-label': `New secret: ${w.url}`}),
        does('Delete', out, () => call('DELETE', `/api/webhooks/${w.id}`).then(() => true), reload,
          {sure: 'Tap again to delete', class: 'btn-small', 'aria-label': `Delete: ${w.url}`}))))
        : h('p', {}, 'None yet.')),
      card('Deliveries',
        h('p', {}, button(only ? 'Show all' : 'Failed only', () => { only = only ? '' : 'failed'; reload(); },
          {class: 'btn-small'}), ' ', button('Refresh', reload, {class: 'btn-small refresh'})),
        logEl));
  };
  const reload = () => load(body, () => Promise.all([call('GET', `${base}/webhooks`), deliveries()]), paint);
  await reload();
}
