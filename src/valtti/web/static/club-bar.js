// @ts-check
/**
 * Club mode's part of every page (docs/HOSTING.md, "A club"): who is signed in, in the top bar.
 *
 * clubMe() asks GET /api/club/me once and, signed in, makes api() send the session's CSRF
 * token with every change. showClubBar() puts a#club-link in the page's .topbar: the member's
 * name (to /club) or "Sign in"; nothing on a server that is not a club's.
 */

import { api, i18nEl, useCsrf } from "/static/common.js";

/** @typedef {{id: number, name: string, admin: boolean, disabled: boolean, rating: number,
 *   mu: number, sigma: number}} Member */
/** @typedef {{club: boolean, setup: boolean, member: Member | null, csrf: string | null}} Me */

/** @type {Promise<Me> | null} */
let asked = null;

/** Whether the server is a club's and who is signed in (asked once a page). @returns {Promise<Me>} */
export function clubMe() {
  asked ??= api("GET", "/api/club/me")
    .then((/** @type {Me} */ me) => {
      useCsrf(me.csrf || "");
      return me;
    })
    .catch(() => /** @type {Me} */ ({ club: false, setup: false, member: null, csrf: null }));
  return asked;
}

/** Ask again (after signing in or out). */
export function forgetMe() {
  asked = null;
}

/** Show who is signed in in the top bar. @returns {Promise<Me>} */
export async function showClubBar() {
  const me = await clubMe();
  const bar = document.querySelector(".topbar");
  if (!me.club || !bar) return me;
  document.getElementById("club-link")?.remove();
  const link = me.member
    ? Object.assign(document.createElement("a"), { textContent: me.member.name })
    : i18nEl("a", "club.signin.link");
  link.id = "club-link";
  link.className = "button small club-link";
  link.setAttribute("href", "/club");
  bar.querySelector(".spacer")?.after(link);
  return me;
}
