// @ts-check
/**
 * The panels beside the felt: waiting for players (the share link, taking a seat), the
 * finished match's result, the deal's facts (trumps, locks, events, the last trick), the
 * score, the score sheet and the deal's log.
 */

import { t, tn } from "/static/i18n.js";
import { byId, el, showShareLink, tableKeys } from "/static/common.js";
import { askNight, night } from "/static/table-night.js";
import { card, cardInline, suitIcon } from "/static/cards.js";
import { TEAM_OF, ended, page, timedOutMoves, trickPlays } from "/static/table-state.js";
import {
  eventNode,
  resultText,
  teamOfNames,
  timedOutNode,
  who,
  whoShort,
} from "/static/table-words.js";

/**
 * @import { TeamFigures } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 */

/** While the table waits for players: the share link, and taking a seat. @param {View} view */
export function renderWaiting(view) {
  const waiting = !view.replay && view.table?.status === "waiting";
  byId("waiting").hidden = !waiting;
  showShareLink(page.id, byId("share-link", HTMLInputElement), "share-warning");
  const canTake = !view.you && (view.table?.seats ?? []).some((s) => s.kind === "open");
  byId("take-field").hidden = !(waiting && canTake);
  // Its creator may close a table nobody came to (the lobby's "Close" does it at any time).
  byId("close-table").hidden = !(waiting && tableKeys(page.id).creator_token);
}

/** The match's result, or why the table was closed before its end. @param {View} view */
export function renderResult(view) {
  const box = byId("result");
  const closed = view.table?.status === "closed";
  box.hidden = !ended(view) || view.replay;
  // A closed table's match is not over: no rematch, replay or record (they would show every
  // hand), only the way back.
  for (const id of ["rematch", "replay-btn", "record-link"]) {
    byId(id).hidden = closed;
  }
  byId("lobby-link").hidden = !closed;
  if (box.hidden) return;
  if (closed) {
    const text = t(view.table.closed === "idle" ? "table.closed.idle" : "table.closed.creator");
    byId("result-text").textContent = text;
    return;
  }
  byId("result-text").textContent = resultText(view);
  askNight(page.id, () => renderResult(view));
  const nightLink = byId("night-link", HTMLAnchorElement);
  nightLink.hidden = !night.id;
  nightLink.href = `/club/nights/${encodeURIComponent(night.id)}`;
  // A club night's deals stay hidden until every table of the round has played them.
  for (const id of ["replay-btn", "record-link"]) {
    byId(id).hidden = !night.released;
  }
  byId("night-wait").hidden = night.released;
  const link = byId("record-link", HTMLAnchorElement);
  link.href = `/api/tables/${encodeURIComponent(page.id)}/record`;
  link.setAttribute("download", `valtti-${page.id}.json`);
}

/** The deal's facts: trumps, dealer, locks, events and the last trick. @param {View} view */
export function renderInfo(view) {
  const obs = view.obs;
  const trumps = byId("trumps");
  trumps.replaceChildren();
  trumps.dataset.trump = obs?.trump ?? "";
  if (obs?.trump) {
    const icon = suitIcon(obs.trump);
    icon.setAttribute("aria-hidden", "true"); // the suit's name follows it
    trumps.append(icon, " ", t(`suit.${obs.trump}`));
  } else trumps.append(t("table.trumps.none"));
  // The same on the felt, where it is in sight at every size.
  const onFelt = byId("felt-trumps");
  onFelt.dataset.trump = trumps.dataset.trump;
  onFelt.replaceChildren(...[...trumps.childNodes].map((n) => n.cloneNode(true)));

  byId("deal-label").textContent = view.deal ? t("table.deal", { n: view.deal }) : "";
  byId("dealer-label").textContent = obs ? t("table.dealer", { name: who(view, obs.dealer) }) : "";
  const locked = obs?.locked ?? [];
  byId("locks").textContent = locked.length
    ? locked.map((s) => who(view, s)).join(", ")
    : t("table.nobody");

  const events = byId("events");
  events.replaceChildren();
  for (const e of obs?.events ?? []) {
    events.append(
      el("li", { dataset: { how: e.how, yes: String(e.yes), seat: e.seat } }, eventNode(view, e)),
    );
  }
  if (!(obs?.events ?? []).length)
    events.append(el("li", { class: "empty" }, t("table.events.none")));

  const open = page.lastTrickOpen;
  const button = byId("last-trick-btn", HTMLButtonElement);
  button.disabled = !view.lastTrick;
  button.textContent = t(open ? "table.last_trick.hide" : "table.last_trick.show");
  button.setAttribute("aria-expanded", String(open && !!view.lastTrick));
  const box = byId("last-trick");
  box.hidden = !(open && view.lastTrick);
  box.replaceChildren();
  if (view.lastTrick) {
    const tr = view.lastTrick;
    box.append(
      el("p", {}, t("table.last_trick.caption", { number: tr.number, name: who(view, tr.winner) })),
    );
    const row = el("div", { class: "last-trick-cards" });
    for (const play of trickPlays(tr)) {
      row.append(
        el(
          "figure",
          { "data-by": play.seat, "data-winner": String(play.seat === tr.winner) },
          card(play.card),
          el("figcaption", { title: who(view, play.seat) }, whoShort(view, play.seat)),
        ),
      );
    }
    box.append(row);
  }
}

/** @param {View} view @returns {TeamFigures} */
function matchScore(view) {
  if (view.replay) return view.deals.at(-1)?.score ?? { NS: 0, EW: 0 };
  return view.table?.score ?? { NS: 0, EW: 0 };
}

/** The match score and the deal's three columns. @param {View} view */
export function renderScore(view) {
  const score = matchScore(view);
  const box = byId("score");
  box.dataset.ns = String(score.NS);
  box.dataset.ew = String(score.EW);
  const target = view.table?.variant?.target ?? 10;
  byId("match-score").textContent = t("table.match_score", {
    ns: score.NS,
    ew: score.EW,
    target,
  });
  const obs = view.obs;
  // The match and the deal in a line on the felt, in sight at every size.
  const onFelt = byId("felt-score");
  const label = (/** @type {string} */ key) => el("span", { class: "felt-label" }, t(key));
  onFelt.replaceChildren(
    label("table.felt.match"),
    " ",
    t("table.felt.score", { ns: score.NS, ew: score.EW, target }),
  );
  onFelt.title = byId("match-score").textContent;
  onFelt.dataset.ns = String(score.NS);
  onFelt.dataset.ew = String(score.EW);
  const deal = obs?.game_points ?? { NS: 0, EW: 0 };
  const points = byId("felt-points");
  points.replaceChildren(
    label("table.felt.this_deal"),
    " ",
    t("table.felt.deal", { ns: deal.NS ?? 0, ew: deal.EW ?? 0 }),
  );
  points.hidden = !obs;
  const body = byId("columns");
  body.replaceChildren();
  for (const team of /** @type {const} */ (["NS", "EW"])) {
    const mine = view.you && TEAM_OF[view.you] === team;
    body.append(
      el(
        "tr",
        { dataset: { team }, class: mine ? "mine" : "" },
        el("th", {}, el("b", {}, t(`team.${team}`)), el("small", {}, teamOfNames(view, team))),
        el("td", { "data-col": "tricks" }, String(obs?.tricks_won?.[team] ?? 0)),
        el("td", { "data-col": "card_points" }, String(obs?.card_points?.[team] ?? 0)),
        el("td", { "data-col": "game_points" }, String(obs?.game_points?.[team] ?? 0)),
      ),
    );
  }
}

/** NS's and EW's figures of a column: "9–0". @param {TeamFigures | undefined} figures */
function pair(figures) {
  return t("table.sheet.score_value", { ns: figures?.NS ?? 0, ew: figures?.EW ?? 0 });
}

/** The score sheet: a row per deal. @param {View} view */
export function renderSheet(view) {
  const body = byId("sheet");
  body.replaceChildren();
  view.deals.forEach((d, i) => {
    const trump = el("span", {}, d.trump ? suitIcon(d.trump) : t("table.sheet.no_trumps"));
    const inPlay = i === view.deals.length - 1 && view.obs && view.obs.phase !== "over";
    body.append(
      el(
        "tr",
        { dataset: { deal: String(i + 1) }, class: inPlay ? "current" : "" },
        el("td", {}, String(i + 1)),
        el("td", {}, t(`seat.${d.dealer}`)),
        el("td", {}, trump),
        el("td", { "data-col": "tricks" }, pair(d.tricks)),
        el("td", { "data-col": "card_points" }, pair(d.card_points)),
        el("td", { "data-col": "game_points" }, pair(d.game_points)),
        el(
          "td",
          {},
          inPlay
            ? ""
            : t("table.sheet.score_value", { ns: d.score?.NS ?? 0, ew: d.score?.EW ?? 0 }),
        ),
      ),
    );
  });
  if (!view.deals.length)
    body.append(el("tr", {}, el("td", { colspan: "7", class: "empty" }, t("table.sheet.none"))));
}

/** The deal's plays, tricks and events in words. @param {View} view */
export function renderLog(view) {
  const log = byId("log");
  log.replaceChildren();
  const obs = view.obs;
  if (!obs) return;
  const line = (/** @type {string | Node} */ node, /** @type {string} */ kind) =>
    log.append(el("li", { class: `log-${kind}` }, node));
  line(
    t("log.deal", {
      n: view.deal ?? 1,
      dealer: who(view, obs.dealer),
      forehand: who(view, obs.forehand),
    }),
    "deal",
  );
  // The moves a computer player made for a person out of time are said so, and marked.
  const stood = timedOutMoves(view);
  const stoodCards = new Set(stood.map((m) => m.token));
  const stoodEvents = new Map(stood.filter((m) => m.event !== null).map((m) => [m.event, m]));
  const tricks = [...(obs.tricks ?? [])];
  if (obs.current_trick?.cards.length) tricks.push(obs.current_trick);
  for (const trick of tricks) {
    for (const play of trickPlays(trick)) {
      if (stoodCards.has(play.card))
        line(timedOutNode(view, play.seat, play.card), "play timed-out");
      else
        line(tn("log.plays", { seat: who(view, play.seat), card: cardInline(play.card) }), "play");
    }
    if (trick.winner)
      line(t("log.takes", { seat: who(view, trick.winner), number: trick.number }), "trick");
    (obs.events ?? []).forEach((e, i) => {
      if (!trick.winner || e.after_trick !== trick.number) return;
      line(eventNode(view, e), "event");
      const made = stoodEvents.get(i);
      if (made) line(timedOutNode(view, made.seat, null), "event timed-out");
    });
  }
  if (obs.phase === "over") line(t("log.deal_over", { n: view.deal ?? 1 }), "deal");
  log.scrollTop = log.scrollHeight;
}
