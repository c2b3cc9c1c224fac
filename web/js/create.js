// The create form: every setting the terminal client's form has, for both games. The
// server checks everything again; the form only refuses opening stones it cannot read.

import { h } from './dom.js';
import { t } from './i18n.js';
import { parseStones } from './notation.js';

const LEVELS = ['Easy', 'Medium', 'Hard', 'Max'];
const RULES = [
  ['Caro', 'caro'],
  ['Freestyle', 'freestyle'],
  ['Standard', 'standard'],
  ['CaroOverline', 'caro-overline'],
];

function select(id, label, options, value) {
  return h(
    'label',
    { class: 'field', for: id },
    h('span', {}, label),
    h('select', { id }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text))),
  );
}

function number(id, label, value, min, max) {
  return h('label', { class: 'field', for: id }, h('span', {}, label), h('input', { id, type: 'number', value, min, max, inputmode: 'numeric' }));
}

function text(id, label, placeholder) {
  return h('label', { class: 'field wide', for: id }, h('span', {}, label), h('input', { id, type: 'text', placeholder, autocomplete: 'off' }));
}

/**
 * The form as a dialog body; `onCreate(settings)` gets the protocol's RoomSettings,
 * `onError(text)` a sentence when the form itself refuses, `onArrange(start)` the
 * position editor's start (see editor.js) when "Arrange on the board" is pressed.
 * `start` fills it in to play on from a position: {game: 'caro', width, height, rule,
 * stones} or {game: 'xiangqi', fen}.
 */
export function createForm(onCreate, onError, onArrange, start = null) {
  const levels = LEVELS.map((l) => [l, t(`level.${l.toLowerCase()}`)]);
  const form = h(
    'form',
    { id: 'create-form', class: 'create' },
    select('c-game', t('create.game'), [['caro', t('create.game_caro')], ['xiangqi', t('create.game_xiangqi')]], 'caro'),
    h(
      'div',
      { class: 'caro-only' },
      number('c-width', t('create.width'), 15, 5, 64),
      number('c-height', t('create.height'), 15, 5, 64),
      select('c-rule', t('create.rule'), RULES.map(([v, k]) => [v, t(`rule.${k}`)]), 'Caro'),
      select('c-opening', t('create.opening'), [['none', t('create.opening_none')], ['balanced', t('create.opening_balanced')], ['stones', t('create.opening_stones')]], 'none'),
      text('c-stones', t('create.stones'), t('create.stones_hint')),
    ),
    h('div', { class: 'xiangqi-only' }, text('c-fen', t('create.fen'), t('create.fen_usual'))),
    h('button', { id: 'c-arrange', type: 'button', class: 'wide' }, t('web.arrange')),
    select('c-first', t('create.first'), [['me', t('create.first_me')], ['them', t('create.first_them')], ['random', t('create.first_random')]], 'me'),
    select('c-time', t('create.time'), [['none', t('create.time_none')], ['per_move', t('create.time_per_move')], ['clock', t('create.time_clock')]], 'none'),
    h('div', { class: 'per-move-only' }, number('c-per-move', `${t('create.per_move')} (s)`, 20, 1, 3600)),
    h('div', { class: 'clock-only' }, number('c-minutes', `${t('create.clock_minutes')} (min)`, 10, 1, 600), number('c-increment', `${t('create.increment')} (s)`, 5, 0, 600)),
    select('c-seat-one', t('create.seat_one'), [['me', t('create.me_playing')], ...levels.map(([v, l]) => [v, t('create.bot_watching', { bot: t('seat.bot', { level: l }) })])], 'me'),
    select('c-opponent', t('create.opponent'), [['human', t('create.human')], ...levels.map(([v, l]) => [v, t('seat.bot', { level: l })])], 'human'),
    select('c-hints', t('create.hints'), [['on', t('create.on')], ['off', t('create.off')]], 'on'),
  );
  const $ = (id) => form.querySelector(`#${id}`);
  const sync = () => {
    const caro = $('c-game').value === 'caro';
    form.querySelector('.caro-only').hidden = !caro;
    form.querySelector('.xiangqi-only').hidden = caro;
    form.querySelector('.per-move-only').hidden = $('c-time').value !== 'per_move';
    form.querySelector('.clock-only').hidden = $('c-time').value !== 'clock';
    $('c-stones').closest('label').hidden = $('c-opening').value !== 'stones';
  };
  if (start && start.game === 'caro') {
    $('c-game').value = 'caro';
    $('c-width').value = start.width;
    $('c-height').value = start.height;
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
  form.addEventListener('change', (e) => {
    // Xiangqi is usually played on a clock: offer 10 min + 5 s, as the terminal does.
    if (e.target.id === 'c-game' && $('c-game').value === 'xiangqi' && $('c-time').value === 'none') $('c-time').value = 'clock';
    sync();
  });
  sync();
  form.querySelector('#c-arrange').addEventListener('click', () => {
    const int = (id) => Math.round(Number($(id).value));
    if ($('c-game').value === 'xiangqi') return onArrange({ kind: 'xiangqi', fen: $('c-fen').value.trim() });
    const width = int('c-width');
    const height = int('c-height');
    if (!(width >= 5 && width <= 64 && height >= 5 && height <= 64)) return onError(t('create.bad_size'));
    let stones = [];
    if ($('c-opening').value === 'stones') {
      stones = parseStones($('c-stones').value, width, height);
      if (stones instanceof Error) return onError(t('create.bad_opening', { why: stones.message }));
    }
    return onArrange({ kind: 'caro', width, height, rule: $('c-rule').value, stones });
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const settings = read($, onError);
    if (settings) onCreate(settings);
  });
  return form;
}

function read($, onError) {
  const int = (id) => Math.round(Number($(id).value));
  let game;
  if ($('c-game').value === 'caro') {
    const width = int('c-width');
    const height = int('c-height');
    if (!(width >= 5 && width <= 64 && height >= 5 && height <= 64)) {
      onError(t('create.bad_size'));
      return null;
    }
    let opening = $('c-opening').value;
    if (opening === 'stones') {
      const stones = parseStones($('c-stones').value, width, height);
      if (stones instanceof Error) {
        onError(t('create.bad_opening', { why: stones.message }));
        return null;
      }
      opening = stones.length ? { stones } : 'none';
    }
    game = { caro: { width, height, rule: $('c-rule').value, opening } };
  } else {
    const fen = $('c-fen').value.trim();
    game = { xiangqi: { fen: fen || null } };
  }
  let time = 'unlimited';
  if ($('c-time').value === 'per_move') time = { per_move: { millis: int('c-per-move') * 1000 } };
  if ($('c-time').value === 'clock') time = { clock: { initial_millis: int('c-minutes') * 60000, increment_millis: int('c-increment') * 1000 } };
  const seat = (v) => (v === 'me' || v === 'human' ? 'human' : { bot: v });
  return {
    game,
    time,
    first: $('c-first').value,
    seats: [seat($('c-seat-one').value), seat($('c-opponent').value)],
    hints: $('c-hints').value === 'on',
  };
}

/** Puts what the position editor made into the form: caro stones, or the FEN. */
export function useArrangement(form, fields) {
  const $ = (id) => form.querySelector(`#${id}`);
  if (fields.kind === 'caro') {
    $('c-opening').value = fields.stones ? 'stones' : 'none';
    $('c-stones').value = fields.stones;
  } else {
    $('c-fen').value = fields.fen;
  }
  form.dispatchEvent(new Event('change'));
}
