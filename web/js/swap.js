// @ts-check
// Swap openings (Swap1, Swap2) on the page: the banner that says what is happening in
// the opening and who acts, the decision buttons when the decision is this page's
// player's (and their keys, w b t, as the terminal's), and the opening's steps in words
// for the move list and replays. It presents the server's SwapView and judges nothing:
// the stage, whose turn it is and the choices there are all come from the server.

import { h } from './dom.js';
import { t } from './i18n.js';
import { pointName } from './notation.js';
import { mySeat, swapInProgress } from './state.js';

/** @typedef {import('./protocol').SwapView} SwapView */
/** @typedef {import('./protocol').SwapChoice} SwapChoice */
/** @typedef {import('./protocol').Seat} Seat */

/** The decisions in the order the buttons show them, with the key that takes each. */
const CHOICES = /** @type {[SwapChoice, string][]} */ ([
  ['white', 'w'],
  ['black', 'b'],
  ['place_two', 't'],
]);

/**
 * The stone the next one placed in the opening is: X first, then alternating.
 * @param {SwapView} swap
 */
function nextStone(swap) {
  return swap.stones.length % 2 === 0 ? 'X' : 'O';
}

/**
 * What is happening in the opening and who acts, as one sentence from the page's side:
 * "Bình places three stones…", "Choose: play White, play Black, or place two more.".
 * @param {SwapView} swap
 * @param {boolean} mine the one to act is this page's player
 * @param {string} name how the one to act is called
 */
export function swapSentence(swap, mine, name) {
  const you = mine ? '_you' : '';
  const stone = nextStone(swap);
  switch (swap.stage) {
    case 'propose':
      return t(`swap.propose${you}`, { name, n: swap.stones.length + 1, done: swap.stones.length, stone });
    case 'extend':
      return t(`swap.extend${you}`, { name, n: swap.stones.length - 2, done: swap.stones.length - 3, stone });
    case 'answer':
      // The choices the server lists: with "place two more" only in Swap2.
      return t(`swap.answer${swap.choices.includes('place_two') ? '' : '_colour'}${you}`, { name });
    case 'choose':
      return t(`swap.choose${you}`, { name });
    default:
      return '';
  }
}

/**
 * The decisions this page's player may take now (empty when none is theirs).
 * @param {import('./state.js').Room} room
 * @returns {SwapChoice[]}
 */
export function myChoices(room) {
  const swap = swapInProgress(room);
  const me = mySeat(room);
  return swap && me && swap.to_act === me ? swap.choices : [];
}

/**
 * A key pressed in the room: `w`, `b` or `t` takes that decision when it is one of this
 * page's player's choices now. Returns whether the key was taken.
 * @param {import('./state.js').Room} room
 * @param {string} key
 * @param {(msg: import('./protocol').ClientMsg) => boolean} send
 */
export function swapKey(room, key, send) {
  const choice = CHOICES.find(([c, k]) => k === key && myChoices(room).includes(c));
  if (!choice) return false;
  send({ Swap: choice[0] });
  return true;
}

/**
 * The banner over the board while a swap opening is played: which opening, what is
 * happening and who acts; the decision buttons when the decision is this page's
 * player's. Hidden (and empty) otherwise. Spectators see the same words.
 * @param {HTMLElement} banner
 * @param {import('./state.js').Room} room
 * @param {(seat: Seat) => string} seatName
 * @param {(msg: import('./protocol').ClientMsg) => boolean} send
 */
export function fillSwapBanner(banner, room, seatName, send) {
  const swap = swapInProgress(room);
  // Redrawn only when the opening moved on, so a button the keyboard is on keeps focus
  // through other redraws (a chat line, a clock).
  const key = swap ? `${swap.stage}/${swap.to_act}/${swap.stones.length}/${swap.choices.join()}/${mySeat(room)}/${seatName('one')}/${seatName('two')}` : '';
  banner.hidden = !swap;
  if (banner.dataset.key === key) return;
  banner.dataset.key = key;
  banner.replaceChildren();
  if (!swap || !swap.to_act) return;
  const me = mySeat(room);
  const mine = me === swap.to_act;
  const proposer = seatName(swap.proposer);
  const choices = myChoices(room);
  banner.classList.toggle('mine', mine);
  banner.dataset.stage = swap.stage;
  banner.append(
    h('strong', { class: 'swap-kind' }, t(`room.opening_${swap.kind === 'swap1' ? 'swap1' : 'swap2'}`)),
    ' ',
    h('span', { id: 'swap-text' }, swapSentence(swap, mine, seatName(swap.to_act))),
  );
  if (choices.length) {
    banner.append(
      h(
        'div',
        { class: 'swap-choices' },
        CHOICES.filter(([c]) => choices.includes(c)).map(([c, key]) =>
          h(
            'button',
            {
              id: `swap-${c}`,
              type: 'button',
              title: t(`swap.${c}_why`, { name: proposer }),
              'aria-keyshortcuts': key,
              onclick: () => send({ Swap: c }),
            },
            t(`swap.${c}`),
            h('kbd', {}, key),
          ),
        ),
      ),
    );
  }
}

/**
 * A swap opening as it was played, step by step: `An h8 (X)`, …, `Bình: place two
 * more`, …, `An: Black (X)`.
 * @param {SwapView} swap
 * @param {(seat: Seat) => string} seatName
 * @param {number} width
 * @param {number} height
 * @returns {string[]}
 */
export function swapSteps(swap, seatName, width, height) {
  let stones = 0;
  return swap.steps.map((step) => {
    if ('stone' in step) {
      const stone = stones++ % 2 === 0 ? 'X' : 'O';
      return t('swap.step_stone', { name: seatName(step.stone.by), point: pointName(step.stone.point, width, height), stone });
    }
    return t(`swap.step_${step.decided.choice}`, { name: seatName(step.decided.by) });
  });
}

/**
 * A game that opens with a swap, said as the terminal says it ("Game 2 opens with a
 * swap: An places three stones…"); once the opening is decided (the game proper then
 * starts), the decision that settled it ("Bình plays Black (X); …"). Null for any
 * other game.
 * @param {import('./protocol').GameView} game
 * @param {(seat: Seat) => string} seatName
 */
export function swapStartedText(game, seatName) {
  const swap = game.swap;
  if (!swap || game.over) return null;
  if (swap.stage === 'done') return swapDecidedText(swap, seatName);
  return t('event.swap_started', { number: game.number, proposer: seatName(swap.proposer), responder: seatName(swap.proposer === 'one' ? 'two' : 'one') });
}

/**
 * The decision the opening's last step took, in words ("Bình plays White (O) and moves
 * next."); null when its last step was a stone.
 * @param {SwapView} swap
 * @param {(seat: Seat) => string} seatName
 */
export function swapDecidedText(swap, seatName) {
  const last = swap.steps[swap.steps.length - 1];
  if (!last || !('decided' in last)) return null;
  return t(`swap.decided_${last.decided.choice}`, { name: seatName(last.decided.by) });
}
