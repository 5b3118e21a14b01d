/**
 * /e/<id>/organize/league: the season by week (scheduled from the teams, each week opened and
 * closed), every match's games and result, forfeits with the offence count and playoff flag,
 * substitutes, standings and seeding, and the playoff bracket drawn as a bracket. Every number
 * is the server's; a change shows only once the server confirmed it.
 */

import {button, h, mount, toast} from '../dom.js';
import {gameChipWords, notPlayedWords, plural} from '../words.js';
import {frame} from './frame.js';
import * as calls from './calls.js';
import {act, does, failure, load, msg} from './ui.js';

const STATUS = {scheduled: 'not started', playing: 'being played', closed: 'closed'};

/** One-of-several buttons (aria-pressed); returns [fieldset, () => the chosen value]. */
function choices(legend, options) {
  let value = null;
  const buttons = options.map(([v, label]) => button(label, () => {
    value = v;
    buttons.forEach((b, i) => b.setAttribute('aria-pressed', String(options[i][0] === v)));
  }, {'aria-pressed': 'false'}));
  return [h('fieldset', {class: 'choices'}, h('legend', {}, legend), buttons), () => value];
}

/**
 * A section of League and Ties: read, paint, Refresh. `s.act(label, out, work, done)` is a
 * button for a change: refused, the reason goes to `out`; stored, a toast with the server's
 * words (`done(answer)`) and a fresh read.
 */
export async function section(main, eventId, name, title, read, paint) {
  const f = await frame(main, eventId, name, title);
  if (!f) return;
  const s = {id: eventId, event: f.event, body: f.body, panel: null, open: new Set()};
  s.show = (d) => {
    s.d = d;
    paint(s);
    s.body.prepend(button('Refresh', () => s.refresh(), {class: 'btn-small refresh'}));
  };
  /** Read again; `said` (what the server confirmed) is toasted, and kept if the read fails.
   * Only the latest read paints: a Refresh answered after a change's own read (tapped
   * Refresh, then Close) would paint the section as it was before the change. */
  let reads = 0;
  s.refresh = async (said = '') => {
    const mine = ++reads;
    try {
      const d = await read(eventId, s.event);
      if (mine === reads) s.show(d);
      if (said) toast(said);
    } catch (e) {
      toast(`${said} ${failure(e, true)}`, null, {kind: 'error'});
    }
  };
  s.act = (label, out, work, done, attrs = {}, keep = false) => button(label, async (e) => {
    const r = await act(e.currentTarget, out, work);
    if (!r) return;
    if (!keep) s.panel = null;
    await s.refresh(done(r));
  }, attrs);
  s.toggle = (panel) => {
    s.panel = panel;
    s.show(s.d);
    s.body.querySelector('.panel button')?.focus();
  };
  await load(f.body, () => read(eventId, s.event), s.show);
}

/** A game as a link to its hands: "Game 2: 10–7", "Game 1: forfeited by North". */
export function gameLink(id, g, names) {
  return h('a', {class: ['btn', 'btn-small', 'game-chip', g.over && 'over'], href: `/e/${id}/games/${g.id}`},
    `Game ${g.number}: `, gameChipWords(g, names));
}

export function render(main, {eventId}) {
  return section(main, Number(eventId), 'league', 'League', calls.leagueView, paint);
}

function paint(s) {
  const {season, rounds} = s.d;
  s.tables = new Map(rounds.flatMap((r) => r.tables.map((t) => [t.match_id, {...t, round: r}])));
  const tools = h('div', {class: 'league-tools'});
  mount(s.body, nextCard(s), season.weeks.length > 0 && weeksCard(s), tools, offencesCard(s),
    standingsCard(s), bracketCard(s));
  /* Registration, captains' links, make-ups and moved matches: loaded on first use. */
  import('../league/organize.js').then((m) => m.tools(s)).then((cards) => tools.replaceChildren(...cards.filter(Boolean)))
    .catch((e) => tools.replaceChildren(h('p', {class: 'msg msg-error'}, failure(e, true))));
}

function nextCard(s) {
  const {season, plan, rounds, teams} = s.d;
  const out = msg();
  if (!season.weeks.length) {
    const weeks = h('input', {id: 'season-weeks', class: 'input', type: 'number', min: 1, max: 60,
      inputmode: 'numeric', placeholder: 'every team meets every other once'});
    const first = h('input', {id: 'season-first', class: 'input', type: 'date'});
    const start = h('input', {id: 'season-start', class: 'input', type: 'time', value: '19:00'});
    const divisions = [...new Set(teams.map((t) => t.division).filter(Boolean))];
    const final = h('input', {id: 'season-final', type: 'checkbox'});
    return h('section', {class: 'card'}, h('h2', {}, 'Schedule the season'),
      h('p', {}, `${teams.length} teams registered${divisions.length ? ` in ${divisions.length} divisions `
        + `(${divisions.join(', ')}): each plays a round robin of its own` : ''}. Each week every team meets `
        + 'one opponent (a bye when the count is odd).'),
      h('label', {for: 'season-weeks'}, 'Weeks'), weeks,
      h('label', {for: 'season-first'}, 'First league night (then every week on that day)'), first,
      h('label', {for: 'season-start'}, 'Starts at'), start,
      divisions.length > 1 && h('label', {class: 'check'}, final,
        ' After the playoffs of each division, its winners meet in a final'),
      s.act('Schedule the season', out, () => calls.schedule(s.id, weeks.value ? Number(weeks.value) : null,
        first.value || null, first.value && start.value ? start.value : null, final.checked),
      () => 'The season is scheduled.', {class: 'btn-primary'}), out);
  }
  const playing = rounds.find((r) => r.status === 'playing');
  return h('section', {class: 'card next-step'}, h('h2', {}, 'Next'),
    h('p', {}, plan.reason || `${plan.label} is ready to start.`),
    !plan.reason && plan.notes.map((n) => h('p', {class: 'note'}, n)),
    h('div', {class: 'actions'},
      playing && s.act(`Close ${playing.label}`, out, () => calls.closeRound(s.id, playing.id),
        () => `${playing.label} is closed.`),
      !plan.reason && s.act(`${plan.stage === 'playoff' ? 'Draw' : 'Open'} ${plan.label}`, out,
        () => calls.seat(s.id, plan.number), () => `${plan.label} is under way.`, {class: 'btn-primary'})), out);
}

/**
 * A night cancelled (weather, the venue). As the league rules say, by default every other week
 * keeps its night and this week is made up after the last one (the make-up night can be picked
 * under "Make a cancelled week up later"); shifting every later week a night on is the option.
 */
function cancelNight(s, w) {
  const out = msg();
  const why = h('input', {class: 'input', maxlength: 200, placeholder: 'Why (e.g. snow storm)',
    'aria-label': `Why week ${w.week} is cancelled`});
  const cancel = (mode) => () => calls.leagueOps(s.id, 'POST', '/season/postpone',
    {week: w.week, reason: why.value.trim(), mode});
  return h('div', {class: 'actions cancel-night'}, why,
    does(`Cancel week ${w.week}: make it up after the last week`, out, cancel('make-up'),
      (r) => s.refresh(r.changes.at(-1).text), {sure: 'Tap again: the other weeks keep their nights',
        class: 'btn-primary'}),
    does('Or move every later week a night on', out, cancel('shift'),
      (r) => s.refresh(r.changes.at(-1).text), {sure: 'Tap again: every later night moves', class: 'btn-small'}), out);
}

function weeksCard(s) {
  const {season, board} = s.d;
  const points = new Map(board.rows.map((r) => [r.entrant_id, r.rounds]));
  const day = (w) => (w.date ? `${new Date(`${w.date}T12:00`).toLocaleDateString(undefined,
    {weekday: 'short', month: 'short', day: 'numeric'})}${w.start ? ` ${w.start}` : ''}` : '');
  const night = (w) => (w.date ? ` · ${day(w)}` : '');
  const division = (m) => (season.divisions.length && m.division ? h('span', {class: 'hint'}, ` (${m.division})`) : '');
  return h('section', {class: 'card wide'}, h('h2', {}, 'The season by week'),
    season.changes.length > 0 && h('ul', {class: 'plain-list season-changes'}, season.changes.map((c) =>
      h('li', {class: 'note'}, c.text))),
    season.play_order.map((n) => season.weeks[n - 1]).map((w) => h('details', {class: 'week', 'data-week': w.week,
      open: w.status === 'playing' || s.open.has(w.week),
      ontoggle: (e) => s.open[e.target.open ? 'add' : 'delete'](w.week)},
    h('summary', {class: 'btn btn-link'}, `Week ${w.week}${night(w)}${w.make_up ? ' (make-up)' : ''} · ${STATUS[w.status] || 'not seated'}`),
    w.date && (!w.status || w.status === 'scheduled') && cancelNight(s, w),
    h('ul', {class: 'plain-list'}, w.matches.map((m) => {
      if (m.bye) return h('li', {}, `${m.home.name}: bye`, division(m));
      const t = s.tables.get(m.match_id);
      const wp = (team) => `${team.name} ${points.get(team.id)?.[w.week] ?? 0}`;
      const panel = (kind) => s.panel?.key === kind + m.match_id;
      const open = (kind, label) => button(label, () => s.toggle(panel(kind) ? null : {key: kind + m.match_id}),
        {'aria-expanded': String(panel(kind))});
      // A week not started has no result yet: "v" and its night, not "0–0" and games "playing".
      const ahead = m.status === 'scheduled';
      return h('li', {class: 'match', 'data-match': m.match_id},
        h('p', {class: 'match-line'}, h('span', {class: 'table-no'}, `Table ${m.table}`),
          h('strong', {}, m.home.name), h('span', {class: 'match-score'}, ahead ? 'v' : `${m.games_won.home}–${m.games_won.away}`),
          h('strong', {}, m.away.name), division(m)),
        m.status === 'over' && h('p', {class: 'hint'}, `Week points: ${wp(m.home)} · ${wp(m.away)}`),
        ahead && h('p', {class: 'hint not-played'}, notPlayedWords(day({date: m.date, start: w.start}))),
        t && !ahead && h('p', {class: 'game-list'}, t.games.map((g) => gameLink(s.id, g, {A: m.home.name, B: m.away.name}))),
        m.moved && h('p', {class: 'note'}, `Played on ${m.date}: ${m.moved}`),
        m.forfeit_details.map((f) => [h('p', {class: 'note forfeit'}, `${f.name} forfeited`
          + `${f.advance ? ' ahead of the night' : ''}: ${f.offence_message}`),
        f.advance && ahead && takeBack(s, f.team_id, f.name, w.week, 'Take back',
          `Take back ${f.name}'s forfeit of week ${w.week}`)]),
        w.status !== 'closed' && h('div', {class: 'actions'}, open('f', 'Forfeit…'), open('s', 'Substitute…')),
        panel('f') && forfeitPanel(s, m, w.status !== 'playing'), panel('s') && t && seatPanel(s, t));
    })))));
}

/**
 * A forfeit announced ahead taken back (the team found a substitute), while its week has not
 * started: a second tap confirms; the server's words say what the team's offences are now.
 */
function takeBack(s, teamId, name, week, label, named) {
  const out = msg();
  return h('div', {class: 'actions take-back', 'data-week': week}, does(label, out,
    () => calls.takeBack(s.id, teamId, week), (r) => s.refresh(r.message),
    {sure: `Tap again: ${name} play week ${week}`, class: 'btn-small', 'aria-label': named}), out);
}

/** Record a forfeit; `ahead`: the week is still to come, so nobody can be late yet (a team
 * that calls ahead is a no show, or one player). */
function forfeitPanel(s, m, ahead) {
  const out = msg();
  const [teamSet, team] = choices('Which team forfeits?', [[m.home.id, m.home.name], [m.away.id, m.away.name]]);
  const reasons = s.d.season.forfeit_choices.filter((c) => !ahead || c.reason !== 'late');
  const [whySet, why] = choices('Why?', reasons.map((c) => [c, c.label]));
  const record = async () => {
    if (!team() || !why()) throw new Error('Choose the team and the reason first.');
    return calls.forfeit(s.id, m.match_id, {team_id: team(), reason: why().reason, minutes_late: why().minutes_late});
  };
  return h('div', {class: 'panel'}, teamSet, whySet, h('div', {class: 'actions'},
    s.act('Record the forfeit', out, record, (r) => `Forfeit recorded: game${r.games.length > 1 ? 's' : ''} `
      + `${r.games.join(', ')}. ${r.message}`, {class: 'btn-primary'}),
    button('Cancel', () => s.toggle(null))), out);
}

/** Who sits where at a match (roster players or substitutes), and new substitutes. */
function seatPanel(s, t) {
  const out = msg();
  const added = msg();
  const teams = new Map(s.d.teams.map((x) => [x.id, x]));
  const seats = t.seats.map((seat) => {
    const team = teams.get((seat.side === 'A' ? t.team_a : t.team_b).id);
    const id = `seat-${seat.seat}`;
    const select = h('select', {id, class: 'input'}, team.members.map((p) => h('option',
      {value: p.id, selected: p.id === seat.player_id}, p.role === 'substitute' ? `${p.name} (substitute)` : p.name)));
    return {seat, select, el: [h('label', {for: id}, `Seat ${seat.seat} · ${team.name}`), select]};
  });
  /** One seat at a time: when a later one fails, say which ones the server already has. */
  const save = async () => {
    let r = {};
    const saved = [];
    for (const {seat, select} of seats) {
      if (Number(select.value) === seat.player_id) continue;
      try {
        r = await calls.seatPlayer(s.id, t.match_id, seat.seat, Number(select.value));
        saved.push(seat.seat);
      } catch (e) {
        if (saved.length) throw new Error(`Seat ${saved.join(', ')} saved. Seat ${seat.seat}: ${failure(e)}`);
        throw e;
      }
    }
    return r;
  };
  const name = h('input', {id: 'sub-name', class: 'input', maxlength: 120, autocomplete: 'off'});
  const [teamSet, team] = choices('Add a substitute to', [[t.team_a.id, t.team_a.name], [t.team_b.id, t.team_b.name]]);
  const add = async () => {
    if (!team() || !name.value.trim()) throw new Error('Choose the team and type the name first.');
    return calls.addSub(s.id, team(), name.value.trim());
  };
  return h('div', {class: 'panel'}, seats.map((x) => x.el), h('div', {class: 'actions'},
    s.act('Save the seats', out, save, () => `Seats at table ${t.table} saved.`, {class: 'btn-primary'}),
    button('Cancel', () => s.toggle(null))), out,
  h('h3', {}, 'Someone not on a roster yet'), teamSet, h('label', {for: 'sub-name'}, 'Substitute\'s name'), name,
  s.act('Add the substitute', added, add, () => `${name.value.trim()} is a substitute now: choose them in a seat.`,
    {}, true), added);
}

function offencesCard(s) {
  const rows = s.d.season.offences.filter((o) => o.offences || o.ahead.length || o.playoff_excluded);
  return h('section', {class: 'card'}, h('h2', {}, 'Forfeits and offences'),
    h('p', {class: 'hint'}, 'Each week a team forfeits anything is one offence, from the week\'s start '
      + '(a week forfeited ahead counts when it starts). A flagged team may be left out of the playoffs: you decide.'),
    rows.length ? h('ul', {class: 'plain-list'}, rows.map((o) => {
      const out = msg();
      return h('li', {class: 'offence', 'data-team': o.team_id},
        h('p', {class: 'row-between'}, h('strong', {}, o.name), h('span', {class: ['badge',
          ['may-be-removed-from-playoffs', 'removed'].includes(o.status) && 'badge-away', o.removed && 'badge-gone']},
        plural(o.offences, 'offence'))),
        o.offences > 0 && h('p', {}, o.message), o.ahead_message && h('p', {class: 'note ahead'}, o.ahead_message),
        !o.removed && o.ahead.map((week) => takeBack(s, o.team_id, o.name, week, `Take back week ${week}`,
          `Take back week ${week} (${o.name})`)),
        o.playoff_excluded && h('p', {class: 'note'}, 'Left out of the playoffs.'),
        !o.removed && (o.status === 'may-be-removed-from-playoffs' || o.playoff_excluded) && s.act(o.playoff_excluded
          ? 'Put back into the playoffs' : 'Leave out of the playoffs', out,
        () => calls.playoffOut(s.id, o.team_id, !o.playoff_excluded),
        () => `${o.name}: ${o.playoff_excluded ? 'back in' : 'left out of'} the playoffs.`), out);
    })) : h('p', {}, 'No forfeits so far.'));
}

const rate = (x) => (typeof x === 'number' ? x.toFixed(3).replace(/^0/, '') : '');

function standingsCard(s) {
  const {board, bracket} = s.d;
  const seeds = new Map(bracket.seeds.map((x) => [x.id, x.seed]));
  // In divisions each is ranked on its own (RULES.md §6): the place is the division's.
  const divided = board.rows.some((r) => r.division);
  return h('section', {class: 'card'}, h('h2', {}, 'Standings and seeding'),
    h('p', {class: 'hint'}, 'By week points, then the rate of games won, then the opponents\' rate, '
      + 'then registration order (or the order recorded under Ties). "—": no playoff seed.'
      + `${divided ? ' Each division has its own places and prize: there is no overall place.' : ''}`),
    h('div', {class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Standings'}, h('table', {class: 'standings'},
      h('thead', {}, h('tr', {}, [divided && 'Division', divided ? 'Division place' : 'Place', 'Team', 'Points',
        'Games won', 'Win rate', 'Opp. rate', 'Seed'].filter(Boolean).map((c) => h('th', {scope: 'col'}, c)))),
      h('tbody', {}, board.rows.map((r) => h('tr', {class: r.prize ? 'prize' : null}, divided && h('td', {}, r.division || ''),
        h('td', {}, r.place ?? '–', r.prize ? h('span', {class: 'hint'}, ' (prize)') : ''), h('th', {scope: 'row'}, r.name),
        [r.total, `${r.games_won} of ${r.games_played}`, rate(r.stats.game_win_pct),
          rate(r.stats.strength_of_schedule), seeds.get(r.entrant_id) ?? '—'].map((v) => h('td', {}, v))))))));
}

function bracketCard(s) {
  const {bracket} = s.d;
  if (!bracket.rounds.length) return null;
  const slot = (m, k) => {
    const team = m[k];
    if (!team) return h('p', {class: 'slot tbd'}, m.bye ? 'bye' : 'to be decided');
    const won = m.winner === team.id && !m.bye;
    return h('p', {class: ['slot', won && 'won']}, h('span', {class: 'seed'}, team.seed ?? ''),
      h('span', {class: 'slot-name'}, team.name, won && h('span', {class: 'sr-only'}, ' (winner)')),
      m.games_won && h('span', {class: 'slot-score'}, m.games_won[k]));
  };
  return h('section', {class: 'card wide'}, h('h2', {}, 'Playoff bracket'),
    !bracket.drawn && h('p', {class: 'note'}, 'Not drawn yet: the bracket the standings give today.'),
    h('div', {class: 'bracket', tabindex: 0, role: 'region', 'aria-label': 'Bracket'}, bracket.rounds.map((r) =>
      h('section', {class: 'bracket-round'}, h('h3', {}, r.label, r.date ? h('span', {class: 'hint'}, ` · ${new Date(`${r.date}T12:00`)
        .toLocaleDateString(undefined, {weekday: 'short', month: 'short', day: 'numeric'})}`) : ''), h('div', {}, r.matches.map((m) => {
        const t = m.match_id && s.tables.get(m.match_id);
        const key = `p${m.match_id}`;
        return h('div', {class: 'bracket-match', 'data-match': m.match_id},
          m.division && h('p', {class: 'hint'}, m.division), slot(m, 'a'), slot(m, 'b'),
          m.date && m.date !== r.date && h('p', {class: 'hint match-night'}, `Played on ${m.date}`),
          m.games.length > 0 && h('p', {class: 'games-line'}, m.games.map((g) => `${g.points.a}–${g.points.b}`).join(' · ')),
          t?.round.status === 'playing' && h('p', {class: 'game-list'},
            t.games.map((g) => gameLink(s.id, g, {A: m.a.name, B: m.b.name})),
            button('Substitute…', () => s.toggle(s.panel?.key === key ? null : {key, m: m.match_id}),
              {'aria-expanded': String(s.panel?.key === key)})));
      }))))), s.panel?.m && seatPanel(s, s.tables.get(s.panel.m)));
}
