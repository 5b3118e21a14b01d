/** What is still on this phone: hands not sent yet (in order) and hands the server refused. */

import * as api from '../api.js';
import {button, h, mount, setTitle} from '../dom.js';

const when = (ms) => new Date(ms).toLocaleTimeString([], {hour: '2-digit', minute: '2-digit'});

export async function render(main) {
  setTitle('Not sent yet');
  // Both are keyed by the hand's id, which a retry keeps (its place in the outbox, seq, does not):
  // a "Discard" tapped while a retry was on its way still asks "Yes, discard it" afterwards.
  let confirm = null;
  let retrying = null;
  let sending = false;

  async function draw() {
    const [pending, refused] = await Promise.all([api.outboxPending(), api.outboxRefused()]);
    pending.sort((a, b) => a.seq - b.seq);
    mount(main,
      h('h1', {class: 'page-title'}, 'Hands on this phone'),
      h('section', {class: 'card'},
        h('h2', {}, `Not sent yet (${pending.length})`),
        pending.length
          ? h('ol', {class: 'plain-list outbox-list'}, pending.map((e) => h('li', {},
            h('p', {}, e.label || `Game ${e.gameId}`),
            h('p', {class: 'hint'}, `Entered ${when(e.createdAt)}`,
              e.attempts ? ` · tried ${e.attempts}×` : ''),
            // Why it waits: the network, or no key for its table on this phone (which holds
            // back only that table's hands).
            e.lastError && h('p', {class: e.attempts ? 'hint' : 'note'}, e.lastError),
            h('a', {class: 'btn btn-small', href: `/e/${e.eventId}/games/${e.gameId}`},
              'Open the game'))))
          : h('p', {}, 'Nothing waiting: every hand entered here has reached the server.'),
        pending.length > 0 && button(sending ? 'Sending…' : 'Send now', async () => {
          sending = true;
          await draw();
          await api.flush();
          sending = false;
          draw();
        }, {class: 'btn-primary', disabled: sending})),
      h('section', {class: 'card'},
        h('h2', {}, `Refused by the server (${refused.length})`),
        refused.length
          ? h('ol', {class: 'plain-list refused-list'}, refused.map((e) => h('li', {},
            h('p', {}, e.label || `Game ${e.gameId}`),
            h('p', {class: 'error'}, e.detail),
            h('div', {class: 'row-actions'},
              button(retrying === e.handId ? 'Trying again…' : 'Try again', async (ev) => {
                // The row's buttons stop at once (before the redraw, which reads the phone's
                // store): nothing on it can be tapped while the hand is on its way again.
                ev.currentTarget.closest('li').querySelectorAll('button')
                  .forEach((b) => { b.disabled = true; });
                retrying = e.handId;
                try {
                  await draw();
                  await api.retryRefused(e.seq);
                } finally {
                  retrying = null;
                  draw();
                }
              }, {disabled: retrying === e.handId}),
              confirm === e.handId
                ? button('Yes, discard it', async () => {
                  await api.discardRefused(e.seq);
                  confirm = null;
                  draw();
                }, {class: 'btn-danger'})
                : button('Discard', () => { confirm = e.handId; draw(); },
                  {disabled: retrying === e.handId}),
              h('a', {class: 'btn', href: `/e/${e.eventId}/games/${e.gameId}`}, 'Open the game')))))
          : h('p', {}, 'None.')));
  }

  await draw();
  const stop = api.on('outbox', () => draw());
  return stop;
}
