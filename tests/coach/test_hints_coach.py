"""Hints that say what they know and give the same answer twice (issue 34): a reason's share of
the sampled deals in its words, certain words only where every deal agrees, the answer's "name",
the same hint in every process and under load, enough deals in the first tricks, and how an
early position's lines are played on (the quick player, then the exact solver)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from tests.coach.test_explain import LAST_TRICK, Exact, OpenWorld, position

from valtti.coach.appraise import PLAYOUT_CAP, SOLVED_FROM, early_values
from valtti.coach.explain import explain, explain_worlds
from valtti.coach.playout import play_to
from valtti.coach.reasons import Explanation, Reason, ReasonCode
from valtti.engine import Action, Card, Match, Phase, Seat, Suit, Variant
from valtti.engine.record import Record
from valtti.engine.seeds import position_seed
from valtti.engine.solver import DealValue, Solver
from valtti.players.equity import match_equity
from valtti.players.knowledge import infer
from valtti.players.sampler import Sampler
from valtti.players.worlds import rebuild
from valtti.terminal import hints, i18n


def _last_trick(worlds_showing: int, worlds_alike: int) -> list[Explanation]:
    """LAST_TRICK's explanation over copies of the real world: in ``worlds_showing`` of them
    leading 6H keeps the ace for the last trick; in ``worlds_alike`` the two moves are worth the
    same (as in a deal where it makes no difference)."""
    deal = position(LAST_TRICK)
    observation = deal.observation(Seat.N)
    value = DealValue.match((0, 0), deal.variant, match_equity(deal.variant))
    solver = Solver(table_bits=16)
    solved = dict(solver.solve(deal, value))
    alike = dict.fromkeys(solved, max(solved.values()))
    worlds = [OpenWorld(deal.hands, 1.0, solved)] * worlds_showing
    worlds += [OpenWorld(deal.hands, 1.0, alike)] * worlds_alike
    keep, lead = Action.parse("6H"), Action.parse("AS")
    estimates = [Exact(keep, 0.1, 1.0, len(worlds)), Exact(lead, -0.2, 0.0, len(worlds))]
    return explain_worlds(observation, estimates, worlds, lambda d: solver.line(d, value), value)


def test_a_reason_not_every_deal_shows_says_in_how_many_it_does() -> None:
    keep = _last_trick(1, 3)[0]
    assert keep.reason.code is ReasonCode.KEEPS_LAST
    assert (keep.reason.share, keep.reason.deals, keep.reason.certain) == (0.25, 4, False)
    assert keep.reason.shown == 1
    assert keep.reason.to_dict()["share"] == 0.25 and keep.reason.to_dict()["deals"] == 4
    assert hints.reason_words(keep.reason) == "in 1 of the 4 deals: keeps A♠ for the last trick"
    # Where the deals weigh differently, its share of their weight too.
    assert hints.reason_words(keep.reason, even=False) == (
        "in 1 of the 4 deals (25% by likelihood): keeps A♠ for the last trick"
    )
    i18n.use("fi")
    try:
        finnish = hints.reason_words(keep.reason)
        weighted = hints.reason_words(keep.reason, even=False)
    finally:
        i18n.use("en")
    assert finnish == "1/4 jaossa: säästää kortin A♠ viimeiseen tikkiin"
    assert weighted == (
        "1/4 jaossa (25\xa0% todennäköisyyksin painotettuna): säästää kortin A♠ viimeiseen tikkiin"
    )


def test_certain_words_only_where_every_deal_shows_the_reason() -> None:
    keep = _last_trick(3, 0)[0]
    assert (keep.reason.share, keep.reason.deals, keep.reason.certain) == (1.0, 3, True)
    assert hints.reason_words(keep.reason) == "keeps A♠ for the last trick"
    # A reason that is an average, not one difference, has no share and no certainty.
    average = Reason(ReasonCode.BEST_ON_AVERAGE, Seat.N)
    assert average.share is None and not average.certain
    assert hints.reason_words(average) == "the best on average"


def test_the_hint_in_answer_names_a_suit() -> None:
    reason = Reason(ReasonCode.AS_GOOD, Seat.S)
    answers = [
        Explanation(Action.answer(Suit.S), 0.1, 1.0, 16, reason, 0.01),
        Explanation(Action.answer(Suit.H), 0.0, 0.0, 16, reason, 0.01),
    ]
    assert hints.hint_heading(answers).startswith("The computer player would name ♠.")
    i18n.use("fi")
    try:
        finnish = hints.hint_heading(answers)
    finally:
        i18n.use("en")
    assert finnish.startswith("Tietokonepelaaja nimeäisi maan ♠.")


def _match(seed: int, actions: int) -> Match:
    rng = random.Random(seed)
    match = Match(Variant(), Seat.E)
    match.start_deal(rng=rng)
    for _ in range(actions):
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    while len(match.legal_actions()) < 2:
        match.apply(match.legal_actions()[0])
    return match


def _hint_json(path: Path) -> bytes:
    run = subprocess.run(
        [sys.executable, "-m", "valtti", "hint", str(path), "--json"],
        capture_output=True,
        check=True,
    )
    return run.stdout


def test_the_same_hint_in_two_processes_and_while_another_loads_the_machine(
    tmp_path: Path,
) -> None:
    path = tmp_path / "game.json"
    path.write_text(Record.of_match(_match(8, 6)).to_json())
    quiet = _hint_json(path)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        loaded = _hint_json(path)
    finally:
        busy.kill()
        busy.wait()
    assert loaded == quiet
    assert json.loads(quiet)["deals"] >= 16


def test_the_game_and_the_record_give_the_same_hint(tmp_path: Path) -> None:
    """The terminal and the web table explain the live match's observation; ``valtti hint``
    the record's: one position, one seed, one hint."""
    match = _match(11, 30)
    seat = match.current_player
    assert seat is not None
    live = match.observation(seat)
    path = tmp_path / "game.json"
    path.write_text(Record.of_match(match).to_json())
    replayed = Record.from_json(path.read_text()).replay()
    assert position_seed(replayed.observation(seat), "hint") == position_seed(live, "hint")
    estimates = json.loads(_hint_json(path))["estimates"]
    assert estimates == [e.to_dict() for e in explain(live).moves]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_hint_in_the_first_two_tricks_rests_on_16_deals(seed: int) -> None:
    """16 deals drawn by weight: a deal drawn twice weighs twice; every share over them all,
    the best shares adding up to the whole (a tie shared)."""
    rng = random.Random(seed)
    match = _match(seed, rng.randrange(0, 8))
    seat = match.current_player
    assert seat is not None
    observation = match.observation(seat)
    assert len(observation.tricks) < 2
    hint = explain(observation, "hard")
    n = hint.deals
    assert 1 <= n <= 16 and not hint.exact and all(e.worlds == n for e in hint.moves)
    assert sum(e.best_share or 0 for e in hint.moves) == pytest.approx(1.0)
    for e in hint.moves:
        assert e.best_share is not None and e.value is not None and e.error is not None
        reason = e.reason
        if reason.share is not None:
            assert reason.deals == n and reason.shown is not None and 1 <= reason.shown <= n
            # Weighing a sixteenth for each time drawn.
            assert reason.share * 16 == pytest.approx(round(reason.share * 16), abs=1e-6)
    assert hints.hint_key(hint).count(f"{n} sampled deals") == 1


def test_a_hint_in_the_window_after_trick_1_rests_on_16_deals() -> None:
    """The declaration window after the first trick: questions beside the cards."""
    rng = random.Random(0)
    match = Match(Variant(), Seat.E)
    match.start_deal(rng=rng)
    assert match.deal is not None
    while match.deal.phase is not Phase.DECLARATION:
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])
    seat = match.current_player
    assert seat is not None and len(match.deal.tricks) == 1
    observation = match.observation(seat)
    assert Action.ask_whole() in observation.legal_actions
    hint = explain(observation, "hard")
    assert {e.action for e in hint.moves} == set(observation.legal_actions)
    assert all(e.worlds == hint.deals and e.value is not None for e in hint.moves)


def test_a_card_reason_in_its_words() -> None:
    reason = Reason(
        ReasonCode.KEEPS_LAST, Seat.S, card=Card.parse("AS"), share=0.5, deals=16, shown=8
    )
    assert hints.reason_words(reason) == "in 8 of the 16 deals: keeps A♠ for the last trick"


def _fourth_in_trick(seed: int) -> Match:
    """A match whose seat to move plays the last card of a trick of the first two."""
    rng = random.Random(seed)
    match = Match(Variant(), Seat.E)
    match.start_deal(rng=rng)
    assert match.deal is not None
    while True:
        trick = match.deal.current_trick
        if trick is not None and len(trick.cards) == 3 and len(match.legal_actions()) > 1:
            return match
        legal = match.legal_actions()
        match.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_playout_plays_as_the_seat_knows_without_the_hidden_cards(seed: int) -> None:
    """Each seat of a playout plays from its own hand and the public record: two deals that
    differ only in the cards the mover cannot see get the same card from it; it plays no
    further than asked, and the same deal gets the same line."""
    match = _fourth_in_trick(seed)
    seat = match.current_player
    assert seat is not None and match.deal is not None
    observation = match.observation(seat)
    sampler = Sampler(infer(observation))
    rng = random.Random(seed)
    worlds = [rebuild(observation, sampler.sample(rng)) for _ in range(4)]
    tricks = len(observation.tricks)
    lines = [play_to(world.copy(), tricks, (3, 5), 2) for world in worlds]
    assert all(len(line) == 1 and line == lines[0] for line in lines)
    assert lines[0][0] in observation.legal_actions
    whole = match.deal.copy()
    line = play_to(whole, SOLVED_FROM, (3, 5), 2)
    trick = whole.current_trick
    assert whole.tricks_played == SOLVED_FROM and trick is not None and not trick.cards
    assert play_to(match.deal.copy(), SOLVED_FROM, (3, 5), 2) == line


@pytest.mark.parametrize("seed", [5, 6])
def test_an_early_value_is_the_playout_then_the_exact_solve(seed: int) -> None:
    """Each action's line played on by the quick player to the end of trick 3 and solved
    there, or a trick later, and so on, where the solve would pass its cap."""
    match = _match(seed, 0)
    assert match.deal is not None
    deal = match.deal
    value = DealValue.match((2, 9), deal.variant, match_equity(deal.variant))
    early = early_values(deal, value, Solver(), SOLVED_FROM, (2, 9), 1)
    assert list(early) == deal.legal_actions()
    solver = Solver()  # searched in the same order, so capped where the other was
    mover = deal.current_player
    assert mover is not None
    for action, worth in early.items():
        after = deal.copy()
        after.apply(action)
        until = SOLVED_FROM
        while True:
            play_to(after, until, (2, 9), 1)
            assert after.tricks_played == until
            solved = solver.solve_within(after, value, PLAYOUT_CAP)
            if solved is not None:
                break
            until += 1
        then = after.current_player
        assert then is not None
        best = max(v for _, v in solved) * (1 if then.team == mover.team else -1)
        assert worth == pytest.approx(best)
