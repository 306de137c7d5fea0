// @ts-check
/**
 * The lobby's form that creates a table (#create-form): first "Play against the computer" (your
 * nickname, one click: you at south, three computer players, the table dealt), then a table of
 * your own: its name (yours by default: "Anna's table"), the time for a turn, hints, the seats
 * (yours, and who sits at each other one), and under "More options" each person's time bank
 * for the match and the variant switches of RULES.md 8 (GET /api/options). Its hooks are listed in lobby.js.
 */

import { onLangChange, t } from "/static/i18n.js";
import {
  api,
  byId,
  el,
  i18nEl,
  nicknameProblem,
  one,
  savedNickname,
  saveNickname,
  saveTableKeys,
  toastFailure,
} from "/static/common.js";

/** @import { Options, Seat, VariantChanges } from "/static/protocol.js" */
/**
 * @typedef {object} Seating who sits where at a new table, and each person's time
 * @property {Partial<Record<Seat, string>>} seats
 * @property {Seat | null} seat
 * @property {number} turn_seconds each person's time for a turn (0: no limit)
 * @property {number} [time_bank_seconds] each person's time bank for the match (not given: the
 *   server's, two turns' worth)
 */

/** @type {Seat[]} */
const SEATS = ["N", "E", "S", "W"];
const DEFAULT_SEAT = "S";
const DEFAULT_COMPUTER = "club";
/** "Play against the computer": you at south, and at the other seats the computer player a
 * newcomer can beat and learn from, with no clock (nobody waits on you). @type {Seating} */
const AGAINST_COMPUTER = {
  seats: { N: DEFAULT_COMPUTER, E: DEFAULT_COMPUTER, S: "open", W: DEFAULT_COMPUTER },
  seat: "S",
  turn_seconds: 0,
};

/** What the form offers, from the engine (GET /api/options). */
const choices = {
  /** @type {Options["variant"]} the variant switches: values, default first */
  variants: [],
  /** @type {string[]} */
  computerPlayers: [],
  /** @type {Options["levels"]} the levels among them, weakest first */
  levels: [],
  /** @type {string} the date of the leaderboard that measured the levels */
  measured: "",
};

const form = byId("create-form", HTMLFormElement);

/** The nickname field. */
function nicknameField() {
  return /** @type {HTMLInputElement} */ (form.elements.namedItem("nickname"));
}

/** The table name field. */
function nameField() {
  return /** @type {HTMLInputElement} */ (form.elements.namedItem("table-name"));
}

/** The nickname typed in the form, trimmed. */
export function typedNickname() {
  return nicknameField().value.trim();
}

/** Build the form from the server's options and let it be sent; in club mode (`me`) a member
 * plays under their name, and a visitor is told to sign in (#club-notice).
 * @param {Options} options @param {import("/static/club-bar.js").Me} [me] */
export function initForm(options, me) {
  choices.variants = options.variant;
  choices.computerPlayers = options.players;
  choices.levels = options.levels;
  choices.measured = options.measured;
  buildSeatRows();
  buildVariantRows();
  // Keep what was typed while the page was loading.
  nicknameField().value ||= savedNickname();
  if (me?.member) {
    // Club mode: a member plays under their member's name.
    nicknameField().value = me.member.name;
    nicknameField().readOnly = true;
  } else if (me?.club) {
    byId("club-notice").hidden = false;
  }
  nicknameField().addEventListener("input", () => {
    showProblem(null);
    sayDefaults();
  });
  // Enter after the nickname does what the button beside it says.
  nicknameField().addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    event.preventDefault();
    playComputer();
  });
  form.addEventListener("change", syncBank);
  form.addEventListener("change", sayDefaults);
  syncBank();
  onLangChange(sayDefaults);
  sayDefaults();
  form.addEventListener("submit", createTable);
  const play = byId("play-computer", HTMLButtonElement);
  play.addEventListener("click", playComputer);
  // Disabled in the page until now, so a click cannot submit the form the browser's own way.
  byId("create", HTMLButtonElement).disabled = false;
  play.disabled = false;
}

/** What the form does unless told otherwise, said in the page's language: the table's name
 * (the nickname's table), who plays against you, and the rules under "More options". */
function sayDefaults() {
  const nickname = typedNickname();
  nameField().placeholder = nickname
    ? t("lobby.name.default", { name: nickname })
    : t("lobby.name.placeholder");
  byId("play-note").textContent = t("lobby.play.note", {
    level: t(`player.level.${DEFAULT_COMPUTER}`),
  });
  byId("levels-note").replaceChildren(...(choices.levels.length ? levelsNote() : []));
  const now = t("lobby.more.now", { variant: variantSummary(variantChanges()) });
  const bank = one(form, "[data-time-bank]", HTMLSelectElement);
  // A time bank chosen under "More options" is said beside it while they are folded.
  const banked =
    bank.value && !bank.disabled
      ? t("lobby.more.bank", { bank: bank.selectedOptions[0]?.textContent ?? "" })
      : "";
  byId("variants-now").textContent = banked ? `${now}${t("lobby.separator")}${banked}` : now;
}

/** A table with no time for a turn has no time bank: its choice is off then. */
function syncBank() {
  const turn = one(form, "[data-turn-seconds]", HTMLSelectElement);
  const bank = one(form, "[data-time-bank]", HTMLSelectElement);
  bank.disabled = turn.value === "0";
}

/** Say what is wrong with the nickname beside its field, or nothing (null); it goes once the
 * person types. @param {string | null} problem a catalogue key */
function showProblem(problem) {
  const said = byId("nickname-problem");
  said.hidden = !problem;
  said.textContent = problem ? t(problem) : "";
  nicknameField().toggleAttribute("aria-invalid", Boolean(problem));
}

/** A table's variant in words ("basic rules", "Target: 12"). @param {VariantChanges} variant */
export function variantSummary(variant) {
  const parts = [];
  for (const [name, value] of Object.entries(variant ?? {})) {
    const key = `variant.${name}.${String(value)}`;
    parts.push(t("lobby.variant.switch", { name: t(`variant.${name}`), value: t(key) }));
  }
  return parts.length ? parts.join(t("lobby.separator")) : t("lobby.variant.default");
}

/** A seat's computer players: the levels, weakest first, then the other programs, each its
 * own group; an option's title names the program. */
function computerOptions() {
  const levels = new Set(choices.levels.map((level) => level.player));
  /** @param {string} player */
  const option = (player) =>
    el("option", {
      value: player,
      title: player,
      "data-i18n": `player.short.${player}`,
      text: t(`player.short.${player}`),
    });
  /** @param {string} key @param {string[]} players */
  const group = (key, players) => {
    const g = el("optgroup", { label: t(key) }, ...players.map(option));
    g.dataset.i18nLabel = key;
    return g;
  };
  return [
    group(
      "lobby.levels",
      choices.levels.map((level) => level.player),
    ),
    group(
      "lobby.programs",
      choices.computerPlayers.filter((p) => !levels.has(p)),
    ),
  ];
}

/** The levels in words with how strong each is, from the leaderboard ("Beginner
 * (beginner): 0.64 game points a deal below the club player"); each program's name is code,
 * the same in every language. */
function levelsNote() {
  const mark = "\u0000";
  const items = choices.levels.map((level) => {
    const word = t(`player.level.${level.player}`);
    const name = word.charAt(0).toLocaleUpperCase() + word.slice(1);
    const points = level.points ?? 0;
    const strength =
      level.low == null || level.high == null
        ? t("lobby.level.reference")
        : t(points < 0 ? "lobby.level.below" : "lobby.level.above", {
            points: formatPoints(Math.abs(points)),
          });
    const [before, after] = t("lobby.level", { name, player: mark, strength }).split(mark);
    return [before, el("code", { translate: "no", text: level.player }), after];
  });
  const separator = t("lobby.separator");
  const [head, tail] = t("lobby.levels.note", { levels: mark, date: choices.measured }).split(mark);
  return [head, ...items.flatMap((item, i) => (i ? [separator, ...item] : item)), tail];
}

/** @param {number} points */
function formatPoints(points) {
  return points.toLocaleString(document.documentElement.lang || "en", {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
}

/** A row per seat: "I sit here", or who sits there (open, or a computer player). */
function buildSeatRows() {
  const rows = byId("seat-rows");
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
    select.append(...computerOptions());
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
    one(row, "select", HTMLSelectElement).disabled = taken;
  }
}

function buildVariantRows() {
  const rows = byId("variant-rows");
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
    const select = one(form, `[data-variant="${v.name}"]`, HTMLSelectElement);
    const text = select.value;
    const value = v.values.find((x) => String(x) === text);
    if (value !== v.values[0]) changes[v.name] = value;
  }
  return changes;
}

/** Who sits where as the form says. @returns {Seating} */
function formSeating() {
  const seat = mySeat();
  /** @type {Partial<Record<Seat, string>>} */
  const seats = {};
  for (const s of SEATS) {
    const player = one(form, `[data-seat-player="${s}"]`, HTMLSelectElement);
    seats[s] = s === seat ? "open" : player.value;
  }
  const turnSeconds = one(form, "[data-turn-seconds]", HTMLSelectElement);
  const bank = one(form, "[data-time-bank]", HTMLSelectElement);
  const turn = Number(turnSeconds.value);
  // "Two turns' worth" is the server's own default: it is not sent.
  const banked = turn && bank.value !== "" ? { time_bank_seconds: Number(bank.value) } : {};
  return { seats, seat, turn_seconds: turn, ...banked };
}

/** The form's own table (the Create button). @param {SubmitEvent} event */
function createTable(event) {
  event.preventDefault();
  const seating = formSeating();
  make(seating, byId("create", HTMLButtonElement));
}

/** One click to a dealt table against three computer players. */
function playComputer() {
  make(AGAINST_COMPUTER, byId("play-computer", HTMLButtonElement));
}

/** Create the table (POST /api/tables) and go to it; a seated person needs a nickname first.
 * @param {Seating} seating @param {HTMLButtonElement} button the one pressed */
async function make(seating, button) {
  const nicknameInput = nicknameField();
  const nickname = nicknameInput.value.trim();
  if (seating.seat) {
    const problem = nicknameProblem(nicknameInput.value);
    if (problem) {
      showProblem(problem);
      nicknameInput.focus();
      return;
    }
  }
  const hints = one(form, "[data-hints]", HTMLInputElement);
  const typedName = nameField().value.trim();
  const name = typedName || (nickname ? t("lobby.name.default", { name: nickname }) : null);
  button.disabled = true;
  try {
    const made = await api("POST", "/api/tables", {
      variant: variantChanges(),
      ...seating,
      nickname,
      ...(name ? { name } : {}),
      hints: hints.checked,
    });
    if (nickname) saveNickname(nickname);
    saveTableKeys(made.id, {
      token: made.token ?? null,
      seat: made.seat ?? null,
      creator_token: made.creator_token,
      guest: made.guest_link ? new URL(made.guest_link).searchParams.get("guest") : null,
    });
    location.assign(`/t/${encodeURIComponent(made.id)}`);
  } catch (err) {
    toastFailure(err);
    button.disabled = false;
  }
}
