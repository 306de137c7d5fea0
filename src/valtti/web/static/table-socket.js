// @ts-check
/**
 * The table page's connection (docs/WEB.md, "A lost connection"): its WebSocket, pings, the
 * reconnection (after 0.5 s, doubling to 10 s), the status dot and the banner on the felt.
 * What it holds is `page.connection` (table-state.js); each frame the server sends goes to the
 * handler initSocket was given for its type.
 */

import { t } from "/static/i18n.js";
import { byId, saveTableKeys, tableKeys, toast, withGuest } from "/static/common.js";
import { announce } from "/static/alerts.js";
import { stopClock } from "/static/absence.js";
import { resetHint } from "/static/hint.js";
import { CLOSE, FRAME, MESSAGE } from "/static/protocol.js";
import { page, render } from "/static/table-state.js";

/**
 * @import { ChatFrame, ChatHistoryFrame, ErrorFrame, Frame, HintFrame, Message,
 *   SeatElsewhereFrame, StateFrame } from "/static/protocol.js"
 */

const PING_MS = 25000;
const PONG_MS = 10000; // a ping unanswered this long: the connection is dead, open a new one
const BACK_MS = 2000; // how long the banner says the connection is back
const FIRST_BACKOFF_MS = 500;
const LAST_BACKOFF_MS = 10000;

/**
 * @typedef {object} FrameHandlers what the page does with each frame (a pong is only heard)
 * @property {(frame: StateFrame) => void} state
 * @property {(frame: ErrorFrame) => void} error
 * @property {(frame: ChatFrame) => void} chat
 * @property {(frame: ChatHistoryFrame) => void} chat_history
 * @property {(frame: HintFrame) => void} hint
 * @property {(frame: SeatElsewhereFrame) => void} seat_elsewhere
 */

/** @type {FrameHandlers} */
const handlers = {
  state: () => {},
  error: () => {},
  chat: () => {},
  chat_history: () => {},
  hint: () => {},
  seat_elsewhere: () => {},
};

/** Say what to do with each frame (once, before connect). @param {FrameHandlers} given */
export function initSocket(given) {
  Object.assign(handlers, given);
}

/** The banner on the felt: the connection lost, or back a moment; hidden otherwise. */
export function renderConnection() {
  const { lost, backTimer } = page.connection;
  const banner = byId("connection");
  const shown = lost ? "lost" : backTimer ? "back" : "";
  banner.hidden = !shown;
  banner.dataset.connection = shown;
  banner.textContent = shown ? t(`connection.${shown}`) : "";
  document.body.dataset.stale = String(lost && !page.replay);
}

/** The connection dropped: the page shows it, and stops the clock, until a state comes. */
function connectionLost() {
  const connection = page.connection;
  if (connection.lost || connection.leaving) return;
  connection.lost = true;
  clearTimeout(connection.backTimer ?? undefined);
  connection.backTimer = null;
  page.whyCard = null;
  stopClock();
  announce(t("connection.lost"), true); // nothing can be played until it is back
  render();
}

/** A state came: if it came on a new connection after one was lost, say so a moment. */
export function connectionBack() {
  const connection = page.connection;
  if (!connection.lost) return;
  connection.lost = false;
  announce(t("connection.back"));
  connection.backTimer = setTimeout(() => {
    connection.backTimer = null;
    renderConnection();
  }, BACK_MS);
  renderConnection();
}

/** The status dot. @param {"connected" | "connecting" | "disconnected"} kind */
export function setStatus(kind) {
  const dot = byId("status");
  dot.dataset.state = kind;
  dot.dataset.i18nTitle = `status.${kind}`;
  dot.dataset.i18nAriaLabel = `status.${kind}`;
  dot.title = t(`status.${kind}`);
  dot.setAttribute("aria-label", t(`status.${kind}`));
}

/** The connection's address, with `token` (none: watching). @param {string | null} token */
function socketUrl(token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  const path = `/api/tables/${encodeURIComponent(page.id)}/ws${query}`;
  return `${scheme}://${location.host}${token ? path : withGuest(path)}`;
}

/** Open a connection to the table shown (`page.id`). */
export function connect() {
  const connection = page.connection;
  clearTimeout(connection.reconnectTimer ?? undefined);
  if (connection.stopped) return;
  setStatus("connecting");
  resetHint();
  // Moved elsewhere, the page watches: connecting with the token would take the seat back.
  const token = page.connection.elsewhere ? null : (tableKeys(page.id).token ?? null);
  const socket = new WebSocket(socketUrl(token));
  connection.socket = socket;
  /** @type {number | null} a ping's wait for an answer (any message will do) */
  let silence = null;
  const ping = () => {
    if (connection.socket === socket && send({ type: MESSAGE.PING }) && !silence) {
      silence = setTimeout(() => dropped(socket), PONG_MS);
    }
  };
  socket.onopen = () => {
    connection.backoff = FIRST_BACKOFF_MS;
    setStatus("connected");
    clearInterval(connection.pingTimer ?? undefined);
    connection.pingTimer = setInterval(ping, PING_MS);
    connection.probe = ping;
  };
  socket.onmessage = (event) => {
    clearTimeout(silence ?? undefined);
    silence = null;
    /** @type {Frame} */
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch {
      return;
    }
    if (frame.type === FRAME.STATE) {
      // A state on the connection made with a seat link's token: the server took it (not a
      // state the connection it replaced had on its way).
      const keys = tableKeys(page.id);
      if (keys.held && token && token === keys.token && connection.socket === socket) {
        saveTableKeys(page.id, { held: null });
      }
      handlers.state(frame);
    } else if (frame.type === FRAME.ERROR) handlers.error(frame);
    else if (frame.type === FRAME.CHAT) handlers.chat(frame);
    else if (frame.type === FRAME.CHAT_HISTORY) handlers.chat_history(frame);
    else if (frame.type === FRAME.HINT) handlers.hint(frame);
    else if (frame.type === FRAME.SEAT_ELSEWHERE) handlers.seat_elsewhere(frame);
  };
  socket.onclose = (event) => {
    clearTimeout(silence ?? undefined);
    if (connection.socket !== socket) return; // replaced by a newer connection
    if (event.code === CLOSE.NO_TABLE || event.code === CLOSE.NOT_WATCHER) {
      clearInterval(connection.pingTimer ?? undefined);
      setStatus("disconnected");
      page.pending = false;
      connection.stopped = true;
      showNotice(t(event.code === CLOSE.NO_TABLE ? "table.not_found" : "table.not_watcher"));
      return;
    }
    if (event.code === CLOSE.BAD_TOKEN) {
      const { held } = tableKeys(page.id);
      if (held) {
        // A seat link's token refused: what the browser held before is held again.
        saveTableKeys(page.id, { ...held, held: null });
        toast(t("error.bad_seat_link"), "error", "bad_seat_link");
      } else {
        // The seat token is unknown here: watch instead of retrying it forever.
        saveTableKeys(page.id, { token: null, seat: null });
        toast(t("error.bad_token"), "error", "bad_token");
      }
      reconnectLater(); // no connection was lost
      return;
    }
    dropped(socket);
  };
}

/** `socket`, the page's connection, closed or stopped answering: show it, and reconnect.
 * @param {WebSocket} socket */
function dropped(socket) {
  const connection = page.connection;
  if (connection.socket !== socket) return;
  connection.socket = null;
  connection.probe = () => {};
  socket.close(); // nothing more of it is heard (a dead one may take a while to close)
  connectionLost();
  reconnectLater();
}

function reconnectLater() {
  const connection = page.connection;
  clearInterval(connection.pingTimer ?? undefined);
  setStatus("disconnected");
  page.pending = false;
  clearTimeout(connection.reconnectTimer ?? undefined);
  connection.reconnectTimer = setTimeout(connect, connection.backoff);
  connection.backoff = Math.min(connection.backoff * 2, LAST_BACKOFF_MS);
}

/** Drop the current connection (e.g. after taking a seat) and open a fresh one now. */
export function reconnectNow() {
  const connection = page.connection;
  const old = connection.socket;
  connection.socket = null;
  if (old) old.close();
  connection.backoff = FIRST_BACKOFF_MS;
  connect();
}

/** The browser is online again: connect unless a connection is open or on its way. */
export function connectIfClosed() {
  const socket = page.connection.socket;
  if (!socket || socket.readyState === WebSocket.CLOSED) connect();
}

/** Send `message` on the open connection: whether it went. @param {Message} message */
export function send(message) {
  const socket = page.connection.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

/** Send, or say that the page is offline; whether it was sent. @param {Message} message */
export function sendOrSay(message) {
  const sent = send(message);
  if (!sent) toast(t("error.offline"), "error", "offline");
  return sent;
}

/** @param {string} text */
function showNotice(text) {
  const box = byId("notice");
  box.textContent = text;
  box.hidden = false;
}
