/**
 * The door QR on the projector while the check-in window is open: players scan it to check
 * themselves in. The door code is the organizer's to show, so it appears only on a screen
 * opened where the organizer key is kept (the console's "Projector mode"). Checked again every
 * 30 s: it goes when check-in closes or the code is rotated.
 */

import * as api from '../api.js';
import {h} from '../dom.js';

const CHECK_MS = 30000;

export function doorQr(eventId) {
  const img = h('img', {alt: 'QR code: check in at the door', width: 220, height: 220});
  const el = h('figure', {class: 'proj-door', hidden: true}, img, h('figcaption', {}, 'Scan to check in'));
  let shown = null;
  let timer = null;
  let stopped = false;
  const check = async () => {
    try {
      const key = (await api.keysOf(eventId)).find((k) => k.role === 'organizer')?.key;
      const times = key && (await api.request('GET', `/api/events/${eventId}/check-in-window`)).data;
      const link = times?.state === 'open'
        ? (await api.request('GET', `/api/events/${eventId}/door-token`, {key})).data?.link : null;
      if (link && link !== shown) {
        const svg = await api.request('POST', '/api/qr', {body: {text: link, title: 'Check in'}});
        img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.text)}`;
      }
      shown = link || null;
      el.hidden = !shown;
    } catch { /* no answer: keep what is shown */ }
    if (!stopped) timer = setTimeout(check, CHECK_MS);
  };
  check();
  return {el, stop: () => { stopped = true; clearTimeout(timer); }};
}
