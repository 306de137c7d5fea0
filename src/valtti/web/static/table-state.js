// @ts-check
/**
 * The table page's state: one object, `page`, which the page's modules read and each changes
 * only what its own field says; the views drawn from it (the live state's, or a replay step's);
 * and what is read off a view (a seat's entry, where each seat sits, a trick's plays, what an
 * action token asks for).
 *
 * Nothing here draws: `render()` asks the page to draw itself afresh (table.js gives the
 * drawing, table-render.js's, with drawWith), so that the modules below the drawing (the socket,
 * the replay, the frames' handling) can ask for it without importing it.
 */

import { parseCard } from "/static/cards.js";

/**
 * @import { Between, DealSummary, Observation, ReplayStep, Seat, SeatEntry, StateFrame,
 *   Suit, TableSummary, Team, Trick } from "/static/protocol.js"
 */

/** @type {readonly Seat[]} */
export const SEATS = ["N", "E", "S", "W"];
/** @type {Readonly<Record<Seat, Team>>} */
export const TEAM_OF = { N: "NS", S: "NS", E: "EW", W: "EW" };

/**
 * @typedef {object} View what the page draws: the live state's, or a replay step's
 * @property {TableSummary} table
 * @property {Seat | null} you your seat (null: watching, or a replay)
 * @property {number} seq
 * @property {number} deal
 * @property {Observation | null} obs
 * @property {Trick | null} lastTrick
 * @property {DealSummary[]} deals
 * @property {Between | null} [between] the live view's only
 * @property {number[]} timedOut indices in `obs.history` of the moves a computer player made
 *   for a person out of time (the live view's; a replay's: none)
 * @property {Record<Seat, string[]> | null} hands every hand: a replay's only
 * @property {boolean} replay
 * @property {string | null} [action] a replay step's action
 * @property {Seat | null} [actor] who took it
 */

/**
 * @typedef {object} Connection the page's WebSocket and its reconnection (table-socket.js)
 * @property {WebSocket | null} socket the connection in use (null between one and the next)
 * @property {number} backoff how long to wait before the next try (ms)
 * @property {number | null} reconnectTimer
 * @property {number | null} pingTimer
 * @property {() => void} probe ping the open connection now, and drop it if no answer comes
 * @property {boolean} lost the connection dropped: what the page shows is stale until a state
 *   comes on a new one
 * @property {number | null} backTimer while the banner says the connection is back
 * @property {boolean} leaving the page is being left: its socket closing is no lost connection
 * @property {boolean} stopped the table does not exist: no reconnecting
 * @property {boolean} elsewhere the seat is played on another page or device now (the server
 *   said seat_elsewhere): connect without its token until the person says "This is my seat"
 */

/** @typedef {{steps: ReplayStep[], index: number, timer: number | null}} Replay */

/**
 * @typedef {object} PageState
 * @property {string} id the table shown: the address's, then each rematch the page goes on to
 * @property {StateFrame | null} state the latest state frame
 * @property {boolean} pending an action is on its way: wait for the next state or error
 * @property {Connection} connection
 * @property {{trick: Trick, until: number} | null} hold a completed trick kept in the middle
 * @property {number | null} holdTimer when the held trick gives way
 * @property {Replay | null} replay the replay shown, and its place
 * @property {boolean} replayAsked opened at /t/{id}#replay (the lobby's Replay): this match's
 *   replay, not the rematch it led to
 * @property {boolean} replayOpened that replay was started
 * @property {boolean} lastTrickOpen #last-trick is shown
 * @property {string | null} whyCard the hand's card whose reason #hand-why shows
 * @property {string[]} computerPlayers the players a seat may be handed to (GET /api/options)
 */

/** @type {PageState} */
export const page = {
  id: decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? ""),
  state: null,
  pending: false,
  connection: {
    socket: null,
    backoff: 500,
    reconnectTimer: null,
    pingTimer: null,
    probe: () => {},
    lost: false,
    backTimer: null,
    leaving: false,
    stopped: false,
    elsewhere: false,
  },
  hold: null,
  holdTimer: null,
  replay: null,
  replayAsked: location.hash === "#replay",
  replayOpened: false,
  lastTrickOpen: false,
  whyCard: null,
  computerPlayers: [],
};

const drawing = { draw: () => {} };

/** Draw the page afresh from `page`. */
export function render() {
  drawing.draw();
}

/** How the page draws itself (table.js, once). @param {() => void} draw */
export function drawWith(draw) {
  drawing.draw = draw;
}

/* ---------- views: the live state, or a replay step ---------- */

/** The live state's view (the page has a state). @returns {View} */
export function liveView() {
  const state = page.state;
  if (state === null) throw new Error("no state has come yet");
  return {
    table: state.table,
    you: state.you ?? null,
    seq: state.seq,
    deal: state.deal,
    obs: state.observation,
    lastTrick: state.last_trick ?? null,
    deals: state.deals ?? [],
    between: state.between ?? null,
    timedOut: state.timed_out ?? [],
    hands: null,
    replay: false,
  };
}

/** The replay shown, asked for only while one is. @returns {Replay} */
export function shownReplay() {
  if (page.replay === null) throw new Error("no replay is shown");
  return page.replay;
}

/** The replay's view of its step (a replay is shown, opened from the table's state).
 * @returns {View} */
export function replayView() {
  const replay = shownReplay();
  if (page.state === null) throw new Error("a replay is opened from the table's state");
  const step = replay.steps[replay.index];
  const obs = step.observation;
  const tricks = obs?.tricks ?? [];
  return {
    table: page.state.table,
    you: null,
    seq: step.seq,
    deal: step.deal,
    obs,
    lastTrick: tricks.length ? tricks[tricks.length - 1] : null,
    deals: step.deals ?? [],
    timedOut: [],
    hands: step.hands ?? null,
    replay: true,
    action: step.action,
    // Who took the step's action: the seat to move before it (for an answer, the asker's
    // partner: a replay shows the answer pending, WEB.md).
    actor: replay.index > 0 ? (replay.steps[replay.index - 1].observation?.to_move ?? null) : null,
  };
}

/** What the page shows now: the replay, else the live state, else nothing yet. */
export function currentView() {
  if (page.replay) return replayView();
  return page.state ? liveView() : null;
}

/** Whether `view` shows the live table while the connection is lost: it may be out of date,
 * and nothing in it may be played (a replay is all here: it is not stale). @param {View} view */
export function stale(view) {
  return page.connection.lost && !view.replay;
}

/* ---------- read off a view ---------- */

/** @param {TableSummary | undefined} table @param {Seat} seat @returns {SeatEntry | undefined} */
export function seatEntry(table, seat) {
  return (table?.seats ?? []).find((s) => s.seat === seat);
}

/** Where each seat sits on the felt with `bottom` at the bottom.
 * @param {Seat} bottom @returns {Record<Seat, "bottom" | "left" | "top" | "right">} */
export function positions(bottom) {
  const i = SEATS.indexOf(bottom);
  return /** @type {Record<Seat, "bottom" | "left" | "top" | "right">} */ ({
    [SEATS[i]]: "bottom",
    [SEATS[(i + 1) % 4]]: "left",
    [SEATS[(i + 2) % 4]]: "top",
    [SEATS[(i + 3) % 4]]: "right",
  });
}

/** A trick's plays in order. @param {Trick} trick @returns {{seat: Seat, card: string}[]} */
export function trickPlays(trick) {
  const start = SEATS.indexOf(trick.leader);
  return trick.cards.map((c, i) => ({ seat: SEATS[(start + i) % 4], card: c }));
}

/** @typedef {{index: number, token: string, seat: Seat, event: number | null}} Stood a move a
 * computer player made for a person out of time: its index in the deal's history, its token,
 * the person's seat, and for a declaration or a question its index in the deal's events */

/** The moves of the view's deal that a computer player made for a person whose time ran out
 * (the state's timed_out), each with who it was made for: a card's seat from its trick, a
 * declaration's or a question's from its event (the deal's events are its history's tokens
 * that are not cards, in order). @param {View} view @returns {Stood[]} */
export function timedOutMoves(view) {
  const obs = view.obs;
  if (!obs || !view.timedOut.length) return [];
  const tricks = [...(obs.tricks ?? [])];
  if (obs.current_trick?.cards.length) tricks.push(obs.current_trick);
  /** @type {Map<string, Seat>} */
  const playedBy = new Map(tricks.flatMap(trickPlays).map((p) => [p.card, p.seat]));
  const events = obs.events ?? [];
  /** @type {Stood[]} */
  const moves = [];
  let event = 0;
  obs.history.forEach((token, index) => {
    const card = !!parseCard(token);
    const at = card ? null : event++;
    const seat = at === null ? playedBy.get(token) : events[at]?.seat;
    if (seat && view.timedOut.includes(index)) moves.push({ index, token, seat, event: at });
  });
  return moves;
}

/**
 * @typedef {object} ParsedToken what an action token asks for
 * @property {"play" | "declare" | "answer" | "ask-whole" | "ask-half" | "unknown"} kind
 * @property {Suit | null} [suit] a declaration's, a question's or an answer's
 * @property {string} [card] a play's
 */

/** What an action token asks for: {kind, suit?, card?}; both "declare H" and "declare:H" forms.
 * @param {string} token @returns {ParsedToken} */
export function parseToken(token) {
  if (parseCard(token)) return { kind: "play", card: token };
  const words = String(token)
    .trim()
    .split(/[\s:]+/);
  const w0 = words[0].toLowerCase();
  const suit = (/** @type {string | undefined} */ w) =>
    /** @type {Suit} */ (w ? w.toUpperCase() : null);
  if (w0 === "declare") return { kind: "declare", suit: suit(words[1]) };
  if (w0 === "answer") return { kind: "answer", suit: suit(words[1]) };
  if (w0 === "ask-whole" || (w0 === "ask" && words[1] === "whole")) return { kind: "ask-whole" };
  if (w0 === "ask-half") return { kind: "ask-half", suit: suit(words[1]) };
  if (w0 === "ask" && words[1] === "half") return { kind: "ask-half", suit: suit(words[2]) };
  return { kind: "unknown" };
}

/** The legal actions of your seat now (none in a replay, for a spectator, off your turn or
 * at a table that is not being played: a closed one's position still has legal moves).
 * @param {View} view @returns {string[]} */
export function myLegal(view) {
  if (view.replay || !view.you || !view.obs || view.obs.to_move !== view.you) return [];
  if (view.table?.status !== "playing") return [];
  return view.obs.legal ?? [];
}

/** Whether the view's table is over: its match finished, or the table closed before.
 * @param {View} view */
export function ended(view) {
  const status = view.table?.status;
  return status === "finished" || status === "closed";
}
