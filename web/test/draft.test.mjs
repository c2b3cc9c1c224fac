// Draft moves: trial moves the server judges (the page keeps what it shows), never
// touching the real game; and the profile's chart and recorded bot names. (Record files
// are read and written by the server with the rules crate's one parser: their tests are
// Rust tests now, in rules/src/record/tests.rs and tests/tests/browser_screens.rs.)
import test from 'node:test';
import assert from 'node:assert/strict';

import * as d from '../js/draft.js';
import * as s from '../js/state.js';

function caroRoom() {
  const room = s.roomFromView(
    {
      id: 1,
      settings: { game: { caro: { width: 15, height: 15, rule: 'Caro', opening: 'none' } }, time: 'unlimited', seats: ['human', 'human'], hints: true },
      you: { player: 'one' },
      seats: [{ name: 'An', bot: null, connected: true }, { name: 'Bình', bot: null, connected: true }],
      spectators: [],
      game: { number: 1, first: 'one', opening: [], moves: [{ mv: { caro: { x: 7, y: 7 } }, by: 'one', wxf: '', check: false }], clocks: null, over: null, start_fen: null },
      offer: null,
      chat: [],
    },
    0,
  );
  return room;
}

/** The server's answer to a Trial, as it would send it. */
function answer(room, asked, moves, refused = null) {
  return { asked, game: room.game.number, ply: room.game.moves.length, moves, refused, facts: { game: 1, ply: 1, legal: [], check: false, fives: [[], []], three_stops: [[], []] }, over: null };
}

const rec = (mv, by) => ({ mv, by, wxf: '', check: false });

test('draft moves go on a copy: the server judges them, the real game is untouched', () => {
  const room = caroRoom();
  const draft = d.startDraft(room);
  // The page asks about its line; the server's answer is what stands.
  const ask = d.draftCaro(draft, { x: 7, y: 7 });
  assert.deepEqual(ask, { Trial: [{ caro: { x: 7, y: 7 } }] });
  assert.equal(d.tried(room, draft, answer(room, ask.Trial, [], 'h8 is already taken')), 'h8 is already taken');
  assert.equal(draft.trials.length, 0);
  const two = [{ caro: { x: 8, y: 8 } }, { caro: { x: 9, y: 9 } }];
  d.draftCaro(draft, two[0].caro);
  assert.equal(d.tried(room, draft, answer(room, [two[0]], [rec(two[0], 'two')])), '');
  const ask2 = d.draftCaro(draft, two[1].caro);
  assert.deepEqual(ask2, { Trial: two });
  // An answer about another line, or about a position since changed, is dropped.
  assert.equal(d.tried(room, draft, answer(room, [two[1]], [])), null);
  assert.equal(d.tried(room, draft, { ...answer(room, two, []), ply: 0 }), null);
  assert.equal(d.tried(room, draft, answer(room, two, [rec(two[0], 'two'), rec(two[1], 'one')])), '');
  assert.equal(room.game.moves.length, 1, 'the real game has its one move');
  const view = d.draftRoom(room, draft);
  assert.equal(s.caroStones(view).get('8,8'), 'O', 'the first trial is the side to move');
  assert.equal(s.caroStones(view).get('9,9'), 'X');
  assert.deepEqual([...d.trialSpots(draft)], ['8,8', '9,9']);
  assert.deepEqual(d.draftUndo(draft), { Trial: [two[0]] });
  assert.deepEqual(d.draftUndo(draft), { Trial: [] });
  assert.equal(d.draftUndo(draft), 'draft.nothing_to_undo');
});

test('a xiangqi draft picks up a piece of the side to move, then asks the server to move it', () => {
  const room = caroRoom();
  room.settings = { ...room.settings, game: { xiangqi: { fen: null } } };
  room.game = { ...room.game, moves: [] };
  const draft = d.startDraft(room);
  // Black's horse is not Red's to move.
  assert.equal(d.draftXiangqi(room, draft, { file: 7, rank: 9 }), null);
  assert.equal(draft.selected, null);
  assert.equal(d.draftXiangqi(room, draft, { file: 7, rank: 2 }), null);
  draft.facts = { game: 1, ply: 0, legal: [{ xiangqi: { from: { file: 7, rank: 2 }, to: { file: 4, rank: 2 } } }], check: false, fives: [[], []], three_stops: [[], []] };
  assert.deepEqual(d.draftTargets(draft), [{ file: 4, rank: 2 }]);
  const cannon = { xiangqi: { from: { file: 7, rank: 2 }, to: { file: 4, rank: 2 } } };
  assert.deepEqual(d.draftXiangqi(room, draft, { file: 4, rank: 2 }), { Trial: [cannon] });
  d.tried(room, draft, answer(room, [cannon], [{ mv: cannon, by: 'one', wxf: 'C2.5', check: false }]));
  assert.equal(draft.trials.length, 1);
  assert.equal(s.xiangqiPieces(d.draftRoom(room, draft))[2][4], 'C');
  assert.equal(s.xiangqiPieces(room)[2][7], 'C', 'the real board is unchanged');
});

test('the rating chart spans its box, higher ratings higher up', async () => {
  const { chartPoints } = await import('../js/profile.js');
  assert.equal(chartPoints([], 200, 50), '');
  const line = chartPoints([{ rating: 1500 }, { rating: 1600 }, { rating: 1550 }], 200, 50)
    .split(' ')
    .map((p) => p.split(',').map(Number));
  assert.deepEqual(line.map(([x]) => x), [0, 100, 200]);
  assert.ok(line[1][1] < line[2][1] && line[2][1] < line[0][1], `${line}`);
  assert.ok(line.every(([, y]) => y >= 0 && y <= 50));
});

test('a bot is told from a person by its recorded name', async () => {
  const { botOfName } = await import('../js/notation.js');
  assert.equal(botOfName('Bot (hard)'), 'Hard');
  assert.equal(botOfName(' bot (MAX) '), 'Max');
  assert.equal(botOfName('Bot (expert)'), 'Expert');
  assert.equal(botOfName('Bot (casual)'), 'Casual');
  for (const person of ['Bot', 'Bot (grandmaster)', 'Bình', '', 'Bot (hard) 2', 'Bot (constructor)']) assert.equal(botOfName(person), null, person);
});
