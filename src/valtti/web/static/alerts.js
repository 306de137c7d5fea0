// @ts-check
/**
 * Telling a person what happens at the table when they are not looking at it:
 *   - the tab's title starts with a mark on your turn (t("alert.title.turn"));
 *   - an optional tone when your turn begins (Web Audio, made here: no file to fetch), off by
 *     default; the switch button#sound-toggle[aria-pressed] is kept in localStorage
 *     "valtti:sound" ("on" | "off");
 *   - #announcer, a polite live region: each play and each change of the turn line in words,
 *     for screen readers (p elements, the last few kept); #alerter, an assertive one
 *     (role="alert"), for what stops the person from playing (a lost connection).
 */

import { onLangChange, t } from "/static/i18n.js";
import { byId, el } from "/static/common.js";

/**
 * @import { Seat, Observation, Trick } from "/static/protocol.js"
 * @import { View } from "/static/table-state.js"
 */

const SOUND_KEY = "valtti:sound";
const KEEP = 12; // announcements kept in the live region

/** @type {AudioContext | null} */
let audio = null;
let wasMyTurn = false;
/** @type {{deal: number | null, plays: number}} plays of the deal already announced */
let heard = { deal: null, plays: 0 };
let lastTurnLine = "";

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

function drawSoundToggle() {
  const button = document.getElementById("sound-toggle");
  if (!button) return;
  const on = soundOn();
  button.setAttribute("aria-pressed", String(on));
  button.textContent = t(on ? "alert.sound.on" : "alert.sound.off");
  button.title = t("alert.sound.title");
}

/** The browser's AudioContext (older Safari's is webkitAudioContext). */
function audioContext() {
  const old = /** @type {Window & {webkitAudioContext?: typeof AudioContext}} */ (window);
  return window.AudioContext || old.webkitAudioContext;
}

/** A short rising two-note chime. */
export function chime() {
  const Context = audioContext();
  if (!Context) return;
  audio ??= new Context();
  const context = audio;
  if (context.state === "suspended") context.resume();
  const start = context.currentTime + 0.01;
  [660, 880].forEach((freq, i) => {
    const osc = context.createOscillator();
    const gain = context.createGain();
    const at = start + i * 0.14;
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.22);
    osc.connect(gain).connect(context.destination);
    osc.start(at);
    osc.stop(at + 0.25);
  });
}

/** Say text to screen readers: politely, or at once when it is `urgent` (it stops the person
 * from playing). @param {string} text @param {boolean} [urgent] */
export function announce(text, urgent = false) {
  if (!text) return;
  const box = byId(urgent ? "alerter" : "announcer");
  box.append(el("p", {}, text));
  while (box.childElementCount > KEEP) box.firstElementChild?.remove();
}

/** @typedef {(trick: Trick) => {seat: Seat, card: string}[]} Order a trick's plays in order */

/** The plays of the deal in order: [{seat, card}]. @param {Observation | null} obs
 * @param {Order} order */
function dealPlays(obs, order) {
  const tricks = [...(obs?.tricks ?? [])];
  if (obs?.current_trick?.cards?.length) tricks.push(obs.current_trick);
  return tricks.flatMap(order);
}

/**
 * Call after every redraw of a live view (not a replay).
 * view: the page's view; words(play): a play in words ("Aino (N) plays ace of spades");
 * order(trick): its plays in order; turnLine: what the turn line says now.
 * @param {View} view @param {(play: {seat: Seat, card: string}) => string} words
 * @param {Order} order @param {string} turnLine
 */
export function alertView(view, words, order, turnLine) {
  const obs = view.obs;
  const live = !view.replay && view.table?.status === "playing" && !!obs;
  const myTurn = live && !!view.you && obs.to_move === view.you && obs.phase !== "over";
  const title = t("table.title");
  document.title = myTurn ? t("alert.title.turn", { title }) : title;
  document.body.dataset.myTurn = String(myTurn);
  if (myTurn && !wasMyTurn && soundOn()) chime();
  wasMyTurn = myTurn;
  drawSoundToggle();
  if (view.replay || !obs) return;

  const say = (/** @type {{seat: Seat, card: string}} */ play) => announce(words(play));
  const plays = dealPlays(obs, order);
  if (heard.deal !== view.deal || plays.length < heard.plays) {
    // The deal's last plays may reach the page only as the next deal's last trick.
    const missing = 36 - heard.plays;
    if (
      heard.deal !== null &&
      view.deal === heard.deal + 1 &&
      view.lastTrick?.number === 9 &&
      missing <= 4
    )
      order(view.lastTrick)
        .slice(4 - missing)
        .forEach(say);
    heard = { deal: view.deal, plays: 0 };
  }
  plays.slice(heard.plays).forEach(say);
  heard.plays = plays.length;
  if (turnLine !== lastTurnLine) announce(turnLine);
  lastTurnLine = turnLine;
}

/** Build the live region and the sound switch (in the top bar, before the share button). */
export function initAlerts() {
  // The title is drawn here from now on (it changes with the turn), not by the catalogue pass.
  document.querySelector("title")?.removeAttribute("data-i18n");
  document.body.append(
    el("div", {
      id: "announcer",
      class: "visually-hidden",
      "aria-live": "polite",
      "aria-atomic": "false",
    }),
    el("div", { id: "alerter", class: "visually-hidden", role: "alert", "aria-atomic": "false" }),
  );
  // What was said in the other language is stale: say the turn again in the new one.
  onLangChange(() => {
    byId("announcer").replaceChildren();
    byId("alerter").replaceChildren();
  });
  const button = el("button", {
    type: "button",
    id: "sound-toggle",
    class: "small",
    onclick: () => {
      localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on");
      if (soundOn()) chime(); // a click may start audio: let the person hear what it will be
      drawSoundToggle();
    },
  });
  // A page reloaded with the sound on may start audio only after the person's first gesture.
  const wake = () => {
    if (soundOn() && audio?.state !== "running") {
      audio ??= new (audioContext())();
      audio.resume();
    }
  };
  document.addEventListener("pointerdown", wake, { once: true });
  document.addEventListener("keydown", wake, { once: true });
  const share = document.getElementById("share-btn");
  if (share) share.before(button);
  else document.querySelector(".topbar .spacer")?.after(button);
  drawSoundToggle();
}
