// @ts-check
/**
 * The felt: the four seats (name, presence, badges, hidden hand or a replay's faces, the
 * event bubbles and the seat's tools), the trick in the middle and the turn line.
 */

import { t } from "/static/i18n.js";
import { byId, el, one, seatName, tableKeys } from "/static/common.js";
import { card, cardBack, sortHand } from "/static/cards.js";
import { computerLevel, seatTitle, seatWord } from "/static/names.js";
import { seatAbsence } from "/static/absence.js";
import {
  SEATS,
  ended,
  myLegal,
  page,
  parseToken,
  positions,
  seatEntry,
  stale,
  trickPlays,
} from "/static/table-state.js";
import { eventNode, who } from "/static/table-words.js";
import { replaceSeat, sitDown } from "/static/table-control.js";

/**
 * @import { Seat, SeatEntry, Trick } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 */

/** @param {View} view */
export function renderSeats(view) {
  const bottom = view.you ?? "S";
  const pos = positions(bottom);
  for (const seat of SEATS) {
    const section = one(document, `.felt .seat[data-pos="${pos[seat]}"]`);
    renderSeat(section, seat, view, pos[seat] === "bottom");
  }
}

/** @param {HTMLElement} section @param {Seat} seat @param {View} view @param {boolean} isBottom */
function renderSeat(section, seat, view, isBottom) {
  const entry = seatEntry(view.table, seat);
  const obs = view.obs;
  section.dataset.seat = seat;
  // Nobody is to move at a closed table, though its position has a seat to move.
  const open = view.replay || view.table?.status !== "closed";
  section.dataset.turn = String(open && !!obs && obs.to_move === seat && obs.phase !== "over");
  section.dataset.you = String(view.you === seat);
  section.dataset.locked = String(!!obs && (obs.locked ?? []).includes(seat));
  section.dataset.kind = entry?.kind ?? "open";
  // While the page's connection is lost nobody else's presence is known (your own is not).
  const unknown = stale(view) && view.you !== seat;
  const connected = !!entry?.connected && !(stale(view) && view.you === seat);
  section.dataset.connected = unknown ? "unknown" : String(connected);
  section.replaceChildren();

  const head = el("div", { class: "seat-head" });
  if (entry?.kind === "human") {
    const presence = unknown ? "unknown" : connected ? "on" : "off";
    const title = { unknown: "connection.seat", on: "seat.connected", off: "seat.disconnected" };
    head.append(el("span", { class: `conn ${presence}`, title: t(title[presence]) }));
  }
  // A computer player by its seat's word, its level on a line of its own below: three players
  // of one level are told apart at a glance ("West", "North", "East"), and the whole name
  // ("West · rules of thumb" took three lines on a phone) never wraps; it is the tooltip.
  const computer = entry?.kind === "computer" ? String(entry.name) : null;
  const shown = computer ? seatTitle(seat) : seatName(entry);
  const title = computer ? `${seatName(entry)} (${computer})` : null;
  head.append(el("span", { class: "name", title }, shown));
  head.append(el("span", { class: "seat-letter", title: seatWord(seat) }, t(`seat.${seat}`)));
  if (view.you === seat) head.append(el("span", { class: "badge you" }, t("table.you")));
  if (obs && obs.dealer === seat) {
    head.append(
      el("span", { class: "badge dealer", title: t("table.dealer.title") }, t("table.dealer.mark")),
    );
  }
  if (section.dataset.locked === "true")
    head.append(el("span", { class: "badge lock", "data-term": "locked" }, t("table.lock")));
  const absence = seatAbsence(view, seat, entry);
  head.append(...absence.head);
  section.append(head);
  if (computer) section.append(el("div", { class: "level" }, computerLevel(computer)));

  const showsHandBelow = isBottom && (view.replay || view.you === seat);
  if (obs && !showsHandBelow) {
    if (view.hands) {
      const faces = el("div", { class: "mini-hand" });
      for (const c of sortHand(view.hands[seat] ?? [])) faces.append(card(c));
      section.append(faces);
    } else {
      const size = obs.hand_sizes?.[seat] ?? 0;
      const backs = el("div", { class: "backs", "data-hand-size": String(size) });
      for (let i = 0; i < size; i++) backs.append(cardBack());
      section.append(backs);
    }
  }

  if (obs) {
    const done = (obs.tricks ?? []).length;
    const now = (obs.events ?? []).filter((e) => e.seat === seat && e.after_trick === done);
    for (const e of now) section.append(el("div", { class: "bubble" }, eventNode(view, e)));
  }

  const tools = seatTools(view, seat, entry) ?? el("div", { class: "seat-tools" });
  tools.append(...absence.tools);
  if (tools.childElementCount) section.append(tools);
}

/** A seat's buttons: take it (a spectator, while the table waits), or hand it to a computer
 * player (the creator). @param {View} view @param {Seat} seat
 * @param {SeatEntry | undefined} entry */
function seatTools(view, seat, entry) {
  if (view.replay || !view.table) return null;
  const tools = el("div", { class: "seat-tools" });
  if (!view.you && view.table.status === "waiting" && entry?.kind === "open") {
    tools.append(
      el(
        "button",
        {
          type: "button",
          class: "small primary",
          "data-take": seat,
          onclick: () => sitDown(seat),
        },
        t("table.take"),
      ),
    );
  }
  const creator = tableKeys(page.id).creator_token;
  const replaceable =
    entry?.kind === "open" || (entry?.kind === "human" && !entry.connected && !entry.stand_in);
  if (creator && !ended(view) && replaceable) {
    const select = el("select", {
      "data-replace-player": seat,
      "aria-label": t("table.replace.player"),
    });
    for (const p of page.computerPlayers)
      select.append(el("option", { value: p, title: p }, t(`player.short.${p}`)));
    select.value = "heuristic";
    tools.append(
      select,
      el(
        "button",
        {
          type: "button",
          class: "small",
          "data-replace": seat,
          onclick: () => replaceSeat(seat, select.value),
        },
        t("table.replace"),
      ),
    );
  }
  return tools.childElementCount ? tools : null;
}

/** The trick to show in the middle: a just-completed one for a moment, else the current one.
 * A new deal's felt is empty: the previous deal's last trick is not held over into it.
 * @param {View} view @returns {Trick | null} */
export function shownTrick(view) {
  const current = view.obs?.current_trick;
  // The held trick gives way at once when you must follow the next one.
  const youFollow = view.you && view.obs?.to_move === view.you && current?.cards.length;
  const hold = page.hold;
  const ofThisDeal = !!hold && hold.trick.number <= (view.obs?.tricks ?? []).length;
  if (!view.replay && ofThisDeal && Date.now() < hold.until && !youFollow) return hold.trick;
  if (current?.cards.length) return current;
  if (view.lastTrick && view.obs?.phase === "over") return view.lastTrick;
  return null;
}

/** @param {View} view */
export function renderTrick(view) {
  const box = byId("trick");
  box.replaceChildren();
  const trick = shownTrick(view);
  if (!trick) return;
  const pos = positions(view.you ?? "S");
  box.dataset.number = String(trick.number);
  box.dataset.complete = String(!!trick.winner);
  for (const play of trickPlays(trick)) {
    box.append(
      el(
        "div",
        {
          class: `played at-${pos[play.seat]}`,
          "data-played": play.card,
          "data-by": play.seat,
          "data-winner": String(trick.winner === play.seat),
        },
        card(play.card),
      ),
    );
  }
}

/** @param {View} view */
export function renderTurn(view) {
  const line = byId("turn");
  const obs = view.obs;
  const status = view.table?.status;
  let text = "";
  const trick = shownTrick(view);
  if (status === "waiting" && !view.replay) text = t("table.turn.waiting");
  else if (status === "closed" && !view.replay) text = t("table.turn.closed");
  else if (trick?.winner) text = t("table.turn.takes", { name: who(view, trick.winner) });
  else if (!obs) text = "";
  else if (obs.phase === "over") text = t("table.turn.deal_over");
  else if (view.you && obs.to_move === view.you) {
    if (obs.phase === "declaration") text = t(windowPrompt(view));
    else if (obs.phase === "answer") text = t("table.turn.answer");
    else if (!obs.current_trick || obs.current_trick.cards.length === 0)
      text = t("table.turn.lead");
    else text = t("table.turn.play");
  } else if (obs.phase === "answer") {
    // Only a replay shows anyone else a partner choosing a marriage (RULES.md 7.2).
    text = t("table.turn.other_answer", { name: who(view, obs.to_move) });
  } else if (obs.to_move) {
    const leads = !obs.current_trick || obs.current_trick.cards.length === 0;
    text = t(leads ? "table.turn.other_lead" : "table.turn.other", {
      name: who(view, obs.to_move),
    });
  }
  line.textContent = text;
}

/** The window's prompt names only what the legal actions allow: declare, ask, or just lead.
 * @param {View} view */
function windowPrompt(view) {
  const kinds = new Set(myLegal(view).map((tok) => parseToken(tok).kind));
  const declare = kinds.has("declare");
  const ask = kinds.has("ask-whole") || kinds.has("ask-half");
  if (declare && ask) return "table.turn.window";
  if (declare) return "table.turn.window_declare";
  if (ask) return "table.turn.window_ask";
  return "table.turn.lead";
}
