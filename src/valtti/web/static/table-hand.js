// @ts-check
/**
 * What you play with: your hand (each card that is not legal now says why, in #hand-why and by
 * aria-describedby), the declaration and question buttons, and the answer dialog. Exactly the
 * tokens of `observation.legal` are enabled; each is sent back as it came (table-control.js).
 */

import { t } from "/static/i18n.js";
import { byId, el } from "/static/common.js";
import { card, sortHand } from "/static/cards.js";
import { currentView, myLegal, page, parseToken, stale } from "/static/table-state.js";
import { actionLabel, refusalText, who } from "/static/table-words.js";
import { act } from "/static/table-control.js";
import { termTip } from "/static/terms.js";

/** @import { View } from "/static/table-state.js" */

const MIN_TOUCH_STEP = 42; // px of each hand card left visible: a finger-sized target
/** The game's word (terms.js) each kind of question is. @type {Record<string, string>} */
const TERM_OF = { "ask-whole": "ask_whole", "ask-half": "ask_half" };

/** The action buttons (#actions) and the answer dialog. @param {View} view */
export function renderActions(view) {
  const legal = myLegal(view);
  const box = byId("actions");
  const buttons = byId("action-buttons");
  buttons.replaceChildren();
  const words = legal.filter((tok) => {
    const kind = parseToken(tok).kind;
    return kind === "declare" || kind === "ask-whole" || kind === "ask-half";
  });
  /** @type {Set<string>} */
  const terms = new Set();
  // The questions the engine proves cannot succeed now (the state's futile: docs/WEB.md): the
  // button says so itself, and the note why is where the screen has room for it (the bar's
  // line on a wide screen, under the hand on a phone: style.css).
  const futile = (view.replay ? [] : (page.state?.futile ?? [])).filter((a) => words.includes(a));
  for (const token of words) {
    const term = TERM_OF[parseToken(token).kind] ?? null;
    if (term) terms.add(term);
    const hopeless = futile.includes(token);
    buttons.append(
      el(
        "button",
        {
          type: "button",
          class: "action",
          "data-action": token,
          "data-term": term,
          "data-futile": hopeless ? "true" : null,
          "aria-describedby": hopeless ? "futile-note" : null,
          disabled: page.pending || stale(view),
          onclick: () => act(token),
        },
        hopeless ? el("span", {}, actionLabel(token)) : actionLabel(token),
        hopeless ? el("span", { class: "futile-mark" }, t("action.futile.mark")) : null,
      ),
    );
  }
  if (terms.size) {
    const names = [...terms].map((term) => t(`action.${term}`, { suit: "" }).trim());
    // First in the bar: Shift+Tab from the hand reaches the last action, as before.
    buttons.prepend(termTip([...terms], names.join(", ")));
  }
  const hint = byId("window-hint");
  hint.textContent = futile.length ? t("action.futile.whole") : t("table.window.hint");
  hint.classList.toggle("futile", futile.length > 0);
  byId("futile-note").textContent = futile.length ? t("action.futile.whole") : "";
  box.hidden = words.length === 0;
  fitBarLine();

  const answers = legal.filter((tok) => parseToken(tok).kind === "answer");
  const dialog = byId("answer-dialog", HTMLDialogElement);
  const answerBox = byId("answer-buttons");
  answerBox.replaceChildren();
  for (const token of answers) {
    answerBox.append(
      el(
        "button",
        {
          type: "button",
          class: "primary action",
          "data-action": token,
          disabled: page.pending || stale(view),
          onclick: () => act(token),
        },
        actionLabel(token),
      ),
    );
  }
  const offline = byId("answer-offline");
  offline.hidden = !stale(view);
  offline.textContent = stale(view) ? t("connection.why") : "";
  if (answers.length) {
    byId("answer-text").textContent = t("table.answer.text", {
      name: who(view, view.obs?.asker ?? null),
    });
    if (!dialog.open) dialog.showModal();
  } else if (dialog.open) dialog.close();
}

/** Why the card `token` of your hand may not be played now, or null when it may (or no card
 * of yours is shown): the engine's refusal on your turn, whose turn it is otherwise.
 * @param {View} view @param {string} token */
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

/** The declaration bar's line (#window-hint) is shown only where it fits whole: a phone's bar
 * has no room for it (style.css), and many buttons leave a wide screen's too little; a cut
 * sentence is none. Where the line says that a question cannot succeed and is not shown,
 * #futile-note under the hand says it. Call after drawing the bar, and on a resize. */
export function fitBarLine() {
  const hint = byId("window-hint");
  hint.classList.remove("cut");
  const shown = getComputedStyle(hint).display !== "none";
  const cut = shown && hint.scrollHeight > hint.clientHeight + 1;
  hint.classList.toggle("cut", cut);
  const note = byId("futile-note");
  note.hidden = !note.textContent || (shown && !cut);
}

/** Show in #hand-why why `token` (a card of the hand, or null: nothing) may not be played.
 * @param {string | null} token */
export function showWhy(token) {
  const line = byId("hand-why");
  const view = currentView();
  const text = token && view && page.state && !page.replay ? whyNot(view, token) : null;
  page.whyCard = text ? token : null;
  line.hidden = !text;
  line.textContent = text ?? "";
  line.dataset.why = page.whyCard ?? "";
}

/** The hand's card under a pointer event: its target, or (where a browser sends a disabled
 * button's events to its parent) the topmost card at the pointer. @param {PointerEvent} event */
export function cardAt(event) {
  const target = /** @type {Element} */ (event.target).closest?.("#hand [data-card]");
  if (target instanceof HTMLElement) return target.dataset.card;
  /** @type {NodeListOf<HTMLElement>} */
  const all = document.querySelectorAll("#hand [data-card]");
  const cards = [...all].reverse();
  const { clientX: x, clientY: y } = event;
  const hit = cards.find((c) => {
    const r = c.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  });
  return hit ? hit.dataset.card : null;
}

/** Your hand (a replay: the bottom seat's), every card a button. @param {View} view */
export function renderHand(view) {
  const area = byId("hand-area");
  const hand = byId("hand");
  const seat = view.replay ? (view.you ?? "S") : view.you;
  const tokens =
    !view.obs || !seat ? [] : view.replay ? (view.hands?.[seat] ?? []) : (view.obs.hand ?? []);
  area.hidden = !seat || !view.obs;
  // Said where the hand would be: on a phone the top bar has no room for "watching".
  byId("watching-note").hidden = Boolean(seat) || !view.obs;
  hand.replaceChildren();
  const reasons = byId("hand-reasons");
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
          disabled: !ok || page.pending || stale(view),
          onclick: () => act(token),
        },
        card(token),
      ),
    );
  }
  layoutHand();
  showWhy(page.whyCard);
}

/** Overlap the hand's cards to fit the width, in two rows when one would be too tight to tap. */
export function layoutHand() {
  const hand = byId("hand");
  /** @type {NodeListOf<HTMLButtonElement>} */
  const buttons = hand.querySelectorAll(".card-btn");
  const cards = [...buttons];
  if (!cards.length) return;
  const width = hand.clientWidth;
  const cardWidth = cards[0].getBoundingClientRect().width || 64;
  const gap = 6;
  const fits = (/** @type {number} */ n) => n * cardWidth + (n - 1) * gap <= width;
  const step = (/** @type {number} */ n) => (n > 1 ? (width - cardWidth) / (n - 1) : cardWidth);
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
