// How points, moves, times and room settings are written: the same forms as the
// terminal client (h8 from the bottom left, x,y on boards wider than 26 columns, ICCS
// for xiangqi squares). Pure functions, tested with `node --test web/test`.

/** `h8` for {x:7,y:7} on a 15-row board; `30,4` when the column has no letter. */
export function pointName(p, width, height) {
  if (width > 26 || p.x >= 26) return `${p.x},${p.y}`;
  return String.fromCharCode(97 + p.x) + String(height - p.y);
}

/** The point a person typed (`h8`, `H8` or `7,7`), or an Error saying why not. */
export function parsePoint(text, width, height) {
  const t = text.trim().toLowerCase();
  let m = /^(\d+)\s*,\s*(\d+)$/.exec(t);
  let x, y;
  if (m) {
    x = Number(m[1]);
    y = Number(m[2]);
  } else if ((m = /^([a-z])(\d+)$/.exec(t))) {
    x = m[1].charCodeAt(0) - 97;
    y = height - Number(m[2]);
  } else {
    return new Error(`'${text.trim()}' is not a point: write h8 or 7,7`);
  }
  if (!(x >= 0 && x < width && y >= 0 && y < height)) {
    return new Error(`'${text.trim()}' is off the ${width}x${height} board`);
  }
  return { x, y };
}

/** Opening stones typed as `h8 i9 h10` (commas or spaces), or an Error. */
export function parseStones(text, width, height) {
  const parts = text.split(/[\s;]+/).filter((s) => s.length > 0);
  const stones = [];
  for (const part of parts) {
    // `7,7` stays one part; `h8,i9` is two.
    const pieces = /^\d+,\d+$/.test(part) ? [part] : part.split(',').filter((s) => s);
    for (const piece of pieces) {
      const p = parsePoint(piece, width, height);
      if (p instanceof Error) return p;
      if (stones.some((s) => s.x === p.x && s.y === p.y)) {
        return new Error(`${pointName(p, width, height)} is given twice`);
      }
      stones.push(p);
    }
  }
  return stones;
}

/** `h2` for a xiangqi square {file:7, rank:2}. */
export function squareName(s) {
  return String.fromCharCode(97 + s.file) + String(s.rank);
}

/** `h2e2` for a xiangqi move. */
export function iccs(mv) {
  return squareName(mv.from) + squareName(mv.to);
}

/** A clock's reading: `4:59`, `0:07`, `1:02:03`; under ten seconds with tenths. */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 100)) / 10;
  if (total < 10) return `0:0${total.toFixed(1)}`;
  const secs = Math.ceil(ms / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor(secs / 60) % 60;
  const s = secs % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** `20s`, `5m`, `1m30s`, `1.5s`: as the terminal client writes a duration. */
export function durationText(millis) {
  const secs = Math.floor(millis / 1000);
  const ms = millis % 1000;
  const h = Math.floor(secs / 3600);
  const m = Math.floor(secs / 60) % 60;
  const s = secs % 60;
  let out = '';
  if (h > 0) out += `${h}h`;
  if (m > 0) out += `${m}m`;
  if (ms > 0) out += `${s}.${String(ms).padStart(3, '0').replace(/0+$/, '')}s`;
  else if (s > 0 || out === '') out += `${s}s`;
  return out;
}

/** The time control in a few characters: `none`, `20s/move`, `5m+3s`. */
export function timeControlText(tc) {
  if (tc === 'unlimited' || tc == null) return 'none';
  if (tc.per_move) return `${durationText(tc.per_move.millis)}/move`;
  if (tc.clock) return `${durationText(tc.clock.initial_millis)}+${durationText(tc.clock.increment_millis)}`;
  return '?';
}

/** 0 for seat "one", 1 for "two". */
export function seatIndex(seat) {
  return seat === 'two' ? 1 : 0;
}

export function otherSeat(seat) {
  return seat === 'one' ? 'two' : 'one';
}

/** The rule's name in locale keys and on command lines: `caro-overline`. */
export function ruleName(rule) {
  return { Caro: 'caro', Freestyle: 'freestyle', Standard: 'standard', CaroOverline: 'caro-overline' }[rule] || String(rule);
}

/** The level's name: `easy`. */
export function levelName(level) {
  return String(level).toLowerCase();
}

/** The level of the server's bot named `name` in a record ("Bot (hard)": no person may
 * take such a name), or null for a person. */
export function botOfName(name) {
  const m = /^bot \((easy|medium|hard|max)\)$/i.exec(String(name).trim());
  return m ? m[1].toLowerCase() : null;
}

/** A move as the protocol's JSON writes it, from a caro point or a xiangqi from/to. */
export function caroMove(p) {
  return { caro: { x: p.x, y: p.y } };
}

export function xiangqiMove(from, to) {
  return { xiangqi: { from: { file: from.file, rank: from.rank }, to: { file: to.file, rank: to.rank } } };
}
