// @ts-check
/**
 * Seats, teams and cards in the page's language. The protocol always says N E S W, NS EW and
 * "QS"; only what a person reads is translated (Finnish: P I E L, PE IL, "patarouva").
 *
 *   seatLetter("E") -> "E" | "I"          seatWord("E") -> "east" | "itä"
 *   seatTitle("E") -> "East" | "Itä"      (a computer player on the felt, its level below)
 *   computerName("W", "heuristic") -> "West · rules of thumb" | "Länsi · nyrkkisäännöt"
 *   computerLevel("heuristic") -> "rules of thumb" | "nyrkkisäännöt" (where the seat is said)
 *   seatName(entry) -> who sits at a summary's seat: a nickname, a computer player's name
 *                      as above, or "open seat"
 *   teamName("NS")  -> "NS" | "PE"        cardName("QS") -> "queen of spades" | "patarouva"
 *   tableName(summary) -> the table's name, else its first person's table ("Aino's table"),
 *                      else "Table {id}"
 *   labelCards(root)  every card face, inline card, suit icon and hand button under root gets
 *                     its name in words
 */

import { has, t } from "/static/i18n.js";
import { parseCard } from "/static/cards.js";

/** @import { SeatEntry, TableSummary } from "/static/protocol.js" */

/** @param {string} seat */
export function seatLetter(seat) {
  return t(`seat.${seat}`);
}

/** @param {string} seat */
export function seatWord(seat) {
  return t(`seat.${seat}.name`);
}

/** The seat's word as a name begins ("West", "Länsi"): a computer player's on the felt.
 * @param {string} seat */
export function seatTitle(seat) {
  const word = seatWord(seat);
  return word.charAt(0).toLocaleUpperCase() + word.slice(1);
}

/** A computer player by its seat and level ("West · rules of thumb"): three computer players
 * of one level at a table are three names, not three "Bot: rules of thumb".
 * @param {string} seat @param {string} player the server's name for it ("heuristic") */
export function computerName(seat, player) {
  return t("player.named", { seat: seatTitle(seat), level: computerLevel(player) });
}

/** A computer player's level alone ("rules of thumb"), where its seat is said beside it.
 * @param {string} player the server's name for it ("heuristic") */
export function computerLevel(player) {
  const key = `player.level.${player}`;
  return has(key) ? t(key) : player;
}

/** A table's name as every page shows it: the one it was given, else its first person's table,
 * else its id. @param {TableSummary} table */
export function tableName(table) {
  if (table.name) return table.name;
  const host = (table.seats ?? []).find((s) => s.kind === "human");
  return host
    ? t("lobby.name.default", { name: host.name })
    : t("lobby.table.id", { id: table.id });
}

/** Who sits at a seat of a table summary, as every page names them.
 * @param {SeatEntry | undefined} entry */
export function seatName(entry) {
  if (!entry || entry.kind === "open") return t("seat.open");
  if (entry.kind === "computer") return computerName(entry.seat, String(entry.name));
  return String(entry.name);
}

/** @param {string} team */
export function teamName(team) {
  return t(`team.${team}`);
}

/** A card in words: "queen of spades", "patarouva"; the token itself when it is none.
 * @param {string} token */
export function cardName(token) {
  const parsed = parseCard(token);
  if (!parsed) return String(token);
  return t("card.name", { rank: t(`rank.${parsed[0]}`), suit: t(`card.suit.${parsed[1]}`) });
}

/** Name every drawn card face, card in text, suit icon and hand button under root for screen
 * readers, in the page's language ("hearts", not the glyph ♥ a reader says in its own).
 * @param {Document | Element} [root] */
export function labelCards(root = document) {
  /** @type {NodeListOf<SVGElement>} */
  const faces = root.querySelectorAll("svg.card-face[data-token]");
  for (const face of faces) {
    face.setAttribute("aria-label", cardName(face.dataset.token ?? ""));
  }
  /** @type {NodeListOf<SVGElement>} */
  const icons = root.querySelectorAll("svg.suit[data-suit]");
  for (const icon of icons) {
    icon.setAttribute("aria-label", t(`suit.${icon.dataset.suit}`));
  }
  /** @type {NodeListOf<HTMLElement>} */
  const inlines = root.querySelectorAll(".card-inline[data-token]");
  for (const inline of inlines) {
    inline.setAttribute("role", "img");
    inline.setAttribute("aria-label", cardName(inline.dataset.token ?? ""));
  }
  /** @type {NodeListOf<HTMLButtonElement>} */
  const buttons = root.querySelectorAll("button[data-card]");
  for (const button of buttons) {
    button.setAttribute("aria-label", cardName(button.dataset.card ?? ""));
    button.querySelector("svg")?.setAttribute("aria-hidden", "true");
  }
}
