// @ts-check
/** Helpers shared by the lobby and the table page. Server text is only ever set as text. */

import { has, t } from "/static/i18n.js";

/**
 * @import { Options, Seat, SeatEntry } from "/static/protocol.js"
 */

/** @typedef {Node | string | null | undefined | false} Child what `el` takes as a child */
/** @typedef {Error & {code: string, status: number}} ApiError a failed API call */
/**
 * @typedef {object} TableKeys what this browser holds for a table
 * @property {string | null} [token] the seat's token
 * @property {Seat | null} [seat]
 * @property {string} [creator_token]
 * @property {string | null} [guest] club mode: the key a guest takes a seat with (?guest=)
 * @property {number} [at] when this browser last kept something for it (ms since 1970)
 * @property {{token: string | null, seat: Seat | null} | null} [held] what was held before a
 *   seat link's token, until the server accepts the new one (a refused link gives it back)
 */

/**
 * Build an element. attrs: "class", "text" (textContent), "dataset" (object), "on<event>"
 * (listener), anything else as an attribute (true → empty, null/false → left out).
 * Children may be nodes or strings (strings become text nodes, never markup).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = /** @type {string} */ (v);
    else if (k === "text") node.textContent = /** @type {string} */ (v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k.startsWith("on") && typeof v === "function")
      node.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

/**
 * The page's element with id `id`, as the kind of element its markup makes it: `type` (e.g.
 * HTMLInputElement; HTMLElement when left out) is for the type check only. The page's markup
 * has every element its script asks for: one missing is a fault of the page, thrown here
 * rather than as a null read further on.
 * @template {HTMLElement} [T=HTMLElement]
 * @param {string} id
 * @param {new () => T} [_type]
 * @returns {T}
 */
export function byId(id, _type) {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no element #${id}`);
  return /** @type {T} */ (found);
}

/** An element with a catalogue string that is redrawn on a language change (data-i18n).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {string} key @param {Record<string, unknown>} [attrs] */
export function i18nEl(tag, key, attrs = {}) {
  return el(tag, { ...attrs, "data-i18n": key, text: t(key) });
}

/** The signed-in member's CSRF token in club mode (GET /api/club/me), sent with each change. */
let csrfToken = "";

/** Use `token` as the CSRF token of every request that changes something. @param {string} token */
export function useCsrf(token) {
  csrfToken = token || "";
}

/** The key a member gave a guest in the page's address (?guest=KEY), or "". */
export function guestKey() {
  return new URLSearchParams(location.search).get("guest") || "";
}

/** `path` with the page's guest key as ?guest=, when it has one. @param {string} path */
export function withGuest(path) {
  const key = guestKey();
  if (!key) return path;
  return `${path}${path.includes("?") ? "&" : "?"}guest=${encodeURIComponent(key)}`;
}

/** Call the JSON API; a failure throws an Error with .code and .status from the server, or
 * .code "offline" when no answer came from it (the server, the network or, behind a reverse
 * proxy, the server behind it is down).
 * @param {string} method @param {string} path @param {unknown} [body]
 * @returns {Promise<any>} the answer's JSON */
export async function api(method, path, body) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  // Club mode: a change is made only with the session's CSRF token (docs/HOSTING.md).
  if (csrfToken && method !== "GET") init.headers["X-CSRF-Token"] = csrfToken;
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    const err = /** @type {ApiError} */ (new Error("no answer from the server"));
    err.code = "offline";
    err.status = 0;
    throw err;
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const err = /** @type {ApiError} */ (new Error(data?.message || res.statusText));
    // A reverse proxy's own page for a server behind it that does not answer (docs/HOSTING.md).
    const unreached = !data?.error && [502, 503, 504].includes(res.status);
    err.code = data?.error || (unreached ? "offline" : `http_${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

/** A catalogue text for a server error code (HTTP or WebSocket). @param {string} code */
export function errorText(code) {
  return has(`error.${code}`) ? t(`error.${code}`) : t("error.other", { code });
}

/** Tell in a toast why a call of the API failed (`api`'s ApiError, by its code).
 * @param {unknown} err */
export function toastFailure(err) {
  const { code } = /** @type {ApiError} */ (err);
  toast(errorText(code), "error", code);
}

/**
 * The first element under `root` that `selector` matches, as the kind of element the markup
 * makes it (`type`, for the type check only). The markup has every element the script asks
 * for: one missing is a fault of the page, thrown here.
 * @template {Element} [T=HTMLElement]
 * @param {ParentNode} root @param {string} selector @param {new () => T} [_type]
 * @returns {T}
 */
export function one(root, selector, _type) {
  const found = root.querySelector(selector);
  if (found === null) throw new Error(`the page has no ${selector}`);
  return /** @type {T} */ (found);
}

/** Show a brief message at the bottom of the page (#toasts, in the page's markup, over an open
 * modal dialog too: placeToasts); kind "error" (what the person tried did not happen: a
 * refused action, no connection), said to a screen reader at once (its role="alert" region),
 * or "info", said politely (role="status").
 * @param {string} text @param {"error" | "info"} [kind] @param {string} [code] */
export function toast(text, kind = "error", code = "") {
  placeToasts();
  const box = byId("toasts");
  // The same message again replaces the one showing instead of piling up over the page.
  /** @type {NodeListOf<HTMLElement>} */
  const shown = box.querySelectorAll(".toast");
  for (const old of shown) {
    if (code && old.dataset.code === code && old.textContent === text) old.remove();
  }
  const item = el("div", { class: `toast toast-${kind}`, dataset: { code } }, text);
  one(box, kind === "error" ? '[role="alert"]' : '[role="status"]').append(item);
  setTimeout(() => item.classList.add("toast-leaving"), 3200);
  setTimeout(() => item.remove(), 3700);
}

/**
 * Put #toasts in the modal dialog opened last (`opened`, else the one they are in while it is
 * open, else any open one), or back in the page when none is open. A modal dialog is in the
 * top layer, over everything else and its backdrop, and makes the rest of the page inert: a
 * toast outside it could be neither read nor heard by a screen reader. (The toasts keep their
 * place on the screen: a dialog is no containing block of a fixed element.)
 * @param {HTMLDialogElement | null} [opened]
 */
function placeToasts(opened = null) {
  const box = document.getElementById("toasts");
  if (!box) return;
  const host =
    opened ??
    box.closest("dialog:modal") ??
    [...document.querySelectorAll("dialog:modal")].at(-1) ??
    document.body;
  if (box.parentElement !== host) host.append(box);
}

// A dialog's toggle and close events do not bubble: they are caught on their way down.
for (const type of ["toggle", "close"]) {
  document.addEventListener(
    type,
    (event) => {
      const dialog = event.target;
      if (!(dialog instanceof HTMLDialogElement)) return;
      const state = /** @type {ToggleEvent} */ (event).newState; // a close event has none
      placeToasts(state === "open" && dialog.matches(":modal") ? dialog : null);
    },
    true,
  );
}

/** What this browser holds for a table: {token, seat, creator_token}.
 * @param {string} id @returns {TableKeys} */
export function tableKeys(id) {
  try {
    return JSON.parse(localStorage.getItem(`valtti:table:${id}`) ?? "null") ?? {};
  } catch {
    return {};
  }
}

/** Merge fields into what this browser holds for a table.
 * @param {string} id @param {TableKeys} fields */
export function saveTableKeys(id, fields) {
  const keys = { ...tableKeys(id), ...fields, at: Date.now() };
  localStorage.setItem(`valtti:table:${id}`, JSON.stringify(keys));
}

/** The tables this browser holds a seat's or a creator's token for, the latest kept first:
 * at most `most`. @param {number} most @returns {string[]} */
export function myTables(most) {
  /** @type {{id: string, at: number}[]} */
  const mine = [];
  for (let i = 0; i < localStorage.length; i++) {
    const name = localStorage.key(i) ?? "";
    if (!name.startsWith("valtti:table:")) continue;
    const id = name.slice("valtti:table:".length);
    const keys = tableKeys(id);
    if (keys.token || keys.creator_token) mine.push({ id, at: keys.at ?? 0 });
  }
  return mine
    .sort((a, b) => b.at - a.at)
    .slice(0, most)
    .map((m) => m.id);
}

/** Ask the person to confirm something in a modal dialog of the page's own: `text`, and the
 * button that does it, named `ok`; whether they did (Cancel or Escape: not).
 * @param {string} text @param {string} ok @returns {Promise<boolean>} */
export function confirmDialog(text, ok) {
  const dialog = el(
    "dialog",
    { class: "confirm-dialog", "aria-labelledby": "confirm-text" },
    el("p", { id: "confirm-text" }, text),
    el(
      "div",
      { class: "dialog-buttons" },
      el("button", { type: "button", "data-confirm": "no" }, t("common.cancel")),
      el("button", { type: "button", class: "primary", "data-confirm": "yes" }, ok),
    ),
  );
  document.body.append(dialog);
  return new Promise((resolve) => {
    /** @param {boolean} yes */
    const done = (yes) => {
      dialog.close();
      dialog.remove();
      resolve(yes);
    };
    dialog.addEventListener("cancel", () => done(false));
    one(dialog, '[data-confirm="no"]').addEventListener("click", () => done(false));
    one(dialog, '[data-confirm="yes"]').addEventListener("click", () => done(true));
    dialog.showModal();
  });
}

/** The creator closes table `id` (POST /api/tables/{id}/close), after asking them to confirm;
 * whether it was closed (a refusal is said in a toast). @param {string} id @param {string} name
 * the table's name, for the question @returns {Promise<boolean>} */
export async function closeTable(id, name) {
  const creator = tableKeys(id).creator_token;
  if (!creator) return false;
  if (!(await confirmDialog(t("lobby.close.confirm", { name }), t("lobby.close.ok")))) {
    return false;
  }
  try {
    await api("POST", `/api/tables/${encodeURIComponent(id)}/close`, { creator_token: creator });
    return true;
  } catch (err) {
    toastFailure(err);
    return false;
  }
}

/** The nickname this browser used last. */
export function savedNickname() {
  return localStorage.getItem("valtti:nickname") ?? "";
}

/** @param {string} name */
export function saveNickname(name) {
  localStorage.setItem("valtti:nickname", name);
}

/** Take `seat` at table `id` under `nickname` and keep its token; rejects with the API error.
 * @param {string} id @param {Seat} seat @param {string} nickname */
export async function takeSeat(id, seat, nickname) {
  const got = await api("POST", withGuest(`/api/tables/${encodeURIComponent(id)}/seats/${seat}`), {
    nickname,
  });
  saveNickname(nickname);
  saveTableKeys(id, { token: got.token, seat: got.seat ?? seat });
}

/** A nickname as the server accepts it (web/referee/seats.py): 1–24 characters after trimming, no
 * control, format (but the zero-width joiner) or line-breaking characters, and something to see.
 * @param {string} raw @returns {string | null} the catalogue key of what is wrong */
export function nicknameProblem(raw) {
  // trim() and the spaces Python's strip() adds (web/referee/seats.py trim_nickname).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the separators Python strips
  const name = raw.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/g, "");
  if (!name) return "nickname.empty";
  if ([...name].length > 24) return "nickname.long";
  if (/[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]|(?!\u200d)\p{Cf}/u.test(name)) return "nickname.control";
  if (!/[\p{L}\p{N}\p{P}\p{S}]/u.test(name)) return "nickname.invisible";
  return null;
}

/** @type {Promise<Options> | null} */
let options = null;

/** What a table may be made of, from the server (GET /api/options): the engine's variant
 * switches `[{name, values}]` (default first) and the computer players' names.
 * @returns {Promise<Options>} */
export function tableOptions() {
  options ??= api("GET", "/api/options");
  return options;
}

/** A seat's tooltip from a table summary's seat entry: a computer player's name as the
 * server, a record and the command line know it ("pimc:hard"), beside the level its name
 * says; null for the others. @param {SeatEntry | undefined} entry */
export function seatTitle(entry) {
  return entry?.kind === "computer" ? String(entry.name) : null;
}

// Who sits at a seat, in words: names.js names every seat (computer players by seat and level).
export { seatName } from "/static/names.js";

/** Copy text to the clipboard, also on plain http where the clipboard API is missing.
 * @param {string} text @param {HTMLInputElement} [input] */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!input) return false;
    input.select();
    return document.execCommand("copy");
  }
}

/** The address of a table page at `base` (an origin: this page's by default).
 * @param {string} id @param {string} [base] */
export function tableLink(id, base = location.origin) {
  return `${base}/t/${encodeURIComponent(id)}`;
}

/** @typedef {{public_url: string | null, lan_urls: string[]}} Reach GET /api/server */
/** @type {Reach} */
const UNREACHED = { public_url: null, lan_urls: [] };
/** @type {Promise<Reach> | null} */
let reach = null;

/** Whether a host name is this computer only (localhost, 127.x.x.x, ::1, 0.0.0.0).
 * @param {string} hostname */
export function isLoopback(hostname) {
  const name = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    /^127\./.test(name) ||
    name === "::1" ||
    name === "0.0.0.0"
  );
}

/** The origin others open this server at (GET /api/server), as {base, onlyHere}: the
 * configured public URL; else the address this browser used unless it is a loopback one; else
 * the first address friends on the local network can open; else this page's own, which only
 * this computer can open (onlyHere). @returns {Promise<{base: string, onlyHere: boolean}>} */
export async function shareBase() {
  reach ??= api("GET", "/api/server").catch(() => UNREACHED);
  const { public_url: publicUrl, lan_urls: lan } = await reach;
  if (publicUrl) return { base: publicUrl, onlyHere: false };
  if (!isLoopback(location.hostname)) return { base: location.origin, onlyHere: false };
  if (lan.length) return { base: lan[0].replace(/\/$/, ""), onlyHere: false };
  return { base: location.origin, onlyHere: true };
}

/** Put the share link of table `id` into `input`; show the element with id `warningId` only
 * when nobody but this computer could open it.
 * @param {string} id @param {HTMLInputElement} input @param {string} warningId */
export async function showShareLink(id, input, warningId) {
  const { base, onlyHere } = await shareBase();
  // Club mode: the creator's link lets a guest in (the key is the table's, never a member's).
  const guest = tableKeys(id).guest || guestKey();
  input.value = tableLink(id, base) + (guest ? `?guest=${encodeURIComponent(guest)}` : "");
  byId(warningId).hidden = !onlyHere;
}

/** Show the element with id `warningId` only when nobody but this computer could open this
 * server's links. @param {string} warningId */
export async function showLoopbackWarning(warningId) {
  byId(warningId).hidden = !(await shareBase()).onlyHere;
}
