// @ts-check
/**
 * What the table page does with the server's state and error frames, and with a person's
 * moves: play an action, take a seat, hand one to a computer player. It changes `page`
 * (table-state.js) and asks for a drawing; it draws nothing itself.
 */

import { t } from "/static/i18n.js";
import {
  errorText,
  nicknameProblem,
  one,
  saveTableKeys,
  tableKeys,
  takeSeat,
  toast,
  toastFailure,
} from "/static/common.js";
import { holdFocus } from "/static/keyboard.js";
import { noteState } from "/static/absence.js";
import { announce } from "/static/alerts.js";
import { dealEnded, nextDealAfterWait } from "/static/ends.js";
import { chatRefused } from "/static/chat.js";
import { hintRefused } from "/static/hint.js";
import { MESSAGE } from "/static/protocol.js";
import { cardText } from "/static/cards.js";
import { currentView, liveView, page, render, stale, timedOutMoves } from "/static/table-state.js";
import { connectionBack, reconnectNow, send } from "/static/table-socket.js";
import { startReplay } from "/static/table-replay.js";
import { refusalText, timedOutText } from "/static/table-words.js";

/** @import { ErrorFrame, Seat, SeatElsewhereFrame, StateFrame } from "/static/protocol.js" */

const HOLD_TRICK_MS = 1500; // a completed trick stays in the middle this long

/** A state frame: the table as it is now. @param {StateFrame} message */
export function onState(message) {
  const previous = page.state;
  page.state = message;
  page.pending = false;
  connectionBack();
  noteState(message);
  if (previous) {
    const key = (/** @type {StateFrame} */ s) =>
      s.last_trick ? `${s.deal}:${s.last_trick.number}` : null;
    const newKey = key(message);
    if (newKey && message.last_trick && newKey !== key(previous)) {
      page.hold = { trick: message.last_trick, until: Date.now() + HOLD_TRICK_MS };
      clearTimeout(page.holdTimer ?? undefined);
      page.holdTimer = setTimeout(() => {
        page.hold = null;
        render();
      }, HOLD_TRICK_MS);
    }
    // A deal's end is shown a while when the page did not show it yet: the next deal came at
    // once. After the wait between deals, the next deal replaces it at once.
    tellTimedOut(previous, message);
    const shown = previous.observation?.phase === "over";
    const next = message.deal && previous.deal && message.deal > previous.deal;
    if (next && shown) nextDealAfterWait();
    else if (next || (message.observation?.phase === "over" && !shown)) dealEnded();
  }
  if (message.table?.rematch && message.table.id === page.id) {
    // The match was played again at a new table: go on there, holding the same keys (a page
    // that stays for the replay gives them to its link to the rematch, unless keys are held
    // there already).
    const there = tableKeys(message.table.rematch);
    if (!page.replayAsked || !Object.keys(there).length) {
      saveTableKeys(message.table.rematch, tableKeys(page.id));
    }
    if (!page.replayAsked) {
      page.id = message.table.rematch;
      // The address bar shows the table played now. In place of the finished match's entry:
      // going back to that address would only lead on to the rematch again.
      history.replaceState(null, "", `/t/${encodeURIComponent(page.id)}`);
      reconnectNow();
      return;
    }
  }
  if (message.you) saveTableKeys(page.id, { seat: message.you });
  render();
  if (page.replayAsked && !page.replayOpened && message.table?.status === "finished") {
    page.replayOpened = true;
    startReplay();
  }
}

/** Say in a toast each move of the new state that a computer player made for this page's
 * person because their time ran out (the log marks it too: table-panels.js).
 * @param {StateFrame} previous @param {StateFrame} message */
function tellTimedOut(previous, message) {
  if (!message.you || previous.deal !== message.deal) return;
  const before = previous.observation?.history?.length ?? 0;
  const view = liveView();
  for (const move of timedOutMoves(view)) {
    if (move.index >= before && move.seat === message.you) {
      toast(timedOutText(view, move, cardText), "info", "timed_out");
    }
  }
}

/** The seat is played on another page or device now: this page watches, and says so, until
 * its person takes the seat here again (takeSeatHere). @param {SeatElsewhereFrame} _message */
export function onSeatElsewhere(_message) {
  page.connection.elsewhere = true;
  announce(t("seat.elsewhere"));
  render();
}

/** "This is my seat": play the seat on this page again, with the token it holds (the page
 * that plays it now watches from then on). */
export function takeSeatHere() {
  if (!tableKeys(page.id).token) return;
  page.connection.elsewhere = false;
  reconnectNow();
}

/** Take away the toasts that asked for a nickname: one is entered, or the seat was taken. */
export function dropNicknameToasts() {
  for (const old of document.querySelectorAll('#toasts .toast[data-code^="nickname."]')) {
    old.remove();
  }
}

/** An error frame: what this page sent was refused. @param {ErrorFrame} message */
export function onError(message) {
  page.pending = false;
  hintRefused();
  if (message.code === "chat_throttled" || message.code === "bad_chat") chatRefused();
  const view = currentView();
  const refusal = message.code === "illegal" && page.state ? message.refusal : undefined;
  const text = refusal && view ? refusalText(view, refusal) : errorText(message.code);
  toast(text, "error", message.code ?? "");
  render();
}

/** Play action `token` for your seat (a card, a declaration, a question, an answer).
 * @param {string} token */
export function act(token) {
  const view = currentView();
  if (page.pending || !page.state || !view || stale(view)) return;
  if (send({ type: MESSAGE.ACTION, action: token, seq: page.state.seq })) {
    page.pending = true;
    holdFocus();
    /** @type {NodeListOf<HTMLButtonElement>} */
    const buttons = document.querySelectorAll("[data-card], [data-action]");
    for (const b of buttons) b.disabled = true;
  } else {
    toast(t("error.offline"), "error", "offline");
  }
}

/** The creator hands `seat` to the computer player `player`.
 * @param {Seat} seat @param {string} player */
export function replaceSeat(seat, player) {
  const creator = tableKeys(page.id).creator_token;
  if (!send({ type: MESSAGE.REPLACE, seat, player, creator_token: creator ?? "" })) {
    toast(t("error.offline"), "error", "offline");
  }
}

/** Take `seat` under the nickname typed in #take-field, and play it. @param {Seat} seat */
export async function sitDown(seat) {
  const input = one(document, '#take-field input[name="nickname"]', HTMLInputElement);
  const problem = nicknameProblem(input.value);
  if (problem) {
    toast(t(problem), "error", problem);
    input.focus();
    return;
  }
  const nickname = input.value.trim();
  try {
    await takeSeat(page.id, seat, nickname);
    dropNicknameToasts();
    page.connection.elsewhere = false;
    reconnectNow();
  } catch (err) {
    toastFailure(err);
  }
}
