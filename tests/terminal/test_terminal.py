"""The terminal game in-process: input parsing, the engine's reasons in words, the screen, help,
the session loop with save and resume, and the replay viewer."""

from __future__ import annotations

import io
import os
import random
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console, RenderableType

from valtti.cli import main
from valtti.coach.reasons import Explanation, Reason, ReasonCode
from valtti.coach.reasons import Hint as HintMoves
from valtti.engine import (
    ACTIONS,
    Action,
    ActionKind,
    Card,
    CardSet,
    Deal,
    DealResult,
    Event,
    Phase,
    Refusal,
    RefusalCode,
    Seat,
    Suit,
    Team,
    Variant,
    score_deal,
)
from valtti.engine.record import Record
from valtti.terminal import guide, hints, i18n, phrases, saving
from valtti.terminal.commands import (
    Empty,
    Help,
    Hint,
    InputError,
    Play,
    Quit,
    Save,
    Score,
    action_words,
    parse,
)
from valtti.terminal.game import start
from valtti.terminal.replay import Viewer, steps
from valtti.terminal.screen import View, render
from valtti.terminal.session import Session
from valtti.terminal.sheets import deal_summary

HAND = list(CardSet.parse("AS TS KS 9S TH QD 6D KC 7C"))


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("en")


def text_of(renderable: RenderableType, width: int = 120) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None, highlight=False)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def flat(text: str) -> str:
    """The words of a screen without frames or line breaks."""
    return " ".join(text.translate({ord(c): " " for c in "│╭╮╰╯─"}).split())


def deal_with(dealer: Seat, fixed: dict[Seat, str]) -> Deal:
    """A deal in which each seat holds the given cards, the rest dealt round the table."""
    hands = {s: list(CardSet.parse(fixed.get(s, ""))) for s in Seat}
    taken = {c for cards in hands.values() for c in cards}
    rest = [Card(c) for c in range(36) if c not in taken]
    for seat in Seat:
        while len(hands[seat]) < 9:
            hands[seat].append(rest.pop())
    return Deal([CardSet(hands[s]) for s in Seat], dealer)


# -- input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("as", Play(Action.parse("AS"))),
        ("10d", Play(Action.parse("TD"))),
        ("td", Play(Action.parse("TD"))),
        ("A♠", Play(Action.parse("AS"))),
        ("1", Play(Action.parse("AS"))),
        (" 9 ", Play(Action.parse("7C"))),
        ("declare h", Play(Action.parse("declare H"))),
        ("DECLARE ♥", Play(Action.parse("declare H"))),
        ("ask whole", Play(Action.ask_whole())),
        ("ask-whole", Play(Action.ask_whole())),
        ("ask half s", Play(Action.parse("ask-half S"))),
        ("ask-half s", Play(Action.parse("ask-half S"))),
        ("answer c", Play(Action.parse("answer C"))),
        ("help", Help()),
        ("?", Help()),
        ("help 10h", Help(Action.parse("TH"))),
        ("help ask half d", Help(Action.parse("ask-half D"))),
        ("help hint", Help()),
        ("help save", Help()),
        ("hint", Hint()),
        ("score", Score()),
        ("save my match.json", Save("my match.json")),
        ('save "my match.json"', Save("my match.json")),
        ("quit", Quit()),
        ("   ", Empty()),
    ],
)
def test_parse(line: str, command: object) -> None:
    assert parse(line, HAND) == command


def test_naming_a_marriage_a_suit_alone_is_the_answer() -> None:
    assert parse("c", HAND, answering=True) == Play(Action.parse("answer C"))
    assert parse("♥", HAND, answering=True) == Play(Action.parse("answer H"))
    assert parse("answer s", HAND, answering=True) == Play(Action.parse("answer S"))
    with pytest.raises(InputError) as refused:
        parse("c", HAND)  # not while playing: no card is named c
    assert "Type a card" in str(refused.value)
    with pytest.raises(InputError) as refused:
        parse("x", HAND, answering=True)
    assert "Name the suit of a marriage you hold" in str(refused.value)


def test_parse_finnish_words_and_english_ones_too() -> None:
    i18n.use("fi")
    assert parse("ilmoita h", HAND) == Play(Action.parse("declare H"))
    assert parse("kysy koko", HAND) == Play(Action.ask_whole())
    assert parse("kysy puoli ♣", HAND) == Play(Action.parse("ask-half C"))
    assert parse("vastaa s", HAND) == Play(Action.parse("answer S"))
    assert parse("ohje", HAND) == Help()
    assert parse("tallenna ottelu.json", HAND) == Save("ottelu.json")
    assert parse("declare h", HAND) == Play(Action.parse("declare H"))
    # The suits' names, Finnish and English: they were not understood.
    assert parse("ilmoita hertta", HAND) == Play(Action.parse("declare H"))
    assert parse("kysy puoli Pata", HAND) == Play(Action.parse("ask-half S"))
    assert parse("vastaa ruutu", HAND) == Play(Action.parse("answer D"))
    assert parse("risti", HAND, answering=True) == Play(Action.parse("answer C"))
    assert parse("ilmoita clubs", HAND) == Play(Action.parse("declare C"))


def test_parse_suit_names_in_english() -> None:
    assert parse("declare hearts", HAND) == Play(Action.parse("declare H"))
    assert parse("ask-half Spades", HAND) == Play(Action.parse("ask-half S"))
    assert parse("answer diamonds", HAND) == Play(Action.parse("answer D"))
    assert parse("clubs", HAND, answering=True) == Play(Action.parse("answer C"))
    with pytest.raises(InputError):
        parse("declare hertta", HAND)  # another language's name: not in English


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("10", "There is no card number 10: your cards are numbered 1 to 9."),
        ("0", "There is no card number 0"),
        ("xyzzy", "Not understood: xyzzy."),
        ("declare", "'declare' needs a suit, and none can be named now."),
        ("ask half", "'ask half' needs a suit, and none can be named now."),
        ("help me", "Not understood: me."),
        ("save", "Save needs a file name"),
        ('save ""', "Save needs a file name"),
        ("-1", "There is no card number -1"),
        ("+2", "There is no card number +2"),
    ],
)
def test_parse_refuses_with_a_reason(line: str, says: str) -> None:
    with pytest.raises(InputError) as refused:
        parse(line, HAND)
    assert says in str(refused.value)


# -- the engine's reasons, in words -------------------------------------------------------------


def _engine_reasons() -> list[Refusal]:
    """Every distinct refusal the engine gives over random deals rich in declarations and
    questions, with the variants whose reasons differ, and in a forced answer phase."""
    reasons: dict[str, Refusal] = {}
    variants = [Variant(), Variant.parse("first_trick_ace=on,whole_ask_after_trump=nobody")]
    deals = []
    for i in range(200):
        rng = random.Random(i)
        deals.append((rng, Deal.shuffled(rng, Seat(i % 4), variants[i % 2])))
    deals.append((random.Random(0), _answering()))
    for rng, deal in deals:
        while True:
            reasons.update((str(r), r) for a in ACTIONS if (r := deal.refusal(a)) is not None)
            if deal.is_over():
                break
            legal = deal.legal_actions()
            talk = [a for a in legal if a.card is None]
            deal.apply(rng.choice(talk) if talk and rng.random() < 0.7 else rng.choice(legal))
    return list(reasons.values())


def _answering() -> Deal:
    """S must name one of two marriages: N took trick 1 and asked for a whole marriage."""
    deal = deal_with(
        Seat.W, {Seat.N: "AD KH QH", Seat.E: "6D", Seat.S: "KS QS KC QC 7D", Seat.W: "8D"}
    )
    for token in ("AD", "6D", "7D", "8D", "ask-whole"):
        deal.apply(Action.parse(token))
    assert deal.phase is Phase.ANSWER
    return deal


def test_every_reason_of_the_engine_has_a_message() -> None:
    reasons = _engine_reasons()
    untranslated = [r for r in reasons if r.code not in phrases.REASONS]
    assert untranslated == []
    assert all(phrases.reason_text(r) for r in reasons)
    unused = [
        message
        for code, message in phrases.REASONS.items()
        if code is not RefusalCode.NOT_AN_ACTION and not any(r.code is code for r in reasons)
    ]
    assert unused == []


def test_a_reason_in_finnish() -> None:
    i18n.use("fi")
    refusal = Refusal(
        RefusalCode.FOLLOW_BEAT, Seat.S, Action.parse("9H"), suit=Suit.H, card=Card.parse("KH")
    )
    assert str(refusal) == "S must follow H with a card that beats KH (RULES.md 3.2a, 3.3)"
    said = phrases.reason_text(refusal)
    assert said == (
        "sinun on tunnustettava maata ♥ kortilla, joka lyö kortin K♥, jos sinulla on sellainen"
    )


# -- what the screen tells ----------------------------------------------------------------------


def _played_out(seed: int) -> tuple[Deal, list[str]]:
    """A random deal, with the news S was told after each action."""
    rng = random.Random(seed)
    deal = Deal.shuffled(rng, Seat.W)
    lines: list[str] = []
    while not deal.is_over():
        before = deal.observation(Seat.S)
        legal = deal.legal_actions()
        talk = [a for a in legal if a.card is None]
        deal.apply(rng.choice(talk) if talk and rng.random() < 0.5 else rng.choice(legal))
        lines.extend(phrases.news(before, deal.observation(Seat.S)))
    return deal, lines


def test_the_news_tell_each_play_trick_and_event_once() -> None:
    for seed in range(10):
        deal, lines = _played_out(seed)
        assert sum(" plays " in line for line in lines) == 36
        assert sum(" takes trick " in line for line in lines) == 9
        assert sum(" declares " in line or " asks " in line for line in lines) == len(deal.events)


def _midway(seed: int, actions: int) -> Deal:
    rng = random.Random(seed)
    deal = Deal.shuffled(rng, Seat.W)
    for _ in range(actions):
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


@pytest.mark.parametrize("seed", range(5))
def test_the_screen_shows_no_card_hidden_from_the_player(seed: int) -> None:
    deal = _midway(seed, 14)
    observation = deal.observation(Seat.S)
    view = View(observation, 1, {s: "random" for s in Seat}, winning=deal.winning_card)
    shown = text_of(render(view))
    hidden = [c for s in Seat if s != Seat.S for c in deal.hand(s)]
    assert hidden and not [c for c in hidden if c.unicode() in shown]
    assert all(c.unicode() in shown for c in deal.hand(Seat.S))


def test_the_screen_shows_trumps_marriages_questions_and_locks() -> None:
    deal = deal_with(Seat.E, {Seat.S: "AD KS QS QH", Seat.N: "KH 6D", Seat.E: "7D", Seat.W: "8D"})
    for token in ("AD", "8D", "6D", "7D", "declare S"):
        deal.apply(Action.parse(token))
    screen = text_of(render(View(deal.observation(Seat.S), 1, {}, ["a line"])))
    shown = flat(screen)
    assert "Trumps: ♠ (NS)" in shown
    assert "S declares ♠ — ♠ trumps, NS +2" in shown
    assert "Locked: nobody" in shown
    assert re.search(r"tricks +1 +0 ", screen) and re.search(r"card points +11 +0 ", screen)
    assert re.search(r"game points +2 +0 ", screen)
    assert "Legal: A♦" not in shown  # A♦ was played
    deal = deal_with(Seat.E, {Seat.S: "AD KS QH", Seat.N: "KH 6D", Seat.E: "7D", Seat.W: "8D"})
    for token in ("AD", "8D", "6D", "7D", "ask-half H"):
        deal.apply(Action.parse(token))
    shown = flat(text_of(render(View(deal.observation(Seat.S), 1, {}))))
    assert "S asks for half ♥: yes — ♥ trumps, NS +2" in shown
    assert "Locked: N S" in shown
    assert "Legal: K♠ " in shown


def test_the_end_of_a_deal_spells_out_overshoot_and_porvoo() -> None:
    # RULES.md 9, case 10: NS 9, EW 6; NS take every trick with one marriage, last and victory.
    result = DealResult((9, 0), (120, 0), (2, 0), Team.NS, (4, 0), Team.NS)
    events = [Event(2, Seat.N, "declare", Suit.H, True, 2)]
    score = score_deal((9, 6), result, Variant())
    shown = flat(text_of(deal_summary(3, result, score, events, Seat.S, 10)))
    assert "Deal 3 is over" in shown
    assert "NS: ♥ trumps 2 + last trick 1 + victory (120 card points) 1 = 4" in shown
    assert "EW: nothing = 0" in shown
    assert "NS 9 + 4 = 13, over 10: back to 7" in shown
    assert "EW took no trick: to Porvoo, 6 → 0" in shown


# -- help -------------------------------------------------------------------------------------


def test_help_in_the_declaration_window_tells_scores_and_locks() -> None:
    deal = deal_with(
        Seat.E, {Seat.S: "AD KS QS KC QC QH", Seat.N: "KH 6D", Seat.E: "7D", Seat.W: "8D"}
    )
    for token in ("AD", "8D", "6D", "7D"):
        deal.apply(Action.parse(token))
    assert deal.phase is Phase.DECLARATION
    said = flat(guide.moment(deal, Seat.S))
    assert "declare ♠: ♠ trumps, NS +2" in said
    assert "ask whole: N names a whole marriage if holding one" in said
    assert "Locked afterwards: S (their own marriages" in said
    assert "ask half ♥: N says yes when holding the other half of ♥" in said
    assert "Locked afterwards: N S" in said
    assert "Any card of your hand may be played." in said
    assert guide.explain(deal, Action.parse("ask-half S")) == (
        "ask half ♠ is not legal now: asking for half ♠ needs exactly one of its king and queen "
        "in your hand."
    )
    deal.apply(Action.parse("declare S"))
    said = flat(guide.explain(deal, Action.parse("declare C")))
    assert said.startswith("declare ♣ is not legal now: you have made your one declaration")


def test_help_while_following_names_the_refused_cards_and_why() -> None:
    deal = deal_with(Seat.S, {Seat.W: "KS", Seat.N: "9S", Seat.E: "AS 7S 6H"})
    deal.apply(Action.parse("KS"))
    deal.apply(Action.parse("9S"))
    said = guide.moment(deal, Seat.E)
    assert "Trick 1: W led ♠; K♠ (W) wins so far. No trumps yet." in said
    assert "Legal cards: A♠" in said
    assert re.search(r"Not legal: 7♠ .*— you must follow ♠ with a card that beats K♠", said)


def test_help_when_partner_must_name_a_marriage() -> None:
    deal = _answering()
    said = guide.moment(deal, Seat.S)
    assert "N asked you for a whole marriage and you hold more than one" in said
    assert "answer ♠ · answer ♣" in said
    assert guide.explain(deal, Action.parse("answer S")) == "answer ♠ is legal now: ♠ trumps, NS +2"
    assert guide.explain(deal, Action.parse("KS")) == (
        "K♠ is not legal now: you must first answer N's question by naming one of your marriages."
    )


# -- the session -------------------------------------------------------------------------------

Policy = Callable[[Session, str], str]


def first_choice(session: Session, prompt: str) -> str:
    """A declaration or question when offered, else the first legal card; Enter between deals;
    at the match's end, Enter and yes to leaving."""
    deal = session.match.deal
    if session.match.is_over():
        return "y" if "(y/n)" in prompt else ""
    if deal is None or deal.is_over():
        return ""
    legal = deal.legal_actions()
    talk = [a for a in legal if a.kind is not ActionKind.PLAY]
    return str(talk[0] if talk else legal[0])


def scripted(session: Session, lines: list[str], then: Policy | None = None) -> list[str]:
    """Make ``session`` read ``lines``, then ask ``then``; returns the prompts it showed."""
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if lines:
            return lines.pop(0)
        if then is None:
            raise EOFError
        return then(session, prompt)

    session.drawing.read = read
    return prompts


def quiet(
    seed: int | None = 1, language: str = "en", resume: Path | None = None
) -> tuple[Session, io.StringIO]:
    """A session against random players that writes its screens to a string."""
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None, highlight=False)
    session = start(
        seed=seed,
        partner=None if resume else "random",
        opponents=None if resume else "random",
        fast=True,
        language=language,
        console=console,
        resume=resume,
    )
    return session, out


def test_unknown_and_illegal_input_explain_themselves_and_change_nothing() -> None:
    session, out = quiet()
    deal = session.table.start_deal()
    while deal.current_player != Seat.S:
        deal.apply(deal.legal_actions()[0])
    history = deal.history
    held = deal.hand(Seat.S)
    refused = next((c for c in held if deal.why_illegal(Action.play(c))), None)
    if refused is None:
        refused = next(c for c in range(36) if c not in held)
    lines = ["xyzzy", str(Card(refused)).lower(), "help", "score", "quit", "y"]
    prompts = scripted(session, lines)
    session.run()
    assert deal.history == history
    said = flat(out.getvalue())
    assert "Not understood: xyzzy." in said
    assert f"{Card(refused).unicode()} is not legal: you " in said
    assert "Match score: NS 0, EW 0; the target is exactly 10. No deal has been scored yet." in said
    assert "NS EW score" not in " ".join(said.split())  # no empty score sheet
    assert prompts[-1].startswith("Leave the match?")


def test_hint_shows_each_moves_value_share_of_worlds_and_reason() -> None:
    session, out = quiet()
    scripted(session, ["hint", "quit", "y"])
    session.run()
    said = out.getvalue()
    assert "The computer player would choose" in flat(said)
    deal = session.match.deal
    assert deal is not None
    reply = said[said.rindex("The computer player would choose") :]
    # A forced move has no value and no share: "—" in both columns.
    rows = re.findall(r"^│ (\S.*?) +([+-]?\d\.\d\d|—) +(\d+%|—)  (\S.*?) *│$", reply, re.MULTILINE)
    # Every legal move, each once, not only the best few.
    legal = {action_words(a) for a in deal.legal_actions()}
    assert f"your {len(legal)} legal move" in flat(reply)
    assert sorted(m for moves, *_ in rows for m in moves.split(", ")) == sorted(legal)
    values = [float(v) for _m, v, _s, _r in rows if v != "—"]
    assert values == sorted(values, reverse=True)
    assert all(0 <= int(share[:-1]) <= 100 for _m, _v, share, _r in rows if share != "—")
    english = {hints.message(Reason(code, session.you)).split(" {")[0] for code in ReasonCode}
    for *_rest, reason in rows:
        words = re.sub(r"^in \d+ of the \d+ deals? examined: ", "", reason)
        assert any(words.startswith(w) for w in english), reason


def test_quitting_can_be_taken_back() -> None:
    session, _out = quiet()
    scripted(session, ["quit", "n"], first_choice)
    session.run()
    assert session.match.is_over()


def test_end_of_input_leaves_the_match() -> None:
    session, out = quiet()
    scripted(session, [])
    session.run()
    assert "End of input: leaving the match." in out.getvalue()
    assert not session.match.is_over()


def saving_in_deal_two(saved: Path) -> Policy:
    """A player who plays the first choice, and at their first turn of deal 2 saves the match
    to ``saved`` and leaves."""

    def choose(session: Session, prompt: str) -> str:
        if len(session.match.deals) == 2 and prompt.startswith("Your"):
            scripted(session, ["quit", "y"])
            return f"save {saved}"
        return first_choice(session, prompt)

    return choose


def test_save_and_resume_continue_exactly(tmp_path: Path) -> None:
    whole, _ = quiet(seed=7)
    scripted(whole, [], first_choice)
    whole.run()
    assert whole.match.is_over()
    expected = Record.of_match(whole.match).to_dict()["deals"]

    saved = tmp_path / "match.json"
    first, out = quiet(seed=7)

    scripted(first, [], saving_in_deal_two(saved))
    first.run()
    assert "Saved to" in out.getvalue()
    record = Record.from_json(saved.read_text())
    assert record.meta == {
        "program": "valtti play",
        "seat": "S",
        "seed": 7,
        "players": {"N": "random", "E": "random", "W": "random"},
    }
    assert len(record.deals) == 2 and record.deals[1].actions

    resumed, out = quiet(seed=None, resume=saved)
    scripted(resumed, [], first_choice)
    resumed.run()
    assert f"Resumed from {saved}." in out.getvalue()
    assert Record.of_match(resumed.match).to_dict()["deals"] == expected


def test_a_resumed_match_keeps_the_records_extra_keys(tmp_path: Path) -> None:
    """RECORD.md: extra keys under ``meta`` are kept on rewrite; a resumed match saved again
    lost every key the terminal does not write itself, and each deal's meta."""
    saved = tmp_path / "match.json"
    first, _out = quiet(seed=7)

    scripted(first, [], saving_in_deal_two(saved))
    first.run()
    record = Record.from_json(saved.read_text())
    assert record.meta is not None
    record.meta["event"] = "club night"
    record.deals[0].meta = {"comment": "a Porvoo, nearly"}
    saved.write_text(record.to_json())

    again = tmp_path / "again.json"
    resumed, _out = quiet(seed=None, resume=saved)
    scripted(resumed, [f"save {again}", "quit", "y"])
    resumed.run()
    rewritten = Record.from_json(again.read_text())
    assert rewritten.meta == record.meta
    assert [d.meta for d in rewritten.deals] == [{"comment": "a Porvoo, nearly"}, None]


def test_save_reports_a_file_that_cannot_be_written(tmp_path: Path) -> None:
    session, out = quiet()
    scripted(session, [f"save {tmp_path}/missing/dir/x.json", "quit", "y"])
    session.run()
    assert f"Could not save to {tmp_path}/missing/dir/x.json: No such file" in flat(out.getvalue())


def test_save_writes_through_a_link_and_never_over_what_is_not_a_file(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old\n")
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    session, out = quiet()
    # "maybe" is no answer: the question is asked again.
    fresh = tmp_path / "new.json"
    lines = [f"save {link}", "maybe", "y", f"save {fifo}", f"save {tmp_path}", f"save {fresh}"]
    prompts = scripted(session, [*lines, "save nul\0here.json", "quit", "y"])
    umask = os.umask(0o022)
    try:
        session.run()
    finally:
        os.umask(umask)
    said = flat(out.getvalue())
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644  # a new file: the umask's permissions
    assert "Could not save to nul" in said  # a NUL cannot be in a path
    assert prompts[2].startswith("Please answer y or n. ") and "Replace it?" in prompts[2]
    assert link.is_symlink() and Record.from_json(real.read_text()).meta is not None
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert f"Not saved: {fifo} is not a file." in said and stat.S_ISFIFO(fifo.stat().st_mode)
    assert f"Not saved: {tmp_path} is not a file." in said
    with pytest.raises(saving.NotRegularFileError):
        saving.write_atomic(fifo, "x")


def test_legal_moves_are_named_in_the_hands_order() -> None:
    hand = CardSet.parse("AH TH JH 9S 6S")
    legal = [Action.parse(t) for t in ("6S", "JH", "ask-whole", "TH", "AH", "9S")]
    assert [str(a) for a in phrases.in_hand_order(hand, legal)] == [
        *(str(c) for c in hand),  # 6♠ is card 0: still in its place
        "ask-whole",
    ]


def test_the_hint_table_keeps_its_columns_when_many_moves_share_a_line() -> None:
    why = Reason(ReasonCode.ONLY, Seat.S)
    explanations = [Explanation(Action.parse("JD"), 0.07, 0.87, 8, why)] + [
        Explanation(Action.parse(card), 0.06, 0.7, 8, why) for card in ("7D", "7C", "8C", "9C")
    ]
    lines = hints.hint_lines(HintMoves(tuple(explanations)))
    value_at = lines[0].index("value") + len("value")
    rows = [line for line in lines[1:] if "%" in line]
    assert len(rows) == 2
    assert all(line[value_at - 5 : value_at] in ("+0.07", "+0.06") for line in rows)
    assert "7♦, 7♣, 8♣, 9♣" in lines[2] and "%" not in lines[2]


def test_a_long_reason_wraps_under_the_reasons_column() -> None:
    # At 80 columns "in 6 of the 12 deals examined: your team misses the ♦ marriage" ran back
    # to the left edge, under the moves.
    why = Reason(ReasonCode.MISSES_MARRIAGE, Seat.S, suit=Suit.D, share=0.5, deals=12, shown=6)
    lines = hints.hint_lines(HintMoves((Explanation(Action.parse("QD"), 0.23, 0.44, 16, why),)))
    at = hints.reason_column(lines)
    assert lines[1][at:].startswith("in 6 of the 12 deals: your team")
    out = io.StringIO()
    Console(file=out, width=40, color_system=None).print(hints.Hanging(lines[1], at))
    drawn = out.getvalue().splitlines()
    assert len(drawn) > 1 and all(len(line) <= 40 for line in drawn), drawn
    assert drawn[0] == lines[1][: len(drawn[0])]
    assert all(line[:at].strip() == "" and line[at] != " " for line in drawn[1:]), drawn
    assert " ".join(" ".join(drawn).split()) == " ".join(lines[1].split())  # nothing lost


def test_a_hint_value_that_rounds_to_zero_is_zero_not_minus_zero() -> None:
    # The terminal's hint and valtti hint both print these lines; the web shows 0.00 unsigned.
    why = Reason(ReasonCode.AS_GOOD, Seat.S)
    values = (0.006, 0.004, 0.0, -0.0, -0.004, -0.006)
    explanations = [
        Explanation(Action.play(card), value, share / 10, 8, why)  # shares apart: a line each
        for share, (card, value) in enumerate(zip(HAND[:6], values, strict=True))
    ]
    shown = [line.split()[1] for line in hints.hint_lines(HintMoves(tuple(explanations)))[1:]]
    assert shown == ["+0.01", "0.00", "0.00", "0.00", "0.00", "-0.01"]


def test_a_finnish_session_speaks_finnish() -> None:
    session, out = quiet(language="fi")
    prompts = scripted(session, ["ohje", "lopeta", "k"])
    session.run()
    said = flat(out.getvalue())
    # Finnish seat letters: S is E (etelä).
    assert "Jako 1" in said and "Kätesi (E)" in said and "Kirjoita kortti" in said
    assert prompts[-1].startswith("Poistutaanko ottelusta?")


# -- command line --------------------------------------------------------------------------------


def test_play_refuses_bad_options_and_files(tmp_path: Path) -> None:
    runner = CliRunner()
    for args, says in [
        (["--resume", str(tmp_path / "none.json")], "cannot read"),
        (["--variant", "target=11"], "variant switch 'target' cannot be"),
        (["--variant", "must_overtrump=no"], "must_overtrump' cannot be 'no': allowed on | off"),
        (["--partner", "nobody"], "unknown player 'nobody'"),
        (["--resume", str(tmp_path / "none.json"), "--seed", "3"], "come from the record"),
    ]:
        result = runner.invoke(main, ["play", "--lang", "en", *args])
        assert result.exit_code == 2, args
        assert says in result.output, args
    # The help spells a yes/no switch as the errors do: on or off (true and false are taken).
    for command in ("play", "arena"):
        shown = " ".join(runner.invoke(main, [command, "--help"]).output.split())
        assert "must_overtrump=off" in shown and "on or off" in shown, shown
        assert "=false" not in shown and "=true" not in shown, shown
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = runner.invoke(main, ["play", "--lang", "en", "--resume", str(bad)])
    assert result.exit_code == 2 and "malformed record" in result.output


@pytest.mark.parametrize(
    ("lang", "variant", "says"),
    [
        ("en", "bogus=1", "unknown variant switch 'bogus': known are target, overshoot_to"),
        ("en", "target=11", "variant switch 'target' cannot be '11': allowed 10 | 12"),
        ("en", "must_overtrump=no", "switch 'must_overtrump' cannot be 'no': allowed on | off"),
        ("fi", "bogus=1", "tuntematon sääntövalinta 'bogus': tunnetut ovat target, overshoot_to"),
        ("fi", "target=11", "sääntövalinta 'target' ei voi olla '11': sallitut 10 | 12"),
        ("fi", "must_overtrump=no", "sääntövalinta 'must_overtrump' ei voi olla 'no': sallitut on"),
    ],
)
def test_play_says_a_bad_variant_in_the_players_language(
    lang: str, variant: str, says: str
) -> None:
    # In Finnish these were the engine's English: now the words a record's switches get.
    result = CliRunner().invoke(main, ["play", "--lang", lang, "--variant", variant])
    assert result.exit_code == 2
    assert says in result.output


@pytest.mark.parametrize(
    ("lang", "option", "given", "says"),
    [
        ("en", "--partner", "nobody", "unknown player 'nobody': known are beginner, club"),
        ("en", "--opponents", "search:ultra", "unknown search level 'ultra': levels are easy"),
        ("en", "--opponents", "random:3", "the random player has no levels"),
        ("fi", "--partner", "nobody", "tuntematon pelaaja 'nobody': tunnetut ovat beginner"),
        ("fi", "--opponents", "search:ultra", "pelaajalla search ei ole tasoa 'ultra': tasot"),
        ("fi", "--opponents", "pimc:x", "pelaajalla pimc ei ole tasoa 'x': tasot ovat easy"),
        ("fi", "--opponents", "heuristic:x", "pelaajalla heuristic ei ole tasoja"),
        ("en", "--seat", "X", "unknown seat 'X': seats are N, E, S, W (north, east, south, west)"),
        ("en", "--seed", "abc", "--seed takes a whole number, not 'abc'"),
        ("fi", "--seat", "P", "tuntematon paikka 'P': paikat ovat N, E, S, W (pohjoinen, itä"),
        ("fi", "--seed", "1.5", "--seed on kokonaisluku, ei '1.5'"),
    ],
)
def test_play_says_a_bad_option_in_the_players_language(
    lang: str, option: str, given: str, says: str
) -> None:
    # In Finnish an unknown player or level was the registry's English, as --variant was; a bad
    # seat or seed was click's English: the game checks them all now.
    result = CliRunner().invoke(main, ["play", "--lang", lang, option, given])
    assert result.exit_code == 2
    assert says in result.output


def test_a_seat_and_seed_given_as_the_command_lines_text() -> None:
    console = Console(file=io.StringIO())
    session = start(seat="e", seed=" 12 ", partner="random", opponents="random", console=console)
    assert session.setup.you == Seat.E and session.setup.seed == 12


# -- replay --------------------------------------------------------------------------------------


def _finished_match(seed: int = 3) -> Session:
    session, _out = quiet(seed=seed)
    scripted(session, [], first_choice)
    session.run()
    return session


def test_replay_steps_through_each_trick() -> None:
    match = _finished_match().match
    found = steps(match)
    # Each deal: its start, the lead of tricks 2 to 9, its end.
    assert len(found) == 10 * len(match.deals)
    viewer = Viewer(match, Seat.S, {})
    first = flat(text_of(viewer.frame(0)))
    assert "Deal 1" in first and "trick 1/9" in first
    end = flat(text_of(viewer.frame(9)))
    assert "Deal 1 is over" in end
    for seat in (Seat.N, Seat.E, Seat.W):
        assert all(c.unicode() in first for c in match.deals[0].initial_hands[seat])


def test_replay_show_on_the_command_line(tmp_path: Path) -> None:
    session = _finished_match()
    path = tmp_path / "match.json"
    path.write_text(Record.of_match(session.match, session.setup.meta()).to_json())
    result = CliRunner().invoke(main, ["replay", str(path), "--show"], input="\n\nb\nq\n")
    assert result.exit_code == 0, result.output
    assert "Step 3 of" in result.output and "Step 2 of" in result.output
    assert "S takes trick 1" in result.output or " takes trick 1 " in result.output
