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
 *   .turn-clock[data-clock-seat="N"][data-left="12"]  the clock on the seat to move (whole
 *                      seconds left, counting down between states); body[data-clock-left];
 *                      data-paused="true" (greyed, not counting) while the connection is lost
 *   .badge.stand-in[data-stand-in-for="E"]  a computer player stands in for E's person
 *   button[data-stand-in="E"]  hand E's seat (its person is away) to a stand-in: any seated
 *                      person sees it
 *   #absent            shown while a computer player stands in for you; #take-back button
 */

import { t } from "/static/i18n.js";
import { el, tableKeys, toast } from "/static/common.js";
import { MESSAGE } from "/static/protocol.js";

/**
 * @import { Seat, SeatEntry, Send, StateFrame } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 */

const TICK_MS = 250;

/**
 * The turn timed, when (performance.now()) it is up, and the seconds left where it stopped
 * (the connection was lost; null while it counts down).
 * @type {{seat: Seat, seconds: number, until: number, stopped: number | null} | null}
 */
let clock = null;
/** @type {number | null} */
let ticker = null;
/** @type {Send} */
let sender = () => false;

/** How the page sends a message: `send(message)` returns whether it went. @param {Send} send */
export function initAbsence(send) {
  sender = send;
  document.getElementById("take-back").addEventListener("click", () => {
    if (!sender({ type: MESSAGE.BACK })) toast(t("error.offline"), "error", "offline");
  });
}

/** A state arrived: note its clock (seconds left as the server sent it).
 * @param {StateFrame} message */
export function noteState(message) {
  const c = message.clock;
  const until = c ? performance.now() + c.left * 1000 : 0;
  clock = c ? { seat: c.seat, seconds: c.seconds, until, stopped: null } : null;
  clearInterval(ticker);
  ticker = clock ? setInterval(tick, TICK_MS) : null;
}

/** The connection is lost: the clock stops where it is (nothing says the time ran out). */
export function stopClock() {
  clearInterval(ticker);
  ticker = null;
  if (clock && clock.stopped === null) clock.stopped = secondsLeft();
}

function secondsLeft() {
  if (!clock) return null;
  if (clock.stopped !== null) return clock.stopped;
  return Math.max(0, Math.ceil((clock.until - performance.now()) / 1000));
}

/** @param {number} left */
function clockText(left) {
  const m = Math.floor(left / 60);
  const s = String(left % 60).padStart(2, "0");
  return `${m}:${s}`;
}

function tick() {
  const left = secondsLeft();
  /** @type {NodeListOf<HTMLElement>} */
  const clocks = document.querySelectorAll(".turn-clock");
  for (const node of clocks) {
    node.dataset.left = String(left ?? "");
    node.textContent = clockText(left ?? 0);
    node.classList.toggle("low", left !== null && left <= 10);
  }
  document.body.dataset.clockLeft = left === null ? "" : String(left);
  if (left === 0) clearInterval(ticker);
}

function clockTitle() {
  if (!clock) return "";
  if (clock.stopped !== null) return t("connection.clock");
  return t("absence.clock.title", { seconds: clock.seconds });
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
    const left = secondsLeft();
    const paused = clock.stopped !== null;
    head.push(
      el(
        "span",
        {
          class: `turn-clock${left <= 10 ? " low" : ""}${paused ? " paused" : ""}`,
          "data-clock-seat": seat,
          "data-left": String(left),
          "data-paused": String(paused),
          role: "timer",
          title: clockTitle(),
        },
        clockText(left),
      ),
    );
  }
  const creator = tableKeys(tableId()).creator_token;
  const away = entry?.kind === "human" && !entry.connected && !entry.stand_in;
  // The creator hands a seat over with the choice of player (table-felt.js); anyone else seated
  // with this button.
  if (!view.replay && view.you && !creator && away && view.table?.status !== "finished") {
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
  const away = !view.replay && !!mine?.stand_in && view.table?.status !== "finished";
  document.getElementById("absent").hidden = !away;
  document.body.dataset.standIn = String(away);
  document.body.dataset.clockLeft = clock ? String(secondsLeft()) : "";
}

function tableId() {
  return decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
}
