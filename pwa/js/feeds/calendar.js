/**
 * "Add to calendar" (issue 31): a calendar feed's links, on the team page, the club page and the
 * event's board. webcal:// subscribes in the phone's calendar app (it reads the feed again, so a
 * moved match moves there too); the .ics link is the same feed to download or paste. In a league
 * whose calendars are private, the team's captain (team key) makes the team's secret link, or a
 * new one (the old one stops working), here. Loaded on first use, outside the runner's shell.
 */

import * as api from '../api.js';
import {button, h, mount} from '../dom.js';

const webcal = (url) => url.replace(/^https?:/, 'webcal:');
const absolute = (path) => new URL(path, location.origin).href;

function links(el, url, note) {
  mount(el, h('h2', {}, 'Add to calendar'),
    h('p', {class: 'actions'}, h('a', {class: 'btn btn-primary calendar-subscribe', href: webcal(url)}, 'Subscribe'),
      ' ', h('a', {class: 'btn calendar-ics', href: url, download: 'calendar.ics'}, 'Download .ics')),
    h('p', {class: 'hint'}, note || 'Your calendar app keeps it up to date: a moved night moves there too.'));
}

/** The event's feed (a league's weeks, or the night and its rounds), unless it is private. */
export async function eventCalendar(el, eventId) {
  const answer = await api.request('GET', `/api/events/${eventId}/calendar`);
  if (answer.status === 200 && answer.data.ics) links(el, answer.data.ics);
}

/** The club's nights. */
export function clubCalendar(el, clubId) {
  links(el, absolute(`/api/clubs/${clubId}/calendar.ics`), 'Every club night, kept up to date in your calendar app.');
}

/** A league team's matches: the public feed, or the team's secret link in a private league. */
export async function teamCalendar(el, eventId, teamId, key) {
  const path = `/api/events/${eventId}/teams/${teamId}/calendar`;
  const league = await api.request('GET', `/api/events/${eventId}/calendar`);
  if (league.status !== 200) return;
  if (!league.data.private) { links(el, absolute(`${path}.ics`)); return; }
  if (!key) {
    mount(el, h('h2', {}, 'Add to calendar'), h('p', {class: 'hint'}, "This league's calendars are private: your captain has your team's link."));
    return;
  }
  const paint = (data) => {
    const make = button(data.ics ? 'New link (the old one stops)' : 'Make a calendar link', async () => {
      make.disabled = true;
      const made = await api.request('POST', path, {key});
      if (made.status === 201) paint(made.data); else make.disabled = false;
    }, {class: 'btn-small calendar-new'});
    if (data.ics) {
      links(el, data.ics, 'Share it with your team only: anyone with the link sees your schedule.');
      el.append(h('p', {class: 'actions'}, make));
    } else {
      mount(el, h('h2', {}, 'Add to calendar'), h('p', {class: 'hint'}, "This league's calendars are private: make your team's link."), make);
    }
  };
  const mine = await api.request('GET', path, {key});
  if (mine.status === 200) paint(mine.data);
}
