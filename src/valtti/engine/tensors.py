"""A deal as fixed-size float32 tensors for learning programs (written in C, _tensors.pxi).

Three tensors, each a prefix of the next: ``observation_tensor`` (what one seat may know now),
``information_state_tensor`` (that, with perfect recall of the deal so far) and
``state_tensor`` (everything, every hand included: for centralised critics; it rebuilds the deal
with ``deal_from_state_tensor``); ``action_mask`` writes the legal actions as 0/1.
Each is seat-relative and is written into a caller's float32
buffer (``out=``) without allocating, or into a new numpy array. docs/TENSORS.md is
``markdown()``.
"""

from __future__ import annotations

from valtti.engine._deal import (
    INFORMATION_STATE_LAYOUT,
    INFORMATION_STATE_SIZE,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    STATE_LAYOUT,
    STATE_SIZE,
    action_mask,
    deal_from_state_tensor,
    information_state_tensor,
    observation_tensor,
    state_tensor,
)

Layout = tuple[tuple[str, int, str], ...]

__all__ = [
    "INFORMATION_STATE_LAYOUT",
    "INFORMATION_STATE_SIZE",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "STATE_LAYOUT",
    "STATE_SIZE",
    "action_mask",
    "deal_from_state_tensor",
    "information_state_tensor",
    "markdown",
    "observation_tensor",
    "offsets",
    "state_tensor",
]


def offsets(layout: Layout) -> dict[str, slice]:
    """Each section's slice of a tensor with this layout."""
    out: dict[str, slice] = {}
    at = 0
    for name, size, _ in layout:
        out[name] = slice(at, at + size)
        at += size
    return out


def _table(layout: Layout, start: int) -> list[str]:
    rows = ["| indices | section | size | meaning |", "|---|---|---|---|"]
    for name, size, meaning in layout[start:]:
        where = offsets(layout)[name]
        rows.append(f"| {where.start}–{where.stop - 1} | `{name}` | {size} | {meaning} |")
    return rows


_INTRO = """\
# Tensors

`valtti.engine.tensors` encodes a deal as fixed-size float32 vectors, written in C into a
buffer the caller passes (`out=`, e.g. a numpy array or one row of a batch: nothing is
allocated then) or into a new numpy array:

```python
import random, numpy
from valtti.engine import Deal, Seat
from valtti.engine.tensors import observation_tensor, OBSERVATION_SIZE
deal = Deal.shuffled(random.Random(1), dealer=Seat.W)
seat, score = Seat.N, (3, 5)   # the match score before the deal: NS, EW
buf = numpy.zeros(OBSERVATION_SIZE, numpy.float32)
observation_tensor(deal, seat, out=buf, score=score)   # returns buf, written in place
```

Seats are **seat-relative**: seat block 0 is the seat the tensor is for, 1 the seat to its left
(who plays after it), 2 its partner, 3 its right. Teams are (own, other). Suits keep the order
S, H, D, C; a card block of 36 is indexed by card number (`suit * 9 + rank`, ranks 6 7 8 9 J Q K
10 A from 0). Counts are scaled to at most 1 as stated. Everything not said to be set is 0.

Each tensor is a prefix of the next. The observation and the information state depend only on
what the seat may know (RULES.md 7): while a partner chooses among several marriages (phase
answer; with `answer_steps`, as in the research environments, after every "yes" to ask-whole,
one marriage or several), every other seat's tensors are those of the deal before the ask-whole
(7.2), and which answer action a partner took is never encoded, only the public event. The
full-state tensor is never masked; `deal_from_state_tensor` rebuilds the deal from it (hands as
dealt, dealer, forehand, variant, `answer_steps`, every action).

In the research environments ([RESEARCH.md](RESEARCH.md#environments)) `observation_type`
chooses what an agent is given: `"observation"` (the default), `"information_state"` or `"both"`
(Gymnasium: a `Dict` of the two; PettingZoo: `"observation"` holds the information state, or
with `"both"` the observation, beside `"information_state"` and `"action_mask"`). The full
state is for a centralised critic, never an agent's input: Gymnasium's `full_state=True` puts it,
relative to the learner's seat, in `info["state"]` (and `env.unwrapped.state()`), PettingZoo's
`env.state()` relative to N, OpenSpiel's state holds the deal itself.

The Gymnasium vector form with `batched=True` (RESEARCH.md) writes the observation tensors of
all its tables in C into one float32 array of shape (tables, 499), row i table i's, and their
legal actions into one array of (tables, 49), both allocated once; `step` returns a copy of the
first and `action_masks()` one of the second, as bools.

This file is `valtti.engine.tensors.markdown()`; a test keeps the two equal.
"""


def markdown() -> str:
    """docs/TENSORS.md: the layout of the three tensors."""
    lines = [_INTRO]
    lines.append(f"## Observation tensor ({OBSERVATION_SIZE} values): `observation_tensor`\n")
    lines += _table(OBSERVATION_LAYOUT, 0)
    lines.append("")
    lines.append(
        f"## Information-state tensor ({INFORMATION_STATE_SIZE} values): "
        "`information_state_tensor`\n"
    )
    lines.append(f"The observation tensor (0–{OBSERVATION_SIZE - 1}), then:\n")
    lines += _table(INFORMATION_STATE_LAYOUT, len(OBSERVATION_LAYOUT))
    lines.append("")
    lines.append(f"## Full-state tensor ({STATE_SIZE} values): `state_tensor`\n")
    lines.append(
        f"The information-state tensor (0–{INFORMATION_STATE_SIZE - 1}, not masked), then:\n"
    )
    lines += _table(STATE_LAYOUT, len(INFORMATION_STATE_LAYOUT))
    return "\n".join(lines) + "\n"
