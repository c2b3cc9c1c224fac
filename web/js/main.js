// @ts-check
// The page's controller. What the page knows is kept by screen: the start page's
// (`connect`), the lobby's, the room's, the records' (leaderboard, history, profile,
// replay), the position editor's and the People screen's (challenges.js: the
// challenges, kept on every screen), each in its own state; `page` is what they all
// share (the settings, who we are, the way to the server, the status line). Server
// messages and clicks change a screen's state; views draw it (lobby.js, room.js,
// records.js, profile.js, editor.js), given their own state, `page` and the actions
// (`act`) they may ask for. One dialog at a time.

import { h, fill } from './dom.js';
import { t, loadLanguage, browserLanguage, LANGUAGES } from './i18n.js';
import { Connection, SILENCE_MS } from './net.js';
import { loadPrefs, savePrefs, loadResume, loadLogin, saveLogin } from './prefs.js';
import * as sound from './sound.js';
import * as S from './state.js';
import { caroMove, xiangqiMove } from './notation.js';
import { renderLobby } from './lobby.js';
import { createForm, useArrangement } from './create.js';
import { newEditor, judged, renderEditor, editorKey, formFields } from './editor.js';
import { mountRoom, headline, reasonText, seatName, seriesText, sideWord, chatVisible, matchLine, matchOverText, matchNextText, matchFormatText } from './room.js';
import { renderLeaderboard, renderHistory, renderReplay, replayRoom, offerDownload } from './records.js';
import { renderProfile } from './profile.js';
import { startDraft, askTrial, tried, draftCaro, draftXiangqi, draftUndo } from './draft.js';
import { pointName, ruleName, seatIndex, squareName } from './notation.js';
import * as C from './challenges.js';
import { swapKey, swapStartedText, swapDecidedText } from './swap.js';
import * as T from './tournaments.js';

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
 * A dialog as shown: its id, title, body and buttons; `about`: the challenge it asks
 * about, if any (it goes when the challenge ends).
 * @typedef {{
 *   id: string, title: string, body: import('./dom.js').Child, about?: number,
 *   buttons: {id: string, label: string, action?: () => void, submit?: HTMLFormElement}[],
 * }} Dialog
 */

/**
 * What every screen shares: the settings, who this page is on the server, the way to
 * it, and the status line (each notice belongs to the screen, and in a room to the
 * moment of the game, it was said on).
 * @typedef {{
 *   prefs: import('./prefs.js').Prefs,
 *   me: {name: string, server: string, account: boolean},
 *   send: (msg: ClientMsg) => boolean,
 *   notice: (text: string, kind?: 'info' | 'warn' | 'error') => void,
 * }} Page
 */

/**
 * The room screen's state, made anew for each room entered (so a zoom or a draft never
 * carries over to another room).
 * @typedef {{
 *   room: import('./state.js').Room,
 *   selected: import('./protocol').XqSquare | null,
 *   flip: boolean,
 *   zoom: number,
 *   draft: import('./draft.js').Draft | null,
 *   cursor: {at?: number},
 *   unread: number,
 *   moment: number,
 *   berserk: number | null,
 *   view: {update: () => void, tick: () => void} | null,
 * }} RoomScreen
 */

/**
 * A replay's state: the game, the move shown, autoplay, the file it came from, the
 * engine's review.
 * @typedef {{
 *   record: RecordedGame,
 *   step: number,
 *   autoplay: ReturnType<typeof setInterval> | null,
 *   file: string | null,
 *   flip: boolean,
 *   review: Review | null,
 * }} ReplayScreen
 */

/** @typedef {{asked?: boolean, progress?: {game: number, done: number, total: number}, done?: import('./protocol').GameReview}} Review */

/**
 * What the views may ask for (they change no state themselves).
 * @typedef {{
 *   toLobby: () => void,
 *   openCreate: (again?: HTMLFormElement | null, start?: import('./create.js').Start | null) => void,
 *   openRecordFile: (file: File | null) => Promise<void>,
 *   askLeaderboard: (game?: import('./protocol').GameKind) => void,
 *   askProfile: (name: string, bot?: import('./protocol').Level | null) => void,
 *   askHistory: (player: string | null) => void,
 *   place: (p: import('./protocol').Point) => void,
 *   tapSquare: (sq: import('./protocol').XqSquare) => void,
 *   toggleDraft: () => void,
 *   draftPlace: (p: import('./protocol').Point) => void,
 *   draftTap: (sq: import('./protocol').XqSquare) => void,
 *   draftUndo: () => void,
 *   saveRecord: (record: RecordedGame) => Promise<void>,
 *   saveRoomGame: () => void,
 *   playOn: (record: RecordedGame, step: number) => void,
 *   toggleWarn: () => void,
 *   toggleFlip: () => void,
 *   zoomBy: (d: number) => void,
 *   confirmLeave: () => void,
 *   confirmResign: () => void,
 *   confirmResignMatch: () => void,
 *   showOffer: () => void,
 *   showGameOver: () => void,
 *   readChat: () => void,
 *   replayStep: (n: number) => void,
 *   replayAutoplay: () => void,
 *   review: () => void,
 *   openPeople: () => void,
 *   challengeWho: (name: string, guest?: boolean) => void,
 *   acceptChallenge: (id: number) => void,
 *   cancelChallenge: (id: number) => void,
 *   challengeLink: (id: number) => string,
 *   openTournaments: () => void,
 *   canBerserk: () => boolean,
 *   berserk: () => void,
 * }} Actions
 */

/** @typedef {'connect' | 'taken' | 'lobby' | 'room' | 'leaderboard' | 'history' | 'profile' | 'replay' | 'editor' | 'people' | 'tournaments' | 'tournament' | 'tournament-print'} Screen */

/** The screen shown. @type {Screen} */
let screen = 'connect';

/** Each screen's own state. */
const screens = {
  /** The start page: the server's refusal, told under the form; the form's ticks. */
  connect: { refusal: /** @type {string | null} */ (null), register: false, stay: true },
  /** The window whose session another one took over: the server's sentence. */
  taken: { message: '' },
  /** The lobby: the rooms, kept current by the server, and the challenges (the open
   * ones are listed there). */
  lobby: { rooms: /** @type {import('./protocol').RoomSummary[]} */ ([]), challenges: C.noChallenges() },
  /** @type {RoomScreen | null} */
  room: null,
  /** The leaderboard: which game, and its standings. */
  leaderboard: { game: /** @type {import('./protocol').GameKind} */ ('caro'), standings: /** @type {import('./protocol').Standing[]} */ ([]) },
  /** The history: whose games (null: everyone's), and the games. */
  history: { player: /** @type {string | null} */ (null), games: /** @type {import('./protocol').GameSummary[]} */ ([]) },
  /** Someone's profile. @type {import('./protocol').Profile | null} */
  profile: null,
  /** @type {ReplayScreen | null} */
  replay: null,
  /** The position editor. @type {import('./editor.js').Editor | null} */
  editor: null,
  /** The tournaments: the list, the one open (tournaments.js). */
  tournaments: T.noTournaments(),
};

/** The dialog open, or null. @type {Dialog | null} */
let dialog = null;

/** The challenges in play: kept on every screen (the People screen draws them). */
const challenges = screens.lobby.challenges;

/**
 * The open challenge this page's address names (`#challenge=4`: the host's link or QR
 * code), to offer once connected; null when none, or once offered.
 */
let linked = C.linkedChallenge(location.hash);

const main = document.getElementById('main');
const noticeEl = document.getElementById('notice');
const dialogEl = document.getElementById('dialog');
const headerInfo = document.getElementById('who');

const conn = new Connection(VERSION, { onMessage, onStatus });

/**
 * Whose the notice shown is: the screen and, in a room, the game's moment it was said
 * at; `net` for the connection's, which stays until the connection's next word.
 */
let noticeOf = { screen: '', moment: 0, net: false };

/**
 * @param {string} text
 * @param {'info' | 'warn' | 'error'} [kind]
 * @param {boolean} [net]
 */
function notice(text, kind = 'info', net = false) {
  noticeEl.textContent = text;
  noticeEl.className = `notice ${kind}`;
  noticeOf = { screen, moment: screens.room ? screens.room.moment : 0, net };
}

function clearNotice() {
  noticeEl.textContent = '';
  noticeEl.className = 'notice';
}

/** @type {Page} */
const page = {
  prefs: loadPrefs(),
  me: { name: '', server: '', account: false },
  send: (msg) => {
    if (conn.send(msg)) return true;
    notice(t('net.offline'), 'warn', true);
    return false;
  },
  notice: (text, kind) => notice(text, kind),
};

/**
 * Shows screen `name`: what the status line said about another screen goes.
 * @param {Screen} name
 */
function show(name) {
  if (name !== screen && !noticeOf.net) clearNotice();
  if (name !== 'room' && screens.room) screens.room.view = null;
  const toastEl = document.getElementById('toast');
  if (name !== 'room' && toastEl) toastEl.hidden = true;
  screen = name;
  render();
}

function setTheme() {
  const dark = page.prefs.theme ? page.prefs.theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

// ---- server messages -------------------------------------------------------------

/**
 * Why the connection was lost, in words: the server's reason, or the heartbeat's silence.
 * @param {import('./net.js').Cause} cause
 */
function causeText(cause) {
  if (!cause) return '';
  if (cause.code === 'silent') return t('net.lost_silent', { secs: SILENCE_MS / 1000 });
  if (cause.code === 'shutting_down') return t('net.lost_shutting_down');
  return cause.message || t('net.lost_closed');
}

/**
 * @param {{name: string, server: string, account?: boolean}} w
 */
function welcomed(w) {
  page.me = { name: w.name, server: w.server, account: !!w.account };
}

/**
 * @param {string} kind
 * @param {any} [detail]
 */
function onStatus(kind, detail) {
  if (kind === 'connecting') notice(t('connect.connecting', { addr: location.host }), 'info', true);
  else if (kind === 'welcome') {
    welcomed(detail);
    screens.connect.refusal = null;
    connectedChallenges();
    toLobby(false);
    notice(t('event.welcome', { server: detail.server, name: detail.name }));
  } else if (kind === 'reconnecting') {
    forgetRecordAsks();
    const why = causeText(detail.cause);
    notice(why ? t('net.reconnecting_why', { reason: why, n: detail.attempt }) : t('net.reconnecting', { n: detail.attempt }), 'warn', true);
  } else if (kind === 'reconnected') {
    welcomed(detail);
    connectedChallenges();
    // The server puts a held seat back (a Joined follows); a spectator watches again.
    const rs = screens.room;
    const watching = rs && !S.mySeat(rs.room) ? rs.room.id : null;
    screens.room = null;
    // A tournament's screen stays, asked for again (a new connection follows nothing).
    if (!T.reconnected(screens.tournaments, tournamentHooks)) show('lobby');
    notice(t('net.reconnected'));
    if (watching !== null) page.send({ WatchRoom: watching });
  } else if (kind === 'closed') {
    forgetRecordAsks();
    // Refused at the door: the server's reason, under the form, is what to fix. A
    // saved login refused is forgotten: the form asks for the password.
    if (detail && detail.code === 'login_failed') saveLogin(null);
    screens.connect.refusal = detail ? errorText(detail) : null;
    page.me = { name: '', server: '', account: false };
    screens.room = null;
    closeDialog();
    show('connect');
    notice(screens.connect.refusal || t('net.closed'), 'error');
  } else if (kind === 'gave_up') {
    screens.room = null;
    show('connect');
    notice(t('net.gave_up', { reason: causeText(conn.lastClose) || t('net.closed') }), 'error');
  } else if (kind === 'taken') {
    forgetRecordAsks();
    screens.taken.message = errorText(detail);
    screens.room = null;
    closeDialog();
    clearNotice();
    show('taken');
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

/**
 * The state of a new room screen for `room`: a zoom is kept only on the way back into
 * the same room.
 * @param {import('./state.js').Room} room
 * @returns {RoomScreen}
 */
function roomScreen(room) {
  const before = screens.room;
  return {
    room,
    selected: null,
    flip: false,
    zoom: before && before.room.id === room.id ? before.zoom : 1,
    draft: null,
    cursor: {},
    unread: 0,
    moment: 0,
    berserk: null,
    view: null,
  };
}

/** @param {ServerMsg} msg */
function onMessage(msg) {
  const { kind, body } = tagged(msg);
  const now = performance.now();
  const change = C.applyChallenge(challenges, msg);
  if (change) return challengeChanged(change);
  if (T.onTournamentMsg(screens.tournaments, msg, tournamentHooks)) return undefined;
  switch (kind) {
    case 'Welcome':
      return; // handled by onStatus
    case 'Rooms':
      screens.lobby.rooms = body;
      if (screen === 'lobby') render();
      return;
    case 'RoomsChanged':
      screens.lobby.rooms = S.applyRoomChanges(screens.lobby.rooms || [], body.changed, body.closed);
      if (screen === 'lobby') render();
      return;
    case 'RoomCreated':
      return;
    case 'Joined': {
      const rs = roomScreen(S.roomFromView(body, now));
      screens.room = rs;
      closeDialog();
      if (screen === 'room') rs.view = null;
      show('room');
      askFacts();
      if (rs.room.game && rs.room.game.over) showGameOver();
      else if (S.offerToMe(rs.room)) showOffer();
      return;
    }
    case 'Left': {
      const left = screens.room && screens.room.room.id;
      screens.room = null;
      closeDialog();
      // Out of a tournament's game: back to its tournament, else the lobby.
      if (!T.leftRoom(screens.tournaments, left, tournamentHooks)) toLobby();
      return;
    }
    case 'Error':
      if (dialog && (dialog.id === 'password' || dialog.id === 'tournament-create')) return showDialogError(errorText(body));
      notice(errorText(body), 'error');
      return;
    case 'PasswordChanged':
      closeDialog();
      notice(t('event.password_changed'));
      return;
    case 'LoggedOut':
      if (loggingOut) loggingOut();
      return;
    case 'Judged':
      if (screens.editor && judged(screens.editor, body) && screen === 'editor') render();
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
    case 'Tried': {
      const rs = screens.room;
      if (rs && rs.draft) {
        const refused = tried(rs.room, rs.draft, body);
        if (refused) notice(refused, 'warn');
        if (refused !== null && screen === 'room') update();
      }
      return;
    }
    case 'Leaderboard':
      screens.leaderboard = { game: body.game, standings: body.standings };
      show('leaderboard');
      return;
    case 'Profile':
      screens.profile = body;
      show('profile');
      return;
    case 'History':
      screens.history.games = body;
      show('history');
      return;
    case 'Replay':
      stopAutoplay();
      screens.replay = { record: body, step: 0, autoplay: null, file: null, flip: false, review: null };
      show('replay');
      return;
    // The engine's review of the game in the replay: progress, then the review.
    case 'ReviewProgress': {
      const rp = screens.replay;
      if (rp && rp.record.summary.id === body.game) {
        rp.review = { progress: body };
        if (screen === 'replay') render();
      }
      return;
    }
    case 'Review': {
      const rp = screens.replay;
      if (rp && rp.record.summary.id === body.game) {
        rp.review = { done: body };
        if (screen === 'replay') render();
      }
      return;
    }
    default:
      break;
  }
  const rs = screens.room;
  if (!rs) return;
  const room = rs.room;
  const before = room.seats.map((s) => s && { ...s });
  if (!S.apply(room, msg, now)) return; // a message this page does not know: ignored
  const me = S.mySeat(room);
  // A new moment of the game: what the status line said about the last one goes.
  if (['GameStarted', 'Moved', 'Undone', 'GameOver', 'Swap'].includes(kind)) {
    rs.moment += 1;
    if (noticeOf.screen === 'room' && !noticeOf.net && noticeOf.moment < rs.moment) clearNotice();
  }
  // The real game moved on: the trial moves no longer stand on it.
  if (rs.draft && ['GameStarted', 'Moved', 'Undone', 'GameOver'].includes(kind)) {
    rs.draft = null;
    notice(t('draft.cleared'));
  }
  switch (kind) {
    case 'GameStarted':
      rs.selected = null;
      closeDialog();
      notice(swapStartedText(body, (seat) => seatName(room, seat)) || t('event.game_started', { number: body.number, x: seatName(room, body.first), o: seatName(room, body.first === 'one' ? 'two' : 'one'), first: seatName(room, body.first) }));
      askFacts();
      break;
    case 'Swap': {
      // The swap opening moved on: a sound when the turn in it passed to this page's
      // player, and a decision said in words (the banner says what comes next).
      const last = body.steps[body.steps.length - 1];
      const by = last && ('stone' in last ? last.stone.by : last.decided.by);
      if (me && body.to_act === me && by !== me) sound.play('move');
      const decided = swapDecidedText(body, (seat) => seatName(room, seat));
      if (decided) notice(decided);
      break;
    }
    case 'Moved':
      rs.selected = null;
      if (body.record.by !== me && me) sound.play('move');
      if (body.not_a_win) notice(movedText(room, body.record, body.not_a_win), 'warn');
      // Check, said in the status line as the terminal says it, not only ringed.
      else if (body.record.check && 'xiangqi' in body.record.mv && !(room.game && room.game.over)) {
        const moved = t('event.moved_piece', { name: seatName(room, body.record.by), stone: sideWord(room, body.record.by), point: body.record.wxf });
        notice(`${t('status.check')} ${moved}.`, 'warn');
      }
      askFacts();
      break;
    case 'Undone':
      rs.selected = null;
      closeOfferDialog();
      notice(body.plies === 1 ? t('event.undone_one') : t('event.undone_many', { plies: body.plies }));
      askFacts();
      break;
    case 'Offered': {
      const name = seatName(room, body.by);
      const key = body.kind === 'new_game' ? (room.game && room.game.over ? 'rematch' : 'newgame') : body.kind;
      if (S.offerToMe(room)) {
        notice(offerText(room, key, name));
        sound.play('offer');
        showOffer();
      } else if (body.by === me) {
        const other = seatName(room, body.by === 'one' ? 'two' : 'one');
        if (key === 'rematch' && room.match) notice(t(room.match.result ? 'web.mine_another_match' : 'web.mine_next_game', { name: other }));
        else notice(t(`offer.mine_${key}`, { name: other }));
      } else notice(offerText(room, key, name));
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
      rs.selected = null;
      sound.play('end');
      showGameOver();
      break;
    case 'Match':
      // A game of the match begins: its place in it; one ends without deciding it: the
      // result dialog, now with the score and the wait before the next.
      if (S.playing(room)) notice(body.game <= 1 ? t('match.began', { format: matchFormatText(body.format) }) : t('match.game', { game: body.game }));
      else if (dialog && dialog.id === 'game-over') showGameOver();
      break;
    case 'MatchOver':
      if (me) sound.play('end');
      notice(matchOverText(room, body));
      showMatchOver();
      break;
    case 'Hint':
      notice(t('event.hint', { point: hintText(room, body) }));
      break;
    case 'Chat':
      // Someone else's line while the chat is out of sight (below the board on a
      // phone): counted on the chat button, and shown for a moment.
      if (body.from !== page.me.name && screen === 'room' && !chatVisible()) {
        rs.unread += 1;
        toast(`${body.from}: ${body.text}`);
      }
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
  if (screen === 'room') update();
}

/**
 * An offer in words; after a game of a match a new game is its next game, or, once the
 * match is over, another match.
 * @param {import('./state.js').Room} room
 * @param {string} key
 * @param {string} name
 */
function offerText(room, key, name) {
  if (key === 'rematch' && room.match) return t(room.match.result ? 'web.offer_another_match' : 'web.offer_next_game', { name });
  return t(`offer.${key}`, { name });
}

/**
 * The event line of a caro move that made five and did not win: who played where, and
 * why the rule does not count it.
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').MoveRecord} record
 * @param {import('./protocol').NotAWin} why
 */
function movedText(room, record, why) {
  const game = room.settings.game;
  const point = 'caro' in record.mv && 'caro' in game ? pointName(record.mv.caro, game.caro.width, game.caro.height) : '';
  const moved = t('event.moved', { name: seatName(room, record.by), stone: sideWord(room, record.by), point });
  return t('event.moved_no_win', { moved, why: t(why === 'blocked_both_ends' ? 'event.not_a_win_blocked' : 'event.not_a_win_overline') });
}

/** A short note over the page (a chat line on a phone), gone after a few seconds. */
let toastTimer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
/** @param {string} text */
function toast(text) {
  let el = document.getElementById('toast');
  if (!el) {
    el = h('button', { id: 'toast', type: 'button', class: 'toast', onclick: () => act.readChat() });
    document.body.append(el);
  }
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    if (el) el.hidden = true;
  }, 5000);
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
  if (screens.room && screens.room.room.game) page.send('Facts');
}

// ---- what the views may ask for -----------------------------------------------------

/** @type {Actions} */
const act = {
  toLobby: () => toLobby(),

  openCreate: (again = null, start = null) => openCreate(again, start),

  openRecordFile: (file) => openRecordFile(file),

  askLeaderboard: (game = screens.leaderboard.game) => {
    screens.leaderboard.game = game;
    page.send({ Leaderboard: game });
  },

  /** Someone's record: a person by name, or the bot of a level. */
  askProfile: (name, bot = null) => page.send({ Profile: { name, bot } }),

  askHistory: (player) => {
    screens.history.player = player;
    page.send({ History: { player } });
  },

  place: (p) => {
    const rs = screens.room;
    if (!rs) return;
    const room = rs.room;
    if (!S.mySeat(room)) return notice(t('room.spectator_cannot_move'), 'warn');
    if (!room.game) return notice(t('room.no_game_yet'), 'warn');
    if (room.game.over) return notice(t('room.game_is_over'), 'warn');
    if (!S.myTurn(room)) return notice(t('room.not_your_turn'), 'warn');
    if (S.caroStones(room).has(`${p.x},${p.y}`)) return notice(t('room.occupied'), 'warn');
    page.send({ Move: caroMove(p) });
  },

  tapSquare: (sq) => {
    const rs = screens.room;
    if (!rs) return;
    const room = rs.room;
    const me = S.mySeat(room);
    const pieces = S.xiangqiPieces(room);
    const p = pieces[sq.rank][sq.file];
    const mine = p && me && (p === p.toUpperCase()) === (S.xiangqiColor(room, me) === 'red');
    if (!rs.selected) {
      if (!me) return notice(t('room.spectator_cannot_move'), 'warn');
      if (!mine) return;
      if (!S.playing(room)) return notice(room.game ? t('room.game_is_over') : t('room.no_game_yet'), 'warn');
      if (!S.myTurn(room)) return notice(t('room.not_your_turn'), 'warn');
      rs.selected = sq;
    } else if (mine) {
      // Another of one's own pieces: pick that one up instead (the same one: put it down).
      rs.selected = rs.selected.file === sq.file && rs.selected.rank === sq.rank ? null : sq;
    } else {
      // Any other square is sent: the server plays it or says why it cannot be played.
      page.send({ Move: xiangqiMove(rs.selected, sq) });
      rs.selected = null;
    }
    update();
  },

  toggleDraft: () => {
    const rs = screens.room;
    if (!rs) return;
    if (rs.draft) {
      rs.draft = null;
      notice(t('draft.off'));
    } else {
      if (!rs.room.game) return notice(t('room.no_game_yet'), 'warn');
      if (S.swapInProgress(rs.room)) return notice(t('swap.no_draft'), 'warn');
      rs.draft = startDraft(rs.room);
      rs.selected = null;
      notice(t('draft.on'));
      // The rules' facts on the draft board (the legal moves) before the first trial.
      page.send(askTrial(rs.draft));
    }
    update();
  },

  /** A trial move on the draft board: the server plays it on a copy and answers `Tried`. */
  draftPlace: (p) => {
    const rs = screens.room;
    if (rs && rs.draft) page.send(draftCaro(rs.draft, p));
  },

  draftTap: (sq) => {
    const rs = screens.room;
    if (!rs || !rs.draft) return;
    const ask = draftXiangqi(rs.room, rs.draft, sq);
    if (ask) page.send(ask);
    update();
  },

  draftUndo: () => {
    const rs = screens.room;
    if (!rs || !rs.draft) return;
    const next = draftUndo(rs.draft);
    if (typeof next === 'string') notice(t(next), 'warn');
    else page.send(next);
    update();
  },

  saveRecord: (record) => saveRecord(record),

  saveRoomGame: () => {
    const rs = screens.room;
    if (rs && rs.room.game) saveRecord(roomRecord(rs.room));
  },

  playOn: (record, step) => playOn(record, step),

  toggleWarn: () => {
    page.prefs.warn = !page.prefs.warn;
    savePrefs(page.prefs);
    notice(page.prefs.warn ? t('room.threats_on') : t('room.threats_off'));
    update();
  },

  toggleFlip: () => {
    if (screen === 'replay' && screens.replay) screens.replay.flip = !screens.replay.flip;
    else if (screens.room) screens.room.flip = !screens.room.flip;
    render();
  },

  zoomBy: (d) => {
    const rs = screens.room;
    if (!rs) return;
    rs.zoom = Math.max(0.6, Math.min(2.5, rs.zoom * (d > 0 ? 1.25 : 0.8)));
    update();
  },

  confirmLeave: () => {
    const room = screens.room && screens.room.room;
    const loses = room && S.mySeat(room) && S.playing(room);
    const aborts = loses && S.givingUpAborts(room);
    showDialog({
      id: 'leave',
      title: t(aborts ? 'dialog.leave_aborts_title' : 'dialog.leave_title'),
      body: [
        aborts ? t('dialog.leave_aborts') : [t('dialog.leave'), loses ? h('p', { class: 'warn' }, t('dialog.leave_loses')) : null],
        // A player who leaves mid-match loses the whole match.
        room && S.mySeat(room) && S.inMatch(room) ? h('p', { class: 'warn' }, t('web.leave_loses_match')) : null,
      ],
      buttons: [
        { id: 'yes', label: t('web.yes'), action: () => page.send('LeaveRoom') },
        { id: 'no', label: t('web.no') },
      ],
    });
  },

  confirmResign: () => {
    const room = screens.room && screens.room.room;
    // Before both players have moved, giving up aborts the game: nobody wins.
    const aborts = !!room && S.givingUpAborts(room);
    showDialog({
      id: 'resign',
      title: t(aborts ? 'dialog.resign_aborts_title' : 'dialog.resign_title'),
      body: t(aborts ? 'dialog.resign_aborts' : 'dialog.resign'),
      buttons: [
        { id: 'yes', label: t('web.yes'), action: () => page.send('Resign') },
        { id: 'no', label: t('web.no') },
      ],
    });
  },

  confirmResignMatch: () => {
    showDialog({
      id: 'resign-match',
      title: t('dialog.resign_match_title'),
      body: t('dialog.resign_match'),
      buttons: [
        { id: 'yes', label: t('web.yes'), action: () => page.send('ResignMatch') },
        { id: 'no', label: t('web.no') },
      ],
    });
  },

  showOffer: () => showOffer(),

  openPeople: () => {
    page.send('Players');
    show('people');
  },

  challengeWho: (name, guest = false) => openChallengeForm(name, guest),

  acceptChallenge: (id) => page.send({ AcceptChallenge: id }),

  cancelChallenge: (id) => page.send({ CancelChallenge: id }),

  challengeLink: (id) => C.challengeLink(location.origin, location.hash, id),

  openTournaments: () => T.openList(screens.tournaments, tournamentHooks),

  /** Whether the room shown is this page's game of an arena that allows berserk (which
   * this game has not used yet). */
  canBerserk: () => !!screens.room && T.berserkAllowed(screens.tournaments, screens.room.room.id),

  berserk: () => {
    const rs = screens.room;
    if (rs && rs.room.game && page.send('Berserk')) rs.berserk = rs.room.game.number;
    render();
  },

  showGameOver: () => showGameOver(),

  readChat: () => {
    const rs = screens.room;
    if (rs) rs.unread = 0;
    const toastEl = document.getElementById('toast');
    if (toastEl) toastEl.hidden = true;
    const chat = document.getElementById('chat-input');
    if (chat) {
      chat.scrollIntoView({ block: 'center' });
      chat.focus({ preventScroll: true });
    }
    update();
  },

  replayStep: (n) => {
    if (!screens.replay) return;
    screens.replay.step = n;
    render();
  },

  replayAutoplay: () => {
    const rp = screens.replay;
    if (!rp) return;
    if (rp.autoplay) return (stopAutoplay(), render());
    if (rp.step >= rp.record.moves.length) rp.step = 0;
    rp.autoplay = setInterval(() => {
      if (!screens.replay || screens.replay.step >= screens.replay.record.moves.length) return (stopAutoplay(), render());
      screens.replay.step += 1;
      render();
    }, 900);
    render();
  },

  review: () => {
    const rp = screens.replay;
    if (!rp || !rp.record.summary.id) return;
    if (page.send({ Review: rp.record.summary.id })) {
      rp.review = { asked: true };
      render();
    }
  },
};

// ---- draft moves and the keyboard --------------------------------------------------

document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && dialog) return closeDialog();
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = /** @type {Element | null} */ (e.target);
  const typing = target && target.closest && target.closest('input, textarea, select');
  // The editor's keys, unless a text field (the FEN) has them.
  if (screen === 'editor' && screens.editor && !dialog && !typing && editorKey(screens.editor, e)) {
    e.preventDefault();
    render();
    return;
  }
  // The room's draft keys, as the terminal client's: p in and out, u or Backspace takes
  // back a trial move, Esc leaves. Never while typing.
  const rs = screens.room;
  if (screen !== 'room' || !rs || dialog || typing) return;
  if (e.key === 'p') act.toggleDraft();
  else if (rs.draft && (e.key === 'u' || e.key === 'Backspace')) act.draftUndo();
  else if (rs.draft && e.key === 'Escape') act.toggleDraft();
  // A swap opening's decision, when it is this page's player's: w, b or t.
  else if (rs.draft || !swapKey(rs.room, e.key, page.send)) return;
  e.preventDefault();
});

// The chat comes into sight (scrolled to on a phone): its lines are read.
window.addEventListener(
  'scroll',
  () => {
    const rs = screens.room;
    if (screen === 'room' && rs && rs.unread && chatVisible()) {
      rs.unread = 0;
      update();
    }
  },
  { passive: true },
);

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
    if (!page.send(msg)) return resolve(null);
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
async function saveRecord(record) {
  /** @type {ClientMsg} */
  const ask = { WriteRecord: { record, zone_minutes: zoneMinutes() } };
  if (new TextEncoder().encode(JSON.stringify(ask)).length > RECORD_LIMIT) {
    return notice(t('web.record_not_saved', { why: t('web.record_too_long') }), 'error');
  }
  const answer = await askRecord(ask);
  if (!answer || typeof answer === 'string') return;
  if ('RecordRefused' in answer) return notice(t('web.record_not_saved', { why: answer.RecordRefused.message }), 'error');
  if (!('RecordText' in answer)) return;
  const file = screen === 'replay' && screens.replay ? screens.replay.file : null;
  const name = file && !record.summary.id ? file : answer.RecordText.name;
  offerDownload(name, answer.RecordText.text);
  notice(t('web.saved', { name }));
}

/**
 * Reads a record file the person picked, into a replay: the server reads it with the
 * rules crate's one parser.
 * @param {File | null} file
 */
async function openRecordFile(file) {
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
  screens.replay = { record, step: 0, autoplay: null, file: file.name, flip: false, review: null };
  show('replay');
  notice(t('web.record_opened', { name: file.name, count: record.moves.length }));
}

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

/**
 * A typed FEN, read by the server with the rules (as the `start:` line of a record): the
 * position's FEN as the rules write it, or an Error saying what is wrong with it.
 * @type {import('./editor.js').ReadFen}
 */
async function readFen(text) {
  const answer = await askRecord({ ParseRecord: { text: `game: xiangqi\nstart: ${text.replace(/[\r\n]+/g, ' ')}\n`, zone_minutes: 0 } });
  if (!answer || typeof answer === 'string') return new Error(t('net.offline'));
  if ('RecordRefused' in answer) return new Error(answer.RecordRefused.message);
  if ('RecordParsed' in answer) return answer.RecordParsed.start_fen || S.XQ_START;
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
function playOn(record, step) {
  const game = record.summary.game;
  if ('caro' in game) {
    const c = game.caro;
    const stones = [...record.opening, ...record.moves.slice(0, step).flatMap((m) => ('caro' in m.mv ? [m.mv.caro] : []))];
    toLobby();
    openCreate(null, { game: 'caro', width: c.width, height: c.height, rule: c.rule, stones: stones.map((p) => pointName(p, c.width, c.height)).join(' ') });
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
  page.send({ Judge: arrangement });
}

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
  openCreate(null, { game: 'xiangqi', fen: game.xiangqi.fen || S.XQ_START });
}

// ---- challenges ---------------------------------------------------------------------

/** What the People screen may ask for. @type {import('./challenges.js').PeopleActions} */
const peopleActs = {
  toLobby: () => toLobby(),
  refresh: () => page.send('Players'),
  challenge: (to, guest) => openChallengeForm(to, guest),
  answer: (c) => showDecline(c),
  accept: (id) => act.acceptChallenge(id),
  cancel: (id) => act.cancelChallenge(id),
  setPolicy: (policy) => {
    page.prefs.challenges = policy;
    savePrefs(page.prefs);
    page.send({ SetChallenges: policy });
  },
  link: (id) => act.challengeLink(id),
};

/** A connection is up: its challenges start afresh; who may challenge us is said again,
 * and an open challenge the page's address names is looked for. */
function connectedChallenges() {
  Object.assign(challenges, C.noChallenges(page.prefs.challenges));
  if (page.prefs.challenges !== 'everyone') page.send({ SetChallenges: page.prefs.challenges });
  if (linked === null) return;
  // The server lists the open challenges right after its welcome when there are some.
  const id = linked;
  setTimeout(() => {
    if (linked !== id) return;
    linked = null;
    forgetLink();
    notice(t('web.challenge_link_gone', { id }), 'warn');
  }, 3000);
}

/** The address no longer names the challenge (a reload does not offer it again). */
function forgetLink() {
  const hash = location.hash.replace(/(^#|&)challenge=\d+/, '$1').replace(/^#&/, '#');
  history.replaceState(null, '', hash === '#' ? location.pathname : `${location.pathname}${hash}`);
}

/**
 * A challenge message came: tell it, open its dialog, redraw what shows challenges.
 * @param {import('./challenges.js').Change} change
 */
function challengeChanged(change) {
  const me = page.me.name;
  switch (change.kind) {
    case 'incoming': {
      const c = change.challenge;
      sound.play('offer');
      notice(C.incomingText(c, me));
      // Shown at once, over a result or an offer; another form or question stays and
      // the header's button answers it.
      // Never over a game the page is playing (the header's button waits).
      const rs = screens.room;
      const busy = screen === 'room' && rs && S.mySeat(rs.room) && S.playing(rs.room);
      if (!busy && (!dialog || ['game-over', 'match-over', 'offer', 'challenge'].includes(dialog.id))) showChallenge(c);
      break;
    }
    case 'sent': {
      const c = change.challenge;
      notice(c.to ? C.sentText(c) : `${C.sentText(c)} ${t('challenge.open_link', { id: c.id, url: act.challengeLink(c.id) })}`);
      break;
    }
    case 'ended': {
      if (dialog && dialog.about === change.id) closeDialog();
      const { text, warn } = C.endedText(change.id, change.end, change.was, me);
      notice(text, warn ? 'warn' : 'info');
      // A declined or expired challenge is worth a sound for its sender.
      if (warn) sound.play('offer');
      break;
    }
    case 'open':
      if (linked !== null) {
        const c = challenges.open.find((x) => x.id === linked);
        if (c) {
          linked = null;
          forgetLink();
          if (c.from !== me) showChallenge(c);
        }
      }
      break;
    case 'policy':
      notice(t('challenge.policy_set', { policy: C.policyText(change.policy) }));
      break;
    default:
      break;
  }
  renderHeader();
  if (screen === 'people' || screen === 'lobby') render();
}

/**
 * A challenge to answer: sent to us (accept, decline with a reason, later), or an open
 * one (take it, or not).
 * @param {import('./protocol').Challenge} c
 */
function showChallenge(c) {
  const me = page.me.name;
  const mine = c.to === me;
  showDialog({
    id: 'challenge',
    about: c.id,
    title: mine ? t('challenge.answer_title') : t('web.take_challenge_title', { id: c.id }),
    body: [
      h('p', { class: 'headline' }, mine ? C.incomingText(c, me) : `${C.tagged(c.from, c.from_bot)}: ${C.terms(c)}; ${C.firstText(c, me)}.`),
      c.settings.match_format ? h('p', { class: 'muted' }, t('web.challenge_is_match')) : null,
    ],
    buttons: [
      { id: 'yes', label: t('keys.accept_challenge_short'), action: () => act.acceptChallenge(c.id) },
      ...(mine ? [{ id: 'decline', label: t('keys.decline_challenge_short'), action: () => showDecline(c) }] : []),
      { id: 'later', label: t('web.later') },
    ],
  });
}

/**
 * Decline a challenge, saying why: the reasons as buttons.
 * @param {import('./protocol').Challenge} c
 */
function showDecline(c) {
  showDialog({
    id: 'decline',
    about: c.id,
    title: t('challenge.decline_title'),
    body: h('p', {}, C.incomingText(c, page.me.name)),
    buttons: [
      ...C.REASONS.map((reason) => ({ id: `reason-${reason}`, label: C.reasonText(reason), action: () => page.send({ DeclineChallenge: { id: c.id, reason } }) })),
      { id: 'back', label: t('keys.cancel_short'), action: () => showChallenge(c) },
    ],
  });
}

/**
 * The challenge form: the create form's settings (no bots, no arranged position), for
 * `to` (a name; the server's bot as `Bot (max)`), or an open challenge when null.
 * `guest`: the one challenged plays as a guest, so the game is casual.
 * @param {string | null} to
 * @param {boolean} guest
 */
function openChallengeForm(to, guest) {
  if (to !== null && to === page.me.name) return notice(t('server_error.challenge_refused'), 'warn');
  const form = createForm(
    (settings) => {
      closeDialog();
      page.send({ Challenge: { to, settings } });
    },
    (text) => notice(text, 'error'),
    () => {},
    readStones,
    null,
    { guest: guest || !page.me.account },
  );
  form.id = 'challenge-form';
  showDialog({
    id: 'challenge-form',
    title: to === null ? t('challenge.title_open') : t('challenge.title', { name: to }),
    body: form,
    buttons: [
      { id: 'challenge-submit', label: t('keys.send_challenge_short'), submit: form },
      { id: 'challenge-cancel', label: t('keys.cancel_short') },
    ],
  });
}

// ---- dialogs ----------------------------------------------------------------------

function showOffer() {
  const room = screens.room && screens.room.room;
  const offer = room && S.offerToMe(room);
  if (!offer) return;
  const key = offer.kind === 'new_game' ? (room.game && room.game.over ? 'rematch' : 'newgame') : offer.kind;
  const title = { undo: 'dialog.undo_title', newgame: 'dialog.newgame_title', rematch: 'dialog.newgame_title', draw: 'dialog.draw_title' }[key];
  showDialog({
    id: 'offer',
    title: t(title),
    body: offerText(room, key, seatName(room, offer.by)),
    buttons: [
      { id: 'yes', label: t('web.yes'), action: () => page.send({ Answer: { kind: offer.kind, accept: true } }) },
      { id: 'no', label: t('web.no'), action: () => page.send({ Answer: { kind: offer.kind, accept: false } }) },
      { id: 'later', label: t('web.later') },
    ],
  });
}

function showGameOver() {
  const room = screens.room && screens.room.room;
  const over = room && room.game && room.game.over;
  if (!over) return;
  // A match that this game decided has its own dialog.
  if (room.match && room.match.result) return showMatchOver();
  const inMatch = S.inMatch(room);
  const buttons = [];
  if (S.mySeat(room)) buttons.push({ id: 'rematch', label: inMatch ? t('web.match_ready') : t('web.rematch'), action: () => page.send({ Offer: 'new_game' }) });
  buttons.push({ id: 'look', label: t('web.look') });
  buttons.push({ id: 'leave', label: t('keys.leave_short'), action: () => page.send('LeaveRoom') });
  const reason = reasonText(room, over);
  const next = matchNextText(room, performance.now());
  showDialog({
    id: 'game-over',
    title: t('dialog.game_over_title'),
    body: [
      h('p', { class: 'headline' }, headline(room, over)),
      reason ? h('p', {}, `${reason}.`) : null,
      h('p', { class: 'series' }, matchLine(room) || seriesText(room)),
      next ? h('p', { id: 'dlg-match-next', class: 'muted' }, next) : null,
    ],
    buttons,
  });
}

/** The match's result: who won it, the score, why; another match or leave. */
function showMatchOver() {
  const room = screens.room && screens.room.room;
  const result = room && room.match && room.match.result;
  if (!result) return;
  const over = room.game && room.game.over;
  const buttons = [];
  if (S.mySeat(room)) buttons.push({ id: 'rematch', label: t('web.match_another'), action: () => page.send({ Offer: 'new_game' }) });
  buttons.push({ id: 'look', label: t('web.look') });
  buttons.push({ id: 'leave', label: t('keys.leave_short'), action: () => page.send('LeaveRoom') });
  const reason = over ? reasonText(room, over) : '';
  showDialog({
    id: 'match-over',
    title: t('web.match_over_title'),
    body: [
      h('p', { class: 'headline' }, matchOverText(room, result)),
      over ? h('p', { class: 'muted' }, t('web.match_last_game', { result: reason ? `${headline(room, over)} ${reason}.` : headline(room, over) })) : null,
      h('p', { class: 'series' }, matchLine(room)),
    ],
    buttons,
  });
}

/**
 * The create form as a dialog (`again`: the form kept across a trip to the editor).
 * @param {HTMLFormElement | null} again
 * @param {import('./create.js').Start | null} start
 */
function openCreate(again = null, start = null) {
  // The form outlives a trip to the position editor, so every other choice is kept.
  const form =
    again ||
    createForm(
      (settings) => {
        closeDialog();
        page.send({ CreateRoom: settings });
      },
      (text) => notice(text, 'error'),
      (startAt) => {
        closeDialog();
        screens.editor = newEditor(startAt, page.send, readFen, (/** @type {import('./protocol').GameSettings | null} */ game) => {
          screens.editor = null;
          show('lobby');
          if (game) useArrangement(form, formFields(game));
          openCreate(/** @type {HTMLFormElement} */ (form));
        });
        show('editor');
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
}

function toLobby(ask = true) {
  stopAutoplay();
  screens.replay = null;
  show('lobby');
  if (ask) page.send('ListRooms');
}

function stopAutoplay() {
  const rp = screens.replay;
  if (rp && rp.autoplay) {
    clearInterval(rp.autoplay);
    rp.autoplay = null;
  }
}

/** @param {Dialog} d */
function showDialog(d) {
  dialog = d;
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
  dialog = null;
  dialogEl.hidden = true;
  dialogEl.replaceChildren();
}

function closeOfferDialog() {
  if (dialog && dialog.id === 'offer') closeDialog();
}

// ---- views ------------------------------------------------------------------------

function renderHeader() {
  const me = page.me;
  if (!me.name) return fill(headerInfo, '');
  fill(
    headerInfo,
    h('span', { id: 'who-name' }, t('title.who', { name: me.name, server: me.server })),
    ' ',
    h('span', { class: 'muted' }, me.account ? t('web.logged_in') : t('web.guest')),
    me.account ? h('button', { id: 'btn-profile', type: 'button', class: 'small', onclick: () => act.askProfile(me.name) }, t('web.my_info')) : null,
    me.account ? h('button', { id: 'btn-password', type: 'button', class: 'small', onclick: () => changePassword() }, t('web.change_password_short')) : null,
    h('button', { id: 'btn-logout', type: 'button', class: 'small', onclick: () => logOut() }, t('web.log_out')),
    // Challenges waiting for an answer, on any screen: the oldest opens.
    challenges.incoming.length
      ? h('button', { id: 'btn-challenges', type: 'button', class: 'small primary', onclick: () => showChallenge(challenges.incoming[0]) }, t('web.challenges_waiting', { n: challenges.incoming.length }))
      : null,
  );
}

function update() {
  const rs = screens.room;
  if (screen === 'room' && rs && rs.view) rs.view.update();
}

function render() {
  renderHeader();
  switch (screen) {
    case 'connect':
      return renderConnect();
    case 'taken':
      return renderTaken();
    case 'lobby':
      return renderLobby(main, screens.lobby, page, act);
    case 'room': {
      const rs = screens.room;
      if (!rs) return undefined;
      if (!rs.view) rs.view = mountRoom(main, rs, page, act);
      return rs.view.update();
    }
    case 'leaderboard':
      return renderLeaderboard(main, screens.leaderboard, page, act);
    case 'history':
      return renderHistory(main, screens.history, page, act);
    case 'replay':
      return screens.replay ? renderReplay(main, screens.replay, page, act) : undefined;
    case 'profile':
      return screens.profile ? renderProfile(main, screens.profile, page, act) : undefined;
    case 'editor':
      return screens.editor ? renderEditor(main, screens.editor, render) : undefined;
    case 'people':
      return C.renderPeople(main, challenges, page, peopleActs);
    case 'tournaments':
    case 'tournament':
    case 'tournament-print':
      return T.render(main, screen, screens.tournaments, tournamentHooks);
    default:
      return undefined;
  }
}

function renderConnect() {
  const state = screens.connect;
  const name = h('input', { id: 'name', type: 'text', maxlength: 24, autocomplete: 'username', value: page.prefs.name, required: true });
  const password = h('input', { id: 'password', type: 'password', maxlength: 128, autocomplete: state.register ? 'new-password' : 'current-password', 'aria-describedby': 'password-hint' });
  const register = h('input', { id: 'register', type: 'checkbox', checked: state.register });
  const stay = h('input', { id: 'stay', type: 'checkbox', checked: state.stay });
  const hint = h('small', { id: 'password-hint', class: 'muted' });
  const sayHint = () => {
    hint.textContent = register.checked ? t('web.register_hint') : t('connect.password_hint');
    password.required = register.checked;
    password.autocomplete = register.checked ? 'new-password' : 'current-password';
  };
  register.addEventListener('change', () => {
    state.register = register.checked;
    sayHint();
  });
  stay.addEventListener('change', () => {
    state.stay = stay.checked;
  });
  sayHint();
  const error = h('p', { id: 'connect-error', class: 'error', role: 'alert' }, state.refusal || '');
  // A server started with --no-tls serves this page over plain http: a password typed
  // here would cross the network readable by anyone on it, so the form says so.
  const cleartext = location.protocol === 'http:' ? h('p', { id: 'cleartext-warning', class: 'warn', role: 'note' }, t('web.cleartext')) : null;
  // The host's QR code carries the key's fingerprint (#fp=, never sent to the server):
  // what the browser's certificate details must show.
  const fp = /(?:^#|&)fp=([0-9a-f]{64})(?:&|$)/i.exec(location.hash);
  const fingerprint = fp ? h('p', { id: 'fingerprint', class: 'muted' }, t('web.fingerprint', { fingerprint: fp[1].toLowerCase().match(/.{4}/g).join(' ') })) : null;
  const resume = loadResume();
  const comingBack = resume && resume.account && resume.name === page.prefs.name;
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
          state.refusal = null;
          page.prefs.name = who;
          savePrefs(page.prefs);
          conn.open(who, secret ? { password: { password: secret, register: register.checked, remember: stay.checked } } : null);
        },
      },
      h('h1', {}, t('connect.title')),
      h('p', { class: 'muted' }, t('web.tagline')),
      comingBack ? h('p', { class: 'warn' }, t('web.log_in_again')) : null,
      linked !== null ? h('p', { id: 'link-challenge', class: 'info' }, t('web.link_challenge', { id: linked })) : null,
      h('label', { class: 'field wide', for: 'name' }, h('span', {}, t('connect.name')), name),
      h('label', { class: 'field wide', for: 'password' }, h('span', {}, t('connect.password')), password, hint),
      cleartext,
      fingerprint,
      h('label', { class: 'check', for: 'register' }, register, ' ', t('web.register')),
      h('label', { class: 'check', for: 'stay' }, stay, ' ', t('web.stay_logged_in')),
      error,
      h('button', { id: 'connect', type: 'submit', class: 'primary' }, t('keys.connect_short')),
    ),
  );
  if (comingBack || (page.prefs.name && !state.refusal)) password.focus();
  else name.focus();
  if (!page.prefs.name) name.focus();
}

/** This window's session went to another window: what happened, and the way back. */
function renderTaken() {
  fill(
    main,
    h(
      'section',
      { id: 'taken', class: 'connect' },
      h('h1', {}, t('web.taken_title')),
      h('p', {}, screens.taken.message),
      h('p', { class: 'muted' }, t('web.taken_how')),
      h('button', { id: 'btn-take-back', type: 'button', class: 'primary', onclick: () => conn.open(conn.name, conn.account) }, t('web.take_back')),
    ),
  );
}

// ---- the account: log out, change the password ---------------------------------------

/** Called when the server confirms a log out (the account token is revoked). */
let loggingOut = /** @type {(() => void) | null} */ (null);

function logOut() {
  const room = screens.room && screens.room.room;
  const loses = room && S.mySeat(room) && S.playing(room);
  const out = () => {
    const done = () => {
      if (!loggingOut) return;
      loggingOut = null;
      conn.close();
      page.me = { name: '', server: '', account: false };
      screens.room = null;
      screens.connect.refusal = null;
      show('connect');
      notice(t('web.logged_out'));
    };
    loggingOut = done;
    if (loses) page.send('LeaveRoom');
    // The server revokes the login's token, then says so; offline, the page forgets it
    // all the same.
    if (!page.send('LogOut')) return done();
    setTimeout(done, 3000);
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
}

function changePassword() {
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
        page.send({ ChangePassword: { old, new: fresh } });
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
      { id: 'password-submit', label: t('web.change_password_submit'), submit: form },
      { id: 'password-cancel', label: t('keys.cancel_short') },
    ],
  });
  document.getElementById('pw-old').focus();
}

/** @param {string} text */
function showDialogError(text) {
  const el = document.getElementById('dialog-error');
  if (el) el.textContent = text;
  else if (text) notice(text, 'error');
}

function renderSettings() {
  const prefs = page.prefs;
  const lang = h('select', { id: 's-lang', 'aria-label': t('settings.language') }, LANGUAGES.map(([c, name]) => h('option', { value: c, selected: c === prefs.lang }, name)));
  const theme = h(
    'select',
    { id: 's-theme', 'aria-label': t('settings.theme') },
    [['', t('web.theme_auto')], ['light', t('web.theme_light')], ['dark', t('web.theme_dark')]].map(([v, l]) => h('option', { value: v, selected: v === prefs.theme }, l)),
  );
  const snd = h('input', { id: 's-sound', type: 'checkbox', checked: prefs.sound });
  lang.addEventListener('change', async () => {
    prefs.lang = lang.value;
    savePrefs(prefs);
    await loadLanguage(lang.value);
    if (screens.room) screens.room.view = null;
    renderSettings();
    render();
  });
  theme.addEventListener('change', () => {
    prefs.theme = theme.value;
    savePrefs(prefs);
    setTheme();
  });
  snd.addEventListener('change', () => {
    prefs.sound = snd.checked;
    sound.setSound(snd.checked);
    savePrefs(prefs);
  });
  fill(document.getElementById('settings'), lang, theme, h('label', { class: 'check', for: 's-sound' }, snd, ' ', t('settings.bell')));
}

// ---- tournaments (tournaments.js draws them; these are its hooks) -------------------

/** @type {import('./tournaments.js').Hooks} */
const tournamentHooks = {
  page,
  screen: () => screen,
  show: (name) => (name === 'lobby' ? toLobby() : show(name)),
  render: () => render(),
  showDialog: (d) => showDialog(d),
  closeDialog: () => closeDialog(),
  readStones: (width, height, rule, text) => readStones(width, height, rule, text),
  bell: (kind) => sound.play(kind),
};
setInterval(() => T.tick(screens.tournaments, tournamentHooks), 1000);

// ---- start ------------------------------------------------------------------------

async function start() {
  setTheme();
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', setTheme);
  if (!page.prefs.lang) page.prefs.lang = browserLanguage();
  await loadLanguage(page.prefs.lang);
  sound.setSound(page.prefs.sound);
  document.addEventListener('pointerdown', sound.unlock, { once: true });
  document.addEventListener('keydown', sound.unlock, { once: true });
  renderSettings();
  // A reload, a new window or a browser restart comes straight back under the same
  // name and seat: an account with the token its login was handed (never the
  // password), a guest with its resume token.
  const login = loadLogin();
  const resume = loadResume();
  if (login) {
    page.prefs.name = login.name;
    conn.open(login.name, { token: login.token });
  } else if (resume && resume.name) {
    page.prefs.name = resume.name;
    if (!resume.account) conn.open(resume.name);
  }
  render();
  setInterval(() => {
    const rs = screens.room;
    if (screen !== 'room' || !rs || !rs.view) return;
    rs.view.tick();
    // The result dialog of a match's game counts down to the next.
    const next = document.getElementById('dlg-match-next');
    if (next) next.textContent = matchNextText(rs.room, performance.now()) || '';
  }, 200);
}

start();
