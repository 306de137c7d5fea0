"""The seat driver: four seats around one match, asked in turn, their faults named.

One ``Table`` serves every host. The arena and the terminal let it play (``run``, ``decide``);
an event-driven host (the web) drives it step by step: ``start_deal`` when ``needs_deal``, read
``to_move``, get the action from wherever it is decided (a person's socket, a worker process
given ``decision_seed``), ``apply`` it. Every seed comes from the match seed (``seeds``).

Where a program sits (``external:``), it starts in the table's ``sandbox``, and the host's
computer players keep a pace that tells it nothing (``table.pace``).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from types import TracebackType

from valtti.engine import Action, CardSet, Deal, Match, Observation, Seat, Variant
from valtti.players.base import Player
from valtti.players.external import ExternalPlayer
from valtti.players.listener import MatchListener
from valtti.players.registry import make_player, starts_program
from valtti.players.sandbox import SANDBOX, Sandbox
from valtti.table import seeds
from valtti.table.pace import PACE, Pace


@dataclass(frozen=True, slots=True)
class Computer:
    """A computer player at a seat, by its ``make_player`` spec.

    ``seed=None``: a fresh player for every decision, seeded with ``decision_seed``. It keeps
    nothing between decisions, so a resumed match decides as it would have gone on, and a
    decision can be made in another process. With a ``seed``: one player for the whole match,
    made when the table sits down, told how the match goes (``MatchListener``) and closed by
    ``close``.
    """

    spec: str
    seed: int | None = None


#: What sits at a seat: a computer player, or ``None`` for someone the table never asks (a
#: person, a socket), whose actions the host passes to ``apply``.
Occupant = Computer | None


class PlayerFault(Exception):
    """A computer player failed (in being made, asked, told or closed) or chose an illegal
    action; ``str()`` names the player and the seat: ``"random at N: …"``."""

    def __init__(self, seat: Seat, spec: str, what: str) -> None:
        super().__init__(f"{spec} at {seat}: {what}")
        self.seat = seat
        self.spec = spec


@dataclass(slots=True)
class Clock:
    """The time one seat's computer player spent deciding (in ``choose``)."""

    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0  #: the longest single decision

    def add(self, seconds: float) -> None:
        self.decisions += 1
        self.seconds += seconds
        self.slowest = max(self.slowest, seconds)


def decide_once(
    spec: str, seed: int, observation: Observation, sandbox: Sandbox = SANDBOX
) -> Action:
    """The action a fresh ``spec`` player seeded with ``seed`` takes (e.g. in a worker)."""
    player = make_player(spec, seed, sandbox=sandbox)
    try:
        action = player.choose(observation)
    except Exception:
        with contextlib.suppress(Exception):  # the failure to tell is the decision's
            player.close()
        raise
    player.close()
    return action


class Table:
    """The seats of one match (``seats``: an occupant per seat, ``None`` where absent).

    ``match``: a match to go on with (a resumed one); by default a new match of ``variant``
    with the first dealer from ``seed``. Use it as a context manager (``sit_down``, ``close``)
    when a seat keeps one player for the match. The listener calls reach every kept player that
    implements ``MatchListener``: ``match_started`` at ``sit_down``, ``deal_started`` in
    ``start_deal``, ``deal_ended`` and ``match_ended`` in ``apply`` as the deal and the match end
    (or ``match_ended`` with winner ``None`` when ``run`` stops a match at ``max_deals``).

    A host may change an occupant between actions (``table.seats[seat] = Computer(spec)``: a
    person's seat handed to a computer player); a player kept for the match is made only by
    ``sit_down``.

    A program (``external:``) starts in ``sandbox``; while one sits at a confined table, the
    decisions of the others are held to ``pace`` (``table.pace``). What a program wrote on its
    standard error is in ``error_logs`` once it is closed.
    """

    def __init__(
        self,
        seats: Mapping[Seat, Occupant],
        seed: int,
        match: Match | None = None,
        *,
        variant: Variant | None = None,
        sandbox: Sandbox = SANDBOX,
        pace: Pace = PACE,
    ) -> None:
        if match is not None and variant is not None:
            raise ValueError("a match to go on with has its variant already")
        self.seats: dict[Seat, Occupant] = {seat: seats.get(seat) for seat in Seat}
        self.seed = seed
        self.match = match if match is not None else Match(variant, seeds.first_dealer(seed))
        self.sandbox = sandbox
        self.pace = pace
        self.clocks: dict[Seat, Clock] = {seat: Clock() for seat in Seat}
        #: What each program that sat here wrote on its standard error, by seat, once closed.
        self.error_logs: dict[Seat, tuple[str, ...]] = {}
        self._kept: dict[Seat, Player] = {}
        self._ended = False

    # -- seating --------------------------------------------------------------------------------

    def sit_down(self) -> None:
        """Make the players kept for the match and tell them it starts; ``PlayerFault``."""
        for seat, occupant in self.seats.items():
            if occupant is not None and occupant.seed is not None and seat not in self._kept:
                with self._blame(seat):
                    self._kept[seat] = make_player(
                        occupant.spec, occupant.seed, sandbox=self.sandbox
                    )
        variant = self.match.variant
        self._tell(lambda seat, listener: listener.match_started(variant, seat))

    def close(self) -> PlayerFault | None:
        """Close every kept player, each once; the first fault in closing, if any."""
        fault = None
        while self._kept:
            seat, player = self._kept.popitem()
            try:
                with self._blame(seat):
                    player.close()
            except PlayerFault as e:
                fault = fault or e
            if isinstance(player, ExternalPlayer):
                self.error_logs[seat] = player.error_log()
        return fault

    def __enter__(self) -> Table:
        try:
            self.sit_down()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        fault = self.close()
        if fault is not None and error is None:
            raise fault

    # -- the state of play ----------------------------------------------------------------------

    @property
    def needs_deal(self) -> bool:
        """No deal is being played and the match is not over: ``start_deal`` comes next."""
        deal = self.match.deal
        return (deal is None or deal.is_over()) and not self.match.is_over()

    @property
    def to_move(self) -> Seat | None:
        """The seat to act in the deal being played; ``None`` between deals and at the end."""
        return self.match.current_player

    def is_computer(self, seat: Seat) -> bool:
        return self.seats[seat] is not None

    @property
    def paced(self) -> bool:
        """Whether a program sits at this table in a sandbox: the other computer players then
        keep ``pace``, so that their time tells it nothing (a forced move, say)."""
        return self.sandbox.confined and any(
            o is not None and starts_program(o.spec) for o in self.seats.values()
        )

    def hands(self, number: int) -> tuple[CardSet, ...]:
        """The cards of deal ``number`` (from 1), N E S W: a host may store them first."""
        return seeds.deal_cards(self.seed, number)

    @property
    def point(self) -> int:
        """The number of actions of the match so far: where each decision stands."""
        return sum(len(deal.history) for deal in self.match.deals)

    def decision_seed(self) -> int:
        """The seed of the decision now to make, by the seat and the ``point`` (so the same
        after a resume); ``ValueError`` when no one is to move."""
        seat = self._deal_in_play().current_player
        assert seat is not None
        return seeds.decision_seed(self.seed, seat, self.point)

    # -- steps ----------------------------------------------------------------------------------

    def start_deal(self) -> Deal:
        """Deal the next deal from the seed and tell the listeners; ``ValueError`` while a deal
        is being played or once the match is over."""
        deal = self.match.start_deal(self.hands(len(self.match.deals) + 1))
        self._tell(lambda seat, listener: listener.deal_started(self.match.observation(seat)))
        return deal

    def decide(self) -> Action:
        """The action of the computer player to move, timed on its seat's clock.

        ``PlayerFault`` when the player fails or chooses an illegal action; ``ValueError``
        when no one is to move, the seat to move is not a computer's, or its kept player is
        not made yet (``sit_down``).
        """
        deal = self._deal_in_play()
        seat = deal.current_player
        assert seat is not None
        occupant = self.seats[seat]
        if occupant is None:
            raise ValueError(f"{seat} is not a computer player's seat")
        observation = self.match.observation(seat)
        kept = self._kept.get(seat)
        if kept is None and occupant.seed is not None:
            raise ValueError(f"the player at {seat} is kept for the match: sit_down first")
        with self._blame(seat):
            start = time.perf_counter()
            if kept is None:
                action = decide_once(occupant.spec, self.decision_seed(), observation, self.sandbox)
            else:
                action = kept.choose(observation)
            elapsed = time.perf_counter() - start
            self.clocks[seat].add(elapsed)
            reason = deal.why_illegal(action)
        if reason is not None:
            raise PlayerFault(seat, occupant.spec, f"chose {action!s}, which is illegal: {reason}")
        if self.paced and not starts_program(occupant.spec):
            self.pace.hold(occupant.spec, deal.tricks_played, elapsed)
        return action

    def apply(self, action: int) -> None:
        """Play ``action`` for the seat to move (``IllegalActionError`` from the engine, the
        match unchanged), then tell the listeners if it ends the deal or the match."""
        self.match.apply(action)
        deal = self.match.deal
        assert deal is not None
        if deal.is_over():
            score = self.match.score
            self._tell(lambda s, listener: listener.deal_ended(self.match.observation(s), score))
            if self.match.is_over():
                self._end()

    # -- whole runs -----------------------------------------------------------------------------

    def run(self, max_deals: int | None = None) -> Seat | None:
        """Deal and let the computer players play until the match is over, ``max_deals`` deals
        are finished, or a seat the table does not ask is to move: that seat, else ``None``.

        A match stopped at ``max_deals`` is told to the listeners as ended, winner ``None``.
        """
        match = self.match
        while not match.is_over():
            if self.needs_deal:
                if max_deals is not None and len(match.deals) >= max_deals:
                    self._end()
                    return None
                self.start_deal()
            seat = self.to_move
            assert seat is not None
            if not self.is_computer(seat):
                return seat
            self.apply(self.decide())
        return None

    # -- inside ---------------------------------------------------------------------------------

    def _deal_in_play(self) -> Deal:
        deal = self.match.deal
        if deal is None or deal.is_over():
            raise ValueError("no deal is being played: no one is to move")
        return deal

    def _end(self) -> None:
        if not self._ended:
            self._ended = True
            score, outcome = self.match.score, self.match.outcome
            self._tell(lambda seat, listener: listener.match_ended(score, outcome))

    def _tell(self, call: Callable[[Seat, MatchListener], None]) -> None:
        for seat, player in self._kept.items():
            if isinstance(player, MatchListener):
                with self._blame(seat):
                    call(seat, player)

    @contextmanager
    def _blame(self, seat: Seat) -> Iterator[None]:
        """Turn any exception from the player at ``seat`` into a ``PlayerFault`` naming it."""
        try:
            yield
        except PlayerFault:
            raise
        except Exception as e:
            occupant = self.seats[seat]
            spec = "player" if occupant is None else occupant.spec
            raise PlayerFault(seat, spec, f"{type(e).__name__}: {e}") from e
