// @ts-check
// Draft moves (đi nháp), as in the terminal client: a private copy of the board to try
// moves on. The page carries no rules for them: each trial line is sent to the server
// (`Trial`), which plays it on a copy of the room's position and answers (`Tried`) with
// the moves that stand, how they read, why the first one that does not stand is refused,
// and the legal moves after them. Nothing is played in the room: the other player never
// hears of a trial. The page keeps only what it shows: the standing trials, the piece
// picked up, the last answer. Pure functions, tested with `node --test web/test`.

import { toMove, xiangqiColor, xiangqiPieces } from './state.js';

/** @typedef {import('./protocol').Move} Move */
/** @typedef {import('./protocol').MoveRecord} MoveRecord */
/** @typedef {import('./protocol').Trial} Trial */
/** @typedef {import('./protocol').XqSquare} XqSquare */
/** @typedef {import('./protocol').Point} Point */
/** @typedef {import('./protocol').ClientMsg} ClientMsg */
/** @typedef {import('./state.js').Room} Room */

/**
 * A draft: the trial moves that stand (as the server recorded them), the piece picked
 * up, the line last asked about and the server's facts after the standing moves.
 * @typedef {{
 *   base: number,
 *   trials: MoveRecord[],
 *   selected: XqSquare | null,
 *   asked: string | null,
 *   facts: import('./protocol').PositionFacts | null,
 *   over: import('./protocol').GameOver | null,
 * }} Draft
 */

/**
 * A new draft on the room's game as it stands, or null without a game.
 * @param {Room} room
 * @returns {Draft | null}
 */
export function startDraft(room) {
  return room.game ? { base: room.game.moves.length, trials: [], selected: null, asked: null, facts: null, over: null } : null;
}

/**
 * The room as the draft board shows it: the real moves, then the trial ones.
 * @param {Room} room
 * @param {Draft} draft
 * @returns {Room}
 */
export function draftRoom(room, draft) {
  const g = room.game;
  return { ...room, game: { ...g, moves: [...g.moves, ...draft.trials], over: draft.over }, hint: null, facts: draft.facts, offer: null };
}

/**
 * The keys ("x,y" or "file,rank") the trial moves put stones or pieces on.
 * @param {Draft} draft
 */
export function trialSpots(draft) {
  return new Set(draft.trials.map((m) => ('caro' in m.mv ? `${m.mv.caro.x},${m.mv.caro.y}` : `${m.mv.xiangqi.to.file},${m.mv.xiangqi.to.rank}`)));
}

/**
 * The `Trial` message for the standing trials and `next` after them (none: just the
 * facts after the standing ones); the draft remembers what it asked.
 * @param {Draft} draft
 * @param {Move | null} [next]
 * @returns {ClientMsg}
 */
export function askTrial(draft, next = null) {
  const line = [...draft.trials.map((m) => m.mv), ...(next ? [next] : [])];
  draft.asked = JSON.stringify(line);
  return { Trial: line };
}

/**
 * Takes the server's answer. Returns null for an answer about a line or position since
 * changed (dropped), else the refusal sentence of the move that does not stand ('' when
 * all stand).
 * @param {Room} room
 * @param {Draft} draft
 * @param {Trial} answer
 * @returns {string | null}
 */
export function tried(room, draft, answer) {
  const g = room.game;
  if (!g || answer.game !== g.number || answer.ply !== draft.base || JSON.stringify(answer.asked) !== draft.asked) return null;
  draft.trials = answer.moves;
  draft.facts = answer.facts;
  draft.over = answer.over || null;
  return answer.refused || '';
}

/**
 * A caro trial stone on `p`: the message that asks the server.
 * @param {Draft} draft
 * @param {Point} p
 */
export function draftCaro(draft, p) {
  return askTrial(draft, { caro: { x: p.x, y: p.y } });
}

/**
 * A tap on xiangqi square `sq` in draft mode: picks up a piece of the side to move (on
 * the board as drawn), or asks the server to move the picked-up piece there. Returns the
 * message to send, or null when the tap only picked a piece up or put it down.
 * @param {Room} room
 * @param {Draft} draft
 * @param {XqSquare} sq
 * @returns {ClientMsg | null}
 */
export function draftXiangqi(room, draft, sq) {
  const view = draftRoom(room, draft);
  const pieces = xiangqiPieces(view);
  const mover = toMove({ ...view, game: { ...view.game, over: null } });
  const red = mover ? xiangqiColor(view, mover) === 'red' : true;
  const p = pieces[sq.rank][sq.file];
  const own = !!p && (p === p.toUpperCase()) === red;
  const from = draft.selected;
  if (own) {
    draft.selected = from && from.file === sq.file && from.rank === sq.rank ? null : sq;
    return null;
  }
  if (!from) return null;
  draft.selected = null;
  return askTrial(draft, { xiangqi: { from: { file: from.file, rank: from.rank }, to: { file: sq.file, rank: sq.rank } } });
}

/**
 * The squares the picked-up piece may go to on the draft board, from the server's facts.
 * @param {Draft} draft
 * @returns {XqSquare[]}
 */
export function draftTargets(draft) {
  const from = draft.selected;
  if (!from || !draft.facts) return [];
  return draft.facts.legal.flatMap((m) => ('xiangqi' in m && m.xiangqi.from.file === from.file && m.xiangqi.from.rank === from.rank ? [m.xiangqi.to] : []));
}

/**
 * Takes back the last trial move: the message asking for the facts without it, or the
 * locale key of a refusal when there is none.
 * @param {Draft} draft
 * @returns {ClientMsg | string}
 */
export function draftUndo(draft) {
  draft.selected = null;
  if (!draft.trials.length) return 'draft.nothing_to_undo';
  draft.trials = draft.trials.slice(0, -1);
  draft.over = null;
  return askTrial(draft);
}
