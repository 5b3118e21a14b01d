/** Building the page: a tiny element helper (no innerHTML, so names can never inject markup). */

/** Attributes whose value is text even when given a boolean: `value: true` is "true" (an
 * option's value), `'aria-pressed': false` is "false", not a missing attribute. */
const TEXT = /^(value$|aria-|data-)/;

/**
 * h('button', {class: 'big', onclick: fn, 'aria-pressed': 'true'}, 'text', child, [more])
 * Attributes: class, text, on<event> handlers; true/false for a boolean attribute (hidden,
 * disabled, selected, ...) sets it or leaves it out; value, aria-* and data-* are always text.
 * Never pass `style`: the CSP forbids inline style attributes; use a class.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'boolean' && TEXT.test(name)) { el.setAttribute(name, String(value)); continue; }
    if (value === false) continue;
    if (name === 'class') el.className = [value].flat(3).filter(Boolean).join(' ');
    else if (name === 'text') el.textContent = value;
    else if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace everything inside `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** mount(), the focus kept on the control of the same `data-k` (a redraw must not lose it). */
export function refill(el, ...children) {
  const focused = el.contains(document.activeElement) && document.activeElement.dataset?.k;
  mount(el, ...children);
  if (focused) el.querySelector(`[data-k="${focused}"]`)?.focus({preventScroll: true});
  return el;
}

/** A button that is at least 48 px tall (see app.css .btn). */
export function button(label, onclick, attrs = {}) {
  return h('button', {type: 'button', ...attrs, class: ['btn', attrs.class], onclick}, label);
}

/** Text for screen readers only. */
export function hidden(text) {
  return h('span', {class: 'sr-only'}, text);
}

let toastTimer = null;

/** A short message at the bottom (polite live region), optionally with one action (e.g. Undo).
 * Returns the toast's element (gone from the page once it closes), or null. */
export function toast(message, action = null, {ms = 7000, kind = 'info'} = {}) {
  const area = document.getElementById('toasts');
  if (!area) return null;
  clearTimeout(toastTimer);
  const close = () => area.replaceChildren();
  const actionButton = action && button(action.label, () => { close(); action.run(); },
    {class: 'toast-action'});
  const el = h('div', {class: ['toast', `toast-${kind}`]},
    h('span', {class: 'toast-text'}, message), actionButton,
    button('✕', close, {class: 'toast-close', 'aria-label': 'Close message'}));
  mount(area, el);
  toastTimer = setTimeout(close, ms);
  return el;
}

/** The banner under the bar: for things the runner must act on (a key no longer works). */
export function banner(content) {
  const el = document.getElementById('banner');
  if (!el) return;
  if (!content) { el.hidden = true; el.replaceChildren(); return; }
  mount(el, content);
  el.hidden = false;
}

/** Tell search engines to leave this page alone (a club's pages name people, RULES.md 9). */
export function setNoIndex(noindex) {
  let meta = document.querySelector('meta[name="robots"]');
  if (!noindex) {
    if (meta) meta.remove();
    return;
  }
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = 'robots';
    document.head.append(meta);
  }
  meta.content = 'noindex, nofollow';
}

export function setTitle(text) {
  const el = document.getElementById('bar-title');
  if (el) el.textContent = text || '';
  document.title = text ? `${text} · Euchre` : 'Euchre scorekeeper';
}
