// @ts-check
/**
 * Deal and match ends on the table page: the end-of-deal panel, the ready button and the
 * rematch. Every fact comes from the state (docs/WEB.md): a deal's columns in `deals[i]`
 * (tricks, card_points, game_points, marriages, last, victory, before, score, porvoo,
 * overshoot) and who is ready in `between`.
 *
 * Hooks for end-to-end tests:
 *   #deal-over                the panel: [data-deal="2"]; .deal-columns tr[data-team="NS"] with
 *                             td[data-col="tricks" | "card_points" | "game_points"];
 *                             p.made[data-team] how the game points were made; p.change[data-team]
 *                             the match score, data-porvoo / data-overshoot = "true" when so
 *   #ready-btn                "ready for the next deal" (data-ready="true" and aria-disabled=
 *                             "true" once said: it keeps the keyboard's focus)
 *   #next-deal                the seconds until the next deal; #ready-seats [data-ready="N"]
 *   #final-deal               in #result: the last deal explained as in the panel (a deal's
 *                             end and the match's are said once by #announcer: announceEnds)
 *   #rematch-btn, #rematch-seats [data-ready="N"]; a#rematch-link once the rematch is dealt
 */

import { t } from "/static/i18n.js";
import { announce } from "/static/alerts.js";
import { byId, el, seatName } from "/static/common.js";
import { suitGlyph } from "/static/cards.js";
import { seatLetter, teamName } from "/static/names.js";
import { MESSAGE } from "/static/protocol.js";
import { ended } from "/static/table-state.js";

/**
 * @import { Between, DealSummary, Seat, Send, Team } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 */

/** @type {Team[]} */
const TEAMS = ["NS", "EW"];
/** @type {Seat[]} */
const SEATS = ["N", "E", "S", "W"];
const SHOWN_MS = 5000; // a deal's end shown this long when the next deal came at once

/** @type {number | null} */
let countdown = null;
let shownUntil = 0;
/** @type {number | null} */
let shownTimer = null;
let said = ""; // the table and deal whose end was last said to screen readers

/** How a team's game points were made: "♥ trumps 2 + last trick 1 = 3".
 * @param {DealSummary} d @param {Team} team */
function madeOf(d, team) {
  const parts = [];
  for (const m of d.marriages ?? []) {
    if (m.team !== team) continue;
    const key = m.points === 2 ? "ends.made.trumps" : "ends.made.little";
    parts.push(t(key, { suit: suitGlyph(m.suit), points: m.points }));
  }
  if (d.last === team) parts.push(t("ends.made.last"));
  if (d.victory === team) parts.push(t("ends.made.victory", { card_points: d.card_points[team] }));
  const made = parts.length ? parts.join(" + ") : t("ends.made.nothing");
  return t("ends.made", { team: teamName(team), made, total: d.game_points[team] });
}

/** How a team's match score moved: with the overshoot and Porvoo spelled out.
 * @param {DealSummary} d @param {Team} team @param {number} target */
function scoreChange(d, team, target) {
  const args = {
    team: teamName(team),
    before: d.before?.[team] ?? 0,
    points: d.game_points[team],
    total: (d.before?.[team] ?? 0) + d.game_points[team],
    target,
    after: d.score[team],
  };
  if (d.porvoo?.[team]) return t("ends.change.porvoo", args);
  if (d.overshoot?.[team]) return t("ends.change.overshoot", args);
  return t("ends.change.plain", args);
}

/** Deal `number` (from 1) of `deals` explained: the three columns, the points, the score.
 * @param {DealSummary[]} deals @param {number} number @param {number} target the match's */
export function explainDeal(deals, number, target) {
  const d = deals[number - 1];
  const rows = TEAMS.map((team) =>
    el(
      "tr",
      { dataset: { team } },
      el("th", {}, teamName(team)),
      el("td", { "data-col": "tricks" }, String(d.tricks[team])),
      el("td", { "data-col": "card_points" }, String(d.card_points[team])),
      el("td", { "data-col": "game_points" }, String(d.game_points[team])),
    ),
  );
  const head = el(
    "tr",
    {},
    el("th", {}, ""),
    el("th", {}, t("table.col.tricks")),
    el("th", {}, t("table.col.card_points")),
    el("th", {}, t("table.col.game_points")),
  );
  return el(
    "div",
    { class: "deal-explained", dataset: { deal: String(number) } },
    el("h3", {}, t("deal_over.title", { n: number })),
    el("table", { class: "columns deal-columns" }, el("thead", {}, head), el("tbody", {}, rows)),
    TEAMS.map((team) => el("p", { class: "made", dataset: { team } }, madeOf(d, team))),
    TEAMS.map((team) =>
      el(
        "p",
        {
          class: "change",
          dataset: {
            team,
            porvoo: String(Boolean(d.porvoo?.[team])),
            overshoot: String(Boolean(d.overshoot?.[team])),
          },
        },
        scoreChange(d, team, target),
      ),
    ),
  );
}

/** @param {View} view @param {Between} between @param {string} id */
function readySeats(view, between, id) {
  return el(
    "p",
    { id, class: "ready-seats" },
    t("ends.ready"),
    " ",
    SEATS.filter((s) => between.ready.includes(s)).map((s) =>
      el(
        "span",
        { class: "ready-seat", dataset: { ready: s } },
        `${seatLetter(s)} ${seatName((view.table?.seats ?? []).find((r) => r.seat === s))} ✓ `,
      ),
    ),
  );
}

/** @param {number} at */
function seconds(at) {
  return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Note that a deal just ended (the next one may have been dealt at once): show it a while. */
export function dealEnded() {
  shownUntil = Date.now() + SHOWN_MS;
}

/** Note that the next deal came after the table waited, the end shown all the while: the
 * next deal replaces it at once. */
export function nextDealAfterWait() {
  shownUntil = 0;
}

/**
 * Draw the end-of-deal panel and the rematch controls for `view` (the live state's, or a
 * replay's: then nothing is shown). `send(message)` sends to the server; `redraw()` draws
 * the page again.
 * @param {View} view @param {Send} send @param {() => void} redraw
 */
export function renderEnds(view, send, redraw) {
  const box = byId("deal-over");
  const between = view.replay ? null : view.between;
  const target = view.table?.variant?.target ?? 10;
  const deals = view.deals ?? [];
  const over = view.obs?.phase === "over";
  const lastDeal = over ? view.deal : (view.deal ?? 1) - 1;
  clearInterval(countdown ?? undefined);
  clearTimeout(shownTimer ?? undefined);
  const showing = !view.replay && lastDeal >= 1 && deals[lastDeal - 1]?.porvoo;
  const waiting = between?.for === "deal";
  if (showing && (waiting || Date.now() < shownUntil) && !ended(view)) {
    box.replaceChildren(explainDeal(deals, lastDeal, target));
    if (waiting) {
      const mine = view.you && between.ready.includes(view.you);
      const next = el("p", { id: "next-deal", class: "next-deal" }, "");
      const tick = () => {
        next.textContent = t("ends.next_in", { s: seconds(between.at ?? Date.now()) });
      };
      tick();
      countdown = setInterval(tick, 1000);
      // The countdown and Ready share the panel's foot, which a phone on its side holds in
      // sight while the rest of the panel scrolls under it.
      const foot = el("div", { class: "deal-over-foot" }, next);
      box.append(readySeats(view, between, "ready-seats"), foot);
      if (view.you) {
        foot.append(
          el(
            "button",
            {
              type: "button",
              id: "ready-btn",
              class: "primary",
              // Said once: aria-disabled, not disabled, keeps the keyboard's focus on it.
              "aria-disabled": String(Boolean(mine)),
              dataset: { ready: String(Boolean(mine)) },
              onclick: () => mine || send({ type: MESSAGE.READY }),
            },
            t(mine ? "ends.ready_said" : "ends.ready_button"),
          ),
        );
      }
    } else {
      shownTimer = setTimeout(redraw, Math.max(0, shownUntil - Date.now()) + 50);
    }
    box.hidden = false;
  } else {
    box.hidden = true;
  }
  renderRematch(view, between ?? null, deals, target, send);
}

/** @param {View} view @param {Between | null} between @param {DealSummary[]} deals
 * @param {number} target @param {Send} send */
function renderRematch(view, between, deals, target, send) {
  const final = byId("final-deal");
  const controls = byId("rematch");
  const finished = view.table?.status === "finished" && !view.replay;
  final.replaceChildren(finished && deals.length ? explainDeal(deals, deals.length, target) : "");
  controls.replaceChildren();
  if (finished && view.table.rematch) {
    // Only a page that stays on its finished match sees this: the others went on (table-control.js).
    const href = `/t/${encodeURIComponent(view.table.rematch)}`;
    controls.append(el("a", { class: "button", id: "rematch-link", href }, t("ends.rematch_link")));
    return;
  }
  if (!finished || between?.for !== "rematch") return;
  const mine = view.you && between.ready.includes(view.you);
  if (view.you) {
    controls.append(
      el(
        "button",
        {
          type: "button",
          id: "rematch-btn",
          class: "primary",
          "aria-disabled": String(Boolean(mine)),
          dataset: { ready: String(Boolean(mine)) },
          onclick: () => mine || send({ type: MESSAGE.READY }),
        },
        t(mine ? "ends.rematch_asked" : "ends.rematch"),
      ),
    );
  }
  controls.append(readySeats(view, between, "rematch-seats"));
}

/** The words of a deal explained (explainDeal): its title, how the points were made, the
 * score; each suit by its name in the page's language (a reader says a glyph in its own).
 * @param {Element | null} node */
function explainedText(node) {
  const parts = node ? [...node.querySelectorAll("h3, p.made, p.change")] : [];
  let text = parts.map((p) => p.textContent.trim()).join(". ");
  for (const suit of ["S", "H", "D", "C"])
    text = text.replaceAll(suitGlyph(suit), t(`suit.${suit}`));
  return text;
}

/**
 * Say a deal's end, or the match's, to screen readers once, as the page shows it (call after
 * the plays and the turn are said, so that it comes after them).
 * @param {View} view
 */
export function announceEnds(view) {
  if (view.replay || !view.table) return;
  const finished = view.table.status === "finished";
  const box = byId(finished ? "result" : "deal-over");
  /** @type {HTMLElement | null} */
  const explained = box.querySelector(".deal-explained");
  if (box.hidden || !explained) return;
  const key = `${view.table.id}:${finished ? "match" : explained.dataset.deal}`;
  if (key === said) return;
  said = key;
  const result = finished ? byId("result-text").textContent : "";
  announce([explainedText(explained), result].filter(Boolean).join(". "));
}
