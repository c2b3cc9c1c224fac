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

/** `1612` (or `1500?` while provisional), its deviation on hover: how sure it is. */
function ratingCell(r) {
  return h('span', { class: 'rating', title: `${r.rating} ± ${r.deviation}` }, `${r.rating}${r.provisional ? '?' : ''}`);
}

export function renderLeaderboard(root, app, standings) {
  fill(
    root,
    h(
      'div',
      { class: 'records' },
      h('div', { class: 'lobby-head' }, h('h2', {}, t('leaderboard.title')), back(app)),
      h(
        'div',
        { class: 'game-switch', role: 'group', 'aria-label': t('create.game') },
        ['caro', 'xiangqi'].map((game) =>
          h('button', { id: `lb-${game}`, type: 'button', 'aria-pressed': String(app.leaderboardGame === game), onclick: () => app.askLeaderboard(game) }, t(`create.game_${game}`)),
        ),
      ),
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
                  [i + 1, h('button', { type: 'button', class: 'link', onclick: () => app.askProfile(s.name, s.bot) }, `${s.bot ? '⚙ ' : ''}${s.name}`), ratingCell(s.rating), s.games, s.wins, s.losses, s.draws].map((c) => h('td', {}, c)),
                ),
              ),
            ),
          ),
    ),
  );
}

/** The history's filter: a player's name, your own games, or everyone's. */
function historyFilter(app) {
  const who = app.historyFor;
  const input = h('input', { id: 'history-player', type: 'search', maxlength: 24, value: who || '', placeholder: t('leaderboard.col_name'), 'aria-label': t('web.history_player') });
  return h(
    'form',
    {
      id: 'history-filter',
      class: 'history-filter',
      onsubmit: (e) => {
        e.preventDefault();
        app.askHistory(input.value.trim() || null);
      },
    },
    input,
    h('button', { id: 'history-show', type: 'submit' }, t('web.history_show')),
    h('button', { id: 'history-mine', type: 'button', onclick: () => app.askHistory(app.me.name) }, t('web.history_mine')),
    h('button', { id: 'history-all', type: 'button', onclick: () => app.askHistory(null) }, t('web.history_all')),
  );
}

function historyTitle(app) {
  const who = app.historyFor;
  if (!who) return t('history.title_all');
  if (who === app.me.name) return t('history.title_mine');
  return t('history.title_player', { name: who });
}

/** One finished game in a list, with its replay button. */
export function gameRow(app, g) {
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
      h('span', { class: 'muted' }, `${result} · ${t('room.moves', { count: g.plies })}${g.rated === false ? ` · ${t('web.unrated')}` : ''} · ${new Date(g.ended_at_ms).toLocaleString()}`),
    ),
    h('div', { class: 'room-buttons' }, h('button', { class: 'replay', type: 'button', onclick: () => app.send({ Replay: g.id }) }, t('keys.open_replay_short'))),
  );
}

export function renderHistory(root, app, games) {
  fill(
    root,
    h(
      'div',
      { class: 'records' },
      h('div', { class: 'lobby-head' }, h('h2', { id: 'history-title' }, historyTitle(app)), back(app)),
      historyFilter(app),
      games.length === 0
        ? h('p', { class: 'empty' }, t('history.empty'))
        : h(
            'ul',
            { id: 'history', class: 'rooms' },
            games.map((g) => gameRow(app, g)),
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

/** A record file's name and text, offered as a download. A data: address, not a
 * blob: one, so there is nothing to free afterwards and the link stays good. */
export function offerDownload(name, text) {
  const a = h('a', { id: 'record-download', download: name, href: `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`, hidden: true, dataset: { name } });
  const old = document.getElementById('record-download');
  if (old) old.replaceWith(a);
  else document.body.append(a);
  a.click();
}

export function renderReplay(root, app, record, step) {
  const room = replayRoom(record, step);
  const total = record.moves.length;
  const board = room.settings.game.caro ? caroBoard(room, {}) : xiangqiBoard(room, app.flip ? 'black' : 'red', {});
  const at = step === 0 ? t('replay.at_start', { total }) : `${step}/${total}: ${moveText(room, record.moves[step - 1])}`;
  const ended = record.summary.over;
  const over = step < total ? '' : ended ? `${headline(room, ended)} ${reasonText(room, ended)}.` : t('replay.unfinished');
  const go = (n) => app.replayStep(Math.max(0, Math.min(total, n)));
  fill(
    root,
    h(
      'div',
      { class: 'room' },
      h(
        'section',
        { class: 'play' },
        h('div', { class: 'room-title' }, h('strong', {}, record.summary.id ? `${t('replay.title')} · ${t('replay.game_id', { id: record.summary.id })}` : `${t('replay.title')} · ${app.replayFile || ''}`), ' · ', gameLine({ game: record.summary.game })),
        h('div', { class: 'board-scroll' }, board),
        h('div', { id: 'status' }, at, ' ', over),
        h(
          'div',
          { class: 'actions' },
          // Glyphs every system font has (⏮ ⏭ ⏸ are missing from many), named for
          // screen readers.
          h('button', { id: 'rp-start', type: 'button', 'aria-label': t('web.replay_start'), title: t('web.replay_start'), onclick: () => go(0) }, '|◀'),
          h('button', { id: 'rp-back', type: 'button', 'aria-label': t('web.replay_back'), title: t('web.replay_back'), onclick: () => go(step - 1) }, '◀'),
          h('button', { id: 'rp-play', type: 'button', 'aria-label': t('keys.autoplay'), title: t('keys.autoplay'), onclick: () => app.replayAutoplay() }, app.autoplay ? '||' : '▶▶'),
          h('button', { id: 'rp-next', type: 'button', 'aria-label': t('web.replay_forward'), title: t('web.replay_forward'), onclick: () => go(step + 1) }, '▶'),
          h('button', { id: 'rp-end', type: 'button', 'aria-label': t('web.replay_end'), title: t('web.replay_end'), onclick: () => go(total) }, '▶|'),
          room.settings.game.xiangqi ? h('button', { type: 'button', onclick: () => app.toggleFlip() }, t('keys.flip_short')) : null,
          h('button', { id: 'rp-save', type: 'button', onclick: () => app.saveRecord(record) }, t('keys.save_record_short')),
          h('button', { id: 'rp-play-on', type: 'button', onclick: () => app.playOn(record, step) }, t('web.play_on')),
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
