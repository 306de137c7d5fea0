"""The engine's tensors (valtti.engine.tensors): layout, buffers, RULES.md 7, round trip."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from research_positions import positions, variants

from valtti.engine import Action, CardSet, Deal, Phase, Seat, Variant
from valtti.engine.tensors import (
    INFORMATION_STATE_LAYOUT,
    INFORMATION_STATE_SIZE,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    STATE_LAYOUT,
    STATE_SIZE,
    action_mask,
    deal_from_state_tensor,
    information_state_tensor,
    markdown,
    observation_tensor,
    offsets,
    state_tensor,
)
from valtti.players.knowledge import infer
from valtti.players.sampler import Sampler

DOCS = Path(__file__).resolve().parents[2] / "docs" / "TENSORS.md"
OBS = offsets(OBSERVATION_LAYOUT)
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_docs_table_is_the_layout() -> None:
    assert DOCS.read_text(encoding="utf-8") == markdown(), (
        "regenerate: python -c 'from valtti.engine.tensors import markdown; "
        'print(markdown(), end="")\' > docs/TENSORS.md'
    )


def test_each_tensor_extends_the_last() -> None:
    assert INFORMATION_STATE_LAYOUT[: len(OBSERVATION_LAYOUT)] == OBSERVATION_LAYOUT
    assert STATE_LAYOUT[: len(INFORMATION_STATE_LAYOUT)] == INFORMATION_STATE_LAYOUT
    for layout, size in (
        (OBSERVATION_LAYOUT, OBSERVATION_SIZE),
        (INFORMATION_STATE_LAYOUT, INFORMATION_STATE_SIZE),
        (STATE_LAYOUT, STATE_SIZE),
    ):
        assert sum(n for _, n, _ in layout) == size
        assert len({name for name, _, _ in layout}) == len(layout)


def _midgame() -> Deal:
    rng = random.Random(5)
    deal = Deal.shuffled(rng, Seat.N)
    for _ in range(14):
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


def test_writes_into_the_callers_buffer_and_rows_of_a_batch() -> None:
    deal = _midgame()
    buf = np.full(OBSERVATION_SIZE, 7.0, np.float32)
    assert observation_tensor(deal, Seat.E, buf) is buf
    assert np.array_equal(buf, observation_tensor(deal, Seat.E))
    batch = np.zeros((4, OBSERVATION_SIZE), np.float32)
    for seat in Seat:
        observation_tensor(deal, seat, batch[seat])
    assert np.array_equal(batch[2], observation_tensor(deal, 2))
    with pytest.raises(ValueError, match="float32 values"):
        observation_tensor(deal, 0, np.zeros(OBSERVATION_SIZE + 1, np.float32))
    with pytest.raises(ValueError, match="seat"):
        observation_tensor(deal, 4)
    with pytest.raises(ValueError):
        state_tensor(deal, 0, np.zeros(OBSERVATION_SIZE, np.float32))


def test_sections_say_what_the_docs_say() -> None:
    deal = _midgame()
    seat = deal.current_player
    assert seat is not None
    t = observation_tensor(deal, seat, score=(3, 8))
    assert CardSet([int(i) for i in np.flatnonzero(t[OBS["hand"]])]) == deal.hand(seat)
    sizes = [len(deal.hand(Seat((seat + r) & 3))) / 9 for r in range(4)]
    assert t[OBS["hand_sizes"]] == pytest.approx(sizes)
    assert t[OBS["to_move"]].tolist() == [1, 0, 0, 0]
    own, other = (3, 8) if seat.team == 0 else (8, 3)
    assert t[OBS["score"]] == pytest.approx([own / 10, other / 10])
    trick = deal.current_trick
    assert trick is not None
    for s, card in trick.plays:
        assert t[OBS["trick_cards"]][36 * ((s - seat) & 3) + card] == 1
    assert t[OBS["trick_cards"]].sum() == len(trick.cards)
    played = sum(len(tr.cards) for tr in deal.tricks)
    assert t[OBS["played"]].sum() == played
    assert t[OBS["unseen"]].sum() == 36 - played - len(trick.cards) - len(deal.hand(seat))
    assert t[OBS["phase"]][list(Phase).index(deal.phase)] == 1


def test_action_mask_is_the_movers_legal_mask() -> None:
    deal = _midgame()
    mover = deal.current_player
    assert mover is not None
    mask = action_mask(deal, mover)
    assert mask.dtype == np.int8
    assert sum(1 << int(a) for a in np.flatnonzero(mask)) == deal.legal_mask()
    assert not action_mask(deal, mover.left).any()


@SLOW
@given(variants, st.integers(0, 2**32))
def test_masks_equal_legal_mask_at_every_step(variant: Variant, seed: int) -> None:
    for deal in positions(seed, variant):
        mover = deal.current_player
        for seat in Seat:
            bits = sum(1 << int(a) for a in np.flatnonzero(action_mask(deal, seat)))
            assert bits == (deal.legal_mask() if seat == mover else 0)
        if mover is not None:
            assert action_mask(deal, mover).any()


def _same_view(deal: Deal, seat: Seat, rng: random.Random) -> Deal:
    """The deal at the same point with the hidden hands drawn uniformly among all that agree
    with what ``seat`` knows (the project's exact sampler)."""
    return deal.with_hands(Sampler(infer(deal.observation(seat))).sample(rng))


@SLOW
@given(variants, st.integers(0, 2**32))
def test_resampled_hidden_hands_leave_a_seats_tensors_unchanged(
    variant: Variant, seed: int
) -> None:
    rng = random.Random(seed)
    for deal in positions(seed, variant):
        for seat in Seat:
            world = _same_view(deal, seat, rng)
            assert np.array_equal(
                observation_tensor(deal, seat, score=(4, 9)),
                observation_tensor(world, seat, score=(4, 9)),
            )
            assert np.array_equal(
                information_state_tensor(deal, seat), information_state_tensor(world, seat)
            )


@pytest.mark.parametrize("answer_steps", [False, True])
def test_resampling_while_a_partner_chooses_a_marriage(answer_steps: bool) -> None:
    """RULES.md 7.2: many ANSWER phases, every seat but the chooser resampled."""
    rng = random.Random(1)
    seen = 0
    for seed in range(400):
        for deal in positions(seed, Variant(whole_ask_after_trump="anyone"), answer_steps):
            if deal.phase is not Phase.ANSWER:
                continue
            seen += 1
            for seat in Seat:
                for _ in range(3):
                    world = _same_view(deal, seat, rng)
                    assert np.array_equal(
                        information_state_tensor(deal, seat),
                        information_state_tensor(world, seat),
                    )
    assert seen >= 20


@pytest.mark.parametrize("answer_steps", [False, True])
def test_while_a_partner_chooses_the_others_see_the_deal_before_the_ask(
    answer_steps: bool,
) -> None:
    """With ``answer_steps`` also while a partner names its one marriage, a forced step."""
    found = 0
    forced = 0
    for seed in range(400):
        for deal in positions(seed, Variant(whole_ask_after_trump="anyone"), answer_steps):
            if deal.phase is not Phase.ANSWER:
                continue
            found += 1
            forced += len(deal.legal_actions()) == 1
            before = Deal(
                deal.initial_hands,
                deal.dealer,
                deal.variant,
                deal.forehand,
                answer_steps=answer_steps,
            )
            for action in deal.history[:-1]:
                before.apply(action)
            chooser = deal.current_player
            assert chooser is not None
            for seat in Seat:
                mine = information_state_tensor(deal, seat)
                if seat == chooser:
                    assert mine[OBS["phase"]][2] == 1  # the chooser sees its choice
                else:
                    assert np.array_equal(mine, information_state_tensor(before, seat))
            # ... while the full state shows the pending choice.
            assert state_tensor(deal, 0)[OBS["phase"]][2] == 1
    assert found >= 20
    assert (forced >= 20) if answer_steps else forced == 0


@SLOW
@given(variants, st.integers(0, 2**32), st.booleans())
def test_the_full_state_tensor_round_trips_to_the_deal(
    variant: Variant, seed: int, answer_steps: bool
) -> None:
    for deal in positions(seed, variant, answer_steps):
        for seat in Seat:
            again = deal_from_state_tensor(state_tensor(deal, seat))
            assert again == deal
            assert again.phase is deal.phase


def test_answers_are_not_encoded_only_their_events() -> None:
    """Partner's answer action (several marriages) and a single marriage named at once give the
    asker the same information state when the named suit is the same."""
    # W deals, N leads. S holds K+Q of hearts and of clubs; in the second deal only hearts.
    many = Deal(
        [
            CardSet.parse(h)
            for h in (
                "AS TS 9S 8S AD TD 9D 8D 7D",
                "KS QS JS 7S 6S KD QD JD 6D",
                "KH QH KC QC AH TH 9H 8H 7H",
                "AC TC JC 9C 8C 7C 6C JH 6H",
            )
        ],
        Seat.W,
    )
    one = Deal(
        [
            CardSet.parse(h)
            for h in (
                "AS TS 9S 8S AD TD 9D 8D 7D",
                "KS QS JS 7S 6S KD QD JD 6D",
                "KH QH JC QC AH TH 9H 8H 7H",
                "AC TC KC 9C 8C 7C 6C JH 6H",
            )
        ],
        Seat.W,
    )
    for deal in (many, one):
        for token in ("AS", "7S", "8H", "6C", "ask-whole"):
            deal.apply(Action.parse(token))
    assert many.phase is Phase.ANSWER
    many.apply(Action.parse("answer H"))
    assert many.history != one.history and many.events == one.events
    assert np.array_equal(
        information_state_tensor(many, Seat.E), information_state_tensor(one, Seat.E)
    )


def test_a_tensor_that_encodes_no_deal_is_refused() -> None:
    deal = _midgame()
    with pytest.raises(ValueError, match="no seat"):
        deal_from_state_tensor(np.zeros(STATE_SIZE, np.float32))
    broken = state_tensor(deal, 1)
    broken[offsets(STATE_LAYOUT)["dealer"]] = 0
    with pytest.raises(ValueError, match="no dealer"):
        deal_from_state_tensor(broken)
    swapped = state_tensor(deal, 1)
    hands = offsets(STATE_LAYOUT)["initial_hands"]
    swapped[hands.start], swapped[hands.start + 36] = 1 - swapped[hands.start], 1
    with pytest.raises(ValueError):
        deal_from_state_tensor(swapped)
    with pytest.raises(ValueError):
        deal_from_state_tensor(np.zeros(OBSERVATION_SIZE, np.float32))


def _by_the_docs(deal: Deal, seat: Seat, score: tuple[int, int]) -> np.ndarray:
    """The full-state tensor written again from docs/TENSORS.md's tables, section by section,
    with the deal's Python views only (no phase ANSWER: there the others' views are masked)."""
    full = offsets(STATE_LAYOUT)
    t = np.zeros(STATE_SIZE, np.float32)

    def put(name: str, i: int, value: float = 1.0) -> None:
        t[full[name].start + i] = value  # a flag: asked twice is asked

    def rel(s: Seat) -> int:
        return (s - seat) & 3

    team, over = seat.team, deal.is_over()
    played = [card for trick in deal.tricks for card in trick.cards]
    for trick in deal.tricks:
        for s, card in trick.plays:
            put("played", 36 * rel(s) + card)
    trick = deal.current_trick
    if trick is not None and not over:
        played += trick.cards
        for s, card in trick.plays:
            put("trick_cards", 36 * rel(s) + card)
        put("trick_leader", rel(trick.leader))
        if trick.cards:
            put("trick_winning", rel(next(s for s, c in trick.plays if c == deal.winning_card)))
        put("to_move", rel(deal.current_player))
    for card in deal.hand(seat):
        put("hand", card)
    for card in set(range(36)) - set(played) - set(deal.hand(seat)):
        put("unseen", card)
    for r in range(4):
        other = Seat((seat + r) & 3)
        put("hand_sizes", r, len(deal.hand(other)) / 9)
        put("tricks_won", r, sum(trick.winner == other for trick in deal.tricks) / 9)
    put("phase", list(Phase).index(deal.phase))
    put("dealer", rel(deal.dealer))
    put("forehand", rel(deal.forehand))
    put("trump", 4 if deal.trump is None else deal.trump)
    for e in deal.events:
        if e.yes and e.points == 2:  # who made trumps: who declared, or asked and heard yes
            put("trump_maker", rel(e.seat))
        if e.yes:
            put("declared", e.suit)
        if e.how == "declare":
            put("declare", 4 * rel(e.seat) + e.suit)
        elif e.how == "ask-whole" and e.yes:
            put("whole_yes", 4 * rel(e.seat) + e.suit)
        elif e.how == "ask-whole":
            put("whole_no", rel(e.seat))
        else:
            put("half_yes" if e.yes else "half_no", 4 * rel(e.seat) + e.suit)
        w = 13 * (e.after_trick - 1)
        how = ("declare", "ask-whole", "ask-half").index(e.how)
        for i in (w, w + 1 + rel(e.seat), w + 5 + how):
            put("windows", i)
        if e.suit is not None:
            put("windows", w + 8 + e.suit)
        put("windows", w + 12, float(e.yes))
    for s in deal.locked:
        put("locked", rel(s))
    result, target = deal.result(), deal.variant.target
    for k, side in enumerate((team, team ^ 1)):
        put("columns", 5 * k, result.tricks[side] / 9)
        put("columns", 5 * k + 1, result.card_points[side] / 120)
        put("columns", 5 * k + 2, result.marriage_points[side] / 5)
        put("columns", 5 * k + 3, result.game_points[side] / 7)
        put("columns", 5 * k + 4, float(result.last is not None and result.last == side))
        put("score", k, score[side] / target)
    put("target", (10, 12).index(target))
    v = deal.variant
    switches = (
        v.first_forehand == "club_ace_holder",
        *(v.whole_ask_after_trump == w for w in ("not_trump_team", "anyone", "nobody")),
        v.must_overtrump,
        v.must_trump_if_cannot_overtrump,
        v.first_trick_ace == "on",
        v.both_on_target == "continue",
    )
    for i, on in enumerate(switches):
        put("variant", i, float(on))
    for card in deal.initial_hands[seat]:
        put("initial_hand", card)
    for i, done in enumerate(deal.tricks):
        put("history", 148 * i + rel(done.leader))
        for s, card in done.plays:
            put("history", 148 * i + 4 + 36 * rel(s) + card)
    for r in range(4):
        other = Seat((seat + r) & 3)
        for card in deal.hand(other):
            put("hands", 36 * r + card)
        for card in deal.initial_hands[other]:
            put("initial_hands", 36 * r + card)
    put("seat", seat)
    put("answer_steps", 0, float(deal.answer_steps))
    return t


@SLOW
@given(variants, st.integers(0, 2**32), st.booleans())
def test_every_section_is_what_the_docs_say(variant: Variant, seed: int, steps: bool) -> None:
    """docs/TENSORS.md, field by field, on every position of a deal (a question that made
    trumps marks the asker as trump_maker, though the marriage may be its partner's)."""
    for deal in positions(seed, variant, steps):
        if deal.phase is Phase.ANSWER:
            continue
        for seat in Seat:
            score = (seed % variant.target, seed // 7 % variant.target)
            full = state_tensor(deal, seat, score=score)
            assert np.allclose(full, _by_the_docs(deal, seat, score), atol=1e-6)
            info = information_state_tensor(deal, seat, score=score)
            assert np.array_equal(full[:INFORMATION_STATE_SIZE], info)
            obs = observation_tensor(deal, seat, score=score)
            assert np.array_equal(full[:OBSERVATION_SIZE], obs)


def test_a_score_or_a_seat_that_is_not_one_is_refused() -> None:
    """The score was indexed without a bounds check: a 1-tuple was read past its end (garbage
    in the tensor; an empty one crashed the interpreter), and a score off the scale or a float
    seat were taken as they came."""
    deal = _midgame()
    target = deal.variant.target
    for score in ((1,), [5], (1, 2, 3), (-1, 0), (0, target + 1), (1.0, 2), "ab", 0):
        for encode in (observation_tensor, information_state_tensor, state_tensor):
            with pytest.raises(ValueError, match="score must be two ints of 0 to 10"):
                encode(deal, Seat.E, score=score)  # type: ignore[arg-type]
    own = observation_tensor(deal, Seat.E, score=(np.int64(3), target))[OBS["score"]]
    assert own == pytest.approx([1.0, 0.3])  # E's team first: EW at the target, NS at 3
    for seat in (1.5, "N", 4, -1, 2**70):
        with pytest.raises(ValueError, match="seat must be 0 to 3"):
            observation_tensor(deal, seat)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="seat must be 0 to 3"):
            action_mask(deal, seat)  # type: ignore[arg-type]
    assert observation_tensor(deal, np.int64(2)).tolist() == observation_tensor(deal, 2).tolist()
    view = deal.observation(Seat.N)
    with pytest.raises(ValueError, match="four hands are needed"):
        Deal.of_observation(view, list(deal.hands[:3]))
    assert Deal.of_observation(view, deal.hands) == deal


def test_a_deal_that_is_none_is_refused_not_read() -> None:
    """``None`` for the deal (an OpenSpiel state's ``deal`` while the cards are being dealt) was
    read as a deal from the memory past Python's None: action_mask gave a mask, the others an
    AttributeError about whatever lay there."""
    for encode in (observation_tensor, information_state_tensor, state_tensor, action_mask):
        with pytest.raises(TypeError, match="deal"):
            encode(None, 0)  # type: ignore[arg-type]


def test_a_bool_is_no_seat_and_no_score() -> None:
    """Python counts True as 1: ``observation_tensor(deal, True)`` was E's tensor and
    ``score=(True, 0)`` a score of 1:0, where the environments refuse a bool as a seat or an
    action (a caller's mistake to say, not to read as a number)."""
    deal = _midgame()
    for seat in (True, False, np.bool_(True)):
        with pytest.raises(ValueError, match="seat must be 0 to 3"):
            observation_tensor(deal, seat)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="seat must be 0 to 3"):
            action_mask(deal, seat)  # type: ignore[arg-type]
    for score in ((True, 0), (0, False)):
        with pytest.raises(ValueError, match="score must be two ints"):
            observation_tensor(deal, Seat.N, score=score)  # type: ignore[arg-type]
