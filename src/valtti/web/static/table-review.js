// @ts-check
/**
 * The review of a finished match beside its replay (GET /api/tables/{id}/review,
 * docs/REVIEW.md): #review-open in the replay's bar asks for it (the server makes it once, in a
 * computer players' worker); #review shows, for each deal, what each team lost on what its
 * seats knew and with every hand open, and the costliest decisions (li.review-costly with
 * data-deal and data-step), each with the better move and its reason: every word in the page's
 * language (the reasons from their codes and arguments, as the hint says them), drawn again
 * when the language changes.
 */

import { api, el, errorText, toast } from "/static/common.js";
import { reasonWords } from "/static/hint.js";
import { currentLang, onLangChange, t, tn, tp } from "/static/i18n.js";
import { seatLetter } from "/static/names.js";
import { page } from "/static/table-state.js";
import { moveLabel } from "/static/table-words.js";

/**
 * @import { HintReason } from "/static/protocol.js"
 * @typedef {{deal: number, step: number, trick: number, seat: string, played: string,
 *   best: string, loss: number, deals: number, every_deal?: boolean, even?: boolean,
 *   exact_best: string | null, exact_loss: number | null, reason?: HintReason}} ReviewDecision
 * @typedef {{deal: number, costliest: ReviewDecision[], lost: Record<string, number>,
 *   exact_lost: Record<string, number>, unsolved: number}} ReviewDeal
 * @typedef {{seats: string[], deals: ReviewDeal[], lost: Record<string, number>,
 *   exact_lost: Record<string, number>, unsolved: number}} MatchReviewData
 */

/** Put the review's button in the replay's bar (once). */
export function addReviewButton() {
  const bar = document.getElementById("replay-bar");
  if (!bar || document.getElementById("review-open")) return;
  const button = el("button", { type: "button", id: "review-open", class: "small" });
  button.textContent = t("review.open");
  button.addEventListener("click", () => void showReview(button));
  bar.append(button);
  onLangChange(() => {
    button.textContent = t(button.disabled ? "review.busy" : "review.open");
    if (shown) drawReview(shown, false);
  });
}

/** The review shown, drawn again in another language. @type {MatchReviewData | null} */
let shown = null;

/** Ask for the review and show it. @param {HTMLButtonElement} button */
async function showReview(button) {
  button.disabled = true;
  button.textContent = t("review.busy");
  try {
    /** @type {MatchReviewData} */
    const data = await api("GET", `/api/tables/${encodeURIComponent(page.id)}/review`);
    drawReview(data);
  } catch (err) {
    toast(errorText(err.code), "error", err.code);
  } finally {
    button.disabled = false;
    button.textContent = t("review.open");
  }
}

/** Two decimals, as the page's language writes them. @param {number} value */
function amount(value) {
  const format = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  return new Intl.NumberFormat(currentLang(), format).format(value);
}

/** What each team lost, and how many decisions the open-hand sums leave out (not solved
 * within the review's budget). @param {ReviewDeal | MatchReviewData} part */
function lostText(part) {
  const lost = t("review.lost", {
    ns: amount(part.lost.NS),
    ew: amount(part.lost.EW),
    open_ns: amount(part.exact_lost.NS),
    open_ew: amount(part.exact_lost.EW),
  });
  return part.unsolved ? `${lost} ${tp("review.unsolved", part.unsolved)}` : lost;
}

/** One costly decision. @param {ReviewDecision} d */
function costly(d) {
  return el(
    "li",
    { class: "review-costly", dataset: { deal: String(d.deal), step: String(d.step) } },
    tn(d.every_deal ? "review.costly_every_deal" : "review.costly", {
      trick: d.trick,
      seat: seatLetter(d.seat),
      played: moveLabel(d.played),
      best: moveLabel(d.best),
      loss: amount(d.loss),
      deals: d.deals,
      reason: d.reason ? reasonWords(d.reason, d.even ?? true) : "",
    }),
    " ",
    openHanded(d),
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

/** The review's panel, after the replay's bar, given the focus unless only drawn again.
 * @param {MatchReviewData} data @param {boolean} [focus] */
function drawReview(data, focus = true) {
  shown = data;
  let panel = document.getElementById("review");
  if (!panel) {
    panel = el("section", { id: "review", class: "panel review", role: "region", tabindex: "0" });
    document.getElementById("replay-bar")?.after(panel);
  }
  panel.setAttribute("aria-label", t("review.title"));
  panel.replaceChildren(
    el("h2", {}, t("review.title")),
    ...data.deals.map((deal) =>
      el(
        "div",
        { class: "review-deal", dataset: { deal: String(deal.deal) } },
        el("h3", {}, t("review.deal", { n: deal.deal })),
        el("p", {}, lostText(deal)),
        deal.costliest.length
          ? el("ol", {}, ...deal.costliest.map(costly))
          : el("p", {}, t("review.none")),
      ),
    ),
    el("p", { id: "review-match" }, t("review.match"), " ", lostText(data)),
  );
  if (focus) panel.focus();
}
