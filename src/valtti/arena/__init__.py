"""The arena: players compared in duplicate matches, on all cores or on a Ray cluster.

Duplicate: each numbered match is played twice with the same dealt hands and dealers, first
with the first player of the pairing as NS, then as EW, so each player holds in one match exactly
the cards the other held in the other, and the luck of the cards cancels. Both halves are played
at a ``Table`` (``valtti.table``) with the same seed, derived from (arena seed, match number),
which gives the first dealer and each deal's cards.

Players are made by ``make_player(spec, seed)`` inside the worker, fresh for every match and
every seat: nothing one of the project's players learnt in one half of a pair can help it in the
other. (A bot that runs as a program of its own could keep notes in a file: docs/PROTOCOL.md
says how to run a competition where none can.)

Whoever knows the arena's seed knows every card of the run, so a bot must learn nothing it could
work the seed out from: by default the seed is drawn afresh (``fresh_seed``) and told only with
the results; a program of its own is seeded from a secret of its match (``MatchJob.secret``),
never from the arena's seed; and a half's record is written only once the other half of its
pair is played.
"""

from valtti.arena.match import MAX_DEALS, MatchJob, MatchOutcome, Result, play_match
from valtti.arena.results import ArenaResult, PairingResult, PlayerFigures, summarize
from valtti.arena.run import BACKENDS, check_players, play_jobs, run_arena

__all__ = [
    "BACKENDS",
    "MAX_DEALS",
    "ArenaResult",
    "MatchJob",
    "MatchOutcome",
    "PairingResult",
    "PlayerFigures",
    "Result",
    "check_players",
    "play_jobs",
    "play_match",
    "run_arena",
    "summarize",
]
