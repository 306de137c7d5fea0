// @ts-check
/**
 * The lobby's list of tables (#tables): one page at a time, filtered by status, refreshed by
 * lobby.js, each table by its name ("Anna's table"); the filter and the page are the address's
 * query (?status=waiting&page=2: a reload keeps them, back and forward go through them); above
 * it "Your tables" (#my-tables), the tables this browser holds a token for, listed or not (a
 * game against the computer is in no public list), each one's creator may close; and the
 * dialog that takes an open seat (#join-dialog). Its hooks are listed in lobby.js.
 */

import { currentLang, t, tp } from "/static/i18n.js";
import {
  api,
  byId,
  closeTable,
  el,
  myTables,
  nicknameProblem,
  one,
  savedNickname,
  seatTitle,
  tableKeys,
  takeSeat,
  toast,
  toastFailure,
} from "/static/common.js";
import { typedNickname, variantSummary } from "/static/lobby-form.js";
import { seatName, tableName } from "/static/names.js";

/** @import { Seat, TableSummary, VariantChanges } from "/static/protocol.js" */
/** @import { ApiError } from "/static/common.js" */

const FILTERS = ["all", "waiting", "playing", "finished"];
/** The most of this browser's own tables the lobby asks the server for (rooms.MAX_IDS). */
const MINE_MAX = 50;

/** The list as shown, and the seat being taken. */
const listing = {
  /** @type {TableSummary[]} the page of tables the server answered */
  tables: [],
  /** the list's filter: "all" or a status */
  filter: "all",
  /** the page shown and the page count the server answered */
  page: 1,
  pages: 1,
  /** the number of the latest list request: an older answer arriving later is dropped */
  asked: 0,
  /** a club's list, which only its members see, was refused: nobody is signed in */
  membersOnly: false,
  /** @type {{id: string, seat: Seat} | null} while the nickname dialog is open */
  joining: null,
  /** @type {TableSummary[]} this browser's own tables, as the server answered */
  mine: [],
};

/** When a table was made, in the page's language. @param {number | string | null} created */
function formatCreated(created) {
  if (created === null || created === undefined) return "";
  const date = typeof created === "number" ? new Date(created * 1000) : new Date(created);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(currentLang() === "fi" ? "fi-FI" : "en-GB", {
    dateStyle: "short",
    timeStyle: "short",
  });
}

/** Each person's time bank unless a table says otherwise: two turns' worth, at most two hours
 * (the server's web/referee/turns.py). @param {number} seconds a turn */
function usualBank(seconds) {
  return Math.min(2 * seconds, 7200);
}

/** A table's time for a turn as the list says it ("30 seconds a turn", "no time limit"), and
 * its time bank where it is not the usual one ("… + 5 min bank", "… + no bank").
 * @param {number | null} seconds @param {number} bank */
function clockSummary(seconds, bank) {
  if (!seconds) return t("lobby.clock.none");
  const clock =
    seconds % 60 === 0
      ? tp("lobby.clock.minutes", seconds / 60)
      : tp("lobby.clock.seconds", seconds);
  if (bank === usualBank(seconds)) return clock;
  if (!bank) return t("lobby.clock.no_bank", { clock });
  const banked =
    bank % 60 === 0
      ? t("lobby.bank.minutes", { n: bank / 60 })
      : t("lobby.bank.seconds", { n: bank });
  return t("lobby.clock.bank", { clock, bank: banked });
}

/** Draw the page of the list the server answered, the filters and the pager. */
export function renderTables() {
  const mine = byId("my-tables");
  mine.replaceChildren(...listing.mine.map(tableItem));
  byId("mine").hidden = !listing.mine.length;
  const list = byId("tables");
  list.replaceChildren();
  const empty = byId("tables-empty");
  empty.hidden = listing.tables.length > 0;
  empty.textContent = t(
    listing.membersOnly
      ? "lobby.tables.members"
      : listing.filter === "all"
        ? "lobby.tables.empty"
        : "lobby.tables.none",
  );
  for (const table of listing.tables) list.append(tableItem(table));
  /** @type {NodeListOf<HTMLButtonElement>} */
  const filters = document.querySelectorAll("#filters [data-filter]");
  for (const button of filters) {
    button.setAttribute("aria-pressed", String(button.dataset.filter === listing.filter));
  }
  byId("pager").hidden = listing.pages <= 1;
  byId("page-info").textContent = t("lobby.page", {
    page: listing.page,
    pages: listing.pages,
  });
  byId("page-prev", HTMLButtonElement).disabled = listing.page <= 1;
  byId("page-next", HTMLButtonElement).disabled = listing.page >= listing.pages;
}

/** The list's filters (all, waiting, playing, finished) and the pager's buttons. */
export function buildFilters() {
  const box = byId("filters");
  box.replaceChildren();
  for (const name of FILTERS) {
    box.append(
      el("button", {
        type: "button",
        class: "small",
        dataset: { filter: name },
        "aria-pressed": String(name === listing.filter),
        "data-i18n": `lobby.filter.${name}`,
        text: t(`lobby.filter.${name}`),
        onclick: () => showList(name, 1),
      }),
    );
  }
  byId("page-prev").addEventListener("click", () => turnPage(-1));
  byId("page-next").addEventListener("click", () => turnPage(1));
  // Back and forward (and the address the page was opened at) say which list to show.
  addEventListener("popstate", () => {
    readAddress();
    refreshTables();
  });
  readAddress();
}

/** Take the filter and the page from the address (?status=playing&page=2); anything else
 * there is the whole list's first page. */
function readAddress() {
  const query = new URLSearchParams(location.search);
  const status = query.get("status");
  listing.filter = status !== null && FILTERS.includes(status) ? status : "all";
  const page = Number(query.get("page"));
  listing.page = Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The address of the list shown (the lobby's own when it is the whole list's first page). */
function listAddress() {
  const query = new URLSearchParams();
  if (listing.filter !== "all") query.set("status", listing.filter);
  if (listing.page > 1) query.set("page", String(listing.page));
  const search = query.toString();
  return `${location.pathname}${search ? `?${search}` : ""}${location.hash}`;
}

/** Show the filter's page, a step in the browser's history.
 * @param {string} filter @param {number} page */
function showList(filter, page) {
  if (filter === listing.filter && page === listing.page) return;
  listing.filter = filter;
  listing.page = page;
  history.pushState(null, "", listAddress());
  refreshTables();
}

/** @param {number} by pages forward (back: negative) */
function turnPage(by) {
  showList(listing.filter, Math.min(Math.max(listing.page + by, 1), listing.pages));
}

/** One table of the list: its status, score, seats and what can be done there.
 * @param {TableSummary} table */
function tableItem(table) {
  const id = String(table.id);
  const mine = tableKeys(id);
  const link = `/t/${encodeURIComponent(id)}`;
  const seats = el("ul", { class: "seat-list" });
  for (const s of table.seats ?? []) {
    if (table.status === "waiting" && s.kind === "open") {
      // An open seat of a waiting table is its own button: the list stays a line per table.
      seats.append(
        el(
          "li",
          { class: "seat-chip kind-open join", dataset: { seat: s.seat, kind: s.kind } },
          el(
            "button",
            { type: "button", "data-join": s.seat, onclick: () => openJoin(id, s.seat) },
            t("lobby.join", { seat: t(`seat.${s.seat}`) }),
          ),
        ),
      );
      continue;
    }
    // A person seated but not connected (a creator who never came to the table): whoever
    // joins should know the match may start with them away.
    const away = s.kind === "human" && !s.connected && table.status !== "finished";
    seats.append(
      el(
        "li",
        {
          class: `seat-chip kind-${s.kind}`,
          dataset: { seat: s.seat, kind: s.kind, ...(away ? { away: "" } : {}) },
        },
        el("b", {}, t(`seat.${s.seat}`)),
        " ", // read out as "S Aino", not "SAino"
        el("span", { class: "name", title: seatTitle(s) }, seatName(s)),
        ...(away
          ? [
              " ",
              el("span", { class: "away", title: t("lobby.seat.away.hint") }, t("lobby.seat.away")),
            ]
          : []),
      ),
    );
  }
  const actions = el("div", { class: "table-actions" });
  if (mine.token) {
    actions.append(
      el("a", { class: "button primary", href: link, "data-open": "" }, t("lobby.resume")),
    );
  }
  const open = table.status === "waiting" || table.status === "playing";
  if (mine.creator_token && open) {
    const close = async () => {
      if (await closeTable(id, tableName(table))) refreshTables();
    };
    actions.append(
      el("button", { type: "button", "data-close": "", onclick: close }, t("lobby.close")),
    );
  }
  if (table.status === "waiting") {
    if (!mine.token)
      actions.append(el("a", { class: "button", href: link, "data-open": "" }, t("lobby.watch")));
  } else if (table.status === "playing") {
    if (!mine.token)
      actions.append(el("a", { class: "button", href: link, "data-open": "" }, t("lobby.watch")));
  } else {
    // #replay: the table page shows this match's replay, not the rematch it may have led to.
    actions.append(
      el("a", { class: "button", href: `${link}#replay`, "data-open": "" }, t("lobby.replay")),
    );
    actions.append(
      el(
        "a",
        {
          class: "button",
          href: `/api/tables/${encodeURIComponent(id)}/record`,
          download: `valtti-${id}.json`,
          "data-record": "",
        },
        t("lobby.record"),
      ),
    );
  }
  const score = table.score ?? { NS: 0, EW: 0 };
  let status = t(`status.${table.status}`);
  const idle = table.idle
    ? [el("span", { class: "badge badge-idle", title: t("lobby.idle.hint") }, t("lobby.idle"))]
    : [];
  if (table.listed === false) {
    const hint = t("lobby.unlisted.hint");
    idle.push(el("span", { class: "badge badge-unlisted", title: hint }, t("lobby.unlisted")));
  }
  if (table.status === "finished" && table.winner) {
    status =
      table.winner === "draw"
        ? t("lobby.result.draw")
        : t("lobby.result.won", { team: t(`team.${table.winner}`) });
  }
  return el(
    "li",
    {
      class: `table-item status-${table.status}`,
      dataset: { table: id, status: table.status, ...(table.idle ? { idle: "" } : {}) },
    },
    el(
      "div",
      { class: "table-head" },
      el("span", { class: "table-name", title: t("lobby.table.id", { id }) }, tableName(table)),
      el("span", { class: `badge badge-${table.status}` }, status),
      ...idle,
      el("span", { class: "table-created" }, formatCreated(table.created)),
      el(
        "span",
        { class: "table-meta" },
        t("lobby.meta", {
          score: t("lobby.score", { ns: score.NS, ew: score.EW }),
          deals: tp("lobby.deals", table.deals ?? 0),
          clock: clockSummary(table.turn_seconds, table.time_bank_seconds ?? 0),
          hints: t(table.hints === false ? "lobby.hints.off" : "lobby.hints.on"),
          variant: variantSummary(table.variant),
        }),
      ),
    ),
    seats,
    actions,
  );
}

/** This browser's own tables as the server has them (none asked for: none). */
async function myTableSummaries() {
  const ids = myTables(MINE_MAX);
  if (!ids.length) return [];
  const data = await api("GET", `/api/tables?${new URLSearchParams({ ids: ids.join(",") })}`);
  return data.tables ?? [];
}

/** Ask the server for the list's page and this browser's own tables, and draw them.
 * @returns {Promise<void>} */
export async function refreshTables() {
  try {
    const query = new URLSearchParams({ page: String(listing.page) });
    if (listing.filter !== "all") query.set("status", listing.filter);
    const mine = ++listing.asked;
    const [data, own] = await Promise.all([api("GET", `/api/tables?${query}`), myTableSummaries()]);
    if (mine !== listing.asked) return;
    listing.mine = own;
    if (data.page > data.pages && listing.page > 1) {
      // The list got shorter since (or the address asked for a page past its end): show its
      // last page, and say so in the address.
      listing.page = data.pages;
      history.replaceState(null, "", listAddress());
      return refreshTables();
    }
    listing.tables = data.tables ?? [];
    listing.pages = data.pages ?? 1;
    listing.membersOnly = false;
    renderTables();
  } catch (err) {
    if (/** @type {ApiError} */ (err).code !== "not_signed_in") {
      toastFailure(err);
      return;
    }
    // A club's list is its members': say so where the tables would be.
    listing.tables = [];
    listing.pages = 1;
    listing.membersOnly = true;
    renderTables();
  }
}

/** Ask for a nickname to take `seat` at table `id`. @param {string} id @param {Seat} seat */
function openJoin(id, seat) {
  listing.joining = { id, seat };
  const dialog = byId("join-dialog", HTMLDialogElement);
  byId("join-title").textContent = t("lobby.join.title", {
    seat: t(`seat.${seat}`),
  });
  const input = one(dialog, 'input[name="join-nickname"]', HTMLInputElement);
  input.value = typedNickname() || savedNickname();
  dialog.showModal();
  input.focus();
}

/** Take the seat under the nickname given, and go to the table. @param {SubmitEvent} event */
async function join(event) {
  event.preventDefault();
  if (!listing.joining) return;
  const dialog = byId("join-dialog", HTMLDialogElement);
  const input = one(dialog, 'input[name="join-nickname"]', HTMLInputElement);
  const problem = nicknameProblem(input.value);
  if (problem) {
    toast(t(problem), "error", problem);
    input.focus();
    return;
  }
  const { id, seat } = listing.joining;
  const nickname = input.value.trim();
  try {
    await takeSeat(id, seat, nickname);
    location.assign(`/t/${encodeURIComponent(id)}`);
  } catch (err) {
    toastFailure(err);
    dialog.close();
    listing.joining = null;
    refreshTables();
  }
}

/** Wire the join dialog's buttons. */
export function initJoin() {
  byId("join-form", HTMLFormElement).addEventListener("submit", join);
  byId("join-cancel").addEventListener("click", () => {
    listing.joining = null;
    byId("join-dialog", HTMLDialogElement).close();
  });
}
