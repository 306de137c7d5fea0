"""The web pages' words: every text the browser shows, by the key the pages know it by
(``t("lobby.title")`` in static/i18n.js), in English, with the context that tells it apart
where the same English says something else.

This is a source of the one catalogue of words (docs/DESIGN.md): ``pybabel extract`` reads it
with the terminal's sources into ``valtti/locale/valtti.pot``, and the Finnish of each text is
in ``valtti/locale/fi/LC_MESSAGES/valtti.po`` beside the terminal's, a text both say translated
once (the suits' names, with the terminal's context ``suit``, are one message). A key whose
English is another's with other Finnish has its key as its context (``NC_``). The pages read
JSON: ``python -m valtti.web.words`` writes ``static/i18n/<lang>.json`` from here and the
catalogues, and ``tests/web/test_words.py`` fails while they differ.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path
from typing import Final, NamedTuple

from valtti.locale import LANGUAGES, SOURCE, catalogue, rules


class Word(NamedTuple):
    """A text of the pages as the catalogue has it: its English and its context, if any."""

    context: str | None
    text: str


# Named as the terminal's markers, so that ``pybabel extract`` reads these texts the same way.
def N_(text: str) -> Word:
    return Word(None, text)


def NC_(context: str, text: str) -> Word:
    return Word(context, text)


#: Where the pages' catalogues are written.
STATIC_I18N: Final = Path(__file__).resolve().parent / "static" / "i18n"

WORDS: Final[dict[str, Word]] = {
    "app.name": N_("Valtti"),
    "common.cancel": N_("Cancel"),
    "common.close": N_("Close"),
    "lang.label": N_("Language"),
    "lang.en": N_("English"),
    "lang.fi": N_("Suomi"),
    "lobby.title": N_("Valtti — Marjapussi tables"),
    "lobby.create.heading": N_("New table"),
    "lobby.loopback": N_(
        "Only this computer can open this server: friends cannot join from theirs. If you run the "
        "server, start it with “valtti serve --host 0.0.0.0” to let friends on your network in."
    ),
    "lobby.nickname": N_("Your nickname"),
    "lobby.nickname.placeholder": N_("e.g. Anna"),
    "lobby.turn": N_("Time for a turn"),
    "lobby.turn.30": N_("30 seconds"),
    "lobby.turn.60": N_("1 minute"),
    "lobby.turn.120": N_("2 minutes"),
    "lobby.turn.300": N_("5 minutes"),
    "lobby.turn.off": N_("No limit (think as long as you like)"),
    "lobby.bank": N_("Time bank"),
    "lobby.bank.auto": N_("Two turns’ worth"),
    "lobby.bank.0": N_("None"),
    "lobby.bank.60": N_("1 minute"),
    "lobby.bank.120": N_("2 minutes"),
    "lobby.bank.300": N_("5 minutes"),
    "lobby.bank.600": N_("10 minutes"),
    "lobby.bank.hint": N_(
        "The time bank is each person’s extra time for the match, spent once a turn’s time is up."
    ),
    "lobby.seats": N_("Seats"),
    "lobby.seats.hint": N_("N and S play against E and W; an open seat waits for a person."),
    "lobby.seat.mine": N_("I sit here"),
    "lobby.seat.you": N_("you"),
    "lobby.seat.open": N_("Open (a person)"),
    "lobby.seat.watch": N_("I only watch"),
    "lobby.variants": N_("Rule variants"),
    "lobby.variants.hint": N_("The preselected values are the basic game."),
    "lobby.create": N_("Create table"),
    "lobby.tables": N_("Tables"),
    "lobby.tables.jump": N_("Join a table: the list ↓"),
    "lobby.refresh": N_("Refresh"),
    "lobby.tables.empty": N_("No tables yet: create one."),
    "lobby.tables.members": N_("The club's tables are listed to its members: sign in to see them."),
    "lobby.join": N_("Sit at {seat}"),
    "lobby.join.title": N_("Take seat {seat}"),
    "lobby.join.ok": N_("Take the seat"),
    "lobby.watch": N_("Watch"),
    "lobby.replay": N_("Replay"),
    "lobby.record": N_("Download record"),
    "lobby.resume": N_("Open my table"),
    "lobby.result.draw": N_("Draw"),
    "lobby.result.won": N_("{team} won"),
    "lobby.score": N_("NS {ns} – EW {ew}"),
    "lobby.table.id": N_("Table {id}"),
    "lobby.variant.default": N_("basic rules"),
    "lobby.deals_one": N_("{n} deal"),
    "lobby.deals_other": N_("{n} deals"),
    "lobby.filter.label": N_("Show tables"),
    "lobby.filter.all": N_("All"),
    "lobby.filter.waiting": N_("Waiting"),
    "lobby.filter.playing": N_("Playing"),
    "lobby.filter.finished": N_("Finished"),
    "lobby.page": N_("Page {page} of {pages}"),
    "lobby.page.prev": N_("Previous"),
    "lobby.page.next": N_("Next"),
    "lobby.idle": N_("Idle"),
    "lobby.idle.hint": N_("Nobody has been connected to this table for over 10 minutes."),
    "lobby.tables.none": N_("No tables here."),
    "lobby.tables.aged": N_(
        "Finished tables leave this list a day after their match ends; their links still work."
    ),
    "lobby.mine": N_("Your tables"),
    "lobby.mine.hint": N_(
        "The tables you made or sit at, as this browser remembers them. A game against the "
        "computer is only here."
    ),
    "lobby.unlisted": N_("Not listed"),
    "lobby.unlisted.hint": N_(
        "This table is not in the lobby’s list: only people with its link can open it."
    ),
    "lobby.close": N_("Close"),
    "lobby.close.confirm": N_("Close “{name}”? Nothing more can be played there."),
    "lobby.close.ok": N_("Close the table"),
    "lobby.play": N_("Play against the computer"),
    "lobby.play.note": N_("You sit south against three computer players ({level})."),
    "lobby.levels": N_("Levels"),
    "lobby.programs": N_("Other programs"),
    "lobby.level": N_("{name} ({player}): {strength}"),
    "lobby.level.reference": N_("the reference"),
    "lobby.level.below": N_("{points} game points a deal below the club player"),
    "lobby.level.above": N_("{points} game points a deal above the club player"),
    "lobby.levels.note": N_("Levels, as the leaderboard of {date} measured them: {levels}."),
    "lobby.custom": N_("Or set up a table"),
    "lobby.name": N_("Table name"),
    "lobby.name.default": N_("{name}’s table"),
    "lobby.name.placeholder": N_("e.g. Anna’s table"),
    "lobby.more": N_("More options"),
    "lobby.more.now": N_("rules: {variant}"),
    "lobby.more.bank": N_("time bank: {bank}"),
    "player.named": N_("{seat} · {level}"),
    "player.level.random": NC_("player", "random"),
    "player.level.beginner": NC_("player", "beginner"),
    "player.level.club": NC_("player", "club player"),
    "player.level.heuristic": NC_("player", "strong club player"),
    "player.level.learned": NC_("player", "learned"),
    "player.level.search:easy": NC_("player", "easy"),
    "player.level.search:medium": NC_("player", "medium"),
    "player.level.search:hard": NC_("player", "expert"),
    "player.level.pimc:hard": NC_("player", "hard (PIMC)"),
    "notfound.title": N_("Not found — Valtti"),
    "notfound.heading": N_("Not found"),
    "notfound.text": N_(
        "There is no table or page at this address. The link may be mistyped, or the table was "
        "never made on this server."
    ),
    "notfound.lobby": N_("To the lobby"),
    "status.waiting": N_("Waiting for players"),
    "status.playing": N_("Playing"),
    "status.finished": NC_("status.finished", "Finished"),
    "status.connected": N_("Connected"),
    "status.connecting": N_("Connecting…"),
    "status.disconnected": N_("Connection lost: reconnecting…"),
    "connection.lost": N_("Connection lost — reconnecting…"),
    "connection.back": N_("Connected again"),
    "connection.why": N_("Connection lost: you can play once it is back."),
    "connection.seat": N_("not known while the connection is lost"),
    "connection.clock": N_("Stopped: the connection is lost, so this time may be out of date"),
    "seat.N": NC_("seat", "N"),
    "seat.E": NC_("seat", "E"),
    "seat.S": NC_("seat", "S"),
    "seat.W": NC_("seat", "W"),
    "seat.open": N_("open seat"),
    "seat.connected": N_("connected"),
    "seat.disconnected": N_("not connected"),
    "table.who": N_("{name} ({seat})"),
    "player.short.random": N_("Bot: random"),
    "player.short.beginner": N_("Bot: beginner"),
    "player.short.club": N_("Bot: club player"),
    "player.short.heuristic": N_("Bot: strong club player"),
    "player.short.learned": N_("Bot: learned"),
    "player.short.search:easy": N_("Bot: easy"),
    "player.short.search:medium": N_("Bot: medium"),
    "player.short.search:hard": N_("Bot: expert"),
    "player.short.pimc:hard": N_("Bot: hard (PIMC)"),
    "team.NS": NC_("team", "NS"),
    "team.EW": NC_("team", "EW"),
    "suit.S": NC_("suit", "spades"),
    "suit.H": NC_("suit", "hearts"),
    "suit.D": NC_("suit", "diamonds"),
    "suit.C": NC_("suit", "clubs"),
    "seat.N.name": N_("north"),
    "seat.E.name": N_("east"),
    "seat.S.name": N_("south"),
    "seat.W.name": N_("west"),
    "card.name": N_("{rank} of {suit}"),
    "card.suit.S": NC_("suit", "spades"),
    "card.suit.H": NC_("suit", "hearts"),
    "card.suit.D": NC_("suit", "diamonds"),
    "card.suit.C": NC_("suit", "clubs"),
    "rank.A": N_("ace"),
    "rank.T": N_("ten"),
    "rank.K": N_("king"),
    "rank.Q": N_("queen"),
    "rank.J": N_("jack"),
    "rank.9": N_("nine"),
    "rank.8": N_("eight"),
    "rank.7": N_("seven"),
    "rank.6": N_("six"),
    "alert.title.turn": N_("● Your turn — {title}"),
    "alert.sound.on": N_("Sound: on"),
    "alert.sound.off": N_("Sound: off"),
    "alert.sound.title": N_("A short tone when it is your turn"),
    "rules.link": N_("Rules"),
    "rules.page_title": N_("Valtti — rules of Marjapussi"),
    **{key: N_(text) for key, text in rules.TEXTS.items()},  # the rules, the terminal's too
    "rules.back": N_("Back to the lobby"),
    "variant.target": N_("Target"),
    "variant.target.10": N_("exactly 10"),
    "variant.target.12": N_("exactly 12"),
    "variant.overshoot_to": N_("Over the target: back to"),
    "variant.overshoot_to.7": N_("7"),
    "variant.first_forehand": N_("Lead of the first deal"),
    "variant.first_forehand.left_of_dealer": N_("the player left of the dealer"),
    "variant.first_forehand.club_ace_holder": N_("the holder of the ace of clubs"),
    "variant.whole_ask_after_trump": N_("Asking for a whole marriage once trumps are set"),
    "variant.whole_ask_after_trump.not_trump_team": N_("not by the team that made trumps"),
    "variant.whole_ask_after_trump.anyone": N_("anyone may ask"),
    "variant.whole_ask_after_trump.nobody": N_("nobody may ask"),
    "variant.must_overtrump": N_("Must overtrump when able"),
    "variant.must_overtrump.true": N_("yes"),
    "variant.must_overtrump.false": N_("no"),
    "variant.must_trump_if_cannot_overtrump": N_("Must trump when unable to overtrump"),
    "variant.must_trump_if_cannot_overtrump.true": N_("yes"),
    "variant.must_trump_if_cannot_overtrump.false": N_("no, any card"),
    "variant.first_trick_ace": N_("Trick 1 led with an ace when holding one"),
    "variant.first_trick_ace.off": N_("no"),
    "variant.first_trick_ace.on": N_("yes"),
    "variant.both_on_target": N_("Both teams on target at once"),
    "variant.both_on_target.draw": N_("a draw"),
    "variant.both_on_target.continue": N_("play on"),
    "table.title": N_("Valtti — table"),
    "table.label.seated": N_("{name} · seat {seat}"),
    "table.label.watching": N_("{name} · watching"),
    "table.watching.note": N_("You are watching this table: the hands are hidden from you."),
    "table.share": N_("Share"),
    "table.share.link": N_("Link to this table"),
    "table.share.loopback": N_(
        "Only this computer can open this link. If you run the server, start it with “valtti serve "
        "--host 0.0.0.0” to let friends on your network in, and send them the address it prints."
    ),
    "table.close": N_("Close this table"),
    "table.closed.creator": N_(
        "Its creator closed this table before the match ended: nothing more is played here."
    ),
    "table.closed.idle": N_(
        "This table was closed: nobody was at it for a long time, and nothing more is played here."
    ),
    "table.to_lobby": N_("Back to the lobby"),
    "table.copy": N_("Copy link"),
    "table.copied": N_("Link copied"),
    "table.copy_failed": N_("Could not copy: select the link and copy it yourself"),
    "table.waiting": N_("Waiting for players. Send this link to your friends:"),
    "table.take": N_("Take this seat"),
    "table.replace": N_("Give to computer"),
    "table.replace.player": N_("Computer player"),
    "absence.stand_in": N_("Computer stands in"),
    "absence.stand_in.title": N_(
        "This person is away: a computer player ({player}) plays for them until they are back."
    ),
    "absence.clock.title": N_(
        "Time left for this turn ({seconds} s a turn), then the time bank ({bank}); then a "
        "computer player makes the move"
    ),
    "absence.hand_over": N_("Let a computer play for them"),
    "absence.you": N_("A computer player is standing in for you — take your seat back."),
    "absence.take_back": N_("Take my seat back"),
    "absence.bank": N_("bank {time}"),
    "absence.bank.title": N_(
        "Time bank left for the match: {time}; when it is spent a computer player makes this move"
    ),
    "seat.elsewhere": N_("You are now playing this seat on another page or device."),
    "seat.mine": N_("This is my seat"),
    "seat.link": N_("Your seat link — open it on another device to play from there"),
    "seat.link.label": N_("Your seat link"),
    "seat.link.private": N_("Keep it to yourself: whoever opens it plays your seat."),
    "action.futile.whole": N_(
        "“Ask whole” cannot succeed: the play so far shows your partner has no marriage to name."
    ),
    "action.futile.mark": N_("cannot succeed"),
    "error.present": N_(
        "That person is here: only the seat of someone who is away can be handed over."
    ),
    "table.replay": N_("Replay"),
    "table.record": N_("Download record"),
    "table.window.hint": N_("One declaration or question before you lead."),
    "table.trumps": N_("Trumps"),
    "table.trumps.none": N_("none yet"),
    "table.deal": N_("Deal {n}"),
    "table.dealer": N_("{name} deals"),
    "table.dealer.mark": N_("D"),
    "table.dealer.title": N_("Dealer"),
    "table.locked": N_("Locked"),
    "table.lock": N_("locked"),
    "table.nobody": N_("nobody"),
    "table.events": N_("Marriages and questions"),
    "table.events.none": N_("none yet"),
    "table.last_trick.show": N_("Show last trick"),
    "table.last_trick.hide": N_("Hide last trick"),
    "table.last_trick.caption": N_("Trick {number} to {name}"),
    "table.this_deal": N_("This deal"),
    "table.col.tricks": N_("Tricks"),
    "table.col.card_points": N_("Card points"),
    "table.col.game_points": N_("Game points"),
    "table.match_score": N_("Match: NS {ns} – EW {ew} (to exactly {target})"),
    "table.sheet": N_("Score sheet"),
    "table.sheet.deal": N_("Deal"),
    "table.sheet.dealer": N_("Dealer"),
    "table.sheet.trumps": N_("Trumps"),
    "table.sheet.score": N_("Score"),
    "table.sheet.none": N_("No deal finished yet"),
    "table.log": N_("What happened"),
    "table.you": N_("you"),
    "table.hand": N_("Your hand"),
    "table.answer.title": N_("Name a marriage"),
    "table.answer.text": N_(
        "{name} asked you for a whole marriage and you hold more than one: name one. Which one is "
        "your choice. The others stay hidden in your hand and are not broken: the question locks "
        "only {name}, so you may declare another of them when you win a trick."
    ),
    "table.turn.waiting": N_("Waiting for players…"),
    "table.turn.takes": N_("{name} takes the trick"),
    "table.turn.deal_over": N_("The deal is over"),
    "table.turn.closed": N_("The table is closed"),
    "table.turn.window": N_("You took the trick: declare, ask or lead"),
    "table.turn.window_declare": N_("You took the trick: declare or lead"),
    "table.turn.window_ask": N_("You took the trick: ask or lead"),
    "table.turn.answer": N_("Name a marriage"),
    "table.turn.lead": N_("Your lead"),
    "table.turn.play": N_("Your card"),
    "table.turn.other": N_("{name} to play"),
    "table.turn.other_answer": N_("{name} names a marriage"),
    "table.not_found": N_("There is no such table."),
    "table.why.wait": N_("{name} is to play: your cards wait for your turn."),
    "refusal.over": N_("The deal is over."),
    "refusal.answer_pending": N_(
        "You must first answer {asker}'s question by naming one of your marriages."
    ),
    "refusal.not_held": N_("You do not hold {action}."),
    "refusal.first_ace": N_("The leader of trick 1 must lead an ace when holding one."),
    "refusal.follow": N_("You must follow suit: {suit} was led."),
    "refusal.follow_beat": N_(
        "You must follow {suit} with a card that beats {card} when you have one."
    ),
    "refusal.trump": N_("You have no {suit} and must play a trump ({trump})."),
    "refusal.trump_beat": N_(
        "You have no {suit} and must play a trump that beats {card} when you have one."
    ),
    "refusal.before_first_trick": N_("There are no declarations or questions before trick 1."),
    "refusal.window_used": N_(
        "You have made your one declaration or question of this turn and must now lead."
    ),
    "refusal.not_window": N_(
        "Only a trick's winner may declare or ask, before leading the next trick."
    ),
    "refusal.declared": N_("{suit} has already been declared this deal."),
    "refusal.no_marriage": N_("You do not hold both the king and the queen of {suit}."),
    "refusal.locked": N_("You are locked by an earlier question: your own marriages are broken."),
    "refusal.whole_trump_team": N_(
        "Your team made trumps this deal and may not ask for a whole marriage."
    ),
    "refusal.whole_nobody": N_("No one may ask for a whole marriage once trumps are set."),
    "refusal.half_not_one": N_(
        "Asking for half {suit} needs exactly one of its king and queen in your hand."
    ),
    "refusal.no_question": N_("No question is waiting for an answer."),
    "refusal.not_eligible": N_(
        "You cannot name {suit}: you hold no unbroken, undeclared marriage of {suit}."
    ),
    "refusal.not_an_action": N_("“{given}” is not an action."),
    "action.declare": N_("Declare {suit}"),
    "action.ask_whole": N_("Ask whole"),
    "action.ask_half": N_("Ask half {suit}"),
    "action.answer": N_("{suit} {name}"),
    "event.declare": N_("{seat} declares {suit}"),
    "event.ask_whole.yes": N_("{seat} asks for a whole marriage: yes, {suit}"),
    "event.ask_whole.no": N_("{seat} asks for a whole marriage: no"),
    "event.ask_half.yes": N_("{seat} asks for half {suit}: yes"),
    "event.ask_half.no": N_("{seat} asks for half {suit}: no"),
    "event.trumps": N_("{suit} trumps, {team} +2"),
    "event.little_trump": N_("little trump {suit}, {team} +1"),
    "log.deal": N_("Deal {n}: {dealer} deals, {forehand} leads."),
    "log.plays": N_("{seat} plays {card}"),
    "log.takes": N_("{seat} takes trick {number}"),
    "log.deal_over": N_("Deal {n} is over."),
    "log.timed_out.play": N_("{seat}: time ran out — the computer played {card}"),
    "log.timed_out.play_you": N_("{seat}: time ran out — the computer played {card} for you"),
    "log.timed_out.event": N_("{seat}: time ran out — the computer made this move"),
    "log.timed_out.event_you": N_("{seat}: time ran out — the computer made this move for you"),
    "log.timed_out.action": N_("{seat}: time ran out — the computer chose {action}"),
    "toast.timed_out.play": N_("Time ran out — the computer played {card} for you"),
    "toast.timed_out.action": N_("Time ran out — the computer chose {action} for you"),
    "deal_over.title": N_("Deal {n} is over"),
    "result.draw": N_("The match is a draw, both teams on target: NS {ns} – EW {ew}"),
    "result.you_win": N_("You and your partner win the match: NS {ns} – EW {ew}"),
    "result.team_wins": N_("{team} win the match: NS {ns} – EW {ew}"),
    "result.over": N_("The match is over"),
    "replay.first": N_("Start"),
    "replay.prev": N_("Back"),
    "replay.play": N_("Play"),
    "replay.pause": N_("Pause"),
    "replay.next": N_("Next"),
    "replay.prev_deal": N_("Previous deal"),
    "replay.next_deal": N_("Next deal"),
    "replay.exit": N_("Leave replay"),
    "replay.step": N_("Step {n} / {total}"),
    "nickname.empty": N_("Enter a nickname first."),
    "nickname.long": N_("A nickname has at most 24 characters."),
    "nickname.control": N_("A nickname cannot contain control characters or line breaks."),
    "nickname.invisible": N_("A nickname needs a letter, digit, punctuation mark or symbol."),
    "error.other": N_("Something went wrong ({code})."),
    "error.offline": N_("Not connected: wait a moment and try again."),
    "error.bad_token": N_("This browser's seat at the table is no longer valid: you are watching."),
    "error.bad_seat_link": N_(
        "That seat link is not valid here (mistyped or for another table): this browser keeps what "
        "it held."
    ),
    "error.bad_json": N_("The server could not read the message."),
    "error.too_large": N_("The message was too large."),
    "error.bad_message": N_("The server did not understand the message."),
    "error.not_seated": N_("You are watching: spectators cannot play."),
    "error.not_your_turn": N_("It is not your turn."),
    "error.illegal": N_("That is not allowed now."),
    "error.stale": N_("The table moved on: look again and retry."),
    "error.unavailable": N_("The server could not do that just now: nothing changed, try again."),
    "error.not_creator": N_("Only the creator of the table can do that."),
    "error.bad_player": N_("Unknown computer player."),
    "error.bad_seat": N_("That seat cannot be given away."),
    "error.finished": N_("The match is over."),
    "error.closed": N_("This table is closed: nothing more can be played here."),
    "error.waiting": N_("The match has not started yet."),
    "error.throttled": N_("Too many messages: slow down."),
    "error.bad_origin": N_(
        "The server takes this only from its own pages: open the table at the server's own address."
    ),
    "error.bad_content_type": N_("The server refused the request: it takes only JSON."),
    "error.too_many": N_("Too many at once from this address: wait a minute and try again."),
    "error.bad_nickname": N_("That nickname cannot be used."),
    "error.bad_name": N_("That table name cannot be used: 1 to 40 characters of text."),
    "error.bad_request": N_("The server refused the request."),
    "error.taken": N_("Someone else took that seat."),
    "error.review_failed": N_("The review could not be made this time: ask again."),
    "error.not_finished": N_("The match is not over yet."),
    "error.bad_variant": N_("That rule variant is not known."),
    "error.not_found": N_("There is no such table."),
    "error.http_500": N_("The server had a problem."),
    "table.partners": N_("{a} & {b}"),
    "replay.action": N_("{seat}: {action}"),
    "replay.answer": N_("{seat} answers: {action}"),
    "table.sheet.no_trumps": N_("–"),
    "table.sheet.score_value": N_("{ns}–{ew}"),
    "event.with_points": N_("{event} — {points}"),
    "lobby.separator": N_(" · "),
    "lobby.variant.switch": N_("{name}: {value}"),
    "lobby.meta": N_("{score} · {deals} · {clock} · {hints} · {variant}"),
    "lobby.clock.none": N_("no time limit"),
    "lobby.clock.seconds_one": N_("{n} second a turn"),
    "lobby.clock.seconds_other": N_("{n} seconds a turn"),
    "lobby.clock.minutes_one": N_("{n} minute a turn"),
    "lobby.clock.minutes_other": N_("{n} minutes a turn"),
    "lobby.clock.bank": N_("{clock} + {bank} bank"),
    "lobby.clock.no_bank": N_("{clock}, no bank"),
    "lobby.bank.minutes": N_("{n} min"),
    "lobby.bank.seconds": N_("{n} s"),
    "lobby.hints.on": N_("hints allowed"),
    "lobby.hints.off": N_("no hints"),
    "lobby.seat.away": N_("away"),
    "lobby.seat.away.hint": N_("Not connected to the table now."),
    "ends.made": N_("{team}: {made} = {total}"),
    "ends.made.trumps": N_("{suit} trumps {points}"),
    "ends.made.little": N_("little trump {suit} {points}"),
    "ends.made.last": N_("last trick 1"),
    "ends.made.victory": N_("victory ({card_points} card points) 1"),
    "ends.made.nothing": N_("nothing"),
    "ends.change.plain": N_("{team} {before} + {points} = {after}"),
    "ends.change.overshoot": N_(
        "{team} {before} + {points} = {total} > {target} → {after} (overshoot)"
    ),
    "ends.change.porvoo": N_("{team} took no trick → 0 (Porvoo)"),
    "ends.next_in": N_("The next deal starts in {s} s"),
    "ends.ready": N_("Ready:"),
    "ends.ready_button": N_("Ready for the next deal"),
    "ends.ready_said": N_("Waiting for the others…"),
    "ends.rematch": N_("Play again (rematch)"),
    "ends.rematch_asked": N_("Rematch asked: waiting for the others…"),
    "ends.rematch_link": N_("Go to the rematch"),
    "chat.title": N_("Chat"),
    "chat.input": N_("Say something to the table"),
    "chat.send": N_("Send"),
    "chat.watching": N_("Spectators can read the chat; the players write."),
    "chat.mute": N_("Mute {name} ({seat})"),
    "chat.unmute": N_("Unmute {name} ({seat})"),
    "chat.emote.good": N_("Good play!"),
    "chat.emote.thanks": N_("Thanks!"),
    "chat.emote.oops": N_("Oops!"),
    "chat.emote.wow": N_("Wow!"),
    "chat.emote.hurry": N_("Hurry up!"),
    "error.chat_throttled": N_("Too many chat messages: wait a few seconds."),
    "error.bad_chat": N_(
        "That chat message cannot be sent (1–200 characters, no control characters, line breaks or "
        "direction overrides)."
    ),
    "error.not_waiting": N_("Nothing is waiting for you to be ready."),
    "table.sheet.tricks": N_("Tricks"),
    "table.sheet.card_points": N_("Card pts"),
    "table.sheet.game_points": N_("Game pts"),
    "lobby.hints": N_("Hints: people may ask the computer for advice on their turn"),
    "hint.ask": N_("Hint"),
    "hint.busy": N_("Thinking…"),
    "hint.close": N_("Close"),
    "hint.heading": N_("The computer would play {action}"),
    "hint.heading_answer": N_("The computer would name {action}"),
    "hint.forced": N_("(a forced move: nothing to weigh)"),
    "hint.gap": N_("The top two differ by {gap} ± {error}."),
    "hint.shown_one": NC_("hint.shown_one", "in {k} of the {n} deal: {reason}"),
    "hint.shown_other": NC_("hint.shown_other", "in {k} of the {n} deals: {reason}"),
    "hint.key": N_(
        "value: the change of your team's match equity (the chance to win less the chance to "
        "lose); %: the share of the deals where it is the best move (a tie shared)"
    ),
    "error.no_hints": N_("This table gives no hints."),
    "hint.reason.keeps_last": N_("keeps {card} for the last trick"),
    "hint.reason.takes_last": N_("your partner takes the last trick"),
    "hint.reason.gives_up_last": N_("gives up the last trick"),
    "hint.reason.takes_victory": N_("takes the victory point (over 60)"),
    "hint.reason.gives_up_victory": N_("gives up the victory point"),
    "hint.reason.declares": N_("declares {suit}: trumps, +2"),
    "hint.reason.makes_marriage": N_("your team makes the {suit} marriage (+{points})"),
    "hint.reason.misses_marriage": N_("your team misses the {suit} marriage"),
    "hint.reason.locks_marriage": N_("its locks break your {suit} marriage"),
    "hint.reason.stops_marriage": N_("stops the opponents' {suit} marriage"),
    "hint.reason.allows_marriage": N_("lets the opponents make the {suit} marriage"),
    "hint.reason.reaches_target": N_("reaches the target exactly"),
    "hint.reason.misses_target": N_("misses the target"),
    "hint.reason.stops_opponents": N_("stops the opponents reaching the target"),
    "hint.reason.lets_opponents_win": N_("lets the opponents reach the target"),
    "hint.reason.avoids_overshoot": N_("avoids overshooting the target"),
    "hint.reason.overshoots": N_("overshoots the target: back to {points}"),
    "hint.reason.saves_porvoo": N_("saves your team from Porvoo"),
    "hint.reason.risks_porvoo": N_("risks Porvoo for your team"),
    "hint.reason.sends_to_porvoo": N_("sends the opponents to Porvoo"),
    "hint.reason.frees_opponents": N_("lets the opponents escape Porvoo"),
    "hint.reason.wins_points": N_("wins {points} card points more"),
    "hint.reason.loses_points": N_("loses {points} card points"),
    "hint.reason.only": N_("the only legal move"),
    "hint.reason.best_on_average": N_("the best on average"),
    "hint.reason.as_good": N_("as good as the best"),
    "hint.reason.worse_on_average": N_("worse on average"),
    "hint.reason.declares_little": N_("declares {suit}: a little trump, +1"),
    "hint.reason.locks_partners": N_("its locks break your partner's {suit} marriage"),
    "hint.worlds_one": N_("(over {n} sampled deal)"),
    "hint.worlds_other": N_("(over {n} sampled deals)"),
    "hint.shown_weighted_one": NC_(
        "hint.shown_weighted_one", "in {k} of the {n} deal ({share} by likelihood): {reason}"
    ),
    "hint.shown_weighted_other": NC_(
        "hint.shown_weighted_other", "in {k} of the {n} deals ({share} by likelihood): {reason}"
    ),
    "hint.possible_one": N_("(over the one possible deal)"),
    "hint.possible_other": N_(
        "(over all {n} possible deals, each weighed by how likely the play so far makes it)"
    ),
    "hint.fallback": N_(
        "(no deal drawn fits the play so far as the model of play expects: they are weighed alike)"
    ),
    "hint.gap_exact": N_("The top two differ by {gap}."),
    "hint.reason.opponents_overshoot": N_("the opponents overshoot the target: back to {points}"),
    "hint.reason.opponents_avoid_overshoot": N_("the opponents avoid overshooting the target"),
    "hint.reason.secures_draw": N_("the match ends in a draw"),
    "hint.reason.ends_in_draw": N_("the match ends in a draw"),
    "hint.reason.avoids_draw": N_("the match goes on instead of ending in a draw"),
    "hint.reason.misses_draw": N_("the match goes on instead of ending in a draw"),
    "hint.reason.about_equal": N_("about equal: the difference is within chance"),
    "chat.unread": N_("{n} new since you folded the chat"),
    "table.turn.other_lead": N_("{name} to lead"),
    "table.felt.match": N_("Match:"),
    "table.felt.score": N_("NS {ns} – EW {ew} / {target}"),
    "table.felt.this_deal": N_("This deal:"),
    "table.felt.deal": N_("NS +{ns} – EW +{ew}"),
    "term.explain": N_("What does “{term}” mean?"),
    "term.trumps": N_(
        "Trumps: a deal starts without them; the first marriage (king and queen of a suit) "
        "declared or found by a question makes its suit trumps for the rest of the deal, +2 game "
        "points. A trump beats every card of another suit."
    ),
    "term.little_trump": N_(
        "Little trump: a marriage declared or found once there are trumps: +1 game point, and the "
        "trumps stay."
    ),
    "term.locked": N_(
        "Locked: who asks is locked, and after Ask half the partner too. Till the deal ends a "
        "locked player's own king and queen of a suit can be neither declared nor named in an "
        "answer. A locked player may still ask."
    ),
    "term.ask_whole": N_(
        "Ask whole: after taking a trick, ask your partner “do you have a whole marriage?”. With a "
        "king and queen of one suit not yet declared (and not locked) they say yes and name it: "
        "trumps +2, or a little trump +1. You are locked either way. Not for a team that has made "
        "trumps."
    ),
    "term.ask_half": N_(
        "Ask half: you hold the king or the queen of a suit; your partner says yes if they hold "
        "the other card of the pair: trumps +2, or a little trump +1. Afterwards both of you are "
        "locked."
    ),
    "term.porvoo": N_(
        "Porvoo: a team that takes no trick in a deal goes to Porvoo: its match score becomes 0, "
        "whatever it was."
    ),
    "term.overshoot": N_(
        "Overshoot: a team whose score would go over the target ({target}) falls back to "
        "{overshoot}. Only exactly {target} wins."
    ),
    "term.deal_points": N_(
        "The deal's game points so far: a marriage 2 (trumps) or 1 (little trump), the last trick "
        "1, over 60 card points 1. Added to the match score when the deal ends."
    ),
    "term.rules": N_("More in the rules: {section}"),
    "review.open": N_("Review"),
    "review.busy": N_("Reviewing…"),
    "review.title": N_("Review of the match"),
    "review.deal": N_("Deal {n}"),
    "review.lost": N_(
        "Lost on what each seat knew: {known}; with every hand open: {open} (in match equity)."
    ),
    "review.costly": N_(
        "Trick {trick}, {seat} played {played}: {best} was better by {loss} on what {seat} knew "
        "({deals} deals), because {reason}."
    ),
    "review.open_best": N_("With every hand open the best was {best}, {loss} better."),
    "review.open_as_good": NC_(
        "review.open_as_good", "With every hand open {played} was as good as any."
    ),
    "review.open_unsolved": NC_(
        "review.open_unsolved", "With every hand open it was not solved within the review's budget."
    ),
    "review.unsolved_one": N_(
        "({n} decision was not solved with every hand open within the review's budget.)"
    ),
    "review.unsolved_other": N_(
        "({n} decisions were not solved with every hand open within the review's budget.)"
    ),
    "review.none": NC_("review.none", "No decision lost anything on what its seat knew."),
    "review.match": N_("The match:"),
    "review.costly_every_deal": N_(
        "Trick {trick}, {seat} played {played}: {best} was better by {loss} on what {seat} knew "
        "(all {deals} possible deals), because {reason}."
    ),
    "review.close": N_("Hide review"),
    "review.team_lost": N_("{team} {lost}"),
    "review.marked": N_(
        "Trick {trick}, {seat} played {played}: {best} was better by {loss} on what {seat} knew "
        "({deals} deals)."
    ),
    "review.marked_every_deal": N_(
        "Trick {trick}, {seat} played {played}: {best} was better by {loss} on what {seat} knew "
        "(all {deals} possible deals)."
    ),
    "review.mark.inaccuracy": N_("an inaccuracy"),
    "review.mark.mistake": N_("a mistake"),
    "review.mark.blunder": N_("a blunder"),
    "review.legend": N_(
        "Each deal's line is North–South's match equity (their chance of winning the match less "
        "East–West's) after each decision reviewed, on what its seat knew: above the middle "
        "North–South are ahead, below it East–West. Choose a decision to see the board before it."
    ),
    "review.legend_mark": N_("{word}: lost {loss} or more"),
    "review.side": N_("{team} · {names}"),
    "review.graph": N_(
        "Deal {n}: match equity over the deal, North–South above the middle, East–West below"
    ),
    "review.point": N_(
        "Trick {trick}, {seat} played {played}: North–South's match equity {equity}"
    ),
    "review.point_marked": N_(
        "Trick {trick}, {seat} played {played}, {mark}: North–South's match equity {equity}"
    ),
    "review.moment": N_("{seat} played {played}; {best} was better by {loss}."),
    "review.moment_said": N_(
        "Deal {n}, trick {trick}, before {seat} played {played}; {best} was better."
    ),
    "review.back": N_("Back to the review"),
    "club.signin.link": N_("Sign in"),
    "club.lobby.members_only": N_(
        "This server is a club's: only its members, and the guests they invite, create and "
        "join tables."
    ),
    "table.not_watcher": N_(
        "Only the club's members may watch this table (or, at a club night, nobody until "
        "every table of the round has played its deals)."
    ),
    "status.closed": N_("Closed"),
    "club.title": N_("Valtti — the club"),
    "club.not_club": N_(
        "This server is not a club's: anyone with a link plays here. Go to the lobby to play."
    ),
    "club.setup.heading": N_("Set up the club"),
    "club.setup.intro": N_(
        "Nobody has an account yet: the first account is the club's administrator, who "
        "invites the members."
    ),
    "club.name": N_("Name"),
    "club.password": N_("Password (at least 8 characters)"),
    "club.setup.submit": N_("Create the administrator's account"),
    "club.signup.heading": N_("Join the club"),
    "club.signup.closed": N_(
        "This invitation has been used or has expired: ask the club for a new one."
    ),
    "club.signup.submit": N_("Join"),
    "club.signin.heading": NC_("club.signin.heading", "Sign in"),
    "club.signin.submit": N_("Sign in"),
    "club.rating": N_("Rating:"),
    "club.my_page": N_("My matches and rating"),
    "club.signout": N_("Sign out"),
    "club.password.change": N_("Change the password"),
    "club.password.current": N_("Current password"),
    "club.password.new": N_("New password"),
    "club.password.submit": N_("Change the password"),
    "club.password.changed": N_("The password is changed: your other devices are signed out."),
    "club.admin.heading": N_("Running the club"),
    "club.invite": N_("New invitation link"),
    "club.invite.link": N_("Invitation link"),
    "club.invite.hint": N_("Give it to one person: it signs one member up and lasts a week."),
    "club.watchers": N_("Who may watch tables"),
    "club.watchers.members": N_("Members and their guests"),
    "club.watchers.anyone": N_("Anyone with the link"),
    "club.watchers.saved": N_("Saved."),
    "club.members.heading": N_("Members"),
    "club.member.disabled": N_("disabled"),
    "club.member.disable": N_("Disable"),
    "club.member.enable": N_("Enable"),
    "club.nights.heading": N_("Club nights"),
    "club.night.new": N_("New club night"),
    "club.night.name": N_("Name of the night"),
    "club.night.tables": NC_("club.night.tables", "Tables"),
    "club.night.rounds": N_("Rounds"),
    "club.night.deals": N_("Deals a round"),
    "club.night.movement": N_("Partners"),
    "club.night.movement.pairs": N_("Fixed pairs"),
    "club.night.movement.individuals": N_("Changing partners"),
    "club.night.computer": N_("Computer player for empty seats"),
    "club.night.players": N_("Who plays"),
    "club.night.players.hint": N_(
        "With fixed pairs, each two ticked in the list's order are a pair. Computer players "
        "take the other seats."
    ),
    "club.night.start": N_("Start the night"),
    "club.night.status.playing": N_("being played"),
    "club.night.status.finished": N_("finished"),
    "night.title": N_("Club night"),
    "night.my_seat": N_("Take my seat"),
    "night.csv": N_("Results (CSV)"),
    "night.json": N_("Results (JSON)"),
    "night.print": N_("Print"),
    "night.standings": N_("Standings"),
    "night.scoring": N_(
        "Each deal is compared with the other tables that played the same cards: "
        "North–South's game points minus East–West's; 2 matchpoints for a better result, 1 "
        "for the same. A deal counts once every table has played it."
    ),
    "night.place": N_("Place"),
    "night.names": N_("Players"),
    "night.percent": NC_("night.percent", "Score"),
    "night.matchpoints": N_("Match\u00adpoints"),
    "night.game_points": NC_("night.game_points", "Game points"),
    "night.tables": N_("Tables"),
    "night.deals": N_("Deals compared"),
    "night.deals.none": N_("No deal has been played at every table yet."),
    "night.round": N_("Round"),
    "night.deal": N_("Deal"),
    "night.table": NC_("night.table", "Table"),
    "night.ns": N_("NS"),
    "night.ew": N_("EW"),
    "night.mp": N_("Matchpoints NS – EW"),
    "night.finished": N_("The night is over: final results."),
    "night.playing": N_("Round {round} of {rounds} is being played."),
    "night.settings": N_(
        "Tables: {tables} · rounds: {rounds} · deals a round: {deals} · {movement} · empty "
        "seats: {computer}"
    ),
    "night.table_of_round": N_("Round {round}, table {number}"),
    "member.title": N_("Member"),
    "member.rating.hint": N_(
        "The rating is OpenSkill's cautious estimate (mean − 3 × uncertainty): it rises as "
        "you play and win. Computer players count at fixed strengths."
    ),
    "member.mu": N_("(mean {mu}, uncertainty {sigma})"),
    "member.records": N_("Download my records"),
    "member.history": N_("Rating history"),
    "member.history.none": N_("No rated match yet."),
    "member.when": N_("When"),
    "member.what": N_("What"),
    "member.before": N_("Before"),
    "member.after": N_("After"),
    "member.source.night": N_("a club night"),
    "member.source.table": N_("a match"),
    "member.matches": N_("Matches"),
    "member.matches.none": N_("No finished match yet."),
    "member.match": N_("{name}, {when} (seat {seat})"),
    "error.not_signed_in": N_("Sign in as a member of the club first."),
    "error.bad_sign_in": N_("That name and password are not a member's."),
    "error.bad_csrf": N_("The page is out of date: reload it and try again."),
    "error.not_admin": N_("Only the club's administrators can do that."),
    "error.reserved": N_("That seat is another member's at this club night."),
    "error.name_taken": N_("A member already has that name."),
    "error.set_up": N_("The club already has its administrator: sign in."),
    "error.bad_invitation": N_("This invitation has been used or has expired."),
    "error.bad_password": N_("A password is 8 to 256 characters."),
    "error.bad_member": N_("Someone ticked cannot play (disabled?)."),
    "club.passkey.signin": N_("Sign in with a passkey"),
    "club.passkey.signup": N_("Join with a passkey instead"),
    "club.passkey.add": N_("Add a passkey"),
    "club.passkey.added": N_("The passkey is added: sign in with it next time."),
    "error.bad_passkey": N_(
        "That passkey could not be used here: try again, or sign in with the password."
    ),
    "error.passkey_cancelled": N_("No passkey was used."),
    "club.ratings.heading": N_("The club's ratings"),
    "club.ratings.more": N_("All members and club nights"),
    "table.to_night": N_("Back to the club night"),
    "table.night_wait": N_(
        "The other tables of the round are still playing these deals: the replay and the "
        "record open once they have finished."
    ),
}


def words(language: str) -> dict[str, str]:
    """Each key's text in ``language`` (one of ``valtti.locale.LANGUAGES``): the English as it
    is, another language's from its catalogue; ``LookupError`` for a text it does not
    translate."""
    if language == SOURCE:
        return {key: word.text for key, word in WORDS.items()}
    found = catalogue(language)
    out = {}
    for key, (context, text) in WORDS.items():
        message = found.get(text, context=context)
        if message is None or not message.string or message.fuzzy:
            raise LookupError(f"{language}: {key} ({text!r}) is not translated")
        out[key] = str(message.string)
    return out


def catalogue_json(language: str) -> str:
    """``static/i18n/<language>.json`` as it is written: UTF-8, but a character that shows
    nothing (a soft hyphen) escaped, to be seen in the file."""
    text = json.dumps(words(language), ensure_ascii=False, indent=2) + "\n"
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) == "Cf" else c for c in text)


def main() -> int:
    """Write every language's catalogue for the pages."""
    for language in LANGUAGES:
        (STATIC_I18N / f"{language}.json").write_text(catalogue_json(language), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
