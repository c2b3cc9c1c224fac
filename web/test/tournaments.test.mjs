// Tournaments as the page keeps them from the server's messages, and the numbers as
// score sheets write them. The page computes no standings: these only check that what
// the server said is kept and written faithfully.
import test from 'node:test';
import assert from 'node:assert/strict';

import * as T from '../js/tournaments.js';

/**
 * @param {number} id
 * @param {string} name
 * @param {string} organiser
 */
function summary(id, name, organiser = 'Org') {
  return { id, name, format: { swiss: { rounds: 3 } }, game: 'caro', time: 'unlimited', organiser, status: 'entries', entrants: 0, round: 0, rounds: 3, rated: false };
}

/**
 * @param {number} id
 * @param {string} name
 * @param {string} organiser
 */
function view(id, name, organiser = 'Org') {
  return {
    summary: summary(id, name, organiser),
    settings: { name, format: { swiss: { rounds: 3 } }, room: { game: { caro: { width: 7, height: 7, rule: 'Freestyle', opening: 'none' } }, time: { clock: { initial_millis: 300000, increment_millis: 3000 } }, first: 'me', seats: ['human', 'human'], hints: true, rated: false }, rated: false, start: 'manual', bye: 'win', forfeit_secs: 120, tie_breaks: ['buchholz_cut1'] },
    entrants: [
      { number: 1, name: '~An', bot: null, rating: 0, withdrawn: false },
      { number: 2, name: 'Bình', bot: null, rating: 1500, withdrawn: false },
    ],
    boards: [
      { round: 1, board: 1, white: 2, black: 1, room: 7, result: null, by_hand: false },
      { round: 1, board: 2, white: 3, black: 4, room: 8, result: 'draw', by_hand: true },
    ],
    byes: [],
    tie_breaks: ['buchholz_cut1'],
    standings: [],
    crosstable: [],
    ends_in_ms: null,
    starts_in_ms: null,
  };
}

test('the list follows the server; a view updates its line and the open screen only', () => {
  const s = T.noTournaments();
  assert.equal(T.applyTournament(s, { Tournaments: [summary(2, 'B'), summary(1, 'A')] }, 0, 'An'), 'list');
  assert.deepEqual(s.list.map((l) => l.id), [2, 1]);
  assert.equal(T.applyTournament(s, { Tournaments: [summary(2, 'B'), summary(1, 'A')] }, 0, 'An'), 'same', 'the same list asked again');
  // Another tournament's view: its line changes, nothing opens.
  const v1 = view(1, 'A');
  v1.summary.entrants = 5;
  assert.equal(T.applyTournament(s, { Tournament: v1 }, 10, 'An'), 'list');
  assert.equal(s.list[1].entrants, 5);
  assert.equal(s.view, null);
  assert.deepEqual(s.list[1].time, v1.summary.time, 'the line shows the time control the server sends');
  // The open one's view is kept, with when it came.
  s.open = 2;
  assert.equal(T.applyTournament(s, { Tournament: view(2, 'B') }, 20, 'An'), 'view');
  assert.equal(s.view.summary.id, 2);
  assert.equal(s.viewAt, 20);
  // A new tournament's line comes first.
  T.applyTournament(s, { Tournament: view(3, 'C') }, 30, 'An');
  assert.deepEqual(s.list.map((l) => l.id), [3, 2, 1]);
  assert.equal(T.applyTournament(s, 'Pong', 0, 'An'), null);
  assert.equal(T.applyTournament(s, { Error: { code: 'unexpected', message: '' } }, 0, 'An'), null);
});

test('the tournament this page created opens when its view comes', () => {
  const s = T.noTournaments();
  s.creating = 'Friday';
  // Someone else's tournament of another name does not open.
  assert.equal(T.applyTournament(s, { Tournament: view(4, 'Other', 'Org') }, 0, 'Mai'), 'list');
  assert.equal(s.open, null);
  assert.equal(T.applyTournament(s, { Tournament: view(5, 'Friday', 'mai') }, 0, 'Mai'), 'made');
  assert.equal(s.open, 5);
  assert.equal(s.creating, null);
});

test('my entry and my board are the server\'s, found by name', () => {
  const v = view(1, 'A');
  assert.equal(T.myEntrant(v, '~an').number, 1);
  assert.equal(T.myBoard(v, '~An').room, 7);
  assert.equal(T.myBoard(v, 'Bình').room, 7);
  assert.equal(T.myBoard(v, 'Chi'), null);
  assert.ok(T.organises(v, 'org'));
  assert.ok(!T.organises(v, 'An'));
});

test('points, tie-breaks and results as score sheets write them', () => {
  assert.equal(T.points(0), '0');
  assert.equal(T.points(5), '½');
  assert.equal(T.points(25), '2½');
  assert.equal(T.points(30), '3');
  assert.equal(T.points(33), '3.3');
  assert.equal(T.tieBreakValue(450), '4.5');
  assert.equal(T.tieBreakValue(75), '0.75');
  assert.equal(T.tieBreakValue(1200), '12');
  assert.deepEqual(T.readTieBreaks('BH-C1, bh SB,de , win won'), ['buchholz_cut1', 'buchholz', 'sonneborn_berger', 'direct_encounter', 'wins', 'games_won']);
  assert.deepEqual(T.readTieBreaks(''), []);
  assert.equal(T.readTieBreaks('BH, XYZ'), null);
  assert.equal(T.RESULT_TEXT.white_wins, '1-0');
});
