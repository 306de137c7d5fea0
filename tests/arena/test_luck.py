"""The luck of the players' own draws (``arena.luck``): it averages 0, so that the game points
less it estimate the same difference, and takes variance out of real pairings (the full tier:
real play takes minutes); the coefficient recovers a known difference on a synthetic case and
never adds variance for want of a good value; the leaderboard keeps the luck, weighs by it and
says how much it took out."""

from __future__ import annotations

import math
import random
import statistics
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from valtti.arena.leaderboard import Board, play_leaderboard, report
from valtti.arena.luck import FIT, REDRAWS, Luck, adjusted, coefficient
from valtti.arena.match import MatchJob, play_match
from valtti.cli import main
from valtti.engine import Seat, Team, Variant
from valtti.engine.match import Match
from valtti.players._heuristic import Heuristic
from valtti.players.registry import make_player
from valtti.table import seeds


def _pairs(first: str, second: str, count: int, redraws: int) -> tuple[list[float], list[float]]:
    """The evaluation set's first ``count`` pairs of ``first`` against ``second``: each pair's
    difference a deal, raw, and its luck a deal."""
    raw, luck = [], []
    for number in range(count):
        halves = [
            play_match(MatchJob(0, first, second, number, swapped, 2026, Variant(), 1, False,
                                redraws=redraws))
            for swapped in (False, True)
        ]  # fmt: skip
        raw.append(sum(h.game_points[0] - h.game_points[1] for h in halves) / 2)
        luck.append(sum(h.luck or 0.0 for h in halves) / 2)
    return raw, luck


@pytest.fixture(scope="module")
def beginner_against_club() -> tuple[list[float], list[float]]:
    return _pairs("beginner", "club", 40, 8)


@pytest.mark.slow
def test_the_luck_averages_zero(beginner_against_club: tuple[list[float], list[float]]) -> None:
    """The taken action and the redrawn ones are drawn alike: over 40 pairs (320 decisions
    with luck and more) the luck's mean is 0 within three standard errors."""
    _, luck = beginner_against_club
    error = statistics.stdev(luck) / math.sqrt(len(luck))
    assert error > 0  # there was luck to measure
    assert abs(statistics.fmean(luck)) < 3 * error


@pytest.mark.slow
def test_the_luck_takes_variance_out_of_a_real_pairing(
    beginner_against_club: tuple[list[float], list[float]],
) -> None:
    """Every seat redrawn (the beginner and the club player): at least a third of a pair's
    variance is the players' luck (measured on 200 pairs: two thirds, docs/MEASUREMENTS.md)."""
    raw, luck = beginner_against_club
    less = adjusted(raw, luck)
    assert statistics.variance(less) < 2 / 3 * statistics.variance(raw)
    assert statistics.fmean(less) == pytest.approx(
        statistics.fmean(raw) - coefficient(raw, luck) * statistics.fmean(luck)
    )


@pytest.mark.slow
def test_the_same_players_come_out_level_with_the_luck_taken_out() -> None:
    """A known difference on real play: the club player against itself, 0."""
    raw, luck = _pairs("club", "club", 16, 8)
    less = adjusted(raw, luck)
    error = statistics.stdev(less) / math.sqrt(len(less))
    assert abs(statistics.fmean(less)) < 3 * error
    assert statistics.variance(less) < statistics.variance(raw)


def test_a_deterministic_player_has_no_luck() -> None:
    """``learned`` draws nothing that changes its play: its redraws agree with it, and against
    itself no decision has luck."""
    raw, luck = _pairs("learned", "learned", 2, 4)
    assert luck == [0.0, 0.0]
    assert raw == [0.0, 0.0]


def test_only_the_memoryless_are_redrawn_and_programs_never() -> None:
    assert all(make_player(spec).memoryless for spec in ("random", "beginner", "club", "heuristic"))
    assert not make_player("search:easy").memoryless
    match = Match(Variant())
    deal = match.start_deal(seeds.deal_cards(3, 1))
    while not deal.is_over():
        deal.apply(deal.legal_numbers()[0])
    specs = dict.fromkeys(Seat, "search:easy")
    assert Luck(2, 2, seed=1).of_match(match, specs, Seat.N.team) == 0.0
    # A program's spec is not made at all (it would start the program).
    assert (
        Luck(2, 2).of_match(match, dict.fromkeys(Seat, "external:/nonexistent"), Seat.N.team) == 0
    )


@pytest.mark.parametrize("seed", range(5))
def test_the_coefficient_recovers_a_known_difference_on_a_synthetic_case(seed: int) -> None:
    """Pairs whose difference is 0.3 plus the players' luck plus other noise; the luck measured
    with noise of its own, of mean 0. The mean less the luck is 0.3 within its interval, with
    far less variance; a luck that explains nothing is not taken out."""
    rng = np.random.default_rng(seed)
    n = 400
    draws = rng.normal(0, 1.0, n)
    raw = list(0.3 + draws + rng.normal(0, 0.3, n))
    luck = list(draws + rng.normal(0, 0.3, n))
    less = adjusted(raw, luck)
    error = statistics.stdev(less) / math.sqrt(n)
    assert abs(statistics.fmean(less) - 0.3) < 3 * error
    assert statistics.variance(less) < 0.25 * statistics.variance(raw)
    assert coefficient(raw, luck) == pytest.approx(1 / 1.09, abs=0.1)
    unrelated = list(rng.normal(0, 1.0, n))
    assert abs(coefficient(raw, unrelated)) < 0.2
    assert statistics.variance(adjusted(raw, unrelated)) <= statistics.variance(raw)


def test_few_pairs_take_the_luck_as_measured() -> None:
    assert coefficient([1.0] * (FIT - 1), [0.5] * (FIT - 1)) == 1.0
    assert adjusted([1.0, 2.0], [0.5, -0.5]) == [0.5, 2.5]
    assert coefficient([1.0] * FIT, [0.0] * FIT) == 1.0  # no luck to fit


def test_a_luck_of_no_redraws_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        Luck(0)


def test_the_leaderboard_keeps_the_luck_and_says_what_it_took_out(tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    board = play_leaderboard(["beginner", "club"], 3, state, backend="serial", redraws=4)
    pairing = ("beginner", "club")
    assert set(board.luck[pairing]) == {0, 1, 2} and board.redraws == 4
    kept = Board.from_json(state.read_text())
    assert kept.luck == board.luck and kept.redraws == 4
    raw, luck = kept.raw_differences(pairing), kept.pair_luck(pairing)
    assert kept.differences(pairing) == adjusted(raw, luck)
    text = report(kept)
    assert "less the luck of the players' own draws, measured by 4 redraws a decision" in text
    assert "| beginner – club | 3 |" in text
    with pytest.raises(ValueError, match="4 redraws a decision: give those options again"):
        play_leaderboard(["beginner"], 3, state, backend="serial", redraws=0)
    raw_board = play_leaderboard(["beginner", "club"], 3, tmp_path / "raw.json", redraws=0)
    assert raw_board.luck == {} and "luck" not in report(raw_board)
    assert raw_board.pairs == board.pairs  # the luck is measured after the play: the same play


def test_the_command_measures_the_luck_by_default() -> None:
    """``valtti leaderboard --help`` shows the default, which is ``luck.REDRAWS``."""
    out = CliRunner().invoke(main, ["leaderboard", "--help"])
    assert out.exit_code == 0
    assert "--redraws INTEGER RANGE" in out.output
    assert f"[default: {REDRAWS}; x>=0]" in " ".join(out.output.split())


def test_a_playout_plays_the_random_seats_at_random() -> None:
    """``Heuristic.playout``'s seats in ``at_random`` play as ``random`` does: all four so, the
    mean matches uniform playouts in Python; the rules of thumb against random seats win."""
    match = Match(Variant())
    deal = match.start_deal(seeds.deal_cards(5, 1))
    rules = Heuristic(5)
    rng = random.Random(1)
    values = []
    for _ in range(4000):
        after = deal.copy()
        while not after.is_over():
            legal = after.legal_numbers()
            after.apply(legal[rng.randrange(len(legal))])
        points = after.result().game_points
        values.append(points[Team.NS] - points[Team.EW])
    assert rules.playout(deal, count=4000, at_random=0b1111) == pytest.approx(
        statistics.fmean(values), abs=0.2
    )
    ns_random, ew_random = 0b0101, 0b1010  # N and S are seats 0 and 2
    assert rules.playout(deal, count=500, at_random=ns_random) < 0
    assert rules.playout(deal, count=500, at_random=ew_random) > 0
    with pytest.raises(ValueError, match="count must be at least 1"):
        rules.playout(deal, count=0)


def test_the_arena_takes_the_luck_out_where_asked() -> None:
    """``run_arena(..., redraws=K)``: the difference is the pairs less their luck, the raw one
    beside it, in the report and the JSON; without redraws, as before."""
    from valtti.arena import run_arena

    measured = run_arena(["beginner", "club"], 3, seed=2026, backend="serial", max_deals=1,
                         redraws=4)  # fmt: skip
    (pairing,) = measured.pairings
    assert pairing.raw is not None and pairing.raw.samples == 3
    raw, luck = _pairs("beginner", "club", 3, 4)  # the same pairs, played again
    assert pairing.raw.mean == pytest.approx(statistics.fmean(raw))
    assert pairing.difference.mean == pytest.approx(statistics.fmean(adjusted(raw, luck)))
    data = measured.to_dict()
    assert data["redraws"] == 4
    shown = data["pairings"][0]
    assert shown["difference"]["method"] == "student-t over duplicate pairs less their luck"
    assert shown["raw_difference"]["mean"] == pytest.approx(statistics.fmean(raw))
    assert "less the players' luck" in measured.report()
    assert "as played, with the luck" in measured.report()
    plain = run_arena(["beginner", "club"], 3, seed=2026, backend="serial", max_deals=1)
    assert (
        plain.pairings[0].raw is None and plain.to_dict()["pairings"][0]["raw_difference"] is None
    )
    assert plain.pairings[0].difference.mean == pytest.approx(statistics.fmean(raw))
