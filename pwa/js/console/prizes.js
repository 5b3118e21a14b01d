/**
 * /e/<id>/organize/prizes: the prize table's tools. Entry fees and the prize pool, who paid,
 * disqualification, awards of the organizer's own, categories with their own places, and door
 * prizes. Each card is its own module; this screen lays them out and keeps them live from the
 * leaderboard's poll. Every figure is the server's.
 */

import {pollLeaderboard} from '../api.js';
import {mount} from '../dom.js';
import * as calls from './calls.js';
import {categoriesCard} from './categories.js';
import {disqualifyCard} from './disqualify.js';
import {drawsCard} from './draws.js';
import {frame} from './frame.js';
import {moneyCard} from './money.js';
import {namedAwardsCard} from './named-awards.js';

export async function render(main, {eventId}) {
  const id = Number(eventId);
  const framed = await frame(main, id, 'prizes', 'Prizes');
  if (!framed) return;
  const teams = framed.event?.format?.parameters?.entry === 'team';
  let field = null;
  // The field, read once for every card that picks names.
  const entrants = () => (field ??= (teams ? calls.teams(id)
    : calls.players(id).then((all) => all.filter((p) => p.role === 'player'))));
  const cards = [moneyCard(id, teams, entrants), disqualifyCard(id, teams, entrants),
    namedAwardsCard(id, teams, entrants), categoriesCard(id, teams, entrants),
    drawsCard(id, `/e/${id}/projector`)];
  mount(framed.body, cards.map((c) => c.el));
  return pollLeaderboard(id, (board) => {
    if (board) cards.forEach((c) => c.update(board));
  }, 5000);
}
