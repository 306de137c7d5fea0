"""Marjapussi as an OpenSpiel game: ``python_marjapussi``, registered on import.

::

    import random, pyspiel, valtti.research.openspiel
    game = pyspiel.load_game("python_marjapussi", {"target": 12, "whole_ask_after_trump": "anyone"})
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(random.choice(outcomes))
        else:
            state.apply_action(random.choice(state.legal_actions()))
    print(state.returns())

One game is one deal. Players 0–3 are the seats N E S W; the first 27 moves are chance nodes
dealing the cards one by one, nine to N, then E, then S (W takes the last nine): chance outcome
j deals the j-th card not yet dealt (in card-number order), all equally likely. The actions are
the 49 action numbers (``valtti.engine.actions``); a partner answering "yes" to an ask-whole
names the marriage as a move of its own, forced (one legal action) where it holds one, so that
``current_player()`` tells the others only the "yes" (RULES.md 7.2; ``Deal``'s
``answer_steps``). The game parameters are the variant switches (RULES.md 8), the ``dealer``
(0–3) and the match score before the deal (``score_ns``, ``score_ew``, which only the tensors
show). Returns: each player's team's game points minus
the other team's (zero-sum). Observation and information-state tensors are the engine's
(docs/TENSORS.md), strings are JSON of ``Deal.observation`` less its legal actions; both
follow RULES.md 7 (7.2 included). ``resample_from_infostate`` draws the hidden hands uniformly
among those agreeing with the player's knowledge (``valtti.players.sampler``), so OpenSpiel's
Python ISMCTS bot (``open_spiel.python.algorithms.ismcts``) plays it; the C++
``pyspiel.ISMCTSBot`` crashes on every game written in Python (docs/RESEARCH.md).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from valtti.engine import ACTIONS, CardSet, Deal, Phase, Seat, Variant
from valtti.engine._deal import card_mask, nth_card
from valtti.engine.actions import ASK_WHOLE
from valtti.engine.match import forehand_of, match_goes_on
from valtti.engine.tensors import (
    INFORMATION_STATE_SIZE,
    OBSERVATION_SIZE,
    information_state_tensor,
    observation_tensor,
)
from valtti.engine.variant import SWITCHES
from valtti.players.knowledge import infer
from valtti.players.sampler import Sampler
from valtti.players.worlds import rebuild
from valtti.research.episode import deal_returns

GAME_NAME = "python_marjapussi"
#: Chance nodes per game: the cards of N, E and S; W holds the rest.
DEALT = 27
#: At most 7 game points a deal: trumps 2, three little trumps, the last trick, the victory.
MAX_POINTS = 7.0
#: A resampled world must also leave a partner to name a marriage (a "yes" that the seat sees
#: only in the turn, RULES.md 7.2); at most this many draws are tried for that before giving up.
RESAMPLE_TRIES = 10_000

_PARAMETERS: dict[str, Any] = {name: values[0] for name, values in SWITCHES.items()}
_PARAMETERS.update(dealer=0, score_ns=0, score_ew=0)

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Marjapussi (valtti)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=len(ACTIONS),
    max_chance_outcomes=36,
    num_players=4,
    min_utility=-MAX_POINTS,
    max_utility=MAX_POINTS,
    utility_sum=0.0,
    max_game_length=36 + 2 * 8,  # every card, and at most ask-whole and answer per window
)

__all__ = ["GAME_NAME", "MarjapussiGame", "MarjapussiObserver", "MarjapussiState"]


class MarjapussiGame(pyspiel.Game):
    """One deal of Marjapussi (see the module)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        unknown = sorted(set(params or {}) - set(_PARAMETERS))
        if unknown:
            raise ValueError(f"unknown parameters {unknown}: known are {sorted(_PARAMETERS)}")
        # The defaults filled in, as load_game fills them: MarjapussiGame({"dealer": 1}) works.
        super().__init__(_GAME_TYPE, _GAME_INFO, {**_PARAMETERS, **(params or {})})
        values = self.get_parameters()
        self.variant = Variant.from_mapping({name: values[name] for name in SWITCHES})
        if values["dealer"] not in range(4):
            raise ValueError(f"dealer is 0 to 3 (N E S W), not {values['dealer']}")
        self.dealer = Seat(values["dealer"])
        self.score = (int(values["score_ns"]), int(values["score_ew"]))
        target = self.variant.target
        if not match_goes_on(self.score, self.variant):  # the tensors then stay within 0 to 1
            raise ValueError(
                f"score_ns and score_ew are 0 to {target - 1} (or both {target} where the match"
                f" goes on), not {self.score}"
            )
        self.setup = _Setup(self)

    def __reduce__(self) -> tuple[type[MarjapussiGame], tuple[dict[str, Any]]]:
        # pybind's own pickling keeps only the C++ game: the copy would lack this __init__'s
        # attributes, and so would every pickled or deserialised state's game.
        return (MarjapussiGame, (self.get_parameters(),))

    def new_initial_state(self) -> MarjapussiState:
        return MarjapussiState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> MarjapussiObserver:
        return MarjapussiObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Setup:
    """The game's parameters as a state needs them; one per game, shared, not copied, by its
    states and their clones."""

    def __init__(self, game: MarjapussiGame) -> None:
        self.game = game
        self.variant = game.variant
        self.dealer = game.dealer
        self.score = game.score

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self


#: Chance node k (k cards dealt) deals the j-th card not yet dealt, j uniform: its outcomes.
_OUTCOMES = [[(j, 1.0 / (36 - k)) for j in range(36 - k)] for k in range(DEALT)]
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
#: the card mask of each card number
_BIT = [1 << card for card in range(36)]


class MarjapussiState(pyspiel.State):
    """A deal being dealt (chance nodes) or played."""

    # pyspiel calls current_player and _apply_action on every move, and random players call
    # is_terminal, is_chance_node and legal_actions or chance_outcomes: each does the least it
    # can over the engine's state (no per-state caches: the state's __dict__ is what pyspiel
    # clones and serialises).

    def __init__(self, game: MarjapussiGame) -> None:
        super().__init__(game)
        self.setup = game.setup
        #: the cards dealt so far, in order: N's nine, E's, S's
        self.dealt: list[int] = []
        self.undealt = (1 << 36) - 1
        self.deal: Deal | None = None

    def current_player(self) -> int:
        deal = self.deal
        if deal is None:
            return _CHANCE
        player = deal.seat_to_move()
        return _TERMINAL if player < 0 else player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.deal is not None
        return self.deal.legal_numbers()

    # legal_actions and is_chance_node answer as pyspiel's do, without the round trip through
    # C++ that a Python caller would pay for; C++ callers (random_sim_test, bots) use theirs.

    def legal_actions(self, player: int | None = None) -> list[int]:
        deal = self.deal
        if deal is None:
            if player is not None and player != _CHANCE:
                return []
            return list(range(36 - len(self.dealt)))
        if player is not None and player != self.current_player():
            return []
        return deal.legal_numbers()  # empty once the deal is over

    def is_chance_node(self) -> bool:
        return self.deal is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.deal is not None:
            raise ValueError("chance_outcomes: not a chance node (the cards are dealt)")
        return _OUTCOMES[len(self.dealt)]

    def _card(self, outcome: int) -> int:
        """The card that chance outcome ``outcome`` deals now: the outcome-th undealt one."""
        if self.deal is not None:
            raise ValueError(f"no chance outcome {outcome} now: the cards are dealt")
        card = nth_card(self.undealt, outcome)
        if card < 0:
            raise ValueError(f"no chance outcome {outcome}: {36 - len(self.dealt)} cards undealt")
        return card

    def _apply_action(self, action: int) -> None:
        deal = self.deal
        if deal is not None:
            deal.apply(action)
            return
        card = nth_card(self.undealt, action)
        if card < 0:
            raise ValueError(f"no chance outcome {action}: {36 - len(self.dealt)} cards undealt")
        self.undealt ^= _BIT[card]
        dealt = self.dealt
        dealt.append(card)
        if len(dealt) == DEALT:
            self._start()

    def _start(self) -> None:
        """Make the engine's deal once the last chance node has dealt S's ninth card."""
        dealt = self.dealt
        hands = [card_mask(dealt[0:9]), card_mask(dealt[9:18]), card_mask(dealt[18:]), self.undealt]
        setup = self.setup
        variant = setup.variant
        # forehand_of reads the hands only where the club ace's holder leads (RULES.md 2.2)
        by_hands = variant.first_forehand == "club_ace_holder"
        seen = [CardSet(hand) for hand in hands] if by_hands else []
        forehand = forehand_of(setup.dealer, seen, variant, True)
        # answer_steps: current_player() would tell that a partner had several marriages
        # (RULES.md 7.2; Deal).
        self.deal = Deal(hands, setup.dealer, variant, forehand, answer_steps=True)

    def _deal_card(self, card: int) -> None:
        """Apply the chance outcome that deals ``card``."""
        self.apply_action((self.undealt & ((1 << card) - 1)).bit_count())

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CardSet([self._card(action)])} to {Seat(len(self.dealt) // 9)}"
        if not 0 <= action < len(ACTIONS):  # ACTIONS[-1] would name answer C
            raise ValueError(f"no action {action}: actions are numbered 0 to {len(ACTIONS) - 1}")
        return str(ACTIONS[action])

    def is_terminal(self) -> bool:
        deal = self.deal
        return deal is not None and deal.is_over()

    def returns(self) -> list[float]:
        deal = self.deal
        if deal is None or not deal.is_over():
            return [0.0, 0.0, 0.0, 0.0]
        ns, ew = deal_returns(deal)
        return [ns, ew, ns, ew]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> MarjapussiState:
        """A state with the same information state for ``player_id``, the hidden hands drawn
        uniformly among all that agree with it (``valtti.players.sampler``, exact)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        out: MarjapussiState = self.setup.game.new_initial_state()
        if self.deal is None:
            own = [c for i, c in enumerate(self.dealt) if i // 9 == player_id]
            rest = [c for c in range(36) if c not in own]
            rng.shuffle(rest)
            for i in range(len(self.dealt)):
                out._deal_card(own.pop(0) if i // 9 == player_id else rest.pop())
            return out
        world = _resample(self.deal, Seat(player_id), rng)
        for i in range(DEALT):
            seat = i // 9
            if seat == player_id:
                out._deal_card(self.dealt[i])
            else:
                out._deal_card(sorted(world.initial_hands[seat])[i % 9])
        for action in world.history:
            out.apply_action(int(action))
        return out

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: {len(self.dealt)} cards dealt"
        return "\n".join(
            [f"{seat}: {self.deal.hand(seat)}" for seat in Seat]
            + [" ".join(str(a) for a in self.deal.history)]
        )


def _resample(deal: Deal, seat: Seat, rng: random.Random) -> Deal:
    """The deal in a world drawn uniformly among those ``seat`` cannot tell from ``deal``."""
    observation = deal.observation(seat)
    sampler = Sampler(infer(observation))
    pending = deal.phase is Phase.ANSWER and deal.current_player != seat
    for _ in range(RESAMPLE_TRIES):
        world = rebuild(observation, sampler.sample(rng))
        if not pending:
            return world
        # seat sees the deal before the ask-whole: keep only worlds in which it, too, is
        # answered "yes" (answer_steps: the partner then names the marriage as a step).
        world.apply(ASK_WHOLE)
        if world.phase is Phase.ANSWER:
            return world
    raise RuntimeError("no world with a pending choice found")


class MarjapussiObserver:
    """The engine's tensors for OpenSpiel: the observation tensor, or with ``perfect_recall``
    the information-state tensor; strings are the JSON of ``Deal.observation`` without the
    legal actions and their refusals (and, without ``perfect_recall``, the history)."""

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a player's own view (private and public information) is offered")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = INFORMATION_STATE_SIZE if self.perfect_recall else OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"tensor": self.tensor}
        self._encode = information_state_tensor if self.perfect_recall else observation_tensor

    def set_from(self, state: MarjapussiState, player: int) -> None:
        if state.deal is None:
            self.tensor.fill(0)
            for i, card in enumerate(state.dealt):
                if i // 9 == player:
                    self.tensor[card] = 1.0
            return
        self._encode(state.deal, player, self.tensor, state.setup.score)

    def string_from(self, state: MarjapussiState, player: int) -> str:
        if state.deal is None:
            own = CardSet([c for i, c in enumerate(state.dealt) if i // 9 == player])
            return f"{Seat(player)} dealt {own}"
        view = state.deal.observation(Seat(player)).to_dict()
        # The legal actions follow from the rest of the view, and they alone would tell the
        # asker, whose view is the deal before its ask-whole, that its partner is naming a
        # marriage (RULES.md 7.2): it cannot act until the answer.
        del view["legal"], view["refusals"]
        if not self.perfect_recall:
            del view["history"]
        return json.dumps(view, sort_keys=True)


pyspiel.register_game(_GAME_TYPE, MarjapussiGame)
