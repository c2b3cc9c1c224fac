// @ts-check
// The xiangqi board: lines, river and palaces drawn in SVG, pieces as Chinese characters
// on the points, turned round for Black. Tap one of your pieces to see where it may go
// (the server's legal moves), tap a target to play; check and the last move are marked.

import { h, svg } from './dom.js';
import { squareName } from './notation.js';
import { lastMove, xiangqiPieces } from './state.js';

/** @typedef {import('./protocol').XqSquare} XqSquare */

/** @type {Record<string, string>} */
const GLYPHS = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};

/** The lines of the board, in a 9 x 10 box whose points are at half-unit offsets. */
function lines() {
  /** @type {SVGElement[]} */
  const parts = [];
  /**
   * @param {number} x1
   * @param {number} y1
   * @param {number} x2
   * @param {number} y2
   */
  const line = (x1, y1, x2, y2) => parts.push(svg('line', { x1: x1 + 0.5, y1: y1 + 0.5, x2: x2 + 0.5, y2: y2 + 0.5 }));
  for (let r = 0; r < 10; r++) line(0, r, 8, r);
  for (let f = 0; f < 9; f++) {
    if (f === 0 || f === 8) line(f, 0, f, 9);
    else {
      line(f, 0, f, 4);
      line(f, 5, f, 9);
    }
  }
  // The palaces' diagonals.
  line(3, 0, 5, 2);
  line(5, 0, 3, 2);
  line(3, 7, 5, 9);
  line(5, 7, 3, 9);
  const river = svg('text', { x: 4.5, y: 5.15, class: 'river' });
  river.textContent = '楚 河          漢 界';
  return svg('svg', { class: 'xq-lines', viewBox: '0 0 9 10', 'aria-hidden': 'true' }, ...parts, river);
}

/**
 * The board for `room` seen by `color` ('red' or 'black' at the bottom). `opts`:
 * {selected: square|null, targets: [square], check: bool, onTap(square), pieces?,
 * cursor?: square, marked?: [square]} (the editor's cursor and the points a flaw concerns),
 * trials (a Set of draft moves' "file,rank" targets), label (the board's accessible name).
 * @param {{game: import('./protocol').GameView | null, hint?: import('./protocol').Move | null}} room
 * @param {'red' | 'black'} color
 * @param {{
 *   selected?: XqSquare | null, targets?: XqSquare[], check?: boolean, toMoveColor?: string | null,
 *   onTap?: (sq: XqSquare) => void, pieces?: import('./state.js').Pieces, cursor?: XqSquare,
 *   marked?: XqSquare[], trials?: Set<string> | null, label?: string,
 * }} [opts]
 */
export function xiangqiBoard(room, color, opts = {}) {
  const pieces = opts.pieces || xiangqiPieces(/** @type {import('./state.js').Room} */ (room));
  const last = lastMove(/** @type {import('./state.js').Room} */ (room));
  const lx = last && 'xiangqi' in last.mv ? last.mv.xiangqi : null;
  /**
   * @param {XqSquare | null | undefined} a
   * @param {XqSquare | null | undefined} b
   */
  const same = (a, b) => a && b && a.file === b.file && a.rank === b.rank;
  const flip = color === 'black';
  const targets = opts.targets || [];
  const trials = opts.trials || new Set();
  const grid = h('div', { class: 'xq-points', role: 'group', 'aria-label': opts.label || null });
  // The side to move's general is the one in check.
  const checkedColor = opts.check ? opts.toMoveColor : null;
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 9; col++) {
      const rank = flip ? row : 9 - row;
      const file = flip ? 8 - col : col;
      const sq = { file, rank };
      const p = pieces[rank][file];
      const classes = ['xq-pt'];
      if (lx && (same(lx.from, sq) || same(lx.to, sq))) classes.push('last');
      if (same(opts.selected, sq)) classes.push('selected');
      if (trials.has(`${file},${rank}`)) classes.push('draft');
      if (same(opts.cursor, sq)) classes.push('cursor');
      if ((opts.marked || []).some((m) => same(m, sq))) classes.push('flaw');
      const target = targets.some((t) => same(t, sq));
      if (target) classes.push(p ? 'target capture' : 'target');
      if (room.hint && 'xiangqi' in room.hint && (same(room.hint.xiangqi.from, sq) || same(room.hint.xiangqi.to, sq))) classes.push('hint');
      const red = p && p === p.toUpperCase();
      if (p && (p === 'K' || p === 'k') && checkedColor === (red ? 'red' : 'black')) classes.push('check');
      grid.append(
        h(
          'button',
          {
            class: classes.join(' '),
            dataset: { file, rank, square: squareName(sq) },
            'aria-label': squareName(sq) + (p ? ` ${GLYPHS[p]}` : ''),
            onclick: () => opts.onTap && opts.onTap(sq),
          },
          p ? h('span', { class: `piece ${red ? 'red' : 'black'}`, dataset: { piece: p } }, GLYPHS[p]) : null,
        ),
      );
    }
  }
  const files = h('div', { class: 'xq-files' });
  for (let col = 0; col < 9; col++) files.append(h('span', {}, String.fromCharCode(97 + (flip ? 8 - col : col))));
  const ranks = h('div', { class: 'xq-ranks' });
  for (let row = 0; row < 10; row++) ranks.append(h('span', {}, flip ? row : 9 - row));
  return h('div', { class: 'xq-board' }, ranks, h('div', { class: 'xq-field' }, lines(), grid), files);
}
