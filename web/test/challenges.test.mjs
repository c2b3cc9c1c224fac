// Challenges as the page keeps them from the server's messages, and an open
// challenge's link; a room's match as its messages leave it.
import test from 'node:test';
import assert from 'node:assert/strict';

import * as c from '../js/challenges.js';
import * as s from '../js/state.js';

/**
 * @param {number} id
 * @param {string} from
 * @param {string | null} to
 */
function ch(id, from, to) {
  return { id, from, from_bot: false, to, settings: { game: { xiangqi: { fen: null } }, time: 'unlimited', first: 'me', seats: ['human', 'human'], hints: true, rated: true }, expires_in_ms: 60000 };
}

test('the lists follow the server', () => {
  const state = c.noChallenges('accounts');
  assert.equal(state.policy, 'accounts');
  assert.deepEqual(c.applyChallenge(state, /** @type {any} */ ({ Challenged: ch(1, 'An', 'Bình') })), { kind: 'incoming', challenge: ch(1, 'An', 'Bình') });
  // The same challenge told again replaces the first.
  c.applyChallenge(state, /** @type {any} */ ({ Challenged: ch(1, 'An', 'Bình') }));
  assert.equal(state.incoming.length, 1);
  c.applyChallenge(state, /** @type {any} */ ({ ChallengeSent: ch(2, 'Bình', null) }));
  c.applyChallenge(state, /** @type {any} */ ({ OpenChallenges: [ch(2, 'Bình', null), ch(3, 'Chi', null)] }));
  assert.deepEqual(c.othersOpen(state, 'Bình').map((x) => x.id), [3]);
  // An end drops it everywhere, and says what it was.
  const ended = c.applyChallenge(state, /** @type {any} */ ({ ChallengeEnded: { id: 2, end: 'cancelled' } }));
  assert.equal(ended && ended.kind === 'ended' && ended.was && ended.was.id, 2);
  assert.deepEqual(state.sent, []);
  assert.deepEqual(state.open.map((x) => x.id), [3]);
  const unknown = c.applyChallenge(state, /** @type {any} */ ({ ChallengeEnded: { id: 9, end: 'expired' } }));
  assert.equal(unknown && unknown.kind === 'ended' && unknown.was, null);
  assert.deepEqual(c.applyChallenge(state, /** @type {any} */ ({ ChallengesSet: 'nobody' })), { kind: 'policy', policy: 'nobody' });
  assert.equal(state.policy, 'nobody');
  c.applyChallenge(state, /** @type {any} */ ({ Players: [{ name: 'An', level: null, account: true, bot: false, playing: false, challenges: 'everyone' }] }));
  assert.equal(state.players.length, 1);
  // Messages about other things are not challenges'.
  assert.equal(c.applyChallenge(state, /** @type {any} */ ({ Chat: { from: 'An', text: 'hi', at_ms: 0 } })), null);
  assert.equal(c.applyChallenge(state, /** @type {any} */ ('Pong')), null);
});

test('an open challenge link names its number, beside the key fingerprint', () => {
  const fp = 'ab'.repeat(32);
  assert.equal(c.linkedChallenge('#challenge=4'), 4);
  assert.equal(c.linkedChallenge(`#challenge=12&fp=${fp}`), 12);
  assert.equal(c.linkedChallenge(`#fp=${fp}&challenge=7`), 7);
  assert.equal(c.linkedChallenge(`#fp=${fp}`), null);
  assert.equal(c.linkedChallenge('#challenge=x'), null);
  assert.equal(c.challengeLink('https://10.0.0.2:7373', `#fp=${fp}`, 4), `https://10.0.0.2:7373/#challenge=4&fp=${fp}`);
  assert.equal(c.challengeLink('http://h:7373', '', 4), 'http://h:7373/#challenge=4');
  assert.equal(c.botName('Max'), 'Bot (max)');
});

test('who moves first is said from the reader side', () => {
  const mine = ch(1, 'An', 'Bình');
  // Without a language loaded the words are their keys: which one is chosen is the point.
  assert.equal(c.firstText(mine, 'An'), 'challenge.first_you');
  assert.equal(c.firstText(mine, 'Bình'), 'challenge.first_them');
  const theirs = { ...mine, settings: { ...mine.settings, first: /** @type {const} */ ('them') } };
  assert.equal(c.firstText(theirs, 'Bình'), 'challenge.first_you');
  const coin = { ...mine, settings: { ...mine.settings, first: /** @type {const} */ ('random') } };
  assert.equal(c.firstText(coin, 'An'), 'challenge.first_random');
  assert.equal(c.endedText(1, { declined: { by: 'Bình', reason: 'time_control' } }, mine, 'An').warn, true);
  assert.equal(c.endedText(1, { accepted: { by: 'Bình', room: 3 } }, mine, 'An').warn, false);
});

test('a match: its score replaces the series, the break counts down, the result ends it', () => {
  const view = {
    id: 1,
    settings: { game: { caro: { width: 15, height: 15, rule: 'Caro', opening: 'none' } }, time: 'unlimited', first: 'me', seats: ['human', 'human'], hints: true, match_format: { games: 2, first_to: null } },
    you: { player: 'one' },
    seats: [{ name: 'An', bot: null, connected: true }, { name: 'Bình', bot: null, connected: true }],
    spectators: [],
    game: { number: 1, first: 'one', start_fen: '', opening: [], moves: [], clocks: null, over: null },
    offer: null,
    chat: [],
    series: { wins: [0, 0], draws: 0 },
    match_state: { format: { games: 2, first_to: null }, number: 1, score: { wins: [0, 0], draws: 0 }, leader: null, game: 1, next_game_in_ms: null, result: null },
  };
  const room = s.roomFromView(/** @type {any} */ (view), 1000);
  assert.equal(s.inMatch(room), true);
  assert.equal(s.nextGameIn(room, 1000), null); // a game runs
  s.apply(room, /** @type {any} */ ({ GameOver: { winner: 'one', reason: 'five', line: null } }), 2000);
  s.apply(room, /** @type {any} */ ({ Match: { ...view.match_state, score: { wins: [1, 0], draws: 0 }, leader: 'one', next_game_in_ms: 10000 } }), 2000);
  assert.deepEqual(room.series.wins, [1, 0]);
  assert.equal(s.nextGameIn(room, 5000), 7000);
  assert.equal(s.nextGameIn(room, 20000), 0);
  s.apply(room, /** @type {any} */ ({ MatchOver: { winner: 'two', score: { wins: [1, 1], draws: 0 }, reason: 'resign' } }), 6000);
  assert.equal(s.inMatch(room), false);
  assert.equal(room.match && room.match.result && room.match.result.reason, 'resign');
  assert.deepEqual(room.series.wins, [1, 1]);
  assert.equal(s.nextGameIn(room, 6000), null);
});
