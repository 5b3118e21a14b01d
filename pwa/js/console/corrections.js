/**
 * /e/<id>/organize/corrections[?game=<id>]: fix any hand of any game (the organizer's key may,
 * even after sign-off or closing), reopen a signed-off game, and read the audit log by table.
 * Every change carries the game's version (If-Match): when someone changed the game meanwhile
 * the server answers 412, the game is reloaded and the organizer's change stays in the form.
 */

import {button, h, mount} from '../dom.js';
import {outcomeWords, tricksLabel, tricksRows} from '../words.js';
import * as calls from './calls.js';
import {frame} from './frame.js';
import {act, confirmButton, load, msg, query, sides} from './ui.js';

const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The hand's body as PUT wants it, with what the organizer changed (`draft`). */
function bodyOf(hand, draft) {
  const upheld = draft.renege?.upheld;
  return {kind: hand.kind, maker: draft.maker, alone: draft.alone,
    loner_seat: draft.alone ? draft.loner_seat ?? null : null,
    tricks: upheld ? null : draft.tricks, renege: draft.renege, surrendered: hand.surrendered,
    dealer: hand.dealer, trump: hand.trump, note: hand.note};
}

function toggles(name, options, value, pick) {
  return h('div', {class: 'choice-grid', role: 'group', 'aria-label': name}, options.map(([v, label]) =>
    button(label, () => pick(v), {'aria-pressed': String(same(v, value)), 'data-k': `${name}-${v && typeof v === 'object' ? `${v.by}${v.upheld ? 'u' : 'r'}` : v}`})));
}

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

  // --- one game's hands, each fixable --------------------------------------------------------
  function editor(game, draft = null, note = null) {
    const out = msg();
    const names = {A: game.sides.A.name, B: game.sides.B.name};
    const redraw = (g, d, n) => editor(g, d, n);
    const conflict = async (error, handId, body) => {
      if (error?.status !== 412 && error?.status !== 404) return;
      const fresh = await calls.game(game.id);
      const now = fresh.hands.find((x) => x.id === handId);
      const done = body ? now && ['maker', 'alone', 'tricks', 'renege'].every((k) => same(now[k], body[k])) : !now;
      redraw(fresh, done ? null : draft, done ? ['Your change was already saved.', 'ok']
        : [`Someone changed this game while you were editing: ${error.message} It is reloaded `
          + 'below; your change is kept in the form: check it and save again.', 'error']);
    };
    const save = async (btn, hand, body) => {
      let failed = null;
      const saved = await act(btn, out, () => (body ? calls.editHand(game, hand.id, body)
        : calls.deleteHand(game, hand.id)).catch((e) => { failed = e; throw e; }), body ? 'Saving…' : 'Deleting…');
      if (saved) {
        const after = saved.hands.find((x) => x.id === hand.id);
        redraw(saved, null, [after ? `Hand ${after.number} now: ${outcomeWords(after.outcome, saved.sides)}.`
          : `Hand ${hand.number} deleted.`, 'ok']);
      } else await conflict(failed, hand.id, body);
    };
    const form = (hand) => {
      const d = draft;
      const set = (patch) => {
        const k = document.activeElement?.dataset?.k;
        draft = {...d, ...patch};
        editor(game, draft, note);
        if (k) editorEl.querySelector(`[data-k="${k}"]`)?.focus();
      };
      const seats = game.sides[d.maker || 'A'].players.filter((p) => p.player_id);
      return h('div', {class: 'edit-form'},
        h('p', {class: 'q'}, 'Who called trump?'),
        toggles('maker', [['A', names.A], ['B', names.B]], d.maker, (maker) => set({maker, loner_seat: null})),
        button('Alone', () => set({alone: !d.alone}), {'aria-pressed': String(d.alone), class: 'btn-toggle', 'data-k': 'alone'}),
        d.alone && h('label', {}, 'Who went alone ', h('select', {class: 'input', onchange: (e) => set({loner_seat: e.target.value ? Number(e.target.value) : null})},
          h('option', {value: ''}, 'not recorded'),
          seats.map((p) => h('option', {value: p.seat, selected: d.loner_seat === p.seat}, p.name)))),
        h('p', {class: 'q'}, 'Renege'),
        toggles('renege', [[null, 'No renege'], ...['A', 'B'].flatMap((s) => [[{by: s, upheld: true}, `${names[s]} reneged (upheld)`],
          [{by: s, upheld: false}, `${names[s]} accused, claim rejected`]])], d.renege, (renege) => set({renege})),
        !d.renege?.upheld && [h('p', {class: 'q'}, 'Tricks the makers took'),
          toggles('tricks', tricksRows(values, d.alone).map((r) => [r.tricks, tricksLabel(r)]), d.tricks, (tricks) => set({tricks}))],
        h('div', {class: 'actions'},
          button('Save the change', (e) => save(e.currentTarget, hand, bodyOf(hand, d)), {class: 'btn-primary'}),
          button('Cancel', () => { draft = null; editor(game, null); })));
    };
    const status = game.signed_off ? `signed off by ${game.signed_off_by}`
      : game.over ? 'finished' : 'being played';
    editorEl.hidden = false;
    mount(editorEl,
      h('h2', {}, `${game.round.label} · ${game.label}`),
      h('p', {class: 'editor-score'}, `${names.A} ${game.points.A} – ${game.points.B} ${names.B}`),
      h('p', {class: 'hint'}, `${game.hands_played} hands · ${status} · version ${game.version}`),
      note && h('p', {class: note[1] === 'error' ? 'error' : 'note', role: 'alert'}, note[0]),
      game.signed_off && confirmButton('Reopen the game', 'Tap again: the sign-off is undone', async (btn) => {
        const g = await act(btn, out, () => calls.reopenGame(game), 'Reopening…');
        if (g) editor(g, null, ['Reopened: the runners can change it again until it is signed off.', 'ok']);
      }),
      h('ol', {class: 'hand-list'}, game.hands.map((hand) => h('li', {class: 'hand', 'data-hand': hand.number},
        h('span', {class: 'hand-no'}, hand.number),
        h('span', {}, outcomeWords(hand.outcome, game.sides)),
        h('span', {class: 'hand-actions'},
          hand.kind === 'play' && button('Edit', () => {
            draft = {hand: hand.id, maker: hand.maker, alone: hand.alone, loner_seat: hand.loner_seat,
              tricks: hand.tricks, renege: hand.renege};
            editor(game, draft);
          }, {class: 'btn-small', 'aria-label': `Edit hand ${hand.number}`}),
          confirmButton('Delete', 'Tap again to delete', (btn) => save(btn, hand, null),
            {class: 'btn-small', 'aria-label': `Delete hand ${hand.number}`})),
        draft?.hand === hand.id && form(hand)))),
      !game.hands.length && h('p', {class: 'empty'}, 'No hands yet.'),
      out,
      h('p', {class: 'actions'}, h('a', {class: 'btn', href: `/e/${id}/games/${game.id}`}, 'Add hands on the game screen'),
        button('Reload', () => openGame(game.id))));
  }

  const openGame = (gameId) => {
    history.replaceState(null, '', `${location.pathname}?game=${gameId}`);
    editorEl.hidden = false;
    return load(editorEl, () => calls.game(gameId), (g) => editor(g));
  };

  // --- finding a game: round, then table -------------------------------------------------------
  function paintFinder(roundId) {
    const r = rounds.find((x) => x.id === roundId) || rounds.at(-1);
    if (!r) { mount(finder, h('h2', {}, 'Games'), h('p', {class: 'empty'}, 'No round has been seated yet.')); return; }
    const roundSel = h('select', {id: 'fix-round', class: 'input', onchange: () => paintFinder(Number(roundSel.value))},
      rounds.map((x) => h('option', {value: x.id, selected: x.id === r.id}, x.label)));
    mount(finder, h('h2', {}, 'Find the game'),
      h('label', {for: 'fix-round'}, 'Round'), roundSel,
      h('ul', {class: 'table-list'}, r.tables.flatMap((t) => t.games.map((g) => {
        const n = sides(t);
        return h('li', {}, button(`Table ${t.table}${t.games.length > 1 ? ` · game ${g.number}` : ''}: ${n.A} ${g.points.A} – ${g.points.B} ${n.B}`
          + `${g.signed_off ? ' · signed off' : g.over ? ' · finished' : ''}`, () => openGame(g.id), {class: 'btn-link', 'data-game': g.id}));
      }))));
  }

  // --- the audit log, by table -------------------------------------------------------------------
  const words = (v) => (v === null || v === undefined ? '—' : typeof v !== 'object' ? String(v)
    : v.outcome || Object.entries(v).filter(([, x]) => x !== null && typeof x !== 'object').map(([k, x]) => `${k}: ${x}`).join(', '));
  function paintAudit(table) {
    const tables = [...new Set(rounds.flatMap((r) => r.tables.map((t) => t.table)))].sort((a, b) => a - b);
    const pick = h('select', {id: 'audit-table', class: 'input', onchange: () => paintAudit(Number(pick.value) || null)},
      h('option', {value: ''}, 'All tables'), tables.map((t) => h('option', {value: t, selected: t === table}, `Table ${t}`)));
    const list = h('div', {});
    mount(auditEl, h('h2', {}, 'Audit log'), h('p', {class: 'hint'}, 'Every change after entry: who, when, before and after.'),
      h('label', {for: 'audit-table'}, 'Table'), pick, list);
    load(list, () => calls.audit(id, table), (entries) => mount(list, entries.length
      ? h('ol', {class: 'audit-list'}, entries.map((e) => h('li', {class: 'audit-entry'},
        h('span', {class: 'audit-when'}, new Date(e.at).toLocaleString()),
        h('strong', {}, ` ${e.action.replace(/-/g, ' ')}`),
        ` by ${e.role}${e.round_number ? ` · round ${e.round_number}` : ''}${e.table ? ` · table ${e.table}` : ''}`,
        (e.before || e.after) && h('span', {class: 'audit-change'}, `${words(e.before)} → ${words(e.after)}`))))
      : h('p', {class: 'empty'}, 'Nothing recorded for this table yet.')));
  }

  await load(finder, () => calls.rounds(id), (all) => {
    rounds = all.filter((r) => r.status !== 'scheduled');
    paintFinder(null);
    paintAudit(null);
  });
  const wanted = Number(query().get('game'));
  if (wanted) {
    await openGame(wanted);
    editorEl.scrollIntoView({block: 'start'});
  }
}
