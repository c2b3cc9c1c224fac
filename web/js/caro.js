// @ts-check
// The caro board: a grid of buttons, one per point (tap or click to place), with the
// coordinates on the edges, the last move, the winning line, the opening's stones
// (underlined; a swap opening's stones as they are placed), the hint, the four warning,
// and under renju the points the server lists as forbidden to Black (×, with why).

import { h } from './dom.js';
import { pointName } from './notation.js';
import { t } from './i18n.js';
import { caroStones, lastMove, mySeat, swapInProgress } from './state.js';

/**
 * The board for `room`. `opts`: {onPlace(point), warn: bool, zoom: number, trials: Set
 * of draft stones' "x,y", label: what a screen reader calls the board}. The four
 * warning shows the opponent's threats (or, for a spectator, both sides').
 * @param {import('./state.js').Room} room
 * @param {{onPlace?: (p: import('./protocol').Point) => void, warn?: boolean, zoom?: number, trials?: Set<string> | null, label?: string}} [opts]
 */
export function caroBoard(room, opts = {}) {
  const game = room.settings.game;
  const { width, height } = 'caro' in game ? game.caro : { width: 15, height: 15 };
  const stones = caroStones(room);
  const g = room.game;
  const last = lastMove(room);
  const lastKey = last && 'caro' in last.mv ? `${last.mv.caro.x},${last.mv.caro.y}` : null;
  const line = new Set(((g && g.over && g.over.line) || []).map((p) => `${p.x},${p.y}`));
  const swap = swapInProgress(room);
  const opening = new Set(((swap ? swap.stones : g && g.opening) || []).map((p) => `${p.x},${p.y}`));
  // Renju: the server's forbidden points for Black, while Black is to move (its facts
  // list none otherwise), with why.
  /** @type {Map<string, string>} */
  const forbidden = new Map();
  if (room.facts && g && !g.over && room.facts.ply === g.moves.length) {
    for (const f of room.facts.forbidden || []) forbidden.set(`${f.point.x},${f.point.y}`, t(`swap.forbidden_${f.foul}`));
  }
  const hint = room.hint && 'caro' in room.hint ? `${room.hint.caro.x},${room.hint.caro.y}` : null;
  const fives = new Set();
  const threes = new Set();
  if (opts.warn && room.facts && g && !g.over) {
    const me = mySeat(room);
    const seats = me === null ? [0, 1] : [me === 'one' ? 1 : 0];
    for (const i of seats) {
      room.facts.fives[i].forEach((p) => fives.add(`${p.x},${p.y}`));
      room.facts.three_stops[i].forEach((p) => threes.add(`${p.x},${p.y}`));
    }
  }
  const letters = width <= 26;
  const trials = opts.trials || new Set();
  const grid = h('div', {
    class: `caro-grid${opts.trials ? ' drafting' : ''}`,
    role: 'group',
    'aria-label': opts.label || null,
    style: { '--cols': width + 1, '--rows': height + 1, '--zoom': opts.zoom || 1 },
  });
  for (let y = 0; y < height; y++) {
    grid.append(h('span', { class: 'coord' }, letters ? height - y : y));
    for (let x = 0; x < width; x++) {
      const key = `${x},${y}`;
      const stone = stones.get(key);
      const classes = ['cell'];
      if (key === lastKey) classes.push('last');
      if (line.has(key)) classes.push('win');
      if (opening.has(key)) classes.push('opening');
      if (key === hint) classes.push('hint');
      if (trials.has(key)) classes.push('draft');
      if (!stone && fives.has(key)) classes.push('warn-five');
      else if (!stone && threes.has(key)) classes.push('warn-three');
      const foul = stone ? undefined : forbidden.get(key);
      if (foul) classes.push('forbidden');
      const name = pointName({ x, y }, width, height);
      grid.append(
        h(
          'button',
          {
            class: classes.join(' '),
            dataset: { x, y, point: name },
            'aria-label': stone ? `${name} ${stone}` : foul ? `${name}: ${foul}` : name,
            title: foul || null,
            onclick: () => opts.onPlace && opts.onPlace({ x, y }),
          },
          stone ? h('span', { class: `stone ${stone === 'X' ? 'x' : 'o'}` }, stone) : foul ? h('span', { class: 'foul', 'aria-hidden': 'true' }, '×') : null,
        ),
      );
    }
  }
  grid.append(h('span', { class: 'coord' }));
  for (let x = 0; x < width; x++) {
    grid.append(h('span', { class: 'coord' }, letters ? String.fromCharCode(97 + x) : x));
  }
  return grid;
}
