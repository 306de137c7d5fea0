// @ts-check
/**
 * The replay of a finished match (GET /api/tables/{id}/replay): its steps, the place shown
 * (`page.replay`, table-state.js), playing it on a timer, and its bar (#replay-bar, the hooks
 * table.js lists; its Review button opens the review beside it, table-review.js).
 */

import { t } from "/static/i18n.js";
import { api, byId, el, toastFailure } from "/static/common.js";
import { explainDeal } from "/static/ends.js";
import { page, render, replayView, shownReplay } from "/static/table-state.js";
import { actionText, resultText, who } from "/static/table-words.js";

/**
 * @import { ReplayStep } from "/static/protocol.js"
 * @import { Replay, View } from "/static/table-state.js"
 */

const REPLAY_MS = 700;

/** Fetch the finished match's steps and show the first. */
export async function startReplay() {
  try {
    /** @type {{steps: ReplayStep[]}} */
    const data = await api("GET", `/api/tables/${encodeURIComponent(page.id)}/replay`);
    if (!data.steps?.length) return;
    page.replay = { steps: data.steps, index: 0, timer: null };
    render();
  } catch (err) {
    toastFailure(err);
  }
}

/** Show step `index` (kept within the steps). @param {number} index */
export function replayGo(index) {
  const replay = page.replay;
  if (!replay) return;
  replay.index = Math.max(0, Math.min(replay.steps.length - 1, index));
  if (replay.index === replay.steps.length - 1) stopReplayTimer();
  render();
}

/** Move `by` steps. @param {number} by */
export function replayStep(by) {
  replayGo(shownReplay().index + by);
}

/** Go to the start of the deal `by` deals from the one shown. @param {number} by */
export function replayDeal(by) {
  replayGo(replayDealStart(replayView().deal + by));
}

/** The step where deal `deal` (from 1) begins; past the last deal, the last step.
 * @param {number} deal */
export function replayDealStart(deal) {
  const steps = shownReplay().steps;
  const found = steps.findIndex((step) => step.deal === deal);
  return found < 0 ? steps.length - 1 : found;
}

/** Stop playing the steps on the timer (the place shown stays). */
export function stopReplayTimer() {
  clearInterval(page.replay?.timer ?? undefined);
  if (page.replay) page.replay.timer = null;
}

/** Play the steps one after another, or pause. */
export function toggleReplayPlay() {
  const replay = page.replay;
  if (!replay) return;
  if (replay.timer) stopReplayTimer();
  else {
    if (replay.index === replay.steps.length - 1) replay.index = 0;
    replay.timer = setInterval(() => replayGo(replay.index + 1), REPLAY_MS);
  }
  render();
}

/** Leave the replay for the live table. */
export function exitReplay() {
  stopReplayTimer();
  page.replay = null;
  render();
}

/** The replay's bar: where it is, its buttons, the step's action and a deal's end.
 * @param {View} view */
export function renderReplayBar(view) {
  const bar = byId("replay-bar");
  bar.hidden = !view.replay;
  if (!view.replay) return;
  const replay = shownReplay();
  byId("replay-step").textContent = t("replay.step", {
    n: replay.index + 1,
    total: replay.steps.length,
  });
  byId("replay-play").textContent = t(replay.timer ? "replay.pause" : "replay.play");
  const last = replay.steps.length - 1;
  const deal = view.deal ?? 1;
  const focused = document.activeElement;
  /** @type {[string, boolean][]} */
  const still = [
    ["replay-first", replay.index === 0],
    ["replay-prev", replay.index === 0],
    ["replay-prev-deal", deal <= 1],
    ["replay-next", replay.index === last],
    ["replay-next-deal", replay.index === last],
  ];
  for (const [id, disabled] of still) {
    byId(id, HTMLButtonElement).disabled = disabled;
  }
  // A focused button that is disabled drops the focus to the page: hand it to the way back
  // (at the last step) or on (at the first).
  if (focused instanceof HTMLButtonElement && focused.disabled && focused.closest("#replay-bar")) {
    byId(replay.index === last ? "replay-prev" : "replay-next").focus();
  }
  const end = byId("replay-end");
  const over = view.obs?.phase === "over" && view.deals.length >= deal;
  end.hidden = !over;
  end.replaceChildren();
  if (over) {
    // The region, a tab stop that may scroll (a phone on its side), is named as its heading.
    end.setAttribute("aria-label", t("deal_over.title", { n: deal }));
    end.append(explainDeal(view.deals, deal, view.table?.variant?.target ?? 10));
    if (replay.index === last && view.table?.status === "finished") {
      end.append(el("p", { id: "replay-result", class: "result-text" }, resultText(view)));
    }
  }
  const action = byId("replay-action");
  action.replaceChildren();
  if (view.action) action.append(actionText(view, view.action, view.actor));
  else
    action.append(
      t("log.deal", {
        n: view.deal,
        dealer: who(view, view.obs?.dealer),
        forehand: who(view, view.obs?.forehand),
      }),
    );
}
