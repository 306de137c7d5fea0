// @ts-check
/**
 * Keyboard play at the table. The hand is one tab stop: the arrow keys (and Home/End) move
 * among the cards that may be played now, Enter or Space plays the focused one (a button).
 * The page redraws everything from each state, so focus is carried across redraws: to the same
 * card or button when it is still there, else to the first playable card or action, else to the
 * deal's Ready or the match's Rematch button, else to the hand itself, which hands focus on to
 * a card as soon as one may be played. While an action is on its way (its buttons disabled,
 * which would drop focus to the page) the hand, or the answer dialog's question, holds it.
 */

import { byId } from "/static/common.js";

const PLAYABLE = "#hand button[data-card]:not([disabled])";
const CONTROLS = "#hand, #actions, #answer-dialog, #deal-over, #rematch";
const ENDS = ["ready-btn", "rematch-btn"]; // drawn afresh each time: found again by id

/** @typedef {{card?: string, action?: string, id?: string}} FocusKey */

let inPlay = false; // the keyboard was last among the cards and the action buttons
/** @type {FocusKey | null} what had focus there: {card} | {action} | {id} */
let lastKey = null;

/** @param {HTMLElement | null} node @returns {FocusKey | null} */
function keyOf(node) {
  if (node?.dataset?.card) return { card: node.dataset.card };
  if (node?.dataset?.action) return { action: node.dataset.action };
  if (node && ENDS.includes(node.id)) return { id: node.id };
  return null;
}

/** The card or button `key` names (a button: the focus goes only to buttons here).
 * @param {FocusKey | null} key @returns {HTMLButtonElement | null} */
function find(key) {
  if (key?.card) return document.querySelector(`#hand button[data-card="${key.card}"]`);
  if (key?.action) return document.querySelector(`[data-action="${CSS.escape(key.action)}"]`);
  if (key?.id) return endButton(key.id);
  return null;
}

/** The end button with id `id`, while it is drawn (the ends draw it only when it is there).
 * @param {string} id @returns {HTMLButtonElement | null} */
function endButton(id) {
  const found = document.getElementById(id);
  return found instanceof HTMLButtonElement ? found : null;
}

/** @param {HTMLButtonElement | null} node @returns {node is HTMLButtonElement} */
function usable(node) {
  return !!node && !node.disabled && node.offsetParent !== null;
}

/** @returns {HTMLButtonElement[]} */
function focusable() {
  /** @type {NodeListOf<HTMLButtonElement>} */
  const playable = document.querySelectorAll(PLAYABLE);
  /** @type {NodeListOf<HTMLButtonElement>} */
  const enabled = document.querySelectorAll("#actions [data-action]:not([disabled])");
  const cards = [...playable];
  const actions = [...enabled];
  const ends = ENDS.map(endButton);
  return [...cards, ...actions, ...ends].filter(usable);
}

/** One tab stop in the hand: the focused card, or the first playable one. */
function rove() {
  /** @type {NodeListOf<HTMLButtonElement>} */
  const all = document.querySelectorAll("#hand button[data-card]");
  const cards = [...all];
  const current = cards.find((c) => c === document.activeElement && !c.disabled);
  const stop = current ?? cards.find((c) => !c.disabled);
  for (const c of cards) c.tabIndex = c === stop ? 0 : -1;
  const hand = byId("hand");
  hand.tabIndex = stop ? -1 : 0;
}

/** Call before an action's buttons are disabled: the focus waits in the hand (or the answer
 * dialog) for the next state, not on the page's body. */
export function holdFocus() {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!active?.closest?.(CONTROLS) || active.closest("#deal-over, #rematch")) return;
  // Not the dialog itself: it takes no focus of its own (with a tabindex it hands it on to
  // its first button, the one about to be disabled).
  const inDialog = active.closest("#answer-dialog");
  const holder = byId(inDialog ? "answer-text" : "hand");
  if (holder !== active) holder.focus({ preventScroll: true });
}

/** Call after every redraw. */
export function keepFocus() {
  rove();
  if (!inPlay) return;
  // A focused button just hidden (the deal's end giving way to the next deal) still holds the
  // focus here, but the browser drops it to the page after this: it is lost already.
  const focused = /** @type {HTMLElement | null} */ (document.activeElement);
  const active = focused && focused !== document.body && focused.checkVisibility() ? focused : null;
  if (active?.closest(CONTROLS)) {
    if (active.id === "hand") focusable()[0]?.focus({ preventScroll: true });
    else if (active.id === "answer-text") {
      // The answer was refused or is still on its way: back on it once it may be chosen.
      const again = find(lastKey);
      /** @type {NodeListOf<HTMLButtonElement>} */
      const buttons = document.querySelectorAll("#answer-dialog [data-action]");
      const answers = [...buttons].filter(usable);
      (again && answers.includes(again) ? again : answers[0])?.focus({ preventScroll: true });
    }
    return;
  }
  if (active) return; // the person moved elsewhere
  const again = find(lastKey);
  const target = usable(again) ? again : focusable()[0];
  if (target) target.focus({ preventScroll: true });
  else byId("hand").focus({ preventScroll: true });
  rove();
}

/** @param {KeyboardEvent} event */
function move(event) {
  /** @type {NodeListOf<HTMLButtonElement>} */
  const playable = document.querySelectorAll(PLAYABLE);
  const cards = [...playable];
  if (!cards.length) return;
  const i = cards.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
  let next = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown") next = cards[(i + 1) % cards.length];
  else if (event.key === "ArrowLeft" || event.key === "ArrowUp")
    next = cards[(i - 1 + cards.length) % cards.length];
  else if (event.key === "Home") next = cards[0];
  else if (event.key === "End") next = cards.at(-1);
  if (!next) return;
  event.preventDefault();
  next.focus();
  rove();
}

export function initKeyboard() {
  const hand = byId("hand");
  hand.setAttribute("role", "group"); // its aria-label, "Your hand", names the cards' group
  hand.addEventListener("keydown", move);
  document.addEventListener("focusin", (event) => {
    const node = /** @type {HTMLElement} */ (event.target);
    inPlay = !!node.closest?.(CONTROLS);
    if (inPlay) lastKey = keyOf(node) ?? lastKey;
  });
  // A click elsewhere on the page ends keyboard play: focus is no longer carried back.
  document.addEventListener("pointerdown", (event) => {
    inPlay = !!(/** @type {Element} */ (event.target).closest?.(CONTROLS));
  });
}
