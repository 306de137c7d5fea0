// @ts-check
/**
 * The lobby's form that creates a table (#create-form): the seats (yours, and who sits at each
 * other one), the time for a turn, hints, and the variant switches of RULES.md 8 (GET
 * /api/options). Its hooks are listed in lobby.js.
 */

import { t } from "/static/i18n.js";
import {
  api,
  byId,
  el,
  errorText,
  i18nEl,
  nicknameProblem,
  saveNickname,
  saveTableKeys,
  savedNickname,
  toast,
} from "/static/common.js";

/** @import { Options, Seat, VariantChanges } from "/static/protocol.js" */

/** @type {Seat[]} */
const SEATS = ["N", "E", "S", "W"];
const DEFAULT_SEAT = "S";
const DEFAULT_COMPUTER = "heuristic";
/** The lobby's one-column layout (style.css): the form above the list of tables. */
const ONE_COLUMN = "(max-width: 900px)";

/** What the form offers, from the engine (GET /api/options). */
const choices = {
  /** @type {Options["variant"]} the variant switches: values, default first */
  variants: [],
  /** @type {string[]} */
  computerPlayers: [],
};

const form = byId("create-form", HTMLFormElement);

/** The nickname field. */
function nicknameField() {
  return /** @type {HTMLInputElement} */ (form.elements.namedItem("nickname"));
}

/** The nickname typed in the form, trimmed. */
export function typedNickname() {
  return nicknameField().value.trim();
}

/** Build the form from the server's options and let it be sent. @param {Options} options */
export function initForm(options) {
  choices.variants = options.variant;
  choices.computerPlayers = options.players;
  buildSeatRows();
  buildVariantRows();
  // In one column (a phone) the open variants put the list of tables a long way down.
  if (matchMedia(ONE_COLUMN).matches) {
    /** @type {HTMLDetailsElement} */
    const details = document.querySelector("details.variants");
    details.open = false;
  }
  // Keep what was typed while the page was loading.
  nicknameField().value ||= savedNickname();
  form.addEventListener("submit", createTable);
  // Disabled in the page until now, so a click cannot submit the form the browser's own way.
  byId("create", HTMLButtonElement).disabled = false;
}

/** A row per seat: "I sit here", or who sits there (open, or a computer player). */
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
    for (const p of choices.computerPlayers) {
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

/** The seat you chose to take, or null (none). @returns {Seat | null} */
function mySeat() {
  /** @type {HTMLInputElement | null} */
  const chosen = form.querySelector('input[name="my-seat"]:checked');
  return chosen?.value ? /** @type {Seat} */ (chosen.value) : null;
}

function syncSeatRows() {
  const mine = mySeat();
  /** @type {NodeListOf<HTMLElement>} */
  const rows = document.querySelectorAll(".seat-row");
  for (const row of rows) {
    const taken = row.dataset.seat === mine;
    row.classList.toggle("mine", taken);
    row.querySelector("select").disabled = taken;
  }
}

function buildVariantRows() {
  const rows = document.getElementById("variant-rows");
  rows.replaceChildren();
  for (const v of choices.variants) {
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
  /** @type {VariantChanges} */
  const changes = {};
  for (const v of choices.variants) {
    /** @type {HTMLSelectElement} */
    const select = form.querySelector(`[data-variant="${v.name}"]`);
    const text = select.value;
    const value = v.values.find((x) => String(x) === text);
    if (value !== v.values[0]) changes[v.name] = value;
  }
  return changes;
}

/** Create the table (POST /api/tables) and go to it. @param {SubmitEvent} event */
async function createTable(event) {
  event.preventDefault();
  const nicknameInput = nicknameField();
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
  /** @type {Partial<Record<Seat, string>>} */
  const seats = {};
  for (const s of SEATS) {
    /** @type {HTMLSelectElement} */
    const player = form.querySelector(`[data-seat-player="${s}"]`);
    seats[s] = s === seat ? "open" : player.value;
  }
  /** @type {HTMLSelectElement} */
  const turnSeconds = form.querySelector("[data-turn-seconds]");
  /** @type {HTMLInputElement} */
  const hints = form.querySelector("[data-hints]");
  const button = byId("create", HTMLButtonElement);
  button.disabled = true;
  try {
    const made = await api("POST", "/api/tables", {
      variant: variantChanges(),
      seats,
      nickname,
      seat,
      // Each person's time for a turn before a stand-in plays it (0: no limit).
      turn_seconds: Number(turnSeconds.value),
      hints: hints.checked,
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
