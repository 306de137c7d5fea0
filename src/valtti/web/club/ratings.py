"""Members' ratings (docs/HOSTING.md, "Ratings"): OpenSkill's Plackett–Luce team model over
finished matches at tables of people and over club nights' results.

A new member starts at the model's prior (mu 25, sigma 25/3). A computer player is an anchor:
it plays at a fixed rating, from its strength on docs/LEADERBOARD.md (heuristic is mu 25),
and is never changed; a guest (a person who is no member) plays at the prior and is not
rated either. The rating shown is the conservative ``mu - 3 sigma`` (OpenSkill's ordinal).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from openskill.models import PlackettLuce

from valtti.players.shipped import strengths
from valtti.web.db.club import RatingChange

MODEL: Final = PlackettLuce()
#: A new member's rating (mu, sigma): the model's prior.
NEW_RATING: Final = (float(MODEL.mu), float(MODEL.sigma))
#: Elo per game point a deal over the reference, from the one pair measured both ways
#: (docs/MEASUREMENTS.md, heuristic and the search levels): search:hard, +0.35 game points a
#: deal over heuristic, won 72.5 % of 200 duplicate matches against it.
ELO_PER_POINT: Final = 400 * math.log10(0.725 / 0.275) / 0.35
#: An anchor's sigma: sure of itself, so that it moves the members, not they it.
ANCHOR_SIGMA: Final = 1.0
#: mu per Elo point: Plackett–Luce's chance of winning is logistic in the mu difference over
#: c = sqrt(2 beta^2 + sigma^2 + sigma^2), Elo's in d ln 10 / 400.
MU_PER_ELO: Final = math.log(10) / 400 * math.sqrt(2 * MODEL.beta**2 + 2 * ANCHOR_SIGMA**2)


def anchor(spec: str) -> tuple[float, float]:
    """The fixed rating of the computer player ``spec``: its strength on the leaderboard
    (``players.shipped.strengths``: game points a deal over the club player) as Elo; one the
    leaderboard has not measured plays as the club player."""
    strength = strengths().players.get(spec)
    elo = 0.0 if strength is None else strength.points * ELO_PER_POINT
    return NEW_RATING[0] + elo * MU_PER_ELO, ANCHOR_SIGMA


def shown(mu: float, sigma: float) -> float:
    """The rating the pages show: ``mu - 3 sigma``, to one decimal."""
    return round(mu - 3 * sigma, 1)


@dataclass(frozen=True, slots=True)
class Rated:
    """One player of a rated result: a member (``member_id``) whose rating changes, or an
    anchor or guest (``None``) at a fixed one."""

    member_id: int | None
    mu: float
    sigma: float


def rate(
    teams: Sequence[Sequence[Rated]], ranks: Sequence[float], source: str, at: datetime
) -> list[RatingChange]:
    """The members' rating changes from one result: ``teams`` placed by ``ranks`` (1 is
    first; equal ranks are a tie). Nothing when no member played or only one team is left."""
    if len(teams) < 2 or not any(p.member_id is not None for team in teams for p in team):
        return []
    ratings = [[MODEL.rating(mu=p.mu, sigma=p.sigma) for p in team] for team in teams]
    after = MODEL.rate(ratings, ranks=list(ranks))
    changes = []
    for team, new in zip(teams, after, strict=True):
        for player, rating in zip(team, new, strict=True):
            if player.member_id is not None:
                changes.append(
                    RatingChange(
                        player.member_id,
                        at,
                        source,
                        player.mu,
                        player.sigma,
                        float(rating.mu),
                        float(rating.sigma),
                    )
                )
    return changes
