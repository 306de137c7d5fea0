// @ts-check
/**
 * The project's own card drawings, as SVG built in the page (no images, no fonts to fetch).
 *
 *   card("AS")   -> <svg class="card" data-token="AS">: corner indices, suit pips, "10" for T
 *   cardBack()   -> <svg class="card card-back">
 *   suitIcon("H") -> a small inline <svg class="suit suit-H"> for text, buttons and the log
 *
 * Cards are written as in RECORD.md: rank A T K Q J 9 8 7 6 (10 accepted), suit S H D C.
 */

const SVG = "http://www.w3.org/2000/svg";

/** Suits in the order a hand is shown: the colours alternate. */
export const HAND_SUIT_ORDER = ["S", "H", "C", "D"];
/** Ranks from high to low (RULES.md 1.2). */
export const RANKS = ["A", "T", "K", "Q", "J", "9", "8", "7", "6"];

/** @import { Suit } from "/static/protocol.js" */

/** The four suit shapes, each in a 100 × 100 box. @type {Record<string, string>} */
const SUIT_PATHS = {
  S:
    "M50 4C62 22 94 40 94 62C94 76 84 84 72 84C63 84 56 80 53 74C54 84 58 91 66 96L34 96" +
    "C42 91 46 84 47 74C44 80 37 84 28 84C16 84 6 76 6 62C6 40 38 22 50 4Z",
  H:
    "M50 94C35 79 4 59 4 32C4 16 16 6 29 6C39 6 46 12 50 21C54 12 61 6 71 6" +
    "C84 6 96 16 96 32C96 59 65 79 50 94Z",
  D: "M50 3Q67 30 89 50Q67 70 50 97Q33 70 11 50Q33 30 50 3Z",
  C:
    "M50 8a20 20 0 1 1 0 40a20 20 0 1 1 0-40Z" +
    "M27 40a20 20 0 1 1 0 40a20 20 0 1 1 0-40Z" +
    "M73 40a20 20 0 1 1 0 40a20 20 0 1 1 0-40Z" +
    "M50 44a12 12 0 1 1 0 24a12 12 0 1 1 0-24Z" +
    "M46 56C46 78 42 88 30 96L70 96C58 88 54 78 54 56Z",
};

/** @type {Record<string, string>} */
const GLYPHS = { S: "♠", H: "♥", D: "♦", C: "♣" };

const L = 31;
const M = 50;
const R = 69;
/** Pip centres on the 100 × 140 card for the number cards, as [x, y].
 * @type {Record<number, number[][]>} */
const PIPS = {
  6: [
    [L, 36],
    [R, 36],
    [L, 70],
    [R, 70],
    [L, 104],
    [R, 104],
  ],
  7: [
    [L, 36],
    [R, 36],
    [M, 53],
    [L, 70],
    [R, 70],
    [L, 104],
    [R, 104],
  ],
  8: [
    [L, 36],
    [R, 36],
    [M, 53],
    [L, 70],
    [R, 70],
    [M, 87],
    [L, 104],
    [R, 104],
  ],
  9: [
    [L, 34],
    [R, 34],
    [L, 57],
    [R, 57],
    [M, 70],
    [L, 83],
    [R, 83],
    [L, 106],
    [R, 106],
  ],
  10: [
    [L, 34],
    [R, 34],
    [M, 46],
    [L, 57],
    [R, 57],
    [L, 83],
    [R, 83],
    [M, 94],
    [L, 106],
    [R, 106],
  ],
};

/** @param {string} tag @param {Record<string, string | number>} [attrs] @returns {SVGElement} */
export function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** True for the red suits, hearts and diamonds. @param {string} suit */
export function isRed(suit) {
  return suit === "H" || suit === "D";
}

/** Split a card token into [rank, suit], accepting "10" for "T"; null when it is not a card.
 * @param {string} token @returns {[string, Suit] | null} */
export function parseCard(token) {
  const m = /^(10|[AKQJT98765])([SHDC])$/i.exec(String(token).trim());
  if (!m) return null;
  const rank = m[1] === "10" ? "T" : m[1].toUpperCase();
  return [rank, /** @type {Suit} */ (m[2].toUpperCase())];
}

/** The rank as printed on a card: "10" for T. @param {string} rank */
export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/** A card in words for text: "10♥". @param {string} token */
export function cardText(token) {
  const parsed = parseCard(token);
  return parsed ? rankLabel(parsed[0]) + GLYPHS[parsed[1]] : String(token);
}

/** The suit glyph for text that cannot hold an element (attributes, titles).
 * @param {string} suit */
export function suitGlyph(suit) {
  return GLYPHS[suit] ?? suit;
}

/** Sort card tokens for a hand: by suit (colours alternating), then from high to low.
 * @param {string[]} tokens */
export function sortHand(tokens) {
  const key = (/** @type {string} */ t) => {
    const [rank, suit] = parseCard(t) ?? ["6", "S"];
    return HAND_SUIT_ORDER.indexOf(suit) * 10 + RANKS.indexOf(rank);
  };
  return [...tokens].sort((a, b) => key(a) - key(b));
}

/** @param {string} suit @param {number} cx @param {number} cy @param {number} size
 * @param {boolean} upsideDown */
function pip(suit, cx, cy, size, upsideDown) {
  const s = size / 100;
  const turn = upsideDown ? ` rotate(180 50 50)` : "";
  return svg("path", {
    d: SUIT_PATHS[suit],
    transform: `translate(${cx - size / 2} ${cy - size / 2}) scale(${s})${turn}`,
  });
}

/** @param {string} rank @param {string} suit */
function cornerIndex(rank, suit) {
  const g = svg("g", { class: "index" });
  const label = rankLabel(rank);
  const text = svg("text", {
    x: 13,
    y: 27,
    "text-anchor": "middle",
    "font-size": label.length > 1 ? 23 : 27,
    "font-weight": 700,
    "letter-spacing": label.length > 1 ? -2 : 0,
  });
  text.textContent = label;
  g.append(text, pip(suit, 13, 40, 17, false));
  return g;
}

/** The face of one card as an SVG element (100 × 140 units, scaled by CSS).
 * @param {string} token */
export function card(token) {
  const parsed = parseCard(token);
  if (!parsed) throw new Error(`not a card: ${token}`);
  const [rank, suit] = parsed;
  const root = svg("svg", {
    viewBox: "0 0 100 140",
    class: `card card-face suit-${suit} ${isRed(suit) ? "red" : "black"}`,
    "data-token": rank + suit,
    role: "img",
    "aria-label": cardText(rank + suit),
    "font-family": "system-ui, 'DejaVu Sans', Arial, sans-serif",
  });
  root.append(svg("rect", { class: "card-edge", x: 1, y: 1, width: 98, height: 138, rx: 8 }));
  const ink = svg("g", { class: "ink" });
  const top = cornerIndex(rank, suit);
  const bottom = cornerIndex(rank, suit);
  bottom.setAttribute("transform", "rotate(180 50 70)");
  ink.append(top, bottom);
  if (rank === "A") {
    ink.append(pip(suit, 50, 70, 46, false));
  } else if ("KQJ".includes(rank)) {
    ink.append(
      svg("rect", { class: "face-frame", x: 25, y: 22, width: 50, height: 96, rx: 4 }),
      pip(suit, 37, 35, 14, false),
      pip(suit, 63, 105, 14, true),
    );
    const letter = svg("text", {
      x: 50,
      y: 84,
      "text-anchor": "middle",
      "font-size": 44,
      "font-weight": 700,
      "font-family": "Georgia, 'DejaVu Serif', serif",
    });
    letter.textContent = rank;
    ink.append(letter);
  } else {
    const n = rank === "T" ? 10 : Number(rank);
    for (const [x, y] of PIPS[n]) ink.append(pip(suit, x, y, 19, y > 72));
  }
  root.append(ink);
  return root;
}

/** The back of a card: a lattice of small diamonds inside a border. */
export function cardBack() {
  const root = svg("svg", {
    viewBox: "0 0 100 140",
    class: "card card-back",
    "aria-hidden": "true",
  });
  root.append(svg("rect", { class: "card-edge", x: 1, y: 1, width: 98, height: 138, rx: 8 }));
  root.append(svg("rect", { class: "back-field", x: 8, y: 8, width: 84, height: 124, rx: 4 }));
  let d = "";
  for (let y = 14; y < 130; y += 12) {
    for (let x = 14; x < 90; x += 12) {
      d += `M${x + 4} ${y}L${x + 8} ${y + 6}L${x + 4} ${y + 12}L${x} ${y + 6}Z`;
    }
  }
  root.append(svg("path", { class: "back-lattice", d }));
  return root;
}

/** A suit as a small inline icon (for buttons, the log and the trump indicator).
 * @param {string} suit */
export function suitIcon(suit) {
  const root = svg("svg", {
    viewBox: "0 0 100 100",
    class: `suit suit-${suit} ${isRed(suit) ? "red" : "black"}`,
    role: "img",
    "aria-label": suitGlyph(suit), // named in words in the page's language by names.js
    "data-suit": suit,
  });
  root.append(svg("path", { d: SUIT_PATHS[suit] }));
  return root;
}

/** A card as a small inline element for text: rank then suit icon. @param {string} token */
export function cardInline(token) {
  const parsed = parseCard(token);
  const span = document.createElement("span");
  span.className = "card-inline";
  if (!parsed) {
    span.textContent = String(token);
    return span;
  }
  const [rank, suit] = parsed;
  span.dataset.token = rank + suit; // named in words by names.js
  span.classList.add(isRed(suit) ? "red" : "black");
  span.append(rankLabel(rank), suitIcon(suit));
  return span;
}
