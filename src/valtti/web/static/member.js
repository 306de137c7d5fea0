// @ts-check
/**
 * A member's page (/club/members/{id}, docs/HOSTING.md "Ratings"): the rating, its history
 * with what changed it (a match, a club night), the finished matches behind it (each links to
 * its replay), and the member's records to download.
 *
 * Hooks for end-to-end tests:
 *   #member-name, #member-rating, #member-records (the download)
 *   #history tbody tr[data-source="table:ID" | "night:ID"]  .before .after
 *   #matches li a[data-table="{id}"]
 */

import { currentLang, initI18n, onLangChange, t } from "/static/i18n.js";
import { api, byId, el, toastFailure } from "/static/common.js";
import { showClubBar } from "/static/club-bar.js";

const memberId = decodeURIComponent(location.pathname.split("/").pop() || "");
/** @type {any} */
let page = null;

/** What changed a rating, as a link: a match's replay or a night's results.
 * @param {string} source */
function sourceLink(source) {
  const [kind, id] = source.split(":");
  return kind === "night"
    ? el("a", { href: `/club/nights/${id}` }, t("member.source.night"))
    : el("a", { href: `/t/${id}` }, t("member.source.table"));
}

function draw() {
  if (!page) return;
  const m = page.member;
  byId("member-name", HTMLElement).textContent = m.name;
  document.title = `${m.name} · ${t("member.title")}`;
  byId("member-rating", HTMLElement).textContent = String(m.rating);
  byId("member-mu", HTMLElement).textContent = t("member.mu", { mu: m.mu, sigma: m.sigma });
  const when = new Intl.DateTimeFormat(currentLang(), { dateStyle: "medium", timeStyle: "short" });
  byId("history", HTMLTableElement).tBodies[0].replaceChildren(
    ...page.history.map((/** @type {any} */ h) =>
      el(
        "tr",
        { dataset: { source: h.source } },
        el("td", {}, when.format(new Date(h.at))),
        el("td", {}, sourceLink(h.source)),
        el("td", { class: "before" }, String(h.before)),
        el("td", { class: "after" }, String(h.after)),
      ),
    ),
  );
  byId("history-none", HTMLElement).hidden = page.history.length > 0;
  byId("matches", HTMLUListElement).replaceChildren(
    ...page.tables.map((/** @type {any} */ table) =>
      el(
        "li",
        {},
        el(
          "a",
          { href: `/t/${table.id}`, dataset: { table: table.id } },
          t("member.match", {
            name: table.name || table.id,
            when: table.finished ? when.format(new Date(table.finished)) : "",
            seat: table.seat,
          }),
        ),
      ),
    ),
  );
  byId("matches-none", HTMLElement).hidden = page.tables.length > 0;
}

async function main() {
  await Promise.all([initI18n(), showClubBar()]);
  const base = `/api/club/members/${encodeURIComponent(memberId)}`;
  byId("member-records", HTMLAnchorElement).href = `${base}/records`;
  try {
    page = await api("GET", base);
  } catch (err) {
    toastFailure(err);
    return;
  }
  onLangChange(draw);
  draw();
}

main();
