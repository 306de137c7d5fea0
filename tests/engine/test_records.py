"""Property-based tests of game records (RECORD.md): round trips and rejection of bad records.

Random matches are drawn as a seed (hands and the choice among legal actions), a first dealer,
a variant from every combination of switch values, and where to stop: a complete match, or one
stopped part-way through a deal.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import hypothesis
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.strategies import DECK, variants

from valtti.cli import main
from valtti.engine import ACTIONS, NUM_ACTIONS, Deal, Match, Phase, Seat, Variant
from valtti.engine.meta import MatchSeeds, RecordMeta
from valtti.engine.record import (
    FORMAT,
    MAX_RECORD_BYTES,
    IllegalRecordAction,
    Record,
    RecordFormatError,
)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_DEALS = 40


class Plan:
    """How to play one random match; its repr is what hypothesis prints."""

    def __init__(
        self, seed: int, first: Seat, variant: Variant, stop_deal: int | None, stop_action: int
    ) -> None:
        self.seed = seed
        self.first = first
        self.variant = variant
        self.stop_deal = stop_deal  # None: play the match to its end (or MAX_DEALS deals)
        self.stop_action = stop_action  # actions into deal number stop_deal + 1

    def play(self, answer_steps: bool = False) -> Match:
        rng = random.Random(self.seed)
        match = Match(self.variant, self.first, answer_steps=answer_steps)
        while not match.is_over() and len(match.deals) < MAX_DEALS:
            partway = len(match.deals) == self.stop_deal
            deal = match.start_deal(rng=rng)
            n = 0
            while not deal.is_over() and not (partway and n == self.stop_action):
                match.apply(rng.choice(deal.legal_actions()))
                n += 1
            if partway:
                break
        return match

    def __repr__(self) -> str:
        stop = (
            "end"
            if self.stop_deal is None
            else f"deal {self.stop_deal + 1} action {self.stop_action}"
        )
        return f"Plan(seed={self.seed}, first={self.first}, variant='{self.variant}', stop={stop})"


@st.composite
def plans(draw: st.DrawFn, partway: bool | None = None) -> Plan:
    if partway is None:
        partway = draw(st.booleans())
    return Plan(
        draw(st.integers(0, 2**64 - 1)),
        draw(st.sampled_from(list(Seat))),
        draw(variants),
        draw(st.integers(0, 4)) if partway else None,
        draw(st.integers(0, 50)),
    )


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
metas = st.none() | st.dictionaries(st.text(max_size=8), json_values, max_size=4)


def same_matches(a: Match, b: Match) -> None:
    assert len(a.deals) == len(b.deals)
    for x, y in zip(a.deals, b.deals, strict=True):
        assert x == y
        assert x.history == y.history
        assert x.initial_hands == y.initial_hands
        assert (x.dealer, x.forehand) == (y.dealer, y.forehand)
        assert x.result() == y.result()
        assert x.tricks == y.tricks and x.events == y.events
        assert x.is_over() == y.is_over()
        assert x.legal_actions() == y.legal_actions()
    assert a.variant == b.variant
    assert a.deal_scores == b.deal_scores
    assert a.score == b.score
    assert a.winner == b.winner
    assert a.is_draw == b.is_draw
    assert a.is_over() == b.is_over()


# -- 6: round trips --------------------------------------------------------------------------


@SETTINGS
@given(plans(), metas, metas, st.integers(0, MAX_DEALS))
def test_record_round_trip(plan: Plan, top_meta: Any, deal_meta: Any, meta_deal: int) -> None:
    match = plan.play()
    assume(match.deals)
    record = Record.of_match(match, meta=top_meta)
    record.deals[meta_deal % len(record.deals)].meta = deal_meta
    text = record.to_json()

    data = json.loads(text)
    assert data["format"] == FORMAT
    assert data.get("variant", {}) == match.variant.changes()
    assert ("variant" in data) == bool(match.variant.changes())
    for d, deal in zip(data["deals"], match.deals, strict=True):
        assert d["dealer"] == str(deal.dealer)
        assert d["hands"] == {str(s): [str(c) for c in deal.initial_hands[s]] for s in Seat}
        assert d["actions"] == [str(a) for a in deal.history]

    again = Record.from_json(text)
    assert again.to_json() == text  # a rewrite changes nothing
    assert again.to_json(indent=None) == record.to_json(indent=None)
    assert again.meta == top_meta  # meta survives, at the top and in a deal
    assert [d.meta for d in again.deals] == [d.meta for d in record.deals]
    replayed = again.replay()
    same_matches(replayed, match)
    assert Record.of_match(replayed, meta=top_meta).to_dict()["deals"] == [
        {k: v for k, v in d.items() if k != "meta"} for d in data["deals"]
    ]


@SETTINGS
@given(plans())
def test_a_match_with_answer_steps_records_without_its_forced_answers(plan: Plan) -> None:
    """A match played with ``answer_steps`` (the research environments) has an ``answer`` for
    every "yes" to ask-whole; its record leaves out those forced on a partner with one marriage,
    which RECORD.md counts as no action, so it replays, without answer_steps, to the same
    deals, and writes the same record again."""
    match = plan.play(answer_steps=True)
    assume(match.deals)
    record = Record.of_match(match)
    replayed = Record.from_json(record.to_json()).replay()
    assert Record.of_match(replayed).to_json() == record.to_json()
    for deal, again in zip(match.deals, replayed.deals, strict=True):
        assert again.history == deal.decisions
        if deal.phase is Phase.ANSWER and len(deal.legal_actions()) == 1:
            # stopped at a forced answer: the record's deal has answered it, as RECORD.md
            deal = deal.copy()
            deal.apply(deal.legal_actions()[0])
        assert (again.result(), again.events, again.current_player) == (
            deal.result(),
            deal.events,
            deal.current_player,
        )
        assert again.tricks == deal.tricks
    assert (replayed.score, replayed.outcome) == (match.score, match.outcome)


@SETTINGS
@given(plans(partway=True))
def test_part_way_record_can_be_continued(plan: Plan) -> None:
    """A record stopped part-way replays to the same position, and play goes on from there."""
    match = plan.play()
    replayed = Record.from_json(Record.of_match(match).to_json()).replay()
    same_matches(replayed, match)
    deal, twin = match.deal, replayed.deal
    assert deal is not None and twin is not None
    rng1, rng2 = random.Random(plan.seed + 1), random.Random(plan.seed + 1)
    while not deal.is_over():
        match.apply(rng1.choice(deal.legal_actions()))
        replayed.apply(rng2.choice(twin.legal_actions()))
    same_matches(replayed, match)


@SETTINGS
@given(plans(partway=True), st.integers(0, 2**32 - 1))
def test_a_continued_record_keeps_the_extra_keys_of_the_one_it_was_read_from(
    plan: Plan, seed: int
) -> None:
    """RECORD.md: extra keys under ``meta`` are kept on rewrite, also by a program that reads a
    record, plays on and writes it again: the top level's (the new ones win) and each deal's
    that is still the same deal."""
    match = plan.play()
    assume(match.deals)
    first = Record.of_match(match, meta={"comment": "club night", "seat": "N"})
    for i, deal in enumerate(first.deals):
        deal.meta = {"deal": i}
    read = Record.from_json(first.to_json())
    again = read.replay()
    rng = random.Random(seed)
    if again.deal is not None and not again.deal.is_over():
        again.apply(rng.choice(again.deal.legal_actions()))
    rewritten = Record.from_json(Record.of_match(again, meta={"seat": "E"}, kept=read).to_json())
    assert rewritten.meta == {"comment": "club night", "seat": "E"}
    assert [d.meta for d in rewritten.deals] == [{"deal": i} for i in range(len(first.deals))]
    swapped = Record.from_json(first.to_json())  # another deal: N's and E's hands swapped
    h = swapped.deals[0].hands
    swapped.deals[0].hands = (h[1], h[0], h[2], h[3])
    assert Record.of_match(match, kept=swapped).deals[0].meta is None


def respell(token: str, rng: random.Random) -> str:
    """The same token in another accepted spelling: any case, 10 for T, surplus spaces."""
    words = token.split()
    if len(words) == 1 and words[0] != "ask-whole" and words[0][0] == "T" and rng.random() < 0.5:
        words[0] = "10" + words[0][1]
    words = ["".join(ch.lower() if rng.random() < 0.5 else ch for ch in w) for w in words]
    pad = " " * rng.randrange(3)
    return pad + (" " * rng.randrange(1, 3)).join(words) + pad


@SETTINGS
@given(plans(), st.integers(0, 2**32 - 1))
def test_other_spellings_and_omitted_dealers_replay_the_same(plan: Plan, seed: int) -> None:
    """Input is case-insensitive, 10 means T, surplus spaces are ignored, and a later deal's
    dealer may be left out; replay is the same and writing it again is canonical."""
    match = plan.play()
    rng = random.Random(seed)
    data = Record.of_match(match).to_dict()
    for n, d in enumerate(data["deals"]):
        if n > 0 and rng.random() < 0.5:
            del d["dealer"]
        d["hands"] = {
            (k.lower() if rng.random() < 0.5 else k): [respell(c, rng) for c in v]
            for k, v in d["hands"].items()
        }
        d["actions"] = [respell(a, rng) for a in d["actions"]]
    replayed = Record.from_json(json.dumps(data)).replay()
    same_matches(replayed, match)
    assert Record.of_match(replayed).to_json() == Record.of_match(match).to_json()


@settings(
    SETTINGS,
    max_examples=30,
    phases=[
        hypothesis.Phase.explicit,
        hypothesis.Phase.reuse,
        hypothesis.Phase.generate,
        hypothesis.Phase.shrink,
    ],
)
@given(plans(), st.integers(0, 2**32 - 1))
def test_rewrite_of_respelled_record_is_canonical(plan: Plan, seed: int) -> None:
    """RECORD.md: input is case-insensitive; output is canonical (upper-case cards, lower-case
    words, single spaces). Reading a record and writing it again must give canonical tokens."""
    match = plan.play()
    rng = random.Random(seed)
    data = Record.of_match(match).to_dict()
    canonical = json.loads(json.dumps(data))
    for d in data["deals"]:
        d["actions"] = [respell(a, rng) for a in d["actions"]]
    rewritten = json.loads(Record.from_json(json.dumps(data)).to_json())
    assert rewritten == canonical


# -- 9: rejection ----------------------------------------------------------------------------

complete_plans = plans(partway=False)


def record_of(plan: Plan) -> dict[str, Any]:
    match = plan.play()
    assume(match.deals)
    return Record.of_match(match).to_dict()


def rejected_format(data: Any) -> str:
    text = data if isinstance(data, (str, bytes)) else json.dumps(data)
    with pytest.raises(RecordFormatError) as info:
        Record.from_json(text).replay()
    return str(info.value)


@SETTINGS
@given(complete_plans, st.data())
def test_wrong_card_token_in_a_hand(plan: Plan, data: st.DataObject) -> None:
    record = record_of(plan)
    n = data.draw(st.integers(0, len(record["deals"]) - 1))
    seat = data.draw(st.sampled_from("NESW"))
    i = data.draw(st.integers(0, 8))
    bad = data.draw(
        st.sampled_from(
            ["XS", "1S", "AZ", "11H", "A", "S", "", "A S", "AA", "♠A", "0S", "5H", "TT"]
        )
    )
    record["deals"][n]["hands"][seat][i] = bad
    message = rejected_format(record)
    assert f"deal {n + 1}" in message and seat in message and repr(bad) in message


@SETTINGS
@given(complete_plans, st.data())
def test_duplicate_card_in_the_hands(plan: Plan, data: st.DataObject) -> None:
    record = record_of(plan)
    n = data.draw(st.integers(0, len(record["deals"]) - 1))
    s1, s2 = data.draw(st.permutations("NESW"))[:2]
    hands = record["deals"][n]["hands"]
    card = hands[s2][data.draw(st.integers(0, 8))]
    hands[s1][data.draw(st.integers(0, 8))] = card.lower() if data.draw(st.booleans()) else card
    message = rejected_format(record)
    assert f"deal {n + 1}" in message and card in message and "twice" in message


@SETTINGS
@given(complete_plans, st.data())
def test_wrong_hand_size(plan: Plan, data: st.DataObject) -> None:
    record = record_of(plan)
    n = data.draw(st.integers(0, len(record["deals"]) - 1))
    seat = data.draw(st.sampled_from("NESW"))
    hands = record["deals"][n]["hands"]
    if data.draw(st.booleans()):
        hands[seat].pop(data.draw(st.integers(0, 8)))
    else:
        other = data.draw(st.sampled_from([s for s in "NESW" if s != seat]))
        hands[seat].append(hands[other].pop(data.draw(st.integers(0, 8))))
    message = rejected_format(record)
    assert f"deal {n + 1}" in message and "cards, not 9" in message


@SETTINGS
@given(complete_plans, st.data())
def test_wrong_dealer_in_a_later_deal(plan: Plan, data: st.DataObject) -> None:
    record = record_of(plan)
    assume(len(record["deals"]) >= 2)
    n = data.draw(st.integers(1, len(record["deals"]) - 1))
    right = record["deals"][n]["dealer"]
    previous = record["deals"][n - 1]
    if n == 1 and plan.variant.first_forehand == "club_ace_holder":
        forehand = next(s for s, cards in previous["hands"].items() if "AC" in cards)
    else:
        forehand = "NESW"[("NESW".index(previous["dealer"]) + 1) % 4]
    assert right == forehand  # RULES.md 2.3: the next dealer is this deal's forehand
    wrong = data.draw(st.sampled_from([s for s in "NESW" if s != right]))
    record["deals"][n]["dealer"] = wrong
    message = rejected_format(record)
    assert f"deal {n + 1}" in message and right in message and wrong in message


@SETTINGS
@given(plans(), st.data())
def test_bad_json(plan: Plan, data: st.DataObject) -> None:
    text = json.dumps(record_of(plan), indent=2)
    kind = data.draw(st.sampled_from(["truncate", "garbage", "not an object", "bad utf-8"]))
    if kind == "truncate":
        bad: str | bytes = text[: data.draw(st.integers(0, len(text) - 1))]
    elif kind == "garbage":
        at = data.draw(st.integers(0, len(text)))
        bad = text[:at] + data.draw(st.sampled_from(["}", "{", ",", "]", "'x'", "@"])) + text[at:]
        assume(_invalid_json(bad))
    elif kind == "not an object":
        bad = data.draw(st.sampled_from(["[]", "null", "42", '"record"', "true"]))
    else:
        bad = text.encode()[:20] + b"\xff\xfe" + text.encode()[20:]
    message = rejected_format(bad)
    assert ("object" if kind == "not an object" else "not valid JSON") in message


def _invalid_json(text: str) -> bool:
    try:
        json.loads(text)
    except json.JSONDecodeError:
        return True
    return False


@SETTINGS
@given(complete_plans, st.data())
def test_structural_errors(plan: Plan, data: st.DataObject) -> None:
    record = record_of(plan)
    kind = data.draw(
        st.sampled_from(
            [
                "format",
                "no first dealer",
                "top key",
                "deal key",
                "variant",
                "no deals",
                "no hands",
                "bad dealer",
            ]
        )
    )
    n = len(record["deals"])
    if kind == "format":
        record["format"] = data.draw(st.sampled_from(["marjapussi-record/2", "", None, 1]))
        expected = ["format"]
    elif kind == "no first dealer":
        del record["deals"][0]["dealer"]
        expected = ["deal 1", "dealer"]
    elif kind == "top key":
        record["players"] = ["a", "b"]
        expected = ["'players'", "meta"]
    elif kind == "deal key":
        record["deals"][-1]["comment"] = "extra information belongs under meta"
        expected = [f"deal {n}", "'comment'", "meta"]
    elif kind == "variant":
        record["variant"] = data.draw(
            st.sampled_from(
                [{"target": 11}, {"trumps": "on"}, {"must_overtrump": "maybe"}, ["target"]]
            )
        )
        expected = ["variant"]
    elif kind == "no deals":
        record["deals"] = []
        expected = ["deals"]
    elif kind == "no hands":
        del record["deals"][-1]["hands"][data.draw(st.sampled_from("NESW"))]
        expected = [f"deal {n}", "hands"]
    else:
        record["deals"][0]["dealer"] = data.draw(st.sampled_from(["X", "north", "", 3]))
        expected = ["deal 1", "N, E, S, W"]
    message = rejected_format(record)
    assert all(word in message for word in expected), (expected, message)


def position(record: dict[str, Any], n: int, i: int) -> tuple[Deal, Match]:
    """The deal of record deal n (from 0) after its first i actions, by replaying the record."""
    cut = json.loads(json.dumps(record))
    cut["deals"] = cut["deals"][: n + 1]
    cut["deals"][n]["actions"] = cut["deals"][n]["actions"][:i]
    match = Record.from_dict(cut).replay()
    assert match.deal is not None
    return match.deal, match


@SETTINGS
@given(plans(), st.data())
def test_illegal_action_is_refused_with_its_place(plan: Plan, data: st.DataObject) -> None:
    """A card (or other action) replaced by one illegal there: IllegalRecordAction names the deal,
    the action number, the token, the reason and the legal actions there."""
    record = record_of(plan)
    n = data.draw(st.integers(0, len(record["deals"]) - 1))
    actions = record["deals"][n]["actions"]
    assume(actions)
    i = data.draw(st.integers(0, len(actions) - 1))
    deal, _ = position(record, n, i)
    legal = deal.legal_actions()
    cards_only = data.draw(st.booleans())
    illegal = [a for a in range(36 if cards_only else NUM_ACTIONS) if a not in legal]
    bad = ACTIONS[data.draw(st.sampled_from(illegal))]
    actions[i] = str(bad)
    with pytest.raises(IllegalRecordAction) as info:
        Record.from_json(json.dumps(record)).replay()
    e = info.value
    assert (e.deal, e.number, e.token) == (n + 1, i + 1, str(bad))
    assert e.legal == tuple(legal)
    assert e.reason == deal.why_illegal(bad) and e.reason
    message = str(e)
    assert f"deal {n + 1}" in message and f"action {i + 1}" in message
    assert str(bad) in message and e.reason in message
    assert all(str(a) in message for a in legal)


@SETTINGS
@given(plans(), st.data())
def test_unreadable_action_token_is_refused_with_its_place(plan: Plan, data: st.DataObject) -> None:
    record = record_of(plan)
    n = data.draw(st.integers(0, len(record["deals"]) - 1))
    actions = record["deals"][n]["actions"]
    i = data.draw(st.integers(0, len(actions)))
    bad = data.draw(
        st.sampled_from(
            [
                "XS",
                "declare",
                "declare X",
                "ask-half",
                "ask whole",
                "answer",
                "pass",
                "",
                "AS KS",
                "ask-whole S",
            ]
        )
    )
    actions.insert(i, bad)
    deal, _ = position(record, n, i)
    with pytest.raises(IllegalRecordAction) as info:
        Record.from_json(json.dumps(record)).replay()
    e = info.value
    assert (e.deal, e.number, e.token) == (n + 1, i + 1, bad)
    assert e.legal == tuple(deal.legal_actions())
    assert f"deal {n + 1}" in str(e) and f"action {i + 1}" in str(e) and repr(bad) in str(e)


@SETTINGS
@given(complete_plans, st.data())
def test_action_after_the_end_of_a_deal(plan: Plan, data: st.DataObject) -> None:
    record = record_of(plan)
    n = data.draw(st.integers(0, len(record["deals"]) - 1))
    actions = record["deals"][n]["actions"]
    deal, _ = position(record, n, len(actions))
    assume(deal.is_over())
    extra = data.draw(st.sampled_from([*DECK, "ask-whole", "declare S", "answer H"]))
    actions.append(extra)
    with pytest.raises(IllegalRecordAction) as info:
        Record.from_json(json.dumps(record)).replay()
    e = info.value
    assert (e.deal, e.number, e.token, e.legal) == (n + 1, len(actions), extra, ())
    assert "over" in e.reason


@SETTINGS
@given(complete_plans, st.data())
def test_deal_after_an_unfinished_deal_or_after_the_end(plan: Plan, data: st.DataObject) -> None:
    record = record_of(plan)
    deals = record["deals"]
    if data.draw(st.booleans()):  # cut a deal short that is followed by another
        assume(len(deals) >= 2)
        n = data.draw(st.integers(0, len(deals) - 2))
        deals[n]["actions"] = deals[n]["actions"][
            : data.draw(st.integers(0, len(deals[n]["actions"]) - 1))
        ]
        message = rejected_format(record)
        assert f"deal {n + 2}" in message and "part-way" in message
    else:  # one deal more after the match is over
        _, match = position(record, len(deals) - 1, len(deals[-1]["actions"]))
        assume(match.is_over())
        extra = json.loads(json.dumps(deals[0]))
        del extra["dealer"]
        deals.append(extra)
        message = rejected_format(record)
        assert f"deal {len(deals)}" in message and "over" in message


def test_json_too_deep_or_a_number_too_long_is_a_format_error_not_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    assert "nested too deep" in rejected_format(deep)
    long_number = '{"format": "valtti-record/1", "deals": ' + "9" * 100_000 + "}"
    assert "too many digits" in rejected_format(long_number)


# -- what no record may cost: memory, time, a message of megabytes ------------------------------


def test_a_record_longer_than_the_limit_is_refused_unread() -> None:
    text = Record.of_match(Plan(1, Seat.W, Variant(), None, 0).play()).to_json()
    padded = text + " " * (MAX_RECORD_BYTES - len(text) + 1)
    assert "longer than 8 MiB" in rejected_format(padded)
    assert Record.from_json(padded[:MAX_RECORD_BYTES]).to_json() == text


class _Endless(io.RawIOBase):
    """A file that never ends, like /dev/zero; counts the bytes read from it."""

    def __init__(self) -> None:
        self.given = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        buffer[:] = b"0" * len(buffer)
        self.given += len(buffer)
        return len(buffer)


def test_an_endless_file_is_read_no_further_than_the_limit() -> None:
    endless = _Endless()
    with pytest.raises(RecordFormatError, match="longer than"):
        Record.load(io.BufferedReader(endless))
    assert endless.given <= MAX_RECORD_BYTES + 2 * io.DEFAULT_BUFFER_SIZE


def test_replay_and_hint_refuse_a_file_past_the_limit(tmp_path: Path) -> None:
    text = Record.of_match(Plan(2, Seat.N, Variant(), 0, 5).play()).to_json()
    path = tmp_path / "padded.json"
    path.write_text(text + " " * MAX_RECORD_BYTES)
    for command in ("replay", "hint"):
        result = CliRunner().invoke(main, [command, str(path)])
        assert result.exit_code == 2, result.output
        assert "malformed record: not a record: longer than 8 MiB" in result.output


HUGE = "X" * 1_000_000


@pytest.mark.parametrize(
    "spoil",
    [
        lambda r: r.__setitem__("format", HUGE),
        lambda r: r.__setitem__(HUGE, 1),
        lambda r: r.__setitem__("variant", {HUGE: 1}),
        lambda r: r.__setitem__("variant", {"target": HUGE}),
        lambda r: r.__setitem__("variant", {"target": int("9" * 4000)}),
        lambda r: r["deals"][0].__setitem__("dealer", HUGE),
        lambda r: r["deals"][0]["hands"]["N"].__setitem__(0, HUGE),
        lambda r: r["deals"][0]["actions"].__setitem__(0, HUGE),
    ],
    ids=["format", "key", "switch", "value", "number", "dealer", "card", "action"],
)
def test_a_huge_value_is_named_shortened_in_the_refusal(spoil: Any) -> None:
    record = Record.of_match(Plan(3, Seat.E, Variant(), 0, 5).play()).to_dict()
    spoil(record)
    with pytest.raises((RecordFormatError, IllegalRecordAction)) as refused:
        Record.from_dict(record).replay()
    message = str(refused.value)
    assert len(message) < 400, message[:400]
    assert "XXX...XXX" in message or "999...999" in message, message


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999", "-2.5E+400"])
def test_a_number_json_has_not_is_refused(number: str) -> None:
    # Python's json reads these, but they are not JSON (RFC 8259): a record kept with one in
    # its meta would be written back as no other program can read it.
    text = Record.of_match(Plan(4, Seat.S, Variant(), 0, 3).play()).to_json()
    spoiled = text[:-2] + ',\n  "meta": {"time": ' + number + "}\n}"
    message = rejected_format(spoiled)
    assert message.startswith("not valid JSON") and number.lstrip("-")[:3] in message
    assert Record.from_json(spoiled.replace(number, "1.5e300")).meta == {"time": 1.5e300}


# -- meta: what valtti's programs write there -----------------------------------------------------

#: The ``meta`` each program writes (RECORD.md, "What each program puts under meta").
HOST_METAS: list[dict[str, Any]] = [
    {
        "program": "valtti play",
        "seat": "S",
        "seed": 7,
        "players": {"N": "random", "E": "search:easy", "W": "external:bot.py"},
        "takebacks": 2,
    },
    {
        "players": {"NS": "heuristic", "EW": "search:easy"},
        "seeds": {
            "match": 3,
            "half": "B",
            "table": 11,
            "players": {"N": 1, "E": 2, "S": 3, "W": 4},
        },
        "capped": False,
        "failure": None,
    },
    {
        "program": "valtti serve",
        "table": "abc",
        "created": "2025-01-02T03:04:05+00:00",
        "seed": 5,
        "players": {"N": "random", "E": "heuristic", "S": "Aino", "W": "random"},
        "seats": {"N": "computer", "E": "computer", "S": "human", "W": "computer"},
    },
]


@pytest.mark.parametrize("meta", HOST_METAS, ids=["terminal", "arena", "web"])
def test_each_programs_meta_reads_into_fields_and_back_as_it_was(meta: dict[str, Any]) -> None:
    fields = RecordMeta.from_dict(meta)
    assert fields.extra == {}
    assert list(fields.to_dict().items()) == list(meta.items())  # the keys in their order too
    assert RecordMeta.from_dict(json.loads(json.dumps(fields.to_dict()))) == fields


def test_meta_fields_as_the_programs_read_them() -> None:
    terminal, arena, web = (RecordMeta.from_dict(m) for m in HOST_METAS)
    assert terminal.seat is Seat.S and terminal.seed == 7 and terminal.takebacks == 2
    assert terminal.player_at(Seat.W) == "external:bot.py" and terminal.player_at(Seat.S) is None
    assert arena.seeds == MatchSeeds(3, "B", 11, {"N": 1, "E": 2, "S": 3, "W": 4})
    assert arena.capped is False and arena.failure is None and arena.player_at(Seat.N) is None
    assert web.player_at(Seat.S) == "Aino" and web.seats is not None
    assert RecordMeta.from_dict(None) == RecordMeta() and RecordMeta().to_dict() == {}
    assert RecordMeta(capped=True).to_dict() == {"capped": True, "failure": None}


def test_meta_keeps_unknown_and_unreadable_keys_as_written() -> None:
    """A record from others may hold anything under meta: nothing is refused or lost, a known
    key of the wrong type reads as None and is written back as it came."""
    meta = {
        "comment": "club night",
        "seat": "X",
        "seed": "12",
        "players": {"N": 5},
        "seeds": {"match": 1},
        "takebacks": True,
        "capped": "no",
        "program": None,
        "created": ["today"],
    }
    fields = RecordMeta.from_dict(meta)
    assert fields.seat is None and fields.seed is None and fields.players is None
    assert fields.seeds is None and fields.takebacks is None and fields.capped is None
    assert fields.program is None and fields.created is None
    assert fields.extra == meta
    assert fields.to_dict() == meta
    mixed = {**HOST_METAS[0], "event": {"name": "club night"}, "seed": 1.5}
    again = RecordMeta.from_dict(mixed)
    assert again.seat is Seat.S and again.seed is None
    assert again.extra == {"event": {"name": "club night"}, "seed": 1.5}
    assert again.to_dict() == mixed


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)
META_KEYS = st.sampled_from(
    ["program", "table", "created", "seat", "seed", "players", "seeds", "seats", "takebacks",
     "capped", "failure", "comment"]
) | st.text(max_size=4)  # fmt: skip


@given(st.dictionaries(META_KEYS, JSON_VALUES | st.sampled_from(["N", "s", "NS"]), max_size=8))
def test_any_meta_reads_without_error_and_writes_back(meta: dict[str, Any]) -> None:
    fields = RecordMeta.from_dict(meta)
    out = fields.to_dict()
    if isinstance(meta.get("capped"), bool) and "failure" not in meta:
        assert out.pop("failure") is None  # the arena writes the two together
    assert set(out) == set(meta)
    for key, value in meta.items():
        assert out[key] == value or key == "seat"  # a seat is written as its name: "s" as "S"
    assert RecordMeta.from_dict(fields.to_dict()) == fields
