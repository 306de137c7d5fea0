// @ts-check
/**
 * Absent players on the table page (docs/WEB.md, "Absent players"): the turn clock running
 * down on the seat to move, who a computer player stands in for, the "take your seat back"
 * panel, and handing the seat of a person who is away to a stand-in.
 *
 * The table page calls noteState(message) for each state it receives (table-control.js),
 * seatAbsence(view, seat, entry) for each seat it draws (its badge, its clock and the hand-over
 * button: table-felt.js), renderAbsence(view) once per drawing (table-render.js), and
 * stopClock() when its connection is lost (table-socket.js): the clock stops where it was (the
 * server's may run on, or pause), until the next state says.
 *
 * Hooks for end-to-end tests:
 *   .turn-clock[data-clock-seat="N"][data-left="12"][data-bank="120"]  the clock on the seat
 *                      to move (whole seconds left of the turn, then of the seat's time bank,
 *                      which runs once data-left is 0: data-banked="true"; counting down between
 *                      states); body[data-clock-left], body[data-clock-bank];
 *                      data-paused="true" (greyed, not counting) while the connection is lost
 *   .badge.stand-in[data-stand-in-for="E"]  a computer player stands in for E's person
 *   button[data-stand-in="E"]  hand E's seat (its person is away) to a stand-in: any seated
 *                      person sees it
 *   #absent            shown while a computer player stands in for you; #take-back button
 *   #elsewhere         shown while your seat is played on another page or device (the server
 *                      said seat_elsewhere) and this page holds its token; #take-here button
 *                      ("This is my seat") plays it here again
 * Both panels are fixed under the top bar, over the felt and every other panel; the deal's end
 * panel moves down below the one shown (style.css reads --recovery-bottom, set here), so that
 * neither hides the other's heading or buttons.
 */

import { t } from "/static/i18n.js";
import { byId, el, tableKeys, toast } from "/static/common.js";
import { MESSAGE } from "/static/protocol.js";
import { ended, page } from "/static/table-state.js";

/**
 * @import { Seat, SeatEntry, Send, StateFrame } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 */

const TICK_MS = 250;

/** @typedef {{left: number, bank: number}} Left whole seconds left of the turn and the bank */

/**
 * The turn timed, when (performance.now()) its time is up and when its seat's bank is, and
 * what was left where it stopped (the connection was lost; null while it counts down).
 * @type {{seat: Seat, seconds: number, until: number, bankUntil: number, stopped: Left | null}
 *   | null}
 */
let clock = null;
/** @type {number | null} */
let ticker = null;
/** @type {Send} */
let sender = () => false;

/** How the page sends a message (`send(message)` returns whether it went) and plays its
 * seat here again ("This is my seat"). @param {Send} send @param {() => void} takeHere */
export function initAbsence(send, takeHere) {
  sender = send;
  byId("take-back").addEventListener("click", () => {
    if (!sender({ type: MESSAGE.BACK })) toast(t("error.offline"), "error", "offline");
  });
  byId("take-here").addEventListener("click", takeHere);
  window.addEventListener("resize", keepClear);
}

/** Let the panels under the top bar keep clear of the one that gives a person their seat back:
 * --recovery-bottom is where the one shown ends (0 when none is). */
function keepClear() {
  const shown = ["absent", "elsewhere"].map((id) => byId(id)).find((panel) => !panel.hidden);
  const bottom = shown ? Math.ceil(shown.getBoundingClientRect().bottom) : 0;
  document.documentElement.style.setProperty("--recovery-bottom", `${bottom}px`);
}

/** A state arrived: note its clock (seconds left as the server sent it).
 * @param {StateFrame} message */
export function noteState(message) {
  const c = message.clock;
  const until = c ? performance.now() + c.left * 1000 : 0;
  const bankUntil = c ? until + (c.bank ?? 0) * 1000 : 0;
  clock = c ? { seat: c.seat, seconds: c.seconds, until, bankUntil, stopped: null } : null;
  clearInterval(ticker ?? undefined);
  ticker = clock ? setInterval(tick, TICK_MS) : null;
}

/** The connection is lost: the clock stops where it is (nothing says the time ran out). */
export function stopClock() {
  clearInterval(ticker ?? undefined);
  ticker = null;
  if (clock && clock.stopped === null) clock.stopped = secondsLeft();
}

/** @returns {Left | null} */
function secondsLeft() {
  if (!clock) return null;
  if (clock.stopped !== null) return clock.stopped;
  const now = performance.now();
  return {
    left: Math.max(0, Math.ceil((clock.until - now) / 1000)),
    bank: Math.max(0, Math.ceil((clock.bankUntil - Math.max(now, clock.until)) / 1000)),
  };
}

/** What a clock shows: the turn's time, then the bank's. @param {Left} time */
function clockShown(time) {
  return time.left > 0 || time.bank === 0
    ? clockText(time.left)
    : t("absence.bank", { time: clockText(time.bank) });
}

/** Whether time is short: the turn's and the bank's together. @param {Left} time */
function isLow(time) {
  return time.left + time.bank <= 10;
}

/** @param {number} left */
function clockText(left) {
  const m = Math.floor(left / 60);
  const s = String(left % 60).padStart(2, "0");
  return `${m}:${s}`;
}

function tick() {
  const time = secondsLeft();
  /** @type {NodeListOf<HTMLElement>} */
  const clocks = document.querySelectorAll(".turn-clock");
  for (const node of clocks) {
    node.dataset.left = String(time?.left ?? "");
    node.dataset.bank = String(time?.bank ?? "");
    node.dataset.banked = String(!!time && time.left === 0);
    node.textContent = time ? clockShown(time) : "";
    node.title = clockTitle(time);
    node.classList.toggle("low", !!time && isLow(time));
  }
  showLeft(time);
  if (time && time.left === 0 && time.bank === 0) clearInterval(ticker ?? undefined);
}

/** @param {Left | null} time */
function showLeft(time) {
  document.body.dataset.clockLeft = time ? String(time.left) : "";
  document.body.dataset.clockBank = time ? String(time.bank) : "";
}

/** @param {Left | null} time */
function clockTitle(time) {
  if (!clock || !time) return "";
  if (clock.stopped !== null) return t("connection.clock");
  if (time.left === 0) return t("absence.bank.title", { time: clockText(time.bank) });
  return t("absence.clock.title", { seconds: clock.seconds, bank: clockText(time.bank) });
}

/** What one seat area shows of absence: nodes to append to its head and its tools.
 * @param {View} view @param {Seat} seat @param {SeatEntry | undefined} entry */
export function seatAbsence(view, seat, entry) {
  const head = [];
  const tools = [];
  if (entry?.kind === "human" && entry.stand_in) {
    head.push(
      el(
        "span",
        {
          class: "badge stand-in",
          "data-stand-in-for": seat,
          title: t("absence.stand_in.title", { player: t(`player.short.${entry.stand_in}`) }),
        },
        t("absence.stand_in"),
      ),
    );
  }
  if (!view.replay && clock && clock.seat === seat && view.table?.status === "playing") {
    const time = secondsLeft() ?? { left: 0, bank: 0 };
    const paused = clock.stopped !== null;
    head.push(
      el(
        "span",
        {
          class: `turn-clock${isLow(time) ? " low" : ""}${paused ? " paused" : ""}`,
          "data-clock-seat": seat,
          "data-left": String(time.left),
          "data-bank": String(time.bank),
          "data-banked": String(time.left === 0),
          "data-paused": String(paused),
          role: "timer",
          title: clockTitle(time),
        },
        clockShown(time),
      ),
    );
  }
  const creator = tableKeys(tableId()).creator_token;
  const away = entry?.kind === "human" && !entry.connected && !entry.stand_in;
  // The creator hands a seat over with the choice of player (table-felt.js); anyone else seated
  // with this button.
  if (!view.replay && view.you && !creator && away && !ended(view)) {
    tools.push(
      el(
        "button",
        {
          type: "button",
          class: "small",
          "data-stand-in": seat,
          onclick: () => {
            if (!sender({ type: MESSAGE.STAND_IN, seat })) {
              toast(t("error.offline"), "error", "offline");
            }
          },
        },
        t("absence.hand_over"),
      ),
    );
  }
  return { head, tools };
}

/** The panel that tells you a computer player stands in for you. @param {View} view */
export function renderAbsence(view) {
  const mine = view.you ? (view.table?.seats ?? []).find((s) => s.seat === view.you) : null;
  const away = !view.replay && !!mine?.stand_in && !ended(view);
  byId("absent").hidden = !away;
  document.body.dataset.standIn = String(away);
  // Moved to another page or device: this page holds the key, so its person may play here.
  const elsewhere = !view.replay && page.connection.elsewhere && !!tableKeys(page.id).token;
  byId("elsewhere").hidden = !elsewhere;
  document.body.dataset.elsewhere = String(elsewhere);
  keepClear();
  showLeft(secondsLeft());
}

function tableId() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
}
