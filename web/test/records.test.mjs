// Record files and draft moves: the page's side of the terminal client's record format,
// and trial moves that never touch the real game.
import test from 'node:test';
import assert from 'node:assert/strict';

import * as r from '../js/recordfile.js';
import * as d from '../js/draft.js';
import * as s from '../js/state.js';

const CARO = `# banco game record.
game: caro
board: 15x15
rule: caro
time: 20s/move
x: An
o: Bình
result: x
reason: five
id: 42

1. h8 i9
2. h9 i8
3. h10 a1
4. h11 a2
5. h12
`;

test('a caro record reads as the terminal client writes it, and writes back the same', () => {
  const rec = r.parseRecord(CARO);
  assert.ok(!(rec instanceof Error), String(rec));
  assert.deepEqual(rec.summary.players, ['An', 'Bình']);
  assert.equal(rec.summary.id, 42);
  assert.equal(rec.moves.length, 9);
  assert.deepEqual(rec.moves[0].mv, { caro: { x: 7, y: 7 } });
  assert.deepEqual(rec.summary.over, { winner: 'one', reason: 'five', line: [] });
  const again = r.parseRecord(r.writeRecord(rec));
  assert.deepEqual(again.moves, rec.moves);
  assert.deepEqual(again.summary.over, rec.summary.over);
  assert.match(r.writeRecord(rec), /^1\. h8 +i9$/m);
  assert.equal(r.fileName(rec), 'banco-caro-42.txt');
});

test('a record that does not hold together is refused with its line', () => {
  const taken = r.parseRecord('game: caro\n\n1. h8 h8\n');
  assert.ok(taken instanceof Error);
  assert.match(taken.message, /^line 3: h8 is already taken/);
  const off = r.parseRecord('game: caro\nboard: 9\n1. j10\n');
  assert.match(off.message, /^line 3: .*off the 9x9 board/);
  assert.match(r.parseRecord('x: An\n').message, /no 'game:' header/);
  assert.match(r.parseRecord('game: chess\n').message, /^line 1: 'chess' is not a game/);
  assert.match(r.parseRecord('game: caro\ncolour: red\n').message, /^line 2: unknown header 'colour'/);
  assert.match(r.parseRecord('game: caro\nresult: y\n').message, /^line 2: 'y' is not a result/);
});

test('an odd opening makes O the first mover, and the opening stays out of the moves', () => {
  const rec = r.parseRecord('game: caro\nopening: h8 i9 h9\nx: An\no: Bình\n1. h10\n');
  assert.equal(rec.opening.length, 3);
  assert.equal(rec.moves.length, 1);
  // O moves first: seat one (the first mover) is O, Bình.
  assert.deepEqual(rec.summary.players, ['Bình', 'An']);
  assert.equal(r.sideWord(rec, 'one'), 'o');
});

test('a xiangqi record reads ICCS with its WXF, and refuses a move of the wrong side', () => {
  const rec = r.parseRecord('game: xiangqi\nred: An\nblack: Bình\n\n1. h2e2 C2.5   h9g7 H8+7\n2. h0g2\n');
  assert.ok(!(rec instanceof Error), String(rec));
  assert.equal(rec.moves.length, 3);
  assert.equal(rec.moves[0].wxf, 'C2.5');
  assert.deepEqual(rec.moves[2].mv, { xiangqi: { from: { file: 7, rank: 0 }, to: { file: 6, rank: 2 } } });
  const wrong = r.parseRecord('game: xiangqi\n1. h9g7\n');
  assert.match(wrong.message, /^line 2: h9g7: there is no red piece on h9/);
  const wxfOnly = r.parseRecord('game: xiangqi\n1. C2.5\n');
  assert.match(wxfOnly.message, /ICCS/);
  const back = r.parseRecord(r.writeRecord(rec));
  assert.deepEqual(back.moves, rec.moves);
});

test('the FEN of a position is written as the rules read it', () => {
  assert.equal(r.fenOf(s.piecesFromFen(s.XQ_START), true), s.XQ_START);
  const board = s.piecesFromFen(s.XQ_START);
  board[2][4] = board[2][7];
  board[2][7] = '';
  assert.equal(r.fenOf(board, false), 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1');
});

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

test('draft moves go on a copy: the real game is untouched, and a taken point is refused', () => {
  const room = caroRoom();
  const draft = d.startDraft(room);
  assert.equal(d.draftCaro(room, draft, { x: 7, y: 7 }), 'room.occupied');
  assert.equal(d.draftCaro(room, draft, { x: 8, y: 8 }), null);
  assert.equal(d.draftCaro(room, draft, { x: 9, y: 9 }), null);
  assert.equal(room.game.moves.length, 1, 'the real game has its one move');
  const view = d.draftRoom(room, draft);
  assert.equal(s.caroStones(view).get('8,8'), 'O', 'the first trial is the side to move');
  assert.equal(s.caroStones(view).get('9,9'), 'X');
  assert.deepEqual([...d.trialSpots(draft)], ['8,8', '9,9']);
  assert.equal(d.draftUndo(draft), null);
  assert.equal(d.draftUndo(draft), null);
  assert.equal(d.draftUndo(draft), 'draft.nothing_to_undo');
});

test('a xiangqi draft picks up a piece of the side to move, then moves it', () => {
  const room = caroRoom();
  room.settings = { ...room.settings, game: { xiangqi: { fen: null } } };
  room.game = { ...room.game, moves: [] };
  const draft = d.startDraft(room);
  // Black's horse is not Red's to move.
  d.draftXiangqi(room, draft, { file: 7, rank: 9 });
  assert.equal(draft.selected, null);
  d.draftXiangqi(room, draft, { file: 7, rank: 2 });
  d.draftXiangqi(room, draft, { file: 4, rank: 2 });
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
  assert.equal(botOfName('Bot (hard)'), 'hard');
  assert.equal(botOfName(' bot (MAX) '), 'max');
  for (const person of ['Bot', 'Bot (expert)', 'Bình', '', 'Bot (hard) 2']) assert.equal(botOfName(person), null, person);
});
