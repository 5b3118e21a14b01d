/** The console in play and after: rounds, corrections and the audit log, print and export. */

import {button, h, mount} from '../dom.js';
import {roundClock} from '../screens/clock.js';
import {clockLevel, clockText, outcomeWords, tricksLabel, tricksRows} from '../words.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {card, does, failure, inp, lab, load, msg, query, say, sides} from './ui.js';

const QUIET = 300; // seconds without an entry before a table is worth a walk over

/** Each table drawn with its seats around it: 1 south, then clockwise; 1 & 3 are side A. */
const tableMap = (tables) => h('ul', {class: 'table-map'}, tables.map((t) => h('li', {class: 'map-table'},
  h('span', {class: 'map-no'}, `Table ${t.table}`),
  t.seats.map((s) => h('span', {class: ['map-seat', `seat-${s.seat}`, !s.player_id && 'ghost']},
    h('span', {class: 'sr-only'}, `seat ${s.seat}: `), s.name)))));

function gameWords(g) {
  const n = `${g.hands_played}${g.hands_per_game ? ` of ${g.hands_per_game}` : ''} hands${g.target_points ? `, to ${g.target_points}` : ''}`;
  return g.signed_off ? [`${n} · signed off`, 'signed']
    : g.over && g.level && !g.winner ? [`${n} · level: needs a playoff hand or card draw`, 'level']
      : g.over ? [`${n} · finished${g.end === 'time' ? ' (time called)' : ''}`, 'done']
        : g.idle_seconds >= QUIET ? [`${n} · no entry for ${Math.floor(g.idle_seconds / 60)} min`, 'quiet']
          : [n, 'playing'];
}

const board = (id, round) => h('ul', {class: 'progress-board'}, round.tables.map((t) => {
  const s = sides(t);
  return h('li', {class: 'progress-table', 'data-table': t.table},
    h('strong', {}, `Table ${t.table} `), `${s.A} v ${s.B}`,
    t.games.map((g) => {
      const [words, kind] = gameWords(g);
      return h('span', {class: ['game-line', `is-${kind}`]}, h('span', {class: 'game-score'}, `${g.points.A}–${g.points.B}`), words,
        h('a', {href: `/e/${id}/games/${g.id}`, class: 'inline-link'}, 'Open'),
        h('a', {href: `/e/${id}/organize/corrections?game=${g.id}`, class: 'inline-link'}, 'Fix'));
    }));
}));

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'rounds', 'Rounds');
  if (!framed) return;
  const clock = roundClock();
  let timers = [];
  const stop = () => { timers.forEach(clearInterval); timers = []; };

  const past = (history) => {
    const done = history.filter((r) => r.status === 'closed');
    return done.length > 0 && card('Earlier rounds',
      h('ul', {class: 'plain-list'}, done.map((r) => h('li', {}, `${r.label}: closed · ${r.progress.hands} hands`))));
  };

  const playing = (round, history) => {
    const out = msg();
    const clockEl = h('p', {class: 'big-clock', role: 'timer'});
    const boardEl = h('div', {});
    const summary = h('p', {class: 'counts', 'aria-live': 'polite'});
    const updated = h('p', {class: 'hint'});
    const tick = () => {
      const left = clock.secondsLeft();
      clockEl.className = `big-clock clock-${clockLevel(left)}`;
      clockEl.textContent = round.time_called ? 'Time called' : left === null ? 'No clock'
        : left ? `${clockText(left)} left` : 'Time is up: call time';
    };
    const show = (r) => {
      round = r;
      clock.update(r.clock);
      tick();
      mount(summary, `${r.progress.finished} of ${r.progress.tables} tables finished · ${r.progress.hands} hands entered`);
      mount(boardEl, board(id, r));
      mount(updated, `Updated ${new Date().toLocaleTimeString()}`);
    };
    const roundDo = (label, what, extra) => does(label, out, () => calls.roundDo(id, round.id, what, what === 'clock' ? {} : undefined),
      (r) => (r.status === 'closed' ? draw() : show(r)), extra);
    mount(framed.body,
      card(`${round.label}: being played`, clockEl, summary,
        h('div', {class: 'actions'},
          roundDo('Call time', 'time', {sure: 'Tap again: unfinished games end now', pending: 'Calling time…'}),
          roundDo('Close the round', 'close', {class: 'btn-primary', pending: 'Closing…'})),
        out,
        round.clock && roundDo('Restart the clock', 'clock', {sure: `Tap again: ${round.clock?.minutes || ''} minutes from now`})),
      card('Progress', updated, boardEl),
      card('Table map', tableMap(round.tables)),
      past(history));
    show(round);
    timers.push(setInterval(tick, 1000), setInterval(async () => {
      if (document.hidden) return;
      try { show(await calls.round(round.id)); } catch (error) { mount(updated, `Not updated: ${failure(error, true)}`); }
    }, 5000));
  };

  const preview = (history) => {
    const out = msg();
    const area = h('div', {});
    mount(framed.body, area, past(history));
    load(area, () => calls.plan(id).catch((error) => {
      if (error.code === 'event-complete') return {done: error.message};
      throw error;
    }), (plan) => mount(area, plan.done
      ? card('Every round is played', h('p', {class: 'complete'}, plan.done),
        h('div', {class: 'actions'}, h('a', {class: 'btn', href: `/e/${id}/board`}, 'Standings'),
          h('a', {class: 'btn btn-primary', href: `/e/${id}/organize/print`}, 'Print & export')))
      : card(`${plan.label}: preview`,
        h('p', {}, `Nothing is stored until you seat it.${plan.minutes ? ` ${plan.minutes} minutes.` : ''}`),
        plan.notes.map((n) => h('p', {class: 'note'}, n)), tableMap(plan.tables),
        does(`Seat ${plan.label}`, out, () => calls.seat(id, plan.number), draw, {class: 'btn-primary', pending: 'Seating…'}), out)));
  };

  async function draw() {
    stop();
    await load(framed.body, () => calls.rounds(id), (all) => {
      const history = all.filter((r) => r.status !== 'scheduled');
      const current = history.find((r) => r.status === 'playing');
      if (current) playing(current, history);
      else preview(history);
    });
  }
  await draw();
  return stop;
}

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const FIELDS = ['maker', 'alone', 'loner_seat', 'tricks', 'renege'];

/** /e/<id>/organize/corrections[?game=<id>] */
export async function corrections(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'corrections', 'Corrections');
  if (!framed) return;
  const values = framed.event?.format?.hand_values || [];
  const finder = h('section', {class: 'card'});
  const editorEl = h('section', {class: 'card editor', hidden: true});
  const auditEl = h('section', {class: 'card'});
  mount(framed.body, finder, editorEl, auditEl);
  let rounds = [];

  /** One game: its hands, each editable; `draft` is the hand being changed, kept through a 412. */
  function editor(game, draft = null, note = null) {
    const out = msg();
    const names = {A: game.sides.A.name, B: game.sides.B.name};
    const open = (d, n = note) => editor(game, d, n);
    const toggles = (key, options) => h('div', {class: 'choice-grid', role: 'group', 'aria-label': key}, options.map(([v, label]) => {
      const k = `${key}-${v && typeof v === 'object' ? v.by + v.upheld : v}`;
      return button(label, () => {
        open({...draft, [key]: v, ...(key === 'maker' ? {loner_seat: null} : {})});
        editorEl.querySelector(`[data-k="${k}"]`)?.focus();
      }, {'aria-pressed': String(same(v, draft[key])), 'data-k': k});
    }));
    // A change, or (body null) a deletion. On 412/404 the game reloads: the change is found
    // stored (its answer was lost) or the draft stays.
    const change = (hand, body) => async () => {
      try {
        const saved = await calls.changeHand(game, hand.id, body);
        const after = saved.hands.find((x) => x.id === hand.id);
        editor(saved, null, [after ? `Hand ${after.number} now: ${outcomeWords(after.outcome, saved.sides)}.`
          : `Hand ${hand.number} deleted.`]);
        return saved;
      } catch (error) {
        if (![404, 412].includes(error.status)) throw error;
        const fresh = await calls.game(game.id);
        const now = fresh.hands.find((x) => x.id === hand.id);
        const done = body ? now && FIELDS.every((k) => same(now[k], body[k])) : !now;
        editor(fresh, done ? null : draft, done ? ['Your change was already saved.']
          : [`Someone changed this game while you were editing (it is now version ${fresh.version}). It is `
            + 'reloaded below with their change; yours is still in the form: check it and save again.', 'error']);
        return fresh;
      }
    };
    const form = (hand) => {
      const seats = game.sides[draft.maker || 'A'].players.filter((p) => p.player_id);
      const upheld = draft.renege?.upheld;
      return h('div', {class: 'edit-form'},
        h('p', {class: 'q'}, 'Who called trump?'), toggles('maker', [['A', names.A], ['B', names.B]]),
        toggles('alone', [[false, 'With partner'], [true, 'Alone']]),
        draft.alone && h('label', {}, 'Who went alone', h('select', {class: 'input', onchange: (e) => open({...draft, loner_seat: Number(e.target.value) || null})},
          h('option', {value: ''}, 'not recorded'), seats.map((p) => h('option', {value: p.seat, selected: draft.loner_seat === p.seat}, p.name)))),
        h('p', {class: 'q'}, 'Renege'),
        toggles('renege', [[null, 'No renege'], ...['A', 'B'].flatMap((s) => [[{by: s, upheld: true}, `${names[s]} reneged`],
          [{by: s, upheld: false}, `${names[s]} accused wrongly`]])]),
        !upheld && [h('p', {class: 'q'}, 'Tricks the makers took'),
          toggles('tricks', tricksRows(values, draft.alone).map((r) => [r.tricks, tricksLabel(r)]))],
        h('div', {class: 'actions'},
          does('Save the change', out, change(hand, {kind: hand.kind, maker: draft.maker, alone: draft.alone,
            loner_seat: draft.alone ? draft.loner_seat : null, tricks: upheld ? null : draft.tricks, renege: draft.renege,
            surrendered: hand.surrendered, dealer: hand.dealer, trump: hand.trump, note: hand.note}), null, {class: 'btn-primary'}),
          button('Cancel', () => open(null, null))));
    };
    editorEl.hidden = false;
    mount(editorEl,
      h('h2', {}, `${game.round.label} · table ${game.table}${game.match.games.length > 1 ? ` · game ${game.number}` : ''}`),
      h('p', {class: 'editor-score'}, `${names.A} ${game.points.A} – ${game.points.B} ${names.B}`),
      h('p', {class: 'hint'}, `${game.hands_played} hands · ${game.signed_off ? `signed off by ${game.signed_off_by}`
        : game.over ? 'finished' : 'being played'} · version ${game.version}`),
      note && h('p', {class: note[1] || 'note', role: 'alert'}, note[0]),
      game.signed_off && does('Reopen the game', out, () => calls.reopenGame(game),
        (g) => editor(g, null, ['Reopened: runners can change it again until it is signed off.']),
        {sure: 'Tap again: the sign-off is undone', pending: 'Reopening…'}),
      h('ol', {class: 'hand-list'}, game.hands.map((hand) => h('li', {class: 'hand'},
        h('span', {class: 'hand-no'}, hand.number), outcomeWords(hand.outcome, game.sides),
        h('span', {class: 'hand-actions'},
          hand.kind === 'play' && button('Edit', () => open(Object.fromEntries([['id', hand.id], ...FIELDS.map((k) => [k, hand[k]])]), null),
            {class: 'btn-small', 'aria-label': `Edit hand ${hand.number}`}),
          does('Delete', out, change(hand, null), null,
            {sure: 'Tap again to delete', pending: 'Deleting…', class: 'btn-small', 'aria-label': `Delete hand ${hand.number}`})),
        draft?.id === hand.id && form(hand)))),
      !game.hands.length && h('p', {class: 'empty'}, 'No hands yet.'),
      out,
      h('p', {class: 'actions'}, h('a', {class: 'btn', href: `/e/${id}/games/${game.id}`}, 'Add hands on the game screen'),
        button('Reload', () => openGame(game.id))));
  }

  const openGame = (gameId) => load(editorEl, () => calls.game(gameId), (g) => editor(g));

  // Find a game: a round's progress board, whose "Fix" links come back here with ?game=.
  const finderFor = (r) => {
    const pick = h('select', {id: 'fix-round', class: 'input', onchange: () => finderFor(rounds[pick.value])},
      rounds.map((x, i) => h('option', {value: i, selected: x === r}, x.label)));
    mount(finder, h('h2', {}, 'Find the game'), lab(pick, 'Round'), pick, board(id, r));
  };

  const words = (v) => (v === null || typeof v !== 'object' ? v ?? '—'
    : v.outcome || Object.entries(v).filter(([, x]) => typeof x !== 'object').map((e) => e.join(': ')).join(', '));
  const auditFor = (table) => {
    const pick = h('select', {id: 'audit-table', class: 'input', onchange: () => auditFor(Number(pick.value))},
      h('option', {value: 0}, 'All tables'), rounds.at(-1).tables.map((t) => h('option', {value: t.table, selected: t.table === table}, `Table ${t.table}`)));
    const list = h('ol', {class: 'audit-list'});
    mount(auditEl, h('h2', {}, 'Audit log'), h('p', {class: 'hint'}, 'Every change after entry: who, when, before → after.'),
      lab(pick, 'Table'), pick, list);
    load(list, () => calls.audit(id, table), (entries) => mount(list, entries.map((e) => h('li', {class: 'audit-entry'},
      h('span', {class: 'hint'}, new Date(e.at).toLocaleString()), h('strong', {}, ` ${e.action.replace(/-/g, ' ')}`),
      ` by ${e.role}${e.round_number ? ` · round ${e.round_number}` : ''}${e.table ? ` · table ${e.table}` : ''}`,
      (e.before || e.after) && h('span', {class: 'audit-change'}, `${words(e.before)} → ${words(e.after)}`)))));
  };

  await load(finder, () => calls.rounds(id), (all) => {
    rounds = all.filter((r) => r.status !== 'scheduled');
    if (!rounds.length) return mount(finder, h('p', {class: 'empty'}, 'No round is seated yet.'));
    finderFor(rounds.at(-1));
    auditFor(0);
  });
  const wanted = Number(query().get('game'));
  if (wanted) {
    editorEl.hidden = false;
    await openGame(wanted);
    editorEl.scrollIntoView({block: 'start'});
  }
}

/** The tables: the round being played, else the next round's preview, else the last one. */
async function tableNumbers(id) {
  const rounds = (await calls.rounds(id)).filter((r) => r.status !== 'scheduled');
  const now = rounds.find((r) => r.status === 'playing') || await calls.plan(id).catch(() => rounds.at(-1));
  return (now?.tables || []).map((t) => t.table);
}

export async function print(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'print', 'Print & export');
  if (!framed) return;
  const out = msg();
  const base = `/e/${id}/organize/print`;
  const count = inp('card-tables', {type: 'number', min: 1, max: 200, inputmode: 'numeric'});
  const save = (name) => (blob) => {
    const link = h('a', {href: URL.createObjectURL(blob), download: `${framed.event?.code || id}-${name}`, hidden: true});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 30000);
    say(out, `${name} saved to your downloads.`);
  };
  mount(framed.body,
    card('Table cards', h('p', {}, 'A card a table: its number and a QR code that opens its game screen on a '
      + 'runner\'s phone (a new runner key each; revoke old ones under Access).'), lab(count, 'Number of tables'), count,
    h('a', {class: 'btn btn-primary', href: `${base}/cards`, onclick: (e) => { e.currentTarget.href += `?tables=${count.value}`; }},
      'Make the table cards')),
    card('Scoresheets', h('p', {}, 'A page a player: every round\'s table, partner, opponents and score.'),
      h('a', {class: 'btn btn-primary', href: `${base}/sheets`}, 'Print the scoresheets')),
    card('Exports (CSV)', h('ul', {class: 'link-list'}, ['Standings', 'Scoresheets', 'Games', 'Hands'].map((label) => {
      const name = `${label.toLowerCase()}.csv`;
      return h('li', {}, does(`${label} (${name})`, out, () => calls.download(id, name), save(name), {pending: 'Downloading…'}));
    })), out));
  tableNumbers(id).then((t) => { count.value ||= t.length || ''; }, () => {});
}

/** A print page: a toolbar that is not printed, then the pages. */
async function printPage(main, id, title, work, paint) {
  const framed = await frame(main, id, 'print', title);
  if (!framed) return;
  document.body.classList.add('printing');
  await load(framed.body, work, (data) => mount(framed.body,
    h('div', {class: 'actions no-print'}, h('a', {class: 'btn', href: `/e/${id}/organize/print`}, '← Back'),
      button('Print', () => window.print(), {class: 'btn-primary'})),
    data.length ? paint(data, framed.event || {}) : h('p', {class: 'empty'}, 'Nothing to print yet.')));
}

/** /e/<id>/organize/print/cards[?tables=N]: a runner key and its QR code per table. */
export const cards = (main, {eventId}) => printPage(main, eventId, 'Table cards', async () => {
  const made = [];
  const n = Number(query().get('tables'));
  for (const table of n ? Array.from({length: n}, (_, i) => i + 1) : await tableNumbers(eventId)) {
    const {link} = await calls.issueKey(eventId, table, `table card ${table}`);
    made.push([table, await calls.qr(link, `Table ${table}`)]);
  }
  return made;
}, (made, event) => h('div', {class: 'cards'}, made.map(([table, qr]) => h('article', {class: 'table-card-print'},
  h('p', {}, event.name), h('p', {class: 'card-table'}, `Table ${table}`),
  h('img', {class: 'card-qr', src: qr, alt: `QR code: runner link for table ${table}`, width: 220, height: 220}),
  h('p', {}, `Runner: scan to enter this table's hands, or join with event code ${event.code} and the PIN.`)))));

/** /e/<id>/organize/print/sheets: every player's scoresheet, a page each. */
export const sheets = (main, {eventId}) => printPage(main, eventId, 'Scoresheets', () => calls.scoresheets(eventId),
  (all) => all.map((s) => h('article', {class: 'sheet-page'}, h('h2', {}, s.name), h('p', {}, s.event_name),
    h('table', {class: 'sheet-table'},
      h('thead', {}, h('tr', {}, ['Round', 'Table', 'Partner', 'Opponents', 'Score', 'Total'].map((c) => h('th', {scope: 'col'}, c)))),
      h('tbody', {}, s.rounds.map((r) => h('tr', {}, [r.label, r.table, r.partner, r.opponents.join(' & ')].map((c) => h('td', {}, c)),
        [r.score, r.running_total].map((c) => h('td', {class: 'num'}, c ?? ''))))),
      h('tfoot', {}, h('tr', {}, h('th', {scope: 'row', colspan: 5}, 'Total'), h('td', {class: 'num sheet-total'}, s.total ?? '')))))));
