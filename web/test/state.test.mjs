// The page's own logic, run by `node --test web/test` (and by `cargo test`, through
// tests/tests/page_logic.rs).
import test from 'node:test';
import assert from 'node:assert/strict';

import * as n from '../js/notation.js';
import * as s from '../js/state.js';

test('points are named as the terminal client names them', () => {
  assert.equal(n.pointName({ x: 7, y: 7 }, 15, 15), 'h8');
  assert.equal(n.pointName({ x: 0, y: 0 }, 20, 20), 'a20');
  assert.equal(n.pointName({ x: 30, y: 4 }, 40, 40), '30,4');
  assert.equal(n.iccs({ from: { file: 7, rank: 2 }, to: { file: 4, rank: 2 } }), 'h2e2');
});

test('times read as the terminal client writes them', () => {
  assert.equal(n.timeControlText('unlimited'), 'none');
  assert.equal(n.timeControlText({ per_move: { millis: 20000 } }), '20s/move');
  assert.equal(n.timeControlText({ clock: { initial_millis: 300000, increment_millis: 3000 } }), '5m+3s');
  assert.equal(n.durationText(90000), '1m30s');
  assert.equal(n.durationText(1500), '1.5s');
  assert.equal(n.clockText(299001), '5:00');
  assert.equal(n.clockText(61000), '1:01');
  assert.equal(n.clockText(7200), '0:07.2');
  assert.equal(n.clockText(3723000), '1:02:03');
  assert.equal(n.clockText(-5), '0:00.0');
});

function caroView(opening = [], first = 'one') {
  return {
    id: 1,
    settings: { game: { caro: { width: 15, height: 15, rule: 'Caro', opening: 'none' } }, time: 'unlimited', first: 'me', seats: ['human', 'human'], hints: true },
    you: { player: 'one' },
    seats: [{ name: 'An', bot: null, connected: true }, { name: 'Bình', bot: null, connected: true }],
    spectators: [],
    game: { number: 1, first, start_fen: '', opening, moves: [], clocks: { remaining_ms: [20000, 20000], running: first }, over: null },
    offer: null,
    chat: [],
    series: { wins: [0, 0], draws: 0 },
  };
}

const caroMove = (x, y, by) => ({ Moved: { record: { mv: { caro: { x, y } }, by, wxf: '', check: false }, ply: 1, clocks: null } });

test('a caro room follows moves, undo, offers and the end of a game', () => {
  const room = s.roomFromView(caroView(), 0);
  assert.equal(s.toMove(room), 'one');
  assert.ok(s.myTurn(room));
  assert.equal(s.caroStone(room, 'one'), 'X');
  s.apply(room, caroMove(7, 7, 'one'), 10);
  s.apply(room, caroMove(8, 8, 'two'), 20);
  assert.equal(s.caroStones(room).get('7,7'), 'X');
  assert.equal(s.caroStones(room).get('8,8'), 'O');
  assert.equal(s.toMove(room), 'one');
  s.apply(room, { Offered: { kind: 'undo', by: 'two' } }, 30);
  assert.deepEqual(s.offerToMe(room), { kind: 'undo', by: 'two' });
  s.apply(room, { Undone: { plies: 1, clocks: null } }, 40);
  assert.equal(room.game.moves.length, 1);
  assert.equal(room.offer, null);
  assert.equal(s.toMove(room), 'two');
  s.apply(room, { GameOver: { winner: 'one', reason: 'five', line: [] } }, 50);
  assert.equal(s.toMove(room), null);
  assert.deepEqual(room.series.wins, [1, 0]);
  // The same end told twice counts once.
  s.apply(room, { GameOver: { winner: 'one', reason: 'five', line: [] } }, 60);
  assert.deepEqual(room.series.wins, [1, 0]);
  s.apply(room, { People: { seats: [room.seats[0], null], came: ['Minh', 'Lan'], left: [] } }, 70);
  s.apply(room, { People: { seats: [room.seats[0], null], came: [], left: ['Minh'] } }, 75);
  assert.deepEqual(room.spectators, ['Lan']);
  assert.deepEqual(room.series.wins, [0, 0]);
  assert.equal(s.apply(room, { SomethingNew: {} }, 80), false, 'unknown messages are ignored');
  assert.equal(s.apply(room, 'Left', 80), false);
});

test('an odd opening gives the first mover O', () => {
  const room = s.roomFromView(caroView([{ x: 7, y: 7 }, { x: 8, y: 6 }, { x: 7, y: 5 }], 'two'), 0);
  assert.equal(s.caroStone(room, 'two'), 'O');
  assert.equal(s.caroStone(room, 'one'), 'X');
  assert.equal(s.caroStones(room).get('8,6'), 'O');
  assert.equal(s.toMove(room), 'two');
});

test('clocks run for the seat to move and stop at the end', () => {
  const room = s.roomFromView(caroView(), 1000);
  assert.equal(s.clockLeft(room, 'one', 4000), 17000);
  assert.equal(s.clockLeft(room, 'two', 4000), 20000);
  s.apply(room, { GameOver: { winner: 'two', reason: 'timeout', line: [] } }, 6000);
  assert.equal(s.clockLeft(room, 'one', 60000), 15000);
});

test('xiangqi pieces follow the moves; legal targets come from the server', () => {
  const view = caroView();
  view.settings.game = { xiangqi: { fen: null } };
  view.game.start_fen = s.XQ_START;
  const room = s.roomFromView(view, 0);
  assert.equal(s.xiangqiColor(room, 'one'), 'red');
  assert.equal(s.xiangqiColor(room, 'two'), 'black');
  assert.equal(s.xiangqiPieces(room)[2][7], 'C');
  s.apply(room, { Moved: { record: { mv: { xiangqi: { from: { file: 7, rank: 2 }, to: { file: 4, rank: 2 } } }, by: 'one', wxf: 'C2.5', check: false }, ply: 1, clocks: null } }, 1);
  const board = s.xiangqiPieces(room);
  assert.equal(board[2][7], '');
  assert.equal(board[2][4], 'C');
  // An answer about an older position is dropped; the current one is kept.
  s.apply(room, { Facts: { game: 1, ply: 0, legal: [], check: false, fives: [[], []], three_stops: [[], []] } }, 2);
  assert.equal(room.facts, null);
  const legal = [{ xiangqi: { from: { file: 7, rank: 9 }, to: { file: 6, rank: 7 } } }, { xiangqi: { from: { file: 0, rank: 9 }, to: { file: 0, rank: 8 } } }];
  s.apply(room, { Facts: { game: 1, ply: 1, legal, check: false, fives: [[], []], three_stops: [[], []] } }, 3);
  assert.deepEqual(s.targetsFrom(room, { file: 7, rank: 9 }), [{ file: 6, rank: 7 }]);
  assert.equal(s.piecesFromFen('4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1')[9][4], 'k');
});

test('room list pushes apply in order', () => {
  const line = (id, status) => ({ id, status });
  let rooms = [line(1, 'Waiting'), line(4, 'Waiting')];
  rooms = s.applyRoomChanges(rooms, [line(3, 'Waiting'), line(4, 'Playing'), line(9, 'Waiting')], [1]);
  assert.deepEqual(rooms, [line(3, 'Waiting'), line(4, 'Playing'), line(9, 'Waiting')]);
  rooms = s.applyRoomChanges(rooms, [line(3, 'Playing')], [3, 9]);
  assert.deepEqual(rooms, [line(3, 'Playing'), line(4, 'Playing')]);
});

test('an aborted game is no game of the series, and giving up before both moved aborts', () => {
  const room = s.roomFromView(caroView(), 0);
  assert.equal(s.givingUpAborts(room), true);
  s.apply(room, caroMove(7, 7, 'one'), 10);
  assert.equal(s.givingUpAborts(room), true, 'only one player has moved');
  s.apply(room, { GameOver: { winner: null, reason: 'aborted', line: [] } }, 20);
  assert.deepEqual(room.series, { wins: [0, 0], draws: 0 });
  assert.equal(s.givingUpAborts(room), false, 'over');
});

test('a swap opening: whoever the server says acts, its stones on the board, no colours yet', () => {
  const view = caroView();
  const swapView = (stage, toAct, stones, choices = [], x = null) => ({ kind: 'swap2', proposer: 'one', stage, to_act: toAct, choices, stones, steps: [], x_seat: x });
  view.game.swap = swapView('propose', 'one', []);
  view.you = { player: 'two' };
  const room = s.roomFromView(view, 0);
  assert.ok(s.swapInProgress(room));
  assert.equal(s.toMove(room), 'one');
  assert.equal(s.caroStone(room, 'one'), '?');
  const three = [{ x: 7, y: 7 }, { x: 8, y: 6 }, { x: 7, y: 5 }];
  assert.ok(s.givingUpAborts(room));
  const answered = swapView('answer', 'two', three, ['white', 'black', 'place_two']);
  answered.steps = three.map((point) => ({ stone: { by: 'one', point } }));
  assert.ok(s.apply(room, { Swap: answered }, 10));
  assert.ok(s.givingUpAborts(room), 'only the proposer has acted');
  assert.equal(s.toMove(room), 'two');
  // The proposer's clock stopped where it stood; the responder's runs.
  assert.equal(room.game.clocks.running, 'two');
  assert.equal(s.clockLeft(room, 'one', 500), 19990);
  assert.equal(s.clockLeft(room, 'two', 510), 19500);
  assert.ok(s.myTurn(room));
  assert.equal(s.caroStones(room).get('7,5'), 'X');
  assert.equal(s.caroStones(room).get('8,6'), 'O');
  // Decided: the game proper starts from the stones, White (the first seat) to move.
  const done = swapView('done', null, three, [], 'one');
  done.steps = [...answered.steps, { decided: { by: 'two', choice: 'white' } }];
  s.apply(room, { Swap: done }, 20);
  assert.equal(s.swapInProgress(room), null);
  assert.ok(!s.givingUpAborts(room), 'both players acted in the opening');
  s.apply(room, { GameStarted: { ...view.game, first: 'two', opening: three, swap: done } }, 30);
  assert.equal(s.toMove(room), 'two');
  assert.equal(s.caroStone(room, 'two'), 'O');
  assert.equal(s.caroStone(room, 'one'), 'X');
  assert.equal(s.caroStones(room).size, 3);
});
