// @ts-check
// Tournaments on the page: the list (from the lobby), one tournament's screen (details,
// join and withdraw, the organiser's actions, standings with the server's tie-breaks,
// the crosstable, every round's pairings with results, "your game"), the create form
// and a printable standings page. Thin: everything shown is what the server sent in
// `Tournaments` / `Tournament` (docs/src/playing/tournaments.md); the page never pairs,
// scores or breaks ties itself. When a round is paired the server places a free player
// in their game's room (a `Joined` follows, which main.js shows); `TournamentGame` is
// said in the status line and kept for the "your game" button.
//
// Map: the state (`noTournaments`, `applyTournament`: pure, tested in web/test); the
// words (`formatText`, `points`, `tieBreakValue`, `resultText`); `onTournamentMsg` (a
// server message, with the page's hooks); `render` (the three screens) and `tick` (the
// arena's clock, the list's refresh); the create form.

import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { createForm, levelPlace } from './create.js';
import { LEVELS } from './notation.js';
import { gameLine, timeLine, matchFormatText } from './room.js';

/** @typedef {import('./protocol').TournamentView} View */
/** @typedef {import('./protocol').TournamentSummary} Summary */
/** @typedef {import('./protocol').TournamentFormat} Format */
/** @typedef {import('./protocol').ServerMsg} ServerMsg */
/** @typedef {import('./protocol').ClientMsg} ClientMsg */

/**
 * What the page knows of tournaments: the list, the one open (its number and its last
 * view, with the page's clock when it came), the time control of every tournament
 * whose view it has seen (the list line does not carry it), the last game it was told
 * of, and the name of a tournament it asked to create (its view, when it comes, opens).
 * @typedef {{
 *   list: Summary[],
 *   open: number | null,
 *   view: View | null,
 *   viewAt: number,
 *   game: import('./protocol').TournamentGame | null,
 *   creating: string | null,
 *   ticks: number,
 * }} Tournaments
 */

/**
 * What main.js lends this module: the page, which screen is shown, showing one,
 * drawing the page again, its dialogs and sound, the server's stone reader.
 * @typedef {{
 *   page: import('./main.js').Page,
 *   screen: () => string,
 *   show: (name: 'lobby' | 'tournaments' | 'tournament' | 'tournament-print') => void,
 *   render: () => void,
 *   showDialog: (d: import('./main.js').Dialog) => void,
 *   closeDialog: () => void,
 *   readStones: import('./create.js').ReadStones,
 *   bell: (kind: 'move' | 'offer' | 'end') => void,
 * }} Hooks
 */

/** @returns {Tournaments} */
export function noTournaments() {
  return { list: [], open: null, view: null, viewAt: 0, game: null, creating: null, ticks: 0 };
}

/**
 * Takes in one server message about tournaments; returns what it changed ('list',
 * 'same': the list as it was, 'view': the open tournament's, 'made': the one this page
 * (`me`) just created, now open, 'game', 'over') or null for messages it ignores.
 * @param {Tournaments} state
 * @param {ServerMsg} msg
 * @param {number} now
 * @param {string} me
 * @returns {'list' | 'same' | 'view' | 'made' | 'game' | 'over' | null}
 */
export function applyTournament(state, msg, now, me) {
  if (typeof msg !== 'object' || msg === null) return null;
  if ('Tournaments' in msg) {
    // The list asked again every few seconds: drawn again only when it changed (a
    // redraw would take the keyboard's focus away).
    const same = JSON.stringify(state.list) === JSON.stringify(msg.Tournaments);
    state.list = msg.Tournaments;
    return same ? 'same' : 'list';
  }
  if ('Tournament' in msg) {
    const view = msg.Tournament;
    const id = view.summary.id;
    const i = state.list.findIndex((s) => s.id === id);
    if (i === -1) state.list.unshift(view.summary);
    else state.list[i] = view.summary;
    const made = state.creating !== null && state.creating === view.settings.name && organises(view, me) && view.summary.status === 'entries';
    if (made) {
      state.creating = null;
      state.open = id;
    }
    if (state.open !== id) return 'list';
    state.view = view;
    state.viewAt = now;
    return made ? 'made' : 'view';
  }
  if ('TournamentGame' in msg) {
    state.game = msg.TournamentGame;
    return 'game';
  }
  if ('TournamentOver' in msg) return 'over';
  return null;
}

/**
 * The entrant this page plays as (by name, as the server keeps seats), or null.
 * @param {View} view
 * @param {string} me
 */
export function myEntrant(view, me) {
  const key = me.toLowerCase();
  return view.entrants.find((e) => !e.bot && e.name.toLowerCase() === key) || null;
}

/**
 * This page's board being played (the server's room for it), or null.
 * @param {View} view
 * @param {string} me
 */
export function myBoard(view, me) {
  const e = myEntrant(view, me);
  if (!e) return null;
  return view.boards.find((b) => b.result == null && b.room != null && (b.white === e.number || b.black === e.number)) || null;
}

/**
 * Whether `me` runs the tournament.
 * @param {View | Summary} v
 * @param {string} me
 */
export function organises(v, me) {
  const s = 'summary' in v ? v.summary : v;
  return s.organiser.toLowerCase() === me.toLowerCase();
}

/**
 * Points in tenths as a score sheet writes them: `2`, `2½`, `½`, `3.3`.
 * @param {number} tenths
 */
export function points(tenths) {
  const whole = Math.floor(tenths / 10);
  const rest = tenths % 10;
  if (rest === 0) return String(whole);
  if (rest === 5) return whole === 0 ? '½' : `${whole}½`;
  return `${whole}.${rest}`;
}

/**
 * A tie-break's value in hundredths, as a number with no trailing zeros: `4.5`, `12`.
 * @param {number} hundredths
 */
export function tieBreakValue(hundredths) {
  return String(Number((hundredths / 100).toFixed(2)));
}

/** The FIDE abbreviations, as the protocol's `TieBreak::code` writes them. */
export const TIE_BREAK_CODES = /** @type {const} */ ({
  buchholz: 'BH',
  buchholz_cut1: 'BH-C1',
  sonneborn_berger: 'SB',
  direct_encounter: 'DE',
  wins: 'WIN',
  games_won: 'WON',
});

/** The organiser's default order (the protocol's `TieBreak::DEFAULT_ORDER`). */
const DEFAULT_TIE_BREAKS = 'BH-C1, BH, SB, DE, WIN';

/**
 * Tie-break abbreviations typed by the organiser (`BH-C1, SB`) as the protocol's
 * names; null if one is unknown.
 * @param {string} text
 * @returns {import('./protocol').TieBreak[] | null}
 */
export function readTieBreaks(text) {
  /** @type {import('./protocol').TieBreak[]} */
  const out = [];
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    const found = Object.entries(TIE_BREAK_CODES).find(([name, code]) => code.toLowerCase() === word.toLowerCase() || name === word.toLowerCase());
    if (!found) return null;
    out.push(/** @type {import('./protocol').TieBreak} */ (found[0]));
  }
  return out;
}

/** Results as score sheets write them (the protocol's `BoardResult::text`). */
export const RESULT_TEXT = /** @type {const} */ ({
  white_wins: '1-0',
  draw: '½-½',
  black_wins: '0-1',
  white_wins_by_forfeit: '+/−',
  black_wins_by_forfeit: '−/+',
  double_forfeit: '−/−',
});

/**
 * Whether room `roomId` holds this page's game of an arena that allows berserk (the
 * last game the server told of, and the tournament's format as its view or list line
 * says). Whether it can still be done now (before one's first move, on a game clock)
 * the room knows; the server refuses with a sentence where it cannot.
 * @param {Tournaments} state
 * @param {number} roomId
 */
export function berserkAllowed(state, roomId) {
  const g = state.game;
  if (!g || g.room !== roomId) return false;
  const format = state.view && state.view.summary.id === g.tournament
    ? state.view.summary.format
    : (state.list.find((s) => s.id === g.tournament) || { format: null }).format;
  return !!format && 'arena' in format && !!format.arena && format.arena.berserk;
}

/**
 * The format in words: `Swiss, 5 rounds`, `Round robin (double)`, `Arena, 45 minutes,
 * berserk`.
 * @param {Format} f
 */
export function formatText(f) {
  if ('swiss' in f && f.swiss) return `${t('tournament.swiss')}, ${t('tournament.rounds', { n: f.swiss.rounds })}`;
  if ('round_robin' in f && f.round_robin) return f.round_robin.double ? `${t('tournament.round_robin')} (${t('tournament.double')})` : t('tournament.round_robin');
  const a = f.arena;
  const minutes = a.seconds % 60 === 0 ? t('tournament.minutes', { n: a.seconds / 60 }) : `${a.seconds} s`;
  return [t('tournament.arena'), minutes, a.berserk ? t('web_tournament.berserk') : null].filter(Boolean).join(', ');
}

/**
 * 'swiss', 'round_robin' or 'arena'.
 * @param {Format} f
 */
function kindOf(f) {
  return 'swiss' in f && f.swiss ? 'swiss' : 'round_robin' in f && f.round_robin ? 'round_robin' : 'arena';
}

/**
 * Where it stands: `running, round 2 of 5`.
 * @param {Summary} s
 */
function statusText(s) {
  const status = t(`tournament.status_${s.status}`);
  if (s.rounds > 0 && s.round > 0) return `${status}, ${t('tournament.round_of', { round: s.round, rounds: s.rounds })}`;
  if (s.round > 0) return `${status}, ${t('web_tournament.waves', { n: s.round })}`;
  return status;
}

/** @param {number} ms */
function clockText(ms) {
  const secs = Math.max(0, Math.round(ms / 1000));
  const m = Math.floor(secs / 60);
  const s = secs % 60;
  return m >= 60 ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}:${String(s).padStart(2, '0')}` : `${m}:${String(s).padStart(2, '0')}`;
}

/**
 * The arena's time left or the time to the set start, at page time `now`; '' if none.
 * @param {Tournaments} state
 * @param {number} now
 */
export function countdown(state, now) {
  const v = state.view;
  if (!v) return '';
  const gone = now - state.viewAt;
  if (v.ends_in_ms != null) return t('web_tournament.ends_in', { time: clockText(v.ends_in_ms - gone) });
  if (v.starts_in_ms != null) return t('web_tournament.starts_in', { time: clockText(v.starts_in_ms - gone) });
  return '';
}

/**
 * A server message about tournaments, with what follows from it on the page (the
 * status line, the bell, drawing the screen again). False for other messages.
 * @param {Tournaments} state
 * @param {ServerMsg} msg
 * @param {Hooks} k
 */
export function onTournamentMsg(state, msg, k) {
  const change = applyTournament(state, msg, performance.now(), k.page.me.name);
  if (!change) return false;
  if (change === 'same') return true;
  const screen = k.screen();
  if (change === 'game' && typeof msg === 'object' && 'TournamentGame' in msg) {
    const g = msg.TournamentGame;
    k.bell('offer');
    k.page.notice(t('tournament.game_ready', { round: g.round, board: g.board, opponent: g.opponent, room: g.room, colour: t(g.white ? 'tournament.white' : 'tournament.black'), secs: g.forfeit_secs }));
  } else if (change === 'over' && typeof msg === 'object' && 'TournamentOver' in msg) {
    k.page.notice(t('tournament.over', { id: msg.TournamentOver.id, winners: msg.TournamentOver.winners.join(', ') }));
  }
  // A tournament just made opens (its view came back to the organiser).
  if (change === 'made') {
    k.closeDialog();
    k.show('tournament');
    return true;
  }
  if (screen === 'tournaments' || screen === 'tournament' || screen === 'tournament-print') k.render();
  return true;
}

// ---- the screens --------------------------------------------------------------------

/**
 * Opens the list: asks the server for it (its answer draws it again).
 * @param {Tournaments} state
 * @param {Hooks} k
 */
export function openList(state, k) {
  state.open = null;
  state.view = null;
  k.page.send('ListTournaments');
  k.show('tournaments');
}

/**
 * Opens tournament `id` (following it from now on: the server sends every change).
 * @param {Tournaments} state
 * @param {number} id
 * @param {Hooks} k
 */
function openOne(state, id, k) {
  if (state.open !== id) state.view = null;
  state.open = id;
  k.page.send({ ShowTournament: id });
  k.show('tournament');
}

/**
 * The page left room `room`: if it was this page's latest tournament game, its
 * tournament's screen opens (true); else nothing happens (false).
 * @param {Tournaments} state
 * @param {number | null} room
 * @param {Hooks} k
 */
export function leftRoom(state, room, k) {
  const g = state.game;
  if (!g || room === null || g.room !== room) return false;
  openOne(state, g.tournament, k);
  return true;
}

/**
 * The connection came back: on a tournament's screen (or the list) it is asked for
 * again and stays (true); else false.
 * @param {Tournaments} state
 * @param {Hooks} k
 */
export function reconnected(state, k) {
  const screen = k.screen();
  if (screen === 'tournaments') {
    openList(state, k);
    return true;
  }
  if ((screen === 'tournament' || screen === 'tournament-print') && state.open !== null) {
    k.page.send({ ShowTournament: state.open });
    k.render();
    return true;
  }
  return false;
}

/**
 * Draws the screen `name` ('tournaments', 'tournament', 'tournament-print') into root.
 * @param {HTMLElement} root
 * @param {string} name
 * @param {Tournaments} state
 * @param {Hooks} k
 */
export function render(root, name, state, k) {
  if (name === 'tournaments') return renderList(root, state, k);
  if (!state.view) return fill(root, h('p', { class: 'empty', id: 'tournament' }, t('web.connecting')));
  if (name === 'tournament-print') return renderPrint(root, state, k);
  return renderOne(root, state, k);
}

/**
 * @param {HTMLElement} root
 * @param {Tournaments} state
 * @param {Hooks} k
 */
function renderList(root, state, k) {
  const rows = state.list.map((s) => {
    return h(
      'li',
      { class: 'room-row tourney-row', dataset: { tournament: s.id } },
      h(
        'div',
        { class: 'room-info' },
        h('strong', {}, `#${s.id} ${s.name}`),
        h('span', { class: 'muted' }, [formatText(s.format), t(`create.game_${s.game}`), timeLine(s.time), t(s.rated ? 'challenge.rated' : 'challenge.casual')].filter(Boolean).join(' · ')),
        h('span', { class: `status ${s.status === 'running' ? 'playing' : ''}` }, statusText(s)),
        h('span', { class: 'muted' }, t('web_tournament.players_by', { n: s.entrants, organiser: s.organiser })),
      ),
      h('div', { class: 'room-buttons' }, h('button', { class: 'open', type: 'button', onclick: () => openOne(state, s.id, k) }, t('web_tournament.open'))),
    );
  });
  fill(
    root,
    h(
      'div',
      { class: 'lobby tourneys' },
      h(
        'div',
        { class: 'lobby-head' },
        h('h2', {}, t('tournament.title')),
        h(
          'div',
          { class: 'lobby-buttons' },
          k.page.me.account ? h('button', { id: 'btn-t-create', type: 'button', class: 'primary', onclick: () => openCreate(state, k) }, t('web_tournament.create')) : null,
          h('button', { id: 'btn-t-refresh', type: 'button', onclick: () => k.page.send('ListTournaments') }, t('keys.refresh_short')),
          h('button', { id: 'btn-back', type: 'button', onclick: () => k.show('lobby') }, t('keys.back_to_lobby_short')),
        ),
      ),
      k.page.me.account ? null : h('p', { class: 'muted' }, t('web_tournament.guest_note')),
      rows.length ? h('ul', { id: 'tournaments', class: 'rooms' }, rows) : h('p', { id: 'tournaments', class: 'empty' }, t('tournament.none')),
    ),
  );
}

/**
 * An entrant's name as shown: a bot's level, a withdrawn player struck through.
 * @param {View} v
 * @param {number} number
 */
function nameOf(v, number) {
  const e = v.entrants.find((x) => x.number === number);
  if (!e) return '?';
  return e.bot ? `⚙ ${e.name}` : e.name;
}

/**
 * The standings table: place, name, points, each tie-break the server sent.
 * @param {View} v
 * @param {string} me
 */
function standingsTable(v, me) {
  const arena = v.tie_breaks.length === 0 && kindOf(v.settings.format) === 'arena';
  const mine = myEntrant(v, me);
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { id: 't-standings-table', class: 'standings' },
      h('thead', {}, h('tr', {}, ['#', t('tournament.name'), t('web_tournament.points'), ...v.tie_breaks.map((b) => TIE_BREAK_CODES[b])].map((c) => h('th', { scope: 'col' }, c)))),
      h(
        'tbody',
        {},
        v.standings.map((l) => {
          const e = v.entrants.find((x) => x.number === l.entrant);
          return h(
            'tr',
            { class: mine && mine.number === l.entrant ? 'me' : '', dataset: { entrant: l.entrant } },
            h('td', {}, l.rank),
            h(
              'td',
              { class: e && e.withdrawn ? 'withdrawn' : '' },
              nameOf(v, l.entrant),
              arena && l.on_fire ? ' 🔥' : '',
              e && e.away && !e.withdrawn ? h('span', { class: 'muted away-mark' }, ` ${t('web_tournament.away')}`) : null,
            ),
            h('td', { class: 'pts' }, points(l.points)),
            l.tie_breaks.map((x) => h('td', { class: 'num' }, tieBreakValue(x))),
          );
        }),
      ),
    ),
  );
}

/**
 * One crosstable cell: opponent's number, colour and points (`5w1`), `+`/`−` for a
 * forfeit, the bye's points, `–` for nothing.
 * @param {import('./protocol').CrossCell} c
 */
function crossCell(c) {
  if (c.opponent == null) return c.points == null || c.points === 0 ? '–' : `${t('tournament.bye')} ${points(c.points)}`;
  const colour = c.white === true ? 'w' : c.white === false ? 'b' : '';
  if (c.points == null) return `${c.opponent}${colour} …`;
  if (!c.played) return `${c.opponent}${colour} ${c.points > 0 ? '+' : '−'}`;
  return `${c.opponent}${colour} ${points(c.points)}`;
}

/**
 * The crosstable, by entrant number, with each one's points.
 * @param {View} v
 * @param {string} me
 */
function crosstable(v, me) {
  if (!v.crosstable.length) return null;
  const rounds = Math.max(0, ...v.crosstable.map((r) => r.cells.length));
  const mine = myEntrant(v, me);
  const pts = new Map(v.standings.map((l) => [l.entrant, l.points]));
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { id: 't-crosstable-table', class: 'crosstable' },
      h('thead', {}, h('tr', {}, ['№', t('tournament.name'), ...Array.from({ length: rounds }, (_, i) => t('web_tournament.round_short', { n: i + 1 })), t('web_tournament.points')].map((c) => h('th', { scope: 'col' }, c)))),
      h(
        'tbody',
        {},
        v.crosstable.map((r) =>
          h(
            'tr',
            { class: mine && mine.number === r.entrant ? 'me' : '', dataset: { entrant: r.entrant } },
            h('td', {}, r.entrant),
            h('td', {}, nameOf(v, r.entrant)),
            r.cells.map((c) => h('td', { class: 'cell-x' }, crossCell(c))),
            h('td', { class: 'pts' }, pts.has(r.entrant) ? points(pts.get(r.entrant)) : ''),
          ),
        ),
      ),
    ),
  );
}

/**
 * The tournament's details in words.
 * @param {View} v
 */
function details(v) {
  const s = v.settings;
  return [
    formatText(s.format),
    gameLine(s.room),
    timeLine(s.room.time),
    s.room.match_format ? matchFormatText(s.room.match_format) : null,
    t(s.rated ? 'challenge.rated' : 'challenge.casual'),
    t('web_tournament.forfeit_after', { secs: s.forfeit_secs }),
    kindOf(s.format) === 'arena' ? null : t(`web_tournament.bye_${s.bye || 'win'}`),
    kindOf(s.format) === 'swiss' ? t(`web_tournament.requested_bye_${s.requested_bye || 'draw'}`) : null,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * @param {HTMLElement} root
 * @param {Tournaments} state
 * @param {Hooks} k
 */
function renderOne(root, state, k) {
  const v = state.view;
  const s = v.summary;
  const me = k.page.me.name;
  const send = k.page.send;
  const id = s.id;
  const mine = myEntrant(v, me);
  const entered = !!mine && !mine.withdrawn;
  const organiser = k.page.me.account && organises(v, me);
  const kind = kindOf(v.settings.format);
  const over = s.status === 'over';
  const board = myBoard(v, me);
  const myGame = board
    ? h(
        'p',
        { id: 't-my-game', class: 'my-game' },
        t('web_tournament.my_game', { round: board.round, board: board.board, opponent: nameOf(v, board.white === mine.number ? board.black : board.white), room: board.room }),
        ' ',
        h('button', { id: 'btn-my-game', type: 'button', class: 'primary', onclick: () => send({ JoinRoom: board.room }) }, t('web_tournament.go_to_game')),
      )
    : null;
  const joinButtons = over
    ? null
    : entered
      ? h('button', { id: 'btn-t-withdraw', type: 'button', onclick: () => send({ WithdrawTournament: id }) }, t('web_tournament.withdraw'))
      : h('button', { id: 'btn-t-join', type: 'button', class: 'primary', onclick: () => send({ JoinTournament: id }) }, t('web_tournament.join'));
  // A Swiss entrant may ask for a bye before a round is paired (the server scores it
  // and says which round it is for); one asked for can be taken back.
  const myBye = mine ? (v.bye_requests || []).find((b) => b.entrant === mine.number) : undefined;
  const byeButton =
    entered && kind === 'swiss' && !over
      ? myBye
        ? h('button', { id: 'btn-t-unbye', type: 'button', onclick: () => send({ RequestBye: { id, round: myBye.round, cancel: true } }) }, t('web_tournament.unbye', { round: myBye.round }))
        : h('button', { id: 'btn-t-bye', type: 'button', onclick: () => send({ RequestBye: { id, round: null, cancel: false } }) }, t('web_tournament.bye'))
      : null;
  const byesAsked = (v.bye_requests || []).length
    ? h('p', { id: 't-bye-requests', class: 'muted' }, (v.bye_requests || []).map((b) => t('tournament.bye_asked', { round: b.round, name: nameOf(v, b.entrant) })).join(' '))
    : null;
  const exports = h(
    'p',
    { id: 't-exports', class: 'exports' },
    t('web_tournament.download'),
    ' ',
    (kind === 'arena' ? ['csv', 'json'] : ['trf', 'csv', 'json']).map((ext) => [h('a', { href: `/tournaments/${id}.${ext}`, download: `tournament-${id}.${ext}`, class: `export-${ext}` }, ext.toUpperCase()), ' ']),
  );
  fill(
    root,
    h(
      'div',
      { class: 'tourney', id: 'tournament', dataset: { tournament: id } },
      h(
        'div',
        { class: 'lobby-head' },
        h('h2', { id: 't-name' }, `#${id} ${s.name}`),
        h(
          'div',
          { class: 'lobby-buttons' },
          joinButtons,
          byeButton,
          h('button', { id: 'btn-t-print', type: 'button', onclick: () => k.show('tournament-print') }, t('web_tournament.printable')),
          h('button', { id: 'btn-t-list', type: 'button', onclick: () => openList(state, k) }, t('tournament.title')),
        ),
      ),
      h('p', { id: 't-details', class: 'muted' }, details(v)),
      h(
        'p',
        { id: 't-status' },
        h('span', { class: `status ${s.status === 'running' ? 'playing' : ''}` }, statusText(s)),
        ' · ',
        t('web_tournament.players_by', { n: s.entrants, organiser: s.organiser }),
        entered ? ` · ${t('tournament.entered')}` : '',
        ' ',
        h('span', { id: 't-clock' }, countdown(state, performance.now())),
      ),
      myGame,
      byesAsked,
      organiser ? organiserPanel(v, send) : null,
      h(
        'div',
        { class: 'tourney-grid' },
        h('section', { id: 't-standings', class: 'panel' }, h('h3', {}, t('tournament.standings')), v.standings.length ? standingsTable(v, me) : h('p', { class: 'empty' }, t('web_tournament.no_standings'))),
        kind === 'arena' ? null : h('section', { id: 't-crosstable', class: 'panel' }, h('h3', {}, t('tournament.crosstable')), crosstable(v, me) || h('p', { class: 'empty' }, t('web_tournament.no_standings'))),
        h('section', { id: 't-rounds', class: 'panel' }, h('h3', {}, t('web_tournament.pairings')), rounds(v, me, organiser, send)),
        h('section', { id: 't-entrants', class: 'panel' }, h('h3', {}, `${t('tournament.entrants')} (${v.entrants.length})`), entrants(v, organiser && !over, send)),
      ),
      exports,
    ),
  );
}

/**
 * The organiser's actions the protocol has, those that apply now.
 * @param {View} v
 * @param {(msg: ClientMsg) => boolean} send
 */
function organiserPanel(v, send) {
  const s = v.summary;
  const id = s.id;
  const kind = kindOf(v.settings.format);
  if (s.status === 'over') return null;
  const level = h(
    'select',
    { id: 't-bot-level', 'aria-label': t('create.bot') },
    LEVELS.map((l, i) => h('option', { value: l }, levelPlace(l, i))),
  );
  // A bot account (an engine on `banco bot`) by name: whenever a player could still enter.
  const entering = s.status === 'entries' || kind === 'arena' || (kind === 'swiss' && s.round < s.rounds);
  const botName = h('input', { id: 't-bot-account', type: 'text', maxlength: '24', placeholder: t('web_tournament.bot_account'), 'aria-label': t('web_tournament.bot_account') });
  const enterBotAccount = () => {
    const name = botName.value.trim();
    if (name && send({ EnterBotAccount: { id, name } })) botName.value = '';
  };
  botName.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') enterBotAccount();
  });
  const button = (/** @type {string} */ bid, /** @type {string} */ key, /** @type {ClientMsg} */ msg, primary = false) => h('button', { id: bid, type: 'button', class: primary ? 'primary' : '', onclick: () => send(msg) }, t(key));
  return h(
    'section',
    { id: 't-organiser', class: 'panel organiser' },
    h('h3', {}, t('web_tournament.organiser')),
    h(
      'div',
      { class: 'actions' },
      s.status === 'entries' ? button('btn-t-start', 'web_tournament.start', { StartTournament: id }, true) : null,
      s.status === 'running' && kind !== 'arena' ? button('btn-t-pair', 'web_tournament.pair', { PairRound: id }) : null,
      s.status === 'running' ? button('btn-t-pause', 'web_tournament.pause', { PauseTournament: { id, paused: true } }) : null,
      s.status === 'paused' ? button('btn-t-resume', 'web_tournament.resume', { PauseTournament: { id, paused: false } }, true) : null,
      kind === 'swiss' ? button('btn-t-round', 'web_tournament.add_round', { AddRound: id }) : null,
      s.status === 'entries'
        ? h(
            'span',
            { class: 'add-bot' },
            level,
            h('button', { id: 'btn-t-bot', type: 'button', onclick: () => send({ AddTournamentBot: { id, level: /** @type {import('./protocol').Level} */ (level.value) } }) }, t('web_tournament.add_bot')),
          )
        : null,
      entering
        ? h('span', { class: 'add-bot' }, botName, h('button', { id: 'btn-t-bot-account', type: 'button', onclick: enterBotAccount }, t('web_tournament.enter_bot_account')))
        : null,
    ),
  );
}

/**
 * The entrants: number, name, rating; the organiser's remove button.
 * @param {View} v
 * @param {boolean} removable
 * @param {(msg: ClientMsg) => boolean} send
 */
function entrants(v, removable, send) {
  if (!v.entrants.length) return h('p', { class: 'empty' }, t('web_tournament.no_entrants'));
  return h(
    'ul',
    { class: 'entrant-list' },
    v.entrants.map((e) =>
      h(
        'li',
        { class: e.withdrawn ? 'withdrawn' : e.away ? 'away' : '', dataset: { entrant: e.number } },
        h(
          'span',
          {},
          `${e.number}. ${e.bot ? '⚙ ' : ''}${e.name}`,
          e.rating ? h('span', { class: 'muted' }, ` (${e.rating})`) : null,
          e.withdrawn ? h('span', { class: 'muted' }, ` — ${t('web_tournament.withdrawn')}`) : e.away ? h('span', { class: 'muted away-mark' }, ` — ${t('web_tournament.away')}`) : null,
        ),
        removable && !e.withdrawn ? h('button', { type: 'button', class: 'small remove', onclick: () => send({ RemoveEntrant: { id: v.summary.id, name: e.name } }) }, t('web_tournament.remove')) : null,
      ),
    ),
  );
}

/**
 * Every round's boards (newest first) with results and rooms, and its byes; the
 * organiser sets a result by hand.
 * @param {View} v
 * @param {string} me
 * @param {boolean} organiser
 * @param {(msg: ClientMsg) => boolean} send
 */
function rounds(v, me, organiser, send) {
  if (!v.boards.length && !v.byes.length) return h('p', { class: 'empty' }, t('web_tournament.no_pairings'));
  const mine = myEntrant(v, me);
  const last = Math.max(0, ...v.boards.map((b) => b.round), ...v.byes.map((b) => b.round));
  const out = [];
  for (let r = last; r >= 1; r--) {
    const boards = v.boards.filter((b) => b.round === r);
    const byes = v.byes.filter((b) => b.round === r);
    out.push(
      h(
        'div',
        { class: 'round', dataset: { round: r } },
        // The terminal's "Round 2:" as a heading.
        h('h4', {}, t('tournament.round', { round: r }).replace(/:\s*$/, '')),
        h(
          'ul',
          { class: 'boards' },
          boards.map((b) => {
            const me1 = mine && (b.white === mine.number || b.black === mine.number);
            const result = b.result ? RESULT_TEXT[b.result] : t('tournament.playing');
            let setter = null;
            if (organiser && v.summary.status !== 'over') {
              const choice = h(
                'select',
                { class: 'set-result', 'aria-label': t('web_tournament.set_result') },
                h('option', { value: '' }, t('web_tournament.set_result')),
                Object.entries(RESULT_TEXT).map(([value, text]) => h('option', { value }, text)),
              );
              choice.addEventListener('change', () => {
                if (choice.value) send({ SetResult: { id: v.summary.id, round: b.round, board: b.board, result: /** @type {import('./protocol').BoardResult} */ (choice.value) } });
              });
              setter = choice;
            }
            return h(
              'li',
              { class: `board ${me1 ? 'mine' : ''}`, dataset: { board: b.board } },
              h('span', { class: 'bd' }, `${b.board}.`),
              h('span', { class: 'white' }, nameOf(v, b.white), b.berserk && b.berserk[0] ? ' ⚡' : ''),
              h('span', { class: `result ${b.result ? '' : 'muted'}` }, result, b.by_hand ? h('small', { class: 'muted' }, ` (${t('tournament.by_hand')})`) : null),
              h('span', { class: 'black' }, nameOf(v, b.black), b.berserk && b.berserk[1] ? ' ⚡' : ''),
              h(
                'span',
                { class: 'board-actions' },
                b.room != null && b.result == null ? h('button', { type: 'button', class: 'small watch', onclick: () => send(me1 ? { JoinRoom: b.room } : { WatchRoom: b.room }) }, me1 ? t('web_tournament.go_to_game') : `${t('keys.watch_short')} #${b.room}`) : null,
                setter,
              ),
            );
          }),
          byes.map((y) => h('li', { class: 'board bye' }, h('span', { class: 'bd' }, '–'), h('span', { class: 'white' }, nameOf(v, y.entrant)), h('span', { class: 'result' }, `${t('tournament.bye')} ${points(y.points)}`))),
        ),
      ),
    );
  }
  return out;
}

/**
 * The printable standings: the standings and the crosstable, nothing else (print CSS
 * hides the page's header and these buttons).
 * @param {HTMLElement} root
 * @param {Tournaments} state
 * @param {Hooks} k
 */
function renderPrint(root, state, k) {
  const v = state.view;
  const me = k.page.me.name;
  fill(
    root,
    h(
      'article',
      { id: 't-print', class: 'print-sheet' },
      h(
        'div',
        { class: 'no-print lobby-buttons' },
        h('button', { id: 'btn-print', type: 'button', class: 'primary', onclick: () => window.print() }, t('web_tournament.print')),
        h('button', { id: 'btn-print-back', type: 'button', onclick: () => k.show('tournament') }, t('web_tournament.back')),
      ),
      h('h1', {}, v.summary.name),
      h('p', {}, details(v)),
      h('p', {}, statusText(v.summary), ' · ', t('web_tournament.players_by', { n: v.summary.entrants, organiser: v.summary.organiser })),
      h('h2', {}, t('tournament.standings')),
      v.standings.length ? standingsTable(v, me) : h('p', {}, t('web_tournament.no_standings')),
      v.crosstable.length ? [h('h2', {}, t('tournament.crosstable')), crosstable(v, me)] : null,
      v.tie_breaks.length ? h('p', { class: 'legend' }, v.tie_breaks.map((b) => `${TIE_BREAK_CODES[b]}: ${t(`web_tournament.tb_${b}`)}`).join(' · ')) : null,
      h('p', { class: 'legend' }, t('web_tournament.printed', { server: k.page.me.server, date: new Date().toLocaleString(document.documentElement.lang) })),
    ),
  );
}

/**
 * Once a second: the open tournament's clock; every fifth, the list asked again while
 * it is shown (the server sends the list when asked).
 * @param {Tournaments} state
 * @param {Hooks} k
 */
export function tick(state, k) {
  state.ticks += 1;
  const screen = k.screen();
  if (screen === 'tournament') {
    const el = document.getElementById('t-clock');
    if (el) el.textContent = countdown(state, performance.now());
  }
  if (screen === 'tournaments' && state.ticks % 5 === 0) k.page.send('ListTournaments');
}

// ---- the create form -----------------------------------------------------------------

/**
 * @param {string} id
 * @param {string} label
 * @param {Node} input
 * @param {string} [cls]
 */
function field(id, label, input, cls = '') {
  return h('label', { class: `field ${cls}`, for: id }, h('span', {}, label), input);
}

/**
 * The organiser's form: the tournament's own choices over the room form's (game, rule
 * and board, time, hints, match, rated), whose seats and first move the tournament sets.
 * @param {Tournaments} state
 * @param {Hooks} k
 */
export function openCreate(state, k) {
  const num = (/** @type {string} */ id, /** @type {number} */ value, /** @type {number} */ min, /** @type {number} */ max) => h('input', { id, type: 'number', value, min, max, inputmode: 'numeric' });
  const error = h('p', { id: 'dialog-error', class: 'error', role: 'alert' });
  const say = (/** @type {string} */ text) => {
    error.textContent = text;
  };
  const own = h(
    'form',
    { id: 'tournament-form', class: 'create' },
    field('tc-name', t('tournament.name'), h('input', { id: 'tc-name', type: 'text', maxlength: 48, autocomplete: 'off', required: true }), 'wide'),
    field('tc-format', t('tournament.format'), h('select', { id: 'tc-format' }, [['swiss', t('tournament.swiss')], ['round_robin', t('tournament.round_robin')], ['arena', t('tournament.arena')]].map(([v, l]) => h('option', { value: v }, l)))),
    h('div', { class: 'swiss-only' }, field('tc-rounds', t('web_tournament.rounds_field'), num('tc-rounds', 5, 1, 20))),
    h('div', { class: 'rr-only' }, field('tc-double', t('web_tournament.rr_field'), h('select', { id: 'tc-double' }, h('option', { value: 'single' }, t('tournament.single')), h('option', { value: 'double' }, t('tournament.double'))))),
    h(
      'div',
      { class: 'arena-only' },
      field('tc-minutes', t('web_tournament.minutes_field'), num('tc-minutes', 45, 1, 360)),
      field('tc-berserk', t('web_tournament.berserk_field'), h('select', { id: 'tc-berserk' }, h('option', { value: 'off' }, t('create.off')), h('option', { value: 'on' }, t('create.on')))),
    ),
    h('div', { class: 'paired-only' }, field('tc-bye', t('web_tournament.bye_field'), h('select', { id: 'tc-bye' }, ['win', 'draw', 'nothing'].map((v) => h('option', { value: v }, t(`web_tournament.bye_${v}`)))))),
    h(
      'div',
      { class: 'swiss-only' },
      field(
        'tc-requested-bye',
        t('web_tournament.requested_bye_field'),
        h('select', { id: 'tc-requested-bye' }, ['draw', 'win', 'nothing'].map((v) => h('option', { value: v }, t(`web_tournament.bye_${v}`)))),
      ),
    ),
    field('tc-forfeit', t('web_tournament.forfeit_field'), num('tc-forfeit', 120, 10, 3600)),
    field('tc-start', t('web_tournament.start_field'), num('tc-start', 0, 0, 1440)),
    h('div', { class: 'paired-only' }, field('tc-tiebreaks', t('web_tournament.tiebreaks_field'), h('input', { id: 'tc-tiebreaks', type: 'text', value: DEFAULT_TIE_BREAKS, autocomplete: 'off' }), 'wide')),
    h('p', { class: 'muted wide' }, t('web_tournament.games_below')),
  );
  /** @type {import('./protocol').TournamentSettings | null} */
  let pending = null;
  // The games' settings: the room form as a challenge has it (two people, no bots,
  // no position to arrange); the first move is the pairing's.
  const games = createForm(
    (room) => {
      if (!pending) return;
      // Rated or casual is the games' choice; the server sets the seats and first move.
      const settings = { ...pending, rated: room.rated, room };
      pending = null;
      state.creating = settings.name;
      // The dialog stays until the tournament's view comes (a refusal is said in it).
      k.page.send({ CreateTournament: settings });
    },
    say,
    () => {},
    k.readStones,
    null,
    { guest: false },
  );
  games.id = 'tournament-games';
  const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (own.querySelector(`#${id}`) || games.querySelector(`#${id}`));
  const first = games.querySelector('#c-first');
  if (first) first.closest('label').hidden = true;
  // A caro pairing is by default a two-game mini-match (one game with each colour), a
  // xiangqi pairing one game: the form starts there.
  const matchDefault = () => {
    const caro = $('c-game').value === 'caro';
    $('c-match').value = caro ? 'games' : 'off';
    $('c-match-games').value = '2';
    games.dispatchEvent(new Event('change'));
  };
  matchDefault();
  games.querySelector('#c-game').addEventListener('change', matchDefault);
  const sync = () => {
    const f = $('tc-format').value;
    own.querySelectorAll('.swiss-only').forEach((el) => {
      /** @type {HTMLElement} */ (el).hidden = f !== 'swiss';
    });
    /** @type {HTMLElement} */ (own.querySelector('.rr-only')).hidden = f !== 'round_robin';
    /** @type {HTMLElement} */ (own.querySelector('.arena-only')).hidden = f !== 'arena';
    own.querySelectorAll('.paired-only').forEach((el) => {
      /** @type {HTMLElement} */ (el).hidden = f === 'arena';
    });
  };
  own.addEventListener('change', sync);
  sync();
  own.addEventListener('submit', (e) => {
    e.preventDefault();
    const int = (/** @type {string} */ id) => Math.round(Number($(id).value));
    const name = $('tc-name').value.trim();
    if (!name) return say(t('tournament.name_needed'));
    const kind = $('tc-format').value;
    /** @type {Format} */
    let format;
    if (kind === 'swiss') format = { swiss: { rounds: int('tc-rounds') } };
    else if (kind === 'round_robin') format = { round_robin: { double: $('tc-double').value === 'double' } };
    else format = { arena: { seconds: int('tc-minutes') * 60, berserk: $('tc-berserk').value === 'on' } };
    const ties = kind === 'arena' ? [] : readTieBreaks($('tc-tiebreaks').value);
    if (ties === null) return say(t('web_tournament.bad_tiebreaks', { codes: Object.values(TIE_BREAK_CODES).join(', ') }));
    const startIn = int('tc-start');
    say('');
    pending = {
      name,
      format,
      rated: true,
      // Filled from the games' form below.
      room: /** @type {any} */ (null),
      start: startIn > 0 ? { at: { unix_ms: Date.now() + startIn * 60000 } } : 'manual',
      bye: /** @type {import('./protocol').ByeValue} */ ($('tc-bye').value),
      requested_bye: /** @type {import('./protocol').ByeValue} */ (kind === 'swiss' ? $('tc-requested-bye').value : 'draw'),
      forfeit_secs: int('tc-forfeit'),
      tie_breaks: ties,
    };
    games.requestSubmit();
  });
  k.showDialog({
    id: 'tournament-create',
    title: t('tournament.create_title'),
    body: [own, h('h3', { class: 'games-title' }, t('tournament.games_title')), games, error],
    buttons: [
      { id: 'tournament-submit', label: t('web_tournament.create_submit'), submit: own },
      { id: 'tournament-cancel', label: t('keys.cancel_short') },
    ],
  });
  $('tc-name').focus();
}
