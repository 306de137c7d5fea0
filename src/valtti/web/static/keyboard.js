/**
 * Keyboard play at the table. The hand is one tab stop: the arrow keys (and Home/End) move
 * among the cards that may be played now, Enter or Space plays the focused one (a button).
 * The page redraws everything from each state, so focus is carried across redraws: to the same
 * card or button when it is still there, else to the first playable card or action, else to the
 * hand itself, which hands focus on to a card as soon as one may be played.
 */

const PLAYABLE = "#hand button[data-card]:not([disabled])";
const CONTROLS = "#hand, #actions, #answer-dialog";

let inPlay = false; // the keyboard was last among the cards and the action buttons
let lastKey = null; // {card} | {action}: what had focus there

function keyOf(node) {
  if (node?.dataset?.card) return { card: node.dataset.card };
  if (node?.dataset?.action) return { action: node.dataset.action };
  return null;
}

function find(key) {
  if (key?.card) return document.querySelector(`#hand button[data-card="${key.card}"]`);
  if (key?.action) return document.querySelector(`[data-action="${CSS.escape(key.action)}"]`);
  return null;
}

function usable(node) {
  return !!node && !node.disabled && node.offsetParent !== null;
}

function focusable() {
  const cards = [...document.querySelectorAll(PLAYABLE)];
  const actions = [...document.querySelectorAll("#actions [data-action]:not([disabled])")];
  return [...cards, ...actions].filter(usable);
}

/** One tab stop in the hand: the focused card, or the first playable one. */
function rove() {
  const cards = [...document.querySelectorAll("#hand button[data-card]")];
  const current = cards.find((c) => c === document.activeElement && !c.disabled);
  const stop = current ?? cards.find((c) => !c.disabled);
  for (const c of cards) c.tabIndex = c === stop ? 0 : -1;
  const hand = document.getElementById("hand");
  hand.tabIndex = stop ? -1 : 0;
}

/** Call after every redraw. */
export function keepFocus() {
  rove();
  if (!inPlay) return;
  const active = document.activeElement;
  if (active && active !== document.body && active.closest(CONTROLS)) {
    if (active.id !== "hand") return;
    const first = focusable()[0];
    if (first) first.focus({ preventScroll: true });
    return;
  }
  if (active && active !== document.body) return; // the person moved elsewhere
  const again = find(lastKey);
  const target = usable(again) ? again : focusable()[0];
  if (target) target.focus({ preventScroll: true });
  else document.getElementById("hand").focus({ preventScroll: true });
  rove();
}

function move(event) {
  const cards = [...document.querySelectorAll(PLAYABLE)];
  if (!cards.length) return;
  const i = cards.indexOf(document.activeElement);
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
  const hand = document.getElementById("hand");
  hand.setAttribute("role", "group"); // its aria-label, "Your hand", names the cards' group
  hand.addEventListener("keydown", move);
  document.addEventListener("focusin", (event) => {
    const node = event.target;
    inPlay = !!node.closest?.(CONTROLS);
    if (inPlay) lastKey = keyOf(node) ?? lastKey;
  });
  // A click elsewhere on the page ends keyboard play: focus is no longer carried back.
  document.addEventListener("pointerdown", (event) => {
    inPlay = !!event.target.closest?.(CONTROLS);
  });
}
