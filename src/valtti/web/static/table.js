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
 *   body               data-status="waiting" | "playing" | "finished" ("" before the first
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
 *                      the legal tokens, as the server wrote them
 *   #answer-dialog     open when the legal tokens are answers: button[data-action="answer H"]
 *   #trumps            data-trump="H" ("" when none); #locks; #events li (one per event)
 *   #last-trick-btn    shows #last-trick, the last completed trick
 *   #score             data-ns, data-ew = match score; #columns tr[data-team="NS"] with
 *                      td[data-col="tricks" | "card_points" | "game_points"]
 *   #sheet             the score sheet, tr[data-deal="1"] per deal, its td[data-col="tricks" |
 *                      "card_points" | "game_points"] ("9–0": NS–EW), the score after it last
 *   #log li            the deal's plays, tricks and events in words
 *   #waiting           while waiting: #share-link, #copy-link; for spectators
 *                      input[name="nickname"] and button[data-take="E"] on open seats
 *   [data-replace="E"] the creator's button handing seat E to the computer player chosen in
 *                      select[data-replace-player="E"]
 *   #result            a finished match: #result-text, #replay-btn, a#record-link (download)
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
 * Keyboard (keyboard.js): the hand is one tab stop; arrows, Home and End move among the legal
 * cards; Enter or Space plays. Cards move as motion.js draws them; names.js names seats, teams
 * and cards in the page's language (the hooks above keep N E S W and tokens).
 * Tokens: localStorage "valtti:table:{id}" = {"token", "seat", "creator_token"}.
 * A rematch is a new table (table.rematch names it): the page goes on there with the same
 * keys, its address still the link it was opened at; opened at /t/{id}#replay it stays, starts
 * the finished match's replay and links the rematch (a#rematch-link).
 */

import { has, initI18n, onLangChange, t, tn } from "/static/i18n.js";
import {
  api,
  copyText,
  el,
  errorText,
  nicknameProblem,
  saveTableKeys,
  savedNickname,
  seatName,
  seatTitle,
  showShareLink,
  tableKeys,
  tableOptions,
  takeSeat,
  toast,
} from "/static/common.js";
import {
  card,
  cardBack,
  cardInline,
  cardText,
  parseCard,
  sortHand,
  suitGlyph,
  suitIcon,
} from "/static/cards.js";
import { alertView, announce, initAlerts } from "/static/alerts.js";
import { holdFocus, initKeyboard, keepFocus } from "/static/keyboard.js";
import { animate, snapshot } from "/static/motion.js";
import { labelCards, seatWord, teamName } from "/static/names.js";
import { initAbsence, noteState, renderAbsence, seatAbsence, stopClock } from "/static/absence.js";
import {
  announceEnds,
  dealEnded,
  explainDeal,
  nextDealAfterWait,
  renderEnds,
} from "/static/ends.js";
import { chatRefused, initChat, onChat, onChatHistory, renderChat } from "/static/chat.js";
import { hintRefused, initHint, onHint, renderHint, resetHint } from "/static/hint.js";

const SEATS = ["N", "E", "S", "W"];
const TEAM_OF = { N: "NS", S: "NS", E: "EW", W: "EW" };
const HOLD_TRICK_MS = 1500; // a completed trick stays in the middle this long
const PING_MS = 25000;
const PONG_MS = 10000; // a ping unanswered this long: the connection is dead, open a new one
const BACK_MS = 2000; // how long the banner says the connection is back
const REPLAY_MS = 700;
const MIN_TOUCH_STEP = 42; // px of each hand card left visible: a finger-sized target

let tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");

let state = null; // the latest state message
let ws = null;
let backoff = 500;
let reconnectTimer = null;
let pingTimer = null;
let pending = false; // an action is on its way; wait for the next state or error
let lost = false; // the connection dropped: what the page shows is stale until a state comes
let backTimer = null; // while the banner says the connection is back
let leaving = false; // the page is being left: its socket closing is no lost connection
let probe = () => {}; // ping the open connection now, and drop it if no answer comes
let hold = null; // {trick, until}: a completed trick kept in the middle
let holdTimer = null;
let replay = null; // {steps, index, timer}
// Opened at /t/{id}#replay (the lobby's Replay): this match's replay, not the rematch it led to.
const replayAsked = location.hash === "#replay";
let replayOpened = false;
let lastTrickOpen = false;
let stopped = false; // the table does not exist: no reconnecting
let whyCard = null; // the hand's card whose reason #hand-why shows (hovered or tapped)

/* ---------- tokens and names ---------- */

/** What an action token asks for: {kind, suit?, card?}; both "declare H" and "declare:H" forms. */
function parseToken(token) {
  if (parseCard(token)) return { kind: "play", card: token };
  const words = String(token)
    .trim()
    .split(/[\s:]+/);
  const w0 = words[0].toLowerCase();
  const suit = (w) => (w ? w.toUpperCase() : null);
  if (w0 === "declare") return { kind: "declare", suit: suit(words[1]) };
  if (w0 === "answer") return { kind: "answer", suit: suit(words[1]) };
  if (w0 === "ask-whole" || (w0 === "ask" && words[1] === "whole")) return { kind: "ask-whole" };
  if (w0 === "ask-half") return { kind: "ask-half", suit: suit(words[1]) };
  if (w0 === "ask" && words[1] === "half") return { kind: "ask-half", suit: suit(words[2]) };
  return { kind: "unknown" };
}

function seatEntry(table, seat) {
  return (table?.seats ?? []).find((s) => s.seat === seat);
}

/** A seat's name for text: nickname (or computer level, or "open") and the seat. */
function who(view, seat) {
  if (!seat) return "";
  return t("table.who", { name: seatName(seatEntry(view.table, seat)), seat: t(`seat.${seat}`) });
}

/** `who` for a narrow place: a long name is cut (.who-name), never the seat after it, which
 * tells apart computer players of the same name. */
function whoShort(view, seat) {
  const name = el("span", { class: "who-name" }, seatName(seatEntry(view.table, seat)));
  return tn("table.who", { name, seat: t(`seat.${seat}`) });
}

function positions(bottom) {
  const i = SEATS.indexOf(bottom);
  return {
    [SEATS[i]]: "bottom",
    [SEATS[(i + 1) % 4]]: "left",
    [SEATS[(i + 2) % 4]]: "top",
    [SEATS[(i + 3) % 4]]: "right",
  };
}

function trickPlays(trick) {
  const start = SEATS.indexOf(trick.leader);
  return trick.cards.map((c, i) => ({ seat: SEATS[(start + i) % 4], card: c }));
}

/* ---------- views: the live state, or a replay step ---------- */

function liveView() {
  return {
    table: state.table,
    you: state.you ?? null,
    seq: state.seq,
    deal: state.deal,
    obs: state.observation,
    lastTrick: state.last_trick ?? null,
    deals: state.deals ?? [],
    between: state.between ?? null,
    hands: null,
    replay: false,
  };
}

function replayView() {
  const step = replay.steps[replay.index];
  const obs = step.observation;
  const tricks = obs?.tricks ?? [];
  return {
    table: state?.table,
    you: null,
    seq: step.seq,
    deal: step.deal,
    obs,
    lastTrick: tricks.length ? tricks[tricks.length - 1] : null,
    deals: step.deals ?? [],
    hands: step.hands ?? null,
    replay: true,
    action: step.action,
    // Who took the step's action: the seat to move before it (for an answer, the asker's
    // partner: a replay shows the answer pending, WEB.md).
    actor: replay.index > 0 ? (replay.steps[replay.index - 1].observation?.to_move ?? null) : null,
  };
}

function currentView() {
  if (replay) return replayView();
  return state ? liveView() : null;
}

/* ---------- drawing ---------- */

function render() {
  renderConnection();
  const view = currentView();
  if (!view) return;
  const shot = snapshot();
  const status = view.table?.status ?? "";
  document.body.dataset.status = status;
  document.body.dataset.you = view.you ?? "";
  document.body.dataset.phase = view.obs?.phase ?? "";
  document.body.dataset.seq = String(view.seq ?? "");
  document.body.dataset.replay = String(view.replay);
  document.getElementById("table-label").textContent = view.you
    ? t("table.label.seated", { id: tableId, seat: t(`seat.${view.you}`) })
    : t("table.label.watching", { id: tableId });
  renderWaiting(view);
  renderResult(view);
  renderSeats(view);
  renderTrick(view);
  renderTurn(view);
  renderActions(view);
  renderHand(view);
  renderHint(view);
  renderInfo(view);
  renderScore(view);
  renderSheet(view);
  renderLog(view);
  renderReplayBar(view);
  renderAbsence(view);
  renderEnds(view, sendOrSay, render);
  renderChat(view);
  labelCards(document.body);
  animate(shot);
  keepFocus();
  const turnLine = document.getElementById("turn").textContent;
  alertView(view, (seat) => who(view, seat), trickPlays, turnLine);
  announceEnds(view);
}

function renderWaiting(view) {
  const waiting = !view.replay && view.table?.status === "waiting";
  document.getElementById("waiting").hidden = !waiting;
  showShareLink(tableId, document.getElementById("share-link"), "share-warning");
  const canTake = !view.you && (view.table?.seats ?? []).some((s) => s.kind === "open");
  document.getElementById("take-field").hidden = !(waiting && canTake);
}

/** The finished match's result in words (for a seat's own team: "you win"). */
function resultText(view) {
  const score = view.table.score ?? { NS: 0, EW: 0 };
  const winner = view.table.winner;
  if (winner === "draw") return t("result.draw", { ns: score.NS, ew: score.EW });
  if (winner && view.you && TEAM_OF[view.you] === winner) {
    return t("result.you_win", { ns: score.NS, ew: score.EW });
  }
  if (winner) return t("result.team_wins", { team: teamName(winner), ns: score.NS, ew: score.EW });
  return t("result.over");
}

function renderResult(view) {
  const box = document.getElementById("result");
  const finished = view.table?.status === "finished";
  box.hidden = !finished || view.replay;
  if (!finished) return;
  document.getElementById("result-text").textContent = resultText(view);
  const link = document.getElementById("record-link");
  link.href = `/api/tables/${encodeURIComponent(tableId)}/record`;
  link.setAttribute("download", `valtti-${tableId}.json`);
}

function renderSeats(view) {
  const bottom = view.you ?? "S";
  const pos = positions(bottom);
  for (const seat of SEATS) {
    const section = document.querySelector(`.felt .seat[data-pos="${pos[seat]}"]`);
    renderSeat(section, seat, view, pos[seat] === "bottom");
  }
}

function renderSeat(section, seat, view, isBottom) {
  const entry = seatEntry(view.table, seat);
  const obs = view.obs;
  section.dataset.seat = seat;
  section.dataset.turn = String(!!obs && obs.to_move === seat && obs.phase !== "over");
  section.dataset.you = String(view.you === seat);
  section.dataset.locked = String(!!obs && (obs.locked ?? []).includes(seat));
  section.dataset.kind = entry?.kind ?? "open";
  // While the page's connection is lost nobody else's presence is known (your own is not).
  const unknown = stale(view) && view.you !== seat;
  const connected = !!entry?.connected && !(stale(view) && view.you === seat);
  section.dataset.connected = unknown ? "unknown" : String(connected);
  section.replaceChildren();

  const head = el("div", { class: "seat-head" });
  if (entry?.kind === "human") {
    const presence = unknown ? "unknown" : connected ? "on" : "off";
    const title = { unknown: "connection.seat", on: "seat.connected", off: "seat.disconnected" };
    head.append(el("span", { class: `conn ${presence}`, title: t(title[presence]) }));
  }
  head.append(el("span", { class: "name", title: seatTitle(entry) }, seatName(entry)));
  head.append(el("span", { class: "seat-letter", title: seatWord(seat) }, t(`seat.${seat}`)));
  if (view.you === seat) head.append(el("span", { class: "badge you" }, t("table.you")));
  if (obs && obs.dealer === seat) {
    head.append(
      el("span", { class: "badge dealer", title: t("table.dealer.title") }, t("table.dealer.mark")),
    );
  }
  if (section.dataset.locked === "true")
    head.append(el("span", { class: "badge lock" }, t("table.lock")));
  const absence = seatAbsence(view, seat, entry);
  head.append(...absence.head);
  section.append(head);

  const showsHandBelow = isBottom && (view.replay || view.you === seat);
  if (obs && !showsHandBelow) {
    if (view.hands) {
      const faces = el("div", { class: "mini-hand" });
      for (const c of sortHand(view.hands[seat] ?? [])) faces.append(card(c));
      section.append(faces);
    } else {
      const size = obs.hand_sizes?.[seat] ?? 0;
      const backs = el("div", { class: "backs", "data-hand-size": String(size) });
      for (let i = 0; i < size; i++) backs.append(cardBack());
      section.append(backs);
    }
  }

  if (obs) {
    const done = (obs.tricks ?? []).length;
    const now = (obs.events ?? []).filter((e) => e.seat === seat && e.after_trick === done);
    for (const e of now) section.append(el("div", { class: "bubble" }, eventNode(view, e)));
  }

  const tools = seatTools(view, seat, entry) ?? el("div", { class: "seat-tools" });
  tools.append(...absence.tools);
  if (tools.childElementCount) section.append(tools);
}

function seatTools(view, seat, entry) {
  if (view.replay || !view.table) return null;
  const tools = el("div", { class: "seat-tools" });
  if (!view.you && view.table.status === "waiting" && entry?.kind === "open") {
    tools.append(
      el(
        "button",
        {
          type: "button",
          class: "small primary",
          "data-take": seat,
          onclick: () => sitDown(seat),
        },
        t("table.take"),
      ),
    );
  }
  const creator = tableKeys(tableId).creator_token;
  const replaceable =
    entry?.kind === "open" || (entry?.kind === "human" && !entry.connected && !entry.stand_in);
  if (creator && view.table.status !== "finished" && replaceable) {
    const select = el("select", {
      "data-replace-player": seat,
      "aria-label": t("table.replace.player"),
    });
    for (const p of computerPlayers)
      select.append(el("option", { value: p, title: p }, t(`player.short.${p}`)));
    select.value = "heuristic";
    tools.append(
      select,
      el(
        "button",
        {
          type: "button",
          class: "small",
          "data-replace": seat,
          onclick: () => replaceSeat(seat, select.value),
        },
        t("table.replace"),
      ),
    );
  }
  return tools.childElementCount ? tools : null;
}

/** The trick to show in the middle: a just-completed one for a moment, else the current one. */
function shownTrick(view) {
  const current = view.obs?.current_trick;
  // The held trick gives way at once when you must follow the next one.
  const youFollow = view.you && view.obs?.to_move === view.you && current?.cards.length;
  if (!view.replay && hold && Date.now() < hold.until && !youFollow) return hold.trick;
  if (current && current.cards.length) return current;
  if (view.lastTrick && view.obs?.phase === "over") return view.lastTrick;
  return null;
}

function renderTrick(view) {
  const box = document.getElementById("trick");
  box.replaceChildren();
  const trick = shownTrick(view);
  if (!trick) return;
  const pos = positions(view.you ?? "S");
  box.dataset.number = String(trick.number);
  box.dataset.complete = String(!!trick.winner);
  for (const play of trickPlays(trick)) {
    box.append(
      el(
        "div",
        {
          class: `played at-${pos[play.seat]}`,
          "data-played": play.card,
          "data-by": play.seat,
          "data-winner": String(trick.winner === play.seat),
        },
        card(play.card),
      ),
    );
  }
}

function renderTurn(view) {
  const line = document.getElementById("turn");
  const obs = view.obs;
  const status = view.table?.status;
  let text = "";
  const trick = shownTrick(view);
  if (status === "waiting" && !view.replay) text = t("table.turn.waiting");
  else if (trick && trick.winner) text = t("table.turn.takes", { name: who(view, trick.winner) });
  else if (!obs) text = "";
  else if (obs.phase === "over") text = t("table.turn.deal_over");
  else if (view.you && obs.to_move === view.you) {
    if (obs.phase === "declaration") text = t(windowPrompt(view));
    else if (obs.phase === "answer") text = t("table.turn.answer");
    else if (!obs.current_trick || obs.current_trick.cards.length === 0)
      text = t("table.turn.lead");
    else text = t("table.turn.play");
  } else if (obs.phase === "answer") {
    // Only a replay shows anyone else a partner choosing a marriage (RULES.md 7.2).
    text = t("table.turn.other_answer", { name: who(view, obs.to_move) });
  } else if (obs.to_move) {
    text = t("table.turn.other", { name: who(view, obs.to_move) });
  }
  line.textContent = text;
}

/** The window's prompt names only what the legal actions allow: declare, ask, or just lead. */
function windowPrompt(view) {
  const kinds = new Set(myLegal(view).map((tok) => parseToken(tok).kind));
  const declare = kinds.has("declare");
  const ask = kinds.has("ask-whole") || kinds.has("ask-half");
  if (declare && ask) return "table.turn.window";
  if (declare) return "table.turn.window_declare";
  if (ask) return "table.turn.window_ask";
  return "table.turn.lead";
}

function myLegal(view) {
  if (view.replay || !view.you || !view.obs || view.obs.to_move !== view.you) return [];
  return view.obs.legal ?? [];
}

function actionLabel(token) {
  const a = parseToken(token);
  const icon = a.suit ? suitIcon(a.suit) : null;
  if (a.kind === "declare") return tn("action.declare", { suit: icon });
  if (a.kind === "ask-whole") return tn("action.ask_whole");
  if (a.kind === "ask-half") return tn("action.ask_half", { suit: icon });
  if (a.kind === "answer") {
    icon.setAttribute("aria-hidden", "true"); // the suit's name follows it
    return tn("action.answer", { suit: icon, name: t(`suit.${a.suit}`) });
  }
  return document.createTextNode(token);
}

function renderActions(view) {
  const legal = myLegal(view);
  const box = document.getElementById("actions");
  const buttons = document.getElementById("action-buttons");
  buttons.replaceChildren();
  const words = legal.filter((tok) => {
    const kind = parseToken(tok).kind;
    return kind === "declare" || kind === "ask-whole" || kind === "ask-half";
  });
  for (const token of words) {
    buttons.append(
      el(
        "button",
        {
          type: "button",
          class: "action",
          "data-action": token,
          disabled: pending || stale(view),
          onclick: () => act(token),
        },
        actionLabel(token),
      ),
    );
  }
  box.hidden = words.length === 0;

  const answers = legal.filter((tok) => parseToken(tok).kind === "answer");
  const dialog = document.getElementById("answer-dialog");
  const answerBox = document.getElementById("answer-buttons");
  answerBox.replaceChildren();
  for (const token of answers) {
    answerBox.append(
      el(
        "button",
        {
          type: "button",
          class: "primary action",
          "data-action": token,
          disabled: pending || stale(view),
          onclick: () => act(token),
        },
        actionLabel(token),
      ),
    );
  }
  const offline = document.getElementById("answer-offline");
  offline.hidden = !stale(view);
  offline.textContent = stale(view) ? t("connection.why") : "";
  if (answers.length) {
    document.getElementById("answer-text").textContent = t("table.answer.text", {
      name: who(view, view.obs.asker),
    });
    if (!dialog.open) dialog.showModal();
  } else if (dialog.open) dialog.close();
}

/** Why a refusal (docs/WEB.md) refused its action, in the page's language. */
function refusalText(view, refusal) {
  const key = `refusal.${refusal.code}`;
  if (!has(key)) return t("error.illegal");
  const glyph = (suit) => (suit ? suitGlyph(suit) : "");
  const action = refusal.action ?? "";
  return t(key, {
    seat: who(view, refusal.seat),
    asker: who(view, refusal.asker),
    action: parseCard(action) ? cardText(action) : action,
    suit: glyph(refusal.suit),
    trump: glyph(refusal.trump),
    card: refusal.card ? cardText(refusal.card) : "",
    team: refusal.team ? t(`team.${refusal.team}`) : "",
    given: refusal.given ?? "",
  });
}

/** Why the card `token` of your hand may not be played now, or null when it may (or no card
 * of yours is shown): the engine's refusal on your turn, whose turn it is otherwise. */
function whyNot(view, token) {
  const obs = view.obs;
  if (view.replay || !view.you || !obs || obs.phase === "over") return null;
  if (stale(view) && (obs.hand ?? []).includes(token)) return t("connection.why");
  if (!(obs.hand ?? []).includes(token) || myLegal(view).includes(token)) return null;
  if (obs.to_move !== view.you) {
    return obs.to_move ? t("table.why.wait", { name: who(view, obs.to_move) }) : null;
  }
  const refusal = (obs.refusals ?? []).find((r) => r.action === token);
  return refusal ? refusalText(view, refusal) : null;
}

/** Show in #hand-why why `token` (a card of the hand, or null: nothing) may not be played. */
function showWhy(token) {
  const line = document.getElementById("hand-why");
  const text = token && state && !replay ? whyNot(currentView(), token) : null;
  whyCard = text ? token : null;
  line.hidden = !text;
  line.textContent = text ?? "";
  line.dataset.why = whyCard ?? "";
}

/** The hand's card under a pointer event: its target, or (where a browser sends a disabled
 * button's events to its parent) the topmost card at the pointer. */
function cardAt(event) {
  const target = event.target.closest?.("#hand [data-card]");
  if (target) return target.dataset.card;
  const cards = [...document.querySelectorAll("#hand [data-card]")].reverse();
  const { clientX: x, clientY: y } = event;
  const hit = cards.find((c) => {
    const r = c.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  });
  return hit ? hit.dataset.card : null;
}

function renderHand(view) {
  const area = document.getElementById("hand-area");
  const hand = document.getElementById("hand");
  const seat = view.replay ? (view.you ?? "S") : view.you;
  const tokens =
    !view.obs || !seat ? [] : view.replay ? (view.hands?.[seat] ?? []) : (view.obs.hand ?? []);
  area.hidden = !seat || !view.obs;
  // Said where the hand would be: on a phone the top bar has no room for "watching".
  document.getElementById("watching-note").hidden = Boolean(seat) || !view.obs;
  hand.replaceChildren();
  const reasons = document.getElementById("hand-reasons");
  reasons.replaceChildren();
  const legal = new Set(myLegal(view));
  const myTurn =
    !view.replay && !!view.obs && view.obs.to_move === view.you && view.obs.phase !== "over";
  for (const token of sortHand(tokens)) {
    const ok = legal.has(token);
    const why = whyNot(view, token);
    if (why) reasons.append(el("span", { id: `why-${token}` }, why));
    hand.append(
      el(
        "button",
        {
          type: "button",
          class: `card-btn${myTurn && !ok ? " dim" : ""}${ok && !stale(view) ? " legal" : ""}`,
          "data-card": token,
          "data-legal": String(ok),
          "aria-describedby": why ? `why-${token}` : null,
          disabled: !ok || pending || stale(view),
          onclick: () => act(token),
        },
        card(token),
      ),
    );
  }
  layoutHand();
  showWhy(whyCard);
}

/** Overlap the hand's cards to fit the width, in two rows when one would be too tight to tap. */
function layoutHand() {
  const hand = document.getElementById("hand");
  const cards = [...hand.querySelectorAll(".card-btn")];
  if (!cards.length) return;
  const width = hand.clientWidth;
  const cardWidth = cards[0].getBoundingClientRect().width || 64;
  const gap = 6;
  const fits = (n) => n * cardWidth + (n - 1) * gap <= width;
  const step = (n) => (n > 1 ? (width - cardWidth) / (n - 1) : cardWidth);
  let rows = [cards];
  if (!fits(cards.length) && step(cards.length) < MIN_TOUCH_STEP) {
    const first = Math.ceil(cards.length / 2);
    rows = [cards.slice(0, first), cards.slice(first)];
  }
  hand.replaceChildren();
  for (const row of rows) {
    const overlap = fits(row.length) ? gap : Math.min(gap, step(row.length) - cardWidth);
    row.forEach((c, i) => {
      c.style.marginLeft = i === 0 ? "0" : `${overlap}px`;
    });
    hand.append(el("div", { class: "hand-row" }, row));
  }
}

function teamOfNames(view, team) {
  const seats = team === "NS" ? ["N", "S"] : ["E", "W"];
  return t("table.partners", { a: who(view, seats[0]), b: who(view, seats[1]) });
}

function eventNode(view, e) {
  const seat = who(view, e.seat);
  const icon = e.suit ? suitIcon(e.suit) : null;
  const frag = document.createDocumentFragment();
  if (e.how === "declare") frag.append(tn("event.declare", { seat, suit: icon }));
  else if (e.how === "ask-whole") {
    frag.append(
      e.yes ? tn("event.ask_whole.yes", { seat, suit: icon }) : tn("event.ask_whole.no", { seat }),
    );
  } else frag.append(tn(e.yes ? "event.ask_half.yes" : "event.ask_half.no", { seat, suit: icon }));
  const team = teamName(TEAM_OF[e.seat]);
  if (e.points === 2)
    return tn("event.with_points", {
      event: frag,
      points: tn("event.trumps", { suit: icon, team }),
    });
  if (e.points === 1) {
    return tn("event.with_points", {
      event: frag,
      points: tn("event.little_trump", { suit: icon, team }),
    });
  }
  return frag;
}

function renderInfo(view) {
  const obs = view.obs;
  const trumps = document.getElementById("trumps");
  trumps.replaceChildren();
  trumps.dataset.trump = obs?.trump ?? "";
  if (obs?.trump) {
    const icon = suitIcon(obs.trump);
    icon.setAttribute("aria-hidden", "true"); // the suit's name follows it
    trumps.append(icon, " ", t(`suit.${obs.trump}`));
  }
  else trumps.append(t("table.trumps.none"));

  document.getElementById("deal-label").textContent = view.deal
    ? t("table.deal", { n: view.deal })
    : "";
  document.getElementById("dealer-label").textContent = obs
    ? t("table.dealer", { name: who(view, obs.dealer) })
    : "";
  const locked = obs?.locked ?? [];
  document.getElementById("locks").textContent = locked.length
    ? locked.map((s) => who(view, s)).join(", ")
    : t("table.nobody");

  const events = document.getElementById("events");
  events.replaceChildren();
  for (const e of obs?.events ?? []) {
    events.append(
      el("li", { dataset: { how: e.how, yes: String(e.yes), seat: e.seat } }, eventNode(view, e)),
    );
  }
  if (!(obs?.events ?? []).length)
    events.append(el("li", { class: "empty" }, t("table.events.none")));

  const button = document.getElementById("last-trick-btn");
  button.disabled = !view.lastTrick;
  button.textContent = t(lastTrickOpen ? "table.last_trick.hide" : "table.last_trick.show");
  button.setAttribute("aria-expanded", String(lastTrickOpen && !!view.lastTrick));
  const box = document.getElementById("last-trick");
  box.hidden = !(lastTrickOpen && view.lastTrick);
  box.replaceChildren();
  if (view.lastTrick) {
    const tr = view.lastTrick;
    box.append(
      el("p", {}, t("table.last_trick.caption", { number: tr.number, name: who(view, tr.winner) })),
    );
    const row = el("div", { class: "last-trick-cards" });
    for (const play of trickPlays(tr)) {
      row.append(
        el(
          "figure",
          { "data-by": play.seat, "data-winner": String(play.seat === tr.winner) },
          card(play.card),
          el("figcaption", { title: who(view, play.seat) }, whoShort(view, play.seat)),
        ),
      );
    }
    box.append(row);
  }
}

function matchScore(view) {
  if (view.replay) return view.deals.at(-1)?.score ?? { NS: 0, EW: 0 };
  return view.table?.score ?? { NS: 0, EW: 0 };
}

function renderScore(view) {
  const score = matchScore(view);
  const box = document.getElementById("score");
  box.dataset.ns = String(score.NS);
  box.dataset.ew = String(score.EW);
  const target = view.table?.variant?.target ?? 10;
  document.getElementById("match-score").textContent = t("table.match_score", {
    ns: score.NS,
    ew: score.EW,
    target,
  });
  const body = document.getElementById("columns");
  body.replaceChildren();
  const obs = view.obs;
  for (const team of ["NS", "EW"]) {
    const mine = view.you && TEAM_OF[view.you] === team;
    body.append(
      el(
        "tr",
        { dataset: { team }, class: mine ? "mine" : "" },
        el("th", {}, el("b", {}, t(`team.${team}`)), el("small", {}, teamOfNames(view, team))),
        el("td", { "data-col": "tricks" }, String(obs?.tricks_won?.[team] ?? 0)),
        el("td", { "data-col": "card_points" }, String(obs?.card_points?.[team] ?? 0)),
        el("td", { "data-col": "game_points" }, String(obs?.game_points?.[team] ?? 0)),
      ),
    );
  }
}

/** NS's and EW's figures of a column: "9–0". */
function pair(figures) {
  return t("table.sheet.score_value", { ns: figures?.NS ?? 0, ew: figures?.EW ?? 0 });
}

function renderSheet(view) {
  const body = document.getElementById("sheet");
  body.replaceChildren();
  view.deals.forEach((d, i) => {
    const trump = el("span", {}, d.trump ? suitIcon(d.trump) : t("table.sheet.no_trumps"));
    const inPlay = i === view.deals.length - 1 && view.obs && view.obs.phase !== "over";
    body.append(
      el(
        "tr",
        { dataset: { deal: String(i + 1) }, class: inPlay ? "current" : "" },
        el("td", {}, String(i + 1)),
        el("td", {}, t(`seat.${d.dealer}`)),
        el("td", {}, trump),
        el("td", { "data-col": "tricks" }, pair(d.tricks)),
        el("td", { "data-col": "card_points" }, pair(d.card_points)),
        el("td", { "data-col": "game_points" }, pair(d.game_points)),
        el(
          "td",
          {},
          inPlay
            ? ""
            : t("table.sheet.score_value", { ns: d.score?.NS ?? 0, ew: d.score?.EW ?? 0 }),
        ),
      ),
    );
  });
  if (!view.deals.length)
    body.append(el("tr", {}, el("td", { colspan: "7", class: "empty" }, t("table.sheet.none"))));
}

function renderLog(view) {
  const log = document.getElementById("log");
  log.replaceChildren();
  const obs = view.obs;
  if (!obs) return;
  const line = (node, kind) => log.append(el("li", { class: `log-${kind}` }, node));
  line(
    t("log.deal", {
      n: view.deal ?? 1,
      dealer: who(view, obs.dealer),
      forehand: who(view, obs.forehand),
    }),
    "deal",
  );
  const tricks = [...(obs.tricks ?? [])];
  if (obs.current_trick && obs.current_trick.cards.length) tricks.push(obs.current_trick);
  for (const trick of tricks) {
    for (const play of trickPlays(trick)) {
      line(tn("log.plays", { seat: who(view, play.seat), card: cardInline(play.card) }), "play");
    }
    if (trick.winner)
      line(t("log.takes", { seat: who(view, trick.winner), number: trick.number }), "trick");
    for (const e of obs.events ?? []) {
      if (trick.winner && e.after_trick === trick.number) line(eventNode(view, e), "event");
    }
  }
  if (obs.phase === "over") line(t("log.deal_over", { n: view.deal ?? 1 }), "deal");
  log.scrollTop = log.scrollHeight;
}

function renderReplayBar(view) {
  const bar = document.getElementById("replay-bar");
  bar.hidden = !view.replay;
  if (!view.replay) return;
  document.getElementById("replay-step").textContent = t("replay.step", {
    n: replay.index + 1,
    total: replay.steps.length,
  });
  document.getElementById("replay-play").textContent = t(
    replay.timer ? "replay.pause" : "replay.play",
  );
  const last = replay.steps.length - 1;
  const deal = view.deal ?? 1;
  const focused = document.activeElement;
  for (const [id, still] of [
    ["replay-first", replay.index === 0],
    ["replay-prev", replay.index === 0],
    ["replay-prev-deal", deal <= 1],
    ["replay-next", replay.index === last],
    ["replay-next-deal", replay.index === last],
  ]) {
    document.getElementById(id).disabled = still;
  }
  // A focused button that is disabled drops the focus to the page: hand it to the way back
  // (at the last step) or on (at the first).
  if (focused instanceof HTMLButtonElement && focused.disabled && focused.closest("#replay-bar")) {
    document.getElementById(replay.index === last ? "replay-prev" : "replay-next").focus();
  }
  const end = document.getElementById("replay-end");
  const over = view.obs?.phase === "over" && view.deals.length >= deal;
  end.hidden = !over;
  end.replaceChildren();
  if (over) {
    // The region, a tab stop that may scroll (a phone on its side), is named as its heading.
    end.setAttribute("aria-label", t("deal_over.title", { n: deal }));
    end.append(explainDeal(view.deals, deal, view.table?.variant?.target ?? 10));
    if (replay.index === last && view.table?.status === "finished") {
      end.append(el("p", { id: "replay-result", class: "result-text" }, resultText(view)));
    }
  }
  const action = document.getElementById("replay-action");
  action.replaceChildren();
  if (view.action) action.append(actionText(view, view.action, view.actor));
  else
    action.append(
      t("log.deal", {
        n: view.deal,
        dealer: who(view, view.obs?.dealer),
        forehand: who(view, view.obs?.forehand),
      }),
    );
}

function actionText(view, token, actor) {
  const a = parseToken(token);
  const seat = who(view, actor);
  if (a.kind === "play") return tn("log.plays", { seat, card: cardInline(token) });
  if (a.kind === "answer") return tn("replay.answer", { seat, action: actionLabel(token) });
  return tn("replay.action", { seat, action: actionLabel(token) });
}

/* ---------- the connection ---------- */

/** Whether `view` shows the live table while the connection is lost: it may be out of date,
 * and nothing in it may be played (a replay is all here: it is not stale). */
function stale(view) {
  return lost && !view.replay;
}

/** The banner on the felt: the connection lost, or back a moment; hidden otherwise. */
function renderConnection() {
  const banner = document.getElementById("connection");
  const shown = lost ? "lost" : backTimer ? "back" : "";
  banner.hidden = !shown;
  banner.dataset.connection = shown;
  banner.textContent = shown ? t(`connection.${shown}`) : "";
  document.body.dataset.stale = String(lost && !replay);
}

/** The connection dropped: the page shows it, and stops the clock, until a state comes. */
function connectionLost() {
  if (lost || leaving) return;
  lost = true;
  clearTimeout(backTimer);
  backTimer = null;
  whyCard = null;
  stopClock();
  announce(t("connection.lost"), true); // nothing can be played until it is back
  render();
}

/** A state came on a new connection after one was lost: say so a moment. */
function connectionBack() {
  if (!lost) return;
  lost = false;
  announce(t("connection.back"));
  backTimer = setTimeout(() => {
    backTimer = null;
    renderConnection();
  }, BACK_MS);
  renderConnection();
}

function setStatus(kind) {
  const dot = document.getElementById("status");
  dot.dataset.state = kind;
  dot.dataset.i18nTitle = `status.${kind}`;
  dot.dataset.i18nAriaLabel = `status.${kind}`;
  dot.title = t(`status.${kind}`);
  dot.setAttribute("aria-label", t(`status.${kind}`));
}

function socketUrl() {
  const token = tableKeys(tableId).token;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = token ? `?token=${encodeURIComponent(token)}` : "";
  return `${scheme}://${location.host}/api/tables/${encodeURIComponent(tableId)}/ws${query}`;
}

function connect() {
  clearTimeout(reconnectTimer);
  if (stopped) return;
  setStatus("connecting");
  resetHint();
  const socket = new WebSocket(socketUrl());
  ws = socket;
  let silence = null; // a ping's wait for an answer (any message will do)
  const ping = () => {
    if (ws === socket && send({ type: "ping" }) && !silence) {
      silence = setTimeout(() => dropped(socket), PONG_MS);
    }
  };
  socket.onopen = () => {
    backoff = 500;
    setStatus("connected");
    clearInterval(pingTimer);
    pingTimer = setInterval(ping, PING_MS);
    probe = ping;
  };
  socket.onmessage = (event) => {
    clearTimeout(silence);
    silence = null;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "state") onState(message);
    else if (message.type === "error") onError(message);
    else if (message.type === "chat") onChat(message);
    else if (message.type === "chat_history") onChatHistory(message);
    else if (message.type === "hint") onHint(message);
  };
  socket.onclose = (event) => {
    clearTimeout(silence);
    if (ws !== socket) return; // replaced by a newer connection
    if (event.code === 4404) {
      clearInterval(pingTimer);
      setStatus("disconnected");
      pending = false;
      stopped = true;
      showNotice(t("table.not_found"));
      return;
    }
    if (event.code === 4401) {
      // The seat token is unknown here: watch instead of retrying it forever.
      saveTableKeys(tableId, { token: null, seat: null });
      toast(t("error.bad_token"), "error", "bad_token");
      reconnectLater(); // to watch: no connection was lost
      return;
    }
    dropped(socket);
  };
}

/** `socket`, the page's connection, closed or stopped answering: show it, and reconnect. */
function dropped(socket) {
  if (ws !== socket) return;
  ws = null;
  probe = () => {};
  socket.close(); // nothing more of it is heard (a dead one may take a while to close)
  connectionLost();
  reconnectLater();
}

function reconnectLater() {
  clearInterval(pingTimer);
  setStatus("disconnected");
  pending = false;
  clearTimeout(reconnectTimer);
  reconnectTimer = setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, 10000);
}

/** Drop the current connection (e.g. after taking a seat) and open a fresh one now. */
function reconnectNow() {
  const old = ws;
  ws = null;
  if (old) old.close();
  backoff = 500;
  connect();
}

function send(message) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(message));
  return true;
}

/** Send, or say that the page is offline; whether it was sent. */
function sendOrSay(message) {
  const sent = send(message);
  if (!sent) toast(t("error.offline"), "error", "offline");
  return sent;
}

function onState(message) {
  const previous = state;
  state = message;
  pending = false;
  connectionBack();
  noteState(message);
  if (previous) {
    const key = (s) => (s.last_trick ? `${s.deal}:${s.last_trick.number}` : null);
    const newKey = key(message);
    if (newKey && newKey !== key(previous)) {
      hold = { trick: message.last_trick, until: Date.now() + HOLD_TRICK_MS };
      clearTimeout(holdTimer);
      holdTimer = setTimeout(() => {
        hold = null;
        render();
      }, HOLD_TRICK_MS);
    }
    // A deal's end is shown a while when the page did not show it yet: the next deal came at
    // once. After the wait between deals, the next deal replaces it at once.
    const shown = previous.observation?.phase === "over";
    const next = message.deal && previous.deal && message.deal > previous.deal;
    if (next && shown) nextDealAfterWait();
    else if (next || (message.observation?.phase === "over" && !shown)) dealEnded();
  }
  if (message.table?.rematch && message.table.id === tableId) {
    // The match was played again at a new table: go on there, holding the same keys (a page
    // that stays for the replay gives them to its link to the rematch, unless keys are held
    // there already).
    const there = tableKeys(message.table.rematch);
    if (!replayAsked || !Object.keys(there).length) {
      saveTableKeys(message.table.rematch, tableKeys(tableId));
    }
    if (!replayAsked) {
      tableId = message.table.rematch;
      reconnectNow();
      return;
    }
  }
  if (message.you) saveTableKeys(tableId, { seat: message.you });
  render();
  if (replayAsked && !replayOpened && message.table?.status === "finished") {
    replayOpened = true;
    startReplay();
  }
}

function onError(message) {
  pending = false;
  hintRefused();
  if (message.code === "chat_throttled" || message.code === "bad_chat") chatRefused();
  const refused = message.code === "illegal" && message.refusal && state;
  const text = refused ? refusalText(currentView(), message.refusal) : errorText(message.code);
  toast(text, "error", message.code ?? "");
  render();
}

function act(token) {
  if (pending || !state || stale(currentView())) return;
  if (send({ type: "action", action: token, seq: state.seq })) {
    pending = true;
    holdFocus();
    for (const b of document.querySelectorAll("[data-card], [data-action]")) b.disabled = true;
  } else {
    toast(t("error.offline"), "error", "offline");
  }
}

function replaceSeat(seat, player) {
  const creator = tableKeys(tableId).creator_token;
  if (!send({ type: "replace", seat, player, creator_token: creator })) {
    toast(t("error.offline"), "error", "offline");
  }
}

async function sitDown(seat) {
  const input = document.querySelector('#take-field input[name="nickname"]');
  const problem = nicknameProblem(input.value);
  if (problem) {
    toast(t(problem), "error", problem);
    input.focus();
    return;
  }
  const nickname = input.value.trim();
  try {
    await takeSeat(tableId, seat, nickname);
    reconnectNow();
  } catch (err) {
    toast(errorText(err.code), "error", err.code);
  }
}

function showNotice(text) {
  const box = document.getElementById("notice");
  box.textContent = text;
  box.hidden = false;
}

/* ---------- replay ---------- */

async function startReplay() {
  try {
    const data = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/replay`);
    if (!data.steps?.length) return;
    replay = { steps: data.steps, index: 0, timer: null };
    render();
  } catch (err) {
    toast(errorText(err.code), "error", err.code);
  }
}

function replayGo(index) {
  if (!replay) return;
  replay.index = Math.max(0, Math.min(replay.steps.length - 1, index));
  if (replay.index === replay.steps.length - 1) stopReplayTimer();
  render();
}

/** The step where deal `deal` (from 1) begins; past the last deal, the last step. */
function replayDealStart(deal) {
  const found = replay.steps.findIndex((step) => step.deal === deal);
  return found < 0 ? replay.steps.length - 1 : found;
}

function stopReplayTimer() {
  clearInterval(replay?.timer);
  if (replay) replay.timer = null;
}

function toggleReplayPlay() {
  if (!replay) return;
  if (replay.timer) stopReplayTimer();
  else {
    if (replay.index === replay.steps.length - 1) replay.index = 0;
    replay.timer = setInterval(() => replayGo(replay.index + 1), REPLAY_MS);
  }
  render();
}

/* ---------- start ---------- */

function wire() {
  document.getElementById("last-trick-btn").addEventListener("click", () => {
    lastTrickOpen = !lastTrickOpen;
    render();
  });
  document.getElementById("answer-dialog").addEventListener("cancel", (e) => e.preventDefault());
  document.getElementById("copy-link").addEventListener("click", async () => {
    const input = document.getElementById("share-link");
    toast(t((await copyText(input.value, input)) ? "table.copied" : "table.copy_failed"), "info");
  });
  const shareDialog = document.getElementById("share-dialog");
  document.getElementById("share-btn").addEventListener("click", () => {
    showShareLink(tableId, document.getElementById("share-dialog-link"), "share-dialog-warning");
    shareDialog.showModal();
  });
  document.getElementById("share-dialog-copy").addEventListener("click", async () => {
    const input = document.getElementById("share-dialog-link");
    toast(t((await copyText(input.value, input)) ? "table.copied" : "table.copy_failed"), "info");
  });
  document
    .getElementById("share-dialog-close")
    .addEventListener("click", () => shareDialog.close());
  document.getElementById("replay-btn").addEventListener("click", startReplay);
  document.getElementById("replay-first").addEventListener("click", () => replayGo(0));
  document
    .getElementById("replay-prev")
    .addEventListener("click", () => replayGo(replay.index - 1));
  document
    .getElementById("replay-next")
    .addEventListener("click", () => replayGo(replay.index + 1));
  document
    .getElementById("replay-prev-deal")
    .addEventListener("click", () => replayGo(replayDealStart(replayView().deal - 1)));
  document
    .getElementById("replay-next-deal")
    .addEventListener("click", () => replayGo(replayDealStart(replayView().deal + 1)));
  document.getElementById("replay-play").addEventListener("click", toggleReplayPlay);
  document.getElementById("replay-exit").addEventListener("click", () => {
    stopReplayTimer();
    replay = null;
    render();
  });
  // Keep what was typed while the page was loading.
  const nickname = document.querySelector('#take-field input[name="nickname"]');
  nickname.value ||= savedNickname();
  // Enter (a phone keyboard's Go) after the nickname takes the one open seat; with more open,
  // it goes to the first one's button (N E S W), where the others are a Tab away.
  nickname.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    event.preventDefault();
    const open = SEATS.filter((s) => document.querySelector(`button[data-take="${s}"]`));
    if (open.length === 1) sitDown(open[0]);
    else if (open.length) document.querySelector(`button[data-take="${open[0]}"]`).focus();
  });
  // Why a card may not be played: on hover with a mouse, on a tap or a click with anything.
  const hand = document.getElementById("hand");
  hand.addEventListener("pointerover", (e) => {
    if (e.pointerType === "mouse") showWhy(cardAt(e));
  });
  hand.addEventListener("pointerup", (e) => showWhy(cardAt(e)));
  hand.addEventListener("pointerleave", (e) => {
    if (e.pointerType === "mouse") showWhy(null);
  });
  window.addEventListener("resize", layoutHand);
  window.addEventListener("online", () => {
    if (!ws || ws.readyState === WebSocket.CLOSED) connect();
  });
  // The device lost its network: the socket may linger dead a long while; ask it now.
  window.addEventListener("offline", () => probe());
  window.addEventListener("pagehide", () => {
    leaving = true;
  });
  window.addEventListener("pageshow", () => {
    leaving = false;
  });
}

let computerPlayers = [];

async function main() {
  const [, options] = await Promise.all([initI18n(), tableOptions()]);
  computerPlayers = options.players;
  wire();
  initAlerts();
  initKeyboard();
  initAbsence(send);
  initChat(sendOrSay);
  initHint(send, actionLabel, () => pending, () => lost);
  onLangChange(render);
  setStatus("connecting");
  connect();
}

main();
