// @ts-check
/**
 * A club night's table on the table page (docs/HOSTING.md, "A club night"): once its round's
 * deals are played here, a link back to the night (#night-link), and the replay and record
 * kept back (#night-wait says why) until every table of the round has played them.
 */

import { api } from "/static/common.js";
import { clubMe } from "/static/club-bar.js";

const ASK_AGAIN_MS = 5000;

/** What the page knows of the table's night: none ("") until asked. */
export const night = { id: "", released: true, asked: false };

/** Ask once whether the finished table `tableId` is a club night's, and again until its round
 * is over everywhere; `changed` after each answer. @param {string} tableId
 * @param {() => void} changed */
export async function askNight(tableId, changed) {
  if (night.asked) return;
  night.asked = true;
  if (!(await clubMe()).club) return;
  const ask = async () => {
    try {
      const found = await api("GET", `/api/club/nights/table/${encodeURIComponent(tableId)}`);
      night.id = found.night;
      night.released = found.released;
    } catch {
      return; // no night's table, or not ours to know
    }
    changed();
    if (!night.released) setTimeout(ask, ASK_AGAIN_MS);
  };
  await ask();
}
