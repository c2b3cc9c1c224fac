// @ts-check
// The page's words: the terminal client's locale keys (en.toml, vi.toml) served as JSON
// by the host, English standing in for any key a language lacks.

/** @type {Record<string, string>} */
let current = {};
/** @type {Record<string, string>} */
let english = {};

export const LANGUAGES = [
  ['en', 'English'],
  ['vi', 'Tiếng Việt'],
];

/**
 * @param {string} code
 * @returns {Promise<Record<string, string>>}
 */
async function fetchLocale(code) {
  const r = await fetch(`/locales/${code}.json`);
  if (!r.ok) throw new Error(`no locale ${code}`);
  return r.json();
}

/**
 * Loads `code` (English if the host does not have it).
 * @param {string} code
 */
export async function loadLanguage(code) {
  if (Object.keys(english).length === 0) english = await fetchLocale('en');
  current = code === 'en' ? english : await fetchLocale(code).catch(() => english);
  document.documentElement.lang = code;
}

/**
 * The text of `key` with `{name}` placeholders filled from `vars`.
 * @param {string} key
 * @param {Record<string, string | number>} [vars]
 */
export function t(key, vars = {}) {
  const text = current[key] ?? english[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (/** @type {string} */ m, /** @type {string} */ name) => (name in vars ? String(vars[name]) : m));
}

/**
 * Whether the language has the key (for optional wordings like `reason.timeout_you`).
 * @param {string} key
 */
export function has(key) {
  return key in current || key in english;
}

/** The browser's preferred language among ours. */
export function browserLanguage() {
  const wanted = (navigator.languages || [navigator.language || 'en']).map((l) => l.slice(0, 2));
  return wanted.find((l) => LANGUAGES.some(([c]) => c === l)) || 'en';
}
