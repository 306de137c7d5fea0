// @ts-check
/**
 * The hint (docs/WEB.md, Hints): on your turn, at a table that gives hints, #hint-btn asks the
 * server what the PIMC computer player (pimc:hard) makes of each of your legal moves. #hint lists them
 * best first, each with its value, its share of the deals where it is best and its main reason
 * in the page's language (said from the reason's code and arguments; "in 3 of the 16 deals: …"
 * where the engine says not every deal shows it, with its share of their weight where they
 * weigh differently), then which deals the hint rests on (every possible one, or a sample) and
 * how close the top two moves are; a forced move is "the only legal move",
 * with no value or share ("—"). The best move's card or button is marked until the next state.
 * The page decides nothing: it shows the server's hint for the state it was asked at, and only
 * while that state is the latest.
 *
 * Hooks for end-to-end tests:
 *   #hint-btn          shown while you may ask (your turn, no action of yours on its way; a
 *                      forced move too: it is said to be one); data-busy="true" while the hint is on its way;
 *                      disabled (in its place) while the page's connection is lost
 *                      (it floats at the felt's foot beside the hand; it and #hint are in
 *                      #answer-dialog while that is open)
 *   #hint-sheet        where the panel goes where floating over the felt it would cover the
 *                      trick or the hand (a phone either way up): under the hand (beside the felt
 *                      on a phone on its side), the page scrolled as far as the trick and the
 *                      hand stay in sight, the panel scrolling in what is left; body
 *                      data-hint-sheet="true" while it is there
 *   #hint              the panel (hidden without a hint for this state); #hint-close;
 *                      #hint-worlds says over how many deals (all the possible ones, or
 *                      sampled) and how close the top two moves are (or that the move is
 *                      forced)
 *   #hint-moves li     one per legal move, best first: data-move = its token,
 *                      data-best="true|false", with .hint-move, .hint-value, .hint-share and
 *                      .hint-reason[data-code] (the reason's code; data-certain="true|false":
 *                      whether every deal of the hint shows it, as the engine says)
 *   [data-hinted]      "true" on the best move's hand card or action button
 */

import { currentLang, has, t, tn, tp } from "/static/i18n.js";
import { byId, el, toast } from "/static/common.js";
import { cardInline, suitIcon } from "/static/cards.js";
import { labelCards } from "/static/names.js";
import { MESSAGE } from "/static/protocol.js";
import { parseToken } from "/static/table-state.js";
import { moveLabel } from "/static/table-words.js";

/**
 * @import { HintFrame, HintMove, HintReason, Send } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 */

/** @type {Send | null} */
let send = null;
let acting = () => false; // whether an action of yours is on its way (the page's pending)
let offline = () => false; // whether the page's connection is lost
/** @type {number | null} the seq a hint was asked at and has not come yet */
let asked = null;
/** @type {HintFrame | null} the latest hint message */
let hint = null;
/** @type {number | null} the seq whose hint was closed */
let closedAt = null;

/** Wire the button and the panel: `sender` sends a message (false when offline), `pending`
 * says whether an action of yours is on its way (after your ask-whole, until your partner has
 * answered), `lost` whether the page's connection is lost (nothing may be asked until a state
 * comes on a new one).
 * @param {Send} sender @param {() => boolean} pending @param {() => boolean} lost */
export function initHint(sender, pending, lost) {
  send = sender;
  acting = pending;
  offline = lost;
  byId("hint-btn").addEventListener("click", ask);
  window.addEventListener("resize", () => {
    const panel = byId("hint");
    if (panel.hidden) return;
    // Over the felt or in the sheet, as the new size needs.
    scrolledBy = 0;
    place();
  });
  byId("hint-close").addEventListener("click", () => {
    closedAt = hint?.seq ?? null;
    const panel = byId("hint");
    const hadFocus = panel.contains(document.activeElement);
    panel.hidden = true;
    leaveSheet();
    // The focus goes back to the button that opened it, not to the page.
    if (hadFocus) byId("hint-btn").focus();
  });
}

/** @type {View | null} the view last drawn */
let current = null;
/** @type {{hint: HintFrame | null, lang: string}} what the panel was last drawn with */
let drawnFor = { hint: null, lang: "" };

function ask() {
  if (!current || asked === current.seq || !mayAsk(current) || offline()) return;
  closedAt = null;
  if (hint && hint.seq === current.seq) {
    renderHint(current);
    return;
  }
  if (send?.({ type: MESSAGE.HINT, seq: current.seq })) {
    asked = current.seq;
    drawButton(current);
  } else toast(t("error.offline"), "error", "offline");
}

/** A hint from the server. @param {HintFrame} message */
export function onHint(message) {
  if (hint && message.seq < hint.seq) return; // an older turn's, come late
  hint = message;
  if (asked === message.seq) asked = null;
  if (current) renderHint(current);
}

/** An error came: whatever it answered, no hint is on its way any more. */
export function hintRefused() {
  asked = null;
}

/** A new connection (a reconnect, a rematch's table): what the old one asked or was told is
 * gone with it. */
export function resetHint() {
  asked = null;
  hint = null;
  closedAt = null;
}

/** @param {View} view */
function mayAsk(view) {
  const obs = view.obs;
  return (
    !view.replay &&
    !!view.you &&
    view.table?.hints !== false &&
    view.table?.status === "playing" &&
    !!obs &&
    obs.phase !== "over" &&
    obs.to_move === view.you &&
    (obs.legal ?? []).length > 0 &&
    !acting()
  );
}

/** @param {View} view */
function drawButton(view) {
  const button = byId("hint-btn");
  button.hidden = !mayAsk(view);
  const busy = asked === view.seq;
  button.dataset.busy = String(busy);
  // Not disabled while busy or offline (ask() does nothing then): a disabled button would
  // drop the keyboard's focus.
  button.setAttribute("aria-busy", String(busy));
  button.setAttribute("aria-disabled", String(busy || offline()));
  button.textContent = t(busy ? "hint.busy" : "hint.ask");
}

/** The reason `reason` (Reason.to_dict()) in the page's language. @param {HintReason} reason */
function reasonText(reason) {
  let key = `hint.reason.${reason.code}`;
  if (reason.code === "declares" && reason.points === 1) key = "hint.reason.declares_little";
  if (reason.code === "locks_marriage" && reason.partner) key = "hint.reason.locks_partners";
  if (!has(key)) return document.createTextNode(reason.text ?? "");
  return tn(key, {
    card: reason.card ? cardInline(reason.card) : "",
    suit: reason.suit ? suitIcon(reason.suit) : "",
    points: reason.points ?? "",
  });
}

/** The reason, and where the engine found it in some of the deals only, in how many (certain
 * words only where every deal shows it), with its share of their weight where they weigh
 * differently (`even` false); the review's too (table-review.js).
 * @param {HintReason} reason @param {boolean} [even] */
export function reasonWords(reason, even = true) {
  const words = reasonText(reason);
  if (reason.share == null || reason.deals == null || reason.shown == null || reason.certain) {
    return words;
  }
  const n = reason.deals;
  const share = new Intl.NumberFormat(currentLang(), { style: "percent" }).format(reason.share);
  return tn(`hint.${even ? "shown" : "shown_weighted"}_${n === 1 ? "one" : "other"}`, {
    k: reason.shown,
    n,
    share,
    reason: words,
  });
}

/** The heading: the computer player's choice; in answer to ask-whole a suit it would name.
 * @param {HintMove} best */
function heading(best) {
  const key = parseToken(best.action).kind === "answer" ? "hint.heading_answer" : "hint.heading";
  return tn(key, { action: moveLabel(best.action) });
}

/** How far to trust the hint: the deals it rests on (every possible one, or a sample) and how
 * close the top two moves are (exactly, where every possible deal was valued).
 * @param {HintFrame} frame @param {Intl.NumberFormat} plain */
function basis(frame, plain) {
  const [first, second] = frame.moves;
  if (!first.worlds) return t("hint.forced");
  let over = tp(frame.exact ? "hint.possible" : "hint.worlds", frame.deals ?? first.worlds);
  if (frame.fallback) over = `${over} ${t("hint.fallback")}`;
  if (!second || first.value == null || second.value == null || first.error == null) return over;
  const gap = plain.format(first.value - second.value);
  if (frame.exact) return `${over} ${t("hint.gap_exact", { gap })}`;
  return `${over} ${t("hint.gap", { gap, error: plain.format(first.error) })}`;
}

/** The panel: the hint's moves, best first. */
function drawPanel() {
  const panel = byId("hint");
  const list = byId("hint-moves");
  const moves = hint?.moves ?? [];
  const value = new Intl.NumberFormat(currentLang(), {
    signDisplay: "exceptZero",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  const share = new Intl.NumberFormat(currentLang(), { style: "percent" });
  const plain = new Intl.NumberFormat(currentLang(), {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  // The panel is a live region: drawn again only for a new hint or language, or a screen reader
  // would read it all again at every redraw of the table.
  if (drawnFor.hint === hint && drawnFor.lang === currentLang() && !panel.hidden) {
    markBest(moves);
    return;
  }
  drawnFor = { hint, lang: currentLang() };
  list.replaceChildren(
    ...moves.map((move, i) =>
      el(
        "li",
        { dataset: { move: move.action, best: String(i === 0) } },
        el("span", { class: "hint-move" }, moveLabel(move.action)),
        // A forced move has no value or share (null): nothing was weighed.
        el("span", { class: "hint-value" }, move.value == null ? "—" : value.format(move.value)),
        el(
          "span",
          { class: "hint-share" },
          move.best_share == null ? "—" : share.format(move.best_share),
        ),
        el(
          "span",
          {
            class: "hint-reason",
            dataset: { code: move.reason.code, certain: String(move.reason.certain) },
          },
          reasonWords(move.reason, hint?.even ?? true),
        ),
      ),
    ),
  );
  byId("hint-heading").replaceChildren(moves.length ? heading(moves[0]) : "");
  byId("hint-worlds").textContent = hint && moves.length ? basis(hint, plain) : "";
  // A forced move's columns hold nothing to explain.
  byId("hint-key").hidden = !moves[0]?.worlds;
  panel.hidden = !moves.length;
  labelCards(panel);
  markBest(moves);
}

/** The page's elements marked as a hint's best move. @returns {NodeListOf<HTMLElement>} */
function hinted() {
  return document.querySelectorAll("[data-hinted]");
}

/** Mark the hint's best move among the hand's cards and the action buttons (drawn afresh).
 * @param {HintMove[]} moves */
function markBest(moves) {
  for (const node of hinted()) delete node.dataset.hinted;
  if (moves.length) {
    const best = moves[0].action;
    /** @type {NodeListOf<HTMLElement>} */
    const nodes = document.querySelectorAll(
      `#hand [data-card="${CSS.escape(best)}"], [data-action="${CSS.escape(best)}"]`,
    );
    for (const node of nodes) {
      if (!node.closest("#hint")) node.dataset.hinted = "true";
    }
  }
}

/** Draw the button and the panel for `view` (after the hand and the actions are drawn).
 * @param {View} view */
export function renderHint(view) {
  current = view;
  // A modal answer dialog leaves the rest of the page inert: the hint goes into it meanwhile.
  const dialog = byId("answer-dialog", HTMLDialogElement);
  const slot = byId(dialog.open ? "answer-hint-slot" : "hint-slot");
  const box = byId("hint-box");
  if (box.parentElement !== slot) slot.append(box);
  drawButton(view);
  const panel = byId("hint");
  const wasShown = !panel.hidden;
  const shown = mayAsk(view) && hint && hint.seq === view.seq && closedAt !== view.seq;
  if (shown) drawPanel();
  else {
    panel.hidden = true;
    for (const node of hinted()) delete node.dataset.hinted;
  }
  if (dialog.open) home(box);
  else if (!panel.hidden && !wasShown) place();
  else if (panel.hidden && wasShown) leaveSheet();
}

/* ---------- where the panel is: over the felt, or in the sheet ---------- */

/** How much this page scrolled to show the sheet (0: none). */
let scrolledBy = 0;

/** Put the panel in `parent`, unless it is there (moving it would drop a focus inside it).
 * @param {HTMLElement} parent */
function home(parent) {
  const panel = byId("hint");
  if (panel.parentElement !== parent) parent.append(panel);
  document.body.dataset.hintSheet = String(parent.id === "hint-sheet");
  if (parent.id !== "hint-sheet") panel.style.maxHeight = "";
}

/** Whether boxes `a` and `b` overlap. @param {DOMRect} a @param {DOMRect} b */
function overlap(a, b) {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** The panel just shown: floating over the felt where it leaves the trick and the hand in
 * sight (a wide screen), else in the sheet under the hand (or beside the felt). */
function place() {
  const panel = byId("hint");
  home(byId("hint-box"));
  const box = panel.getBoundingClientRect();
  const covers = ["trick", "hand"].some((id) => overlap(box, byId(id).getBoundingClientRect()));
  if (covers) {
    home(byId("hint-sheet"));
    fitSheet();
  }
}

/** The sheet's panel as tall as the window leaves it once the page is scrolled as far as the
 * trick and the hand stay in sight under the top bar, and the page scrolled so far as it
 * needs to show it. Again on a resize. */
function fitSheet() {
  const panel = byId("hint");
  if (panel.hidden || panel.parentElement?.id !== "hint-sheet") return;
  const margin = 8;
  const bar = document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
  const top = (/** @type {string} */ id) => byId(id).getBoundingClientRect().top;
  // How much further the page may scroll: the trick and the hand keep their tops in sight.
  const room = Math.max(0, Math.min(top("trick"), top("hand")) - bar - margin);
  const panelTop = panel.getBoundingClientRect().top;
  panel.style.maxHeight = `${Math.max(120, innerHeight - (panelTop - room) - margin)}px`;
  const needed = panel.getBoundingClientRect().bottom + margin - innerHeight;
  const by = Math.max(0, Math.min(room, needed));
  if (by > 0) {
    window.scrollBy({ top: by, behavior: "instant" });
    scrolledBy += by;
  }
}

/** The panel hidden: it goes back over the felt, and the page back to where it was. */
function leaveSheet() {
  if (byId("hint").parentElement?.id !== "hint-sheet") return;
  home(byId("hint-box"));
  if (scrolledBy) window.scrollBy({ top: -scrolledBy, behavior: "instant" });
  scrolledBy = 0;
}
