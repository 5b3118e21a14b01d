// The PWA's words (pwa/js/words.js): pure functions a screen reads, tested without a browser.
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {clockText, gameChipWords, namesWords, notPlayedWords, pages, plural, tablesWords} from '../../pwa/js/words.js';

test('plural says one and many', () => {
  assert.equal(plural(1, 'hand'), '1 hand');
  assert.equal(plural(0, 'hand'), '0 hands');
  assert.equal(plural(8, 'hand'), '8 hands');
});

test('pages split rows into pages of a size, the last one shorter', () => {
  const rows = Array.from({length: 23}, (_, i) => i);
  const split = pages(rows, 10);
  assert.equal(split.length, 3);
  assert.deepEqual(split.map((p) => p.length), [10, 10, 3]);
  assert.deepEqual(split.flat(), rows);
});

test('a clock reads as minutes and seconds', () => {
  assert.equal(clockText(125), '2:05');
  assert.equal(clockText(3600), '60:00');
});

test('a partnership reads as its two names, and none as nothing', () => {
  assert.equal(namesWords(['Ann', 'Bob']), 'Ann & Bob');
  assert.equal(namesWords(null), '');
});

test('tables are listed as people say them', () => {
  assert.equal(tablesWords([3]), 'table 3');
  assert.equal(tablesWords([7, 2, 4]), 'tables 2, 4 and 7');
});

test('no rows is still one empty page, and the clock never goes below zero', () => {
  assert.deepEqual(pages([], 10), [[]]);
  assert.equal(clockText(-30), '0:00');
  assert.equal(clockText(null), '');
});

test('a game chip says a game of a week to come is not played yet, with no score', () => {
  const names = {A: 'North', B: 'South'};
  const game = (status, more = {}) => ({status, points: {A: 0, B: 0}, end: null, ...more});
  assert.equal(gameChipWords(game('scheduled'), names), 'not played yet');
  assert.equal(gameChipWords(game('playing'), names), '0–0 · playing');
  assert.equal(gameChipWords(game('over', {points: {A: 10, B: 7}, end: 'target'}), names), '10–7');
  assert.equal(gameChipWords(game('over', {end: 'forfeit', forfeited_by: 'B'}), names), 'forfeited by South');
  assert.equal(notPlayedWords('Tue, Jan 12 19:00'), 'Not played yet · Tue, Jan 12 19:00');
  assert.equal(notPlayedWords(''), 'Not played yet');
});
