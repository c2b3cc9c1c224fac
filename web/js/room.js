// @ts-check
// The room screen: the board, the players with their stones and live clocks, the
// status line, the buttons for what applies now (undo, new game, draw, resign, hint,
// four warning, leave; resign the match), the match's score and the break before its
// next game, the move list and the chat. Built once per room; `update`
// redraws the parts that change, so the chat box keeps what is being typed.

import { h, fill } from './dom.js';
import { t, has } from './i18n.js';
import { caroBoard } from './caro.js';
import { xiangqiBoard } from './xiangqi.js';
import { clockText, iccs, levelName, otherSeat, pointName, ruleName, seatIndex, timeControlText } from './notation.js';
import * as S from './state.js';
import { draftRoom, draftTargets, trialSpots } from './draft.js';
import { rove } from './keys.js';
import { fillSwapBanner, swapSentence, swapSteps } from './swap.js';

/**
 * How a seat's player is called: their name, or the bot's level.
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').Seat} seat
 */
export function seatName(room, seat) {
  const i = seatIndex(seat);
  // A seat left empty mid-game still names who played in it while that game is shown.
  const s = room.seats[i] || (room.game && room.sat && room.sat[i]);
  if (!s) return t('seat.free');
  if (s.bot) return t('seat.bot', { level: t(`level.${levelName(s.bot)}`) });
  // A bot account (an engine brought with `banco bot`) is tagged as such everywhere.
  return s.bot_account ? `${s.name} ${t('challenge.bot_tag')}` : s.name;
}

/**
 * X / O, or Red / Black in the page's language.
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').Seat} seat
 */
export function sideWord(room, seat) {
  const side = S.sideOf(room, seat);
  return side === 'red' || side === 'black' ? t(`side.${side}`) : side;
}

/**
 * `15x15, caro rule` or `xiangqi`.
 * @param {{game: import('./protocol').GameSettings}} settings
 */
export function gameLine(settings) {
  if (settings.game.caro) {
    const c = settings.game.caro;
    let line = t('room.caro_line', { size: `${c.width}x${c.height}`, rule: t(`rule.${ruleName(c.rule)}`) });
    if (c.opening === 'balanced') line += `, ${t('room.opening_balanced')}`;
    else if (c.opening === 'swap1' || c.opening === 'swap2') line += `, ${t(`room.opening_${c.opening}`)}`;
    else if (typeof c.opening === 'object' && c.opening.stones) line += `, ${t('room.opening_given', { count: c.opening.stones.length })}`;
    return line;
  }
  return settings.game.xiangqi.fen ? t('room.xiangqi_fen_line') : t('room.xiangqi_line');
}

/**
 * The time control in words: `20s per move`, `clock 5m+3s`, `no clock`.
 * @param {import('./protocol').TimeControl} tc
 */
export function timeLine(tc) {
  if (tc === 'unlimited') return t('time.none');
  const text = timeControlText(tc);
  return tc.per_move ? t('room.per_move', { time: text.replace('/move', '') }) : t('room.clock', { time: text });
}

/**
 * The headline of a game that ended with no result, if this one did: aborted before
 * both players moved ("Game aborted (before both players moved)"), replaced by a new
 * game, or left by both players. Such a game is neither a win nor a draw.
 * @param {import('./protocol').GameOver} over
 */
export function noResult(over) {
  if (over.reason === 'aborted') return `${t('result.aborted')} ${t('reason.aborted_why')}`;
  if (over.reason === 'new_game' || (over.reason === 'abandoned' && !over.winner)) return t('result.no_result');
  return null;
}

/**
 * `You won!`, `You lost.`, `Draw.`, `An won.`, `Game aborted (…)`.
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').GameOver} over
 */
export function headline(room, over) {
  const none = noResult(over);
  if (none) return none;
  const me = S.mySeat(room);
  if (!over.winner) return t('result.draw');
  if (me) return over.winner === me ? t('result.you_won') : t('result.you_lost');
  return t('result.won', { name: seatName(room, over.winner) });
}

/**
 * Why the game ended, from this page's point of view ('' when the headline says it all:
 * an aborted game).
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').GameOver} over
 */
export function reasonText(room, over) {
  if (over.reason === 'aborted') return '';
  if (over.reason === 'abandoned' && !over.winner) return t('reason.abandoned_both');
  const key = `reason.${over.reason}`;
  const loser = over.winner ? otherSeat(over.winner) : null;
  if (loser && loser === S.mySeat(room) && has(`${key}_you`)) return t(`${key}_you`);
  return t(key, { loser: loser ? seatName(room, loser) : '' });
}

/**
 * `Score: An 2, Bình 1.` once the pair has finished a game.
 * @param {import('./state.js').Room} room
 */
export function seriesText(room) {
  const s = room.series;
  const vars = { one: seatName(room, 'one'), two: seatName(room, 'two'), a: s.wins[0], b: s.wins[1], draws: s.draws };
  return s.draws ? t('event.series_draws', vars) : t('event.series', vars);
}

/**
 * A match format in words: `first to 5 (of 9)`, `2 games`.
 * @param {import('./protocol').MatchFormat} format
 */
export function matchFormatText(format) {
  if (format.first_to != null) return t('match.format_first_to', { k: format.first_to, n: format.games });
  return format.games === 1 ? t('match.format_one') : t('match.format_games', { n: format.games });
}

/**
 * Where the room's match stands: `Match: first to 5 (of 9) — An 3, Bình 2`; null in a
 * room without matches.
 * @param {import('./state.js').Room} room
 */
export function matchLine(room) {
  const m = room.match;
  if (!m) {
    const format = room.settings.match_format;
    return format ? t('match.line_waiting', { format: matchFormatText(format) }) : null;
  }
  const vars = { format: matchFormatText(m.format), one: seatName(room, 'one'), two: seatName(room, 'two'), a: m.score.wins[0], b: m.score.wins[1], draws: m.score.draws };
  return m.score.draws ? t('match.line_draws', vars) : t('match.line', vars);
}

/**
 * A match's result from this page's side: `You won the match 3–1!`, `An wins the match
 * 3–1.`, `The match is drawn 1–1.`, `You lost the match; the score stood 1–1.`, then why
 * when it was not played out.
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').MatchResult} result
 */
export function matchOverText(room, result) {
  const wins = result.score.wins;
  const me = S.mySeat(room);
  let headline;
  if (!result.winner) headline = result.reason === 'decided' ? t('match.drawn', { a: wins[0], b: wins[1] }) : t('match.no_winner');
  else {
    const w = seatIndex(result.winner);
    const [a, b] = [wins[w], wins[1 - w]];
    // Resigned, left or abandoned: the score need not favour the winner, so it is said
    // as where it stood, not as the margin of a win (as the terminal says it).
    const early = result.reason === 'decided' ? '' : '_early';
    if (me === result.winner) headline = t(`match.you_won${early}`, { a, b });
    else if (me) headline = t(`match.you_lost${early}`, { a: b, b: a });
    else headline = t(`match.won${early}`, { name: seatName(room, result.winner), a, b });
  }
  if (result.reason === 'decided' || !result.winner) return headline;
  const loser = otherSeat(result.winner);
  const key = `match.reason_${result.reason}`;
  const why = loser === me && has(`${key}_you`) ? t(`${key}_you`) : t(key, { loser: seatName(room, loser) });
  return `${headline} ${why}`;
}

/**
 * Between two games of a match: when the next starts (`Next game in 12 s`, or when both
 * players are ready); null while a game runs and outside a match.
 * @param {import('./state.js').Room} room
 * @param {number} now
 */
export function matchNextText(room, now) {
  const m = room.match;
  if (!m || m.result || S.playing(room) || m.game === 0) return null;
  const left = S.nextGameIn(room, now);
  if (left === null) return t('web.match_next_agree');
  const secs = Math.ceil(left / 1000);
  return t('web.match_next_in', { time: secs < 60 ? `${secs} s` : `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}` });
}

/**
 * A finished game's match, for the history and replays: `game 3 of match #12 (match: An
 * won 3–1)`.
 * @param {import('./protocol').MatchGame} m
 * @param {(name: string) => string} shown a recorded name as the reader sees it
 * @param {string[]} players names by seat
 */
export function matchOfGame(m, players, shown) {
  const place = t('match.in_history', { game: m.game, id: m.id });
  const r = m.result;
  let result;
  if (!r) result = t('match.running_short');
  else if (r.winner) {
    const w = seatIndex(r.winner);
    result = t('match.result_short', { name: shown(players[w]), a: r.score.wins[w], b: r.score.wins[1 - w] });
  } else result = r.reason === 'decided' ? t('match.result_drawn_short', { a: r.score.wins[0], b: r.score.wins[1] }) : t('match.result_none_short');
  return `${place} (${result})`;
}

/**
 * The status line: whose turn, check, waiting, the result.
 * @param {import('./state.js').Room} room
 */
export function statusText(room) {
  const g = room.game;
  if (!g) return t('status.waiting_opponent');
  if (g.over) {
    const why = reasonText(room, g.over);
    const said = why ? `${headline(room, g.over)} ${why}.` : headline(room, g.over);
    // In a match: its result once it is over, else when the next game begins.
    const m = room.match;
    if (m && m.result) return `${said} ${matchOverText(room, m.result)}`;
    const next = matchNextText(room, performance.now());
    return next ? `${said} ${next}` : said;
  }
  // A swap opening: what is happening in it and who acts.
  const swap = S.swapInProgress(room);
  if (swap && swap.to_act) return swapSentence(swap, S.myTurn(room), seatName(room, swap.to_act));
  const seat = S.toMove(room);
  let text = S.myTurn(room)
    ? t('status.your_turn', { stone: sideWord(room, seat) })
    : t('status.their_turn', { name: seatName(room, seat), stone: sideWord(room, seat) });
  if (isCheck(room)) text = `${t('status.check')} ${text}`;
  // A timed game whose clocks have not started: each player's first move is free.
  const c = g.clocks;
  if (c && c.running == null && g.moves.length < 2) {
    text = `${text} ${t('status.first_moves')}`;
  }
  return text;
}

/**
 * @param {import('./state.js').Room} room
 */
function isCheck(room) {
  const last = S.lastMove(room);
  return S.gameKind(room) === 'xiangqi' && !!last && last.check && !(room.game && room.game.over);
}

/**
 * A move as the move list writes it.
 * @param {import('./state.js').Room} room
 * @param {import('./protocol').MoveRecord} record
 */
export function moveText(room, record) {
  if (record.mv.caro) {
    const c = room.settings.game.caro;
    return pointName(record.mv.caro, c.width, c.height);
  }
  return `${record.wxf}${record.check ? '+' : ''} ${iccs(record.mv.xiangqi)}`;
}

/**
 * Whether the chat's lines are in sight (on a phone they sit below the board).
 */
export function chatVisible() {
  const log = document.getElementById('chat-log');
  if (!log) return false;
  const box = log.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight - 8;
}

/**
 * Mounts the room screen into `root`; returns {update, tick}. `rs` is the room screen's
 * state, `page` what every screen shares, `act` what it may ask for.
 * @param {HTMLElement} root
 * @param {import('./main.js').RoomScreen} rs
 * @param {import('./main.js').Page} page
 * @param {import('./main.js').Actions} act
 */
export function mountRoom(root, rs, page, act) {
  const board = h('div', { id: 'board', class: 'board-scroll' });
  const status = h('div', { id: 'status', role: 'status', 'aria-live': 'polite' });
  const actions = h('div', { id: 'actions', class: 'actions' });
  const players = h('div', { id: 'players', class: 'players' });
  const moves = h('ol', { id: 'moves', class: 'moves' });
  const chatLog = h('div', { id: 'chat-log', class: 'chat-log', 'aria-live': 'polite' });
  const chatInput = h('input', {
    id: 'chat-input',
    type: 'text',
    maxlength: 300,
    autocomplete: 'off',
    placeholder: t('web.chat_placeholder'),
    'aria-label': t('room.chat'),
  });
  const chatForm = h(
    'form',
    {
      class: 'chat-form',
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        const text = chatInput.value.trim();
        if (text && page.send({ Chat: text })) chatInput.value = '';
      },
    },
    chatInput,
    h('button', { id: 'chat-send', type: 'submit' }, t('web.send')),
  );
  const title = h('div', { class: 'room-title' });
  // A swap opening being played: what happens and who acts, the decision buttons.
  const swapBanner = h('div', { id: 'swap-banner', class: 'swap-banner', hidden: true });
  // Renju: what the × on the board are, while there are any.
  const legend = h('p', { id: 'forbidden-legend', class: 'forbidden-legend', hidden: true }, t('swap.forbidden_legend'));
  // The match's score beside the board where the players panel is out of sight (a phone).
  const matchHead = h('div', { id: 'match-head', class: 'match-head' });
  // Chat said while it was out of sight: its count, on a button that goes to it.
  const badge = h('button', { id: 'chat-badge', type: 'button', class: 'chat-badge', hidden: true, onclick: () => act.readChat() });
  fill(
    root,
    h(
      'div',
      { class: 'room' },
      h('section', { class: 'play' }, title, matchHead, swapBanner, board, legend, status, actions),
      h(
        'aside',
        { class: 'side' },
        h('section', {}, h('h2', {}, t('room.players')), players),
        h('section', {}, h('h2', { id: 'moves-title' }), moves),
        h('section', { class: 'chat' }, h('h2', {}, t('room.chat')), chatLog, chatForm),
      ),
      badge,
    ),
  );

  let shownChat = -1;
  /** What the move list shows (game, moves, opening steps), to redraw it when it changes. @type {string | null} */
  let shownMoves = null;

  /**
   * @param {string} id
   * @param {string} label
   * @param {() => void} onclick
   */
  function button(id, label, onclick, enabled = true) {
    return h('button', { id, type: 'button', onclick, disabled: !enabled }, label);
  }

  function update() {
    const room = rs.room;
    const kind = S.gameKind(room);
    const me = S.mySeat(room);
    fill(title, h('strong', {}, t('title.room', { room: room.id, game: gameLine(room.settings) })), ' · ', timeLine(room.settings.time), room.settings.rated === false ? ` · ${t('challenge.casual')}` : '');
    const matchText = matchLine(room);
    matchHead.textContent = matchText || '';
    matchHead.hidden = !matchText;
    // The board: the real game, or the draft board with its trial moves.
    const zoom = rs.zoom || 1;
    const draft = rs.draft && room.game ? rs.draft : null;
    const shown = draft ? draftRoom(room, draft) : room;
    const trials = draft ? trialSpots(draft) : null;
    const label = t('web.board_label');
    const hadFocus = board.contains(document.activeElement);
    if (kind === 'caro') {
      fill(board, caroBoard(shown, { warn: !draft && page.prefs.warn, zoom, trials, label, onPlace: (p) => (draft ? act.draftPlace(p) : act.place(p)) }));
    } else {
      const color = me ? S.xiangqiColor(room, me) : 'red';
      const view = rs.flip ? (color === 'red' ? 'black' : 'red') : color;
      const toMove = S.toMove(room);
      fill(
        board,
        xiangqiBoard(shown, view, {
          selected: draft ? draft.selected : rs.selected,
          targets: draft ? draftTargets(draft) : rs.selected ? S.targetsFrom(room, rs.selected) : [],
          check: !draft && (isCheck(room) || (room.facts && room.facts.check && !room.game.over)),
          toMoveColor: toMove ? S.xiangqiColor(room, toMove) : null,
          trials,
          label,
          onTap: (sq) => (draft ? act.draftTap(sq) : act.tapSquare(sq)),
        }),
      );
    }
    rove(board.querySelector('.caro-grid, .xq-points'), kind === 'caro' ? room.settings.game.caro.width : 9, rs.cursor, hadFocus);
    board.classList.toggle('big', kind === 'caro' && room.settings.game.caro.width > 19);
    board.classList.toggle('drafting', !!draft);
    if (draft) {
      const next = S.toMove(shown);
      status.textContent = t('draft.status', { n: draft.trials.length, side: next ? sideWord(shown, next) : '' });
    } else status.textContent = statusText(room);
    fillSwapBanner(swapBanner, room, (seat) => seatName(room, seat), page.send);
    legend.hidden = !(kind === 'caro' && shown.facts && shown.facts.forbidden && shown.facts.forbidden.length && shown.game && !shown.game.over);
    // The banner says it (and the screen reader hears it from the status line, kept
    // there but out of sight while the opening is played).
    status.classList.toggle('swap-on', !draft && !swapBanner.hidden);
    status.classList.toggle('my-turn', !draft && S.myTurn(room));
    status.classList.toggle('draft', !!draft);
    // The players.
    fill(
      players,
      /** @type {import('./protocol').Seat[]} */ (['one', 'two']).map((seat) => {
        const s = room.seats[seatIndex(seat)];
        const turn = S.toMove(room) === seat;
        const won = room.game && room.game.over && room.game.over.winner === seat;
        return h(
          'div',
          { class: `player${turn ? ' turn' : ''}`, dataset: { seat } },
          h('span', { class: 'mark' }, turn ? '▶' : won ? '★' : ' '),
          h('span', { class: `side ${S.sideOf(room, seat) === '?' ? 'undecided' : S.sideOf(room, seat).toLowerCase()}` }, sideWord(room, seat)),
          h('span', { class: 'name' }, s ? seatName(room, seat) : t('seat.free'), me === seat ? ` ${t('room.you')}` : '', s && !s.connected ? ` ${t('room.away')}` : ''),
          h('span', { class: 'clock', dataset: { seat } }),
        );
      }),
      // A match's score (and format) in place of the rematch series.
      matchLine(room)
        ? h('div', { id: 'match-line', class: `series match${S.inMatch(room) ? ' on' : ''}` }, matchLine(room))
        : room.series && room.series.wins[0] + room.series.wins[1] + room.series.draws > 0
          ? h('div', { class: 'series' }, seriesText(room))
          : null,
      room.spectators.length ? h('div', { class: 'watching' }, t('room.watching', { names: room.spectators.join(', ') })) : null,
    );
    // The buttons for what applies now.
    const g = room.game;
    const running = S.playing(room);
    const offer = room.offer;
    const mine = offer && me && offer.by === me;
    const list = [];
    if (me) {
      if (mine) list.push(button('btn-withdraw', t('keys.withdraw_short'), () => page.send({ Withdraw: offer.kind })));
      else if (S.offerToMe(room)) list.push(button('btn-answer', t('keys.answer_short'), () => act.showOffer()));
      list.push(button('btn-undo', t('keys.undo_short'), () => page.send({ Offer: 'undo' }), running && !offer && g.moves.some((m) => m.by === me)));
      // After a game: a rematch; in a match's break, ready for its next game; once a
      // match is over, another match.
      const m = room.match;
      const again = !g || !g.over ? t('keys.newgame_short') : m && !m.result ? t('web.match_ready') : m ? t('web.match_another') : t('web.rematch');
      list.push(button('btn-newgame', again, () => page.send({ Offer: 'new_game' }), !!g && !offer));
      list.push(button('btn-draw', t('keys.draw_short'), () => page.send({ Offer: 'draw' }), running && !offer));
      list.push(button('btn-resign', t('keys.resign_short'), () => act.confirmResign(), running));
      // An arena's berserk: before one's first move, on a game clock, once a game.
      const clock = typeof room.settings.time === 'object' && 'clock' in room.settings.time;
      if (running && clock && rs.berserk !== g.number && !g.moves.some((m) => m.by === me) && act.canBerserk()) {
        list.push(button('btn-berserk', t('keys.berserk_short'), () => act.berserk()));
      }
      if (S.inMatch(room)) list.push(button('btn-resign-match', t('keys.resign_match_short'), () => act.confirmResignMatch()));
      if (room.settings.hints) list.push(button('btn-hint', t('keys.hint_short'), () => page.send('Hint'), S.myTurn(room) && !S.swapInProgress(room)));
    }
    // No draft during a swap opening: its stones are not yet a position to try lines on.
    if (g) list.push(button('btn-draft', draft ? t('keys.draft_leave_short') : t('keys.draft_short'), () => act.toggleDraft(), !!draft || !S.swapInProgress(room)));
    if (draft) list.push(button('btn-draft-undo', t('keys.draft_undo_short'), () => act.draftUndo(), draft.trials.length > 0));
    if (g && g.moves.length) list.push(button('btn-save', t('keys.save_record_short'), () => act.saveRoomGame()));
    if (kind === 'caro') {
      list.push(button('btn-warn', `${t('keys.threats_short')}: ${page.prefs.warn ? t('create.on') : t('create.off')}`, () => act.toggleWarn()));
      if (room.settings.game.caro.width > 15 || room.settings.game.caro.height > 15) {
        list.push(button('btn-zoom-out', '−', () => act.zoomBy(-1)));
        list.push(button('btn-zoom-in', '+', () => act.zoomBy(1)));
      }
    } else {
      list.push(button('btn-flip', t('keys.flip_short'), () => act.toggleFlip()));
    }
    if (g && g.over) list.push(button('btn-result', t('keys.show_result_short'), () => act.showGameOver()));
    list.push(button('btn-leave', t('keys.leave_short'), () => act.confirmLeave()));
    fill(actions, list);
    // The move list, redrawn when it changed.
    const count = g ? g.moves.length : 0;
    document.getElementById('moves-title').textContent = t('room.moves', { count });
    // A swap opening's steps count as a change of the list too.
    const listed = g ? `${g.number}/${count}/${g.swap ? `${g.swap.steps.length}${g.swap.stage}` : ''}` : '';
    if (listed !== shownMoves) {
      shownMoves = listed;
      const items = [];
      if (g && g.swap && kind === 'caro') {
        // How the swap opening went (or goes), step by step, heads the list.
        const c = room.settings.game.caro;
        items.push(h('li', { class: 'opening swap-steps' }, t('swap.opening', { steps: swapSteps(g.swap, (seat) => seatName(room, seat), c.width, c.height).join(', ') })));
      } else if (g && g.opening && g.opening.length && kind === 'caro') {
        const c = room.settings.game.caro;
        items.push(h('li', { class: 'opening' }, t('room.opening_stones', { stones: g.opening.map((p) => pointName(p, c.width, c.height)).join(' ') })));
      }
      if (g) {
        for (let i = 0; i < g.moves.length; i += 2) {
          const pair = [g.moves[i], g.moves[i + 1]].filter(Boolean).map((m) => moveText(room, m));
          items.push(h('li', { value: i / 2 + 1 }, pair.join('   ')));
        }
      }
      fill(moves, items);
      moves.scrollTop = moves.scrollHeight;
    }
    // The chat, appended when it grew.
    if (room.chat.length !== shownChat) {
      shownChat = room.chat.length;
      fill(
        chatLog,
        room.chat.length === 0
          ? h('p', { class: 'empty' }, t('room.chat_empty'))
          : room.chat.map((line) =>
              h('p', { class: 'line' }, h('time', {}, new Date(line.at_ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })), ' ', h('b', {}, line.from), ': ', line.text),
            ),
      );
      chatLog.scrollTop = chatLog.scrollHeight;
    }
    badge.hidden = rs.unread === 0;
    badge.textContent = `${t('room.chat')} ${rs.unread}`;
    badge.setAttribute('aria-label', t('web.chat_unread', { n: rs.unread }));
    tick();
  }

  function tick() {
    const room = rs.room;
    const now = performance.now();
    // A match's break counts down to its next game.
    if (!rs.draft && S.nextGameIn(room, now) !== null) status.textContent = statusText(room);
    for (const el of players.querySelectorAll('.clock')) {
      const seat = /** @type {import('./protocol').Seat} */ (/** @type {HTMLElement} */ (el).dataset.seat);
      const left = S.clockLeft(room, seat, now);
      el.textContent = left === null ? '' : clockText(left);
      el.classList.toggle('low', left !== null && left < 10000);
    }
  }

  return { update, tick };
}
