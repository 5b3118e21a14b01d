/** Pieces the console's screens share: writes that show they are pending, messages, links, QR. */

import {OfflineError} from '../api.js';
import {button, h, mount} from '../dom.js';

export const msg = (cls = '') => h('p', {class: ['msg', cls], role: 'status', hidden: true});
export const card = (title, ...kids) => h('section', {class: 'card'}, h('h2', {}, title), kids);
export const inp = (id, attrs = {}) => h(attrs.rows ? 'textarea' : 'input',
  {id, class: 'input', autocomplete: 'off', ...attrs});
export const lab = (el, text) => h('label', {for: el.id}, text);
export const query = () => new URLSearchParams(location.search);

/** Fill a message line; kind: 'ok' | 'error' | 'info'. */
export function say(el, text, kind = 'ok', extra = null) {
  el.hidden = !text;
  el.classList.remove('msg-ok', 'msg-error', 'msg-info');
  el.classList.add(`msg-${kind}`);
  mount(el, text || '', extra);
}

/** Why a call failed. A write with no answer may or may not be stored: say so, never pretend. */
export function failure(error, reading = false) {
  if (!(error instanceof OfflineError)) return error.message;
  return reading ? `${error.message} Check the connection and try again.`
    : `Not saved: ${error.message} The screen shows only what the server confirmed; try again.`;
}

const renumber = (text, shift) => text.replace(/\bLine (\d+)/g, (_, n) => `Line ${n - shift}`);

/** The problem's `errors` as a list ("Line 3: The name is empty."); `shift` renumbers lines.
 * Nothing when there are none (a network failure, a refusal without field errors); a line the
 * message above it already says (`said`) is not said twice. */
export function problemLines(error, shift = 0, said = '') {
  const out = [];
  const walk = (v, where) => {
    if (v === null || v === undefined || v === '') return;
    if (Array.isArray(v)) v.forEach((x) => walk(x, where));
    else if (typeof v === 'object') Object.entries(v).forEach(([k, x]) => walk(x, k === 'json' ? where : k));
    else out.push(where ? `${renumber(where.charAt(0).toUpperCase() + where.slice(1), shift)}: ${v}` : String(v));
  };
  walk(error?.problem?.errors, '');
  const fresh = out.filter((line) => !said.includes(line));
  return fresh.length ? h('ul', {class: 'problem-lines'}, fresh.map((line) => h('li', {}, line))) : null;
}

/** The console's polite voice for screen readers: a write starting and ending (its refusal is
 * read from its own message line). */
const voice = h('p', {id: 'console-voice', class: 'sr-only', role: 'status', 'aria-live': 'polite'});
document.body.append(voice);

/** Run a write from a button: disabled and saying `pending` until the server answered (its
 * accessible name too, with aria-busy, and said aloud); on failure the reason goes to `out`
 * and null comes back. */
export async function act(btn, out, work, pending = 'Saving…', shift = 0) {
  const label = btn.textContent;
  const named = btn.getAttribute('aria-label');
  const name = named || label;
  btn.disabled = true;
  btn.textContent = pending;
  btn.setAttribute('aria-busy', 'true');
  if (named) btn.setAttribute('aria-label', `${pending} ${named}`);
  voice.textContent = `${pending} ${name}`;
  say(out, '');
  try {
    const done = await work();
    voice.textContent = `${name}: done.`;
    return done;
  } catch (error) {
    voice.textContent = '';
    const message = renumber(failure(error), shift);
    say(out, message, 'error', problemLines(error, shift, message));
    // The refusal is read where the organizer is looking, not somewhere off the screen.
    out.scrollIntoView?.({block: 'nearest'});
    return null;
  } finally {
    btn.disabled = false;
    btn.textContent = label;
    btn.removeAttribute('aria-busy');
    if (named) btn.setAttribute('aria-label', named);
  }
}

/** A button running a write, then `then(result)` once the server confirmed it. With `sure` (a
 * label, or a function giving it), a second tap is needed (for changes that are hard to undo). */
export function does(label, out, work, then, {pending, sure, ...attrs} = {}) {
  let armed = null;
  const named = attrs['aria-label'];
  const name = (text) => named && btn.setAttribute('aria-label', text ? `${named} · ${text}` : named);
  const reset = () => { clearTimeout(armed); armed = null; btn.textContent = label; name(''); btn.classList.remove('armed'); };
  const btn = button(label, async () => {
    if (sure && !armed) {
      btn.textContent = typeof sure === 'function' ? sure() : sure;
      name(btn.textContent);
      btn.classList.add('armed');
      armed = setTimeout(reset, 5000);
      return;
    }
    reset();
    const result = await act(btn, out, work, pending);
    if (result) then?.(result);
  }, attrs);
  return btn;
}

/** Save a Blob (an export fetched with the key) to the downloads, as `name`. */
export function saveFile(blob, name) {
  const link = h('a', {href: URL.createObjectURL(blob), download: name, hidden: true});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 30000);
}

/** A link to hand out, with Copy and (given `qr`) its QR code. */
export function linkBox(label, link, qr = null) {
  const field = inp(`l${Math.random().toString(36).slice(2, 8)}`, {class: 'input link-field', readonly: true, value: link});
  const done = msg();
  return h('div', {class: 'link-box'}, lab(field, label), field,
    button('Copy', async () => {
      field.select();
      try { await navigator.clipboard.writeText(link); say(done, 'Copied.'); } catch { say(done, 'Selected: copy it.'); }
    }, {'aria-label': `Copy: ${label}`}),
    done, qr && h('img', {class: 'qr', src: qr, alt: `QR code: ${label}`, width: 176, height: 176}));
}

/** A preset parameter's value in words. */
export const plain = (v) => (v === true ? 'yes' : v === false ? 'no' : v === null || v === undefined ? 'none'
  : Array.isArray(v) ? v.map((x) => [x].flat().join(' → ')).join(', ') : String(v));

/** A table's two sides: team names, or the partners on each side (as the server says). */
export function sides(table) {
  const by = (side) => table.seats.filter((s) => s.side === side).map((s) => s.name).join(' & ');
  return {A: table.team_a?.name || by('A'), B: table.team_b?.name || by('B')};
}

/** "Loading…", then `paint(data)`, or the error with Try again. */
export async function load(el, work, paint) {
  mount(el, h('p', {class: 'loading'}, 'Loading…'));
  try {
    paint(await work());
  } catch (error) {
    mount(el, h('p', {class: 'error', role: 'alert'}, failure(error, true)),
      button('Try again', () => load(el, work, paint)));
  }
}
