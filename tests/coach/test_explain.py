"""Explanations: each legal action's value, its share of worlds where it is best, and the reason
found by playing out the solver's lines (coach.explain), in English and Finnish."""

from __future__ import annotations

import json
import math
import os
import random
import re
import string
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from valtti.cli import COMMANDS, main
from valtti.cli import hint as hint_command
from valtti.coach.explain import explain, explain_worlds
from valtti.coach.reasons import Explanation, Reason, ReasonCode
from valtti.engine import Action, Card, CardSet, Deal, Match, Observation, Seat, Suit, Variant
from valtti.engine.record import Record
from valtti.engine.solver import DealValue, Solver
from valtti.players.equity import match_equity
from valtti.players.sampler import Hands
from valtti.players.worlds import rebuild
from valtti.terminal import hints, i18n

# Each position is a deal from these hands (dealer W, so N leads trick 1) after a legal play
# of its first tricks, chosen so that the cards left are the ones the case needs.

#: N leads trick 8 with AS and 6H; NS made clubs trumps (so no ask-whole) and have 79 card
#: points. Leading 6H lets the trick's winner lead a spade to AS in trick 9.
LAST_TRICK = (
    ["AS JS AH 6H 6D AC KC QC 9C", "TS KS 7S JH 7H AD TD KD QD"],
    ["8S 6S TH 8H JD 9D 7D JC 8C", "QS 9S KH QH 9H 8D TC 7C 6C"],
    "AH JH TH QH declare_C KC QD 8C TC 7C AC TS JC 9C AD JD 6C JS KS 6S QS KD 7D 8D 6D TD 9D KH QC",
)
#: N won trick 6 holding KC QC QH, no trumps yet: declaring clubs makes trumps; any question
#: locks N, which breaks the club marriage.
MARRIAGE = (
    ["QH JH 9H 7H KD TC KC QC 8C", "AS AH KH AD 9D 7D 6D 7C 6C"],
    ["JS 8S 7S 6S TH 6H TD AC 9C", "TS KS QS 9S 8H QD JD 8D JC"],
    "KD AD TD QD 7C AC JC 8C TH 8H 7H AH 9D 6H JD JH QS 9H AS JS 6C 9C KS TC",
)
#: N won trick 6 holding KD QD 6H; EW made clubs trumps: declaring diamonds is a little trump,
#: and N cannot win another trick in time to declare later.
LITTLE_TRUMP = (
    ["KS TH 6H KD QD AC 9C 8C 6C", "AS AH 9H 8H 7H TC KC QC 7C"],
    ["QS 8S 7S 6S QH 9D 8D 6D JC", "TS JS 9S KH JH AD TD JD 7D"],
    "KS AS QS TS declare_C TC JC JD AC TH AH QH KH KC 6D JS 9C QC 9D TD 6C 7C 8D AD 8C",
)


#: N won trick 6 holding QH 7C 6C and S holds KS QS, no trumps yet: a whole question has S name
#: spades; a half question for hearts, which S cannot answer, locks S and breaks them.
PARTNERS_MARRIAGE = (
    ["TS 6S TH QH JH QD TC 7C 6C", "AH KH 9H AD KD 7D QC JC 8C"],
    ["AS KS QS JS 8H 7H JD 6D KC", "9S 8S 7S 6H TD 9D 8D AC 9C"],
    "6S AD AS 9S 7H 6H JH AH JC KC AC TC TD QD KD JD 8S TS QC JS TH 9H 8H 7S",
)


def position(case: tuple[list[str], list[str], str]) -> Deal:
    north_east, south_west, play = case
    hands = [CardSet.parse(h.split()) for h in (*north_east, *south_west)]
    deal = Deal(hands, Seat.W)
    deal.replay(Action.parse(token.replace("_", " ")) for token in play.split())
    return deal


@dataclass(frozen=True)
class OpenWorld:
    """The one world where every hand is the real one (``coach.explain.SolvedWorld``)."""

    hands: Hands
    weight: float
    values: dict[Action, float]

    def deal(self, observation: Observation) -> Deal:
        return rebuild(observation, self.hands)


@dataclass(frozen=True)
class Exact:
    """The exact value of an action with every hand known (``coach.explain.Estimate``)."""

    action: Action
    value: float
    best_share: float
    worlds: int = 1


def open_explanations(deal: Deal, score: tuple[int, int] = (0, 0)) -> list[Explanation]:
    """The explanation in the real world alone, solved exactly: no sampling in the way."""
    observation = deal.observation(_to_move(deal)).with_score(score)
    value = DealValue.match(score, deal.variant, match_equity(deal.variant))
    solver = Solver(table_bits=16)
    solved = dict(solver.solve(deal, value))
    top = max(solved.values())
    estimates = sorted(
        (Exact(a, v, float(v >= top - 1e-9)) for a, v in solved.items()), key=lambda e: -e.value
    )
    world = OpenWorld(deal.hands, 1.0, solved)
    return explain_worlds(observation, estimates, [world], lambda d: solver.line(d, value), value)


def reasons(explanations: list[Explanation]) -> dict[str, Reason]:
    return {str(e.action): e.reason for e in explanations}


def test_the_positions_are_the_ones_described() -> None:
    last = position(LAST_TRICK)
    assert last.current_player is Seat.N and last.hand(Seat.N) == CardSet.parse(["AS", "6H"])
    assert last.trump is Suit.C and last.result().card_points[0] > 60
    assert {str(a) for a in last.legal_actions()} == {"AS", "6H"}
    marriage = position(MARRIAGE)
    assert marriage.hand(Seat.N) == CardSet.parse(["KC", "QC", "QH"]) and marriage.trump is None
    assert {"declare C", "ask-whole", "ask-half H"} <= {str(a) for a in marriage.legal_actions()}
    little = position(LITTLE_TRUMP)
    assert (
        little.trump is Suit.C
        and little.trump_team is not None
        and "declare D" in {str(a) for a in little.legal_actions()}
    )


def test_keeping_the_ace_for_the_last_trick() -> None:
    said = reasons(open_explanations(position(LAST_TRICK)))
    assert said["6H"].code is ReasonCode.KEEPS_LAST
    assert str(said["6H"].card) == "AS"
    assert said["AS"].code is ReasonCode.GIVES_UP_LAST
    assert str(said["6H"]) == "keeps AS for the last trick"


@pytest.mark.parametrize(("behind", "named"), [(0.004, False), (0.006, True)])
def test_a_move_the_hint_shows_at_the_best_value_is_as_good_as_the_best(
    behind: float, named: bool
) -> None:
    # Two moves shown at the same value (-0,14) had one "give up the last trick": what a few
    # worlds said, where the estimates, shown to the hundredth, differed by less than that.
    deal = position(LAST_TRICK)
    observation = deal.observation(Seat.N)
    value = DealValue.match((0, 0), deal.variant, match_equity(deal.variant))
    solver = Solver(table_bits=16)
    solved = dict(solver.solve(deal, value))
    keep, lead = Action.parse("6H"), Action.parse("AS")
    assert solved[keep] > solved[lead]  # in this world leading the ace loses the last trick
    estimates = [Exact(keep, -0.14, 0.9), Exact(lead, -0.14 - behind, 0.9)]
    world = OpenWorld(deal.hands, 1.0, solved)
    line = lambda d: solver.line(d, value)  # noqa: E731
    said = reasons(explain_worlds(observation, estimates, [world], line, value))
    if named:
        assert said["6H"].code is ReasonCode.KEEPS_LAST
        assert said["AS"].code is ReasonCode.GIVES_UP_LAST
    else:
        assert said["6H"].code is ReasonCode.BEST_ON_AVERAGE
        assert said["AS"].code is ReasonCode.AS_GOOD


def test_near_the_target_taking_fewer_points_avoids_overshooting() -> None:
    # NS at 7 with trumps (2) and the victory point (1) made: the last trick would be one too
    # many, so giving it up is best.
    explanations = open_explanations(position(LAST_TRICK), score=(7, 0))
    assert str(explanations[0].action) == "AS"
    said = reasons(explanations)
    assert said["AS"].code is ReasonCode.REACHES_TARGET
    assert said["6H"].code is ReasonCode.OVERSHOOTS and said["6H"].points == 7


def test_a_declaration_and_a_question_that_locks_the_marriage() -> None:
    explanations = open_explanations(position(MARRIAGE))
    assert str(explanations[0].action) == "declare C"
    said = reasons(explanations)
    assert said["declare C"].code is ReasonCode.DECLARES
    assert said["declare C"].suit is Suit.C and said["declare C"].points == 2
    for question in ("ask-half H", "ask-whole"):
        assert said[question].code is ReasonCode.LOCKS_MARRIAGE, question
        assert said[question].suit is Suit.C and not said[question].partner
    assert said["QH"].code is ReasonCode.MISSES_MARRIAGE


def test_a_half_question_that_locks_the_partners_marriage() -> None:
    explanations = open_explanations(position(PARTNERS_MARRIAGE))
    assert str(explanations[0].action) == "ask-whole"
    said = reasons(explanations)
    assert said["ask-whole"].code is ReasonCode.MAKES_MARRIAGE and said["ask-whole"].suit is Suit.S
    assert said["ask-half H"].code is ReasonCode.LOCKS_MARRIAGE
    assert said["ask-half H"].suit is Suit.S and said["ask-half H"].partner
    assert str(said["ask-half H"]) == "its locks break S's S marriage"
    i18n.use("fi")
    try:
        assert hints.reason_words(said["ask-half H"]) == "sen lukitus rikkoo kumppanisi parin ♠"
    finally:
        i18n.use("en")


def test_a_little_trump() -> None:
    said = reasons(open_explanations(position(LITTLE_TRUMP)))
    assert said["declare D"].code is ReasonCode.DECLARES and said["declare D"].points == 1
    assert str(said["declare D"]) == "declares D: little trump, 1"


def test_the_only_legal_move() -> None:
    deal = position(LAST_TRICK)
    deal.apply(Action.parse("6H"))
    while deal.current_player is not Seat.N:
        deal.apply(deal.legal_actions()[0])
    (only,) = open_explanations(deal)
    assert only.reason.code is ReasonCode.ONLY
    # A forced move is the rules', not a guess: no value, no share, no deal sampled.
    hint = explain(deal.observation(Seat.N))
    (hinted,) = hint.moves
    assert hinted.reason.code is ReasonCode.ONLY and hinted.reason.certain
    assert (hinted.value, hinted.best_share, hinted.worlds) == (None, None, 0)
    assert (hint.deals, hint.possible, hint.exact) == (0, 0, False)
    assert hinted.to_dict()["value"] is None and "share" not in hinted.to_dict()["reason"]
    assert hints.hint_lines(hint)[1].split()[1:3] == ["—", "—"]
    assert hints.hint_key(hint) == "value: — · best: — (a forced move: nothing to weigh)"


@pytest.mark.parametrize(
    ("case", "score", "expected"),
    [
        (LAST_TRICK, (0, 0), {"6H": ReasonCode.KEEPS_LAST}),
        (LAST_TRICK, (7, 0), {"AS": ReasonCode.REACHES_TARGET, "6H": ReasonCode.OVERSHOOTS}),
        (
            MARRIAGE,
            (0, 0),
            {"declare C": ReasonCode.DECLARES, "ask-half H": ReasonCode.LOCKS_MARRIAGE},
        ),
    ],
    ids=["last trick", "near the target", "marriage"],
)
def test_the_pimc_players_explanation(
    case: tuple[list[str], list[str], str], score: tuple[int, int], expected: dict[str, ReasonCode]
) -> None:
    deal = position(case)
    observation = deal.observation(Seat.N).with_score(score)
    explanations = explain(observation, "hard").moves
    assert sorted(e.action for e in explanations) == sorted(observation.legal_actions)
    assert all(e.best_share is not None and 0.0 <= e.best_share <= 1.0 for e in explanations)
    shares = [e.reason.share for e in explanations if e.reason.share is not None]
    assert all(0.0 <= s <= 1.0 for s in shares)
    values = [e.value for e in explanations if e.value is not None]
    assert len(values) == len(explanations) and values == sorted(values, reverse=True)
    assert explanations[0].best_share == max(e.best_share or 0.0 for e in explanations)
    assert {a: reasons(explanations)[a].code for a in expected} == expected


def test_explain_refuses_a_seat_not_to_move_and_an_unknown_level() -> None:
    deal = position(LAST_TRICK)
    with pytest.raises(ValueError, match="not to move"):
        explain(deal.observation(Seat.E), "easy")
    with pytest.raises(ValueError, match="levels are"):
        explain(deal.observation(Seat.N), "grandmaster")


def test_to_dict_names_the_code_the_arguments_and_the_english() -> None:
    said = reasons(open_explanations(position(LAST_TRICK)))
    assert said["6H"].to_dict() == {
        "code": "keeps_last",
        "text": "keeps AS for the last trick",
        "seat": "N",
        "certain": True,
        "card": "AS",
        "share": 1.0,
        "shown": 1,
        "deals": 1,
    }


def _every_reason() -> list[Reason]:
    """One reason of each code, and each message its arguments choose."""
    out = [
        Reason(code, Seat.S, card=Card.parse("AS"), suit=Suit.C, points=2) for code in ReasonCode
    ]
    out.append(Reason(ReasonCode.DECLARES, Seat.S, suit=Suit.H, points=1))
    out.append(Reason(ReasonCode.LOCKS_MARRIAGE, Seat.S, suit=Suit.H, partner=True))
    return out


def test_every_reason_has_english_words() -> None:
    for reason in _every_reason():
        assert str(reason) and "None" not in str(reason), reason.code


def test_finnish_translates_every_reason() -> None:
    fi = i18n.translations("fi")
    messages = {hints.message(r) for r in _every_reason()}
    assert set(hints.REASONS.values()) <= messages
    for message in messages:
        translated = fi.gettext(message)
        assert translated != message, message
        fields = {name for _, name, _, _ in string.Formatter().parse(translated) if name}
        assert fields == {name for _, name, _, _ in string.Formatter().parse(message) if name}
    i18n.use("fi")
    try:
        words = hints.reason_words(Reason(ReasonCode.KEEPS_LAST, Seat.S, card=Card.parse("AS")))
    finally:
        i18n.use("en")
    assert words == "säästää kortin A♠ viimeiseen tikkiin"


def test_every_legal_action_is_explained() -> None:
    deal = Deal.shuffled(random.Random(4), Seat.S)
    for _ in range(20):
        deal.apply(deal.legal_actions()[0])
    observation = deal.observation(_to_move(deal))
    hint = explain(observation, "easy")
    assert sorted(e.action for e in hint.moves) == sorted(observation.legal_actions)
    assert hint.exact or hint.deals == 16
    assert all(e.worlds == hint.deals and 0 <= (e.best_share or 0) <= 1 for e in hint.moves)
    assert sum(e.best_share or 0 for e in hint.moves) == pytest.approx(1.0)  # ties shared


def _record(tmp_path: Path, actions: int) -> Path:
    rng = random.Random(8)
    match = Match(Variant(), Seat.E)
    match.start_deal(rng=rng)
    for _ in range(actions):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    path = tmp_path / "game.json"
    path.write_text(Record.of_match(match).to_json())
    return path


def test_hint_command(tmp_path: Path) -> None:
    path = _record(tmp_path, 10)
    run = CliRunner().invoke(main, ["hint", str(path), "--level", "easy", "--json"])
    assert run.exit_code == 0, run.output
    out = json.loads(run.output)
    match = Record.from_json(path.read_text()).replay()
    assert out["to_move"] == str(match.current_player) and out["level"] == "easy"
    assert sorted(e["action"] for e in out["estimates"]) == sorted(
        str(a) for a in match.legal_actions()
    )
    assert out["choice"] == out["estimates"][0]["action"]
    codes = {str(code) for code in ReasonCode}
    for estimate in out["estimates"]:
        assert 0.0 <= estimate["best_share"] <= 1.0 and estimate["worlds"] >= 1
        assert estimate["reason"]["code"] in codes and estimate["reason"]["text"]
    values = [e["value"] for e in out["estimates"]]
    assert values == sorted(values, reverse=True)
    text = CliRunner().invoke(main, ["hint", str(path), "--level", "easy", "--lang", "en"])
    assert text.exit_code == 0 and "would choose" in text.output
    assert "move value best why" in " ".join(text.output.split())
    worlds = out["estimates"][0]["worlds"]
    assert out["deals"] == worlds >= 16
    assert f"the mean over {worlds} sampled deals" in " ".join(text.output.split())
    assert "The top two differ by" in text.output
    finnish = CliRunner().invoke(main, ["hint", str(path), "--level", "easy", "--lang", "fi"])
    assert finnish.exit_code == 0 and "Tietokonepelaaja valitsisi" in finnish.output


#: What ``valtti hint`` runs in a process of its own: the command, then what it imported and
#: how many threads the process has (Linux: its tasks).
HINT_PROCESS = """
import json, os, sys
from valtti.cli import COMMANDS, main
from valtti.cli import hint as hint_command
sys.argv = ["valtti", "hint", *sys.argv[1:]]
try:
    main()
except SystemExit as e:
    assert not e.code, e.code
tasks = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None
print(json.dumps({"modules": sorted(sys.modules), "threads": tasks}))
"""
#: What a hint does not need: the other commands and front ends, the registry of players with
#: the sandbox, and the libraries of the web server, the screen and training.
NOT_FOR_A_HINT = (
    "valtti.web",
    "valtti.arena",
    "valtti.research",
    "valtti.table",
    "valtti.bench",
    "valtti.players.registry",
    "valtti.players.sandbox",
    "valtti.players.heuristic",
    "valtti.players.external",
    "valtti.terminal.session",
    "valtti.terminal.screen",
    "rich",
    "fastapi",
    "starlette",
    "sqlalchemy",
    "uvicorn",
    "ray",
    "torch",
    *(f"valtti.cli.{name}" for name in COMMANDS if name != "hint"),
)


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_the_hint_command_imports_only_what_a_hint_needs(tmp_path: Path, lang: str) -> None:
    """``valtti hint`` starts with the hint's own modules (issue 42: its start-up was 0.4 s of
    CPU): not every command's, nor English's catalogue (English is the source), and numpy's
    BLAS on one thread, whose idle threads would spin (docs/MEASUREMENTS.md, Hints)."""
    path = _record(tmp_path, 10)
    env = {k: v for k, v in os.environ.items() if k not in hint_command.BLAS_THREADS}
    run = subprocess.run(
        [sys.executable, "-c", HINT_PROCESS, str(path), "--level", "easy", "--lang", lang],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    said = json.loads(run.stdout.splitlines()[-1])
    modules = set(said["modules"])
    assert "valtti.coach.explain" in modules and "numpy" in modules
    assert not {m for m in modules if m.startswith(NOT_FOR_A_HINT)}, sorted(modules)
    assert ("babel.messages" in modules) is (lang == "fi")  # a catalogue only for Finnish
    if said["threads"] is not None:
        assert said["threads"] == 1


@pytest.mark.parametrize(("lang", "mark", "other"), [("fi", ",", "."), ("en", ".", ",")])
def test_the_hint_values_have_the_languages_decimal_mark(
    tmp_path: Path, lang: str, mark: str, other: str
) -> None:
    """In Finnish the values read -0.32 where the web's hint reads -0,32."""
    path = _record(tmp_path, 10)
    run = CliRunner().invoke(main, ["hint", str(path), "--level", "easy", "--lang", lang])
    assert run.exit_code == 0, run.output
    rows = run.output.splitlines()[3:]  # under the heading, the key and the columns' names
    values = [v for row in rows for v in re.findall(r" ([+-]?\d+[.,]\d\d) ", row)]
    assert values and all(mark in v and other not in v for v in values), run.output


def test_a_hint_is_the_same_on_a_machine_however_slow(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is solver work and the seed the position's: the clock plays no part."""
    deal = Deal.shuffled(random.Random(4), Seat.S)
    for _ in range(14):
        deal.apply(deal.legal_actions()[0])
    while len(deal.legal_actions()) < 2:
        deal.apply(deal.legal_actions()[0])
    observation = deal.observation(_to_move(deal))

    def hint() -> list[dict[str, object]]:
        return [e.to_dict() for e in explain(observation, "medium").moves]

    quiet = hint()
    worlds = quiet[0]["worlds"]
    assert isinstance(worlds, int) and worlds >= 16
    ticks = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: 0.25 * next(ticks))  # a crawling machine
    monkeypatch.setattr(time, "monotonic", lambda: 0.25 * next(ticks))
    assert hint() == quiet


def test_hint_command_refuses_a_finished_deal(tmp_path: Path) -> None:
    path = _record(tmp_path, 0)
    match = Record.from_json(path.read_text()).replay()
    assert match.deal is not None
    match.deal.playout(random.Random(1))
    path.write_text(Record.of_match(match).to_json())
    run = CliRunner().invoke(main, ["hint", str(path)])
    assert run.exit_code == 2
    assert "nobody is to move" in run.output


@pytest.mark.parametrize("case", [LAST_TRICK, MARRIAGE, PARTNERS_MARRIAGE, LITTLE_TRUMP])
def test_a_line_played_out_is_worth_what_the_solver_says(
    case: tuple[list[str], list[str], str],
) -> None:
    # The reasons weigh what happens along the lines by the solver's values of the actions:
    # the two must agree.
    deal = position(case)
    value = DealValue.match((0, 0), deal.variant, match_equity(deal.variant))
    solver = Solver(table_bits=16)
    for action, worth in solver.solve(deal, value):
        played = deal.copy()
        played.apply(action)
        for a in solver.line(played, value):
            played.apply(a)
        assert played.is_over()
        assert value(played) == pytest.approx(worth), action  # N's team is NS


def test_a_value_that_rounds_to_zero_is_plus_zero_in_json() -> None:
    """``valtti hint --json`` and the web hint never show -0.0 (a value just below zero)."""
    reason = Reason(ReasonCode.KEEPS_LAST, Seat.S, card=Card.parse("AS"))
    value = Explanation(Action.parse("AS"), -0.00001, 0.5, 4, reason).to_dict()["value"]
    assert value == 0.0 and math.copysign(1.0, value) == 1.0


def _to_move(deal: Deal) -> Seat:
    """The seat to move in ``deal``, N once it is over."""
    return Seat.N if deal.current_player is None else deal.current_player
