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
import { renderLeaderboard, renderHistory, renderReplay } from './records.js';

const VERSION = Number(document.querySelector('meta[name="banco-protocol"]').content);

const app = {
  prefs: loadPrefs(),
  screen: 'connect',
  me: { name: '', server: '' },
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
  editor: null,
};

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

function notice(text, kind = 'info') {
  noticeEl.textContent = text;
  noticeEl.className = `notice ${kind}`;
}

function setTheme() {
  const dark = app.prefs.theme ? app.prefs.theme === 'dark' : window.matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

// ---- server messages -------------------------------------------------------------

function onStatus(kind, detail) {
  if (kind === 'connecting') notice(t('connect.connecting', { addr: location.host }));
  else if (kind === 'welcome') {
    app.me = { name: detail.name, server: detail.server };
    notice(t('event.welcome', { server: detail.server, name: detail.name }));
    toLobby(false);
  } else if (kind === 'reconnecting') notice(t('net.reconnecting', { n: detail }), 'warn');
  else if (kind === 'reconnected') {
    app.me = { name: detail.name, server: detail.server };
    notice(t('net.reconnected'));
    // The server puts a held seat back (a Joined follows); a spectator watches again.
    const watching = app.room && !S.mySeat(app.room) ? app.room.id : null;
    app.room = null;
    app.screen = 'lobby';
    if (watching !== null) app.send({ WatchRoom: watching });
    render();
  } else if (kind === 'closed') {
    notice(t('net.closed'), 'error');
    app.screen = 'connect';
    render();
  } else if (kind === 'gave_up') {
    notice(t('net.gave_up', { reason: t('net.closed') }), 'error');
    app.screen = 'connect';
    app.room = null;
    render();
  }
  renderHeader();
}

function onMessage(msg) {
  const [kind, body] = typeof msg === 'string' ? [msg, null] : Object.entries(msg || {})[0] || [];
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
      app.view = null;
      closeDialog();
      askFacts();
      render();
      if (app.room.game && app.room.game.over) showGameOver();
      else if (S.offerToMe(app.room)) showOffer();
      return;
    case 'Left':
      app.room = null;
      closeDialog();
      toLobby();
      return;
    case 'Error':
      notice(errorText(body), 'error');
      return;
    case 'Judged':
      if (app.editor && judged(app.editor, body) && app.screen === 'editor') render();
      return;
    case 'Leaderboard':
      app.screen = 'leaderboard';
      app.records = body.standings;
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
      app.step = 0;
      render();
      return;
    default:
      break;
  }
  const room = app.room;
  if (!room) return;
  const before = room.seats.map((s) => s && { ...s });
  if (!S.apply(room, msg, now)) return; // a message this page does not know: ignored
  const me = S.mySeat(room);
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

function hintText(room, mv) {
  if (mv.caro) {
    const c = room.settings.game.caro;
    return c.width <= 26 ? String.fromCharCode(97 + mv.caro.x) + (c.height - mv.caro.y) : `${mv.caro.x},${mv.caro.y}`;
  }
  const sq = (s) => String.fromCharCode(97 + s.file) + s.rank;
  return sq(mv.xiangqi.from) + sq(mv.xiangqi.to);
}

/** A refusal in the page's language; the server's own sentence says what to change. */
function errorText(e) {
  const local = t(`server_error.${e.code}`);
  if (document.documentElement.lang === 'en' || !e.message) return e.message || local;
  return `${local} (${e.message})`;
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

app.openCreate = (again = null) => {
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
        app.editor = newEditor(startAt, app.send, (game) => {
          app.editor = null;
          app.screen = 'lobby';
          render();
          if (game) useArrangement(form, formFields(game));
          app.openCreate(form);
        });
        app.screen = 'editor';
        render();
      },
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
  if (e.key === 'Escape' && app.dialog) closeDialog();
  // The editor's keys, unless a text field (the FEN) has them.
  const typing = e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT');
  if (app.screen === 'editor' && app.editor && !app.dialog && !typing && editorKey(app.editor, e)) {
    e.preventDefault();
    render();
  }
});

// ---- views ------------------------------------------------------------------------

function renderHeader() {
  fill(headerInfo, app.me.name ? t('title.who', { name: app.me.name, server: app.me.server }) : '');
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
    case 'editor':
      return app.editor ? renderEditor(main, app.editor, render) : undefined;
    default:
      return undefined;
  }
}

function renderConnect() {
  const input = h('input', { id: 'name', type: 'text', maxlength: 24, autocomplete: 'nickname', value: app.prefs.name, required: true });
  fill(
    main,
    h(
      'form',
      {
        id: 'connect-form',
        class: 'connect',
        onsubmit: (e) => {
          e.preventDefault();
          const name = input.value.trim();
          if (!name) return notice(t('connect.need_name'), 'error');
          app.prefs.name = name;
          savePrefs(app.prefs);
          conn.open(name);
        },
      },
      h('h1', {}, t('connect.title')),
      h('p', { class: 'muted' }, t('web.tagline')),
      h('label', { class: 'field wide', for: 'name' }, h('span', {}, t('connect.name')), input),
      h('button', { id: 'connect', type: 'submit', class: 'primary' }, t('keys.connect_short')),
    ),
  );
  input.focus();
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
  const resume = loadResume();
  if (resume && resume.name) {
    app.prefs.name = resume.name;
    conn.open(resume.name);
  }
  render();
  setInterval(() => app.screen === 'room' && app.view && app.view.tick(), 200);
}

start();
