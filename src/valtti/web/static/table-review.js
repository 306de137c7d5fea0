// @ts-check
/**
 * The review of a finished match beside its replay (GET /api/tables/{id}/review,
 * docs/REVIEW.md; the server makes it as the match ends, so it is usually ready). #review-open
 * in the replay's bar shows it in the side column: beside the board on a wide screen, under it
 * on a phone. For each deal: what each team reviewed lost, the deal's match equity as a graph
 * (review-graph.js: North–South above the middle, East–West below, each decision a point, the
 * costly ones marked ?!, ? or ??, explained in #review-legend), and the marked decisions and the
 * costliest in order of play, each with the better move (the costliest with its reason, said
 * from its code as the hint says it) and what it was worth with every hand open. Choosing a
 * decision, in the list or on the graph (a click, a tap, Enter or Space), sets the replay's
 * board to the position before it, marks the move played and the better one on the cards and
 * says them over the hand (#review-moment: a declaration, a question or an answer is said
 * there only), and to a screen reader; on a phone the board is scrolled into sight, and #review-back leads back to the
 * list. Every word is in the page's language, drawn again when it changes.
 *
 * Hooks for end-to-end tests:
 *   #review-open        aria-expanded="true" while #review is shown; data-busy="true" while the
 *                       review is on its way
 *   #review             the panel (hidden outside the replay); body[data-review-open="true"]
 *   #review-legend      what the line is, and the marks' thresholds (the server's `marks`)
 *   .review-deal[data-deal]  a deal: .review-lost, figure.equity-graph (review-graph.js's
 *                       hooks), ul.review-list
 *   li.review-decision[data-deal][data-step]  a decision listed, data-mark="?!" | "?" | "??"
 *                       where it is marked; li.review-costly among a deal's costliest (with the
 *                       better move's reason); its button .review-go (aria-current="true" on the
 *                       one chosen)
 *   #review-moment      over the hand while the board is at the decision chosen: its mark, the
 *                       move played and the better one; #review-back (on a narrow screen)
 *   [data-review]       "better" on the better move's card (your hand's, or the seat's open
 *                       hand on the felt), "played" on the card played
 *   #review-match       the match's line
 */

import { api, byId, el, toastFailure } from "/static/common.js";
import { announce } from "/static/alerts.js";
import { reasonWords } from "/static/hint.js";
import { currentLang, t, tn } from "/static/i18n.js";
import { seatLetter, seatTitle, teamName } from "/static/names.js";
import { equityGraph, showPlace } from "/static/review-graph.js";
import { page, render, seatEntry, shownReplay, TEAM_OF } from "/static/table-state.js";
import { replayDealStart, replayGo, stopReplayTimer } from "/static/table-replay.js";
import { moveLabel, moveText } from "/static/table-words.js";

/**
 * @import { HintReason, Seat, Team } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 * @typedef {{deal: number, step: number, trick: number, seat: Seat, played: string,
 *   best: string, loss: number, deals: number, every_deal?: boolean, even?: boolean,
 *   equity?: number, mark?: string | null, exact_best: string | null,
 *   exact_loss: number | null, reason?: HintReason}} ReviewDecision
 * @typedef {{deal: number, equity?: number, decisions: ReviewDecision[],
 *   costliest: ReviewDecision[], lost: Record<string, number>,
 *   exact_lost: Record<string, number>, unsolved: number}} ReviewDeal
 * @typedef {{seats: Seat[], deals: ReviewDeal[], lost: Record<string, number>,
 *   exact_lost: Record<string, number>, unsolved: number,
 *   marks?: {mark: string, loss: number}[]}} MatchReviewData
 */

/** Each mark's word (catalogue review.mark.*). @type {Record<string, string>} */
const MARK_WORDS = { "?!": "inaccuracy", "?": "mistake", "??": "blunder" };

const review = {
  /** @type {MatchReviewData | null} the review, once it came */
  data: null,
  open: false,
  busy: false,
  /** @type {{deal: number, step: number} | null} the decision chosen */
  chosen: null,
  /** the language the panel was drawn in ("": not drawn) */
  drawnIn: "",
};

/** The review, asked for only once it came. @returns {MatchReviewData} */
function reviewData() {
  if (review.data === null) throw new Error("the review has not come");
  return review.data;
}

/** Wire #review-open (table.js, once). */
export function initReview() {
  byId("review-open").addEventListener("click", () => void toggle());
}

async function toggle() {
  if (review.busy) return;
  if (review.open) {
    review.open = false;
    render();
    return;
  }
  if (!review.data) {
    review.busy = true;
    drawButton();
    try {
      review.data = await api("GET", `/api/tables/${encodeURIComponent(page.id)}/review`);
    } catch (err) {
      toastFailure(err);
      return;
    } finally {
      review.busy = false;
      drawButton();
    }
  }
  review.open = true;
  render();
  const panel = byId("review");
  panel.focus({ preventScroll: true });
  // Under the board (one column): brought into sight from its heading.
  if (narrow()) panel.scrollIntoView({ block: "start" });
}

function drawButton() {
  const button = byId("review-open");
  button.dataset.busy = String(review.busy);
  button.setAttribute("aria-busy", String(review.busy));
  button.setAttribute("aria-expanded", String(review.open && !!page.replay));
  button.textContent = t(
    review.busy ? "review.busy" : review.open ? "review.close" : "review.open",
  );
}

/** Whether the review is under the board (one column), not beside it. */
function narrow() {
  return matchMedia("(max-width: 900px)").matches;
}

/** Two decimals, as the page's language writes them. @param {number} value */
function amount(value) {
  const format = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  return new Intl.NumberFormat(currentLang(), format).format(value);
}

/** NS's match equity, signed, as the page's language writes it. @param {number} value */
function signed(value) {
  const format = { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" };
  return new Intl.NumberFormat(currentLang(), /** @type {Intl.NumberFormatOptions} */ (format))
    .format(value)
    .replace("-", "−");
}

/** The teams whose decisions were reviewed, NS first. @returns {Team[]} */
function reviewedTeams() {
  const teams = new Set((review.data?.seats ?? []).map((seat) => TEAM_OF[seat]));
  return /** @type {Team[]} */ (["NS", "EW"]).filter((team) => teams.has(team));
}

/** What each team reviewed lost (no word of a team not reviewed), and how many decisions the
 * open-hand sums leave out. @param {ReviewDeal | MatchReviewData} part */
function lostText(part) {
  const teams = reviewedTeams();
  const sums = (/** @type {Record<string, number>} */ lost) =>
    teams.map((team) => t("review.team_lost", { team: teamName(team), lost: amount(lost[team]) }));
  const lost = t("review.lost", {
    known: sums(part.lost).join(", "),
    open: sums(part.exact_lost).join(", "),
  });
  const unsolved = part.unsolved
    ? ` ${t(`review.unsolved_${part.unsolved === 1 ? "one" : "other"}`, { n: part.unsolved })}`
    : "";
  return lost + unsolved;
}

/** A mark as players see it, its word for a screen reader. @param {string} mark */
function markBadge(mark) {
  return el(
    "span",
    { class: "review-mark", dataset: { mark } },
    el("span", { "aria-hidden": "true" }, mark),
    el("span", { class: "visually-hidden" }, `${t(`review.mark.${MARK_WORDS[mark]}`)}:`),
  );
}

/** What the decision was worth with every hand open: not solved, as good as any (a loss that
 * shows as 0.00), or the best move and by how much. @param {ReviewDecision} d */
function openHanded(d) {
  if (d.exact_best === null || d.exact_loss === null) return t("review.open_unsolved");
  if (amount(d.exact_loss) === amount(0))
    return tn("review.open_as_good", { played: moveLabel(d.played) });
  return tn("review.open_best", { best: moveLabel(d.exact_best), loss: amount(d.exact_loss) });
}

/** The decision in words: the better move by how much on what its seat knew, and why where the
 * review says (a deal's costliest). @param {ReviewDecision} d */
function decisionWords(d) {
  const params = {
    trick: d.trick,
    seat: seatLetter(d.seat),
    played: moveLabel(d.played),
    best: moveLabel(d.best),
    loss: amount(d.loss),
    deals: d.deals,
    reason: d.reason ? reasonWords(d.reason, d.even ?? true) : "",
  };
  const key = d.reason ? "review.costly" : "review.marked";
  return tn(d.every_deal ? `${key}_every_deal` : key, params);
}

/** A decision listed: a button that sets the board there. @param {ReviewDecision} d
 * @param {boolean} costly among the deal's costliest */
function listed(d, costly) {
  const mark = d.mark ?? null;
  return el(
    "li",
    {
      class: `review-decision${costly ? " review-costly" : ""}`,
      dataset: { deal: String(d.deal), step: String(d.step), ...(mark ? { mark } : {}) },
    },
    el(
      "button",
      {
        type: "button",
        class: "review-go",
        onclick: () => choose(d.deal, d.step),
      },
      mark ? markBadge(mark) : null,
      decisionWords(d),
    ),
    " ",
    el("span", { class: "review-open-hand" }, openHanded(d)),
  );
}

/** The deal's decisions listed: every marked one and the costliest, in order of play.
 * @param {ReviewDeal} deal */
function listedDecisions(deal) {
  const costliest = new Map(deal.costliest.map((d) => [d.step, d]));
  return deal.decisions
    .filter((d) => d.mark || costliest.has(d.step))
    .map((d) => listed(costliest.get(d.step) ?? d, costliest.has(d.step)));
}

/** The actions of deal `deal` in the replay. @param {number} deal */
function dealActions(deal) {
  return (page.replay?.steps ?? []).filter((step) => step.deal === deal).length - 1;
}

/** NS's match equity as deal `deal` ended: as the next began, or by the match's result.
 * @param {ReviewDeal} deal */
function endEquity(deal) {
  const next = reviewData().deals.find((d) => d.deal === deal.deal + 1);
  if (next) return next.equity ?? null;
  const winner = page.state?.table?.winner;
  return winner === "NS" ? 1 : winner === "EW" ? -1 : winner === "draw" ? 0 : null;
}

/** Each side's label: its team and who sat there. @param {Team} team */
function sideLabel(team) {
  const names = /** @type {Seat[]} */ (["N", "E", "S", "W"])
    .filter((seat) => TEAM_OF[seat] === team)
    .map((seat) => {
      const entry = seatEntry(page.state?.table, seat);
      return entry?.kind === "human" ? String(entry.name) : seatTitle(seat);
    });
  return t("review.side", { team: teamName(team), names: names.join(" & ") });
}

/** A graph point's words (its accessible name and tooltip). @param {ReviewDecision} d */
function pointWords(d) {
  const params = {
    trick: d.trick,
    seat: seatLetter(d.seat),
    played: moveText(d.played),
    equity: signed(d.equity ?? 0),
    mark: d.mark ? t(`review.mark.${MARK_WORDS[d.mark]}`) : "",
  };
  return t(d.mark ? "review.point_marked" : "review.point", params);
}

/** The deal's graph, where the review carries each decision's equity (a review kept from
 * before it did has none to draw). @param {ReviewDeal} deal */
function graph(deal) {
  if (deal.equity == null || deal.decisions.some((d) => d.equity == null)) return null;
  return equityGraph(
    {
      deal: deal.deal,
      actions: dealActions(deal.deal),
      start: deal.equity,
      end: endEquity(deal),
      points: deal.decisions.map((d) => ({
        step: d.step,
        equity: d.equity ?? 0,
        mark: d.mark ?? null,
        words: pointWords(d),
      })),
      labels: { NS: sideLabel("NS"), EW: sideLabel("EW") },
      name: t("review.graph", { n: deal.deal }),
    },
    (step) => choose(deal.deal, step),
  );
}

/** What the graph and the marks mean. */
function legend() {
  const marks = reviewData().marks ?? [];
  return el(
    "div",
    { id: "review-legend", class: "review-legend" },
    el("p", {}, t("review.legend")),
    marks.length
      ? el(
          "ul",
          { class: "review-marks" },
          ...marks.map(({ mark, loss }) =>
            el(
              "li",
              {},
              el("span", { class: "review-mark", dataset: { mark }, "aria-hidden": "true" }, mark),
              " ",
              t("review.legend_mark", {
                word: t(`review.mark.${MARK_WORDS[mark]}`),
                loss: amount(loss),
              }),
            ),
          ),
        )
      : null,
  );
}

/** The panel's content, in the page's language. */
function drawPanel() {
  const data = reviewData();
  const panel = byId("review");
  panel.replaceChildren(
    el("h2", {}, t("review.title")),
    legend(),
    ...data.deals.map((deal) =>
      el(
        "section",
        {
          class: "review-deal",
          dataset: { deal: String(deal.deal) },
          "aria-labelledby": `review-deal-${deal.deal}`,
        },
        el("h3", { id: `review-deal-${deal.deal}` }, t("review.deal", { n: deal.deal })),
        el("p", { class: "review-lost" }, lostText(deal)),
        graph(deal),
        (() => {
          const items = listedDecisions(deal);
          return items.length
            ? el("ul", { class: "review-list" }, ...items)
            : el("p", {}, t("review.none"));
        })(),
      ),
    ),
    el("p", { id: "review-match" }, t("review.match"), " ", lostText(data)),
  );
  review.drawnIn = currentLang();
}

/** The decision chosen, where the review has it. */
function chosenDecision() {
  const chosen = review.chosen;
  const deal = chosen && review.data?.deals.find((d) => d.deal === chosen.deal);
  if (!deal) return null;
  return (
    deal.costliest.find((d) => d.step === chosen.step) ??
    deal.decisions.find((d) => d.step === chosen.step) ??
    null
  );
}

/** Set the replay's board before decision `step` of deal `deal`, and show it.
 * @param {number} deal @param {number} step */
function choose(deal, step) {
  if (!page.replay) return;
  review.chosen = { deal, step };
  stopReplayTimer();
  replayGo(replayDealStart(deal) + step - 1);
  const d = chosenDecision();
  if (d) {
    announce(
      t("review.moment_said", {
        n: deal,
        trick: d.trick,
        seat: seatLetter(d.seat),
        played: moveText(d.played),
        best: moveText(d.best),
      }),
    );
  }
  // One column: the board is above the list; bring it into sight.
  if (narrow()) document.querySelector(".play-column")?.scrollIntoView({ block: "start" });
}

/** Whether the board shows the position before the decision chosen. */
function atChosen() {
  const chosen = review.chosen;
  if (!chosen || !page.replay) return false;
  return page.replay.index === replayDealStart(chosen.deal) + chosen.step - 1;
}

/** On the board at the decision chosen: the move played and the better one marked on the
 * cards (the bottom seat's hand, or the mover's open hand on the felt), and said over the hand.
 * @param {View} view */
function drawMoment(view) {
  const box = byId("review-moment");
  for (const node of document.querySelectorAll("[data-review]")) {
    node.removeAttribute("data-review");
  }
  const d = view.replay && review.open && atChosen() ? chosenDecision() : null;
  box.hidden = !d;
  if (!d) {
    box.replaceChildren();
    return;
  }
  const cards = (/** @type {string} */ token) =>
    document.querySelectorAll(
      `#hand [data-card="${CSS.escape(token)}"], .felt .seat[data-seat="${d.seat}"] .mini-hand [data-token="${CSS.escape(token)}"]`,
    );
  if (d.best !== d.played)
    for (const node of cards(d.played)) node.setAttribute("data-review", "played");
  for (const node of cards(d.best)) node.setAttribute("data-review", "better");
  box.replaceChildren(
    d.mark ? markBadge(d.mark) : "",
    el(
      "span",
      {},
      tn("review.moment", {
        seat: seatLetter(d.seat),
        played: moveLabel(d.played),
        best: moveLabel(d.best),
        loss: amount(d.loss),
      }),
    ),
    el(
      "button",
      {
        type: "button",
        id: "review-back",
        class: "small",
        onclick: () => {
          const item = document.querySelector(
            `li.review-decision[data-deal="${d.deal}"][data-step="${d.step}"] .review-go`,
          );
          if (item instanceof HTMLElement) item.focus();
          else byId("review").focus();
        },
      },
      t("review.back"),
    ),
  );
}

/** Draw the review for `view` (after the board): shown beside or under the replay's board
 * while it is open, where the board is on each deal's graph, the decision chosen, and the
 * moment on the board. @param {View} view */
export function renderReview(view) {
  const panel = byId("review");
  const shown = view.replay && review.open && !!review.data;
  panel.hidden = !shown;
  document.body.dataset.reviewOpen = String(shown);
  drawButton();
  if (!view.replay) review.chosen = null;
  if (shown && review.drawnIn !== currentLang()) drawPanel();
  if (shown) {
    const place = shownReplay().index - replayDealStart(view.deal);
    for (const figure of panel.querySelectorAll("figure.equity-graph")) {
      const deal = Number(/** @type {HTMLElement} */ (figure).dataset.deal);
      const chosen = review.chosen?.deal === deal ? review.chosen.step : null;
      showPlace(
        /** @type {HTMLElement} */ (figure),
        dealActions(deal),
        deal === view.deal ? place : null,
        chosen,
      );
    }
    for (const button of panel.querySelectorAll(".review-go")) {
      const item = /** @type {HTMLElement} */ (button.closest("li"));
      const isChosen =
        review.chosen?.deal === Number(item.dataset.deal) &&
        review.chosen?.step === Number(item.dataset.step);
      if (isChosen) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
  }
  drawMoment(view);
}
