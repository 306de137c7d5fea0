// @ts-check
/**
 * A club night's page (/club/nights/{id}, docs/HOSTING.md "A club night"): live standings
 * while it is played (asked again every few seconds), printable and downloadable (CSV, JSON)
 * once it is over. A member who plays takes their seat of the current round from here.
 *
 * Hooks for end-to-end tests:
 *   body[data-status]      "playing" | "finished"; data-round: the round being played
 *   #standings tbody tr[data-entrant="{n}"]   .place .names .percent .matchpoints .game-points
 *   #night-tables li[data-table="{id}"][data-round][data-status]
 *   #deal-results tbody tr[data-round][data-deal][data-table]  .ns .ew .mp
 *   #my-seat               take my seat of the current round (members who play it)
 *   #results-csv, #results-json, #print
 */

import { initI18n, onLangChange, t } from "/static/i18n.js";
import { api, byId, el, saveTableKeys, toastFailure } from "/static/common.js";
import { computerLevel } from "/static/names.js";
import { showClubBar } from "/static/club-bar.js";

const REFRESH_MS = 3000;
const nightId = decodeURIComponent(location.pathname.split("/").pop() || "");
/** @type {any} */
let night = null;
/** @type {import("/static/club-bar.js").Me | null} */
let me = null;

/** A table cell. @param {string} kind @param {unknown} value */
function cell(kind, value) {
  return el("td", { class: kind }, String(value));
}

/** An entrant's players: members by name, computer players by their level ("club player").
 * @param {any} row */
function entrantNames(row) {
  return row.names
    .map((/** @type {string} */ name, /** @type {number} */ i) =>
      row.computers[i] == null ? name : computerLevel(row.computers[i]),
    )
    .join(" & ");
}

/** Who sits at a night table's seat, a computer player by its level.
 * @param {any} table @param {string} seat */
function seatPlayer(table, seat) {
  const computer = table.computers[seat];
  return computer == null ? table.players[seat] : computerLevel(computer);
}

function draw() {
  if (!night) return;
  document.body.dataset.status = night.status;
  document.body.dataset.round = String(night.round);
  const s = night.settings;
  byId("night-name", HTMLElement).textContent = night.name;
  document.title = `${night.name} · ${t("night.title")}`;
  byId("night-state", HTMLElement).textContent =
    night.status === "finished"
      ? t("night.finished")
      : t("night.playing", { round: night.round, rounds: s.rounds });
  byId("night-settings", HTMLElement).textContent = t("night.settings", {
    tables: s.tables,
    rounds: s.rounds,
    deals: s.deals,
    movement: t(`club.night.movement.${s.movement}`),
    computer: computerLevel(s.computer),
  });
  byId("standings", HTMLTableElement).tBodies[0].replaceChildren(
    ...night.standings.map((/** @type {any} */ row) =>
      el(
        "tr",
        { dataset: { entrant: String(row.entrant) } },
        cell("place", row.tied ? `${row.place}=` : row.place),
        cell("names", entrantNames(row)),
        cell("percent", `${row.percent.toFixed(2)} %`),
        cell("matchpoints", `${row.matchpoints} / ${row.top}`),
        cell("game-points", row.game_points),
      ),
    ),
  );
  byId("night-tables", HTMLUListElement).replaceChildren(
    ...night.tables.map((/** @type {any} */ table) =>
      el(
        "li",
        { dataset: { table: table.id, round: String(table.round), status: table.status } },
        el(
          "a",
          { href: `/t/${table.id}` },
          t("night.table_of_round", { round: table.round, number: table.number }),
        ),
        ` · N ${seatPlayer(table, "N")} & S ${seatPlayer(table, "S")} — E ${seatPlayer(table, "E")} & W ${seatPlayer(table, "W")} · `,
        el("span", { class: "hint" }, t(`status.${table.status}`)),
      ),
    ),
  );
  const rows = [];
  for (const deal of night.deals) {
    for (const r of deal.results) {
      rows.push(
        el(
          "tr",
          {
            dataset: { round: String(deal.round), deal: String(deal.deal), table: String(r.table) },
          },
          cell("round", deal.round),
          cell("deal", deal.deal),
          cell("table", r.table),
          cell("ns", r.game_points[0]),
          cell("ew", r.game_points[1]),
          cell("mp", `${r.ns_mp} – ${r.ew_mp}`),
        ),
      );
    }
  }
  byId("deal-results", HTMLTableElement).tBodies[0].replaceChildren(...rows);
  byId("deals-none", HTMLElement).hidden = rows.length > 0;
  const member = me?.member;
  const mine =
    member != null &&
    night.status === "playing" &&
    night.standings.some((/** @type {any} */ row) => row.members.includes(member.id));
  byId("my-seat", HTMLButtonElement).hidden = !mine;
}

async function refresh() {
  try {
    night = await api("GET", `/api/club/nights/${encodeURIComponent(nightId)}`);
  } catch (err) {
    toastFailure(err);
    return;
  }
  draw();
}

async function takeMySeat() {
  try {
    const seat = await api("POST", `/api/club/nights/${encodeURIComponent(nightId)}/seat`, {});
    saveTableKeys(seat.table, { token: seat.token, seat: seat.seat });
    location.assign(`/t/${seat.table}`);
  } catch (err) {
    toastFailure(err);
  }
}

async function main() {
  [, me] = await Promise.all([initI18n(), showClubBar()]);
  const base = `/api/club/nights/${encodeURIComponent(nightId)}`;
  byId("results-csv", HTMLAnchorElement).href = `${base}/results.csv`;
  byId("results-json", HTMLAnchorElement).href = base;
  byId("print", HTMLButtonElement).addEventListener("click", () => window.print());
  byId("my-seat", HTMLButtonElement).addEventListener("click", takeMySeat);
  onLangChange(draw);
  await refresh();
  setInterval(() => {
    if (!document.hidden && night?.status === "playing") refresh();
  }, REFRESH_MS);
}

main();
