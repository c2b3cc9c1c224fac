// @ts-check
// The position editor (seed 002's "sắp cờ thế"): arrange xiangqi pieces or caro stones
// on the board, then create a room from the position. The page carries no rules: after
// every change it sends the board to the server (`Judge`), which answers with the
// engine's own reasons a game cannot start from it and the points each concerns, so the
// page says exactly what creating the room would say, and will not use a position the
// rules refuse.

import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { pointName } from './notation.js';
import { piecesFromFen } from './state.js';
import { xiangqiBoard } from './xiangqi.js';

/** @typedef {import('./protocol').Point} Point */
/** @typedef {import('./protocol').XqSquare} XqSquare */
/** @typedef {import('./protocol').Flaw} Flaw */

/**
 * Where the editor starts: caro stones (laid X first) on a board, or a xiangqi FEN.
 * @typedef {{kind: 'caro', width: number, height: number, rule: import('./protocol').Rule, stones: Point[]} | {kind: 'xiangqi', fen: string | null}} EditorStart
 */

/**
 * The editor's state: the board being arranged (caro stones by "x,y", or xiangqi pieces
 * by rank and file), the tool, the cursor, and the server's last judgement.
 * @typedef {{
 *   kind: 'caro' | 'xiangqi',
 *   send: (msg: import('./protocol').ClientMsg) => boolean,
 *   done: (game: import('./protocol').GameSettings | null) => void,
 *   cursor: any,
 *   tool: string,
 *   held: XqSquare | null,
 *   flipped: boolean,
 *   judgement: import('./protocol').Judgement | null,
 *   asked: string | null,
 *   readFen: ReadFen,
 *   fenError: string,
 *   width?: number,
 *   height?: number,
 *   rule?: import('./protocol').Rule,
 *   stones?: Map<string, string>,
 *   board?: import('./state.js').Pieces,
 *   redToMove?: boolean,
 * }} Editor
 */

/**
 * Reads a typed FEN with the server's rules: the position's FEN as the rules write it,
 * or an Error saying what is wrong with it.
 * @typedef {(text: string) => Promise<string | Error>} ReadFen
 */

/**
 * What the create form takes from the editor: caro stones as text, or a FEN.
 * @typedef {{kind: 'caro', stones: string} | {kind: 'xiangqi', fen: string}} FormFields
 */

const XQ_LETTERS = ['K', 'A', 'B', 'N', 'R', 'C', 'P'];
/** @type {Record<string, string>} */
const XQ_NAMES = { K: 'general', A: 'advisor', B: 'elephant', N: 'horse', R: 'chariot', C: 'cannon', P: 'soldier' };
/** @type {Record<string, string>} */
const GLYPHS = {
  K: '帥', A: '仕', B: '相', N: '傌', R: '俥', C: '炮', P: '兵',
  k: '將', a: '士', b: '象', n: '馬', r: '車', c: '砲', p: '卒',
};

/**
 * An editor for `start`: {kind: 'caro', width, height, rule, stones: [{x,y}] laid X
 * first} or {kind: 'xiangqi', fen}. `send(msg)` reaches the server; `readFen` reads a
 * typed FEN with its rules; `done(game)` gets the protocol's GameSettings to create the
 * room with, or null when cancelled.
 * @param {EditorStart} start
 * @param {(msg: import('./protocol').ClientMsg) => boolean} send
 * @param {ReadFen} readFen
 * @param {(game: import('./protocol').GameSettings | null) => void} done
 */
export function newEditor(start, send, readFen, done) {
  /** @type {Editor} */
  const ed = {
    kind: start.kind,
    send,
    done,
    cursor: start.kind === 'caro' ? { x: Math.floor(start.width / 2), y: Math.floor(start.height / 2) } : { file: 4, rank: 0 },
    tool: start.kind === 'caro' ? 'X' : 'hand',
    held: null,
    flipped: false,
    judgement: null,
    asked: null,
    readFen,
    fenError: '',
  };
  if (start.kind === 'caro') {
    ed.width = start.width;
    ed.height = start.height;
    ed.rule = start.rule;
    ed.stones = new Map();
    (start.stones || []).forEach((/** @type {Point} */ p, /** @type {number} */ i) => ed.stones.set(`${p.x},${p.y}`, i % 2 === 0 ? 'X' : 'O'));
  } else {
    loadFen(ed, start.fen);
  }
  judge(ed);
  return ed;
}

/**
 * @param {Editor} ed
 * @param {string | null} fen
 */
function loadFen(ed, fen) {
  ed.board = piecesFromFen(fen || null);
  const side = ((fen || '').trim().split(/\s+/)[1] || 'w').toLowerCase();
  ed.redToMove = side !== 'b';
  ed.held = null;
}

/**
 * The board as the protocol's Arrangement (keys in the server's order).
 * @param {Editor} ed
 * @returns {import('./protocol').Arrangement}
 */
export function arrangement(ed) {
  if (ed.kind === 'caro') {
    /** @type {Point[]} */
    const x = [];
    /** @type {Point[]} */
    const o = [];
    for (const [key, stone] of ed.stones) {
      const [px, py] = key.split(',').map(Number);
      (stone === 'X' ? x : o).push({ x: px, y: py });
    }
    const order = (/** @type {Point} */ a, /** @type {Point} */ b) => a.y - b.y || a.x - b.x;
    return { caro: { width: ed.width, height: ed.height, rule: ed.rule, x: x.sort(order), o: o.sort(order) } };
  }
  /** @type {[XqSquare, string][]} */
  const pieces = [];
  for (let rank = 0; rank < 10; rank++) {
    for (let file = 0; file < 9; file++) {
      const p = ed.board[rank][file];
      if (p) pieces.push([{ file, rank }, p]);
    }
  }
  return { xiangqi: { pieces, red_to_move: ed.redToMove } };
}

/**
 * Asks the server to judge the board as it is now.
 * @param {Editor} ed
 */
function judge(ed) {
  const a = arrangement(ed);
  ed.asked = JSON.stringify(a);
  ed.judgement = null;
  ed.send({ Judge: a });
}

/**
 * Takes the server's judgement; one about a board since changed is dropped.
 * @param {Editor} ed
 * @param {import('./protocol').Judgement} judgement
 */
export function judged(ed, judgement) {
  if (JSON.stringify(judgement.arrangement) !== ed.asked) return false;
  ed.judgement = judgement;
  return true;
}

/**
 * Whether the board may be used: judged, and no flaw.
 * @param {Editor} ed
 */
export function ready(ed) {
  return !!(ed.judgement && ed.judgement.flaws.length === 0 && ed.judgement.game);
}

// ---- edits ------------------------------------------------------------------------

/**
 * @param {Editor} ed
 * @param {Point} p
 * @param {string} tool
 */
function placeCaro(ed, p, tool) {
  const key = `${p.x},${p.y}`;
  const had = ed.stones.get(key);
  if (tool === 'erase' || had === tool) ed.stones.delete(key);
  else ed.stones.set(key, tool);
  judge(ed);
}

/**
 * @param {Editor} ed
 * @param {XqSquare} sq
 */
function tapXiangqi(ed, sq) {
  const here = ed.board[sq.rank][sq.file];
  if (ed.tool === 'hand') {
    if (ed.held) {
      const from = ed.held;
      ed.held = null;
      if (from.file === sq.file && from.rank === sq.rank) return;
      ed.board[sq.rank][sq.file] = ed.board[from.rank][from.file];
      ed.board[from.rank][from.file] = '';
      judge(ed);
    } else if (here) {
      ed.held = sq;
    }
    return;
  }
  ed.held = null;
  ed.board[sq.rank][sq.file] = ed.tool === 'erase' || here === ed.tool ? '' : ed.tool;
  judge(ed);
}

/**
 * @param {Editor} ed
 */
function clearBoard(ed) {
  if (ed.kind === 'caro') ed.stones.clear();
  else ed.board = Array.from({ length: 10 }, () => Array(9).fill(''));
  ed.held = null;
  judge(ed);
}

/**
 * Keys: arrows move the cursor; Space/Enter taps; Delete clears; x/o or a FEN letter places.
 * @param {Editor} ed
 * @param {KeyboardEvent} e
 */
export function editorKey(ed, e) {
  const k = e.key;
  /** @type {Record<string, number[]>} */
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const step = steps[k];
  if (step) {
    if (ed.kind === 'caro') {
      ed.cursor = { x: clamp(ed.cursor.x + step[0], ed.width), y: clamp(ed.cursor.y + step[1], ed.height) };
    } else {
      const [df, dr] = ed.flipped ? [-step[0], step[1]] : [step[0], -step[1]];
      ed.cursor = { file: clamp(ed.cursor.file + df, 9), rank: clamp(ed.cursor.rank + dr, 10) };
    }
    return true;
  }
  if (k === ' ' || k === 'Enter') {
    if (ed.kind === 'caro') placeCaro(ed, ed.cursor, ed.tool === 'erase' ? 'erase' : ed.tool);
    else tapXiangqi(ed, ed.cursor);
    return true;
  }
  if (k === 'Delete' || k === 'Backspace') {
    if (ed.kind === 'caro') placeCaro(ed, ed.cursor, 'erase');
    else {
      ed.board[ed.cursor.rank][ed.cursor.file] = '';
      ed.held = null;
      judge(ed);
    }
    return true;
  }
  if (ed.kind === 'caro' && /^[xo]$/i.test(k)) {
    placeCaro(ed, ed.cursor, k.toUpperCase());
    return true;
  }
  if (ed.kind === 'xiangqi' && /^[kabnrcp]$/i.test(k)) {
    ed.board[ed.cursor.rank][ed.cursor.file] = k;
    ed.held = null;
    judge(ed);
    return true;
  }
  return false;
}

/**
 * @param {number} v
 * @param {number} n
 */
function clamp(v, n) {
  return Math.max(0, Math.min(n - 1, v));
}

// ---- drawing ----------------------------------------------------------------------

/**
 * Draws the editor into `root`; `redraw()` is called after a click changes it.
 * @param {HTMLElement} root
 * @param {Editor} ed
 * @param {() => void} redraw
 */
export function renderEditor(root, ed, redraw) {
  const flaws = ed.judgement ? ed.judgement.flaws : [];
  const game = ed.kind === 'caro' ? t('create.game_caro') : t('create.game_xiangqi');
  const act = (/** @type {() => void} */ f) => () => {
    f();
    redraw();
  };
  const tools = ed.kind === 'caro' ? caroTools(ed, act) : xiangqiTools(ed, act);
  const board = ed.kind === 'caro' ? caroGrid(ed, flaws, act) : xiangqiGrid(ed, flaws, act);
  const status = !ed.judgement
    ? h('p', { id: 'editor-status', class: 'muted' }, t('web.editor_judging'))
    : flaws.length === 0
      ? h('p', { id: 'editor-status', class: 'ok' }, readyText(ed))
      : h('div', { id: 'editor-status' }, h('p', { class: 'warn' }, t('editor.problems')), h('ul', { id: 'editor-flaws' }, flaws.map((f) => h('li', {}, f.reason))));
  const exported =
    ed.kind === 'xiangqi' && ready(ed)
      ? h('label', { class: 'field wide' }, h('span', {}, t('editor.fen')), h('input', { id: 'editor-fen-out', type: 'text', readonly: true, value: ed.judgement.game.xiangqi.fen || 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1' }))
      : null;
  const fenIn =
    ed.kind === 'xiangqi'
      ? h(
          'form',
          {
            class: 'editor-import',
            onsubmit: async (/** @type {SubmitEvent} */ e) => {
              e.preventDefault();
              const field = /** @type {HTMLInputElement} */ (/** @type {HTMLElement} */ (e.target).querySelector('#editor-fen-in'));
              const text = field.value.trim();
              if (!text) return;
              // Read by the server's rules first: a FEN they refuse changes nothing on
              // the board, and what is wrong is said beside the field.
              const fen = await ed.readFen(text);
              if (fen instanceof Error) {
                ed.fenError = t('create.bad_fen', { why: fen.message });
                field.setAttribute('aria-invalid', 'true');
                const said = document.getElementById('editor-fen-error');
                if (said) said.textContent = ed.fenError;
                return;
              }
              ed.fenError = '';
              loadFen(ed, fen);
              judge(ed);
              redraw();
            },
          },
          h(
            'label',
            { class: 'field wide' },
            h('span', {}, t('editor.import_fen')),
            h('input', { id: 'editor-fen-in', type: 'text', autocomplete: 'off', placeholder: 'rnbakabnr/9/… w', 'aria-describedby': 'editor-fen-error' }),
          ),
          h('button', { id: 'editor-fen-load', type: 'submit' }, t('web.editor_load')),
          h('p', { id: 'editor-fen-error', class: 'error', role: 'alert' }, ed.fenError),
        )
      : null;
  fill(
    root,
    h(
      'div',
      { class: 'editor', id: 'editor', tabindex: '0', dataset: { kind: ed.kind } },
      h('div', { class: 'lobby-head' }, h('h2', {}, t('editor.title', { game }))),
      h('div', { class: 'editor-tools', role: 'toolbar' }, tools),
      board,
      status,
      exported,
      fenIn,
      h(
        'div',
        { class: 'dialog-buttons' },
        h('button', { id: 'editor-clear', type: 'button', onclick: act(() => clearBoard(ed)) }, t('web.editor_clear')),
        h('button', { id: 'editor-cancel', type: 'button', onclick: () => ed.done(null) }, t('keys.cancel_short')),
        h('button', { id: 'editor-use', type: 'button', class: 'primary', disabled: !ready(ed), onclick: () => ready(ed) && ed.done(ed.judgement.game) }, t('web.editor_use')),
      ),
    ),
  );
}

/**
 * @param {Editor} ed
 */
function readyText(ed) {
  if (ed.kind === 'caro') {
    const x = [...ed.stones.values()].filter((s) => s === 'X').length;
    const side = x === ed.stones.size - x ? 'X' : 'O';
    return t('editor.ready', { side });
  }
  return t('editor.ready', { side: t(ed.redToMove ? 'side.red' : 'side.black') });
}

/**
 * @param {Editor} ed
 * @param {(f: () => void) => () => void} act
 * @param {string} tool
 * @param {import('./dom.js').Child} label
 * @param {string} title
 */
function toolButton(ed, act, tool, label, title) {
  return h(
    'button',
    { type: 'button', class: `tool${ed.tool === tool ? ' active' : ''}`, 'aria-pressed': ed.tool === tool ? 'true' : 'false', dataset: { tool }, title, onclick: act(() => ((ed.tool = tool), (ed.held = null))) },
    label,
  );
}

/**
 * @param {Editor} ed
 * @param {(f: () => void) => () => void} act
 */
function caroTools(ed, act) {
  const x = [...ed.stones.values()].filter((s) => s === 'X').length;
  const o = ed.stones.size - x;
  const next = x === o ? t('editor.moves_next', { stone: 'X' }) : x === o + 1 ? t('editor.moves_next', { stone: 'O' }) : t('editor.no_one_next');
  return [
    toolButton(ed, act, 'X', h('span', { class: 'stone x' }, 'X'), 'X'),
    toolButton(ed, act, 'O', h('span', { class: 'stone o' }, 'O'), 'O'),
    toolButton(ed, act, 'erase', '⌫', t('web.editor_erase')),
    h('span', { id: 'editor-next', class: 'muted', title: t('editor.caro_side') }, next),
  ];
}

/**
 * @param {Editor} ed
 * @param {(f: () => void) => () => void} act
 */
function xiangqiTools(ed, act) {
  const piece = (/** @type {string} */ p) => {
    const red = p === p.toUpperCase();
    return toolButton(ed, act, p, h('span', { class: `piece ${red ? 'red' : 'black'}` }, GLYPHS[p]), `${t(red ? 'side.red' : 'side.black')} ${t(`piece.${XQ_NAMES[p.toUpperCase()]}`)} (${p})`);
  };
  return [
    toolButton(ed, act, 'hand', t('web.editor_move'), t('web.editor_hand')),
    toolButton(ed, act, 'erase', '⌫', t('web.editor_erase')),
    h('span', { class: 'palette' }, XQ_LETTERS.map(piece)),
    h('span', { class: 'palette' }, XQ_LETTERS.map((l) => piece(l.toLowerCase()))),
    h(
      'label',
      { class: 'field' },
      h('span', {}, t('editor.to_move')),
      h(
        'select',
        { id: 'editor-side', onchange: (/** @type {Event} */ e) => ((ed.redToMove = /** @type {HTMLSelectElement} */ (e.target).value === 'red'), judge(ed), act(() => {})()) },
        h('option', { value: 'red', selected: ed.redToMove }, t('side.red')),
        h('option', { value: 'black', selected: !ed.redToMove }, t('side.black')),
      ),
    ),
    h('button', { id: 'editor-start', type: 'button', onclick: act(() => (loadFen(ed, null), judge(ed))) }, t('web.editor_start')),
    h('button', { id: 'editor-flip', type: 'button', onclick: act(() => (ed.flipped = !ed.flipped)) }, t('web.editor_flip')),
  ];
}

/**
 * @param {Editor} ed
 * @param {Flaw[]} flaws
 * @param {(f: () => void) => () => void} act
 */
function caroGrid(ed, flaws, act) {
  const { width, height } = ed;
  const marked = new Set(flaws.flatMap((f) => f.points.map((p) => `${p.x},${p.y}`)));
  const letters = width <= 26;
  const grid = h('div', { class: 'caro-grid', id: 'board', role: 'grid', style: { '--cols': width + 1, '--rows': height + 1, '--zoom': 1 } });
  for (let y = 0; y < height; y++) {
    grid.append(h('span', { class: 'coord' }, letters ? height - y : y));
    for (let x = 0; x < width; x++) {
      const key = `${x},${y}`;
      const stone = ed.stones.get(key);
      const classes = ['cell'];
      if (marked.has(key)) classes.push('flaw');
      if (ed.cursor.x === x && ed.cursor.y === y) classes.push('cursor');
      const name = pointName({ x, y }, width, height);
      grid.append(
        h(
          'button',
          { class: classes.join(' '), dataset: { x, y, point: name }, 'aria-label': stone ? `${name} ${stone}` : name, onclick: act(() => ((ed.cursor = { x, y }), placeCaro(ed, { x, y }, ed.tool))) },
          stone ? h('span', { class: `stone ${stone === 'X' ? 'x' : 'o'}` }, stone) : null,
        ),
      );
    }
  }
  grid.append(h('span', { class: 'coord' }));
  for (let x = 0; x < width; x++) grid.append(h('span', { class: 'coord' }, letters ? String.fromCharCode(97 + x) : x));
  return h('div', { class: 'board-wrap' }, grid);
}

/**
 * @param {Editor} ed
 * @param {Flaw[]} flaws
 * @param {(f: () => void) => () => void} act
 */
function xiangqiGrid(ed, flaws, act) {
  const board = xiangqiBoard({ game: null }, ed.flipped ? 'black' : 'red', {
    pieces: ed.board,
    selected: ed.held,
    marked: flaws.flatMap((f) => f.squares),
    cursor: ed.cursor,
    onTap: (sq) => act(() => ((ed.cursor = sq), tapXiangqi(ed, sq)))(),
  });
  board.id = 'board';
  return h('div', { class: 'board-wrap' }, board);
}

/**
 * The form's view of a game the editor made: caro stones as text, or the FEN.
 * @param {import('./protocol').GameSettings} game
 * @returns {FormFields}
 */
export function formFields(game) {
  if (game.caro) {
    const { width, height, opening } = game.caro;
    const stones = typeof opening === 'object' && opening.stones ? opening.stones : [];
    return { kind: 'caro', stones: stones.map((p) => pointName(p, width, height)).join(' ') };
  }
  return { kind: 'xiangqi', fen: game.xiangqi.fen || '' };
}
