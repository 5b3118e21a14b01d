/**
 * The club's console, "Bringing your history in" (loaded on first use): a spreadsheet of past
 * nights (CSV: night, name, place, points) previewed (the nights it makes, whom each name
 * matched, who is new, each line's error), the near names decided, then imported as
 * results-only nights. And the club's whole year as one portable file.
 */

import {button, h, mount} from '../dom.js';
import {call} from '../club/keys.js';

const say = (el, text, kind = 'ok') => {
  el.hidden = !text;
  el.className = `msg msg-${kind}`;
  mount(el, text || '');
};

function download(data, name) {
  const blob = new Blob([JSON.stringify(data)], {type: 'application/json'});
  const link = h('a', {href: URL.createObjectURL(blob), download: name});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** A spreadsheet's text: UTF-8, else Windows-1252 (what Excel on Windows saves as "CSV"). */
async function fileText(picked) {
  const bytes = await picked.arrayBuffer();
  try {
    return new TextDecoder('utf-8', {fatal: true}).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The card: a file to pick, its preview, the import. */
export function historyCard(club, key, reload) {
  const base = `/api/clubs/${club.id}`;
  const out = h('p', {class: 'msg', role: 'status', hidden: true});
  const file = h('input', {type: 'file', id: 'history-file', accept: '.csv,text/csv'});
  const shown = h('div', {class: 'history-preview'});
  let text = '';
  const picks = new Map(); // a near name -> the select deciding who they are
  const decisions = () => Object.fromEntries([...picks].map(([name, sel]) => [name, sel.value === 'new' ? 'new' : Number(sel.value)]));
  const run = async (btn, work) => {
    btn.disabled = true;
    try { await work(); } catch (error) { say(out, error.message, 'error'); } finally { btn.disabled = false; }
  };
  const bring = button('Import these nights', (e) => run(e.currentTarget, async () => {
    const made = (await call('POST', `${base}/history`, {key, body: {csv: text, decisions: decisions()}})).data;
    say(out, `${made.nights.length} nights imported (${made.lines} results, ${made.people} people).`);
    mount(shown, '');
    await reload(); // the nights now on the club's list
  }), {class: 'btn-primary', hidden: true});
  const preview = button('Preview', (e) => run(e.currentTarget, async () => {
    say(out, '');
    const picked = file.files[0];
    if (!picked) throw new Error('Choose the spreadsheet first (saved as CSV).');
    text = await fileText(picked);
    const seen = (await call('POST', `${base}/history`, {key, body: {csv: text, preview: true}})).data;
    picks.clear();
    const person = (p) => {
      if (p.person_id) return h('li', {}, `${p.name} → ${p.matched}`);
      if (p.new) return h('li', {}, `${p.name} (new)`);
      const sel = h('select', {'aria-label': `Who is ${p.name}?`}, p.candidates.map((c) => h('option', {value: String(c.id)}, c.name)),
        h('option', {value: 'new'}, 'Someone new'));
      picks.set(p.name, sel);
      return h('li', {}, `${p.name}: `, sel);
    };
    mount(shown,
      h('p', {}, `${seen.lines} results on ${seen.nights.length} nights; ${seen.new_people} new people.`),
      h('ul', {class: 'plain-list'}, seen.nights.map((n) => h('li', {}, `${n.date}: ${n.players} players`))),
      h('h3', {}, 'Names'), h('ul', {class: 'plain-list history-people'}, seen.people.map(person)),
      seen.errors.length > 0 && h('div', {}, h('h3', {}, 'Lines to correct'),
        h('ul', {class: 'plain-list history-errors'}, seen.errors.map((x) => h('li', {class: 'error'}, `Line ${x.line}: ${x.error}`)))));
    bring.hidden = seen.errors.length > 0;
  }));
  const year = button('The club\'s year as one file', (e) => run(e.currentTarget, async () => {
    download((await call('GET', `${base}/export/portable.json`, {key})).data, `${club.slug || 'club'}-portable.json`);
  }), {class: 'btn-small'});
  return h('section', {class: 'card form'}, h('h2', {}, 'Bringing your history in'),
    h('p', {class: 'hint'}, 'A spreadsheet of past nights, saved as CSV with the columns night (its date), name, place and points, '
      + 'one line a player a night. They count in series and profiles, not in hand statistics.'),
    h('label', {for: 'history-file'}, 'The spreadsheet'), file, h('p', {class: 'actions'}, preview, bring), out, shown,
    h('p', {class: 'actions'}, year));
}
