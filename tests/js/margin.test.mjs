// node --test: a race's margin as the seconds a note shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatMargin } from '../../static/common/margin.js';

test('hundredths of a second, in the language\'s own decimal mark', () => {
  assert.equal(formatMargin(40, 'en'), '0.04');
  assert.equal(formatMargin(1500, 'en'), '1.50');
  assert.equal(formatMargin(40, 'de'), '0,04');
  assert.equal(formatMargin(1234, 'fi'), '1,23');
});

test('a photo finish keeps its thousandths, and nothing is negative', () => {
  assert.equal(formatMargin(4, 'en'), '0.004');
  assert.equal(formatMargin(0, 'en'), '0.000');
  assert.equal(formatMargin(-5, 'en'), '0.000');
});
