// @ts-check
// The create form: every setting the terminal client's form has, for both games, who
// plays said in words as the terminal says it ("me against a bot", "two bots, I
// watch"), and the last choices remembered. The server checks everything; typed opening
// stones are read by the server too (with the rules, which also refuse stones no game
// can start from), before the room is asked for. Caro's rules include renju, and its
// openings the swap openings (Swap1, Swap2) the two players play before the game.

import { h } from './dom.js';
import { t } from './i18n.js';
import { loadCreate, saveCreate } from './prefs.js';
import { LEVELS } from './notation.js';

/** @typedef {import('./protocol').Point} Point */
/** @typedef {import('./protocol').Rule} Rule */
/**
 * Reads typed stones for a board with the server's rules: the points, or an Error whose
 * message says which stone is wrong and why.
 * @typedef {(width: number, height: number, rule: Rule, text: string) => Promise<Point[] | Error>} ReadStones
 */
/**
 * Where the form starts: a game to play on from.
 * @typedef {{game: 'caro', width: number, height: number, rule: Rule, stones: string} | {game: 'xiangqi', fen: string}} Start
 */
/**
 * A level as a picker shows it: its name and its place on the ladder ("medium (3/7)").
 * @param {string} level
 * @param {number} index its index in LEVELS
 */
export function levelPlace(level, index) {
  return `${t(`level.${level.toLowerCase()}`)} (${index + 1}/${LEVELS.length})`;
}
/** Who plays, as the terminal's form says it: the choice, and its words' key. */
const PLAYERS = [
  ['me_person', 'create.players_me_person'],
  ['me_bot', 'create.players_me_bot'],
  ['bots', 'create.players_bots'],
  ['bot_person', 'create.players_bot_person'],
];
/** The fields whose last choice the form remembers (not a position typed for one room). */
const REMEMBERED = ['c-game', 'c-width', 'c-height', 'c-rule', 'c-opening', 'c-first', 'c-time', 'c-per-move', 'c-minutes', 'c-increment', 'c-players', 'c-bot-one', 'c-bot-two', 'c-hints', 'c-rated', 'c-match', 'c-match-games', 'c-match-first-to'];
/** The most games a match may have (the protocol's MAX_MATCH_GAMES). */
const MAX_MATCH_GAMES = 99;
const RULES = [
  ['Caro', 'caro'],
  ['Freestyle', 'freestyle'],
  ['Standard', 'standard'],
  ['CaroOverline', 'caro-overline'],
  ['Renju', 'renju'],
];
/** The openings the form offers: the choice, and its words' key (as the terminal's form). */
const OPENINGS = [
  ['none', 'create.opening_none'],
  ['balanced', 'create.opening_balanced'],
  ['swap1', 'create.opening_swap1'],
  ['swap2', 'create.opening_swap2'],
  ['stones', 'create.opening_stones'],
];

/**
 * @param {string} id
 * @param {string} label
 * @param {[string, string][]} options
 * @param {string} value
 */
function select(id, label, options, value) {
  return h(
    'label',
    { class: 'field', for: id },
    h('span', {}, label),
    h('select', { id }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text))),
  );
}

/**
 * @param {string} id
 * @param {string} label
 * @param {number} value
 * @param {number} min
 * @param {number} max
 */
function number(id, label, value, min, max) {
  return h('label', { class: 'field', for: id }, h('span', {}, label), h('input', { id, type: 'number', value, min, max, inputmode: 'numeric' }));
}

/**
 * @param {string} id
 * @param {string} label
 * @param {string} placeholder
 */
function text(id, label, placeholder) {
  return h('label', { class: 'field wide', for: id }, h('span', {}, label), h('input', { id, type: 'text', placeholder, autocomplete: 'off' }));
}

/**
 * The form as a dialog body; `onCreate(settings)` gets the protocol's RoomSettings,
 * `onError(text)` a sentence when the form itself refuses, `onArrange(start)` the
 * position editor's start (see editor.js) when "Arrange on the board" is pressed.
 * `start` fills it in to play on from a position: {game: 'caro', width, height, rule,
 * stones} or {game: 'xiangqi', fen}. `readStones` reads typed opening stones.
 * @param {(settings: import('./protocol').RoomSettings) => void} onCreate
 * @param {(text: string) => void} onError
 * @param {(start: import('./editor.js').EditorStart) => void} onArrange
 * @param {ReadStones} readStones
 * @param {Start | null} [start]
 * @param {{guest: boolean} | null} [challenge] the form challenges someone: no
 *   position to arrange, no bots (it is the two of you), casual where one is a guest
 */
export function createForm(onCreate, onError, onArrange, readStones, start = null, challenge = null) {
  const levels = LEVELS.map((l, i) => [l, levelPlace(l, i)]);
  const form = (h(
    'form',
    { id: 'create-form', class: 'create' },
    select('c-game', t('create.game'), [['caro', t('create.game_caro')], ['xiangqi', t('create.game_xiangqi')]], 'caro'),
    h(
      'div',
      { class: 'caro-only' },
      number('c-width', t('create.width'), 15, 5, 64),
      number('c-height', t('create.height'), 15, 5, 64),
      select('c-rule', t('create.rule'), RULES.map(([v, k]) => [v, t(`rule.${k}`)]), 'Caro'),
      select('c-opening', t('create.opening'), OPENINGS.map(([v, k]) => /** @type {[string, string]} */ ([v, t(k)])), 'none'),
      text('c-stones', t('create.stones'), t('create.stones_hint')),
    ),
    h('div', { class: 'xiangqi-only' }, text('c-fen', t('create.fen'), t('create.fen_usual'))),
    h('button', { id: 'c-arrange', type: 'button', class: 'wide' }, t('web.arrange')),
    select('c-first', t('create.first'), [['me', t('create.first_me')], ['them', t('create.first_them')], ['random', t('create.first_random')]], 'me'),
    select('c-time', t('create.time'), [['none', t('create.time_none')], ['per_move', t('create.time_per_move')], ['clock', t('create.time_clock')]], 'none'),
    h('div', { class: 'per-move-only' }, number('c-per-move', `${t('create.per_move')} (s)`, 20, 1, 3600)),
    h('div', { class: 'clock-only' }, number('c-minutes', `${t('create.clock_minutes')} (min)`, 10, 1, 600), number('c-increment', `${t('create.increment')} (s)`, 5, 0, 600)),
    select('c-players', t('create.players'), PLAYERS.map(([v, k]) => /** @type {[string, string]} */ ([v, t(k)])), 'me_person'),
    h('div', { class: 'bot-one-only' }, select('c-bot-one', t('create.bot'), /** @type {[string, string][]} */ (levels), 'Medium')),
    h('div', { class: 'bot-two-only' }, select('c-bot-two', t('create.bot_two'), /** @type {[string, string][]} */ (levels), 'Medium')),
    select('c-rated', t('challenge.rated_field'), [['rated', t('challenge.rated')], ['casual', t('challenge.casual')]], 'rated'),
    select('c-hints', t('create.hints'), [['on', t('create.on')], ['off', t('create.off')]], 'on'),
    select('c-match', t('create.match'), [['off', t('create.match_off')], ['games', t('create.match_games')], ['first_to', t('create.match_first_to')]], 'off'),
    h('div', { class: 'match-only' }, number('c-match-first-to', t('create.match_first_to_count'), 5, 1, MAX_MATCH_GAMES), number('c-match-games', t('create.match_games_count'), 2, 1, MAX_MATCH_GAMES)),
  ));
  if (challenge) {
    // A challenge is between the two of you, from the usual start.
    form.querySelector('#c-arrange').remove();
    form.querySelector('#c-players').closest('label').hidden = true;
  }
  const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (form.querySelector(`#${id}`));
  const part = (/** @type {string} */ css) => /** @type {HTMLElement} */ (form.querySelector(css));
  const sync = () => {
    const caro = $('c-game').value === 'caro';
    part('.caro-only').hidden = !caro;
    part('.xiangqi-only').hidden = caro;
    part('.per-move-only').hidden = $('c-time').value !== 'per_move';
    part('.clock-only').hidden = $('c-time').value !== 'clock';
    $('c-stones').closest('label').hidden = $('c-opening').value !== 'stones';
    const players = $('c-players').value;
    part('.bot-one-only').hidden = players === 'me_person';
    part('.bot-two-only').hidden = players !== 'bots';
    // Two bots: the first is "Bot one"; one bot is simply "Bot".
    $('c-bot-one').closest('label').querySelector('span').textContent = players === 'bots' ? t('create.bot_one') : t('create.bot');
    if (challenge) {
      part('.bot-one-only').hidden = true;
      part('.bot-two-only').hidden = true;
    }
    // A match: N games, or first to K of at most N.
    const match = $('c-match').value;
    part('.match-only').hidden = match === 'off';
    $('c-match-first-to').closest('label').hidden = match !== 'first_to';
    $('c-match-games').closest('label').querySelector('span').textContent = match === 'first_to' ? t('create.match_of') : t('create.match_games_count');
  };
  // The last choices, then where the form is asked to start (a position to play on).
  const last = loadCreate();
  if (last) {
    for (const id of REMEMBERED) {
      const field = $(id);
      if (field && typeof last[id] === 'string' && (field.tagName !== 'SELECT' || [...field.querySelectorAll('option')].some((o) => o.value === last[id]))) field.value = last[id];
    }
  }
  if (start && start.game === 'caro') {
    $('c-game').value = 'caro';
    $('c-width').value = String(start.width);
    $('c-height').value = String(start.height);
    $('c-rule').value = start.rule;
    if (start.stones) {
      $('c-opening').value = 'stones';
      $('c-stones').value = start.stones;
    }
  } else if (start && start.game === 'xiangqi') {
    $('c-game').value = 'xiangqi';
    $('c-fen').value = start.fen;
    $('c-time').value = 'clock';
  }
  if (challenge && challenge.guest) $('c-rated').value = 'casual';
  form.addEventListener('change', (e) => {
    const id = /** @type {Element} */ (e.target).id;
    // Xiangqi is usually played on a clock: offer 10 min + 5 s, as the terminal does.
    if (id === 'c-game' && $('c-game').value === 'xiangqi' && $('c-time').value === 'none') $('c-time').value = 'clock';
    // Each kind of match starts from its usual numbers: a two-game mini-match (one
    // game with each colour), first to 5 of at most 9.
    if (id === 'c-match') {
      if ($('c-match').value === 'games') $('c-match-games').value = '2';
      if ($('c-match').value === 'first_to') {
        $('c-match-first-to').value = '5';
        $('c-match-games').value = '9';
      }
    }
    sync();
  });
  sync();
  form.querySelector('#c-arrange')?.addEventListener('click', async () => {
    /** @param {string} id */
    const int = (id) => Math.round(Number($(id).value));
    if ($('c-game').value === 'xiangqi') return onArrange({ kind: 'xiangqi', fen: $('c-fen').value.trim() });
    const width = int('c-width');
    const height = int('c-height');
    if (!(width >= 5 && width <= 64 && height >= 5 && height <= 64)) return onError(t('create.bad_size'));
    const rule = /** @type {Rule} */ ($('c-rule').value);
    /** @type {Point[] | Error} */
    let stones = [];
    if ($('c-opening').value === 'stones') {
      stones = await readStones(width, height, rule, $('c-stones').value);
      if (stones instanceof Error) return onError(t('create.bad_opening', { why: stones.message }));
    }
    return onArrange({ kind: 'caro', width, height, rule, stones });
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const settings = await read($, onError, readStones, challenge);
    if (!settings) return;
    saveCreate(Object.fromEntries(REMEMBERED.map((id) => [id, $(id).value])));
    onCreate(settings);
  });
  return form;
}

/**
 * The form's settings, or null (having said why) when the form refuses them.
 * @param {(id: string) => HTMLInputElement} $
 * @param {(text: string) => void} onError
 * @param {ReadStones} readStones
 * @param {{guest: boolean} | null} challenge
 * @returns {Promise<import('./protocol').RoomSettings | null>}
 */
async function read($, onError, readStones, challenge) {
  /** @param {string} id */
  const int = (id) => Math.round(Number($(id).value));
  let game;
  if ($('c-game').value === 'caro') {
    const width = int('c-width');
    const height = int('c-height');
    if (!(width >= 5 && width <= 64 && height >= 5 && height <= 64)) {
      onError(t('create.bad_size'));
      return null;
    }
    const rule = /** @type {Rule} */ ($('c-rule').value);
    const chosen = $('c-opening').value;
    /** @type {import('./protocol').CaroOpening} */
    let opening = chosen === 'balanced' || chosen === 'swap1' || chosen === 'swap2' ? chosen : 'none';
    if ($('c-opening').value === 'stones') {
      const stones = await readStones(width, height, rule, $('c-stones').value);
      if (stones instanceof Error) {
        onError(t('create.bad_opening', { why: stones.message }));
        return null;
      }
      opening = stones.length ? { stones } : 'none';
    }
    game = { caro: { width, height, rule, opening } };
  } else {
    const fen = $('c-fen').value.trim();
    game = { xiangqi: { fen: fen || null } };
  }
  /** @type {import('./protocol').TimeControl} */
  let time = 'unlimited';
  if ($('c-time').value === 'per_move') time = { per_move: { millis: int('c-per-move') * 1000 } };
  if ($('c-time').value === 'clock') time = { clock: { initial_millis: int('c-minutes') * 60000, increment_millis: int('c-increment') * 1000 } };
  /** @type {import('./protocol').SeatKind} */
  const botOne = { bot: /** @type {import('./protocol').Level} */ ($('c-bot-one').value) };
  /** @type {import('./protocol').SeatKind} */
  const botTwo = { bot: /** @type {import('./protocol').Level} */ ($('c-bot-two').value) };
  /** @type {Record<string, [import('./protocol').SeatKind, import('./protocol').SeatKind]>} */
  const seats = { me_person: ['human', 'human'], me_bot: ['human', botOne], bots: [botOne, botTwo], bot_person: [botOne, 'human'] };
  /** @type {import('./protocol').MatchFormat | null} */
  let match = null;
  if ($('c-match').value !== 'off') {
    const games = int('c-match-games');
    const firstTo = $('c-match').value === 'first_to' ? int('c-match-first-to') : null;
    if (!(games >= 1 && games <= MAX_MATCH_GAMES) || (firstTo !== null && !(firstTo >= 1 && firstTo <= games))) {
      onError(t('create.bad_match'));
      return null;
    }
    match = { games, first_to: firstTo };
  }
  return {
    game,
    time,
    first: /** @type {import('./protocol').FirstMove} */ ($('c-first').value),
    seats: challenge ? ['human', 'human'] : seats[$('c-players').value] || seats.me_person,
    hints: $('c-hints').value === 'on',
    rated: $('c-rated').value !== 'casual',
    match_format: match,
  };
}

/**
 * Puts what the position editor made into the form: caro stones, or the FEN.
 * @param {HTMLFormElement} form
 * @param {import('./editor.js').FormFields} fields
 */
export function useArrangement(form, fields) {
  const $ = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (form.querySelector(`#${id}`));
  if (fields.kind === 'caro') {
    $('c-opening').value = fields.stones ? 'stones' : 'none';
    $('c-stones').value = fields.stones;
  } else {
    $('c-fen').value = fields.fen;
  }
  form.dispatchEvent(new Event('change'));
}
