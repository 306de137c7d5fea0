// @ts-check
/**
 * A deal's match equity drawn as a line over its actions, as a chess evaluation graph: North
 * and South ahead above the middle, East and West below (−1 to 1, on a square-root scale), each side's area filled in its own
 * shade and named by a label at its edge (the review, table-review.js). Each reviewed decision
 * is a point on the line, a costly one marked ?!, ? or ?? in its colour; a point is a button
 * (a click or a tap on it or anywhere near it on the graph; Enter or Space on the focused one,
 * the arrow keys, Home and End move among them): drawn here by the page itself, in SVG.
 *
 * Hooks for end-to-end tests:
 *   figure.equity-graph[data-deal]   one a deal; .graph-label[data-team="NS" | "EW"]
 *   .graph-point[data-step]          a decision (role="button", its words as aria-label);
 *                                    data-mark="?!" | "?" | "??" on a marked one;
 *                                    aria-current="true" on the one chosen
 *   .graph-place                     where the replay's board is in this deal (hidden elsewhere)
 */

import { el } from "/static/common.js";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 300;
const HEIGHT = 110;
const PAD = 6; // above the top and below the bottom of the scale, for the points' marks
const MID = HEIGHT / 2;

/**
 * @typedef {object} GraphPoint one decision: after action `step` (from 1) NS's match equity
 *   was `equity` (−1 to 1), on what its seat knew
 * @property {number} step
 * @property {number} equity
 * @property {string | null} mark
 * @property {string} words what it was, in the page's language (its accessible name)
 */

/**
 * @typedef {object} GraphData
 * @property {number} deal
 * @property {number} actions the deal's actions: the line's width
 * @property {number} start NS's match equity as the deal began
 * @property {number | null} end as it ended (null: not known)
 * @property {GraphPoint[]} points in order of play
 * @property {{NS: string, EW: string}} labels each side's label
 * @property {string} name the graph's accessible name
 */

/** @param {string} name @param {Record<string, string | number>} [attrs] */
function svg(name, attrs = {}) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  return node;
}

/** @param {number} actions @param {number} step */
function xOf(actions, step) {
  return (Math.max(0, Math.min(actions, step)) / Math.max(1, actions)) * WIDTH;
}

/** Up for North–South, down for East–West, on a square-root scale: a deal moves the match
 * by tenths, which a straight scale would draw as a flat line (±0.1 is a third of the way
 * out, ±0.25 half). @param {number} equity */
function yOf(equity) {
  const e = Math.max(-1, Math.min(1, equity));
  return MID - Math.sign(e) * Math.sqrt(Math.abs(e)) * (MID - PAD);
}

/** A two-decimal figure for the points' coordinates. @param {number} n */
function at(n) {
  return n.toFixed(2);
}

/**
 * The graph of one deal; `choose(step)` is called with the decision a person picks on it.
 * @param {GraphData} data @param {(step: number) => void} choose
 */
export function equityGraph(data, choose) {
  const { actions, points } = data;
  const line = [
    [0, data.start],
    ...points.map((p) => [p.step, p.equity]),
    ...(data.end === null ? [] : [[actions, data.end]]),
  ].map(([step, equity]) => `${at(xOf(actions, step))},${at(yOf(equity))}`);
  const lastX = data.end === null ? xOf(actions, points.at(-1)?.step ?? 0) : WIDTH;
  const id = `graph-${data.deal}`;
  const root = /** @type {SVGSVGElement} */ (
    svg("svg", {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      class: "graph",
      role: "group",
      "aria-label": data.name,
    })
  );
  const defs = svg("defs");
  for (const [side, y] of [
    ["ns", 0],
    ["ew", MID],
  ]) {
    const clip = svg("clipPath", { id: `${id}-${side}` });
    clip.append(svg("rect", { x: 0, y, width: WIDTH, height: MID }));
    defs.append(clip);
  }
  const area = `M0,${MID} L${line.join(" L")} L${at(lastX)},${MID} Z`;
  root.append(
    defs,
    svg("rect", { class: "graph-ground", x: 0, y: 0, width: WIDTH, height: HEIGHT }),
    svg("path", { class: "graph-area ns", d: area, "clip-path": `url(#${id}-ns)` }),
    svg("path", { class: "graph-area ew", d: area, "clip-path": `url(#${id}-ew)` }),
    svg("line", { class: "graph-middle", x1: 0, y1: MID, x2: WIDTH, y2: MID }),
    svg("polyline", { class: "graph-line", points: line.join(" ") }),
    svg("line", { class: "graph-place", x1: 0, y1: 0, x2: 0, y2: HEIGHT, visibility: "hidden" }),
  );
  points.forEach((point, i) => {
    const x = xOf(actions, point.step);
    const y = yOf(point.equity);
    const group = svg("g", {
      class: "graph-point",
      role: "button",
      tabindex: i === 0 ? 0 : -1,
      "data-step": point.step,
      "aria-label": point.words,
    });
    if (point.mark) group.dataset.mark = point.mark;
    const title = svg("title");
    title.textContent = point.words;
    group.append(
      title,
      svg("circle", { class: "graph-hit", cx: at(x), cy: at(y), r: 7 }),
      svg("circle", { class: "graph-chosen", cx: at(x), cy: at(y), r: 6.5 }),
      svg("circle", { class: "graph-dot", cx: at(x), cy: at(y), r: point.mark ? 4 : 1.8 }),
    );
    if (point.mark) {
      // The mark above its point, below it where the point is near the top.
      const below = y < PAD + 14;
      const text = svg("text", {
        class: "graph-mark",
        x: at(Math.max(8, Math.min(WIDTH - 8, x))),
        y: at(below ? y + 14 : y - 7),
        "text-anchor": "middle",
        "aria-hidden": "true",
      });
      text.textContent = point.mark;
      group.append(text);
    }
    root.append(group);
  });
  wire(root, data, choose);
  return el(
    "figure",
    { class: "equity-graph", dataset: { deal: String(data.deal) } },
    el("span", { class: "graph-label top", dataset: { team: "NS" } }, data.labels.NS),
    root,
    el("span", { class: "graph-label bottom", dataset: { team: "EW" } }, data.labels.EW),
  );
}

/** Clicks, taps and keys on the graph. @param {SVGSVGElement} root @param {GraphData} data
 * @param {(step: number) => void} choose */
function wire(root, data, choose) {
  /** @type {SVGGElement[]} */
  const points = [...root.querySelectorAll("g.graph-point")].map(
    (node) => /** @type {SVGGElement} */ (node),
  );
  if (!points.length) return;
  const stepOf = (/** @type {Element} */ node) => Number(node.getAttribute("data-step"));
  root.addEventListener("click", (event) => {
    const hit = /** @type {Element} */ (event.target).closest?.("g.graph-point");
    if (hit) {
      choose(stepOf(hit));
      return;
    }
    // Anywhere else on the graph: the decision nearest along the line.
    const matrix = root.getScreenCTM();
    if (!matrix) return;
    const spot = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const distance = (/** @type {SVGGElement} */ p) =>
      Math.abs(xOf(data.actions, stepOf(p)) - spot.x);
    const nearest = points.reduce((best, p) => (distance(p) < distance(best) ? p : best));
    nearest.focus();
    choose(stepOf(nearest));
  });
  root.addEventListener("keydown", (event) => {
    const current = points.indexOf(/** @type {SVGGElement} */ (document.activeElement));
    if (current < 0) return;
    /** @type {Record<string, number>} */
    const moves = {
      ArrowLeft: current - 1,
      ArrowDown: current - 1,
      ArrowRight: current + 1,
      ArrowUp: current + 1,
      Home: 0,
      End: points.length - 1,
    };
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      choose(stepOf(points[current]));
    } else if (event.key in moves) {
      event.preventDefault();
      focusPoint(points, Math.max(0, Math.min(points.length - 1, moves[event.key])));
    }
  });
}

/** Give the focus to point `index`, the graph's one tab stop from then on.
 * @param {SVGGElement[]} points @param {number} index */
function focusPoint(points, index) {
  points.forEach((p, i) => {
    p.setAttribute("tabindex", i === index ? "0" : "-1");
  });
  points[index].focus();
}

/** Show where the board is (after `actions` actions of this graph's deal; null: another deal)
 * and which decision is chosen (its step, or null), without drawing the graph again.
 * @param {HTMLElement} figure @param {number} actions the deal's
 * @param {number | null} place @param {number | null} chosen */
export function showPlace(figure, actions, place, chosen) {
  const cursor = figure.querySelector(".graph-place");
  if (cursor) {
    cursor.setAttribute("visibility", place === null ? "hidden" : "visible");
    const x = at(xOf(actions, place ?? 0));
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
  }
  for (const point of figure.querySelectorAll(".graph-point")) {
    const isChosen = chosen !== null && Number(point.getAttribute("data-step")) === chosen;
    if (isChosen) point.setAttribute("aria-current", "true");
    else point.removeAttribute("aria-current");
  }
}
