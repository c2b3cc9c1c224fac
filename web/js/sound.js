// @ts-check
// Short tones made on the spot (no sound files): a move, an offer to answer, the end of
// a game. Silent until the page has been touched once, as browsers require.

/** @type {AudioContext | null} */
let ctx = null;
let enabled = true;

/** @param {boolean} on */
export function setSound(on) {
  enabled = on;
}

/** Browsers start audio only from a user's gesture: called on the first click. */
export function unlock() {
  if (ctx || typeof AudioContext === 'undefined') return;
  try {
    ctx = new AudioContext();
  } catch {
    ctx = null;
  }
}

/**
 * @param {number} freq
 * @param {number} start
 * @param {number} length
 */
function tone(freq, start, length, volume = 0.08) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = freq;
  osc.type = 'sine';
  gain.gain.setValueAtTime(volume, ctx.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length);
}

/**
 * 'move', 'offer' or 'end'.
 * @param {'move' | 'offer' | 'end'} kind
 */
export function play(kind) {
  if (!enabled || !ctx) return;
  if (ctx.state === 'suspended') ctx.resume();
  if (kind === 'move') tone(660, 0, 0.12);
  else if (kind === 'offer') {
    tone(520, 0, 0.15);
    tone(780, 0.16, 0.2);
  } else if (kind === 'end') {
    tone(523, 0, 0.18);
    tone(659, 0.18, 0.18);
    tone(784, 0.36, 0.35);
  }
}
