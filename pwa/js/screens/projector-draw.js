/**
 * The door-prize draw on the projector: when the organizer draws (Prizes section), the winners'
 * names fill the screen for a minute, then the standings come back (a tap dismisses it
 * sooner). A draw already old when the projector opened is not shown again.
 */

import {button, h, mount} from '../dom.js';

const SHOW_MS = 60000;
const FRESH_MS = 90000;  // a draw this recent when the projector opens is still news

export function drawOverlay() {
  const names = h('ol', {class: 'proj-draw-names'});
  const title = h('h2', {class: 'proj-draw-title'});
  const el = h('section', {class: 'proj-draw', hidden: true, role: 'alert', 'aria-label': 'Door prize'},
    title, names, button('Back to the standings', () => hide(), {class: 'btn proj-draw-close'}));
  let seen = null;
  let timer = null;

  function hide() {
    el.hidden = true;
    clearTimeout(timer);
  }

  function update(board) {
    const draw = board.draw;
    if (!draw) return;
    if (seen === null) {
      seen = draw.number;
      if (Date.now() - Date.parse(draw.at) > FRESH_MS) return;
    } else if (draw.number === seen) {
      return;
    }
    seen = draw.number;
    title.textContent = draw.winners.length > 1 ? 'Door prizes' : 'Door prize';
    mount(names, draw.winners.map((w) => h('li', {}, w.name || '?')));
    el.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(hide, SHOW_MS);
  }

  return {el, update, stop: hide};
}
