// @ts-check
// The server's records: the leaderboard, the history of finished games, and a replay of
// one game move by move on the same boards as a room.

import { h, fill, svg } from './dom.js';
import { t } from './i18n.js';
import { caroBoard } from './caro.js';
import { xiangqiBoard } from './xiangqi.js';
import { botOfName, iccs, levelName, pointName, seatIndex } from './notation.js';
import { gameLine, headline, matchOfGame, moveText, noResult, reasonText } from './room.js';
import { botName } from './challenges.js';
import { swapSteps } from './swap.js';

/** @typedef {import('./main.js').Page} Page */
/** @typedef {import('./main.js').Actions} Actions */

/**
 * @param {Actions} act
 */
function back(act) {
  return h('button', { id: 'btn-back', type: 'button', onclick: () => act.toLobby() }, t('keys.back_to_lobby_short'));
}

/**
 * Each leaderboard line's place, by the rule the terminal and the server's profiles
 * use: a settled rating's place is 1 + the settled ratings above it, so equal ones
 * share a place; a provisional rating (`1500?`) has none yet.
 * @param {import('./protocol').Standing[]} standings
 * @returns {(number | null)[]}
 */
export function places(standings) {
  const settled = standings.filter((s) => !s.rating.provisional).map((s) => s.rating.rating);
  return standings.map((s) => (s.rating.provisional ? null : settled.filter((r) => r > s.rating.rating).length + 1));
}

/**
 * `1612` (or `1500?` while provisional), its deviation on hover: how sure it is.
 * @param {import('./protocol').Rating} r
 */
function ratingCell(r) {
  return h('span', { class: 'rating', title: `${r.rating} ± ${r.deviation}` }, `${r.rating}${r.provisional ? '?' : ''}`);
}

/**
 * @param {HTMLElement} root
 * @param {{game: import('./protocol').GameKind, standings: import('./protocol').Standing[]}} board
 * @param {Page} page
 * @param {Actions} act
 */
export function renderLeaderboard(root, board, page, act) {
  const standings = board.standings;
  const place = places(standings);
  fill(
    root,
    h(
      'div',
      { class: 'records' },
      h('div', { class: 'lobby-head' }, h('h2', {}, t('leaderboard.title')), back(act)),
      h(
        'div',
        { class: 'game-switch', role: 'group', 'aria-label': t('create.game') },
        /** @type {import('./protocol').GameKind[]} */ (['caro', 'xiangqi']).map((game) =>
          h('button', { id: `lb-${game}`, type: 'button', 'aria-pressed': String(board.game === game), onclick: () => act.askLeaderboard(game) }, t(`create.game_${game}`)),
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
                  { class: s.name === page.me.name ? 'me' : '' },
                  [
                    place[i] === null ? '–' : place[i],
                    [
                      h('button', { type: 'button', class: 'link', onclick: () => act.askProfile(s.name, s.bot) }, `${s.bot ? '⚙ ' : ''}${shownName(s.name)}${s.bot_account ? ` ${t('challenge.bot_tag')}` : ''}`),
                      // Challenge them (the server's bot by its name) with the room form's settings.
                      s.name === page.me.name
                        ? null
                        : h('button', { type: 'button', class: 'small icon challenge', title: t('keys.challenge_player'), 'aria-label': `${t('keys.challenge_player_short')} ${shownName(s.name)}`, onclick: () => act.challengeWho(s.bot ? botName(s.bot) : s.name) }, '⚔'),
                    ],
                    ratingCell(s.rating),
                    s.games,
                    s.wins,
                    s.losses,
                    s.draws,
                  ].map((c) => h('td', {}, c)),
                ),
              ),
            ),
          ),
    ),
  );
}

/**
 * The history's filter: a player's name, your own games, or everyone's.
 * @param {string | null} who
 * @param {Page} page
 * @param {Actions} act
 */
function historyFilter(who, page, act) {
  const input = h('input', { id: 'history-player', type: 'search', maxlength: 24, value: who || '', placeholder: t('leaderboard.col_name'), 'aria-label': t('web.history_player') });
  return h(
    'form',
    {
      id: 'history-filter',
      class: 'history-filter',
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        act.askHistory(input.value.trim() || null);
      },
    },
    input,
    h('button', { id: 'history-show', type: 'submit' }, t('web.history_show')),
    h('button', { id: 'history-mine', type: 'button', onclick: () => act.askHistory(page.me.name) }, t('web.history_mine')),
    h('button', { id: 'history-all', type: 'button', onclick: () => act.askHistory(null) }, t('web.history_all')),
  );
}

/**
 * @param {string | null} who
 * @param {Page} page
 */
function historyTitle(who, page) {
  if (!who) return t('history.title_all');
  if (who === page.me.name) return t('history.title_mine');
  return t('history.title_player', { name: who });
}

/**
 A recorded player's name as the reader sees it: the server's bot in the page's
 * language, as its seat is shown in a room; a person's name as it is.
 * @param {string} name
 */
export function shownName(name) {
  const level = botOfName(name);
  return level ? t('seat.bot', { level: t(`level.${levelName(level)}`) }) : name;
}

/**
 * One finished game in a list, with its replay button.
 * @param {Page} page
 * @param {import('./protocol').GameSummary} g
 */
export function gameRow(page, g) {
  const first = seatIndex(g.first);
  const result = noResult(g.over) || (g.over.winner ? t('result.won', { name: shownName(g.players[seatIndex(g.over.winner)]) }) : t('result.draw'));
  return h(
    'li',
    { class: 'room-row', dataset: { game: g.id } },
    h(
      'div',
      { class: 'room-info' },
      h('strong', {}, `#${g.id} `, gameLine({ game: g.game })),
      h('span', {}, t('room.versus', { one: shownName(g.players[first]), two: shownName(g.players[1 - first]) })),
      h('span', { class: 'muted' }, `${result} · ${t('room.moves', { count: g.plies })}${g.rated === false ? ` · ${t('web.unrated')}` : ''} · ${new Date(g.ended_at_ms).toLocaleString()}`),
      g.in_match ? h('span', { class: 'match-of' }, matchOfGame(g.in_match, g.players, shownName)) : null,
    ),
    h('div', { class: 'room-buttons' }, h('button', { class: 'replay', type: 'button', onclick: () => page.send({ Replay: g.id }) }, t('keys.open_replay_short'))),
  );
}

/**
 * @param {HTMLElement} root
 * @param {{player: string | null, games: import('./protocol').GameSummary[]}} history
 * @param {Page} page
 * @param {Actions} act
 */
export function renderHistory(root, history, page, act) {
  const games = history.games;
  fill(
    root,
    h(
      'div',
      { class: 'records' },
      h('div', { class: 'lobby-head' }, h('h2', { id: 'history-title' }, historyTitle(history.player, page)), back(act)),
      historyFilter(history.player, page, act),
      games.length === 0
        ? h('p', { class: 'empty' }, t('history.empty'))
        : h(
            'ul',
            { id: 'history', class: 'rooms' },
            games.map((g) => gameRow(page, g)),
          ),
    ),
  );
}

/**
 * A room-shaped view of a record at move `step`, for the boards.
 * @param {import('./protocol').RecordedGame} record
 * @param {number} step
 * @returns {import('./state.js').Room}
 */
export function replayRoom(record, step) {
  const s = record.summary;
  const done = step >= record.moves.length;
  return {
    id: 0,
    settings: { game: s.game, time: s.time || 'unlimited', first: 'me', seats: ['human', 'human'], hints: false },
    you: 'spectator',
    seats: s.players.map((name) => ({ name, bot: botOfName(name), connected: true })),
    spectators: [],
    game: { number: 0, first: s.first, start_fen: record.start_fen, opening: record.opening, moves: record.moves.slice(0, step), clocks: null, over: done ? s.over : null },
    offer: null,
    chat: [],
    series: { wins: [0, 0], draws: 0 },
    match: null,
    hint: null,
    facts: null,
  };
}

/**
 A record file's name and text, offered as a download. A data: address, not a
 * blob: one, so there is nothing to free afterwards and the link stays good.
 * @param {string} name
 * @param {string} text
 */
export function offerDownload(name, text) {
  const a = h('a', { id: 'record-download', download: name, href: `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`, hidden: true, dataset: { name } });
  const old = document.getElementById('record-download');
  if (old) old.replaceWith(a);
  else document.body.append(a);
  a.click();
}

/**
 * @param {HTMLElement} root
 * @param {import('./main.js').ReplayScreen} rp
 * @param {Page} page
 * @param {Actions} act
 */
export function renderReplay(root, rp, page, act) {
  const { record, step } = rp;
  void page;
  const room = replayRoom(record, step);
  const total = record.moves.length;
  const board = room.settings.game.caro ? caroBoard(room, {}) : xiangqiBoard(room, rp.flip ? 'black' : 'red', {});
  const at = step === 0 ? t('replay.at_start', { total }) : `${step}/${total}: ${moveText(room, record.moves[step - 1])}`;
  const ended = record.summary.over;
  const why = ended ? reasonText(room, ended) : '';
  const over = step < total ? '' : ended ? (why ? `${headline(room, ended)} ${why}.` : headline(room, ended)) : t('replay.unfinished');
  const go = (/** @type {number} */ n) => act.replayStep(Math.max(0, Math.min(total, n)));
  fill(
    root,
    h(
      'div',
      { class: 'room' },
      h(
        'section',
        { class: 'play' },
        h('div', { class: 'room-title' }, h('strong', {}, record.summary.id ? `${t('replay.title')} · ${t('replay.game_id', { id: record.summary.id })}` : `${t('replay.title')} · ${rp.file || ''}`), ' · ', gameLine({ game: record.summary.game })),
        h('div', { class: 'board-scroll' }, board),
        h('div', { id: 'status' }, at, ' ', over),
        reviewPanel(rp.review, room, record, step, go),
        h(
          'div',
          { class: 'actions' },
          // Glyphs every system font has (⏮ ⏭ ⏸ are missing from many), named for
          // screen readers.
          h('button', { id: 'rp-start', type: 'button', 'aria-label': t('web.replay_start'), title: t('web.replay_start'), onclick: () => go(0) }, '|◀'),
          h('button', { id: 'rp-back', type: 'button', 'aria-label': t('web.replay_back'), title: t('web.replay_back'), onclick: () => go(step - 1) }, '◀'),
          h('button', { id: 'rp-play', type: 'button', 'aria-label': t('keys.autoplay'), title: t('keys.autoplay'), onclick: () => act.replayAutoplay() }, rp.autoplay ? '||' : '▶▶'),
          h('button', { id: 'rp-next', type: 'button', 'aria-label': t('web.replay_forward'), title: t('web.replay_forward'), onclick: () => go(step + 1) }, '▶'),
          h('button', { id: 'rp-end', type: 'button', 'aria-label': t('web.replay_end'), title: t('web.replay_end'), onclick: () => go(total) }, '▶|'),
          room.settings.game.xiangqi ? h('button', { type: 'button', onclick: () => act.toggleFlip() }, t('keys.flip_short')) : null,
          h('button', { id: 'rp-save', type: 'button', onclick: () => act.saveRecord(record) }, t('keys.save_record_short')),
          h('button', { id: 'rp-play-on', type: 'button', onclick: () => act.playOn(record, step) }, t('web.play_on')),
          record.summary.id && !rp.review ? h('button', { id: 'rp-review', type: 'button', onclick: () => act.review() }, t('web.review')) : null,
          back(act),
        ),
      ),
      h(
        'aside',
        { class: 'side' },
        h('h2', {}, t('room.players')),
        h('p', {}, t('room.versus', { one: shownName(record.summary.players[seatIndex(record.summary.first)]), two: shownName(record.summary.players[1 - seatIndex(record.summary.first)]) })),
        swapPlayed(record),
        h('h2', {}, t('room.moves', { count: total })),
        h(
          'ol',
          { class: 'moves' },
          record.moves.map((m, i) => moveItem(room, m, i, step, rp.review, go)),
        ),
      ),
    ),
  );
}

/**
 * How a game's swap opening was played, when the server's replay says (a record file
 * does not): `Opening: An h8 (X), …, Bình: two more, …, An: Black (X)`.
 * @param {import('./protocol').RecordedGame} record
 */
function swapPlayed(record) {
  const swap = /** @type {{swap?: import('./protocol').SwapView | null}} */ (record).swap;
  const game = record.summary.game;
  if (!swap || !('caro' in game)) return null;
  const steps = swapSteps(swap, (seat) => shownName(record.summary.players[seatIndex(seat)]), game.caro.width, game.caro.height);
  return h('p', { id: 'rp-swap', class: 'swap-steps' }, t('swap.opening', { steps: steps.join(', ') }));
}

/**
 A move in the replay's list; once the engine has reviewed the game, with its mark
 * (`?!`, `?`, `??`, `?w`, `?d`) and, on hover, the class in words.
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').MoveRecord} m
 * @param {number} i
 * @param {number} step
 * @param {import('./main.js').Review | null} review
 * @param {(n: number) => void} go
 */
function moveItem(room, m, i, step, review, go) {
  const ply = review && review.done ? review.done.plies[i] : null;
  const mark = ply ? CLASS_MARK[ply.class] : null;
  return h(
    'li',
    { class: i === step - 1 ? 'current' : '', onclick: () => go(i + 1), dataset: ply ? { class: ply.class } : {}, title: ply ? t(`review.class_${ply.class}`) : null },
    moveText(room, m),
    mark ? h('span', { class: `mark ${ply.class}` }, mark) : null,
  );
}

/**
 * A move as the review names it: `h8`, or ICCS for xiangqi.
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').Move} mv
 */
function plainMove(room, mv) {
  if (mv.caro) return pointName(mv.caro, room.settings.game.caro.width, room.settings.game.caro.height);
  return iccs(mv.xiangqi);
}

/** @type {Record<string, string>} */
const CLASS_MARK = { inaccuracy: '?!', mistake: '?', blunder: '??', missed_win: '?w', missed_defence: '?d' };

/**
 * The engine's review beside a replay: a progress line while the server analyses, then
 * the first mover's winning chances over the game (the ply shown marked; a click on the
 * chart goes to that ply) and, for the move shown, its class and the engine's move.
 * @param {import('./main.js').Review | null} review
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').RecordedGame} record
 * @param {number} step
 * @param {(n: number) => void} go
 */
function reviewPanel(review, room, record, step, go) {
  if (!review) return null;
  if (review.asked) return h('p', { id: 'review', class: 'muted' }, t('review.asked'));
  if (review.progress) {
    const { done, total } = review.progress;
    return h('div', { id: 'review' }, h('progress', { max: Math.max(1, total), value: done }), ' ', t('review.progress', { done, total }));
  }
  const r = review.done;
  const points = [r.start_chances, ...r.plies.map((p) => p.chances)];
  const n = Math.max(1, points.length - 1);
  const line = points.map((c, i) => `${((i / n) * 100).toFixed(2)},${(100 - c / 10).toFixed(2)}`).join(' ');
  const chart = svg(
    'svg',
    { id: 'review-chart', viewBox: '0 0 100 100', preserveAspectRatio: 'none', role: 'img', 'aria-label': t('review.chart', { name: shownName(record.summary.players[seatIndex(r.first)]) }) },
    svg('line', { x1: 0, y1: 50, x2: 100, y2: 50, class: 'half' }),
    svg('polyline', { points: line, class: 'chances' }),
    svg('line', { x1: (step / n) * 100, y1: 0, x2: (step / n) * 100, y2: 100, class: 'at' }),
  );
  chart.addEventListener('click', (e) => {
    const box = chart.getBoundingClientRect();
    go(Math.round(((e.clientX - box.left) / box.width) * n));
  });
  const ply = step > 0 ? r.plies[step - 1] : null;
  const about = ply
    ? [
        h('strong', {}, `${plainMove(room, ply.played)}${CLASS_MARK[ply.class] || ''} `),
        t(`review.class_${ply.class}`),
        ply.best && ply.class !== 'best' ? h('span', { class: 'muted' }, ` · ${t('review.better', { point: plainMove(room, ply.best) })}`) : null,
      ]
    : null;
  return h('div', { id: 'review', dataset: { ready: 'yes' } }, h('p', { class: 'muted' }, t('review.chart', { name: shownName(record.summary.players[seatIndex(r.first)]) })), chart, h('p', { id: 'review-move' }, about));
}
