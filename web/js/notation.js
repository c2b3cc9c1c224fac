// @ts-check
// How points, moves, times and room settings are shown: the same forms as the terminal
// client (h8 from the bottom left, x,y on boards wider than 26 columns, ICCS for xiangqi
// squares). Presentation only: nothing here reads what a person typed or judges a move
// (typed stones and record files are read by the server, with the rules). Pure
// functions, tested with `node --test web/test`.

/** @typedef {import('./protocol').Point} Point */
/** @typedef {import('./protocol').XqSquare} XqSquare */
/** @typedef {import('./protocol').Seat} Seat */
/** @typedef {import('./protocol').Move} Move */

/**
 * `h8` for {x:7,y:7} on a 15-row board; `30,4` when the column has no letter.
 * @param {Point} p
 * @param {number} width
 * @param {number} height
 */
export function pointName(p, width, height) {
  if (width > 26 || p.x >= 26) return `${p.x},${p.y}`;
  return String.fromCharCode(97 + p.x) + String(height - p.y);
}

/** `h2` for a xiangqi square {file:7, rank:2}. @param {XqSquare} s */
export function squareName(s) {
  return String.fromCharCode(97 + s.file) + String(s.rank);
}

/** `h2e2` for a xiangqi move. @param {{from: XqSquare, to: XqSquare}} mv */
export function iccs(mv) {
  return squareName(mv.from) + squareName(mv.to);
}

/** A clock's reading: `4:59`, `0:07`, `1:02:03`; under ten seconds with tenths. */
/** @param {number} ms */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 100)) / 10;
  if (total < 10) return `0:0${total.toFixed(1)}`;
  const secs = Math.ceil(ms / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor(secs / 60) % 60;
  const s = secs % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** `20s`, `5m`, `1m30s`, `1.5s`: as the terminal client writes a duration. */
/** @param {number} millis */
export function durationText(millis) {
  const secs = Math.floor(millis / 1000);
  const ms = millis % 1000;
  const h = Math.floor(secs / 3600);
  const m = Math.floor(secs / 60) % 60;
  const s = secs % 60;
  let out = '';
  if (h > 0) out += `${h}h`;
  if (m > 0) out += `${m}m`;
  if (ms > 0) out += `${s}.${String(ms).padStart(3, '0').replace(/0+$/, '')}s`;
  else if (s > 0 || out === '') out += `${s}s`;
  return out;
}

/** The time control in a few characters: `none`, `20s/move`, `5m+3s`. */
/** @param {import('./protocol').TimeControl | null | undefined} tc */
export function timeControlText(tc) {
  if (tc === 'unlimited' || tc == null) return 'none';
  if ('per_move' in tc) return `${durationText(tc.per_move.millis)}/move`;
  if ('clock' in tc) return `${durationText(tc.clock.initial_millis)}+${durationText(tc.clock.increment_millis)}`;
  return '?';
}

/** 0 for seat "one", 1 for "two". */
/** @param {Seat} seat */
export function seatIndex(seat) {
  return seat === 'two' ? 1 : 0;
}

/**
 * @param {Seat} seat
 * @returns {Seat}
 */
export function otherSeat(seat) {
  return seat === 'one' ? 'two' : 'one';
}

/** The rule's name in locale keys and on command lines: `caro-overline`. */
/** @param {import('./protocol').Rule} rule */
export function ruleName(rule) {
  return { Caro: 'caro', Freestyle: 'freestyle', Standard: 'standard', CaroOverline: 'caro-overline', Renju: 'renju' }[rule] || String(rule);
}

/** The level's name: `easy`. */
/** @param {import('./protocol').Level} level */
export function levelName(level) {
  return String(level).toLowerCase();
}

/** The level of the server's bot named `name` in a record ("Bot (hard)": no person may
 * take such a name), or null for a person. */
/**
 * @param {string} name
 * @returns {import('./protocol').Level | null}
 */
export function botOfName(name) {
  const m = /^bot \((\w+)\)$/i.exec(String(name).trim());
  return (m && LEVELS.find((l) => l.toLowerCase() === m[1].toLowerCase())) || null;
}

/**
 * The bots' levels, weakest first (the protocol's `Level`).
 * @type {readonly import('./protocol').Level[]}
 */
export const LEVELS = ['Easy', 'Casual', 'Medium', 'Advanced', 'Hard', 'Expert', 'Max'];

/** A move as the protocol's JSON writes it, from a caro point or a xiangqi from/to. */
/**
 * @param {Point} p
 * @returns {Move}
 */
export function caroMove(p) {
  return { caro: { x: p.x, y: p.y } };
}

/**
 * @param {XqSquare} from
 * @param {XqSquare} to
 * @returns {Move}
 */
export function xiangqiMove(from, to) {
  return { xiangqi: { from: { file: from.file, rank: from.rank }, to: { file: to.file, rank: to.rank } } };
}
