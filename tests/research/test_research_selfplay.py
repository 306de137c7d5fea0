"""Self-play: Python policies and exported networks seated as partner and opponents, in the
Gymnasium environment and in the arena (issue 35). Nothing is trained."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from research_needs import require

from valtti.arena import run_arena
from valtti.engine import Action, Deal, Observation, Seat
from valtti.engine.tensors import information_state_tensor, observation_tensor
from valtti.players.base import Player
from valtti.players.learned import LearnedPlayer, QNetwork, load_model
from valtti.players.policy import LentPlayer, PolicyPlayer, policy_action, takes_mask
from valtti.players.registry import make_player, release_python, seat_python

gymnasium = require("gymnasium")
torch = require("torch")
from torch import nn  # noqa: E402

from valtti.research import gymnasium as marjapussi  # noqa: E402
from valtti.research.episode import INFORMATION_STATE_SIZE, OBSERVATION_SIZE  # noqa: E402
from valtti.research.export import export_policy, network_of  # noqa: E402
from valtti.research.export import main as export_main  # noqa: E402


class _Extractor(nn.Module):
    """The shape of Stable-Baselines3's ``MlpExtractor``: a policy and a value network."""

    def __init__(self, width: int) -> None:
        super().__init__()
        self.policy_net = nn.Sequential(
            nn.Linear(OBSERVATION_SIZE, width), nn.Tanh(), nn.Linear(width, width)
        )
        self.policy_net.append(nn.Tanh())
        self.value_net = nn.Sequential(nn.Linear(OBSERVATION_SIZE, width), nn.Tanh())


class FakeSB3Policy(nn.Module):
    """An ``ActorCriticPolicy`` as SB3 builds one for PPO (tanh, a flatten extractor, the actor
    ``mlp_extractor.policy_net`` then ``action_net``, a critic beside it)."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        torch.manual_seed(5)
        self.features_extractor = nn.Flatten()
        self.mlp_extractor = _Extractor(width)
        self.action_net = nn.Linear(width, 49)
        self.value_net = nn.Linear(width, 1)

    def logits(self, x: Any) -> Any:
        return self.action_net(self.mlp_extractor.policy_net(self.features_extractor(x)))


class FakeSB3Algorithm:
    """What ``MaskablePPO.load`` gives: an object holding its ``policy``."""

    def __init__(self) -> None:
        self.policy = FakeSB3Policy()


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FakeSB3Policy]:
    algorithm = FakeSB3Algorithm()
    path = tmp_path_factory.mktemp("sb3") / "ppo.npz"
    export_policy(algorithm, path)
    return path, algorithm.policy


def test_the_exported_model_computes_what_the_policy_does(
    exported: tuple[Path, FakeSB3Policy],
) -> None:
    path, policy = exported
    model = load_model(path)
    assert model.activation == "tanh" and len(model.layers) == 3
    x = np.random.default_rng(1).random((5, OBSERVATION_SIZE), dtype=np.float32)
    expected = policy.logits(torch.tensor(x)).detach().numpy()
    assert np.allclose(model.values(x), expected, atol=1e-5)
    learned = make_player(f"learned:{path}", 1)
    assert isinstance(learned, LearnedPlayer) and learned.model.activation == "tanh"


def test_a_relu_dqn_shaped_network_exports_and_others_are_refused(tmp_path: Path) -> None:
    class QNet(nn.Module):  # SB3's DQN policy: q_net.q_net, ReLU
        def __init__(self) -> None:
            super().__init__()
            self.q_net = nn.Module()
            self.q_net.q_net = nn.Sequential(nn.Linear(499, 8), nn.ReLU(), nn.Linear(8, 49))

    assert network_of(QNet()).activation == "relu"
    with pytest.raises(ValueError, match="not Linear, ReLU or Tanh"):
        network_of(nn.Sequential(nn.Linear(499, 8), nn.Sigmoid(), nn.Linear(8, 49)))
    with pytest.raises(ValueError, match="both relu and tanh"):
        network_of(
            nn.Sequential(
                nn.Linear(499, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 49)
            )
        )
    with pytest.raises(ValueError, match="no ReLU or Tanh between"):
        network_of(nn.Sequential(nn.Linear(499, 8), nn.Linear(8, 49)))
    with pytest.raises(ValueError, match="not the observation's 499"):
        network_of(nn.Sequential(nn.Linear(500, 8), nn.ReLU(), nn.Linear(8, 49)))
    # a model naming an activation it does not know is refused when read
    path = tmp_path / "bad.npz"
    np.savez(path, w0=np.zeros((499, 49)), b0=np.zeros(49), activation=np.array("gelu"))
    with pytest.raises(ValueError, match="activation is relu or tanh, not 'gelu'"):
        load_model(path)


def test_an_information_state_model_is_given_the_information_state(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    layers = [(rng.normal(size=(INFORMATION_STATE_SIZE, 49)), np.zeros(49))]
    model = QNetwork(layers)
    assert model.view == "information_state"
    model.save(tmp_path / "i.npz", np.float32)
    player = make_player(f"learned:{tmp_path / 'i.npz'}", 0)
    deal = Deal.shuffled(__import__("random").Random(4), dealer=Seat.W)
    for _ in range(9):
        deal.apply(deal.legal_actions()[0])
    seat = deal.current_player
    assert seat is not None
    observation = deal.observation(seat).with_score((0, 0))
    expected = information_state_tensor(deal, seat, None, (0, 0))
    assert isinstance(player, LearnedPlayer)
    assert np.array_equal(player.tensor(observation), expected)


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_a_policy_is_called_with_the_mask_only_if_it_takes_two_arguments() -> None:
    assert takes_mask(first_legal) and takes_mask(lambda *a: 0)
    assert not takes_mask(lambda view: 0)
    mask = np.zeros(49, bool)
    mask[7] = True
    assert policy_action(first_legal, True, np.zeros(3), mask) == 7
    with pytest.raises(ValueError, match="action 3, which is not legal"):
        policy_action(lambda v, m: 3, True, np.zeros(3), mask)
    with pytest.raises(ValueError, match="an action number, not 'x'"):
        policy_action(lambda v, m: "x", True, np.zeros(3), mask)


def test_an_exported_mlp_as_partner_and_a_callable_as_opponents_in_gymnasium(
    exported: tuple[Path, FakeSB3Policy],
) -> None:
    path, _ = exported
    asked: list[int] = []

    class Opponent:  # a callable object, as a policy class is
        def __call__(self, view: np.ndarray, mask: np.ndarray) -> int:
            asked.append(view.shape[0])
            return first_legal(view, mask)

    opponent = Opponent()
    env = gymnasium.make(marjapussi.ENV_ID, opponents=[opponent, f"learned:{path}", opponent])
    for seed in range(3):
        env.reset(seed=seed)
        done = False
        while not done:
            done = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))[2]
    table = env.unwrapped.table
    assert asked and set(asked) == {OBSERVATION_SIZE}
    partner = table.players[(table.seat + 2) & 3]
    assert isinstance(partner, LearnedPlayer) and partner.model.activation == "tanh"
    env.close()


def test_a_callable_and_an_exported_mlp_as_partner_and_opponents_in_gymnasium(
    exported: tuple[Path, FakeSB3Policy],
) -> None:
    path, _ = exported
    calls: list[tuple[int, int]] = []

    def partner(view: np.ndarray, mask: np.ndarray) -> int:
        calls.append((view.shape[0], int(mask.sum())))
        return first_legal(view, mask)

    exported_player = make_player(f"learned:{path}", 0)
    env = gymnasium.make(
        marjapussi.ENV_ID, opponents=[exported_player, partner, f"learned:{path}"], seat="N"
    )
    table = env.unwrapped.table
    for seed in range(3):
        env.reset(seed=seed)
        done = False
        while not done:
            action = int(np.flatnonzero(env.unwrapped.action_masks())[-1])
            done = env.step(action)[2]
        assert table.episode.is_over()
    # the partner (S) was asked, with the learner's view and a mask with a choice or a
    # forced move; the exported model played E (a Player object) and W (by its name)
    assert calls
    assert all(size == OBSERVATION_SIZE and legal >= 1 for size, legal in calls)
    assert table.seated[Seat.S].who is partner
    assert table.seated[Seat.E].who is exported_player
    env.close()


def test_a_policy_in_the_other_seats_gets_the_learners_observation_type() -> None:
    sizes: set[int] = set()

    def policy(view: Any, mask: np.ndarray) -> int:
        sizes.add(view["information_state"].shape[0])
        return first_legal(view, mask)

    env = marjapussi.MarjapussiEnv(opponents=policy, observation_type="both", seat=0)
    env.reset(seed=2)
    while not env.step(int(np.flatnonzero(env.action_masks())[0]))[2]:
        pass
    assert sizes == {INFORMATION_STATE_SIZE}


def test_a_policy_that_plays_an_illegal_action_is_refused_by_name() -> None:
    env = marjapussi.MarjapussiEnv(opponents=lambda view, mask: 48, seat=0)
    with pytest.raises(ValueError, match="action 48, which is not legal"):
        env.reset(seed=1)
        for _ in range(40):
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(TypeError, match="a seat takes a player's name, a Player or a policy"):
        marjapussi.MarjapussiEnv(opponents=[1, "random", "random"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="opponents is one player"):
        marjapussi.MarjapussiEnv(opponents=["random", "random"])


class LowestCard(Player):
    """A ``Player`` object: the lowest legal action number."""

    name = "lowest"

    def __init__(self) -> None:
        self.closed = False

    def choose(self, observation: Observation) -> Action:
        return min(observation.legal_actions)

    def close(self) -> None:
        self.closed = True


def test_a_callable_and_an_exported_mlp_in_the_arena(
    exported: tuple[Path, FakeSB3Policy],
) -> None:
    path, _ = exported
    lowest = LowestCard()
    result = run_arena(
        [first_legal, f"learned:{path}", lowest], 2, seed=3, backend="serial", max_deals=1
    )
    names = [(p.first.spec, p.second.spec) for p in result.pairings]
    assert names == [
        ("python:first_legal", f"learned:{path}"),
        ("python:first_legal", "python:lowest"),
        (f"learned:{path}", "python:lowest"),
    ]
    for pairing in result.pairings:
        assert pairing.first.deals == pairing.second.deals == 4 and not pairing.failures
        assert pairing.first.decisions > 0 and pairing.second.decisions > 0
    assert not lowest.closed  # lent: its owner closes it
    # the names are released after the run, and a process pool cannot seat them
    with pytest.raises(ValueError, match="no Python player 'first_legal'"):
        make_player("python:first_legal")
    with pytest.raises(ValueError, match="plays in this process: backend='serial'"):
        run_arena([first_legal, "random"], 1, seed=1)


def test_a_policy_player_sees_what_the_env_would_give_it() -> None:
    """The arena's ``PolicyPlayer`` rebuilds the seat's tensor from its observation: the
    same tensor the environment gives a policy at that point."""
    seen: list[np.ndarray] = []

    def policy(view: np.ndarray, mask: np.ndarray) -> int:
        seen.append(view.copy())
        return first_legal(view, mask)

    deal = Deal.shuffled(__import__("random").Random(8), dealer=Seat.E)
    player = PolicyPlayer(policy, seed=1)
    while not deal.is_over():
        seat = deal.current_player
        assert seat is not None
        action = player.choose(deal.observation(seat).with_score((0, 0)))
        assert np.array_equal(seen[-1], observation_tensor(deal, seat, None, (0, 0)))
        deal.apply(action)
    spec = seat_python(policy)
    assert spec == "python:policy" and seat_python(policy) == "python:policy-2"
    release_python(spec)
    release_python("python:policy-2")


def test_the_command_line_loads_a_saved_sb3_model_and_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m valtti.research.export``, with a stand-in for sb3_contrib (not installed
    here): it loads with the algorithm's ``load`` on the CPU and writes what the policy does."""
    loaded: list[tuple[Path, str]] = []

    class MaskablePPO:
        @staticmethod
        def load(path: Path, device: str) -> FakeSB3Algorithm:
            loaded.append((path, device))
            if not Path(path).exists():
                raise FileNotFoundError(2, "No such file or directory")
            return FakeSB3Algorithm()

    module = types.ModuleType("sb3_contrib")
    module.MaskablePPO = MaskablePPO  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sb3_contrib", module)
    (tmp_path / "ppo.zip").write_bytes(b"")
    out = tmp_path / "ppo.npz"
    assert export_main(["maskable_ppo", str(tmp_path / "ppo.zip"), str(out)]) == 0
    assert loaded == [(tmp_path / "ppo.zip", "cpu")]
    assert f"seat it as learned:{out}" in capsys.readouterr().out
    x = np.random.default_rng(2).random((3, OBSERVATION_SIZE), dtype=np.float32)
    expected = FakeSB3Algorithm().policy.logits(torch.tensor(x)).detach().numpy()
    assert np.allclose(load_model(out).values(x), expected, atol=1e-5)
    assert export_main(["maskable_ppo", str(tmp_path / "gone.zip"), str(out)]) == 2
    assert "gone.zip: " in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "stable_baselines3", None)  # not installed
    assert export_main(["ppo", "a.zip", str(out)]) == 2
    assert "ppo needs stable-baselines3: pip install stable-baselines3" in capsys.readouterr().err


class Duck:
    """An object with a player's interface that is no ``Player``: ``choose`` alone."""

    name = "duck"

    def choose(self, observation: Observation) -> int:
        return int(max(observation.legal_actions))


def test_any_object_with_a_players_choose_sits_in_gymnasium_and_the_arena() -> None:
    duck = Duck()
    env = marjapussi.MarjapussiEnv(opponents=[duck, "random", duck], seat="S")
    env.reset(seed=4)
    while not env.step(int(np.flatnonzero(env.action_masks())[0]))[2]:
        pass
    for seat in (Seat.W, Seat.E):  # lent, in a Player's clothes
        lent = env.table.players[seat]
        assert isinstance(lent, LentPlayer) and lent.player is duck and lent.name == "duck"
    result = run_arena([duck, "random"], 1, seed=2, backend="serial", max_deals=1)
    assert result.pairings[0].first.spec == "python:duck"
    assert result.pairings[0].first.decisions > 0
