// @ts-check
/**
 * The table chat (docs/WEB.md): seated people write texts and quick emotes, everyone reads.
 * Every message is set as text (textContent), never as markup; emotes are named by the
 * server and said in the page's language. A player can be muted (localStorage
 * "valtti:chat:muted" = ["N:nickname", …], a seat and its nickname, as two seats may share a
 * nickname): their messages are then not shown; your own seat's always are.
 *
 * Hooks for end-to-end tests:
 *   #chat-log li[data-seat="N"][data-kind="text" | "emote"] with .chat-name and .chat-text
 *   #chat-form, #chat-input, #chat-send; #chat-emotes button[data-emote="good"]
 *   #chat-mutes button[data-mute="N"][aria-pressed="true|false"]
 */

import { t, onLangChange } from "/static/i18n.js";
import { byId, el } from "/static/common.js";
import { seatLetter } from "/static/names.js";
import { MESSAGE } from "/static/protocol.js";

/**
 * @import { ChatFrame, ChatHistoryFrame, Seat, Send } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 */

export const EMOTES = ["good", "thanks", "oops", "wow", "hurry"];
const MUTED_KEY = "valtti:chat:muted";

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
    const list = JSON.parse(localStorage.getItem(MUTED_KEY));
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

/** Who a mute names: the seat and its nickname. @param {Seat | null} seat @param {string} name */
function muteKey(seat, name) {
  return `${seat}:${name}`;
}

/** Whether message `m` is shown: your own seat's always are, a muted person's not.
 * @param {ChatFrame} m @param {Set<string>} [hidden] */
function shown(m, hidden = new Set(muted())) {
  return m.seat === view?.you || !hidden.has(muteKey(m.seat, m.name));
}

/** @param {ChatFrame} m */
function item(m) {
  return el(
    "li",
    { dataset: { seat: m.seat ?? "", kind: m.emote ? "emote" : "text" } },
    el("b", { class: "chat-name" }, `${m.name ?? ""} (${m.seat ? seatLetter(m.seat) : ""})`),
    " ",
    el("span", { class: "chat-text" }, m.emote ? t(`chat.emote.${m.emote}`) : m.text),
  );
}

function drawLog() {
  const log = document.getElementById("chat-log");
  const hidden = new Set(muted());
  log.replaceChildren(...messages.filter((m) => shown(m, hidden)).map(item));
  log.scrollTop = log.scrollHeight;
}

/** Add one message to the log: the log is a live region, and a screen reader reads what is
 * added, so the messages already there are kept, not drawn again. @param {ChatFrame} m */
function addToLog(m) {
  const log = document.getElementById("chat-log");
  const hidden = new Set(muted());
  if (shown(m, hidden)) log.append(item(m));
  const kept = messages.filter((n) => shown(n, hidden)).length; // the oldest may have gone
  while (log.childElementCount > kept) log.firstElementChild.remove();
  log.scrollTop = log.scrollHeight;
}

function drawMutes() {
  const box = document.getElementById("chat-mutes");
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
  const form = document.getElementById("chat-form");
  const input = byId("chat-input", HTMLInputElement);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text || !sender({ type: MESSAGE.CHAT, text })) return; // unsent: the text stays typed
    unsent.push(text);
    input.value = "";
  });
  const emotes = document.getElementById("chat-emotes");
  for (const name of EMOTES) {
    emotes.append(
      el(
        "button",
        {
          type: "button",
          class: "small",
          dataset: { emote: name },
          onclick: () => {
            if (sender({ type: MESSAGE.CHAT, emote: name })) unsent.push(null);
          },
        },
        "",
      ),
    );
  }
  onLangChange(() => {
    for (const b of emoteButtons()) {
      b.textContent = t(`chat.emote.${b.dataset.emote}`);
    }
    drawLog();
    drawMutes();
  });
  for (const b of emoteButtons()) {
    b.textContent = t(`chat.emote.${b.dataset.emote}`);
  }
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
  const sent = message.emote ? null : message.text;
  const mine = message.seat === view?.you ? unsent.indexOf(sent) : -1;
  if (mine >= 0) unsent.splice(mine, 1);
  messages.push(message);
  if (messages.length > 50) messages = messages.slice(-50);
  addToLog(message);
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
  document.getElementById("chat-form").hidden = !seated;
  document.getElementById("chat-emotes").hidden = !seated;
  document.getElementById("chat-watching").hidden = seated;
  // While the connection is lost nothing can be sent (table-socket.js marks the page stale).
  const lost = document.body.dataset.stale === "true";
  byId("chat-send", HTMLButtonElement).disabled = lost;
  /** @type {NodeListOf<HTMLButtonElement>} */
  const emotes = document.querySelectorAll("#chat-emotes button");
  for (const b of emotes) b.disabled = lost;
  drawMutes();
}
