/**
 * /c/<slug>/manage (with the club key): make the club's events, date its nights (the day each
 * was played, for series, profiles and charts), delete a night made by mistake or archive one
 * that has results, its series, and keep its registry of people right: rename, mark private,
 * merge two records of one person, move an entry linked to the wrong person. Every change is
 * in the club's log, shown below.
 *
 * /clubs/new: create a club; its key is shown once, with the link that opens this page.
 */

import {button, h, mount, setTitle} from '../dom.js';
import {adoptLinkKey, call, clubBySlug, clubKey, dateWords} from './keys.js';
import {personDataActions, privacyCard} from './privacy.js';

const say = (el, text, kind = 'ok') => {
  el.hidden = !text;
  el.className = `msg msg-${kind}`;
  mount(el, text || '');
};
const msg = () => h('p', {class: 'msg', role: 'status', hidden: true});

/** Run a write from a button: disabled until answered; the refusal, in words, in `out`. */
async function act(btn, out, work, done) {
  btn.disabled = true;
  try {
    const result = await work();
    await done(result);
  } catch (error) {
    say(out, error.message, 'error');
  } finally {
    btn.disabled = false;
  }
}

const field = (id, label, attrs = {}) => {
  const input = h('input', {id, class: 'input', autocomplete: 'off', ...attrs});
  return [input, h('label', {for: id}, label)];
};

export async function render(main, {slug}) {
  setTitle('Manage the club');
  let club;
  let key;
  try {
    const first = (await call('GET', `/api/clubs/by-slug/${encodeURIComponent(slug)}`)).data;
    const problem = await adoptLinkKey(first.id);
    ({club, key} = await clubBySlug(slug));
    if (!key) {
      mount(main, h('h1', {class: 'page-title'}, first.name), problem && h('p', {class: 'error', role: 'alert'}, problem),
        h('p', {}, 'This device has no club key. Open the club link you were given when the club was made '
          + '(it ends in #key=...).'));
      return;
    }
  } catch (error) {
    mount(main, h('p', {class: 'error', role: 'alert'}, error.message));
    return;
  }
  const base = `/api/clubs/${club.id}`;
  const reload = () => render(main, {slug});
  const presets = (await call('GET', '/api/presets')).data;

  // --- a new event of the club ------------------------------------------------------------
  const eventOut = msg();
  const [eventName, eventLabel] = field('club-event-name', 'Name', {placeholder: 'March night'});
  const preset = h('select', {id: 'club-event-preset', class: 'input'},
    presets.map((p) => h('option', {value: p.key}, p.name)));
  const makeEvent = button('Create the event', (e) => act(e.currentTarget, eventOut, () => call('POST', `${base}/events`,
    {key, body: {name: eventName.value.trim(), preset: preset.value}}), (made) => {
    // The event's organizer key, in its link: the console keeps it on this device.
    location.assign(`/e/${made.data.id}/organize#key=${made.data.organizer_key}`);
  }), {class: 'btn-primary'});

  // --- nights: the day each was played; one made by mistake deleted, or archived ------------
  const live = club.events.filter((e) => !e.archived);
  const nightRow = (e) => {
    const out = msg();
    const day = h('input', {type: 'date', class: 'input', id: `night-date-${e.id}`, value: e.date,
      'aria-label': `The day ${e.name} was played`});
    const actions = h('div', {class: 'actions'});
    const patch = (body) => () => call('PATCH', `${base}/events/${e.id}`, {key, body});
    const plain = () => mount(actions, day,
      button('Save the date', (ev) => act(ev.currentTarget, out, patch({date: day.value}), reload),
        {class: 'btn-small', 'aria-label': `Save the date of ${e.name}`}),
      button(e.archived ? 'Bring back' : 'Archive', (ev) => act(ev.currentTarget, out, patch({archived: !e.archived}), reload),
        {class: 'btn-small', 'aria-label': `${e.archived ? 'Bring back' : 'Archive'}: ${e.name}`}),
      button('Delete…', () => sure(), {class: 'btn-small', 'aria-label': `Delete ${e.name}`}));
    // Deleting asks once more, in place; a night with results is refused with the reason (archive).
    const sure = () => mount(actions, h('span', {}, `Delete ${e.name}? `),
      button('Yes, delete it', (ev) => act(ev.currentTarget, out, () => call('DELETE', `${base}/events/${e.id}`, {key}), reload),
        {class: 'btn-small btn-danger'}),
      button('Keep it', () => { say(out, ''); plain(); }, {class: 'btn-small'}));
    plain();
    return h('li', {class: 'person-admin night-admin', 'data-event': e.id},
      h('p', {}, h('a', {href: `/e/${e.id}/board`}, h('strong', {}, e.name)),
        h('span', {class: 'hint'}, ` · ${dateWords(e.date)}${e.archived ? ' · archived: out of the lists, series and profiles' : ''}`)),
      actions, out);
  };

  // --- series --------------------------------------------------------------------------------
  const seriesOut = msg();
  const [seriesName, seriesLabel] = field('series-name', 'Name', {placeholder: `${club.name} ${new Date().getFullYear()}`});
  const method = h('select', {id: 'series-method', class: 'input'}, h('option', {value: 'places'}, 'Points by place'),
    h('option', {value: 'total'}, 'Each event\'s total points'));
  const [table, tableLabel] = field('series-points', 'Points for 1st, 2nd, 3rd … (by place)', {value: '10, 8, 6, 5, 4, 3, 2, 1'});
  const [best, bestLabel] = field('series-best', 'Only the best N events count (optional)', {type: 'number', min: 1, inputmode: 'numeric'});
  const [least, leastLabel] = field('series-min', 'Events needed to be ranked (optional)', {type: 'number', min: 1, inputmode: 'numeric'});
  const picks = live.map((e) => h('input', {type: 'checkbox', value: e.id, id: `series-event-${e.id}`}));
  const number = (input) => (input.value ? Number(input.value) : null);
  const makeSeries = button('Create the series', (e) => act(e.currentTarget, seriesOut, () => call('POST', `${base}/series`, {key, body: {
    name: seriesName.value.trim(),
    scoring: method.value === 'places' ? {method: 'places', points: table.value.split(/[\s,;]+/).filter(Boolean).map(Number)}
      : {method: 'total'},
    best_of: number(best), min_events: number(least),
    event_ids: picks.filter((p) => p.checked).map((p) => Number(p.value)),
  }}), reload), {class: 'btn-primary'});
  const seriesCard = (s) => {
    const out = msg();
    return h('li', {class: 'series-admin'}, h('a', {href: `/c/${slug}/series/${s.id}`}, s.name),
      h('div', {class: 'checks'}, live.map((e) => {
        const box = h('input', {type: 'checkbox', checked: s.event_ids.includes(e.id),
          'aria-label': `${e.name} in ${s.name}`, onchange: () => call(box.checked ? 'PUT' : 'DELETE',
            `${base}/series/${s.id}/events/${e.id}`, {key}).then(() => say(out, `${s.name}: ${box.checked ? 'added' : 'took out'} ${e.name}.`),
            (error) => { box.checked = !box.checked; say(out, error.message, 'error'); })});
        return h('label', {class: 'check'}, box, ` ${e.name}`);
      })), out);
  };

  // --- people ----------------------------------------------------------------------------
  const peopleEl = h('ul', {class: 'plain-list club-admin-people'});
  const personRow = (p) => {
    const out = msg();
    const [rename] = field(`rename-${p.id}`, 'Name', {value: p.name, 'aria-label': `New name for ${p.name}`});
    const merge = h('select', {class: 'input', 'aria-label': `Another record of ${p.name}`},
      h('option', {value: ''}, 'Merge another record into this one…'),
      club.people.filter((o) => o.id !== p.id).map((o) => h('option', {value: o.id}, o.name)));
    const entries = h('ul', {class: 'plain-list entries'});
    return h('li', {class: 'person-admin', 'data-person': p.id},
      h('p', {}, h('a', {href: `/c/${slug}/people/${p.id}`}, h('strong', {}, p.name)),
        h('span', {class: 'hint'}, ` · ${p.events} event${p.events === 1 ? '' : 's'}`)),
      h('div', {class: 'actions'}, rename,
        button('Rename', (e) => act(e.currentTarget, out, () => call('PATCH', `${base}/people/${p.id}`,
          {key, body: {name: rename.value.trim()}}), reload), {'aria-label': `Rename ${p.name}`}),
        button(p.private ? 'Make public' : 'Make private', (e) => act(e.currentTarget, out,
          () => call('PATCH', `${base}/people/${p.id}`, {key, body: {private: !p.private}}), reload),
        {'aria-label': `${p.private ? 'Make public' : 'Make private'}: ${p.name}`})),
      personDataActions(p, base, key, act, out, reload),
      h('div', {class: 'actions'}, merge, button('Merge', (e) => {
        if (!merge.value) { say(out, 'Choose the other record first.', 'error'); return; }
        act(e.currentTarget, out, () => call('POST', `${base}/people/${p.id}/merge`, {key, body: {merge: Number(merge.value)}}), reload);
      }, {'aria-label': `Merge into ${p.name}`})),
      button('Entries…', async () => {
        const profile = (await call('GET', `${base}/people/${p.id}`, {key})).data;
        mount(entries, profile.events.map((e) => h('li', {}, `${e.name} (${dateWords(e.date)}) `,
          button('Not this person: a new one', (ev) => act(ev.currentTarget, out, () => call('POST', `${base}/people/${p.id}/split`,
            {key, body: {player_id: e.player_id, to: 'new'}}), reload), {class: 'btn-small'}))));
      }, {class: 'btn-small', 'aria-label': `Entries of ${p.name}`}), entries, out);
  };
  mount(peopleEl, club.people.length ? club.people.map(personRow) : h('li', {class: 'empty'}, 'Nobody yet.'));

  const audit = (await call('GET', `${base}/audit`, {key})).data;
  const words = {'create-club': 'Club created', 'update-club': 'Club changed', 'create-event': 'Event created',
    'issue-key': 'Club key made', 'revoke-key': 'Club key revoked', 'update-person': 'Person changed',
    'merge-people': 'Records merged', 'split-entry': 'Entry moved', 'create-series': 'Series created',
    'update-series': 'Series changed', 'update-night': 'Night changed', 'delete-event': 'Night deleted',
    erase: 'Person erased'};
  const change = (e) => {
    const b = e.before || {};
    const a = e.after || {};
    if (e.action === 'merge-people') return `${b.merged?.name} into ${b.kept?.name} (${a.entries_moved} entries)`;
    if (e.action === 'split-entry') return `${b.person?.name} → ${a.person?.name}`;
    if (e.action === 'delete-event') return `${b.name} (${b.date})`;
    return Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]) && k !== 'id')
      .map((k) => `${k}: ${b[k] === undefined ? '' : `${JSON.stringify(b[k])} → `}${JSON.stringify(a[k])}`).join('; ');
  };

  setTitle(`Manage · ${club.name}`);
  mount(main, h('h1', {class: 'page-title'}, club.name), h('p', {class: 'hint'}, 'With the club key on this device. ',
    h('a', {href: `/c/${slug}`}, 'The public page')),
  h('section', {class: 'card form'}, h('h2', {}, 'A new event'), eventLabel, eventName, h('label', {for: 'club-event-preset'}, 'Format'),
    preset, makeEvent, eventOut),
  h('section', {class: 'card'}, h('h2', {}, 'Nights'), h('p', {class: 'hint'}, 'Each night\'s date is the day it was '
    + 'played: series, profiles and charts go by it. A night made by mistake can be deleted while nothing is scored in it; '
    + 'one with results can be archived instead.'),
  club.events.length ? h('ul', {class: 'plain-list club-admin-nights'}, club.events.map(nightRow)) : h('p', {class: 'empty'}, 'No nights yet.')),
  h('section', {class: 'card form'}, h('h2', {}, 'Series'),
    club.series.length > 0 && h('ul', {class: 'plain-list'}, club.series.map(seriesCard)),
    h('h3', {}, 'A new series'), seriesLabel, seriesName, h('label', {for: 'series-method'}, 'Scoring'), method, tableLabel, table,
    bestLabel, best, leastLabel, least, h('fieldset', {}, h('legend', {}, 'Its events'),
      live.map((e, i) => h('label', {class: 'check'}, picks[i], ` ${e.name}`))), makeSeries, seriesOut),
  h('section', {class: 'card'}, h('h2', {}, 'People'), h('p', {class: 'hint'}, 'One record a person across the club\'s events. '
    + 'A merge or a move changes whose results they are, never the results.'), peopleEl),
  privacyCard(club, key, act, reload), historySlot(club, key, reload), webhooksSlot(club, key),
  h('section', {class: 'card'}, h('h2', {}, 'Changes'), h('ol', {class: 'plain-list club-audit'}, audit.map((e) =>
    h('li', {}, h('strong', {}, words[e.action] || e.action), ` ${change(e)} `,
      h('span', {class: 'hint'}, `· ${new Date(e.at).toLocaleString()}${e.key ? ` · ${e.key.label} …${e.key.hint}` : ''}`))))));
}

/** Past seasons from a spreadsheet, and the year as one file: loaded on first use. */
function historySlot(club, key, reload) {
  const slot = h('section', {class: 'card'}, h('h2', {}, 'Bringing your history in'), button('Open…', async (e) => {
    e.currentTarget.disabled = true;
    const {historyCard} = await import('../portable/history.js');
    slot.replaceWith(historyCard(club, key, reload));
  }, {class: 'btn-small', id: 'open-history'}));
  return slot;
}

/** The club's webhooks (told of every event's news) and their deliveries: the console's
 * Webhooks panel with the club key, loaded on first use. */
function webhooksSlot(club, key) {
  const slot = h('section', {class: 'card'}, h('h2', {}, 'Webhooks'), h('p', {class: 'hint'}, 'Tell the club\'s site '
    + 'or chat of every night\'s news as it happens.'), button('Open…', async (e) => {
    e.currentTarget.disabled = true;
    const {panel} = await import('../webhooks/webhooks.js');
    const body = h('div', {class: 'club-webhooks'});
    slot.replaceWith(body);
    await panel(body, `/api/clubs/${club.id}`, () => key);
  }, {class: 'btn-small', id: 'open-webhooks', 'aria-label': 'Open the webhooks'}));
  return slot;
}

/** /clubs/new: a club and its key, shown once. */
export async function create(main) {
  setTitle('Create a club');
  const out = msg();
  const [name, nameLabel] = field('club-name', 'Club name', {required: true, maxlength: 120});
  const [slug, slugLabel] = field('club-slug', 'Its page\'s address: /c/…', {placeholder: 'loner-seekers', maxlength: 40,
    required: true});
  // Suggested from the name until the organizer types their own.
  name.addEventListener('input', () => {
    if (!slug.dataset.typed) slug.value = name.value.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40);
  });
  slug.addEventListener('input', () => { slug.dataset.typed = '1'; });
  const result = h('div');
  const go = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Create the club');
  mount(main, h('h1', {class: 'page-title'}, 'Create a club'),
    h('p', {}, 'A club keeps its players from one night to the next: their results, series standings and statistics.'),
    h('form', {class: 'card form', onsubmit: (e) => {
      e.preventDefault();
      act(go, out, () => call('POST', '/api/clubs', {body: {name: name.value.trim(), slug: slug.value.trim()}}),
        async ({data}) => {
          const address = data.slug ? `/c/${data.slug}` : null;
          const link = address && `${location.origin}${address}/manage#key=${data.club_key}`;
          if (address) await adoptKeyFromLink(data.id, data.club_key);
          mount(result, h('section', {class: 'card created'}, h('h2', {}, `${data.name} is made`),
            h('p', {class: 'warn'}, 'This club key is shown only now: keep the link somewhere safe. It runs every '
              + 'event of the club.'),
            h('p', {}, h('code', {class: 'secret'}, link || data.club_key)),
            address && h('p', {class: 'actions'}, h('a', {class: 'btn btn-primary', href: `${address}/manage`}, 'Manage the club'),
              h('a', {class: 'btn', href: address}, 'The public page'))));
        });
    }}, nameLabel, name, slugLabel, slug, go, out), result);
}

async function adoptKeyFromLink(clubId, key) {
  // The same path as a link would take: checked with the server, then kept.
  history.replaceState(null, '', `${location.pathname}#key=${key}`);
  await adoptLinkKey(clubId);
  return clubKey(clubId);
}
