"""The learned player: legal play from the shipped model, models as data, ``learned:PATH``."""

from __future__ import annotations

import os
import pickle
import random
import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import variants
from valtti.cli import main
from valtti.engine import NUM_ACTIONS, Deal, Seat, Variant
from valtti.engine.tensors import OBSERVATION_SIZE, observation_tensor
from valtti.players import make_player
from valtti.players.learned import (
    MAX_NPZ_BYTES,
    LearnedPlayer,
    QNetwork,
    load_model,
    read_npz,
    shipped_path,
)


def tiny(seed: int = 0, width: int = 3) -> QNetwork:
    rng = np.random.default_rng(seed)
    return QNetwork(
        [
            (rng.normal(size=(OBSERVATION_SIZE, width)), rng.normal(size=width)),
            (rng.normal(size=(width, NUM_ACTIONS)), rng.normal(size=NUM_ACTIONS)),
        ]
    )


@settings(max_examples=25, deadline=None)
@given(variants, st.integers(0, 2**32), st.sampled_from(list(Seat)))
def test_the_shipped_model_plays_only_legal_actions(
    variant: Variant, seed: int, dealer: Seat
) -> None:
    rng = random.Random(seed)
    deal = Deal.shuffled(rng, dealer, variant)
    players = [make_player("learned", seed + s) for s in range(4)]
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None
        observation = deal.observation(seat)
        action = players[seat].choose(observation)
        assert action in observation.legal_actions
        deal.apply(action)


def test_the_player_takes_the_legal_action_of_highest_value() -> None:
    model = tiny(3)
    player = LearnedPlayer(model, seed=1)
    deal = Deal.shuffled(random.Random(5), Seat.N)
    seat = deal.current_player
    assert seat is not None
    values = model.values(observation_tensor(deal, seat, score=(0, 0)))
    legal = deal.legal_actions()
    assert player.choose(deal.observation(seat)) == max(legal, key=lambda a: values[a])


def test_the_stand_in_hands_do_not_change_the_tensor() -> None:
    deal = Deal.shuffled(random.Random(8), Seat.E)
    for _ in range(13):
        deal.apply(deal.legal_actions()[0])
    seat = deal.current_player
    assert seat is not None
    truth = observation_tensor(deal, seat, score=(0, 0))
    for seed in range(5):
        assert np.array_equal(LearnedPlayer(tiny(), seed).tensor(deal.observation(seat)), truth)


def test_a_model_round_trips_through_npz(tmp_path: Path) -> None:
    model = tiny(1)
    model.save(tmp_path / "m32.npz", np.float32)
    again = load_model(tmp_path / "m32.npz")
    for (w, b), (w2, b2) in zip(model.layers, again.layers, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    model.save(tmp_path / "m16.npz")  # float16: the same network but for rounding
    half = load_model(tmp_path / "m16.npz")
    x = np.random.default_rng(0).random((4, OBSERVATION_SIZE), np.float32)
    assert np.allclose(half.values(x), model.values(x), rtol=1e-2, atol=1e-1)


def test_learned_path_seats_another_checkpoint(tmp_path: Path) -> None:
    tiny(2).save(tmp_path / "other.npz")
    player = make_player(f"learned:{tmp_path / 'other.npz'}", 1)
    assert player.name == f"learned:{tmp_path / 'other.npz'}"
    assert make_player("learned").name == "learned"
    with pytest.raises(ValueError, match="no model"):
        make_player(f"learned:{tmp_path / 'missing.npz'}")


class _Exploit:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Path("pwned").touch, ())  # type: ignore[return-value]


def test_loading_refuses_a_pickle_bearing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    arrays = tiny().arrays()
    objects = {**arrays, "w0": np.array([_Exploit()], dtype=object)}
    np.savez(tmp_path / "objects.npz", **objects)  # an object array is pickled inside the npz
    (tmp_path / "pickle.npz").write_bytes(pickle.dumps(_Exploit()))
    for name in ("objects.npz", "pickle.npz"):
        with pytest.raises(ValueError, match="not a model"):
            load_model(tmp_path / name)
    assert not (tmp_path / "pwned").exists()


def _truncated(path: Path) -> None:
    tiny().save(path)
    path.write_bytes(path.read_bytes()[:1000])


def _damaged(path: Path) -> None:
    tiny().save(path)
    data = bytearray(path.read_bytes())
    data[200:300] = bytes(100)  # inside w0's compressed bytes: the zip's check fails
    path.write_bytes(bytes(data))


def _npy(path: Path) -> None:
    with path.open("wb") as f:
        np.save(f, np.zeros(3))


def _no_npy(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("w0.txt", "not an array")


def _objects(path: Path) -> None:
    np.savez(path, **{**tiny().arrays(), "b1": np.array([{}], dtype=object)})


def _huge_shape(path: Path) -> None:
    header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (1180591620717411303424,), }"
    header += b" " * (-(len(header) + 11) % 64) + b"\n"
    npy = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("w0.npy", npy)


def _bomb(path: Path) -> None:
    # A few hundred kilobytes that would inflate past the limit.
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z,
        z.open("w0.npy", "w", force_zip64=True) as member,
    ):
        for _ in range((MAX_NPZ_BYTES >> 20) + 1):
            member.write(bytes(1 << 20))


#: Files that are not models, made at a path, and the reason each is refused with.
NOT_MODELS: list[tuple[str, Callable[[Path], object], str]] = [
    ("text", lambda p: p.write_text("root:x:0:0:root:/root:/bin/sh\n"), "not an .npz"),
    ("empty", lambda p: p.write_bytes(b""), "the file is empty"),
    ("folder", lambda p: p.mkdir(), "it is a folder"),
    ("truncated", _truncated, "damaged or cut short"),
    ("damaged", _damaged, "damaged or cut short"),
    ("npy", _npy, r"a single array \(\.npy\)"),
    ("member", _no_npy, "w0.txt is not an array"),
    ("objects", _objects, r"b1 holds Python objects \(a pickle\), which are never loaded"),
    ("pickle", lambda p: p.write_bytes(pickle.dumps(_Exploit())), "not an .npz"),
    ("huge shape", _huge_shape, r"w0 is not a readable array"),
    ("bomb", _bomb, r"its arrays would take over 256 MiB"),
    ("pipe", os.mkfifo, "it is not a regular file"),
]


@pytest.mark.parametrize(("kind", "make", "reason"), NOT_MODELS, ids=[k for k, _, _ in NOT_MODELS])
def test_a_file_that_is_no_npz_of_arrays_is_refused_in_one_message(
    tmp_path: Path, kind: str, make: Callable[[Path], object], reason: str
) -> None:
    """Whatever the file, one message names it and says why; none advises loading it
    unsafely (numpy's own words do)."""
    path = tmp_path / f"{kind}.npz"
    make(path)
    with pytest.raises(ValueError) as refused:
        load_model(path)
    message = str(refused.value)
    assert message.startswith(f"{path} is not a model (an .npz of weight arrays): ")
    assert re.search(reason, message), message
    assert "allow_pickle" not in message and "trust" not in message
    with pytest.raises(ValueError, match=f"is not a training checkpoint: .*{reason}"):
        read_npz(path, "a training checkpoint")  # the one reader, for checkpoints too


def test_a_file_that_is_not_a_model_is_refused_by_the_commands(tmp_path: Path) -> None:
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/sh\n")
    runner = CliRunner()
    arena = runner.invoke(main, ["arena", "--players", f"learned:{text},random", "--deals", "1"])
    assert arena.exit_code == 2, arena.output
    assert f"{text} is not a model (an .npz of weight arrays)" in arena.output
    run = tmp_path / "run"
    train = runner.invoke(main, ["train", "--out", str(run), "--deals", "5", "--init", str(text)])
    assert train.exit_code == 2, train.output
    assert f"{text} is not a model (an .npz of weight arrays)" in train.output
    for result in (arena, train):
        assert "allow_pickle" not in result.output and "Traceback" not in result.output
    assert not run.exists()


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({}, "expected arrays w0 b0 w1 b1 …, not none"),
        ({"w0": np.zeros((OBSERVATION_SIZE, NUM_ACTIONS))}, "expected arrays"),
        ({"w0": np.zeros((10, NUM_ACTIONS)), "b0": np.zeros(NUM_ACTIONS)}, "takes 10 inputs, not"),
        ({"w0": np.zeros((OBSERVATION_SIZE, NUM_ACTIONS)), "b0": np.zeros(3)}, "do not fit"),
        ({"w0": np.zeros((OBSERVATION_SIZE, 5)), "b0": np.zeros(5)}, "not 49"),
        ({"w0": np.zeros((OBSERVATION_SIZE, NUM_ACTIONS), int), "b0": np.zeros(49)}, "floats"),
        ({"w0": np.full((OBSERVATION_SIZE, NUM_ACTIONS), np.nan), "b0": np.zeros(49)}, "finite"),
    ],
)
def test_a_file_that_is_not_a_model_is_refused(
    tmp_path: Path, arrays: dict[str, np.ndarray], message: str
) -> None:
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ValueError, match=message) as refused:
        load_model(tmp_path / "bad.npz")
    assert str(refused.value).startswith(f"{tmp_path / 'bad.npz'} is not a model")


def test_the_shipped_model_is_small_and_plain_data() -> None:
    path = shipped_path()
    assert path.stat().st_size < 1_000_000
    with np.load(path, allow_pickle=False) as data:
        assert all(data[name].dtype == np.float16 for name in data.files)


def test_a_rewritten_checkpoint_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "run.npz"
    tiny(1).save(path, np.float32)
    first = make_player(f"learned:{path}")
    tiny(2, width=5).save(path, np.float32)  # as a training run rewrites its model.npz
    second = make_player(f"learned:{path}")
    assert isinstance(first, LearnedPlayer) and isinstance(second, LearnedPlayer)
    assert first.model.layers[0][0].shape == (OBSERVATION_SIZE, 3)
    assert second.model.layers[0][0].shape == (OBSERVATION_SIZE, 5)
