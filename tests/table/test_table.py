"""The seat driver (valtti.table): seeds, whole runs, steps, listeners, faults, clocks, resumes."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from valtti.engine import Action, CardSet, IllegalActionError, Match, Observation, Seat, Variant
from valtti.engine.record import Record
from valtti.players import Player, registry
from valtti.players.base import RandomPlayer
from valtti.table import (
    Computer,
    PlayerFault,
    Table,
    deal_cards,
    decide_once,
    decision_seed,
    derive_seed,
    first_dealer,
)
from valtti.table.pace import WINDOW, Pace

RANDOM = {seat: Computer("random") for seat in Seat}


def deals_of(match: Match) -> list[dict[str, Any]]:
    return Record.of_match(match).to_dict()["deals"]


def test_a_seed_is_53_bits_the_same_on_every_run_and_its_own_for_each_use() -> None:
    assert derive_seed(1, "deal", 1) == 1862978757582190  # sha256: fixed across runs and hosts
    seeds = {derive_seed(s, what, n) for s in range(20) for what in ("deal", "x") for n in (1, 2)}
    assert len(seeds) == 80
    assert all(0 <= s < 2**53 for s in seeds)
    assert {first_dealer(s) for s in range(40)} == set(Seat)


def test_every_seed_of_a_match_comes_from_the_table_seed() -> None:
    table = Table(RANDOM, 5)
    assert table.match.first_dealer == first_dealer(5)
    table.run()
    assert table.match.is_over()
    for number, deal in enumerate(table.match.deals, 1):
        assert tuple(deal.initial_hands) == deal_cards(5, number) == table.hands(number)
    again = Table(RANDOM, 5)
    again.run()
    assert deals_of(again.match) == deals_of(table.match)
    other = Table(RANDOM, 6)
    other.run()
    assert deals_of(other.match) != deals_of(table.match)


def test_step_by_step_as_the_web_would_gives_the_match_that_run_gives() -> None:
    whole = Table(RANDOM, 11, variant=Variant(target=12))
    whole.run()
    stepped = Table(RANDOM, 11, variant=Variant(target=12))
    while not stepped.match.is_over():
        if stepped.needs_deal:
            stepped.start_deal()
        seat = stepped.to_move
        assert seat is not None
        match = stepped.match
        seed = stepped.decision_seed()
        assert seed == decision_seed(11, seat, sum(len(d.history) for d in match.deals))
        # What a worker process would decide, given the spec, the seed and the observation.
        stepped.apply(decide_once("random", seed, match.observation(seat)))
    assert stepped.to_move is None and not stepped.needs_deal
    assert deals_of(stepped.match) == deals_of(whole.match)


def test_a_person_is_never_asked_and_run_stops_at_their_turn() -> None:
    seats = {**RANDOM, Seat.S: None}
    table = Table(seats, 3)
    moves = 0
    while (seat := table.run()) is not None:
        assert seat == Seat.S and table.to_move == Seat.S and not table.is_computer(seat)
        with pytest.raises(ValueError, match="S is not a computer player's seat"):
            table.decide()
        deal = table.match.deal
        assert deal is not None
        if moves == 0:
            history = deal.history
            refused = Action.play(next(c for c in range(36) if c not in deal.hand(Seat.S)))
            with pytest.raises(IllegalActionError):
                table.apply(refused)
            assert deal.history == history
        table.apply(deal.legal_actions()[-1])
        moves += 1
    assert moves > 0 and table.match.is_over()
    assert table.clocks[Seat.S].decisions == 0
    with pytest.raises(ValueError, match="no deal is being played"):
        table.decision_seed()
    with pytest.raises(ValueError, match="no deal is being played"):
        table.apply(Action.parse("ask-whole"))


class Listening(RandomPlayer):
    """A random player that writes down what it is told."""

    heard: list[str] = []  # noqa: RUF012 - one list for the test's four players

    def match_started(self, variant: Variant, seat: Seat) -> None:
        self.heard.append(f"match {seat}")

    def deal_started(self, observation: Observation) -> None:
        self.heard.append(f"deal {observation.seat} {len(observation.history)}")

    def deal_ended(self, observation: Observation, score: tuple[int, int]) -> None:
        self.heard.append(f"deal end {observation.seat} {observation.phase.name} {score}")

    def match_ended(self, score: tuple[int, int], winner: object) -> None:
        self.heard.append(f"match end {winner} {score}")


@pytest.fixture
def listening(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    heard: list[str] = []
    monkeypatch.setattr(Listening, "heard", heard)
    monkeypatch.setitem(registry._FACTORIES, "listening", lambda level, seed: Listening(seed))
    return heard


@pytest.mark.parametrize("max_deals", [None, 2])
def test_kept_players_hear_the_match_as_it_goes(
    listening: list[str], max_deals: int | None
) -> None:
    seats = {seat: Computer("listening", seed=seat) for seat in Seat}
    with Table(seats, 8) as table:
        assert table.run(max_deals) is None
    match = table.match
    deals = len(match.deals)
    assert deals == (max_deals or deals) and match.is_over() is (max_deals is None)
    assert listening[:4] == [f"match {s}" for s in Seat]
    assert [h for h in listening if h.startswith("deal ") and "end" not in h] == [
        f"deal {s} 0" for _ in range(deals) for s in Seat
    ]
    ends = [h for h in listening if h.startswith("deal end")]
    assert len(ends) == 4 * deals and all(" OVER " in h for h in ends)
    assert ends[-1].endswith(str(match.score))
    winner = match.outcome if max_deals is None else None
    assert listening[-4:] == [f"match end {winner} {match.score}"] * 4


def test_a_kept_player_decides_only_once_seated(listening: list[str]) -> None:
    table = Table({seat: Computer("listening", seed=1) for seat in Seat}, 1)
    table.start_deal()
    with pytest.raises(ValueError, match="sit_down first"):
        table.decide()
    with pytest.raises(ValueError, match="has its variant already"):
        Table(RANDOM, 1, Match(), variant=Variant())


class Stubborn(Player):
    def choose(self, observation: Observation) -> Action:
        return Action.parse("ask-whole")  # illegal in trick 1


class Broken(Player):
    def choose(self, observation: Observation) -> Action:
        raise RuntimeError("it broke")

    def close(self) -> None:
        raise OSError("no close")


@pytest.mark.parametrize(
    ("player", "kept", "message"),
    [
        (Stubborn, False, "stubborn at E: chose ask-whole, which is illegal: "),
        (Broken, False, "stubborn at E: RuntimeError: it broke"),
        (Broken, True, "stubborn at E: RuntimeError: it broke"),
    ],
)
def test_a_players_fault_names_it_and_its_seat(
    monkeypatch: pytest.MonkeyPatch, player: type[Player], kept: bool, message: str
) -> None:
    monkeypatch.setitem(registry._FACTORIES, "stubborn", lambda level, seed: player())
    seats = {**RANDOM, Seat.E: Computer("stubborn", 1 if kept else None)}
    table = Table(seats, 1)
    table.sit_down()
    with pytest.raises(PlayerFault, match=message) as caught:
        table.run()
    assert caught.value.seat == Seat.E and caught.value.spec == "stubborn"
    assert table.to_move == Seat.E  # nothing was played for the faulty seat
    fault = table.close()
    assert (fault is not None) is kept  # Broken fails to close too
    assert fault is None or str(fault) == "stubborn at E: OSError: no close"
    assert table.close() is None  # each kept player is closed once


def test_a_player_that_cannot_be_made_is_a_fault_at_its_seat() -> None:
    seats = {**RANDOM, Seat.W: Computer("nobody", seed=1)}
    table = Table(seats, 1)
    with pytest.raises(PlayerFault, match="nobody at W: PlayerSpecError: unknown player 'nobody'"):
        table.__enter__()
    assert table.close() is None


def test_each_seat_has_its_clock() -> None:
    table = Table(RANDOM, 4)
    table.run()
    per_seat = {seat: 0 for seat in Seat}
    for deal in table.match.deals:
        replay = type(deal)(deal.initial_hands, deal.dealer, deal.variant, deal.forehand)
        for action in deal.history:
            seat = replay.current_player
            assert seat is not None
            per_seat[seat] += 1
            replay.apply(action)
    for seat in Seat:
        clock = table.clocks[seat]
        assert clock.decisions == per_seat[seat]
        assert clock.seconds >= clock.slowest > 0


def test_a_resumed_match_goes_on_exactly() -> None:
    whole = Table(RANDOM, 9)
    whole.run()
    record = Record.of_match(whole.match)
    last = record.deals[1]
    cut = Record(record.variant, [record.deals[0], replace(last, actions=last.actions[:7])])
    resumed = Table(RANDOM, 9, cut.replay())
    resumed.run()
    assert deals_of(resumed.match) == deals_of(whole.match)


def test_a_pace_holds_each_decision_to_nearly_the_longest_of_its_kind() -> None:
    slept: list[float] = []
    pace = Pace(sleep=slept.append)
    pace.hold("search:easy", 0, 0.020)  # the first: nothing to hold it to
    pace.hold("search:easy", 0, 0.001)  # a forced move, at once: held to the choice's time
    pace.hold("search:easy", 0, 0.030)  # longer than any: not held
    pace.hold("search:easy", 3, 0.002)  # the first at its trick: held to the other tricks'
    pace.hold("heuristic", 0, 0.001)  # another player, its own
    assert slept == pytest.approx([0.019, 0.028])
    pace.hold("search:easy", 0, 0.010)  # of fewer than fifty, held to the longest
    assert slept[-1] == pytest.approx(0.020)
    assert pace.floor("search:easy", 0) == 0.030 and pace.floor("random", 0) == 0.0
    # Of many, to the 98th percentile: one slow moment does not slow every decision after it.
    for i in range(1, 1001):
        pace.hold("quick", 0, 2.0 if i == 500 else i / 1e6)
    assert pace.floor("quick", 0) == pytest.approx(0.000991)  # of the last 512, 1 in 50 longer
    assert len(pace._sorted[("quick", 0)]) == WINDOW


def test_the_players_of_a_table_keep_a_pace_only_where_a_program_sits() -> None:
    """Paced where an external bot sits in a sandbox: the others' decisions are held (its own
    are not); unpaced without one, or when the bots are trusted (--sandbox none)."""
    from valtti.players.sandbox import NO_SANDBOX

    held: list[tuple[str, int]] = []

    class Watched(Pace):
        def hold(self, spec: str, trick: int, elapsed: float) -> None:
            held.append((spec, trick))

    computers = {seat: Computer("random", 1) for seat in Seat}
    plain = Table(computers, 3, pace=Watched())
    assert not plain.paced
    example = Path(__file__).resolve().parents[2] / "examples" / "external_bot.py"
    bot = f"external:{sys.executable} {example}"
    seats = {**computers, Seat.N: Computer(bot, 1)}
    assert not Table(seats, 3, sandbox=NO_SANDBOX).paced
    with Table(seats, 3, pace=Watched()) as table:
        assert table.paced
        table.start_deal()
        for _ in range(8):
            table.apply(table.decide())
    assert len(held) == 6 and {spec for spec, _ in held} == {"random"}  # not the bot's two
    assert table.error_logs.keys() == {Seat.N}  # what the program wrote, kept once closed


def test_a_partners_answer_at_once_takes_as_long_as_a_chosen_one_at_a_paced_table() -> None:
    """RULES.md 7.2: whether a partner asked for a whole marriage held one (named at once) or
    several (a choice, a decision of its own) is private; at a paced table the answer at once
    waits as long as a decision of that player."""
    waited: list[tuple[str, int]] = []

    class Watched(Pace):
        def wait(self, spec: str, trick: int) -> None:
            waited.append((spec, trick))

    hands = [
        CardSet.parse(h)
        for h in (
            "AD 6H 7H 8H 9H 6C 7C 8C 9C",
            "6D 8D 9D JD QD KD TD JH 7S",
            "KS QS AS TS 6S 7D 8S AH TH",  # S holds one marriage: ♠
            "JS 9S QH KH AC TC QC KC JC",
        )
    ]
    example = Path(__file__).resolve().parents[2] / "examples" / "external_bot.py"
    seats = {seat: Computer("random") for seat in Seat}
    seats[Seat.E] = Computer(f"external:{sys.executable} {example}", 1)  # a program: paced
    for paced in (True, False):
        match = Match(Variant(), Seat.W)  # N leads
        match.start_deal(hands)
        table = Table(seats if paced else {**seats, Seat.E: Computer("random")}, 3, match,
                      pace=Watched())  # fmt: skip
        for token in ("AD", "6D", "7D", "JS", "ask-whole"):
            table.apply(Action.parse(token))
    assert waited == [("random", 1)]  # S's answer, at the paced table only
