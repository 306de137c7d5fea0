// @ts-check
/**
 * Catalogues: every visible string of the pages comes from static/i18n/{lang}.json.
 *
 * Markup asks for strings with attributes, filled on load and on every language change:
 *   data-i18n="key"               -> textContent
 *   data-i18n-placeholder="key"   -> placeholder
 *   data-i18n-title="key"         -> title
 *   data-i18n-aria-label="key"    -> aria-label
 *   data-i18n-label="key"         -> label (an optgroup's)
 * Scripts use t(key, params) for text and tn(key, params) when a parameter is an element
 * (a suit icon, a card). Placeholders are written {name}. Plurals: key_one / key_other.
 * The language switch is the <select id="lang">; the choice is kept in localStorage.
 */

export const LANGS = ["en", "fi"];
const STORAGE_KEY = "valtti:lang";

/** @type {Record<string, string>} */
let catalogue = {};
let lang = "en";
/** @type {(() => void)[]} */
const listeners = [];

/** The language in use: "en" or "fi". */
export function currentLang() {
  return lang;
}

function initialLang() {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved !== null && LANGS.includes(saved)) return saved;
  const wanted = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  for (const w of wanted) {
    const base = String(w).toLowerCase().slice(0, 2);
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

/** True when the catalogue has this key. @param {string} key */
export function has(key) {
  return Object.hasOwn(catalogue, key);
}

/** @param {string} key */
function lookup(key) {
  if (has(key)) return catalogue[key];
  console.warn(`valtti: no catalogue entry ${key}`);
  return key;
}

/** @typedef {Record<string, unknown>} Params a string's placeholders by name */

/** The string for key, with {name} placeholders filled from params as text.
 * @param {string} key @param {Params} [params] */
export function t(key, params = {}) {
  return lookup(key).replace(/\{(\w+)\}/g, (m, name) =>
    name in params ? String(params[name]) : m,
  );
}

/** The plural form of key for n (key_one or key_other), with n also given as {n}.
 * @param {string} key @param {number} n @param {Params} [params] */
export function tp(key, n, params = {}) {
  return t(`${key}_${n === 1 ? "one" : "other"}`, { n, ...params });
}

/** Like t, but the result is a fragment: element parameters are inserted as elements.
 * @param {string} key @param {Params} [params] */
export function tn(key, params = {}) {
  const text = lookup(key);
  const frag = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    if (m.index < last) continue;
    frag.append(text.slice(last, m.index));
    last = m.index + m[0].length;
    const value = params[m[1]];
    const glued = /^[^\s{]*/.exec(text.slice(last))?.[0] ?? "";
    if (value instanceof Element && glued) {
      // Keep punctuation right after an icon on its line: "♦: no" must not break after ♦.
      const span = document.createElement("span");
      span.className = "nowrap";
      span.append(value.cloneNode(true), glued);
      frag.append(span);
      last += glued.length;
    } else if (value instanceof Node) frag.append(value.cloneNode(true));
    else frag.append(value === undefined ? m[0] : String(value));
  }
  frag.append(text.slice(last));
  return frag;
}

/** Fill every data-i18n* attribute under root from the catalogue.
 * @param {Document | Element} [root] */
export function applyI18n(root = document) {
  /** @type {NodeListOf<HTMLElement>} */
  const texts = root.querySelectorAll("[data-i18n]");
  for (const node of texts) node.textContent = t(node.dataset.i18n ?? "");
  for (const [attr, data] of [
    ["placeholder", "i18nPlaceholder"],
    ["title", "i18nTitle"],
    ["aria-label", "i18nAriaLabel"],
    ["label", "i18nLabel"],
  ]) {
    /** @type {NodeListOf<HTMLElement>} */
    const nodes = root.querySelectorAll(`[data-i18n-${attr}]`);
    for (const node of nodes) {
      node.setAttribute(attr, t(node.dataset[data] ?? ""));
    }
  }
}

/** Call fn after every language change (to re-render what scripts drew).
 * @param {() => void} fn */
export function onLangChange(fn) {
  listeners.push(fn);
}

/** Load the catalogue of a language, remember the choice and redraw the page in it.
 * @param {string} next */
export async function setLang(next) {
  const res = await fetch(`/static/i18n/${next}.json`);
  if (!res.ok) throw new Error(`catalogue ${next}: HTTP ${res.status}`);
  catalogue = await res.json();
  lang = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang"));
  if (select) select.value = next;
  applyI18n(document);
  for (const fn of listeners) fn();
}

/** Load the first catalogue and wire the language switch. */
export async function initI18n() {
  const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("lang"));
  if (select) select.addEventListener("change", () => setLang(select.value));
  await setLang(initialLang());
}
