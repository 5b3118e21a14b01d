// The phone's provisional score (pwa/js/provisional.js) against the rules engine: for every
// format and every hand a runner can tap, the points the phone adds while offline are the
// points the server will store. The cases and the formats as the API serves them are written
// by tests/js/test_pure_modules.py (CASES names the file); run with `node --test tests/js/`.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

import {provisionalScore} from '../../pwa/js/provisional.js';

const cases = process.env.CASES ? JSON.parse(readFileSync(process.env.CASES, 'utf8')) : null;

test('every hand adds what the rules score, in every format', {skip: !cases && 'CASES not set'}, () => {
  let checked = 0;
  for (const {format, hands} of cases.formats) {
    for (const {body, points} of hands) {
      const score = provisionalScore({A: 3, B: 4}, [{handId: 'h', body}], format);
      assert.equal(score.missing, null, `${format.key}: ${JSON.stringify(body)}`);
      assert.deepEqual(score.points, {A: 3 + points.A, B: 4 + points.B},
        `${format.key}: ${JSON.stringify(body)}`);
      checked += 1;
    }
  }
  assert.ok(checked > 100, `only ${checked} hands checked`);
});

test('a hand the server already has is not counted twice', {skip: !cases && 'CASES not set'}, () => {
  const {format, hands} = cases.formats[0];
  const entry = {handId: 'h1', body: hands[0].body};
  const score = provisionalScore({A: 0, B: 0}, [entry], format, ['h1']);
  assert.deepEqual(score, {points: {A: 0, B: 0}, added: {A: 0, B: 0}, hands: 0, missing: null});
});

test('a format that lacks a row says what is missing instead of guessing', () => {
  const body = {maker: 'A', tricks: 3, alone: false};
  const score = provisionalScore({A: 5, B: 2}, [{handId: 'x', body}], {points: {}, hand_values: []});
  assert.deepEqual(score.points, {A: 5, B: 2});
  assert.match(score.missing, /3 tricks/);
});
