/** /e/<id>/organize/corrections[?game=<id>]: any hand of any game edited or deleted (with the
 * game's version: a change made meanwhile is explained, the draft kept), a signed-off game
 * reopened, the audit log by table. */

import {button, h, mount} from '../dom.js';
import {outcomeWords, tricksLabel, tricksRows} from '../words.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {board} from './progress.js';
import {does, lab, load, msg, query} from './ui.js';

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const FIELDS = ['maker', 'alone', 'loner_seat', 'tricks', 'renege'];

/** /e/<id>/organize/corrections[?game=<id>] */
export async function render(main, {eventId}) {
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
