// @ts-check
/**
 * The table chat (docs/WEB.md): seated people write texts and quick emotes, everyone reads.
 * Every message is set as text (textContent), never as markup; emotes are named by the
 * server and said in the page's language. A player can be muted (localStorage
 * "valtti:chat:muted" = ["N:nickname", …], a seat and its nickname, as two seats may share a
 * nickname): their messages are then not shown; your own seat's always are.
 *
 * The chat is a dock in a corner (#chat-dock), open at first on a screen wide and tall enough
 * for it beside the table, folded on a phone; while folded, #chat-unread counts the messages
 * others said meanwhile. An emote is drawn with the page's own small picture and its words, so
 * that it needs no emoji font.
 *
 * Hooks for end-to-end tests:
 *   #chat-log li[data-seat="N"][data-kind="text" | "emote"] with .chat-name and .chat-text
 *   #chat-form, #chat-input, #chat-send; #chat-emotes button[data-emote="good"]
 *   #chat-mutes button[data-mute="N"][aria-pressed="true|false"]
 *   #chat-toggle[aria-expanded="true|false"] opens and folds #chat; #chat-unread[data-count]
 */

import { t, onLangChange } from "/static/i18n.js";
import { byId, el } from "/static/common.js";
import { svg } from "/static/cards.js";
import { seatLetter } from "/static/names.js";
import { MESSAGE } from "/static/protocol.js";

/**
 * @import { ChatFrame, ChatHistoryFrame, Seat, Send } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 */

export const EMOTES = ["good", "thanks", "oops", "wow", "hurry"];
const MUTED_KEY = "valtti:chat:muted";
/** Where the chat is open at first: beside the table, not over it, and below side panels it
 * leaves whole (at 1366 × 768 it hid the score sheet's second team: folded there, its badge
 * counts what is said). */
const ROOMY = "(min-width: 901px) and (min-height: 800px)";

/** Each emote's picture on a 16 × 16 grid: stroked paths in the text's colour.
 * @type {Record<string, string[]>} */
const EMOTE_PATHS = {
  good: ["M3 8.5l3.2 3.2L13 4.8"], // a tick
  thanks: [
    "M8 13.5S2.5 10 2.5 6.2A2.8 2.8 0 0 1 8 4.9a2.8 2.8 0 0 1 5.5 1.3C13.5 10 8 13.5 8 13.5z",
  ],
  oops: [
    "M8 1.8a6.2 6.2 0 1 0 0 12.4A6.2 6.2 0 1 0 8 1.8z",
    "M5.6 6.4h.01M10.4 6.4h.01",
    "M5.5 10.8q2.5-1.6 5 0",
  ],
  wow: ["M8 2.2v7.6", "M8 12.6v.6"], // an exclamation mark
  hurry: ["M4 2h8M4 14h8", "M5 2c0 3.5 6 4.5 6 6s-6 2.5-6 6", "M11 2c0 3.5-6 4.5-6 6s6 2.5 6 6"],
};

/** @type {ChatFrame[]} */
let messages = [];
/** @type {View | null} */
let view = null;
/** @type {Send | null} */
let sender = null;
/** What this page sent, oldest first, until the table shows each or refuses it: a text, or null
 * for an emote. @type {(string | null)[]} */
let unsent = [];

/** @returns {string[]} */
function muted() {
  try {
    const list = JSON.parse(localStorage.getItem(MUTED_KEY) ?? "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** @param {string} key @param {boolean} on */
function setMuted(key, on) {
  const list = muted().filter((n) => n !== key);
  if (on) list.push(key);
  localStorage.setItem(MUTED_KEY, JSON.stringify(list));
}

/** Who a mute names: the seat and its nickname.
 * @param {Seat | null} seat @param {string | null} name */
function muteKey(seat, name) {
  return `${seat}:${name}`;
}

/** Whether message `m` is shown: your own seat's always are, a muted person's not.
 * @param {ChatFrame} m @param {Set<string>} [hidden] */
function shown(m, hidden = new Set(muted())) {
  return m.seat === view?.you || !hidden.has(muteKey(m.seat, m.name));
}

/** An emote's picture, its name said by the words beside it. @param {string} name */
function emoteIcon(name) {
  const icon = svg("svg", { class: "emote-icon", viewBox: "0 0 16 16", "aria-hidden": "true" });
  for (const d of EMOTE_PATHS[name] ?? []) icon.append(svg("path", { d }));
  return icon;
}

/** An emote as its button and the log show it: the picture and the words.
 * @param {string} name */
function emoteNode(name) {
  const node = document.createDocumentFragment();
  node.append(emoteIcon(name), " ", t(`chat.emote.${name}`));
  return node;
}

/** @param {ChatFrame} m */
function item(m) {
  return el(
    "li",
    { dataset: { seat: m.seat ?? "", kind: m.emote ? "emote" : "text" } },
    el("b", { class: "chat-name" }, `${m.name ?? ""} (${m.seat ? seatLetter(m.seat) : ""})`),
    " ",
    el("span", { class: "chat-text" }, m.emote ? emoteNode(m.emote) : m.text),
  );
}

/** Messages others said while the chat was folded. */
let unread = 0;

function isOpen() {
  return !byId("chat").hidden;
}

function drawUnread() {
  const badge = byId("chat-unread");
  badge.hidden = unread === 0;
  badge.dataset.count = String(unread);
  badge.textContent = unread > 9 ? "9+" : String(unread);
  badge.title = t("chat.unread", { n: unread });
}

/** Open or fold the chat; opening reads what came meanwhile. @param {boolean} open */
function setOpen(open) {
  byId("chat").hidden = !open;
  byId("chat-toggle").setAttribute("aria-expanded", String(open));
  document.body.dataset.chat = open ? "open" : "folded";
  if (open) {
    unread = 0;
    const log = byId("chat-log");
    log.scrollTop = log.scrollHeight;
  }
  drawUnread();
}

function drawLog() {
  const log = byId("chat-log");
  const hidden = new Set(muted());
  log.replaceChildren(...messages.filter((m) => shown(m, hidden)).map(item));
  log.scrollTop = log.scrollHeight;
}

/** Add one message to the log: the log is a live region, and a screen reader reads what is
 * added, so the messages already there are kept, not drawn again. @param {ChatFrame} m */
function addToLog(m) {
  const log = byId("chat-log");
  const hidden = new Set(muted());
  if (shown(m, hidden)) log.append(item(m));
  const kept = messages.filter((n) => shown(n, hidden)).length; // the oldest may have gone
  while (log.childElementCount > kept) log.firstElementChild?.remove();
  log.scrollTop = log.scrollHeight;
}

function drawMutes() {
  const box = byId("chat-mutes");
  const hidden = new Set(muted());
  const people = (view?.table?.seats ?? []).filter(
    (s) => s.kind === "human" && s.seat !== view?.you,
  );
  box.replaceChildren(
    ...people.map((s) => {
      const key = muteKey(s.seat, s.name);
      const on = hidden.has(key);
      return el(
        "button",
        {
          type: "button",
          class: "small",
          dataset: { mute: s.seat },
          "aria-pressed": String(on),
          onclick: () => {
            setMuted(key, !on);
            drawMutes();
            drawLog();
          },
        },
        t(on ? "chat.unmute" : "chat.mute", { name: s.name, seat: seatLetter(s.seat) }),
      );
    }),
  );
}

/** @returns {NodeListOf<HTMLButtonElement>} */
function emoteButtons() {
  return document.querySelectorAll("#chat-emotes button[data-emote]");
}

/** Wire the chat form; `send(message)` sends to the server and says whether it could.
 * @param {Send} send */
export function initChat(send) {
  sender = send;
  const form = byId("chat-form");
  const input = byId("chat-input", HTMLInputElement);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || !sender?.({ type: MESSAGE.CHAT, text })) return; // unsent: the text stays typed
    unsent.push(text);
    input.value = "";
  });
  byId("chat-toggle").addEventListener("click", () => setOpen(!isOpen()));
  setOpen(window.matchMedia(ROOMY).matches);
  const emotes = byId("chat-emotes");
  for (const name of EMOTES) {
    emotes.append(
      el(
        "button",
        {
          type: "button",
          class: "small",
          dataset: { emote: name },
          onclick: () => {
            if (sender?.({ type: MESSAGE.CHAT, emote: name })) unsent.push(null);
          },
        },
        "",
      ),
    );
  }
  const drawEmotes = () => {
    for (const b of emoteButtons()) b.replaceChildren(emoteNode(b.dataset.emote ?? ""));
  };
  onLangChange(() => {
    drawEmotes();
    drawLog();
    drawMutes();
    drawUnread();
  });
  drawEmotes();
}

/** The server refused the oldest text still unanswered (too fast, or not a chat text): it is
 * put back in the box unless something else is being typed there. The server answers a
 * connection's messages in order. */
export function chatRefused() {
  const input = byId("chat-input", HTMLInputElement);
  const text = unsent.shift();
  if (text && !input.value) input.value = text;
}

/** A chat message said at the table. @param {ChatFrame} message */
export function onChat(message) {
  const sent = message.emote ? null : (message.text ?? null);
  const mine = message.seat === view?.you ? unsent.indexOf(sent) : -1;
  if (mine >= 0) unsent.splice(mine, 1);
  messages.push(message);
  if (messages.length > 50) messages = messages.slice(-50);
  addToLog(message);
  if (!isOpen() && message.seat !== view?.you && shown(message)) {
    unread += 1;
    drawUnread();
  }
}

/** The table's last messages, on a new connection. @param {ChatHistoryFrame} message */
export function onChatHistory(message) {
  unsent = []; // a new connection: nothing sent on the old one is awaited
  messages = [...(message.messages ?? [])];
  drawLog();
}

/** Redraw what depends on the table: who may be muted, whether this page may write.
 * @param {View} current */
export function renderChat(current) {
  if (current.replay) return;
  const sameSeat = view?.you === current.you;
  view = current;
  if (!sameSeat) drawLog(); // your own seat's messages are never muted
  const seated = Boolean(current.you);
  byId("chat-form").hidden = !seated;
  byId("chat-emotes").hidden = !seated;
  byId("chat-watching").hidden = seated;
  // While the connection is lost nothing can be sent (table-socket.js marks the page stale).
  const lost = document.body.dataset.stale === "true";
  byId("chat-send", HTMLButtonElement).disabled = lost;
  /** @type {NodeListOf<HTMLButtonElement>} */
  const emotes = document.querySelectorAll("#chat-emotes button");
  for (const b of emotes) b.disabled = lost;
  drawMutes();
}
