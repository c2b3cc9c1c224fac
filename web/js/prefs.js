// @ts-check
// What the page remembers: settings in localStorage (kept across visits), the resume
// token in sessionStorage (this tab only: a reload takes the seat back, a second tab is
// a second player).

const KEY = 'banco.prefs';
const TOKEN = 'banco.resume';

/**
 * The page's settings.
 * @typedef {{name: string, lang: string, theme: string, sound: boolean, warn: boolean}} Prefs
 */

/** @type {Prefs} */
const DEFAULTS = { name: '', lang: '', theme: '', sound: true, warn: false };

/**
 * This tab's last session: the resume token and who it was for.
 * @typedef {{token: import('./protocol').ResumeToken, name: string, account: boolean}} Resume
 */

/** @param {'local' | 'session'} kind */
function storage(kind) {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null; // storage turned off: nothing is remembered
  }
}

/** @returns {Prefs} */
export function loadPrefs() {
  try {
    const saved = JSON.parse(storage('local')?.getItem(KEY) || '{}');
    return { ...DEFAULTS, ...saved };
  } catch {
    return { ...DEFAULTS };
  }
}

/** @param {Prefs} prefs */
export function savePrefs(prefs) {
  try {
    storage('local')?.setItem(KEY, JSON.stringify(prefs));
  } catch {
    // full or forbidden: the settings last for this visit
  }
}

/**
 * The resume token of this tab's last session: {token: [16 numbers], name}, or null.
 * @returns {Resume | null}
 */
export function loadResume() {
  try {
    const r = JSON.parse(storage('session')?.getItem(TOKEN) || 'null');
    return r && Array.isArray(r.token) && r.token.length === 16 ? r : null;
  } catch {
    return null;
  }
}

/** @param {Resume | null} resume */
export function saveResume(resume) {
  try {
    if (resume) storage('session')?.setItem(TOKEN, JSON.stringify(resume));
    else storage('session')?.removeItem(TOKEN);
  } catch {
    // forbidden: a reload starts a new session
  }
}
