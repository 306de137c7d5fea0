// @ts-check
/**
 * The table in words, in the page's language: who a seat is, an action, an event, a refusal,
 * the match's result. Each takes the view it speaks of (table-state.js).
 */

import { has, t, tn } from "/static/i18n.js";
import { el, seatName } from "/static/common.js";
import { cardInline, cardText, parseCard, suitGlyph, suitIcon } from "/static/cards.js";
import { cardName, teamName } from "/static/names.js";
import { TEAM_OF, parseToken, seatEntry } from "/static/table-state.js";

/**
 * @import { DealEvent, Refusal, Seat, Suit, Team } from "/static/protocol.js"
 * @import { Stood, View } from "/static/table-state.js"
 */

/** A seat's name for text: nickname (or computer level, or "open") and the seat.
 * @param {View} view @param {Seat | null | undefined} seat */
export function who(view, seat) {
  if (!seat) return "";
  return t("table.who", { name: seatName(seatEntry(view.table, seat)), seat: t(`seat.${seat}`) });
}

/** `who` for a narrow place: a long name is cut (.who-name), never the seat after it, which
 * tells apart computer players of the same name. @param {View} view @param {Seat} seat */
export function whoShort(view, seat) {
  const name = el("span", { class: "who-name" }, seatName(seatEntry(view.table, seat)));
  return tn("table.who", { name, seat: t(`seat.${seat}`) });
}

/** A team's two seats in words. @param {View} view @param {Team} team */
export function teamOfNames(view, team) {
  /** @type {Seat[]} */
  const seats = team === "NS" ? ["N", "S"] : ["E", "W"];
  return t("table.partners", { a: who(view, seats[0]), b: who(view, seats[1]) });
}

/** The finished match's result in words (for a seat's own team: "you win"). @param {View} view */
export function resultText(view) {
  const score = view.table.score ?? { NS: 0, EW: 0 };
  const winner = view.table.winner;
  if (winner === "draw") return t("result.draw", { ns: score.NS, ew: score.EW });
  if (winner && view.you && TEAM_OF[view.you] === winner) {
    return t("result.you_win", { ns: score.NS, ew: score.EW });
  }
  if (winner) return t("result.team_wins", { team: teamName(winner), ns: score.NS, ew: score.EW });
  return t("result.over");
}

/** A move as the page writes it: a card inline with its suit, else the action's words.
 * @param {string} token */
export function moveLabel(token) {
  return parseCard(token) ? cardInline(token) : actionLabel(token);
}

/** An action token that is not a card, as its button says it. @param {string} token
 * @returns {Node} */
export function actionLabel(token) {
  const a = parseToken(token);
  const icon = a.suit ? suitIcon(a.suit) : null;
  if (a.kind === "declare") return tn("action.declare", { suit: icon });
  if (a.kind === "ask-whole") return tn("action.ask_whole");
  if (a.kind === "ask-half") return tn("action.ask_half", { suit: icon });
  if (a.kind === "answer" && icon) {
    icon.setAttribute("aria-hidden", "true"); // the suit's name follows it
    return tn("action.answer", { suit: icon, name: t(`suit.${a.suit}`) });
  }
  return document.createTextNode(token);
}

/** A move a computer player made for `seat`'s person, whose time ran out, in words: with its
 * card inline (`card`), or after the declaration or question it follows in the log (null).
 * @param {View} view @param {Seat} seat @param {string | null} card */
export function timedOutNode(view, seat, card) {
  const yours = seat === view.you ? "_you" : "";
  const params = { seat: who(view, seat) };
  return card
    ? tn(`log.timed_out.play${yours}`, { ...params, card: cardInline(card) })
    : tn(`log.timed_out.event${yours}`, params);
}

/** The same for a screen reader or a toast, in plain words ("you" for your own seat).
 * @param {View} view @param {Stood} move @param {(token: string) => string} cardWords */
export function timedOutText(view, move, cardWords) {
  const yours = move.seat === view.you;
  if (parseCard(move.token)) {
    const key = yours ? "toast.timed_out.play" : "log.timed_out.play";
    return t(key, { seat: who(view, move.seat), card: cardWords(move.token) });
  }
  const action = actionWords(move.token);
  return t(yours ? "toast.timed_out.action" : "log.timed_out.action", {
    seat: who(view, move.seat),
    action,
  });
}

/** An action token that is not a card in plain text, as its button says it ("Declare ♥").
 * @param {string} token */
function actionWords(token) {
  const a = parseToken(token);
  const suit = a.suit ? suitGlyph(a.suit) : "";
  if (a.kind === "declare") return t("action.declare", { suit });
  if (a.kind === "ask-whole") return t("action.ask_whole");
  if (a.kind === "ask-half") return t("action.ask_half", { suit });
  return token;
}

/** A move in plain words (a card by its name): a screen reader's label, a tooltip.
 * @param {string} token */
export function moveText(token) {
  if (parseCard(token)) return cardName(token);
  const a = parseToken(token);
  if (a.kind === "answer")
    return t("action.answer", { suit: "", name: t(`suit.${a.suit}`) }).trim();
  return actionWords(token);
}

/** A replay step's action by `actor`, in words.
 * @param {View} view @param {string} token @param {Seat | null | undefined} actor */
export function actionText(view, token, actor) {
  const a = parseToken(token);
  const seat = who(view, actor);
  if (a.kind === "play") return tn("log.plays", { seat, card: cardInline(token) });
  if (a.kind === "answer") return tn("replay.answer", { seat, action: actionLabel(token) });
  return tn("replay.action", { seat, action: actionLabel(token) });
}

/** Why a refusal (docs/WEB.md) refused its action, in the page's language.
 * @param {View} view @param {Refusal} refusal */
export function refusalText(view, refusal) {
  const key = `refusal.${refusal.code}`;
  if (!has(key)) return t("error.illegal");
  const glyph = (/** @type {Suit | undefined} */ suit) => (suit ? suitGlyph(suit) : "");
  const action = refusal.action ?? "";
  return t(key, {
    seat: who(view, refusal.seat),
    asker: who(view, refusal.asker),
    action: parseCard(action) ? cardText(action) : action,
    suit: glyph(refusal.suit),
    trump: glyph(refusal.trump),
    card: refusal.card ? cardText(refusal.card) : "",
    team: refusal.team ? t(`team.${refusal.team}`) : "",
    given: refusal.given ?? "",
  });
}

/** A declaration or a question (and its answer) in words, with the points it made.
 * @param {View} view @param {DealEvent} e */
export function eventNode(view, e) {
  const seat = who(view, e.seat);
  const icon = e.suit ? suitIcon(e.suit) : null;
  const frag = document.createDocumentFragment();
  if (e.how === "declare") frag.append(tn("event.declare", { seat, suit: icon }));
  else if (e.how === "ask-whole") {
    frag.append(
      e.yes ? tn("event.ask_whole.yes", { seat, suit: icon }) : tn("event.ask_whole.no", { seat }),
    );
  } else frag.append(tn(e.yes ? "event.ask_half.yes" : "event.ask_half.no", { seat, suit: icon }));
  const team = teamName(TEAM_OF[e.seat]);
  // The points name a word of the game, explained on a tap (terms.js).
  const points = (/** @type {string} */ key, /** @type {string} */ term) =>
    el("span", { "data-term": term }, tn(key, { suit: icon, team }));
  if (e.points === 2)
    return tn("event.with_points", { event: frag, points: points("event.trumps", "trumps") });
  if (e.points === 1) {
    return tn("event.with_points", {
      event: frag,
      points: points("event.little_trump", "little_trump"),
    });
  }
  return frag;
}
