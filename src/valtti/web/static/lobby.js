/**
 * The lobby (GET /): create a table, list tables to join, watch or replay.
 *
 * Hooks for end-to-end tests:
 *   #lang                          language switch (<select>, values "en" | "fi")
 *   #create-form                   the form creating a table; #create is its submit button
 *   select[data-turn-seconds]      the table's time for a turn in seconds ("0": no limit)
 *   input[data-hints]              checkbox: whether people may ask for a hint on their turn
 *   input[name="nickname"]         your nickname (remembered in localStorage)
 *   input[data-seat-choice="S"]    radio: the seat you take (N E S W), or data-seat-choice="none"
 *   select[data-seat-player="E"]   who sits at a seat you do not take: "open" (a person) or a
 *                                  computer player (random, heuristic, learned, search:easy|medium,
 *                                  search:hard, pimc:hard: each option says its level, its
 *                                  name the title); a table's .seat-chip .name likewise
 *   select[data-variant="target"]  one per variant switch of RULES.md 8, default preselected;
 *                                  option values are the switch's values as text ("12", "false")
 *   #filters button[data-filter]   the list's filter: "all", "waiting", "playing", "finished"
 *                                  (the chosen one aria-pressed="true")
 *   #pager                         #page-prev, #page-next, #page-info ("Page 1 of 3")
 *   #tables                        one page of the table list (waiting, then playing, then
 *                                  finished); each entry li[data-table="{id}"][data-status],
 *                                  with [data-idle] when nobody has been there for long;
 *                                  .table-meta says its score, deals, time for a turn, hints
 *                                  and variant; li.seat-chip[data-away]: a person not connected
 *     button[data-join="N"]        take that open seat (opens #join-dialog)
 *     a[data-open]                 go to the table (yours, to watch, or to replay)
 *     a[data-record]               download the record of a finished match
 *   #join-dialog                   nickname prompt: input[name="join-nickname"], #join-ok,
 *                                  #join-cancel
 *   #toasts .toast[data-code]      error messages
 * Tokens: localStorage "valtti:table:{id}" = {"token", "seat", "creator_token"}.
 */

import { initI18n, onLangChange, t, tp, currentLang } from "/static/i18n.js";
import {
  api,
  el,
  errorText,
  i18nEl,
  nicknameProblem,
  saveNickname,
  saveTableKeys,
  savedNickname,
  seatName,
  seatTitle,
  showLoopbackWarning,
  tableKeys,
  tableOptions,
  takeSeat,
  toast,
} from "/static/common.js";

const SEATS = ["N", "E", "S", "W"];

/** The variant switches of RULES.md 8, from the engine (GET /api/options): values, default
 * first. */
let variants = [];
let computerPlayers = [];

const DEFAULT_SEAT = "S";
const DEFAULT_COMPUTER = "heuristic";
const REFRESH_MS = 3000;

const FILTERS = ["all", "waiting", "playing", "finished"];

const form = document.getElementById("create-form");
let tables = [];
/** The list as shown: its filter, and the page and page count the server answered. */
let filter = "all";
let page = 1;
let pages = 1;
/** The number of the latest list request: an older answer arriving later is dropped. */
let asked = 0;
let joining = null; // {id, seat} while the nickname dialog is open

function buildSeatRows() {
  const rows = document.getElementById("seat-rows");
  rows.replaceChildren();
  for (const seat of SEATS) {
    // Each seat's controls are named by the seat in words ("north"): four radios all called
    // "I sit here" and four unnamed selects say nothing to a screen reader.
    const word = `seat-word-${seat}`;
    const select = el("select", {
      name: `seat-${seat}`,
      "data-seat-player": seat,
      "aria-labelledby": word,
    });
    select.append(
      el("option", { value: "open", "data-i18n": "lobby.seat.open", text: t("lobby.seat.open") }),
    );
    for (const p of computerPlayers) {
      select.append(
        el("option", {
          value: p,
          title: p,
          "data-i18n": `player.short.${p}`,
          text: t(`player.short.${p}`),
        }),
      );
    }
    select.value = DEFAULT_COMPUTER;
    const radio = el("input", {
      type: "radio",
      name: "my-seat",
      value: seat,
      "data-seat-choice": seat,
      checked: seat === DEFAULT_SEAT,
      "aria-labelledby": `${word} seat-mine-${seat}`,
    });
    rows.append(
      el(
        "div",
        { class: "seat-row", dataset: { seat } },
        el("span", { class: "seat-letter", "data-i18n": `seat.${seat}`, text: t(`seat.${seat}`) }),
        i18nEl("span", `seat.${seat}.name`, { id: word, class: "visually-hidden" }),
        el(
          "label",
          { class: "radio-row" },
          radio,
          i18nEl("span", "lobby.seat.mine", { id: `seat-mine-${seat}` }),
        ),
        select,
        i18nEl("span", "lobby.seat.you", { class: "you-mark" }),
      ),
    );
  }
  form.addEventListener("change", syncSeatRows);
  syncSeatRows();
}

function mySeat() {
  const chosen = form.querySelector('input[name="my-seat"]:checked');
  return chosen && chosen.value ? chosen.value : null;
}

function syncSeatRows() {
  const mine = mySeat();
  for (const row of document.querySelectorAll(".seat-row")) {
    const taken = row.dataset.seat === mine;
    row.classList.toggle("mine", taken);
    row.querySelector("select").disabled = taken;
  }
}

function buildVariantRows() {
  const rows = document.getElementById("variant-rows");
  rows.replaceChildren();
  for (const v of variants) {
    const select = el("select", { name: `variant-${v.name}`, "data-variant": v.name });
    for (const value of v.values) {
      const key = `variant.${v.name}.${String(value)}`;
      select.append(el("option", { value: String(value), "data-i18n": key, text: t(key) }));
    }
    select.value = String(v.values[0]);
    select.disabled = v.values.length === 1;
    rows.append(
      el("label", { class: "field variant-row" }, i18nEl("span", `variant.${v.name}`), select),
    );
  }
}

/** The switches that differ from the defaults, with the engine's value types. */
function variantChanges() {
  const changes = {};
  for (const v of variants) {
    const text = form.querySelector(`[data-variant="${v.name}"]`).value;
    const value = v.values.find((x) => String(x) === text);
    if (value !== v.values[0]) changes[v.name] = value;
  }
  return changes;
}

async function createTable(event) {
  event.preventDefault();
  const nicknameInput = form.elements.nickname;
  const seat = mySeat();
  const nickname = nicknameInput.value.trim();
  if (seat) {
    const problem = nicknameProblem(nicknameInput.value);
    if (problem) {
      toast(t(problem), "error", problem);
      nicknameInput.focus();
      return;
    }
  }
  const seats = {};
  for (const s of SEATS) {
    seats[s] = s === seat ? "open" : form.querySelector(`[data-seat-player="${s}"]`).value;
  }
  const button = document.getElementById("create");
  button.disabled = true;
  try {
    const made = await api("POST", "/api/tables", {
      variant: variantChanges(),
      seats,
      nickname,
      seat,
      // Each person's time for a turn before a stand-in plays it (0: no limit).
      turn_seconds: Number(form.querySelector("[data-turn-seconds]").value),
      hints: form.querySelector("[data-hints]").checked,
    });
    if (nickname) saveNickname(nickname);
    saveTableKeys(made.id, {
      token: made.token ?? null,
      seat: made.seat ?? null,
      creator_token: made.creator_token,
    });
    location.assign(`/t/${encodeURIComponent(made.id)}`);
  } catch (err) {
    toast(errorText(err.code), "error", err.code);
    button.disabled = false;
  }
}

function formatCreated(created) {
  if (created === null || created === undefined) return "";
  const date = typeof created === "number" ? new Date(created * 1000) : new Date(created);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(currentLang() === "fi" ? "fi-FI" : "en-GB", {
    dateStyle: "short",
    timeStyle: "short",
  });
}

function variantSummary(variant) {
  const parts = [];
  for (const [name, value] of Object.entries(variant ?? {})) {
    const key = `variant.${name}.${String(value)}`;
    parts.push(t("lobby.variant.switch", { name: t(`variant.${name}`), value: t(key) }));
  }
  return parts.length ? parts.join(t("lobby.separator")) : t("lobby.variant.default");
}

/** A table's time for a turn as the list says it ("30 seconds a turn", "no time limit"). */
function clockSummary(seconds) {
  if (!seconds) return t("lobby.clock.none");
  if (seconds % 60 === 0) return tp("lobby.clock.minutes", seconds / 60);
  return tp("lobby.clock.seconds", seconds);
}

function renderTables() {
  const list = document.getElementById("tables");
  list.replaceChildren();
  const empty = document.getElementById("tables-empty");
  empty.hidden = tables.length > 0;
  empty.textContent = t(filter === "all" ? "lobby.tables.empty" : "lobby.tables.none");
  for (const table of tables) list.append(tableItem(table));
  for (const button of document.querySelectorAll("#filters [data-filter]")) {
    button.setAttribute("aria-pressed", String(button.dataset.filter === filter));
  }
  document.getElementById("pager").hidden = pages <= 1;
  document.getElementById("page-info").textContent = t("lobby.page", { page, pages });
  document.getElementById("page-prev").disabled = page <= 1;
  document.getElementById("page-next").disabled = page >= pages;
}

function buildFilters() {
  const box = document.getElementById("filters");
  box.replaceChildren();
  for (const name of FILTERS) {
    box.append(
      el("button", {
        type: "button",
        class: "small",
        dataset: { filter: name },
        "aria-pressed": String(name === filter),
        "data-i18n": `lobby.filter.${name}`,
        text: t(`lobby.filter.${name}`),
        onclick: () => {
          filter = name;
          page = 1;
          refreshTables();
        },
      }),
    );
  }
  document.getElementById("page-prev").addEventListener("click", () => turnPage(-1));
  document.getElementById("page-next").addEventListener("click", () => turnPage(1));
}

function turnPage(by) {
  const next = Math.min(Math.max(page + by, 1), pages);
  if (next === page) return;
  page = next;
  refreshTables();
}

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
      el("span", { class: `badge badge-${table.status}` }, status),
      ...idle,
      el("span", { class: "table-id" }, t("lobby.table.id", { id })),
      el("span", { class: "table-created" }, formatCreated(table.created)),
      el(
        "span",
        { class: "table-meta" },
        t("lobby.meta", {
          score: t("lobby.score", { ns: score.NS, ew: score.EW }),
          deals: tp("lobby.deals", table.deals ?? 0),
          clock: clockSummary(table.turn_seconds),
          hints: t(table.hints === false ? "lobby.hints.off" : "lobby.hints.on"),
          variant: variantSummary(table.variant),
        }),
      ),
    ),
    seats,
    actions,
  );
}

async function refreshTables() {
  try {
    const query = new URLSearchParams({ page: String(page) });
    if (filter !== "all") query.set("status", filter);
    const mine = ++asked;
    const data = await api("GET", `/api/tables?${query}`);
    if (mine !== asked) return;
    if (data.page > data.pages && page > 1) {
      // The list got shorter since: show its last page.
      page = data.pages;
      return refreshTables();
    }
    tables = data.tables ?? [];
    pages = data.pages ?? 1;
    renderTables();
  } catch (err) {
    toast(errorText(err.code), "error", err.code);
  }
}

function openJoin(id, seat) {
  joining = { id, seat };
  const dialog = document.getElementById("join-dialog");
  document.getElementById("join-title").textContent = t("lobby.join.title", {
    seat: t(`seat.${seat}`),
  });
  const input = dialog.querySelector('input[name="join-nickname"]');
  input.value = form.elements.nickname.value.trim() || savedNickname();
  dialog.showModal();
  input.focus();
}

async function join(event) {
  event.preventDefault();
  if (!joining) return;
  const dialog = document.getElementById("join-dialog");
  const input = dialog.querySelector('input[name="join-nickname"]');
  const problem = nicknameProblem(input.value);
  if (problem) {
    toast(t(problem), "error", problem);
    input.focus();
    return;
  }
  const { id, seat } = joining;
  const nickname = input.value.trim();
  try {
    await takeSeat(id, seat, nickname);
    location.assign(`/t/${encodeURIComponent(id)}`);
  } catch (err) {
    toast(errorText(err.code), "error", err.code);
    dialog.close();
    joining = null;
    refreshTables();
  }
}

/** The lobby's one-column layout (style.css): the form above the list of tables. */
const ONE_COLUMN = "(max-width: 900px)";

async function main() {
  const [, options] = await Promise.all([initI18n(), tableOptions()]);
  variants = options.variant;
  computerPlayers = options.players;
  buildSeatRows();
  buildVariantRows();
  // In one column (a phone) the open variants put the list of tables a long way down.
  if (matchMedia(ONE_COLUMN).matches) document.querySelector("details.variants").open = false;
  // Keep what was typed while the page was loading.
  form.elements.nickname.value ||= savedNickname();
  form.addEventListener("submit", createTable);
  // Disabled in the page until now, so a click cannot submit the form the browser's own way.
  document.getElementById("create").disabled = false;
  document.getElementById("join-form").addEventListener("submit", join);
  document.getElementById("join-cancel").addEventListener("click", () => {
    joining = null;
    document.getElementById("join-dialog").close();
  });
  document.getElementById("refresh").addEventListener("click", refreshTables);
  buildFilters();
  showLoopbackWarning("reach-warning");
  onLangChange(renderTables);
  await refreshTables();
  setInterval(() => {
    if (!document.hidden) refreshTables();
  }, REFRESH_MS);
}

main();
