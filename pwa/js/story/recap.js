/**
 * The night's story (issue 30): a finished night's recap in plain words, every sentence
 * written by the server from a fact of the night's hands. Loaded on first use by the finished
 * board and the club's page; "Print the story" prints it alone (recap.css).
 */

import * as api from '../api.js';
import {button, h} from '../dom.js';

const CSS = '/js/story/recap.css';
if (!document.querySelector(`link[href="${CSS}"]`)) document.head.append(h('link', {rel: 'stylesheet', href: CSS}));

function printAlone(section) {
  document.body.classList.add('print-story');
  section.classList.add('printing');
  const done = () => {
    document.body.classList.remove('print-story');
    section.classList.remove('printing');
  };
  window.addEventListener('afterprint', done, {once: true});
  window.print();
}

/** A card with the night's story, or null when the night has none (not finished, or no game
 * over). `title`: the card's heading; `link`: where the event's name leads (the club's page). */
export async function recapCard(eventId, {title = 'The night’s story', link = null} = {}) {
  let answer;
  try {
    answer = await api.request('GET', `/api/events/${eventId}/recap`);
  } catch { return null; }
  const recap = answer.data;
  if (answer.status !== 200 || !recap?.sentences?.length) return null;
  const section = h('section', {class: 'card recap', 'aria-label': title},
    h('h2', {}, link ? h('a', {href: link}, recap.name) : title),
    link && h('p', {class: 'hint'}, recap.night_date),
    h('ul', {class: 'plain-list recap-lines'}, recap.sentences.map((s) => h('li', {}, s.text))));
  if (!link) section.append(h('p', {class: 'actions no-print'}, button('Print the story', () => printAlone(section))));
  return section;
}
