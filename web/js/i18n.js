// The page's words: the terminal client's locale keys (en.toml, vi.toml) served as JSON
// by the host, English standing in for any key a language lacks.

let current = {};
let english = {};

export const LANGUAGES = [
  ['en', 'English'],
  ['vi', 'Tiếng Việt'],
];

async function fetchLocale(code) {
  const r = await fetch(`/locales/${code}.json`);
  if (!r.ok) throw new Error(`no locale ${code}`);
  return r.json();
}

/** Loads `code` (English if the host does not have it). */
export async function loadLanguage(code) {
  if (Object.keys(english).length === 0) english = await fetchLocale('en');
  current = code === 'en' ? english : await fetchLocale(code).catch(() => english);
  document.documentElement.lang = code;
}

/** The text of `key` with `{name}` placeholders filled from `vars`. */
export function t(key, vars = {}) {
  const text = current[key] ?? english[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}

/** Whether the language has the key (for optional wordings like `reason.timeout_you`). */
export function has(key) {
  return key in current || key in english;
}

/** The browser's preferred language among ours. */
export function browserLanguage() {
  const wanted = (navigator.languages || [navigator.language || 'en']).map((l) => l.slice(0, 2));
  return wanted.find((l) => LANGUAGES.some(([c]) => c === l)) || 'en';
}
