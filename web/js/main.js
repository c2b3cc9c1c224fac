// @ts-check
// The page's controller: one `app` state, server messages and clicks that change it,
// and views that draw it (connect, lobby, room, records) plus one dialog at a time.

import { h, fill } from './dom.js';
import { t, loadLanguage, browserLanguage, LANGUAGES } from './i18n.js';
import { Connection } from './net.js';
import { loadPrefs, savePrefs, loadResume } from './prefs.js';
import * as sound from './sound.js';
import * as S from './state.js';
import { caroMove, xiangqiMove } from './notation.js';
import { renderLobby } from './lobby.js';
import { createForm, useArrangement } from './create.js';
import { newEditor, judged, renderEditor, editorKey, formFields } from './editor.js';
import { mountRoom, headline, reasonText, seatName, seriesText } from './room.js';
import { renderLeaderboard, renderHistory, renderReplay, replayRoom, offerDownload } from './records.js';
import { renderProfile } from './profile.js';
import { startDraft, askTrial, tried, draftCaro, draftXiangqi, draftUndo } from './draft.js';
import { pointName, ruleName, seatIndex, squareName } from './notation.js';

/** @typedef {import('./protocol').ServerMsg} ServerMsg */
/** @typedef {import('./protocol').ClientMsg} ClientMsg */
/** @typedef {import('./protocol').RecordedGame} RecordedGame */
/** @typedef {import('./protocol').Arrangement} Arrangement */

/** @param {string} name */
function meta(name) {
  return Number(/** @type {HTMLMetaElement} */ (document.querySelector(`meta[name="${name}"]`)).content);
}

const VERSION = meta('banco-protocol');
/** The longest record file text the server reads for the page (one client message). */
const RECORD_LIMIT = meta('banco-record-limit');

/**
 * A dialog as shown: its id, title, body and buttons.
 * @typedef {{
 *   id: string, title: string, body: import('./dom.js').Child,
 *   buttons: {id: string, label: string, action?: () => void, submit?: HTMLFormElement}[],
 * }} Dialog
 */

/**
 * The page's one state, and what views may ask of it. (Issue 28 item 6 splits it into
 * per-screen state.)
 * @typedef {{
 *   prefs: import('./prefs.js').Prefs,
 *   screen: string,
 *   me: {name: string, server: string, account: boolean},
 *   refusal: string | null,
 *   register: boolean,
 *   rooms: import('./protocol').RoomSummary[],
 *   room: import('./state.js').Room | null,
 *   watching: number | null,
 *   selected: import('./protocol').XqSquare | null,
 *   flip: boolean,
 *   zoom: number,
 *   dialog: Dialog | null,
 *   records: any,
 *   replay: RecordedGame | null,
 *   step: number,
 *   autoplay: ReturnType<typeof setInterval> | null,
 *   view: {update: () => void, tick: () => void} | null,
 *   draft: import('./draft.js').Draft | null,
 *   cursor: {at?: number},
 *   leaderboardGame: import('./protocol').GameKind,
 *   historyFor: string | null,
 *   replayFile: string | null,
 *   editor: import('./editor.js').Editor | null,
 *   review?: {asked?: boolean, progress?: {game: number, done: number, total: number}, done?: import('./protocol').GameReview} | null,
 *   send: (msg: ClientMsg) => boolean,
 *   place: (p: import('./protocol').Point) => void,
 *   tapSquare: (sq: import('./protocol').XqSquare) => void,
 *   toggleDraft: () => void,
 *   draftPlace: (p: import('./protocol').Point) => void,
 *   draftTap: (sq: import('./protocol').XqSquare) => void,
 *   draftUndo: () => void,
 *   saveRecord: (record: RecordedGame) => Promise<void>,
 *   saveRoomGame: () => void,
 *   openRecordFile: (file: File | null) => Promise<void>,
 *   playOn: (record: RecordedGame, step: number) => void,
 *   askLeaderboard: (game: import('./protocol').GameKind) => void,
 *   askProfile: (name: string, bot?: import('./protocol').Level | null) => void,
 *   askHistory: (player: string | null) => void,
 *   toggleWarn: () => void,
 *   toggleFlip: () => void,
 *   zoomBy: (d: number) => void,
 *   confirmLeave: () => void,
 *   confirmResign: () => void,
 *   showOffer: () => void,
 *   showGameOver: () => void,
 *   openCreate: (again?: HTMLFormElement | null, start?: import('./create.js').Start | null) => void,
 *   toLobby: () => void,
 *   replayStep: (n: number) => void,
 *   replayAutoplay: () => void,
 *   logOut: () => void,
 *   changePassword: () => void,
 * }} App
 */

/** @type {App} */
const app = /** @type {App} */ ({
  prefs: loadPrefs(),
  screen: 'connect',
  me: { name: '', server: '', account: false },
  // The connect form's refusal: the server's reason, told under the form.
  refusal: null,
  register: false,
  rooms: [],
  room: null,
  watching: null,
  selected: null,
  flip: false,
  zoom: 1,
  dialog: null,
  records: null,
  replay: null,
  step: 0,
  autoplay: null,
  view: null,
  // Trial moves on a private copy of the board (draft mode), or null.
  draft: null,
  // The keyboard cursor on the board: {at: index of the point}.
  cursor: {},
  // Which game's leaderboard was asked for last: 'caro' or 'xiangqi'.
  leaderboardGame: 'caro',
  // Whose games the history shows (null: everyone's).
  historyFor: null,
  // The file name of a replay read from a file (null for the server's records).
  replayFile: null,
  editor: null,
});

const main = document.getElementById('main');
const noticeEl = document.getElementById('notice');
const dialogEl = document.getElementById('dialog');
const headerInfo = document.getElementById('who');

const conn = new Connection(VERSION, { onMessage, onStatus });

app.send = (msg) => {
  if (conn.send(msg)) return true;
  notice(t('net.offline'), 'warn');
  return false;
};

/**
 * @param {string} text
 * @param {'info' | 'warn' | 'error'} [kind]
 */
function notice(text, kind = 'info') {
  noticeEl.textContent = text;
  noticeEl.className = `notice ${kind}`;
}

function setTheme() {
  const dark = app.prefs.theme ? app.prefs.theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

// ---- server messages -------------------------------------------------------------

/**
 * @param {string} kind
 * @param {any} [detail]
 */
function onStatus(kind, detail) {
  if (kind === 'connecting') notice(t('connect.connecting', { addr: location.host }));
  else if (kind === 'welcome') {
    app.me = { name: detail.name, server: detail.server, account: !!detail.account };
    app.refusal = null;
    notice(t('event.welcome', { server: detail.server, name: detail.name }));
    toLobby(false);
  } else if (kind === 'reconnecting') {
    forgetRecordAsks();
    notice(t('net.reconnecting', { n: detail }), 'warn');
  }
  else if (kind === 'reconnected') {
    app.me = { name: detail.name, server: detail.server, account: !!detail.account };
    notice(t('net.reconnected'));
    // The server puts a held seat back (a Joined follows); a spectator watches again.
    const watching = app.room && !S.mySeat(app.room) ? app.room.id : null;
    app.room = null;
    app.screen = 'lobby';
    if (watching !== null) app.send({ WatchRoom: watching });
    render();
  } else if (kind === 'closed') {
    forgetRecordAsks();
    // Refused at the door: the server's reason, under the form, is what to fix.
    app.refusal = detail ? errorText(detail) : null;
    notice(app.refusal || t('net.closed'), 'error');
    app.me = { name: '', server: '', account: false };
    app.screen = 'connect';
    app.room = null;
    closeDialog();
    render();
  } else if (kind === 'gave_up') {
    notice(t('net.gave_up', { reason: conn.lastClose || t('net.closed') }), 'error');
    app.screen = 'connect';
    app.room = null;
    render();
  }
  renderHeader();
}

/**
 * A server message as its kind and its body, the body typed by the kind (`switch (kind)`
 * narrows it).
 * @typedef {Exclude<ServerMsg, string>} ObjectMsg
 * @typedef {ObjectMsg extends infer U ? (U extends any ? keyof U : never) : never} ObjectKind
 * @typedef {{[K in ObjectKind]: {kind: K, body: Extract<ObjectMsg, Record<K, unknown>>[K]}}[ObjectKind] | {kind: Extract<ServerMsg, string>, body: null}} Tagged
 */

/**
 * @param {ServerMsg} msg
 * @returns {Tagged}
 */
function tagged(msg) {
  if (typeof msg === 'string') return { kind: msg, body: null };
  const [kind, body] = Object.entries(msg || {})[0] || [];
  return /** @type {Tagged} */ ({ kind, body });
}

/** @param {ServerMsg} msg */
function onMessage(msg) {
  const { kind, body } = tagged(msg);
  const now = performance.now();
  switch (kind) {
    case 'Welcome':
      return; // handled by onStatus
    case 'Rooms':
      app.rooms = body;
      if (app.screen === 'lobby') render();
      return;
    case 'RoomsChanged':
      app.rooms = S.applyRoomChanges(app.rooms || [], body.changed, body.closed);
      if (app.screen === 'lobby') render();
      return;
    case 'RoomCreated':
      return;
    case 'Joined':
      app.room = S.roomFromView(body, now);
      app.screen = 'room';
      app.selected = null;
      app.draft = null;
      app.cursor = {};
      app.view = null;
      closeDialog();
      askFacts();
      render();
      if (app.room.game && app.room.game.over) showGameOver();
      else if (S.offerToMe(app.room)) showOffer();
      return;
    case 'Left':
      app.room = null;
      app.draft = null;
      closeDialog();
      toLobby();
      return;
    case 'Error':
      if (app.dialog && app.dialog.id === 'password') return showDialogError(errorText(body));
      notice(errorText(body), 'error');
      return;
    case 'PasswordChanged':
      closeDialog();
      notice(t('event.password_changed'));
      return;
    case 'Judged':
      if (app.editor && judged(app.editor, body) && app.screen === 'editor') render();
      else playOnJudged(body);
      return;
    // The server's answers to record requests, one each, in the order asked.
    case 'RecordParsed':
    case 'RecordText':
    case 'RecordRefused': {
      const answered = recordAsks.shift();
      if (answered) answered(msg);
      return;
    }
    case 'Tried':
      if (app.draft && app.room) {
        const refused = tried(app.room, app.draft, body);
        if (refused) notice(refused, 'warn');
        if (refused !== null && app.screen === 'room') update();
      }
      return;
    case 'Leaderboard':
      app.screen = 'leaderboard';
      app.leaderboardGame = body.game;
      app.records = body.standings;
      render();
      return;
    case 'Profile':
      app.screen = 'profile';
      app.records = body;
      render();
      return;
    case 'History':
      app.screen = 'history';
      app.records = body;
      render();
      return;
    case 'Replay':
      app.screen = 'replay';
      app.replay = body;
      app.replayFile = null;
      app.step = 0;
      app.review = null;
      render();
      return;
    // The engine's review of the game in the replay: progress, then the review.
    case 'ReviewProgress':
      if (app.replay && app.replay.summary.id === body.game) {
        app.review = { progress: body };
        if (app.screen === 'replay') render();
      }
      return;
    case 'Review':
      if (app.replay && app.replay.summary.id === body.game) {
        app.review = { done: body };
        if (app.screen === 'replay') render();
      }
      return;
    default:
      break;
  }
  const room = app.room;
  if (!room) return;
  const before = room.seats.map((s) => s && { ...s });
  if (!S.apply(room, msg, now)) return; // a message this page does not know: ignored
  const me = S.mySeat(room);
  // The real game moved on: the trial moves no longer stand on it.
  if (app.draft && ['GameStarted', 'Moved', 'Undone', 'GameOver'].includes(kind)) {
    app.draft = null;
    notice(t('draft.cleared'));
  }
  switch (kind) {
    case 'GameStarted':
      app.selected = null;
      closeDialog();
      notice(t('event.game_started', { number: body.number, x: seatName(room, body.first), o: seatName(room, body.first === 'one' ? 'two' : 'one'), first: seatName(room, body.first) }));
      askFacts();
      break;
    case 'Moved':
      app.selected = null;
      if (body.record.by !== me && me) sound.play('move');
      askFacts();
      break;
    case 'Undone':
      app.selected = null;
      closeOfferDialog();
      notice(body.plies === 1 ? t('event.undone_one') : t('event.undone_many', { plies: body.plies }));
      askFacts();
      break;
    case 'Offered': {
      const name = seatName(room, body.by);
      const key = body.kind === 'new_game' ? (room.game && room.game.over ? 'rematch' : 'newgame') : body.kind;
      if (S.offerToMe(room)) {
        notice(t(`offer.${key}`, { name }));
        sound.play('offer');
        showOffer();
      } else if (body.by === me) notice(t(`offer.mine_${key}`, { name: seatName(room, body.by === 'one' ? 'two' : 'one') }));
      else notice(t(`offer.${key}`, { name }));
      break;
    }
    case 'Declined':
    case 'Withdrawn': {
      closeOfferDialog();
      const key = body.kind === 'new_game' ? (room.game && room.game.over ? 'rematch' : 'newgame') : body.kind;
      const other = seatName(room, body.by === 'one' ? 'two' : 'one');
      if (kind === 'Declined') notice(t(`declined.${key}`, { name: other }), 'warn');
      else if (body.by !== me) notice(t(`withdrawn.${key}`, { name: seatName(room, body.by) }));
      break;
    }
    case 'GameOver':
      app.selected = null;
      sound.play('end');
      showGameOver();
      break;
    case 'Hint':
      notice(t('event.hint', { point: hintText(room, body) }));
      break;
    case 'People':
      for (const [i, seat] of ['one', 'two'].entries()) {
        const [a, b] = [before[i], room.seats[i]];
        if (!a && b) notice(t('room.sat_down', { name: b.name }));
        else if (a && !b) notice(t('room.stood_up', { name: a.name }));
        else if (a && b && a.connected && !b.connected) notice(t('room.connection_lost', { name: b.name }), 'warn');
        else if (a && b && !a.connected && b.connected) notice(t('room.reconnected', { name: b.name }));
        void seat;
      }
      break;
    default:
      break;
  }
  if (app.screen === 'room') update();
}

/**
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').Move} mv
 */
function hintText(room, mv) {
  const game = room.settings.game;
  if ('caro' in mv) return 'caro' in game ? pointName(mv.caro, game.caro.width, game.caro.height) : '';
  return squareName(mv.xiangqi.from) + squareName(mv.xiangqi.to);
}

/** A refusal in the page's language; the server's own sentence says what to change. */
/** @param {import('./protocol').ErrorMsg} e */
function errorText(e) {
  const local = t(`server_error.${e.code}`);
  if (document.documentElement.lang === 'en' || !e.message) return e.message ? sentence(e.message) : local;
  return `${local} (${e.message})`;
}

/** The server's words as a sentence: a capital first, a full stop last. */
/** @param {string} text */
function sentence(text) {
  const s = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(s) ? s : `${s}.`;
}

function askFacts() {
  if (app.room && app.room.game) app.send('Facts');
}

// ---- actions from the page ---------------------------------------------------------

app.place = (p) => {
  const room = app.room;
  if (!room) return;
  if (!S.mySeat(room)) return notice(t('room.spectator_cannot_move'), 'warn');
  if (!room.game) return notice(t('room.no_game_yet'), 'warn');
  if (room.game.over) return notice(t('room.game_is_over'), 'warn');
  if (!S.myTurn(room)) return notice(t('room.not_your_turn'), 'warn');
  if (S.caroStones(room).has(`${p.x},${p.y}`)) return notice(t('room.occupied'), 'warn');
  app.send({ Move: caroMove(p) });
};

app.tapSquare = (sq) => {
  const room = app.room;
  if (!room) return;
  const me = S.mySeat(room);
  const pieces = S.xiangqiPieces(room);
  const p = pieces[sq.rank][sq.file];
  const mine = p && me && (p === p.toUpperCase()) === (S.xiangqiColor(room, me) === 'red');
  if (!app.selected) {
    if (!me) return notice(t('room.spectator_cannot_move'), 'warn');
    if (!mine) return;
    if (!S.playing(room)) return notice(room.game ? t('room.game_is_over') : t('room.no_game_yet'), 'warn');
    if (!S.myTurn(room)) return notice(t('room.not_your_turn'), 'warn');
    app.selected = sq;
  } else if (mine) {
    // Another of one's own pieces: pick that one up instead (the same one: put it down).
    app.selected = app.selected.file === sq.file && app.selected.rank === sq.rank ? null : sq;
  } else {
    // Any other square is sent: the server plays it or says why it cannot be played.
    app.send({ Move: xiangqiMove(app.selected, sq) });
    app.selected = null;
  }
  update();
};

// ---- draft moves ---------------------------------------------------------------------

app.toggleDraft = () => {
  const room = app.room;
  if (!room) return;
  if (app.draft) {
    app.draft = null;
    notice(t('draft.off'));
  } else {
    if (!room.game) return notice(t('room.no_game_yet'), 'warn');
    app.draft = startDraft(room);
    app.selected = null;
    notice(t('draft.on'));
    // The rules' facts on the draft board (the legal moves) before the first trial.
    app.send(askTrial(app.draft));
  }
  update();
};

/** A trial move on the draft board: the server plays it on a copy and answers `Tried`. */
app.draftPlace = (p) => {
  if (!app.draft || !app.room) return;
  app.send(draftCaro(app.draft, p));
};

app.draftTap = (sq) => {
  if (!app.draft || !app.room) return;
  const ask = draftXiangqi(app.room, app.draft, sq);
  if (ask) app.send(ask);
  update();
};

app.draftUndo = () => {
  if (!app.draft) return;
  const next = draftUndo(app.draft);
  if (typeof next === 'string') notice(t(next), 'warn');
  else app.send(next);
  update();
};

// ---- game records: save, open, play on --------------------------------------------

/**
 * Record requests waiting for the server's answer, oldest first: the server answers each
 * ParseRecord and WriteRecord with one RecordParsed, RecordText or RecordRefused, in the
 * order asked. Each waiter gets the answer, or null when the connection went.
 * @type {((answer: ServerMsg | null) => void)[]}
 */
const recordAsks = [];

/**
 * Sends a record request; resolves with the server's answer (null when offline).
 * @param {ClientMsg} msg
 * @returns {Promise<ServerMsg | null>}
 */
function askRecord(msg) {
  return new Promise((resolve) => {
    if (!app.send(msg)) return resolve(null);
    recordAsks.push(resolve);
  });
}

/** Answers every waiting record request with null: the connection they went out on is gone. */
function forgetRecordAsks() {
  for (const waiting of recordAsks.splice(0)) waiting(null);
}

/** The page's offset from UTC in minutes (east positive): a record's `ended:` date is
 * local time. */
function zoneMinutes() {
  return -new Date().getTimezoneOffset();
}

/**
 * The room's game as a record, finished or not.
 * @param {import('./state.js').Room} room
 * @returns {RecordedGame}
 */
function roomRecord(room) {
  const g = room.game;
  /** @param {import('./protocol').Seat} seat */
  const name = (seat) => {
    const s = room.seats[seatIndex(seat)] || (room.sat && room.sat[seatIndex(seat)]);
    return s ? (s.bot ? `Bot (${String(s.bot).toLowerCase()})` : s.name) : '?';
  };
  return {
    summary: { id: null, game: room.settings.game, time: room.settings.time, players: [name('one'), name('two')], first: g.first, over: g.over, ended_at_ms: g.over ? Date.now() : null, rated: null },
    start_fen: g.start_fen || '',
    opening: g.opening || [],
    moves: g.moves,
  };
}

/**
 * Has the server write `record` as a file (checked by the rules) and offers it as a
 * download.
 * @param {RecordedGame} record
 */
app.saveRecord = async (record) => {
  /** @type {ClientMsg} */
  const ask = { WriteRecord: { record, zone_minutes: zoneMinutes() } };
  if (new TextEncoder().encode(JSON.stringify(ask)).length > RECORD_LIMIT) {
    return notice(t('web.record_not_saved', { why: t('web.record_too_long') }), 'error');
  }
  const answer = await askRecord(ask);
  if (!answer || typeof answer === 'string') return;
  if ('RecordRefused' in answer) return notice(t('web.record_not_saved', { why: answer.RecordRefused.message }), 'error');
  if (!('RecordText' in answer)) return;
  const name = app.replayFile && !record.summary.id ? app.replayFile : answer.RecordText.name;
  offerDownload(name, answer.RecordText.text);
  notice(t('web.saved', { name }));
};

app.saveRoomGame = () => {
  if (app.room && app.room.game) app.saveRecord(roomRecord(app.room));
};

/**
 * Reads a record file the person picked, into a replay: the server reads it with the
 * rules crate's one parser.
 * @param {File | null} file
 */
app.openRecordFile = async (file) => {
  if (!file) return;
  if (file.size > RECORD_LIMIT) return notice(t('web.record_too_large', { name: file.name, size: file.size, limit: RECORD_LIMIT }), 'error');
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return notice(t('web.record_not_text', { name: file.name }), 'error');
  }
  const answer = await askRecord({ ParseRecord: { text, zone_minutes: zoneMinutes() } });
  if (!answer || typeof answer === 'string') return;
  if ('RecordRefused' in answer) {
    const { line, message } = answer.RecordRefused;
    return notice(t('web.record_refused', { name: file.name, why: line ? `line ${line}: ${message}` : message }), 'error');
  }
  if (!('RecordParsed' in answer)) return;
  const record = answer.RecordParsed;
  stopAutoplay();
  app.replay = record;
  app.replayFile = file.name;
  app.step = 0;
  app.review = null;
  app.screen = 'replay';
  notice(t('web.record_opened', { name: file.name, count: record.moves.length }));
  render();
};

/**
 * Typed opening stones, read by the server with the rules: sent as the `opening:` line of
 * a record (the one reader of stones written as people write them), so the stones come
 * back checked (on the board, each on its own point, no five made already).
 * @type {import('./create.js').ReadStones}
 */
async function readStones(width, height, rule, text) {
  if (!text.trim()) return [];
  const record = `game: caro\nboard: ${width}x${height}\nrule: ${ruleName(rule)}\nopening: ${text.replace(/[\r\n]+/g, ' ')}\n`;
  const answer = await askRecord({ ParseRecord: { text: record, zone_minutes: 0 } });
  if (!answer || typeof answer === 'string') return new Error(t('net.offline'));
  if ('RecordRefused' in answer) return new Error(answer.RecordRefused.message);
  if ('RecordParsed' in answer) return answer.RecordParsed.opening;
  return new Error(t('net.offline'));
}

/** A xiangqi play-on waiting for the server's judgement of its position (the
 * arrangement sent, as JSON), or null. */
/** @type {string | null} */
let playOnAsk = null;

/**
 * A new room starting from the replay's position at `step`: the create form, filled.
 * Caro: the stones so far, as typed stones. Xiangqi: the pieces as they stand, judged by
 * the server, which answers with the position's FEN (or why no game can start there).
 * @param {RecordedGame} record
 * @param {number} step
 */
app.playOn = (record, step) => {
  const game = record.summary.game;
  if ('caro' in game) {
    const c = game.caro;
    const stones = [...record.opening, ...record.moves.slice(0, step).flatMap((m) => ('caro' in m.mv ? [m.mv.caro] : []))];
    toLobby();
    app.openCreate(null, { game: 'caro', width: c.width, height: c.height, rule: c.rule, stones: stones.map((p) => pointName(p, c.width, c.height)).join(' ') });
    return;
  }
  const room = replayRoom(record, step);
  const pieces = S.xiangqiPieces(room);
  /** @type {[import('./protocol').XqSquare, string][]} */
  const placed = [];
  pieces.forEach((row, rank) => row.forEach((p, file) => p && placed.push([{ file, rank }, p])));
  const mover = S.toMove({ ...room, game: { ...room.game, over: null } });
  /** @type {Arrangement} */
  const arrangement = { xiangqi: { pieces: placed, red_to_move: S.xiangqiColor(room, mover) === 'red' } };
  playOnAsk = JSON.stringify(arrangement);
  app.send({ Judge: arrangement });
};

/**
 * The server's judgement of a play-on position: the create form with its FEN, or why a
 * game cannot start there.
 * @param {import('./protocol').Judgement} judgement
 */
function playOnJudged(judgement) {
  if (!playOnAsk || JSON.stringify(judgement.arrangement) !== playOnAsk) return;
  playOnAsk = null;
  const game = judgement.game;
  if (!game || !('xiangqi' in game)) return notice(t('web.play_on_refused', { why: judgement.flaws.map((f) => f.reason).join('; ') }), 'error');
  toLobby();
  app.openCreate(null, { game: 'xiangqi', fen: game.xiangqi.fen || S.XQ_START });
}

app.askLeaderboard = (game) => {
  app.leaderboardGame = game;
  app.send({ Leaderboard: game });
};

/** Someone's record: a person by name, or the bot of a level. */
app.askProfile = (name, bot = null) => app.send({ Profile: { name, bot } });

app.askHistory = (player) => {
  app.historyFor = player;
  app.send({ History: { player } });
};

app.toggleWarn = () => {
  app.prefs.warn = !app.prefs.warn;
  savePrefs(app.prefs);
  notice(app.prefs.warn ? t('room.threats_on') : t('room.threats_off'));
  update();
};

app.toggleFlip = () => {
  app.flip = !app.flip;
  render();
};

app.zoomBy = (d) => {
  app.zoom = Math.max(0.6, Math.min(2.5, app.zoom * (d > 0 ? 1.25 : 0.8)));
  update();
};

app.confirmLeave = () => {
  const room = app.room;
  const loses = room && S.mySeat(room) && S.playing(room);
  showDialog({
    id: 'leave',
    title: t('dialog.leave_title'),
    body: [t('dialog.leave'), loses ? h('p', { class: 'warn' }, t('dialog.leave_loses')) : null],
    buttons: [
      { id: 'yes', label: t('web.yes'), action: () => app.send('LeaveRoom') },
      { id: 'no', label: t('web.no') },
    ],
  });
};

app.confirmResign = () =>
  showDialog({
    id: 'resign',
    title: t('dialog.resign_title'),
    body: t('dialog.resign'),
    buttons: [
      { id: 'yes', label: t('web.yes'), action: () => app.send('Resign') },
      { id: 'no', label: t('web.no') },
    ],
  });

function showOffer() {
  const room = app.room;
  const offer = room && S.offerToMe(room);
  if (!offer) return;
  const key = offer.kind === 'new_game' ? (room.game && room.game.over ? 'rematch' : 'newgame') : offer.kind;
  const title = { undo: 'dialog.undo_title', newgame: 'dialog.newgame_title', rematch: 'dialog.newgame_title', draw: 'dialog.draw_title' }[key];
  showDialog({
    id: 'offer',
    title: t(title),
    body: t(`offer.${key}`, { name: seatName(room, offer.by) }),
    buttons: [
      { id: 'yes', label: t('web.yes'), action: () => app.send({ Answer: { kind: offer.kind, accept: true } }) },
      { id: 'no', label: t('web.no'), action: () => app.send({ Answer: { kind: offer.kind, accept: false } }) },
      { id: 'later', label: t('web.later') },
    ],
  });
}
app.showOffer = showOffer;

function showGameOver() {
  const room = app.room;
  const over = room && room.game && room.game.over;
  if (!over) return;
  const buttons = [];
  if (S.mySeat(room)) buttons.push({ id: 'rematch', label: t('web.rematch'), action: () => app.send({ Offer: 'new_game' }) });
  buttons.push({ id: 'look', label: t('web.look') });
  buttons.push({ id: 'leave', label: t('keys.leave_short'), action: () => app.send('LeaveRoom') });
  showDialog({
    id: 'game-over',
    title: t('dialog.game_over_title'),
    body: [h('p', { class: 'headline' }, headline(room, over)), h('p', {}, `${reasonText(room, over)}.`), h('p', { class: 'series' }, seriesText(room))],
    buttons,
  });
}
app.showGameOver = showGameOver;

app.openCreate = (again = null, start = null) => {
  // The form outlives a trip to the position editor, so every other choice is kept.
  const form =
    again ||
    createForm(
      (settings) => {
        closeDialog();
        app.send({ CreateRoom: settings });
      },
      (text) => notice(text, 'error'),
      (startAt) => {
        closeDialog();
        app.editor = newEditor(startAt, app.send, (/** @type {import('./protocol').GameSettings | null} */ game) => {
          app.editor = null;
          app.screen = 'lobby';
          render();
          if (game) useArrangement(form, formFields(game));
          app.openCreate(/** @type {HTMLFormElement} */ (form));
        });
        app.screen = 'editor';
        render();
      },
      readStones,
      start,
    );
  showDialog({
    id: 'create',
    title: t('create.title'),
    body: form,
    buttons: [
      { id: 'create-submit', label: t('keys.create_room_short'), submit: form },
      { id: 'create-cancel', label: t('keys.cancel_short') },
    ],
  });
};

app.toLobby = () => toLobby();

function toLobby(ask = true) {
  stopAutoplay();
  app.screen = 'lobby';
  app.replay = null;
  if (ask) app.send('ListRooms');
  render();
}

app.replayStep = (n) => {
  app.step = n;
  render();
};

function stopAutoplay() {
  clearInterval(app.autoplay);
  app.autoplay = null;
}

app.replayAutoplay = () => {
  if (app.autoplay) return (stopAutoplay(), render());
  if (app.replay && app.step >= app.replay.moves.length) app.step = 0;
  app.autoplay = setInterval(() => {
    if (!app.replay || app.step >= app.replay.moves.length) return (stopAutoplay(), render());
    app.step += 1;
    render();
  }, 900);
  render();
};

// ---- dialogs ----------------------------------------------------------------------

/** @param {Dialog} d */
function showDialog(d) {
  app.dialog = d;
  const buttons = d.buttons.map((b) =>
    h(
      'button',
      {
        id: `dlg-${b.id}`,
        type: 'button',
        class: b.id === 'yes' || b.submit || b.id === 'rematch' ? 'primary' : '',
        onclick: () => {
          if (b.submit) return b.submit.requestSubmit();
          closeDialog();
          if (b.action) b.action();
        },
      },
      b.label,
    ),
  );
  fill(dialogEl, h('div', { class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'dlg-title', dataset: { dialog: d.id } }, h('h2', { id: 'dlg-title' }, d.title), h('div', { class: 'dialog-body' }, d.body), h('div', { class: 'dialog-buttons' }, buttons)));
  dialogEl.hidden = false;
}

function closeDialog() {
  app.dialog = null;
  dialogEl.hidden = true;
  dialogEl.replaceChildren();
}

function closeOfferDialog() {
  if (app.dialog && app.dialog.id === 'offer') closeDialog();
}

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && app.dialog) return closeDialog();
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = /** @type {Element | null} */ (e.target);
  const typing = target && target.closest && target.closest('input, textarea, select');
  // The editor's keys, unless a text field (the FEN) has them.
  if (app.screen === 'editor' && app.editor && !app.dialog && !typing && editorKey(app.editor, e)) {
    e.preventDefault();
    render();
    return;
  }
  // The room's draft keys, as the terminal client's: p in and out, u or Backspace takes
  // back a trial move, Esc leaves. Never while typing.
  if (app.screen !== 'room' || app.dialog || typing) return;
  if (e.key === 'p') app.toggleDraft();
  else if (app.draft && (e.key === 'u' || e.key === 'Backspace')) app.draftUndo();
  else if (app.draft && e.key === 'Escape') app.toggleDraft();
  else return;
  e.preventDefault();
});

// ---- views ------------------------------------------------------------------------

function renderHeader() {
  if (!app.me.name) return fill(headerInfo, '');
  fill(
    headerInfo,
    h('span', { id: 'who-name' }, t('title.who', { name: app.me.name, server: app.me.server })),
    ' ',
    h('span', { class: 'muted' }, app.me.account ? t('web.logged_in') : t('web.guest')),
    app.me.account ? h('button', { id: 'btn-profile', type: 'button', class: 'small', onclick: () => app.askProfile(app.me.name) }, t('web.my_info')) : null,
    app.me.account ? h('button', { id: 'btn-password', type: 'button', class: 'small', onclick: () => app.changePassword() }, t('web.change_password_short')) : null,
    h('button', { id: 'btn-logout', type: 'button', class: 'small', onclick: () => app.logOut() }, t('web.log_out')),
  );
}

function update() {
  if (app.screen === 'room' && app.view) app.view.update();
}

function render() {
  renderHeader();
  if (app.screen !== 'room') app.view = null;
  switch (app.screen) {
    case 'connect':
      return renderConnect();
    case 'lobby':
      return renderLobby(main, app);
    case 'room':
      if (!app.view) app.view = mountRoom(main, app);
      return app.view.update();
    case 'leaderboard':
      return renderLeaderboard(main, app, app.records);
    case 'history':
      return renderHistory(main, app, app.records);
    case 'replay':
      return renderReplay(main, app, app.replay, app.step);
    case 'profile':
      return renderProfile(main, app, app.records);
    case 'editor':
      return app.editor ? renderEditor(main, app.editor, render) : undefined;
    default:
      return undefined;
  }
}

function renderConnect() {
  const name = h('input', { id: 'name', type: 'text', maxlength: 24, autocomplete: 'username', value: app.prefs.name, required: true });
  const password = h('input', { id: 'password', type: 'password', maxlength: 128, autocomplete: app.register ? 'new-password' : 'current-password', 'aria-describedby': 'password-hint' });
  const register = h('input', { id: 'register', type: 'checkbox', checked: app.register });
  const hint = h('small', { id: 'password-hint', class: 'muted' });
  const sayHint = () => {
    hint.textContent = register.checked ? t('web.register_hint') : t('connect.password_hint');
    password.required = register.checked;
    password.autocomplete = register.checked ? 'new-password' : 'current-password';
  };
  register.addEventListener('change', () => {
    app.register = register.checked;
    sayHint();
  });
  sayHint();
  const error = h('p', { id: 'connect-error', class: 'error', role: 'alert' }, app.refusal || '');
  // A server started with --no-tls serves this page over plain http: a password typed
  // here would cross the network readable by anyone on it, so the form says so.
  const cleartext = location.protocol === 'http:' ? h('p', { id: 'cleartext-warning', class: 'warn', role: 'note' }, t('web.cleartext')) : null;
  // The host's QR code carries the key's fingerprint (#fp=, never sent to the server):
  // what the browser's certificate details must show.
  const fp = /(?:^#|&)fp=([0-9a-f]{64})(?:&|$)/i.exec(location.hash);
  const fingerprint = fp ? h('p', { id: 'fingerprint', class: 'muted' }, t('web.fingerprint', { fingerprint: fp[1].toLowerCase().match(/.{4}/g).join(' ') })) : null;
  const resume = loadResume();
  const coming_back = resume && resume.account && resume.name === app.prefs.name;
  fill(
    main,
    h(
      'form',
      {
        id: 'connect-form',
        class: 'connect',
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const who = name.value.trim();
          const fail = (/** @type {string} */ text) => {
            error.textContent = text;
            notice(text, 'error');
          };
          if (!who) return fail(t('connect.need_name'));
          const secret = password.value;
          if (register.checked && !secret) return fail(t('web.register_needs_password'));
          // Counted as the server counts: in characters, not UTF-16 units.
          const chars = [...secret].length;
          if (secret && register.checked && (chars < 8 || chars > 128)) return fail(t('server_error.bad_password'));
          error.textContent = '';
          app.refusal = null;
          app.prefs.name = who;
          savePrefs(app.prefs);
          conn.open(who, secret ? { password: secret, register: register.checked } : null);
        },
      },
      h('h1', {}, t('connect.title')),
      h('p', { class: 'muted' }, t('web.tagline')),
      coming_back ? h('p', { class: 'warn' }, t('web.log_in_again')) : null,
      h('label', { class: 'field wide', for: 'name' }, h('span', {}, t('connect.name')), name),
      h('label', { class: 'field wide', for: 'password' }, h('span', {}, t('connect.password')), password, hint),
      cleartext,
      fingerprint,
      h('label', { class: 'check', for: 'register' }, register, ' ', t('web.register')),
      error,
      h('button', { id: 'connect', type: 'submit', class: 'primary' }, t('keys.connect_short')),
    ),
  );
  if (coming_back || (app.prefs.name && !app.refusal)) password.focus();
  else name.focus();
  if (!app.prefs.name) name.focus();
}

// ---- the account: log out, change the password ---------------------------------------

app.logOut = () => {
  const room = app.room;
  const loses = room && S.mySeat(room) && S.playing(room);
  const out = () => {
    conn.close();
    app.me = { name: '', server: '', account: false };
    app.room = null;
    app.refusal = null;
    app.screen = 'connect';
    notice(t('web.logged_out'));
    render();
  };
  if (!loses) return out();
  showDialog({
    id: 'logout',
    title: t('web.log_out'),
    body: [t('web.log_out_sure'), h('p', { class: 'warn' }, t('dialog.leave_loses'))],
    buttons: [
      { id: 'yes', label: t('web.yes'), action: out },
      { id: 'no', label: t('web.no') },
    ],
  });
};

app.changePassword = () => {
  const field = (/** @type {string} */ id, /** @type {string} */ label, /** @type {string} */ auto) =>
    h('label', { class: 'field wide', for: id }, h('span', {}, label), h('input', { id, type: 'password', maxlength: 128, autocomplete: auto, required: true }));
  const form = h(
    'form',
    {
      id: 'password-form',
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const [old, fresh, again] = ['pw-old', 'pw-new', 'pw-again'].map((id) => /** @type {HTMLInputElement} */ (document.getElementById(id)).value);
        const chars = [...fresh].length;
        if (chars < 8 || chars > 128) return showDialogError(t('server_error.bad_password'));
        if (fresh !== again) return showDialogError(t('web.passwords_differ'));
        showDialogError('');
        app.send({ ChangePassword: { old, new: fresh } });
      },
    },
    field('pw-old', t('web.password_old'), 'current-password'),
    field('pw-new', t('web.password_new'), 'new-password'),
    field('pw-again', t('web.password_again'), 'new-password'),
    h('p', { id: 'dialog-error', class: 'error', role: 'alert' }),
  );
  showDialog({
    id: 'password',
    title: t('web.change_password'),
    body: form,
    buttons: [
      { id: 'password-submit', label: t('web.change_password_short'), submit: form },
      { id: 'password-cancel', label: t('keys.cancel_short') },
    ],
  });
  document.getElementById('pw-old').focus();
};

/** @param {string} text */
function showDialogError(text) {
  const el = document.getElementById('dialog-error');
  if (el) el.textContent = text;
  else if (text) notice(text, 'error');
}

function renderSettings() {
  const lang = h('select', { id: 's-lang', 'aria-label': t('settings.language') }, LANGUAGES.map(([c, name]) => h('option', { value: c, selected: c === app.prefs.lang }, name)));
  const theme = h(
    'select',
    { id: 's-theme', 'aria-label': t('settings.theme') },
    [['', t('web.theme_auto')], ['light', t('web.theme_light')], ['dark', t('web.theme_dark')]].map(([v, l]) => h('option', { value: v, selected: v === app.prefs.theme }, l)),
  );
  const snd = h('input', { id: 's-sound', type: 'checkbox', checked: app.prefs.sound });
  lang.addEventListener('change', async () => {
    app.prefs.lang = lang.value;
    savePrefs(app.prefs);
    await loadLanguage(lang.value);
    app.view = null;
    renderSettings();
    render();
  });
  theme.addEventListener('change', () => {
    app.prefs.theme = theme.value;
    savePrefs(app.prefs);
    setTheme();
  });
  snd.addEventListener('change', () => {
    app.prefs.sound = snd.checked;
    sound.setSound(snd.checked);
    savePrefs(app.prefs);
  });
  fill(document.getElementById('settings'), lang, theme, h('label', { class: 'check', for: 's-sound' }, snd, ' ', t('settings.bell')));
}

// ---- start ------------------------------------------------------------------------

async function start() {
  setTheme();
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', setTheme);
  if (!app.prefs.lang) app.prefs.lang = browserLanguage();
  await loadLanguage(app.prefs.lang);
  sound.setSound(app.prefs.sound);
  document.addEventListener('pointerdown', sound.unlock, { once: true });
  document.addEventListener('keydown', sound.unlock, { once: true });
  renderSettings();
  // A reload in the middle of a game comes straight back under the same name and seat.
  // An account's password is never stored, so its owner types it again (the seat
  // waits for them while the server holds it).
  const resume = loadResume();
  if (resume && resume.name) {
    app.prefs.name = resume.name;
    if (!resume.account) conn.open(resume.name);
  }
  render();
  setInterval(() => app.screen === 'room' && app.view && app.view.tick(), 200);
}

start();
