// @ts-check
/**
 * The game's words explained where the table shows them (docs/WEB.md, "Layout"): trumps, little
 * trump, locked, Ask whole, Ask half, Porvoo, overshoot and the deal's points, in the words of
 * docs/RULES.md. A word marked data-term="locked" gets its explanation as a title (a pointer's
 * hover) and, where it is not itself a control, becomes one: a tap, a click, Enter or Space
 * shows the explanation in #term-pop (a touch screen has no hover). A control that does
 * something else (an "Ask whole" button) keeps its title; a "?" button beside it
 * (button.term-tip[data-term-tip="ask_whole ask_half"]) explains it on a tap.
 *
 * The explanation is in players' words, and the pop-up adds a link to the section of the
 * rules page (/rules) that says more, in a new tab.
 *
 * Hooks for end-to-end tests:
 *   [data-term]        a word with its explanation (title; role="button" where it is its own)
 *   #term-pop          the explanation shown (data-shows: which terms), hidden when none;
 *                      a.term-rules its link to the rules (/rules#s4)
 */

import { t } from "/static/i18n.js";
import { byId, el } from "/static/common.js";

/** @import { View } from "/static/table-state.js" */

/** The deal-end lines (ends.js) that name a word: their mark and the word. */
const MARKED = [
  ['[data-porvoo="true"]', "porvoo"],
  ['[data-overshoot="true"]', "overshoot"],
];

/** The section of the rules page (rules.js) that says more of each word.
 * @type {Record<string, string>} */
const SECTION = {
  trumps: "s4",
  little_trump: "s4",
  locked: "s4",
  ask_whole: "s4",
  ask_half: "s4",
  porvoo: "s6",
  overshoot: "s6",
  deal_points: "s5",
};

/** The numbers a text names: the target and where an overshoot falls back to. */
let numbers = { target: 10, overshoot: 7 };

/** The explanation of `term` (one of the catalogue's term.*). @param {string} term */
export function termText(term) {
  return t(`term.${term}`, numbers);
}

/** A "?" button that explains the words `terms`, for a control that does something else.
 * @param {string[]} terms @param {string} name what the button explains, for its label */
export function termTip(terms, name) {
  return el(
    "button",
    {
      type: "button",
      class: "small term-tip",
      "data-term-tip": terms.join(" "),
      "aria-label": t("term.explain", { term: name }),
      "aria-controls": "term-pop",
      "aria-expanded": "false",
      title: terms.map(termText).join("\n\n"),
    },
    "?",
  );
}

/** Mark and title every word explained within `root` (after each drawing; idempotent).
 * @param {ParentNode} root @param {View} [view] */
export function explainTerms(root, view) {
  if (!listening) listen();
  const variant = view?.table?.variant;
  numbers = {
    target: Number(variant?.target ?? 10),
    overshoot: Number(variant?.overshoot_to ?? 7),
  };
  for (const [selector, term] of MARKED) {
    /** @type {NodeListOf<HTMLElement>} */
    const found = root.querySelectorAll(selector);
    for (const node of found) node.dataset.term = term;
  }
  /** @type {NodeListOf<HTMLElement>} */
  const words = root.querySelectorAll("[data-term]");
  for (const node of words) {
    node.title = termText(node.dataset.term ?? "");
    if (node.closest("button, a, select, input, label")) continue;
    node.setAttribute("role", "button");
    node.tabIndex = 0;
    node.setAttribute("aria-controls", "term-pop");
    node.setAttribute("aria-expanded", String(shownFor === node));
  }
}

/** @type {HTMLElement | null} the word or tip whose explanation is shown */
let shownFor = null;

function hide() {
  const pop = byId("term-pop");
  pop.hidden = true;
  pop.dataset.shows = "";
  shownFor?.setAttribute("aria-expanded", "false");
  shownFor = null;
}

/** Show the explanation of `source`'s words next to it. @param {HTMLElement} source */
function show(source) {
  const terms = (source.dataset.termTip ?? source.dataset.term ?? "").split(" ");
  const pop = byId("term-pop");
  // (The pop-up's own attribute is not data-term: it is no word to explain.)
  pop.replaceChildren(...terms.map((term) => el("p", {}, termText(term))));
  for (const section of new Set(terms.map((term) => SECTION[term]).filter(Boolean))) {
    const name = t(`rules.${section}`);
    pop.append(
      el(
        "a",
        { class: "term-rules", href: `/rules#${section}`, target: "_blank", rel: "noopener" },
        t("term.rules", { section: name }),
      ),
    );
  }
  pop.dataset.shows = terms.join(" ");
  pop.hidden = false;
  shownFor?.setAttribute("aria-expanded", "false");
  shownFor = source;
  source.setAttribute("aria-expanded", "true");
  // Below the word, or above it where the screen ends; never off the screen's sides.
  const r = source.getBoundingClientRect();
  const width = Math.min(pop.offsetWidth, window.innerWidth - 16);
  const left = Math.max(8, Math.min(r.left, window.innerWidth - width - 8));
  const below = r.bottom + 6 + pop.offsetHeight <= window.innerHeight;
  pop.style.left = `${left}px`;
  pop.style.top = below ? `${r.bottom + 6}px` : "";
  pop.style.bottom = below ? "" : `${window.innerHeight - r.top + 6}px`;
}

/** The word or tip an event is on, if any. @param {Event} event @returns {HTMLElement | null} */
function sourceOf(event) {
  const target = /** @type {Element} */ (event.target);
  const found = target.closest?.('.term-tip, [data-term][role="button"]');
  return found instanceof HTMLElement ? found : null;
}

let listening = false;

/** Listen for taps and keys on the page's words (once, at the first drawing). */
function listen() {
  listening = true;
  document.addEventListener("click", (event) => {
    const source = sourceOf(event);
    if (source && source !== shownFor) show(source);
    else if (shownFor) hide();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && shownFor) {
      const back = shownFor;
      hide();
      back.focus();
      return;
    }
    const source = sourceOf(event);
    if (!source || source.matches("button") || (event.key !== "Enter" && event.key !== " ")) return;
    event.preventDefault();
    if (source === shownFor) hide();
    else show(source);
  });
}
