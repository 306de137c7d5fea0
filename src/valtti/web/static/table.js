// @ts-check
/**
 * The table page (/t/{id}): play a seat, watch, or replay a finished match.
 *
 * The page draws only what the server's latest `state` message says (docs/WEB.md); it never
 * decides legality: exactly the tokens of `observation.legal` are enabled, and each is sent back
 * as it came: {"type": "action", "action": token, "seq": state.seq}.
 *
 * Hooks for end-to-end tests:
 *   #status            connection dot: data-state="connected" | "connecting" | "disconnected"
 *   #connection        the banner on the felt: data-connection="lost" from the moment the
 *                      connection drops (it reconnects by itself) until a state comes on a new
 *                      one, then "back" a moment, else hidden. While lost, body[data-stale=
 *                      "true"]: the table is greyed, every card and action button is disabled
 *                      (each card names the reason by aria-describedby, and #announcer says
 *                      it), the other seats' dots say data-connected="unknown" and the turn
 *                      clock stops (absence.js); the next state draws all afresh
 *   #lang              language switch (<select>, "en" | "fi")
 *   body               data-status="waiting" | "playing" | "finished" | "closed" ("" before the first
 *                      state); data-you = your seat or "" (watching); data-phase = play |
 *                      declaration | answer | over | ""; data-seq; data-replay="true|false"
 *   [data-seat="N"]    seat areas (N E S W), each with data-turn="true" (to move), data-you,
 *                      data-locked, data-kind="open|human|computer", data-connected
 *                      ("true" | "false"; "unknown" for the others while the connection is lost);
 *                      .name = nickname (a computer player's level, its name as the title:
 *                      "pimc:hard"); .backs[data-hand-size="8"] = a hidden hand's backs
 *   #hand              your hand: button[data-card="AS"][data-legal="true|false"]; every card
 *                      that is not legal now is disabled (and dimmed on your turn); hovering or
 *                      tapping one shows why in #hand-why[data-why="AS"] (the refusal of
 *                      `observation.refusals`, or whose turn it is), which each such card also
 *                      names by aria-describedby (#hand-reasons)
 *   #trick             the trick in the middle: [data-played="AS"][data-by="N"], the winner's
 *                      card data-winner="true"; #turn says whose turn it is
 *   #actions           button[data-action="declare H" | "ask-whole" | "ask-half S"]: exactly
 *                      the legal tokens, as the server wrote them; one that cannot succeed (the
 *                      state's futile) [data-futile="true"], marked .futile-mark, described by
 *                      #futile-note (under the hand where the bar's #window-hint is not shown
 *                      whole; the bar's line says it on a wide screen)
 *   #answer-dialog     open when the legal tokens are answers: button[data-action="answer H"]
 *   #trumps            data-trump="H" ("" when none); #locks; #events li (one per event)
 *   #last-trick-btn    shows #last-trick, the last completed trick
 *   #score             data-ns, data-ew = match score; #columns tr[data-team="NS"] with
 *                      td[data-col="tricks" | "card_points" | "game_points"]
 *   #sheet             the score sheet, tr[data-deal="1"] per deal, its td[data-col="tricks" |
 *                      "card_points" | "game_points"] ("9–0": NS–EW), the score after it last
 *   #log li            the deal's plays, tricks and events in words; li.timed-out a move a
 *                      computer player made for a person out of time (the state's timed_out),
 *                      said so (its own toast: .toast-info[data-code="timed_out"])
 *   #share-dialog      the table's link (#share-dialog-link) and, for a seated person, their
 *                      seat link (#seat-link-box: #seat-link = /t/{id}#seat=TOKEN at the shared
 *                      address, #seat-link-copy); a page opened at a seat link keeps its token
 *                      and takes #seat=… out of the address bar (keepSeatLink)
 *   #waiting           while waiting: #share-link, #copy-link; for spectators
 *                      input[name="nickname"] and button[data-take="E"] on open seats
 *   [data-replace="E"] the creator's button handing seat E to the computer player chosen in
 *                      select[data-replace-player="E"]
 *   #result            a finished match: #result-text, #replay-btn, a#record-link (download);
 *                      a club night's table: a#night-link back to the night, and #night-wait
 *                      while the round's other tables play (replay and record hidden until then);
 *                      a closed table (body[data-status="closed"]): #result-text says why,
 *                      a#lobby-link leads back
 *   #close-table       in #waiting, for the table's creator: close it (asking first,
 *                      dialog.confirm-dialog)
 *   #replay-bar        #replay-first, #replay-prev-deal, #replay-prev, #replay-play,
 *                      #replay-next, #replay-next-deal, #replay-exit (each disabled where it
 *                      would not move), #replay-step ("Step 3 / 120"); #replay-end at a deal's
 *                      end: the deal explained (.deal-explained, as #final-deal), and at the
 *                      last step #replay-result, the match's result (a region named as its
 *                      heading, a tab stop: on a phone on its side it scrolls in its box)
 *   #deal-over         the end-of-deal panel, #final-deal, #rematch: ends.js; #chat: chat.js
 *   #toasts .toast     errors (.toast-error, in its role="alert" region), data-code = the
 *                      server's code (WEB.md), a refused action saying the refusal's reason;
 *                      news (.toast-info: a link copied) in its role="status" region
 *   body[data-my-turn] "true" while it is your turn (the tab's title says so too)
 *   #announcer p       the polite live region: each play and each turn in words (alerts.js),
 *                      a deal's end and the match's (ends.js); #alerter p the assertive one:
 *                      the connection lost
 *   #sound-toggle      the turn tone's switch, aria-pressed="true|false" (alerts.js)
 *   a.rules-link       the rules page (/rules), in a new tab
 *   absence.js         the turn clock, stand-ins, #absent and the hand-over buttons (its hooks)
 *   hint.js            #hint-btn and the #hint panel (its hooks)
 *   table-review.js    #review-open, the #review panel and #review-moment (its hooks)
 * Keyboard (keyboard.js): the hand is one tab stop; arrows, Home and End move among the legal
 * cards; Enter or Space plays. Cards move as motion.js draws them; names.js names seats, teams
 * and cards in the page's language (the hooks above keep N E S W and tokens).
 * Tokens: localStorage "valtti:table:{id}" = {"token", "seat", "creator_token", "at"}.
 * A rematch is a new table (table.rematch names it): the page goes on there with the same
 * keys, and the address bar shows the new table's /t/{id} (history.replaceState); opened at
 * /t/{id}#replay it stays, starts the finished match's replay and links the rematch
 * (a#rematch-link).
 *
 * The page's modules, around one state object (table-state.js's `page`):
 *   table.js          this: the page's start and its event wiring
 *   table-state.js    the state, the views drawn from it (live or a replay step), their facts
 *   table-socket.js   the WebSocket: pings, reconnection, the status dot and the banner
 *   table-control.js  what a state or an error frame does, and a person's moves (act, sit down)
 *   table-replay.js   the replay controller and its bar
 *   table-review.js   the review beside the replay (review-graph.js draws its graphs)
 *   table-render.js   the drawing, by table-felt.js (seats, trick, turn), table-hand.js (the
 *                     hand, actions, answer dialog) and table-panels.js (waiting, result, info,
 *                     score, sheet, log); table-words.js says the table in words
 *   protocol.js       the close codes and message types (the server's), the frames' types
 */

import { initI18n, onLangChange, t } from "/static/i18n.js";
import { showClubBar } from "/static/club-bar.js";
import {
  byId,
  closeTable,
  copyText,
  one,
  savedNickname,
  saveTableKeys,
  shareBase,
  showShareLink,
  tableKeys,
  tableLink,
  tableOptions,
  toast,
} from "/static/common.js";
import { initAlerts } from "/static/alerts.js";
import { initKeyboard } from "/static/keyboard.js";
import { initAbsence } from "/static/absence.js";
import { initChat, onChat, onChatHistory } from "/static/chat.js";
import { initHint, onHint } from "/static/hint.js";
import { SEATS, drawWith, page } from "/static/table-state.js";
import {
  connect,
  connectIfClosed,
  initSocket,
  reconnectNow,
  send,
  sendOrSay,
  setStatus,
} from "/static/table-socket.js";
import {
  dropNicknameToasts,
  onError,
  onSeatElsewhere,
  onState,
  sitDown,
  takeSeatHere,
} from "/static/table-control.js";
import {
  exitReplay,
  replayDeal,
  replayStep,
  replayGo,
  startReplay,
  toggleReplayPlay,
} from "/static/table-replay.js";
import { initReview } from "/static/table-review.js";
import { cardAt, fitBarLine, layoutHand, showWhy } from "/static/table-hand.js";
import { render } from "/static/table-render.js";
import { tableName } from "/static/names.js";

/** Copy the share link in the input with id `inputId`, and say whether it was copied.
 * @param {string} inputId */
async function copyLink(inputId) {
  const input = byId(inputId, HTMLInputElement);
  toast(t((await copyText(input.value, input)) ? "table.copied" : "table.copy_failed"), "info");
}

/** A page opened at its seat link (/t/{id}#seat=TOKEN, docs/WEB.md): keep the token for this
 * table at this address, and take it out of the address bar (and so out of a copied address,
 * the history and a bookmark). What the browser held before is kept beside it until the server
 * accepts the new token (table-socket.js): a wrong link costs no seat. Whether a new token is
 * to be tried. */
function keepSeatLink() {
  const found = /^#seat=([^&#]+)$/.exec(location.hash);
  if (!found) return false;
  let token = "";
  try {
    token = decodeURIComponent(found[1]);
  } catch {
    // Not a token: nothing to keep.
  }
  history.replaceState(history.state, "", location.pathname + location.search);
  const before = tableKeys(page.id);
  if (!token || token === before.token) return false;
  // A link tried already and not yet proven keeps what was held before it.
  const held = before.held ?? { token: before.token ?? null, seat: before.seat ?? null };
  saveTableKeys(page.id, { token, seat: null, held });
  return true;
}

/** Show this page's person their seat link in the share dialog (none for a spectator). */
async function showSeatLink() {
  const token = tableKeys(page.id).token;
  const box = byId("seat-link-box");
  box.hidden = !token;
  if (!token) return;
  const { base } = await shareBase();
  byId("seat-link", HTMLInputElement).value =
    `${tableLink(page.id, base)}#seat=${encodeURIComponent(token)}`;
}

function wire() {
  byId("last-trick-btn").addEventListener("click", () => {
    page.lastTrickOpen = !page.lastTrickOpen;
    render();
  });
  byId("answer-dialog").addEventListener("cancel", (e) => e.preventDefault());
  byId("copy-link").addEventListener("click", () => copyLink("share-link"));
  const shareDialog = byId("share-dialog", HTMLDialogElement);
  byId("share-btn").addEventListener("click", () => {
    const link = byId("share-dialog-link", HTMLInputElement);
    showShareLink(page.id, link, "share-dialog-warning");
    showSeatLink();
    shareDialog.showModal();
  });
  byId("seat-link-copy").addEventListener("click", () => copyLink("seat-link"));
  byId("share-dialog-copy").addEventListener("click", () => copyLink("share-dialog-link"));
  byId("share-dialog-close").addEventListener("click", () => shareDialog.close());
  byId("replay-btn").addEventListener("click", startReplay);
  byId("close-table").addEventListener("click", async () => {
    const table = page.state?.table;
    if (table && (await closeTable(page.id, tableName(table)))) render();
  });
  byId("replay-first").addEventListener("click", () => replayGo(0));
  byId("replay-prev").addEventListener("click", () => replayStep(-1));
  byId("replay-next").addEventListener("click", () => replayStep(1));
  byId("replay-prev-deal").addEventListener("click", () => replayDeal(-1));
  byId("replay-next-deal").addEventListener("click", () => replayDeal(1));
  byId("replay-play").addEventListener("click", toggleReplayPlay);
  byId("replay-exit").addEventListener("click", exitReplay);
  // Keep what was typed while the page was loading.
  const nickname = one(document, '#take-field input[name="nickname"]', HTMLInputElement);
  nickname.value ||= savedNickname();
  nickname.addEventListener("input", () => {
    if (nickname.value.trim()) dropNicknameToasts();
  });
  // Enter (a phone keyboard's Go) after the nickname takes the one open seat; with more open,
  // it goes to the first one's button (N E S W), where the others are a Tab away.
  nickname.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    event.preventDefault();
    /** The button that takes seat `s`, while it is open. @param {string} s
     * @returns {HTMLButtonElement | null} */
    const take = (s) => document.querySelector(`button[data-take="${s}"]`);
    const open = SEATS.filter((s) => take(s));
    if (open.length === 1) sitDown(open[0]);
    else if (open.length) take(open[0])?.focus();
  });
  // Why a card may not be played: on hover with a mouse, on a tap or a click with anything.
  const hand = byId("hand");
  hand.addEventListener("pointerover", (e) => {
    if (e.pointerType === "mouse") showWhy(cardAt(e) ?? null);
  });
  hand.addEventListener("pointerup", (e) => showWhy(cardAt(e) ?? null));
  hand.addEventListener("pointerleave", (e) => {
    if (e.pointerType === "mouse") showWhy(null);
  });
  window.addEventListener("resize", () => {
    layoutHand();
    fitBarLine();
  });
  // A seat link pasted into this page's address bar: only its fragment changes.
  window.addEventListener("hashchange", () => {
    if (keepSeatLink()) reconnectNow();
  });
  window.addEventListener("online", connectIfClosed);
  // The device lost its network: the socket may linger dead a long while; ask it now.
  window.addEventListener("offline", () => page.connection.probe());
  window.addEventListener("pagehide", () => {
    page.connection.leaving = true;
  });
  window.addEventListener("pageshow", () => {
    page.connection.leaving = false;
  });
}

async function main() {
  const [, options] = await Promise.all([initI18n(), tableOptions(), showClubBar()]);
  page.computerPlayers = options.players;
  drawWith(render);
  initSocket({
    state: onState,
    error: onError,
    chat: onChat,
    chat_history: onChatHistory,
    hint: onHint,
    seat_elsewhere: onSeatElsewhere,
  });
  keepSeatLink();
  wire();
  initAlerts();
  initKeyboard();
  initAbsence(send, takeSeatHere);
  initChat(sendOrSay);
  initReview();
  initHint(
    send,
    () => page.pending,
    () => page.connection.lost,
  );
  onLangChange(render);
  setStatus("connecting");
  connect();
}

main();
