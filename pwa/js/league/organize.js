/**
 * The League section's season tools, loaded on first use: captains' registration (its link
 * and QR to print, the deadline, the week after which rosters are final), a captain's link for
 * any team, the divisions captains choose from, a cancelled week made up on a night of its own,
 * one match moved to another night (a playoff match too), and the playoff rounds' nights (several
 * rounds on one night, or a round on a date of its own). Every change goes to the server; the section reads the season again after it.
 */

import {button, h} from '../dom.js';
import {leagueOps, qr} from '../console/calls.js';
import {act, card, does, inp, lab, linkBox, msg} from '../console/ui.js';

export async function tools(s) {
  const reg = await leagueOps(s.id, 'GET', '/registration');
  const weeks = s.d.season.weeks;
  return [registrationCard(s, reg, reg.link ? await qr(reg.link, 'Register your team') : null),
    teamKeyCard(s), weeks.some((w) => w.date) && makeUpCard(s, weeks), weeks.some((w) => w.date) && moveCard(s, weeks),
    weeks.length > 0 && s.d.bracket.rounds.length > 0 && playoffNightsCard(s)];
}

function registrationCard(s, reg, code) {
  const out = msg();
  const closes = inp('reg-closes', {type: 'datetime-local', value: (reg.closes || '').replace(' ', 'T')});
  const lock = inp('reg-lock', {type: 'number', min: 1, max: 60, inputmode: 'numeric', value: reg.lock_after_week});
  const divisions = inp('reg-divisions', {maxlength: 400, value: (reg.divisions || []).join(', '),
    placeholder: 'e.g. Upper, Lower (empty: you place the teams)'});
  return card('Captains register their teams',
    h('p', {}, reg.token ? reg.message : 'Open a registration link: a captain enters the team and its '
      + 'substitutes on a phone, and gets a team key to keep the roster.'),
    h('p', {class: 'hint'}, reg.roster_message),
    lab(closes, `Registration closes (${reg.time_zone})`), closes,
    lab(lock, 'Rosters are final after week'), lock,
    lab(divisions, 'Divisions captains choose from (comma between)'), divisions,
    s.act(reg.token ? 'Save' : 'Open the registration link', out, () => leagueOps(s.id, 'PUT', '/registration',
      {closes: closes.value || null, lock_after_week: Number(lock.value) || 2,
        divisions: divisions.value.split(',').map((d) => d.trim()).filter(Boolean)}), () => 'Registration saved.',
    {class: 'btn-primary'}),
    reg.link && linkBox('Team registration link (print its QR)', reg.link, code),
    reg.link && s.act('New link (the old QR stops working)', out, () => leagueOps(s.id, 'PUT', '/registration',
      {rotate: true}), () => 'A new registration link is made.'),
    reg.link && !s.d.season.weeks.length && h('p', {class: 'hint'}, 'Someone filled the league with teams '
      + 'through the link? Remove every team registered through it at once (the teams you added stay), '
      + 'then make a new link.'),
    reg.link && !s.d.season.weeks.length && does('Remove teams registered through the link', out,
      () => leagueOps(s.id, 'POST', '/registration/remove-teams', {}),
      (r) => s.refresh(r.removed ? `${r.removed} team${r.removed > 1 ? 's' : ''} removed: ${r.names.join(', ')}.`
        : 'No team was registered through the link.'), {class: 'btn-small', sure: 'Tap again: remove them all'}),
    out);
}

function teamKeyCard(s) {
  const out = msg();
  const select = h('select', {id: 'key-team', class: 'input'}, s.d.teams.map((t) => h('option', {value: t.id}, t.name)));
  const shown = h('div');
  return card('A captain\'s link', h('p', {class: 'hint'}, 'For a team you registered, or a captain who lost '
    + 'theirs: a new team key, shown once; the team\'s older key stops working.'),
  lab(select, 'Team'), select,
  button('Make the captain\'s link', async (e) => {
    const r = await act(e.currentTarget, out, () => leagueOps(s.id, 'POST', `/teams/${select.value}/key`));
    if (r) shown.replaceChildren(linkBox('Captain\'s link (shown once)', r.link));
  }), out, shown);
}

const dateOf = (w) => `Week ${w.week}${w.date ? ` (${w.date})` : ''}`;

function makeUpCard(s, weeks) {
  const out = msg();
  const open = weeks.filter((w) => !w.status || w.status === 'scheduled');
  const week = h('select', {id: 'mu-week', class: 'input'}, open.map((w) => h('option', {value: w.week}, dateOf(w))));
  const night = inp('mu-date', {type: 'date'});
  const why = inp('mu-why', {maxlength: 200, placeholder: 'e.g. the hall is booked'});
  return card('Make a cancelled week up later',
    h('p', {class: 'hint'}, 'The other weeks stay on their nights; the cancelled week is played on the night you '
      + 'choose (empty: a week after the last night).'),
    lab(week, 'Cancelled week'), week, lab(night, 'Make-up night'), night, lab(why, 'Why'), why,
    s.act('Move this week to its make-up night', out, () => leagueOps(s.id, 'POST', '/season/make-up',
      {week: Number(week.value), date: night.value || null, reason: why.value.trim()}),
    (r) => r.changes.at(-1).text), out);
}

function moveCard(s, weeks) {
  const out = msg();
  // Playoff matches drawn and not decided move too (RULES.md §6: playoffs on other days).
  const playoff = s.d.bracket.rounds.filter((r) => !r.projected).flatMap((r) => r.matches
    .filter((m) => m.match_id && !m.winner && m.a && m.b).map((m) =>
      h('option', {value: m.match_id}, `${r.label}${m.date ? ` (${m.date})` : ''}: ${m.a.name} v ${m.b.name}`)));
  const match = h('select', {id: 'mv-match', class: 'input'}, weeks.filter((w) => w.status !== 'closed')
    .flatMap((w) => w.matches.filter((m) => !m.bye && m.match_id).map((m) =>
      h('option', {value: m.match_id}, `${dateOf(w)}: ${m.home.name} v ${m.away.name}`))), playoff);
  const night = inp('mv-date', {type: 'date'});
  const why = inp('mv-why', {maxlength: 200});
  return card('Move one match to another night',
    lab(match, 'Match'), match, lab(night, 'New night'), night, lab(why, 'Why'), why,
    s.act('Move the match', out, () => leagueOps(s.id, 'POST', '/season/move-match',
      {match_id: Number(match.value), date: night.value, reason: why.value.trim()}),
    (r) => r.changes.at(-1).text), out);
}

/** The playoff rounds' nights: each round's date (a week after the one before it unless given),
 * so several rounds can share a night or any round have a date of its own. */
function playoffNightsCard(s) {
  const out = msg();
  const rounds = s.d.bracket.rounds;
  const fields = rounds.map((r) => inp(`po-night-${r.round}`, {type: 'date', value: r.chosen ? r.date : '',
    placeholder: r.date || ''}));
  return card('Playoff nights',
    h('p', {class: 'hint'}, 'The playoffs take one to three weeks and may be played on other nights: give two '
      + 'rounds the same date to play them on one night. Empty: a week after the round before it.'),
    rounds.map((r, i) => [lab(fields[i], `${r.label} (now ${r.date || 'no date'})`), fields[i]]),
    s.act('Save the playoff nights', out, () => leagueOps(s.id, 'PUT', '/season/playoff-nights',
      {nights: rounds.map((r, i) => ({round: r.round, date: fields[i].value || null}))}),
    (r) => `Playoff nights: ${r.rounds.map((x) => `${x.label} ${x.date}`).join(' · ')}.`, {class: 'btn-primary'}), out);
}
