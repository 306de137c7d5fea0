// @ts-check
/**
 * The lobby (GET /): create a table, list tables to join, watch or replay.
 *
 * Hooks for end-to-end tests:
 *   #lang                          language switch (<select>, values "en" | "fi")
 *   #create-form                   the form creating a table; #create is its submit button
 *   #play-computer                 "Play against the computer" (or Enter in the nickname): the
 *                                  person at S, three heuristic players, no turn time, straight
 *                                  to the table (the form's name, hints and variants kept);
 *                                  without a nickname #nickname-problem says so (gone on typing)
 *   input[data-table-name]         the table's name (empty: "{nickname}'s table")
 *   details.variants               "More options", closed; #variants-now says the rules chosen
 *   select[data-turn-seconds]      the table's time for a turn in seconds ("0": no limit)
 *   select[data-time-bank]         under "More options": each person's time bank for the
 *                                  match in seconds ("": two turns' worth, the server's
 *                                  default; disabled with no limit), said in #variants-now
 *   input[data-hints]              checkbox: whether people may ask for a hint on their turn
 *   input[name="nickname"]         your nickname (remembered in localStorage)
 *   input[data-seat-choice="S"]    radio: the seat you take (N E S W), or data-seat-choice="none"
 *   select[data-seat-player="E"]   who sits at a seat you do not take: "open" (a person) or a
 *                                  computer player (random, heuristic, learned, search:easy|medium,
 *                                  search:hard, pimc:hard: each option says its level, its
 *                                  name the title); a table's .seat-chip .name says its seat
 *                                  and level ("West · rules of thumb", names.js), name the title
 *   select[data-variant="target"]  one per variant switch of RULES.md 8, default preselected;
 *                                  option values are the switch's values as text ("12", "false")
 *   #filters button[data-filter]   the list's filter: "all", "waiting", "playing", "finished"
 *                                  (the chosen one aria-pressed="true"); it and the page are the
 *                                  address's ?status=…&page=… (history entries)
 *   #pager                         #page-prev, #page-next, #page-info ("Page 1 of 3")
 *   #tables                        one page of the table list (waiting, then playing, then
 *                                  finished); each entry li[data-table="{id}"][data-status],
 *                                  with [data-idle] when nobody has been there for long;
 *                                  .table-name its name (its id the tooltip);
 *                                  .table-meta says its score, deals, time for a turn, hints
 *                                  and variant; li.seat-chip[data-away]: a person not connected
 *     button[data-join="N"]        take that open seat (opens #join-dialog)
 *     a[data-open]                 go to the table (yours, to watch, or to replay)
 *     a[data-record]               download the record of a finished match
 *   #mine                          "Your tables", shown when this browser holds a token for
 *                                  a table the server still lists for it (GET /api/tables?ids=):
 *                                  #my-tables, entries as #tables' (.badge-unlisted: in no
 *                                  public list); button[data-close] for its creator, asking
 *                                  first (dialog.confirm-dialog [data-confirm="yes" | "no"])
 *   #join-dialog                   nickname prompt: input[name="join-nickname"], #join-ok,
 *                                  #join-cancel
 *   #toasts .toast[data-code]      error messages
 *   #club-ratings          club mode, signed in: the members' ratings, best first
 *                          (#rating-list li[data-member] .name .rating)
 * Tokens: localStorage "valtti:table:{id}" = {"token", "seat", "creator_token", "at"}.
 * Modules: lobby.js (this: the page's start), lobby-form.js (the form that creates a table),
 * lobby-list.js (the list of tables and the join dialog).
 */

import { initI18n, onLangChange } from "/static/i18n.js";
import { showClubBar } from "/static/club-bar.js";
import { api, byId, el, showLoopbackWarning, tableOptions } from "/static/common.js";
import { initForm } from "/static/lobby-form.js";
import { buildFilters, initJoin, refreshTables, renderTables } from "/static/lobby-list.js";

const REFRESH_MS = 3000;
/** Members the lobby's ratings list shows at most. */
const RATINGS_SHOWN = 10;

/** Club mode: the members' ratings, best first (#club-ratings: the first RATINGS_SHOWN). */
async function showRatings() {
  /** @type {import("/static/club-bar.js").Member[]} */
  const members = await api("GET", "/api/club/members");
  byId("rating-list", HTMLOListElement).replaceChildren(
    ...members
      .filter((m) => !m.disabled)
      .slice(0, RATINGS_SHOWN)
      .map((m) =>
        el(
          "li",
          { dataset: { member: String(m.id) } },
          el("a", { class: "name", href: `/club/members/${m.id}` }, m.name),
          " ",
          el("span", { class: "rating" }, String(m.rating)),
        ),
      ),
  );
  byId("club-ratings", HTMLElement).hidden = false;
}

async function main() {
  const [, options, me] = await Promise.all([initI18n(), tableOptions(), showClubBar()]);
  initForm(options, me);
  if (me.member) showRatings();
  initJoin();
  byId("refresh").addEventListener("click", refreshTables);
  buildFilters();
  showLoopbackWarning("reach-warning");
  onLangChange(renderTables);
  await refreshTables();
  setInterval(() => {
    if (!document.hidden) refreshTables();
  }, REFRESH_MS);
}

main();
