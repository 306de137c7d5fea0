"""Computer players at the web tables: each decision is made in a worker process.

The server's event loop only sends a seat's observation out and awaits the action, so a search
player thinking for a second blocks no table. A decision is reproducible: the player is made
afresh from its name and the seed the table gives for that seat and that point of the match.
Work that must never slow play (a finished match's review) runs apart from the workers, in a
process of its own at the lowest CPU priority (``Bots.idle``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from typing import Any, Final, TypeVar

import psutil

from valtti.coach.explain import explain
from valtti.coach.review import review
from valtti.engine import Action, Match, Observation, Seat
from valtti.players.shipped import OFFERED
from valtti.table import decide_once

T = TypeVar("T")
#: A hint: each legal action's ``Explanation.to_dict()``, best first.
#: A hint's ``Hint.to_dict()``: ``moves`` and what they rest on.
Moves = dict[str, Any]

#: The computer players a table may seat, as the lobby offers them (``players.shipped``). A
#: request naming one is from others, so it is also checked as such
#: (``registry.untrusted_spec``: never ``external:``, which would run a program here).
PLAYERS: Final = OFFERED

#: The level of the PIMC player whose view a hint gives, and at which a
#: finished match's review values each decision.
HINT_LEVEL: Final = "hard"
#: Hints made at once on the whole server: a computer player's decision never waits in the
#: workers behind more than this many.
HINT_SLOTS: Final = 1

#: How often a worker checks that the server is still there.
WATCH_SECONDS: Final = 1.0

log = logging.getLogger(__name__)


def default_workers() -> int:
    """One worker per core but one (the event loop's), at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def _watch(server: int) -> None:
    """In each worker: exit once the server process is gone, even killed with SIGKILL.

    A worker of a killed pool would otherwise wait for work forever (it holds its queue's
    writing end itself), and keep the fork server alive with it.
    """

    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            try:
                os.kill(server, 0)
            except ProcessLookupError:
                os._exit(0)

    threading.Thread(target=watch, name="valtti-watch-server", daemon=True).start()


def _lowest_priority() -> None:
    """In an idle process: the CPU only when nothing else wants it (Linux's ``SCHED_IDLE``:
    a computer player's decision takes a core from it at once), and the lowest priority
    besides (niceness 19; Windows' idle priority class). Both hold for the calling thread and
    every thread it starts later (a solver's, BLAS's)."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    lowest = psutil.IDLE_PRIORITY_CLASS if sys.platform == "win32" else 19
    with contextlib.suppress(OSError, psutil.Error):
        psutil.Process().nice(lowest)


def _idle_main(results: Connection, server: int, work: Callable[..., Any], args: Any) -> None:
    """An idle process: ``work(*args)`` at the lowest priority, sent back as ``(True, value)``,
    or ``(False, what failed)``."""
    _lowest_priority()
    _watch(server)
    try:
        outcome: tuple[bool, Any] = (True, work(*args))
    except Exception as e:
        outcome = (False, repr(e))
    results.send(outcome)
    results.close()


def _outcome(results: Connection) -> tuple[bool, Any]:
    """What an idle process sent back (a process that ended without a word failed), then the
    pipe closed: here, in the thread that waits on it, which outlives a cancelled wait."""
    try:
        outcome: tuple[bool, Any] = results.recv()
    except (EOFError, OSError):
        outcome = (False, "the process ended without a result")
    finally:
        results.close()
    return outcome


def _warm() -> None:
    """Nothing: submitted once so that a worker has started and imported the players."""


def hint_moves(observation: Observation) -> Moves:
    """The hint for the seat to move in ``observation`` (docs/WEB.md, Hints):
    ``coach.reasons.Hint.to_dict()``, each legal action best first and the deals they rest on,
    from that seat's observation alone (seeded from the position itself, so the same position
    gives the same hint)."""
    return explain(observation, HINT_LEVEL).to_dict()


def review_json(match: Match, seats: list[Seat] | None) -> str:
    """The review of ``seats`` (every seat: ``None``) in the finished ``match`` as JSON
    (docs/REVIEW.md), at the hint's level: here, so that a worker needs none of the server."""
    return json.dumps(review(match, seats, HINT_LEVEL).to_dict(), ensure_ascii=False)


class Bots:
    """A pool of worker processes that make the computer players' decisions, and the idle
    process for work that must not slow them (``idle``)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        methods = multiprocessing.get_all_start_methods()
        # Never fork: the server's threads (the database's, the event loop's) must not be copied.
        if "forkserver" in methods:
            context = multiprocessing.get_context("forkserver")
            # Each worker is forked from a server that has imported the players already.
            context.set_forkserver_preload(
                [
                    "valtti.web.referee.bots",
                    "valtti.table.driver",
                    "valtti.players.heuristic",
                    "valtti.players.search",
                    "valtti.players.pimc",
                    "valtti.coach.explain",
                    "valtti.coach.review",
                ]
            )
            self._context: ForkServerContext | SpawnContext = context
        else:
            self._context = multiprocessing.get_context("spawn")
        self._pool = self._new_pool()
        self._hint_slots = asyncio.Semaphore(HINT_SLOTS)
        self._idle_turn = asyncio.Lock()
        self._idle: multiprocessing.process.BaseProcess | None = None  #: the idle process
        self._closed = False

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers, mp_context=self._context, initializer=_watch, initargs=(os.getpid(),)
        )

    async def warm_up(self) -> None:
        """Start a worker now rather than at the first computer move."""
        await asyncio.get_running_loop().run_in_executor(self._pool, _warm)

    async def decide(self, player: str, seed: int, observation: Observation) -> Action:
        """The action of ``player`` seeded with ``seed`` (the seat driver's ``decide_once``),
        computed in a worker."""
        return Action(await self._run(decide_once, player, seed, observation))

    async def hint(self, observation: Observation) -> Moves:
        """``hint_moves(observation)``, computed in a worker once one of HINT_SLOTS is
        free. Cancelled while it waits, it is never begun; cancelled once begun, it keeps its
        slot until the worker is done (a worker cannot be interrupted)."""
        async with self._hint_slots:
            job = asyncio.ensure_future(self._run(hint_moves, observation))
            try:
                return await asyncio.shield(job)
            except asyncio.CancelledError:
                await asyncio.wait([job])
                if not job.cancelled():
                    job.exception()  # retrieved: nobody waits for it any more
                raise

    async def idle(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` (a finished match's review, referee/reviews.py) in a process of its own
        at the lowest CPU priority (``SCHED_IDLE``), never in a computer player's worker: it
        takes only the CPU that play leaves. One at a time; the process is ended by ``close``
        or when this is cancelled. ``RuntimeError`` when the work failed or its process ended."""
        async with self._idle_turn:
            if self._closed:
                raise RuntimeError("the computer players are closed")
            results, sending = self._context.Pipe(duplex=False)
            process = self._context.Process(
                target=_idle_main,
                args=(sending, os.getpid(), work, args),
                name="valtti-idle",
                daemon=True,
            )
            process.start()
            sending.close()
            self._idle = process
            try:
                done, value = await asyncio.to_thread(_outcome, results)
            finally:
                self._end_idle()
            if not done:
                raise RuntimeError(f"{work.__name__} failed: {value}")
            result: T = value
            return result

    def _end_idle(self) -> None:
        """End the idle process, if one runs (its result, if any, is not waited for)."""
        process, self._idle = self._idle, None
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(WATCH_SECONDS)

    async def _run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a worker; a broken pool is replaced once."""
        loop = asyncio.get_running_loop()
        pool = self._pool
        try:
            return await loop.run_in_executor(pool, work, *args)
        except BrokenProcessPool:
            if self._pool is pool:
                log.warning("a computer player's worker died; starting new workers")
                pool.shutdown(wait=False, cancel_futures=True)
                self._pool = self._new_pool()
            return await loop.run_in_executor(self._pool, work, *args)

    def close(self) -> None:
        self._closed = True
        self._end_idle()
        self._pool.shutdown(wait=True, cancel_futures=True)
