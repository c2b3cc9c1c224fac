// Draft moves (đi nháp), as in the terminal client: a private copy of the board to try
// moves on. Trial moves never reach the server; they are drawn apart from the real
// ones and vanish when draft mode is left or the real game moves on. The page carries
// no rules: a caro trial needs a free point, a xiangqi trial a piece of the side to
// move and a square it does not hold itself. Pure functions, tested with
// `node --test web/test`.

import { caroStones, toMove, xiangqiColor, xiangqiPieces } from './state.js';

/** A new draft on the room's game as it stands, or null without a game. */
export function startDraft(room) {
  return room.game ? { base: room.game.moves.length, trials: [], selected: null } : null;
}

/** The room as the draft board shows it: the real moves, then the trial ones. */
export function draftRoom(room, draft) {
  const g = room.game;
  return { ...room, game: { ...g, moves: [...g.moves, ...draft.trials], over: null }, hint: null, facts: null, offer: null };
}

/** The keys ("x,y" or "file,rank") the trial moves put stones or pieces on. */
export function trialSpots(draft) {
  return new Set(draft.trials.map((m) => (m.mv.caro ? `${m.mv.caro.x},${m.mv.caro.y}` : `${m.mv.xiangqi.to.file},${m.mv.xiangqi.to.rank}`)));
}

function trial(view, mv) {
  return { mv, by: toMove(view), wxf: '', check: false };
}

/** Plays a caro trial stone on `p`; returns the locale key of a refusal, or null. */
export function draftCaro(room, draft, p) {
  const view = draftRoom(room, draft);
  if (caroStones(view).has(`${p.x},${p.y}`)) return 'room.occupied';
  draft.trials.push(trial(view, { caro: { x: p.x, y: p.y } }));
  return null;
}

/**
 * A tap on xiangqi square `sq` in draft mode: picks up a piece of the side to move, or
 * moves the picked-up piece there. Returns the locale key of a refusal, or null.
 */
export function draftXiangqi(room, draft, sq) {
  const view = draftRoom(room, draft);
  const pieces = xiangqiPieces(view);
  const red = xiangqiColor(view, toMove(view)) === 'red';
  const p = pieces[sq.rank][sq.file];
  const own = !!p && (p === p.toUpperCase()) === red;
  const from = draft.selected;
  if (own) {
    draft.selected = from && from.file === sq.file && from.rank === sq.rank ? null : sq;
    return null;
  }
  if (!from) return null;
  draft.selected = null;
  draft.trials.push(trial(view, { xiangqi: { from: { ...from }, to: { file: sq.file, rank: sq.rank } } }));
  return null;
}

/** Takes back the last trial move; the locale key of a refusal when there is none. */
export function draftUndo(draft) {
  draft.selected = null;
  if (!draft.trials.length) return 'draft.nothing_to_undo';
  draft.trials.pop();
  return null;
}
