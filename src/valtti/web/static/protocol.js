// @ts-check
/**
 * A table's WebSocket protocol (docs/WEB.md) as the pages know it: the close codes and the
 * message types as constants, and the server's frames and the client's messages as JSDoc types
 * (for the type check, npm run check; nothing here runs but the constants).
 *
 * The constants are the server's own: tests/web/test_protocol_js.py reads this file and checks
 * them against valtti.web (each CLOSE_* code, each client message's type in messages.py, each
 * frame's type written by the server). The types' fields are too: tests/web/
 * test_protocol_fields.py holds each message and HTTP answer typedef to its Pydantic model
 * (messages.py, answers.py), and each frame of a real game, nested types and all, to its typedef.
 */

/** The codes a table's WebSocket is closed with. */
export const CLOSE = Object.freeze({
  /** No such table: nothing to reconnect to. */
  NO_TABLE: 4404,
  /** The seat token is unknown at this table. */
  BAD_TOKEN: 4401,
  /** Club mode: this visitor may not watch (members only, or a club night's round in play). */
  NOT_WATCHER: 4403,
  /** The connection kept flooding the table (throttled too often). */
  POLICY: 1008,
  /** The connection could not keep up with its frames. */
  TOO_SLOW: 1013,
});

/** The types of the client's messages (client → server). */
export const MESSAGE = Object.freeze({
  ACTION: "action",
  REPLACE: "replace",
  STAND_IN: "stand_in",
  BACK: "back",
  READY: "ready",
  CHAT: "chat",
  HINT: "hint",
  PING: "ping",
});

/** The types of the server's frames (server → client). */
export const FRAME = Object.freeze({
  STATE: "state",
  ERROR: "error",
  CHAT: "chat",
  CHAT_HISTORY: "chat_history",
  HINT: "hint",
  PONG: "pong",
  SEAT_ELSEWHERE: "seat_elsewhere",
});

/* ---------- words of RECORD.md ---------- */

/** @typedef {"N" | "E" | "S" | "W"} Seat */
/** @typedef {"NS" | "EW"} Team */
/** @typedef {"S" | "H" | "D" | "C"} Suit */
/** @typedef {{NS: number, EW: number}} TeamFigures a figure per team */
/** @typedef {{NS: boolean, EW: boolean}} TeamFlags */
/**
 * @typedef {{target?: number, [name: string]: string | number | boolean | undefined}} VariantChanges
 * the variant switches that differ from the defaults: switch → value
 */

/* ---------- the table summary ---------- */

/**
 * @typedef {object} SeatEntry one seat of a table summary
 * @property {Seat} seat
 * @property {"open" | "human" | "computer"} kind
 * @property {string | null} name a nickname, or a computer player's name ("pimc:hard")
 * @property {boolean} connected
 * @property {string | null} [stand_in] a person's seat only: who stands in while they are away
 */

/**
 * @typedef {object} TableSummary
 * @property {string} id
 * @property {string | null} name the table's name ("Anna's table"), as its creator gave it; null: none
 * @property {number | string | null} created
 * @property {"waiting" | "playing" | "finished" | "closed"} status
 * @property {VariantChanges} variant
 * @property {SeatEntry[]} seats
 * @property {number | null} turn_seconds
 * @property {number} time_bank_seconds each person's time bank for the match
 * @property {boolean} hints
 * @property {TeamFigures} score
 * @property {Team | "draw" | null} winner
 * @property {number} deals
 * @property {string | null} rematch
 * @property {boolean} listed whether the lobby's list shows it (a game against the computer: no)
 * @property {"creator" | "idle" | null} closed why a closed table was closed
 * @property {boolean} [idle] in the lobby's list only
 */

/* ---------- a deal as a seat sees it ---------- */

/**
 * @typedef {object} Trick
 * @property {number} number from 1
 * @property {Seat} leader
 * @property {string[]} cards card tokens in the order played, from the leader
 * @property {Seat | null} winner
 */

/**
 * @typedef {object} DealEvent a declaration or a question, and its answer
 * @property {number} after_trick
 * @property {Seat} seat
 * @property {"declare" | "ask-whole" | "ask-half"} how
 * @property {Suit | null} suit
 * @property {boolean} yes
 * @property {number} points 2 trumps, 1 little trump, 0 none
 */

/**
 * @typedef {object} Refusal why the engine refuses an action (docs/WEB.md): only the
 * arguments its code uses
 * @property {string} code
 * @property {Seat} [seat]
 * @property {string} [action]
 * @property {Suit} [suit]
 * @property {string} [card]
 * @property {Suit} [trump]
 * @property {Team} [team]
 * @property {Seat} [asker]
 * @property {string} [given]
 */

/**
 * @typedef {object} Observation Observation.to_dict(); a replay step's has no seat, hand,
 * legal or refusals
 * @property {Seat | null} [seat]
 * @property {string[]} [hand]
 * @property {VariantChanges} variant
 * @property {Seat} dealer
 * @property {Seat} forehand
 * @property {"play" | "declaration" | "answer" | "over"} phase
 * @property {Seat | null} to_move
 * @property {Suit | null} trump
 * @property {Team | null} trump_team
 * @property {Trick[]} tricks the completed tricks
 * @property {Trick | null} current_trick
 * @property {DealEvent[]} events
 * @property {Seat[]} locked
 * @property {Seat | null} asker
 * @property {Record<Seat, number>} hand_sizes
 * @property {TeamFigures} tricks_won
 * @property {TeamFigures} card_points
 * @property {TeamFigures} game_points
 * @property {string[]} [legal]
 * @property {string[]} history
 * @property {TeamFigures | null} score
 * @property {Refusal[]} [refusals]
 * @property {number} deal_number
 */

/**
 * @typedef {object} Marriage
 * @property {Suit} suit
 * @property {Team} team
 * @property {Seat} seat
 * @property {string} how
 * @property {number} points
 */

/**
 * @typedef {object} DealSummary Match.deal_summary: a deal's public columns and its scoring
 * @property {Seat} dealer
 * @property {Suit | null} trump
 * @property {Marriage[]} marriages
 * @property {TeamFigures} tricks
 * @property {TeamFigures} card_points
 * @property {TeamFigures} game_points
 * @property {TeamFigures} score
 * @property {TeamFigures} before
 * @property {Team | null} last
 * @property {Team | null} victory
 * @property {TeamFlags} porvoo
 * @property {TeamFlags} overshoot
 */

/* ---------- server → client ---------- */

/**
 * @typedef {object} Clock the turn clock
 * @property {Seat} seat
 * @property {number} seconds the table's time for a turn
 * @property {number} left seconds left when the frame was made
 * @property {number} bank the seat's time bank left then (it runs once `left` is 0)
 */

/**
 * @typedef {object} Between what a table waits for between deals, or after the match
 * @property {"deal" | "rematch"} for
 * @property {Seat[]} ready
 * @property {number | null} at when the next deal comes anyway (ms since 1970)
 */

/**
 * @typedef {object} StateFrame
 * @property {typeof FRAME.STATE} type
 * @property {TableSummary} table
 * @property {Clock | null} clock
 * @property {Between | null} between
 * @property {number[]} timed_out the indices in `observation.history` of the deal's actions a
 *   computer player made for a person whose time ran out (they kept their seat)
 * @property {Seat | null} you
 * @property {string[]} futile the legal actions of `you` that cannot succeed ("ask-whole")
 * @property {number} seq
 * @property {number} deal
 * @property {Observation | null} observation
 * @property {Trick | null} last_trick
 * @property {DealSummary[]} deals
 */

/**
 * @typedef {object} ErrorFrame
 * @property {typeof FRAME.ERROR} type
 * @property {string} code
 * @property {string} message
 * @property {string[]} [legal] with `illegal`
 * @property {Refusal} [refusal] with `illegal`
 */

/**
 * @typedef {object} ChatFrame
 * @property {typeof FRAME.CHAT} type
 * @property {Seat | null} seat
 * @property {string} name
 * @property {string} [text]
 * @property {string} [emote]
 * @property {number} at
 */

/**
 * @typedef {object} ChatHistoryFrame
 * @property {typeof FRAME.CHAT_HISTORY} type
 * @property {ChatFrame[]} messages oldest first
 */

/**
 * @typedef {object} HintReason Reason.to_dict()
 * @property {string} code
 * @property {string} text
 * @property {Seat} seat
 * @property {boolean} certain whether every deal of the hint shows it (or it is the rules': the
 *   only move): the engine's Reason.certain
 * @property {number} [share] the weighted share of the hint's deals that show it (a reason that
 *   is one difference)
 * @property {number} [deals] the hint's deals, with share
 * @property {number} [shown] how many of them show it, with share
 * @property {string} [card]
 * @property {Suit} [suit]
 * @property {number} [points]
 * @property {boolean} [partner]
 */

/**
 * @typedef {object} HintMove
 * @property {string} action
 * @property {number | null} value null for a forced move
 * @property {number | null} best_share null for a forced move
 * @property {number} worlds the deals it rests on (0 for a forced move)
 * @property {number | null} error the standard error of its value less the best's (the best's:
 *   less the second's); null for a forced move
 * @property {HintReason} reason
 */

/**
 * @typedef {object} HintFrame
 * @property {typeof FRAME.HINT} type
 * @property {number} seq
 * @property {HintMove[]} moves best first
 * @property {number} deals the deals valued (0 for a forced move)
 * @property {number} possible how many deals agree with what the seat knows
 * @property {boolean} exact every possible deal was valued
 * @property {boolean} even the deals weigh alike (else by how likely the play makes each)
 * @property {boolean} inferred weighted by the likelihood of the play seen
 * @property {boolean} fallback no deal drawn agreed with the play: weighed alike instead
 */

/** @typedef {{type: typeof FRAME.PONG}} PongFrame */

/** The seat is played on another page or device now: this connection watches.
 * @typedef {{type: typeof FRAME.SEAT_ELSEWHERE, seat: Seat}} SeatElsewhereFrame */

/**
 * @typedef {StateFrame | ErrorFrame | ChatFrame | ChatHistoryFrame | HintFrame | PongFrame
 *   | SeatElsewhereFrame} Frame
 */

/* ---------- client → server ---------- */

/** @typedef {{type: typeof MESSAGE.ACTION, action: string, seq?: number}} ActionMessage */
/**
 * @typedef {{type: typeof MESSAGE.REPLACE, seat: Seat, player: string, creator_token: string}}
 * ReplaceMessage
 */
/** @typedef {{type: typeof MESSAGE.STAND_IN, seat: Seat}} StandInMessage */
/** @typedef {{type: typeof MESSAGE.BACK}} BackMessage */
/** @typedef {{type: typeof MESSAGE.READY}} ReadyMessage */
/** @typedef {{type: typeof MESSAGE.CHAT, text?: string, emote?: string}} ChatMessage */
/** @typedef {{type: typeof MESSAGE.HINT, seq?: number}} HintMessage */
/** @typedef {{type: typeof MESSAGE.PING}} PingMessage */

/**
 * @typedef {ActionMessage | ReplaceMessage | StandInMessage | BackMessage | ReadyMessage
 *   | ChatMessage | HintMessage | PingMessage} Message
 */

/** @typedef {(message: Message) => boolean} Send sends to the table: whether it went */

/* ---------- HTTP ---------- */

/**
 * @typedef {object} ReplayStep one step of GET /api/tables/{id}/replay
 * @property {number} deal
 * @property {number} seq
 * @property {string | null} action the step's action; null at a deal's start
 * @property {Record<Seat, string[]>} hands
 * @property {Observation} observation a spectator's, after the action
 * @property {DealSummary[]} deals
 */

/**
 * @typedef {object} Options GET /api/options
 * @property {{name: string, values: (string | number | boolean)[]}[]} variant default first
 * @property {string[]} players
 * @property {Level[]} levels the levels offered to people, weakest first
 * @property {string} measured the date of the leaderboard that measured them
 */

/**
 * @typedef {object} Level a level offered to people ("beginner", "club", "expert")
 * @property {string} name
 * @property {string} player the computer player behind it
 * @property {number | null} points game points a deal over the club level (heuristic)
 * @property {number | null} low its 95 % interval (null for the club level)
 * @property {number | null} high
 */
