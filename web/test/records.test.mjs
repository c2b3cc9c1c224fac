// The leaderboard's places, by the rule the terminal and the server's profiles use.
import test from 'node:test';
import assert from 'node:assert/strict';

import { places } from '../js/records.js';

/**
 * @param {number} rating
 * @param {boolean} provisional
 */
const line = (rating, provisional) => ({ rating: { rating, deviation: provisional ? 200 : 60, provisional } });

test('settled ratings have places, equal ones share, provisional ones have none', () => {
  // As the server sends them: settled first, best first, then provisional ones.
  const standings = [line(1700, false), line(1650, false), line(1650, false), line(1600, false), line(1800, true), line(1500, true)];
  assert.deepEqual(places(/** @type {any} */ (standings)), [1, 2, 2, 4, null, null]);
  assert.deepEqual(places([]), []);
});
