/**
 * A small SVG chart of one figure per event over time (bars), drawn here: no chart library,
 * readable on a 360 px phone. Values of null (no hands to count) leave a gap. Its words are
 * 13 px (app.css) in a 320-wide picture drawn at least that wide, so never under 12 px on a
 * phone; as many labels as have room for that (every other one, every third... beyond).
 */

// The SVG namespace, as the HTML parser gives it (no address written here).
const NS = new DOMParser().parseFromString('<svg></svg>', 'text/html').body.firstChild.namespaceURI;
const W = 320;
const H = 150;
const PAD = {left: 40, right: 8, top: 18, bottom: 28};
const LABEL_ROOM = 48; // a date label ("Nov 27") in 13 px type, with a gap
const VALUE_ROOM = 36; // a value over its bar ("100%")

function el(tag, attrs, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** points: [{label, value}] oldest first; `format` writes a value (e.g. "67%"). */
export function barChart(title, points, {format = String, max = null} = {}) {
  const svg = el('svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', class: 'chart', 'aria-label': title});
  svg.append(el('title', {}, `${title}: ${points.map((p) => `${p.label} ${p.value === null ? 'none' : format(p.value)}`).join(', ')}`));
  const values = points.map((p) => p.value).filter((v) => v !== null);
  const top = max ?? Math.max(1, ...values);
  const low = Math.min(0, ...values);
  const span = top - low || 1;
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const y = (v) => PAD.top + innerH * (1 - (v - low) / span);
  svg.append(el('line', {x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0), class: 'chart-axis'}));
  svg.append(el('text', {x: PAD.left - 4, y: y(top) + 4, 'text-anchor': 'end', class: 'chart-label'}, format(top)));
  const slot = innerW / Math.max(points.length, 1);
  const bar = Math.min(28, slot * 0.7);
  const every = Math.ceil(LABEL_ROOM / slot);  // label every n-th bar
  points.forEach((p, i) => {
    const x = PAD.left + slot * i + (slot - bar) / 2;
    if (p.value !== null) {
      const [a, b] = [y(Math.max(p.value, 0)), y(Math.min(p.value, 0))];
      svg.append(el('rect', {x, y: a, width: bar, height: Math.max(1, b - a), class: 'chart-bar'}));
      if (slot >= VALUE_ROOM) {
        svg.append(el('text', {x: x + bar / 2, y: a - 3, 'text-anchor': 'middle', class: 'chart-value'}, format(p.value)));
      }
    }
    if (i % every === 0) {
      svg.append(el('text', {x: x + bar / 2, y: H - 10, 'text-anchor': 'middle', class: 'chart-label'}, p.label));
    }
  });
  return svg;
}
