// Game record files, the text format the terminal client writes and reads (see
// client/src/record/file.rs): headers, then the moves. The page writes a game for a
// download and reads an uploaded file into a replay. Caro moves are checked here (the
// board, a free point); xiangqi moves are read in ICCS and only checked for a piece of
// the side to move: the rules stay on the server, which checks the position again when
// someone plays on from it. Pure functions, tested with `node --test web/test`.

import { pointName, parsePoint, ruleName, squareName, timeControlText, otherSeat, seatIndex } from './notation.js';
import { XQ_START, piecesFromFen } from './state.js';

/** The largest file read, as the terminal client: 1 MiB. */
export const MAX_FILE_BYTES = 1024 * 1024;

const RULES = { caro: 'Caro', freestyle: 'Freestyle', standard: 'Standard', 'caro-overline': 'CaroOverline' };
const REASONS = ['five', 'draw', 'timeout', 'quit', 'abandoned', 'resign', 'checkmate', 'stalemate', 'perpetual_check', 'repetition', 'sixty_moves', 'no_material', 'agreement', 'aborted', 'new_game'];

/** The side word of `seat` in a record: x/o for caro, red/black for xiangqi. */
export function sideWord(record, seat) {
  const s = record.summary;
  if (s.game.caro) {
    const firstStone = record.opening.length % 2 === 0 ? 'x' : 'o';
    return seat === s.first ? firstStone : firstStone === 'x' ? 'o' : 'x';
  }
  const fen = record.start_fen || XQ_START;
  const firstColor = fen.split(' ')[1] === 'b' ? 'black' : 'red';
  return seat === s.first ? firstColor : firstColor === 'red' ? 'black' : 'red';
}

function two(n) {
  return String(n).padStart(2, '0');
}

function localTime(ms) {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** `banco-caro-42.txt`, or with the date for a game without a server number. */
export function fileName(record) {
  const game = record.summary.game.caro ? 'caro' : 'xiangqi';
  const s = record.summary;
  if (s.id) return `banco-${game}-${s.id}.txt`;
  if (s.ended_at_ms) return `banco-${game}-${localTime(s.ended_at_ms).replace(/[-:]/g, '').replace(' ', '-')}.txt`;
  return `banco-${game}.txt`;
}

/**
 * The record as text. `record` is the protocol's GameRecord shape; `summary.over` null
 * and `summary.id` 0 are an unfinished game and one the server has not numbered.
 */
export function writeRecord(record) {
  const s = record.summary;
  const lines = ['# banco game record. `banco replay FILE` shows it; # starts a comment.'];
  const header = (name, value) => lines.push(`${name}: ${value}`);
  header('game', s.game.caro ? 'caro' : 'xiangqi');
  if (s.game.caro) {
    const c = s.game.caro;
    header('board', `${c.width}x${c.height}`);
    header('rule', ruleName(c.rule));
    if (record.opening.length) header('opening', record.opening.map((p) => pointName(p, c.width, c.height)).join(' '));
  } else {
    header('start', record.start_fen || XQ_START);
  }
  if (s.time) header('time', timeControlText(s.time));
  for (const seat of [s.first, otherSeat(s.first)]) header(sideWord(record, seat), s.players[seatIndex(seat)]);
  if (s.over) {
    header('result', s.over.winner ? sideWord(record, s.over.winner) : 'draw');
    header('reason', s.over.reason);
  } else header('result', 'unfinished');
  if (s.ended_at_ms) header('ended', localTime(s.ended_at_ms));
  if (s.id) header('id', String(s.id));
  lines.push('');
  for (let i = 0; i < record.moves.length; i += 2) {
    const pair = record.moves.slice(i, i + 2).map((m) => {
      if (m.mv.caro) return pointName(m.mv.caro, s.game.caro.width, s.game.caro.height).padEnd(5);
      const iccs = squareName(m.mv.xiangqi.from) + squareName(m.mv.xiangqi.to);
      return m.wxf ? `${iccs} ${m.wxf.padEnd(6)}` : iccs;
    });
    lines.push(`${i / 2 + 1}. ${pair.join(' ')}`.trimEnd());
  }
  return `${lines.join('\n')}\n`;
}

/** A fault in a file: `line N: what`, like the terminal client's. */
function fault(line, message) {
  const e = new Error(line ? `line ${line}: ${message}` : message);
  e.line = line;
  return e;
}

const HEADERS = ['game', 'board', 'rule', 'opening', 'start', 'time', 'x', 'o', 'red', 'black', 'result', 'reason', 'ended', 'id'];

/** Reads a record's text into the protocol's GameRecord shape, or returns an Error
 * naming the line at fault. */
export function parseRecord(text) {
  const h = {};
  const moves = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const line = lines[i].trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z]+)\s*:\s*(.*)$/.exec(line);
    if (m && !/^\d/.test(line)) {
      const name = m[1].toLowerCase();
      if (!HEADERS.includes(name)) return fault(n, `unknown header '${name}': the headers are ${HEADERS.join(', ')}`);
      if (moves.length) return fault(n, `the header '${name}' must come before the moves`);
      if (name in h) return fault(n, `'${name}' is given twice`);
      h[name] = { line: n, value: m[2].trim() };
      continue;
    }
    for (const token of line.split('#')[0].split(/\s+/)) {
      if (token && !/^\d+\.$/.test(token)) moves.push({ line: n, text: token });
    }
  }
  if (!h.game) return fault(0, "it has no 'game:' header (caro or xiangqi)");
  const game = h.game.value.toLowerCase();
  if (game === 'caro') return parseCaro(h, moves);
  if (game === 'xiangqi') return parseXiangqi(h, moves);
  return fault(h.game.line, `'${h.game.value}' is not a game: write caro or xiangqi`);
}

function names(h, a, b) {
  return [h[a] ? h[a].value : a.toUpperCase(), h[b] ? h[b].value : b.toUpperCase()];
}

function ending(h, record, sides) {
  if (!h.result || h.result.value.toLowerCase() === 'unfinished') return null;
  const result = h.result.value.toLowerCase();
  let winner = null;
  if (result !== 'draw') {
    const i = sides.indexOf(result);
    if (i === -1) return fault(h.result.line, `'${h.result.value}' is not a result: write ${sides.join(', ')}, draw or unfinished`);
    winner = i === 0 ? record.summary.first : otherSeat(record.summary.first);
  }
  const reason = h.reason ? h.reason.value.toLowerCase() : winner ? 'resign' : 'agreement';
  if (!REASONS.includes(reason)) return fault(h.reason.line, `'${h.reason.value}' is not a reason: write one of ${REASONS.join(', ')}`);
  return { winner, reason, line: [] };
}

function summary(gameSettings, players, h) {
  const id = h.id ? Number(h.id.value) : 0;
  return { id: Number.isSafeInteger(id) ? id : 0, game: gameSettings, time: null, players, first: 'one', over: null, plies: 0, ended_at_ms: 0 };
}

function parseCaro(h, written) {
  let width = 15;
  let height = 15;
  if (h.board) {
    const m = /^(\d+)(?:\s*x\s*(\d+))?$/i.exec(h.board.value);
    if (!m) return fault(h.board.line, `'${h.board.value}' is not a board size: write 15x15 or 15`);
    width = Number(m[1]);
    height = Number(m[2] || m[1]);
    if (!(width >= 5 && width <= 64 && height >= 5 && height <= 64)) return fault(h.board.line, 'a board is 5 to 64 points on each side');
  }
  const rule = h.rule ? RULES[h.rule.value.toLowerCase()] : 'Caro';
  if (!rule) return fault(h.rule.line, `'${h.rule.value}' is not a rule: write ${Object.keys(RULES).join(', ')}`);
  const taken = new Set();
  const point = (w) => {
    const p = parsePoint(w.text, width, height);
    if (p instanceof Error) return fault(w.line, p.message);
    const key = `${p.x},${p.y}`;
    if (taken.has(key)) return fault(w.line, `${w.text} is already taken`);
    taken.add(key);
    return p;
  };
  const opening = [];
  if (h.opening) {
    for (const text of h.opening.value.split(/[\s,]+/).filter(Boolean)) {
      const p = point({ line: h.opening.line, text });
      if (p instanceof Error) return p;
      opening.push(p);
    }
  }
  // X moves first, or O after an odd opening; the x: header names X's player.
  const [xName, oName] = names(h, 'x', 'o');
  const xFirst = opening.length % 2 === 0;
  const record = {
    summary: summary({ caro: { width, height, rule, opening: opening.length ? { stones: opening } : 'none' } }, xFirst ? [xName, oName] : [oName, xName], h),
    start_fen: '',
    opening,
    moves: [],
  };
  for (const w of written) {
    const p = point(w);
    if (p instanceof Error) return p;
    record.moves.push({ mv: { caro: p }, by: record.moves.length % 2 === 0 ? 'one' : 'two', wxf: '', check: false });
  }
  record.summary.plies = record.moves.length;
  const over = ending(h, record, xFirst ? ['x', 'o'] : ['o', 'x']);
  if (over instanceof Error) return over;
  record.summary.over = over;
  return record;
}

const SQUARE = /^([a-i])([0-9])$/;

function parseXiangqi(h, written) {
  const fen = h.start ? h.start.value : XQ_START;
  const rows = fen.split(' ')[0].split('/');
  if (rows.length !== 10 || !rows.every((r) => /^[rnbakcpRNBAKCP1-9]+$/.test(r))) return fault(h.start.line, `'${fen}' is not a xiangqi position (FEN)`);
  const board = piecesFromFen(fen);
  const redFirst = fen.split(' ')[1] !== 'b';
  const [redName, blackName] = names(h, 'red', 'black');
  const record = {
    summary: summary({ xiangqi: { fen: h.start ? fen : null } }, redFirst ? [redName, blackName] : [blackName, redName], h),
    start_fen: h.start ? fen : '',
    opening: [],
    moves: [],
  };
  let red = redFirst;
  for (let i = 0; i < written.length; i++) {
    const w = written[i];
    const m = /^([a-i][0-9])([a-i][0-9])$/.exec(w.text.toLowerCase());
    if (!m) {
      return fault(w.line, `'${w.text}' is not a move this page reads: write moves in ICCS (h2e2); the terminal client (banco replay FILE) also reads WXF`);
    }
    const sq = (s) => {
      const [, f, r] = SQUARE.exec(s);
      return { file: f.charCodeAt(0) - 97, rank: Number(r) };
    };
    const from = sq(m[1]);
    const to = sq(m[2]);
    const piece = board[from.rank][from.file];
    if (!piece || (piece === piece.toUpperCase()) !== red) return fault(w.line, `${w.text}: there is no ${red ? 'red' : 'black'} piece on ${m[1]}`);
    const target = board[to.rank][to.file];
    if (target && (target === target.toUpperCase()) === red) return fault(w.line, `${w.text}: ${m[2]} holds a piece of the same side`);
    board[to.rank][to.file] = piece;
    board[from.rank][from.file] = '';
    // A WXF written after the ICCS is kept for the move list.
    const next = written[i + 1];
    const wxf = next && !/^[a-i][0-9][a-i][0-9]$/i.test(next.text) ? (i++, next.text) : '';
    record.moves.push({ mv: { xiangqi: { from, to } }, by: record.moves.length % 2 === 0 ? 'one' : 'two', wxf, check: false });
    red = !red;
  }
  record.summary.plies = record.moves.length;
  const over = ending(h, record, redFirst ? ['red', 'black'] : ['black', 'red']);
  if (over instanceof Error) return over;
  record.summary.over = over;
  return record;
}

/** The FEN of a xiangqi board (`pieces[rank][file]`) with `red` to move. */
export function fenOf(pieces, red) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const p = pieces[rank][file];
      if (!p) empty += 1;
      else {
        if (empty) row += empty;
        empty = 0;
        row += p;
      }
    }
    rows.push(empty ? row + empty : row);
  }
  return `${rows.join('/')} ${red ? 'w' : 'b'} - - 0 1`;
}
