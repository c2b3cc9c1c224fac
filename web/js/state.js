// @ts-check
// A room as the page knows it: the server's RoomView kept current by the messages that
// follow it, as the terminal client's `room` module does. No rules here: the board is
// the stones (or pieces) the server said were played; what is legal comes from the
// server (`Facts`). Pure functions on plain objects, tested with `node --test web/test`.

import { otherSeat, seatIndex } from './notation.js';

/** @typedef {import('./protocol').RoomView} RoomView */
/** @typedef {import('./protocol').GameView} GameView */
/** @typedef {import('./protocol').Seat} Seat */
/** @typedef {import('./protocol').ServerMsg} ServerMsg */
/** @typedef {import('./protocol').RoomSummary} RoomSummary */
/** @typedef {import('./protocol').XqSquare} XqSquare */
/** @typedef {import('./protocol').Point} Point */

/**
 * A room as the page keeps it: the server's RoomView and what followed it, plus the
 * page's own notes (who last sat where, when the clocks were last told, the hint, the
 * rules' facts about the position).
 * @typedef {{
 *   id: number,
 *   settings: import('./protocol').RoomSettings,
 *   you: import('./protocol').Role,
 *   seats: (import('./protocol').SeatView | null)[],
 *   spectators: string[],
 *   game: GameView | null,
 *   offer: import('./protocol').Offer | null,
 *   chat: import('./protocol').ChatLine[],
 *   series: import('./protocol').Series,
 *   match: import('./protocol').MatchState | null,
 *   matchAt?: number,
 *   sat?: (import('./protocol').SeatView | null)[],
 *   clocksAt?: number,
 *   hint: import('./protocol').Move | null,
 *   facts: import('./protocol').PositionFacts | null,
 * }} Room
 */

/** A xiangqi board: `board[rank][file]` is a FEN letter (upper case Red) or ''. @typedef {string[][]} Pieces */

export const XQ_START = 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1';

/**
 * A room from the server's `Joined` view; `now` is the page's clock in ms.
 * @param {RoomView} view
 * @param {number} now
 * @returns {Room}
 */
export function roomFromView(view, now) {
  return {
    id: view.id,
    settings: view.settings,
    you: view.you,
    seats: view.seats,
    spectators: view.spectators,
    game: view.game ? { ...view.game, moves: [...view.game.moves] } : null,
    offer: view.offer,
    chat: [...view.chat],
    series: view.series || { wins: [0, 0], draws: 0 },
    // Where the room's match stands, and when that was told (the break's countdown
    // runs from then).
    match: view.match_state || null,
    matchAt: now,
    // Who last sat in each seat: a game that ended because its player left still
    // names them.
    sat: [...view.seats],
    clocksAt: now,
    hint: null,
    facts: null,
  };
}

/**
 * 'caro' or 'xiangqi'.
 * @param {Room} room
 */
export function gameKind(room) {
  return 'caro' in room.settings.game ? 'caro' : 'xiangqi';
}

/**
 * The seat this page plays, or null for a spectator.
 * @param {Room} room
 */
export function mySeat(room) {
  return room.you && typeof room.you === 'object' && 'player' in room.you ? room.you.player : null;
}

/**
 * The seat to move while a game runs, else null.
 * @param {Room} room
 */
export function toMove(room) {
  const g = room.game;
  if (!g || g.over) return null;
  // A swap opening: whoever acts in it (a stone or a decision), as the server says.
  const swap = swapInProgress(room);
  if (swap) return swap.to_act;
  return g.moves.length % 2 === 0 ? g.first : otherSeat(g.first);
}

/**
 * The room's swap opening while it is being played (no move is made yet), else null.
 * @param {Room} room
 */
export function swapInProgress(room) {
  const g = room.game;
  return g && !g.over && g.swap && g.swap.stage !== 'done' ? g.swap : null;
}

/** @param {Room} room */
export function myTurn(room) {
  const me = mySeat(room);
  return me !== null && toMove(room) === me;
}

/** @param {Room} room */
export function playing(room) {
  return !!room.game && !room.game.over;
}

/**
 * Whether giving up now aborts the game instead of losing it: it runs, and not both
 * players have moved (the server then ends it with no result); in a swap opening its
 * stones and decisions count as moves, as the server counts them.
 * @param {Room} room
 */
export function givingUpAborts(room) {
  const g = room.game;
  // In a swap opening a stone placed or a decision taken counts as a move.
  const steps = (g && g.swap && g.swap.steps) || [];
  const moved = (/** @type {Seat} */ seat) => g.moves.some((m) => m.by === seat) || steps.some((s) => ('stone' in s ? s.stone.by : s.decided.by) === seat);
  return !!g && !g.over && !(moved('one') && moved('two'));
}

/**
 * 'X' or 'O': the stone `seat` plays in the current caro game; '?' while a swap
 * opening has not yet decided the colours.
 * @param {Room} room
 * @param {Seat} seat
 * @returns {'X' | 'O' | '?'}
 */
export function caroStone(room, seat) {
  if (swapInProgress(room)) return '?';
  const g = room.game;
  const openingLen = g ? g.opening.length : 0;
  const firstSeat = g ? g.first : 'one';
  const firstStone = openingLen % 2 === 0 ? 'X' : 'O';
  return seat === firstSeat ? firstStone : firstStone === 'X' ? 'O' : 'X';
}

/**
 * 'red' or 'black': the colour `seat` plays in the current xiangqi game.
 * @param {Room} room
 * @param {Seat} seat
 */
export function xiangqiColor(room, seat) {
  const g = room.game;
  const fen = g && g.start_fen ? g.start_fen : XQ_START;
  const firstColor = fen.split(' ')[1] === 'b' ? 'black' : 'red';
  const firstSeat = g ? g.first : 'one';
  return seat === firstSeat ? firstColor : firstColor === 'red' ? 'black' : 'red';
}

/**
 * The stone or colour word of `seat`: X/O or red/black.
 * @param {Room} room
 * @param {Seat} seat
 */
export function sideOf(room, seat) {
  return gameKind(room) === 'caro' ? caroStone(room, seat) : xiangqiColor(room, seat);
}

/**
 * The caro stones on the board: a Map from "x,y" to 'X' or 'O', opening included.
 * @param {Room} room
 */
export function caroStones(room) {
  /** @type {Map<string, 'X' | 'O'>} */
  const stones = new Map();
  const g = room.game;
  if (!g) return stones;
  /** @type {'X' | 'O'} */
  let stone = 'X';
  const put = (/** @type {Point} */ p) => {
    stones.set(`${p.x},${p.y}`, stone);
    stone = stone === 'X' ? 'O' : 'X';
  };
  // While a swap opening is played its stones stand as the opening so far.
  const swap = swapInProgress(room);
  (swap ? swap.stones : g.opening).forEach(put);
  for (const m of g.moves) if ('caro' in m.mv) put(m.mv.caro);
  return stones;
}

/**
 * Where the pieces stand in a FEN the server sent (its board field only), to draw them:
 * board[rank][file] is a FEN letter (upper case Red) or ''. It judges nothing: whether a
 * position can be played is the server's to say (`Judge`, `Facts`).
 * @param {string | null} fen
 * @returns {Pieces}
 */
export function piecesFromFen(fen) {
  const board = Array.from({ length: 10 }, () => Array(9).fill(''));
  const rows = (fen || XQ_START).split(' ')[0].split('/');
  rows.forEach((row, i) => {
    const rank = 9 - i;
    let file = 0;
    for (const c of row) {
      if (/\d/.test(c)) file += Number(c);
      else if (rank >= 0 && file < 9) board[rank][file++] = c;
    }
  });
  return board;
}

/**
 * The xiangqi pieces now: the start position with every move played on it.
 * @param {Room} room
 */
export function xiangqiPieces(room) {
  const g = room.game;
  const board = piecesFromFen(g && g.start_fen ? g.start_fen : XQ_START);
  if (!g) return board;
  for (const m of g.moves) {
    if (!('xiangqi' in m.mv)) continue;
    const x = m.mv.xiangqi;
    board[x.to.rank][x.to.file] = board[x.from.rank][x.from.file];
    board[x.from.rank][x.from.file] = '';
  }
  return board;
}

/**
 * The last move played, or null.
 * @param {Room} room
 */
export function lastMove(room) {
  const g = room.game;
  return g && g.moves.length ? g.moves[g.moves.length - 1] : null;
}

/**
 * Milliseconds left on `seat`'s clock at page time `now`, or null without clocks.
 * @param {Room} room
 * @param {Seat} seat
 * @param {number} now
 */
export function clockLeft(room, seat, now) {
  const c = room.game && room.game.clocks;
  if (!c) return null;
  const left = c.remaining_ms[seatIndex(seat)];
  if (c.running === seat && !room.game.over) return Math.max(0, left - (now - room.clocksAt));
  return left;
}

/**
 * The open offer made to this page's player (theirs to answer), or null.
 * @param {Room} room
 */
export function offerToMe(room) {
  const me = mySeat(room);
  return room.offer && me !== null && room.offer.by !== me ? room.offer : null;
}

/**
 * The lobby's room list after a RoomsChanged push: closed rooms go, changed ones
 * replace their line or come in at their place (the list stays in room-number order).
 * @template {{id: number}} R
 * @param {R[]} rooms
 * @param {R[]} changed
 * @param {number[]} closed
 */
export function applyRoomChanges(rooms, changed, closed) {
  const kept = rooms.filter((r) => !closed.includes(r.id));
  for (const room of changed) {
    const i = kept.findIndex((r) => r.id >= room.id);
    if (i === -1) kept.push(room);
    else if (kept[i].id === room.id) kept[i] = room;
    else kept.splice(i, 0, room);
  }
  return kept;
}

/**
 * Takes in one server message about the room. Returns false for messages it ignores.
 * @param {Room} room
 * @param {ServerMsg} msg
 * @param {number} now
 */
export function apply(room, msg, now) {
  if (typeof msg === 'string') return false;
  const g = room.game;
  if ('People' in msg) {
    const body = msg.People;
    if (body.seats.some((s) => s === null)) room.series = { wins: [0, 0], draws: 0 };
    room.seats = body.seats;
    room.sat = body.seats.map((s, i) => s || (room.sat && room.sat[i]) || null);
    room.spectators = room.spectators.filter((name) => !body.left.includes(name));
    for (const name of body.came) if (!room.spectators.includes(name)) room.spectators.push(name);
    return true;
  }
  if ('GameStarted' in msg) {
    room.game = { ...msg.GameStarted, moves: [...msg.GameStarted.moves] };
    room.clocksAt = now;
    room.offer = null;
    room.hint = null;
    room.facts = null;
    return true;
  }
  if ('Swap' in msg) {
    // The swap opening moved on: its stones and whose turn it is (a decided opening is
    // followed by GameStarted with the game proper).
    if (g) {
      g.swap = msg.Swap;
      // The one to act has their clock running (the SwapView says so; no Clock message
      // follows): the other's stops where it stood.
      const c = g.clocks;
      const next = msg.Swap.to_act;
      if (c && next && c.running && c.running !== next && !g.over) {
        const i = seatIndex(c.running);
        const left = [...c.remaining_ms];
        left[i] = Math.max(0, left[i] - (now - (room.clocksAt ?? now)));
        g.clocks = { ...c, remaining_ms: /** @type {[number, number]} */ (left), running: next };
        room.clocksAt = now;
      }
    }
    room.hint = null;
    room.facts = null;
    return true;
  }
  if ('Moved' in msg) {
    const body = msg.Moved;
    if (g) {
      g.moves.push(body.record);
      if (body.clocks) {
        g.clocks = body.clocks;
        room.clocksAt = now;
      }
    }
    room.hint = null;
    return true;
  }
  if ('Chat' in msg) {
    room.chat.push(msg.Chat);
    if (room.chat.length > 200) room.chat.splice(0, room.chat.length - 100);
    return true;
  }
  if ('Offered' in msg) {
    room.offer = msg.Offered;
    return true;
  }
  if ('Declined' in msg || 'Withdrawn' in msg) {
    room.offer = null;
    return true;
  }
  if ('Undone' in msg) {
    const body = msg.Undone;
    if (g) {
      g.moves.splice(Math.max(0, g.moves.length - body.plies));
      g.over = null;
      if (body.clocks) {
        g.clocks = body.clocks;
        room.clocksAt = now;
      }
    }
    room.offer = null;
    room.hint = null;
    return true;
  }
  if ('Clock' in msg) {
    if (g) {
      g.clocks = msg.Clock;
      room.clocksAt = now;
    }
    return true;
  }
  if ('GameOver' in msg) {
    const body = msg.GameOver;
    if (g) {
      // An aborted game is no game of the series (the server counts it so too):
      // nobody won it, and it was no draw.
      if (!g.over && body.reason !== 'aborted') {
        if (body.winner) room.series.wins[seatIndex(body.winner)] += 1;
        else room.series.draws += 1;
      }
      g.over = body;
      if (g.clocks) {
        // Freeze the clock that was running where it stood.
        const c = g.clocks;
        if (c.running) {
          const i = seatIndex(c.running);
          c.remaining_ms[i] = Math.max(0, c.remaining_ms[i] - (now - room.clocksAt));
        }
        g.clocks = { ...c, running: null };
        room.clocksAt = now;
      }
    }
    room.offer = null;
    room.hint = null;
    return true;
  }
  if ('Match' in msg) {
    // The server's score is the match's: the series is the match.
    room.match = msg.Match;
    room.matchAt = now;
    room.series = { ...msg.Match.score, wins: [...msg.Match.score.wins] };
    return true;
  }
  if ('MatchOver' in msg) {
    const result = msg.MatchOver;
    room.series = { ...result.score, wins: [...result.score.wins] };
    if (room.match) room.match = { ...room.match, score: result.score, leader: leader(result.score), next_game_in_ms: null, result };
    room.matchAt = now;
    return true;
  }
  if ('Hint' in msg) {
    room.hint = msg.Hint;
    return true;
  }
  if ('Facts' in msg) {
    const body = msg.Facts;
    // Only an answer about the position on the board is kept.
    if (g && body.game === g.number && body.ply === g.moves.length) room.facts = body;
    return true;
  }
  return false;
}

/**
 * The seat that has won more of `score`'s games; null when level.
 * @param {import('./protocol').Series} score
 * @returns {Seat | null}
 */
function leader(score) {
  const [one, two] = score.wins;
  return one > two ? 'one' : two > one ? 'two' : null;
}

/**
 * Whether a match is being played in the room (begun and not over).
 * @param {Room} room
 */
export function inMatch(room) {
  return !!room.match && !room.match.result;
}

/**
 * Between two games of a match: the milliseconds until the next starts by itself, at
 * the page's clock `now`; null while a game runs, once the match is over, or when the
 * players start the next by agreeing.
 * @param {Room} room
 * @param {number} now
 */
export function nextGameIn(room, now) {
  const m = room.match;
  if (!m || m.result || playing(room) || m.next_game_in_ms == null) return null;
  return Math.max(0, m.next_game_in_ms - (now - (room.matchAt ?? now)));
}

/**
 * The squares a xiangqi piece on `from` may go to, from the server's legal moves.
 * @param {Room} room
 * @param {XqSquare} from
 * @returns {XqSquare[]}
 */
export function targetsFrom(room, from) {
  const f = room.facts;
  if (!f) return [];
  return f.legal.flatMap((m) => ('xiangqi' in m && m.xiangqi.from.file === from.file && m.xiangqi.from.rank === from.rank ? [m.xiangqi.to] : []));
}
