/**
 * Pieces every console screen shares: a write from a button that shows it is pending and never
 * pretends, messages, the server's errors line by line, copyable links, QR images.
 */

import {OfflineError} from '../api.js';
import {button, h, mount} from '../dom.js';

/** A live message line (role=status); `say(el, text, 'error' | 'ok' | '')` fills it. */
export const msg = () => h('p', {class: 'msg', role: 'status', hidden: true});

export function say(el, text, kind = 'ok', extra = null) {
  if (!el) return;
  el.hidden = !text;
  el.className = ['msg', kind && `msg-${kind}`].filter(Boolean).join(' ');
  mount(el, text || '', extra);
}

/** Words for a failed call: the server's reason, or that nothing may have been saved. */
export function failure(error, reading = false) {
  if (error instanceof OfflineError) {
    if (reading) return `${error.message} Check the connection and try again.`;
    return `Not saved: ${error.message} The screen shows only what the server confirmed; try again.`;
  }
  return error.message;
}

/** The problem's field or line errors as a list ("Line 3: The name is empty."). `shift`
 * renumbers CSV lines (a pasted list has no header line). */
export function problemLines(error, shift = 0) {
  const out = [];
  const walk = (value, where) => {
    if (Array.isArray(value)) value.forEach((v) => walk(v, where));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, k === 'json' ? where : k);
    } else {
      const place = where.replace(/^line (\d+)$/, (_, n) => `line ${Number(n) - shift}`);
      out.push(`${place.charAt(0).toUpperCase()}${place.slice(1)}: ${value}`);
    }
  };
  walk(error?.problem?.errors || null, '');
  return out.length ? h('ul', {class: 'problem-lines'}, out.map((line) => h('li', {}, line))) : null;
}

/**
 * Run a write from a button. Until the server answers the button is disabled and says
 * `pending`; on failure the reason goes to `out` and null is returned (nothing is shown as
 * done that the server did not confirm).
 */
export async function act(btn, out, work, pending = 'Saving…', shift = 0) {
  const label = btn.textContent;
  btn.disabled = true;
  btn.textContent = pending;
  btn.setAttribute('aria-busy', 'true');
  say(out, '');
  try {
    return await work();
  } catch (error) {
    say(out, failure(error), 'error', problemLines(error, shift));
    return null;
  } finally {
    btn.disabled = false;
    btn.textContent = label;
    btn.removeAttribute('aria-busy');
  }
}

/** A button that asks for a second tap before a change that is hard to undo. */
export function confirmButton(label, sure, run, attrs = {}) {
  let armed = null;
  const btn = button(label, () => {
    if (!armed) {
      btn.textContent = sure;
      btn.classList.add('armed');
      armed = setTimeout(() => { armed = null; btn.textContent = label; btn.classList.remove('armed'); }, 5000);
      return;
    }
    clearTimeout(armed);
    armed = null;
    btn.textContent = label;
    btn.classList.remove('armed');
    run(btn);
  }, attrs);
  return btn;
}

/** A link to hand out: shown in full, with Copy (and its QR code when `qrSrc` is given). */
export function linkBox(label, link, qrSrc = null, note = '') {
  const id = `l${Math.random().toString(36).slice(2, 8)}`;
  const field = h('input', {id, class: 'input link-field', readonly: true, value: link});
  const done = msg();
  return h('div', {class: 'link-box'},
    h('label', {for: id}, label), field,
    h('div', {class: 'actions'},
      button('Copy', async () => {
        field.select();
        try { await navigator.clipboard.writeText(link); say(done, 'Copied.'); } catch { say(done, 'Selected: copy it with your device.'); }
      }, {'aria-label': `Copy: ${label}`}),
      h('a', {class: 'btn', href: link, target: '_blank', rel: 'noopener'}, 'Open')),
    done, note && h('p', {class: 'hint'}, note),
    qrSrc && h('img', {class: 'qr', src: qrSrc, alt: `QR code: ${label}`, width: 176, height: 176}));
}

/** "yes"/"no"/"none" and lists, for a preset parameter's value. */
export function plain(value) {
  if (value === true) return 'yes';
  if (value === false) return 'no';
  if (value === null || value === undefined || value === '') return 'none';
  if (Array.isArray(value)) return value.map((v) => (Array.isArray(v) ? v.join(' → ') : v)).join(', ');
  return String(value);
}

/** Names of a table's two sides (team names, or the partners by seat). */
export function sides(table) {
  const by = (odd) => table.seats.filter((s) => s.seat % 2 === (odd ? 1 : 0)).map((s) => s.name).join(' & ');
  return {A: table.team_a?.name || by(true), B: table.team_b?.name || by(false)};
}

/** Query parameters of the current address. */
export const query = () => new URLSearchParams(location.search);

/** Loading… then the content, or the error with a Retry button. */
export async function load(el, work, paint) {
  mount(el, h('p', {class: 'loading'}, 'Loading…'));
  try {
    paint(await work());
  } catch (error) {
    mount(el, h('p', {class: 'error', role: 'alert'}, failure(error, true)),
      button('Try again', () => load(el, work, paint)));
  }
}
