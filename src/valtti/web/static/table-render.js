// @ts-check
/**
 * Drawing the table page: everything afresh from the view shown (table-state.js), each part by
 * its module, then the cards' motion, the keyboard's focus and what screen readers hear.
 */

/** @import { Seat } from "/static/protocol.js" */

import { t } from "/static/i18n.js";
import { alertView } from "/static/alerts.js";
import { keepFocus } from "/static/keyboard.js";
import { animate, snapshot } from "/static/motion.js";
import { cardName, labelCards, tableName } from "/static/names.js";
import { renderAbsence } from "/static/absence.js";
import { announceEnds, renderEnds } from "/static/ends.js";
import { renderChat } from "/static/chat.js";
import { explainTerms } from "/static/terms.js";
import { renderHint } from "/static/hint.js";
import { currentView, page, shownReplay, timedOutMoves, trickPlays } from "/static/table-state.js";
import { timedOutText, who } from "/static/table-words.js";
import { renderConnection, sendOrSay } from "/static/table-socket.js";
import { renderReplayBar } from "/static/table-replay.js";
import { renderReview } from "/static/table-review.js";
import { renderSeats, renderTrick, renderTurn } from "/static/table-felt.js";
import { renderActions, renderHand } from "/static/table-hand.js";
import {
  renderInfo,
  renderLog,
  renderResult,
  renderScore,
  renderSheet,
  renderWaiting,
} from "/static/table-panels.js";
import { byId } from "/static/common.js";

/** Draw the page from the view it shows now (nothing but the banner before the first state). */
export function render() {
  renderConnection();
  const view = currentView();
  if (!view) return;
  const shot = snapshot();
  const status = view.table?.status ?? "";
  document.body.dataset.status = status;
  document.body.dataset.you = view.you ?? "";
  document.body.dataset.phase = view.obs?.phase ?? "";
  document.body.dataset.seq = String(view.seq ?? "");
  document.body.dataset.replay = String(view.replay);
  // The table by its readable name (as the lobby lists it); its id in the tooltip.
  const label = byId("table-label");
  const name = view.table ? tableName(view.table) : t("lobby.table.id", { id: page.id });
  label.textContent = view.you
    ? t("table.label.seated", { name, seat: t(`seat.${view.you}`) })
    : t("table.label.watching", { name });
  label.title = t("lobby.table.id", { id: page.id });
  renderWaiting(view);
  renderResult(view);
  renderSeats(view);
  renderTrick(view);
  renderTurn(view);
  renderActions(view);
  renderHand(view);
  renderHint(view);
  renderInfo(view);
  renderScore(view);
  renderSheet(view);
  renderLog(view);
  renderReplayBar(view);
  renderReview(view);
  renderAbsence(view);
  renderEnds(view, sendOrSay, render);
  renderChat(view);
  labelCards(document.body);
  explainTerms(document.body, view);
  animate(shot, { replay: view.replay, step: view.replay ? shownReplay().index : null });
  keepFocus();
  const turnLine = byId("turn").textContent;
  const stood = new Map(timedOutMoves(view).map((m) => [m.token, m]));
  /** A play in words; one a computer player made for a person out of time says so.
   * @param {{seat: Seat, card: string}} play */
  const playWords = (play) => {
    const made = stood.get(play.card);
    if (made) return timedOutText(view, made, cardName);
    return t("log.plays", { seat: who(view, play.seat), card: cardName(play.card) });
  };
  alertView(view, playWords, trickPlays, turnLine);
  announceEnds(view);
}
