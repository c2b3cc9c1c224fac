// The server's records: the leaderboard, the history of finished games, and a replay of
// one game move by move on the same boards as a room.

import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { caroBoard } from './caro.js';
import { xiangqiBoard } from './xiangqi.js';
import { seatIndex } from './notation.js';
import { gameLine, headline, moveText, reasonText } from './room.js';

function back(app) {
  return h('button', { id: 'btn-back', type: 'button', onclick: () => app.toLobby() }, t('keys.back_to_lobby_short'));
}

export function renderLeaderboard(root, app, standings) {
  fill(
    root,
    h(
      'div',
      { class: 'records' },
      h('div', { class: 'lobby-head' }, h('h2', {}, t('leaderboard.title')), back(app)),
      standings.length === 0
        ? h('p', { class: 'empty' }, t('leaderboard.empty'))
        : h(
            'table',
            { id: 'leaderboard' },
            h('thead', {}, h('tr', {}, ['#', t('leaderboard.col_name'), t('leaderboard.col_rating'), t('leaderboard.col_games'), t('leaderboard.col_wins'), t('leaderboard.col_losses'), t('leaderboard.col_draws')].map((c) => h('th', {}, c)))),
            h(
              'tbody',
              {},
              standings.map((s, i) =>
                h(
                  'tr',
                  { class: s.name === app.me.name ? 'me' : '' },
                  [i + 1, `${s.bot ? '⚙ ' : ''}${s.name}`, `${s.rating.rating}${s.rating.provisional ? '?' : ''}`, s.games, s.wins, s.losses, s.draws].map((c) => h('td', {}, c)),
                ),
              ),
            ),
          ),
    ),
  );
}

export function renderHistory(root, app, games) {
  fill(
    root,
    h(
      'div',
      { class: 'records' },
      h('div', { class: 'lobby-head' }, h('h2', {}, t('history.title_all')), back(app)),
      games.length === 0
        ? h('p', { class: 'empty' }, t('history.empty'))
        : h(
            'ul',
            { id: 'history', class: 'rooms' },
            games.map((g) => {
              const first = seatIndex(g.first);
              const result = g.over.winner ? t('result.won', { name: g.players[seatIndex(g.over.winner)] }) : t('result.draw');
              return h(
                'li',
                { class: 'room-row', dataset: { game: g.id } },
                h(
                  'div',
                  { class: 'room-info' },
                  h('strong', {}, `#${g.id} `, gameLine({ game: g.game })),
                  h('span', {}, t('room.versus', { one: g.players[first], two: g.players[1 - first] })),
                  h('span', { class: 'muted' }, `${result} · ${g.plies} · ${new Date(g.ended_at_ms).toLocaleString()}`),
                ),
                h('div', { class: 'room-buttons' }, h('button', { class: 'replay', type: 'button', onclick: () => app.send({ Replay: g.id }) }, t('keys.open_replay_short'))),
              );
            }),
          ),
    ),
  );
}

/** A room-shaped view of a record at move `step`, for the boards. */
export function replayRoom(record, step) {
  const s = record.summary;
  const done = step >= record.moves.length;
  return {
    id: 0,
    settings: { game: s.game, time: s.time, seats: ['human', 'human'], hints: false },
    you: 'spectator',
    seats: s.players.map((name) => ({ name, bot: null, connected: true })),
    spectators: [],
    game: { number: 0, first: s.first, start_fen: record.start_fen, opening: record.opening, moves: record.moves.slice(0, step), clocks: null, over: done ? s.over : null },
    offer: null,
    chat: [],
    series: { wins: [0, 0], draws: 0 },
    hint: null,
    facts: null,
  };
}

export function renderReplay(root, app, record, step) {
  const room = replayRoom(record, step);
  const total = record.moves.length;
  const board = room.settings.game.caro ? caroBoard(room, {}) : xiangqiBoard(room, app.flip ? 'black' : 'red', {});
  const at = step === 0 ? t('replay.at_start', { total }) : `${step}/${total}: ${moveText(room, record.moves[step - 1])}`;
  const over = step >= total ? `${headline(room, record.summary.over)} ${reasonText(room, record.summary.over)}.` : '';
  const go = (n) => app.replayStep(Math.max(0, Math.min(total, n)));
  fill(
    root,
    h(
      'div',
      { class: 'room' },
      h(
        'section',
        { class: 'play' },
        h('div', { class: 'room-title' }, h('strong', {}, `${t('replay.title')} · ${t('replay.game_id', { id: record.summary.id })}`), ' · ', gameLine({ game: record.summary.game })),
        h('div', { class: 'board-scroll' }, board),
        h('div', { id: 'status' }, at, ' ', over),
        h(
          'div',
          { class: 'actions' },
          h('button', { id: 'rp-start', type: 'button', onclick: () => go(0) }, '⏮'),
          h('button', { id: 'rp-back', type: 'button', onclick: () => go(step - 1) }, '◀'),
          h('button', { id: 'rp-play', type: 'button', onclick: () => app.replayAutoplay() }, app.autoplay ? '⏸' : '▶▶'),
          h('button', { id: 'rp-next', type: 'button', onclick: () => go(step + 1) }, '▶'),
          h('button', { id: 'rp-end', type: 'button', onclick: () => go(total) }, '⏭'),
          room.settings.game.xiangqi ? h('button', { type: 'button', onclick: () => app.toggleFlip() }, t('keys.flip_short')) : null,
          back(app),
        ),
      ),
      h(
        'aside',
        { class: 'side' },
        h('h2', {}, t('room.players')),
        h('p', {}, t('room.versus', { one: record.summary.players[seatIndex(record.summary.first)], two: record.summary.players[1 - seatIndex(record.summary.first)] })),
        h('h2', {}, t('room.moves', { count: total })),
        h(
          'ol',
          { class: 'moves' },
          record.moves.map((m, i) => h('li', { class: i === step - 1 ? 'current' : '', onclick: () => go(i + 1) }, moveText(room, m))),
        ),
      ),
    ),
  );
}
