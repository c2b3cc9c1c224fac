// @ts-check
// The lobby: the rooms on the server, kept current by the server, each with its game,
// time (a match, a casual room), players and status, and buttons to join its free seat
// or watch it; above them the open challenges, someone else's to take, ours with its
// link.

import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { gameLine, matchFormatText, timeLine } from './room.js';
import { levelName } from './notation.js';
import { othersOpen, tagged, terms, openLinkLine } from './challenges.js';

/**
 * @param {import('./protocol').RoomSummary} room
 * @param {number} i
 */
function playerText(room, i) {
  const kind = room.settings.seats[i];
  if (typeof kind === 'object' && kind.bot) return t('seat.bot', { level: t(`level.${levelName(kind.bot)}`) });
  const name = room.players[i];
  return name ? tagged(name, room.bot_accounts && room.bot_accounts[i]) : t('seat.free');
}

/**
 * "Open a record file": a file input behind a button-like label, read by the page.
 * @param {import('./main.js').Actions} act
 */
function recordPicker(act) {
  const input = h('input', { id: 'record-file', type: 'file', accept: '.txt,text/plain', class: 'file-input' });
  input.addEventListener('change', () => {
    const file = input.files && input.files[0];
    input.value = '';
    act.openRecordFile(file);
  });
  return h('label', { class: 'file-button', for: 'record-file', id: 'btn-open-record', tabindex: 0, role: 'button',
    onkeydown: (/** @type {KeyboardEvent} */ e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); input.click(); } } }, input, t('web.open_record'));
}

/**
 * Draws the lobby into `root`: its state `lobby` (the rooms), with what every screen
 * shares (`page`) and what it may ask for (`act`).
 * @param {HTMLElement} root
 * @param {{rooms: import('./protocol').RoomSummary[], challenges: import('./challenges.js').Challenges}} lobby
 * @param {import('./main.js').Page} page
 * @param {import('./main.js').Actions} act
 */
export function renderLobby(root, lobby, page, act) {
  const rows = lobby.rooms.map((room) => {
    const full = room.players.every((p) => p !== null) || room.settings.seats.every((s) => s !== 'human');
    return h(
      'li',
      { class: 'room-row', dataset: { room: room.id } },
      h(
        'div',
        { class: 'room-info' },
        h('strong', {}, `#${room.id} `, gameLine(room.settings)),
        h(
          'span',
          { class: 'muted' },
          // The time, and what else a joiner should know: a match, a casual room.
          [timeLine(room.settings.time), room.settings.match_format ? t('match.line_waiting', { format: matchFormatText(room.settings.match_format) }) : null, room.settings.rated === false ? t('challenge.casual') : null].filter(Boolean).join(' · '),
        ),
        h('span', {}, t('room.versus', { one: playerText(room, 0), two: playerText(room, 1) })),
        h('span', { class: `status ${room.status}` }, t(`status_word.${room.status}`), room.spectators ? ` · ${room.spectators} 👁` : ''),
      ),
      h(
        'div',
        { class: 'room-buttons' },
        full ? null : h('button', { class: 'join', type: 'button', onclick: () => page.send({ JoinRoom: room.id }) }, t('keys.join_short')),
        h('button', { class: 'watch', type: 'button', onclick: () => page.send({ WatchRoom: room.id }) }, t('keys.watch_short')),
      ),
    );
  });
  // The open challenges: someone else's to take, ours with the link to show.
  const ch = lobby.challenges;
  const mine = ch.sent.filter((c) => !c.to);
  const open = [
    ...othersOpen(ch, page.me.name).map((c) =>
      h(
        'li',
        { class: 'room-row challenge-row', dataset: { challenge: c.id } },
        h('div', { class: 'room-info' }, h('strong', {}, `#${c.id} ${tagged(c.from, c.from_bot)}`), h('span', {}, terms(c))),
        h('div', { class: 'room-buttons' }, h('button', { class: 'take primary', type: 'button', onclick: () => act.acceptChallenge(c.id) }, t('keys.accept_challenge_short'))),
      ),
    ),
    ...mine.map((c) =>
      h(
        'li',
        { class: 'room-row challenge-row mine', dataset: { challenge: c.id } },
        h('div', { class: 'room-info' }, h('strong', {}, `#${c.id} ${t('challenge.title_open')}`), h('span', {}, terms(c)), openLinkLine(c, act.challengeLink)),
        h('div', { class: 'room-buttons' }, h('button', { class: 'cancel', type: 'button', onclick: () => act.cancelChallenge(c.id) }, t('keys.cancel_challenge_short'))),
      ),
    ),
  ];
  const waiting = ch.incoming.length;
  fill(
    root,
    h(
      'div',
      { class: 'lobby' },
      h(
        'div',
        { class: 'lobby-head' },
        h('h2', {}, t('lobby.rooms', { count: lobby.rooms.length })),
        h(
          'div',
          { class: 'lobby-buttons' },
          h('button', { id: 'btn-create', type: 'button', class: 'primary', onclick: () => act.openCreate() }, t('keys.create_short')),
          h('button', { id: 'btn-tournaments', type: 'button', onclick: () => act.openTournaments() }, t('tournament.title')),
          h('button', { id: 'btn-leaderboard', type: 'button', onclick: () => act.askLeaderboard() }, t('keys.leaderboard_short')),
          h('button', { id: 'btn-history', type: 'button', onclick: () => act.askHistory(null) }, t('keys.history_short')),
          h('button', { id: 'btn-people', type: 'button', class: waiting ? 'primary' : '', onclick: () => act.openPeople() }, waiting ? `${t('keys.people_short')} (${waiting})` : t('keys.people_short')),
          recordPicker(act),
        ),
      ),
      open.length ? h('section', { id: 'open-challenges' }, h('h3', {}, t('challenge.section_open')), h('ul', { class: 'rooms' }, open)) : null,
      rows.length ? h('ul', { id: 'rooms', class: 'rooms' }, rows) : h('p', { id: 'rooms', class: 'empty' }, t('web.no_rooms')),
    ),
  );
}
