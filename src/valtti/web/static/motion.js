// @ts-check
import { byId } from "/static/common.js";
/**
 * Cards that move: a played card slides from its player (your own card: from its place in your
 * hand) into the trick, and a completed trick slides to its winner as it is cleared. Web
 * Animations on the drawn cards only, so the page's state is never kept waiting; nothing moves
 * under prefers-reduced-motion.
 *
 * A move is drawn only from one drawing of the table to the next of the same kind: the live
 * table after the live table, or a replay one step on or back. Nothing moves where the page
 * changed under the cards (the felt moved: a panel came or went above it, as the match's result
 * does at its end) or the view jumped (a replay opened or left, a jump of steps or deals): the
 * cards were never where a move would start, so it would fly over whatever is there now.
 *
 *   const shot = snapshot();  ... redraw ...  animate(shot, drawn);
 */

/** @typedef {{left: number, top: number, width: number, height: number}} Box */
/** @typedef {{replay: boolean, step: number | null}} Drawn what a drawing showed: the live
 * table (step null), or a replay's step */
/**
 * @typedef {object} Shot where the cards were before a redraw
 * @property {Map<string, Box>} hand your hand's cards by token
 * @property {{card: string, rect: Box, node: SVGElement | null}[]} played the trick's cards
 * @property {boolean} complete the trick was complete
 * @property {string | null} winner its winner's seat
 * @property {Box} felt where the felt was
 * @property {Drawn | null} drawn what that drawing showed
 */

/** @type {Drawn | null} what the page drew last */
let last = null;

const PLAY_MS = 260;
const GATHER_MS = 420;

function still() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** @param {Box} rect */
function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/** @param {string} seat @returns {Box | undefined} */
function seatRect(seat) {
  return document.querySelector(`.felt .seat[data-seat="${seat}"]`)?.getBoundingClientRect();
}

/** A small card's box at the middle of a seat: where another player's card comes from.
 * @param {Box | undefined} seat @param {Element | null} node @returns {Box | null} */
function cardAt(seat, node) {
  if (!seat || !node) return null;
  const card = node.getBoundingClientRect();
  const c = centre(seat);
  const width = card.width * 0.6;
  const height = card.height * 0.6;
  return { left: c.x - width / 2, top: c.y - height / 2, width, height };
}

/** Where the cards are before a redraw. @returns {Shot | null} */
export function snapshot() {
  // Nothing moves on the first drawing of a page: its cards were already where they are.
  if (still() || !document.body.dataset.seq) return null;
  /** @type {Map<string, Box>} */
  const hand = new Map();
  /** @type {NodeListOf<HTMLButtonElement>} */
  const cards = document.querySelectorAll("#hand button[data-card]");
  for (const b of cards) hand.set(b.dataset.card ?? "", b.getBoundingClientRect());
  const box = byId("trick");
  /** @type {NodeListOf<HTMLElement>} */
  const plays = box.querySelectorAll("[data-played]");
  const played = [...plays].map((p) => ({
    card: p.dataset.played ?? "",
    rect: p.getBoundingClientRect(),
    node: p.querySelector("svg"),
  }));
  const complete = box.dataset.complete === "true" && played.length > 0;
  /** @type {HTMLElement | null} */
  const won = box.querySelector('[data-winner="true"]');
  const winner = won?.dataset.by ?? null;
  const felt = byId("felt").getBoundingClientRect();
  return { hand, played, complete, winner, felt, drawn: last };
}

/** Whether a drawing of `now` follows the one `shot` was taken of, the cards where they were:
 * the same kind of view (a replay's one step on or back) and the felt where it was.
 * @param {Shot} shot @param {Drawn} now */
function follows(shot, now) {
  const before = shot.drawn;
  if (!before || before.replay !== now.replay) return false;
  if (now.replay && Math.abs((now.step ?? 0) - (before.step ?? 0)) !== 1) return false;
  const felt = byId("felt").getBoundingClientRect();
  return Math.abs(felt.left - shot.felt.left) < 1 && Math.abs(felt.top - shot.felt.top) < 1;
}

/** The transform that draws a node resting at `at` over the box `over` instead.
 * @param {Box} over @param {Box} at */
function offset(over, at) {
  const a = centre(over);
  const b = centre(at);
  return `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${over.width / (at.width || 1)})`;
}

/** Move what changed since `shot`, to the drawing of `drawn` (the page's view drawn now).
 * @param {Shot | null} shot @param {Drawn} drawn */
export function animate(shot, drawn) {
  last = drawn;
  if (!shot || still() || !follows(shot, drawn)) return;
  const before = new Set(shot.played.map((p) => p.card));
  /** @type {NodeListOf<HTMLElement>} */
  const shown = document.querySelectorAll("#trick [data-played]");
  for (const p of shown) {
    const card = p.dataset.played ?? "";
    if (before.has(card)) continue;
    const node = p.querySelector("svg");
    const from = shot.hand.get(card) ?? cardAt(seatRect(p.dataset.by ?? ""), node);
    if (!from || !node) continue;
    const frames = [{ transform: offset(from, p.getBoundingClientRect()) }, { transform: "none" }];
    node.animate(frames, { duration: PLAY_MS, easing: "ease-out" });
  }
  const now = new Set([...shown].map((p) => p.dataset.played));
  const gone = shot.played.filter((p) => !now.has(p.card));
  const target = shot.complete && shot.winner ? seatRect(shot.winner) : null;
  if (!target || !gone.length) return;
  // The cleared trick's cards, drawn over the page for the moment they take to reach the winner.
  for (const p of gone) {
    if (!p.node) continue;
    const ghost = /** @type {SVGElement} */ (p.node.cloneNode(true));
    ghost.removeAttribute("data-token");
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("flying-card");
    Object.assign(ghost.style, {
      left: `${p.rect.left}px`,
      top: `${p.rect.top}px`,
      width: `${p.rect.width}px`,
    });
    document.body.append(ghost);
    const small = { left: 0, top: 0, width: p.rect.width * 0.4, height: p.rect.height * 0.4 };
    const c = centre(target);
    Object.assign(small, { left: c.x - small.width / 2, top: c.y - small.height / 2 });
    const frames = [
      { transform: "none", opacity: 1 },
      { transform: offset(small, p.rect), opacity: 0.2 },
    ];
    const anim = ghost.animate(frames, {
      duration: GATHER_MS,
      easing: "ease-in",
      fill: "forwards",
    });
    anim.onfinish = () => ghost.remove();
    anim.oncancel = () => ghost.remove();
  }
}
