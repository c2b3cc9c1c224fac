// @ts-check
// Someone's record, as the server's Profile tells it: each game's rating (with how sure
// it is), place, results, best win and rating chart, and the newest games to replay.
// The page asks with `Profile {name, bot}`: "My info" for one's own account, or a name
// on the leaderboard.

import { h, fill, svg } from './dom.js';
import { t } from './i18n.js';
import { levelName } from './notation.js';
import { gameRow } from './records.js';
import { botName } from './challenges.js';

/**
 * The rating chart's line: `points` ({rating}) as SVG coordinates in a w x h box.
 * @param {{rating: number}[]} points
 * @param {number} w
 * @param {number} hgt
 */
export function chartPoints(points, w, hgt) {
  if (points.length === 0) return '';
  const ratings = points.map((p) => p.rating);
  const lo = Math.min(...ratings) - 10;
  const hi = Math.max(...ratings) + 10;
  const step = points.length > 1 ? w / (points.length - 1) : 0;
  return points.map((p, i) => `${(i * step).toFixed(1)},${(hgt - ((p.rating - lo) / (hi - lo)) * hgt).toFixed(1)}`).join(' ');
}

/**
 * @param {import('./protocol').Rating} r
 */
function ratingText(r) {
  return `${r.rating}${r.provisional ? '?' : ''} ± ${r.deviation}`;
}

/**
 * @param {import('./main.js').Page} page
 * @param {import('./protocol').KindRecord} k
 */
function kindSection(page, k) {
  const chart = k.history.length > 1
    ? svg('svg', { class: 'rating-chart', viewBox: '0 0 200 50', preserveAspectRatio: 'none', role: 'img', 'aria-label': t('web.profile_chart', { count: k.history.length }) },
        svg('polyline', { points: chartPoints(k.history, 200, 50), fill: 'none', 'stroke-width': 1.5, 'vector-effect': 'non-scaling-stroke' }))
    : null;
  const best = k.best_win;
  return h(
    'section',
    { class: 'profile-kind', dataset: { game: k.game } },
    h('h3', {}, t(`create.game_${k.game}`)),
    h('p', { class: 'rating' }, h('strong', {}, ratingText(k.rating)), ' · ', k.rank ? t('web.profile_rank', { rank: k.rank }) : t('web.profile_unranked')),
    h('p', {}, t('plain.standing', { games: k.games, wins: k.wins, losses: k.losses, draws: k.draws })),
    k.matches && k.matches.won + k.matches.lost + k.matches.drawn > 0 ? h('p', { class: 'matches' }, t('match.profile', { won: k.matches.won, lost: k.matches.lost, drawn: k.matches.drawn })) : null,
    best
      ? h('p', {}, t('web.profile_best_win', { name: best.opponent, rating: best.opponent_rating }), ' ',
          h('button', { type: 'button', class: 'small replay', onclick: () => page.send({ Replay: best.game }) }, t('keys.open_replay_short')))
      : null,
    chart,
  );
}

/**
 * @param {HTMLElement} root
 * @param {import('./protocol').Profile} p
 * @param {import('./main.js').Page} page
 * @param {import('./main.js').Actions} act
 */
export function renderProfile(root, p, page, act) {
  const who = p.bot ? t('seat.bot', { level: t(`level.${levelName(p.bot)}`) }) : p.bot_account ? `${p.name} ${t('challenge.bot_tag')}` : p.name;
  // Anyone but oneself can be challenged from their profile (the server's bot by its name).
  const challenge =
    p.name === page.me.name
      ? null
      : h('button', { id: 'btn-challenge', type: 'button', class: 'primary', onclick: () => act.challengeWho(p.bot ? botName(p.bot) : p.name) }, t('keys.challenge_player_short'));
  const since = p.registered_at_ms
    ? t('web.profile_registered', { date: new Date(p.registered_at_ms).toLocaleDateString() })
    : t('web.profile_first_seen', { date: new Date(p.first_seen_ms).toLocaleDateString() });
  fill(
    root,
    h(
      'div',
      { class: 'records profile', id: 'profile' },
      h('div', { class: 'lobby-head' }, h('h2', { id: 'profile-name' }, who), h('div', { class: 'lobby-buttons' }, challenge, h('button', { id: 'btn-back', type: 'button', onclick: () => act.toLobby() }, t('keys.back_to_lobby_short')))),
      h('p', { class: 'muted' }, since),
      h('div', { class: 'profile-kinds' }, p.games.map((k) => kindSection(page, k))),
      h('h3', {}, t('web.profile_recent')),
      p.recent.length ? h('ul', { class: 'rooms' }, p.recent.map((g) => gameRow(page, g))) : h('p', { class: 'empty' }, t('history.empty')),
    ),
  );
}
