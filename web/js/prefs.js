// @ts-check
// What the page remembers, all in localStorage (kept across visits, shared by every
// window of this browser on this server): the settings, the resume token of the last
// session (a reload, or a new window, takes the seat back), the account token of a
// login that asked to stay logged in (never the password), and the create form's last
// choices.

const KEY = 'banco.prefs';
const TOKEN = 'banco.resume';
const LOGIN = 'banco.login';
const CREATE = 'banco.create';

/**
 * The page's settings.
 * `challenges`: who may challenge us (said to the server again on every connection).
 * @typedef {{name: string, lang: string, theme: string, sound: boolean, warn: boolean, challenges: import('./protocol').ChallengePolicy}} Prefs
 */

/** @type {Prefs} */
const DEFAULTS = { name: '', lang: '', theme: '', sound: true, warn: false, challenges: /** @type {import('./protocol').ChallengePolicy} */ ('everyone') };

/**
 * The last session: the resume token and who it was for.
 * @typedef {{token: import('./protocol').ResumeToken, name: string, account: boolean}} Resume
 */

/**
 * A login kept: the account's name and the token that logs in to it.
 * @typedef {{name: string, token: import('./protocol').AccountToken}} Login
 */

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null; // storage turned off: nothing is remembered
  }
}

/**
 * @param {string} key
 * @returns {any}
 */
function read(key) {
  try {
    return JSON.parse(storage()?.getItem(key) || 'null');
  } catch {
    return null;
  }
}

/**
 * @param {string} key
 * @param {any} value null removes it
 */
function write(key, value) {
  try {
    if (value === null) storage()?.removeItem(key);
    else storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // full or forbidden: it lasts for this visit
  }
}

/** @returns {Prefs} */
export function loadPrefs() {
  const saved = read(KEY);
  return { ...DEFAULTS, ...(saved && typeof saved === 'object' ? saved : {}) };
}

/** @param {Prefs} prefs */
export function savePrefs(prefs) {
  write(KEY, prefs);
}

/**
 * The resume token of the last session: {token: [16 numbers], name}, or null.
 * @returns {Resume | null}
 */
export function loadResume() {
  const r = read(TOKEN);
  return r && Array.isArray(r.token) && r.token.length === 16 ? r : null;
}

/** @param {Resume | null} resume */
export function saveResume(resume) {
  write(TOKEN, resume);
}

/**
 * The login kept on this browser, or null.
 * @returns {Login | null}
 */
export function loadLogin() {
  const l = read(LOGIN);
  return l && typeof l.name === 'string' && Array.isArray(l.token) && l.token.length === 32 ? l : null;
}

/** @param {Login | null} login */
export function saveLogin(login) {
  write(LOGIN, login);
}

/**
 * The create form's last choices, by field id, or null.
 * @returns {Record<string, string> | null}
 */
export function loadCreate() {
  const c = read(CREATE);
  return c && typeof c === 'object' ? c : null;
}

/** @param {Record<string, string>} choices */
export function saveCreate(choices) {
  write(CREATE, choices);
}
