/**
 * The money of the night, on the Prizes section: the entry fee, the maintenance fee (an amount
 * or a per cent), who paid, and what the server makes of it: the pool, each paid place's amount,
 * who takes what (shared places share the money of the places they cover) and what is left
 * over for the organizer. Every figure is the server's (api/rules/prizes.py).
 */

import {h, mount} from '../dom.js';
import * as calls from './calls.js';
import {act, failure, inp, lab, msg, say} from './ui.js';

const ordinal = (n) => `${n}${['th', 'st', 'nd', 'rd'][(n % 100 > 10 && n % 100 < 14) || n % 10 > 3 ? 0 : n % 10]}`;

/** The card; `entrants()` reads the field. Returns {el, update} (update: the board changed). */
export function moneyCard(id, teams, entrants) {
  const out = msg();
  const fee = inp('money-fee', {type: 'number', min: 0, max: 100000, inputmode: 'numeric'});
  const currency = inp('money-currency', {maxlength: 3, value: '$', size: 3});
  const keptKind = h('select', {id: 'money-kept-kind', class: 'input'},
    h('option', {value: 'amount'}, 'an amount'), h('option', {value: 'percent'}, 'a per cent of the fees'));
  const kept = inp('money-kept', {type: 'number', min: 0, inputmode: 'numeric', value: 0});
  const save = h('button', {type: 'submit', class: 'btn btn-primary'}, 'Save the money');
  const summary = h('div', {class: 'money-summary', 'aria-live': 'polite'});
  const paidList = h('ul', {class: 'plain-list paid-list'});
  const paidTitle = h('span', {});
  let view = null;
  let field = [];

  const money = (n) => `${view?.currency || '$'}${n}`;
  function paint() {
    if (!view) return;
    // "Unpaid" counts the checked-in only: a registered no-show owes nothing (RULES.md §4).
    mount(paidTitle, `Who paid (${view.paid} paid · ${view.unpaid} checked in, not paid)`);
    if (!view.set) {
      mount(summary, h('p', {class: 'hint'}, 'No entry fee at this event: set one to keep a prize pool.'));
      return;
    }
    mount(summary,
      h('p', {class: 'pool'}, h('strong', {}, `${money(view.pool)} to pay out`),
        ` · ${view.paid} paid × ${money(view.entry_fee)} = ${money(view.collected)}, less `
        + `${money(view.maintenance)} maintenance`),
      h('ol', {class: 'plain-list money-places'}, view.places.map((p) => h('li', {},
        `${ordinal(p.place)}: ${p.percent}% = ${money(p.amount)}`))),
      view.payouts.length > 0 && h('table', {class: 'standings payouts'},
        h('thead', {}, h('tr', {}, ['Place', teams ? 'Team' : 'Player', 'Takes home'].map((c) => h('th', {scope: 'col'}, c)))),
        h('tbody', {}, view.payouts.map((p) => h('tr', {class: p.paid ? null : 'unpaid'}, h('td', {}, p.shared ? `=${p.place}` : p.place),
          h('th', {scope: 'row'}, p.name || '?', !p.paid && [' ', h('span', {class: 'badge badge-unpaid'}, 'unpaid')]),
          h('td', {}, money(p.amount)))))),
      view.unpaid_winners > 0 && h('p', {class: 'note unpaid-winners'},
        `${view.unpaid_winners === 1 ? 'One winner is' : `${view.unpaid_winners} winners are`} not marked paid: `
        + 'settle the entry fee at the prize table (the prize stays theirs).'),
      h('p', {class: 'hint'}, view.remainder
        ? `${money(view.remainder)} does not divide evenly among shared places: it stays with the organizer `
          + `(${money(view.kept_by_organizer)} in all with the maintenance fee).`
        : `The organizer keeps ${money(view.kept_by_organizer)} (the maintenance fee).`));
  }

  function paintPaid() {
    mount(paidList, field.map((e) => h('li', {}, h('label', {class: 'check'}, h('input', {type: 'checkbox',
      checked: e.paid, 'aria-label': `${e.name} paid`, onchange: async (ev) => {
        const box = ev.currentTarget;
        box.disabled = true;
        try {
          const saved = await calls.setEntrant(id, teams, e.id, {paid: box.checked});
          e.paid = saved.paid;
          say(out, `${saved.name}: ${saved.paid ? 'paid' : 'not paid'}.`);
          refresh();
        } catch (error) {
          box.checked = e.paid;
          say(out, failure(error), 'error');
        } finally {
          box.disabled = false;
        }
      }}), ` ${e.name}`))));
  }

  // Only the latest read paints: boxes ticked in a row each read again, and an earlier
  // read answered last would show the money as it was before the later ticks.
  let reads = 0;
  async function refresh() {
    const mine = ++reads;
    try {
      const read = await calls.money(id);
      if (mine !== reads) return;
      view = read;
      paint();
    } catch (error) {
      if (mine !== reads) return;
      mount(summary, h('p', {class: 'hint'}, `Not updated: ${failure(error, true)}`));
    }
  }

  const form = h('form', {class: 'form', onsubmit: async (e) => {
    e.preventDefault();
    const amount = Number(kept.value || 0);
    const body = {entry_fee: Number(fee.value || 0), currency: currency.value.trim() || '$',
      maintenance_amount: keptKind.value === 'amount' ? amount : 0,
      maintenance_percent: keptKind.value === 'percent' ? amount : 0};
    const saved = await act(save, out, () => calls.setMoney(id, body));
    if (saved) {
      reads++; // a read still on its way is older than what was just saved
      view = saved;
      say(out, `Saved: ${money(saved.entry_fee)} a ${teams ? 'team' : 'player'}, ${money(saved.pool)} to pay out so far.`);
      paint();
    }
  }}, lab(fee, `Entry fee (a ${teams ? 'team' : 'player'}, whole units)`), fee,
  lab(currency, 'Currency'), currency,
  h('label', {for: 'money-kept'}, 'Maintenance fee, as ', keptKind), kept, save);

  const el = h('section', {class: 'card money-card'}, h('h2', {}, 'Entry fees and prize money'),
    summary, form, out,
    h('details', {class: 'paid'}, h('summary', {class: 'btn btn-link'}, paidTitle), paidList));

  (async () => {
    await refresh();
    if (view?.set) {
      fee.value = view.entry_fee;
      currency.value = view.currency;
      keptKind.value = view.maintenance_percent ? 'percent' : 'amount';
      kept.value = view.maintenance_percent || view.maintenance_amount;
    }
    try {
      field = await entrants();
      paintPaid();
    } catch (error) {
      mount(paidList, h('li', {class: 'hint'}, failure(error, true)));
    }
  })();
  return {el, update: refresh};
}
