"""What a load test (``valtti loadtest``, loadtest/run.py) measured: the latency of actions and
chat messages as percentiles, the errors and the CPU spent, as a report or as JSON."""

from __future__ import annotations

import os
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Latency:
    """Percentiles of a list of latencies, in milliseconds."""

    count: int
    p50: float | None
    p90: float | None
    p99: float | None
    max: float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "p50": _ms(self.p50),
            "p90": _ms(self.p90),
            "p99": _ms(self.p99),
            "max": _ms(self.max),
        }

    def text(self) -> str:
        if self.count == 0:
            return "no samples"
        return (
            f"p50 {self.p50:.1f}  p90 {self.p90:.1f}  p99 {self.p99:.1f}  "
            f"max {self.max:.1f} ms  ({self.count:,} samples)"
        )


def _many(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def latency(samples_ms: Sequence[float]) -> Latency:
    """p50, p90, p99 and max of ``samples_ms``, interpolated between the nearest ranks (the
    "inclusive" method of ``statistics.quantiles``, like numpy's default)."""
    if not samples_ms:
        return Latency(0, None, None, None, None)
    if len(samples_ms) == 1:
        (only,) = samples_ms
        return Latency(1, only, only, only, only)
    cuts = statistics.quantiles(samples_ms, n=100, method="inclusive")
    return Latency(len(samples_ms), cuts[49], cuts[89], cuts[98], max(samples_ms))


@dataclass(frozen=True)
class Chat:
    """The chat messages of a load test: how many were sent, the latency of their broadcasts
    at each seat, the codes of those the server refused, and how many had neither a broadcast
    nor a refusal by the end."""

    sent: int
    broadcast: Latency
    refused: list[str]
    unanswered: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "sent": self.sent,
            "refused": len(self.refused),
            "refusals": dict(Counter(self.refused)),
            "unanswered": self.unanswered,
            "latency_ms": self.broadcast.to_dict(),
        }

    def text(self) -> str:
        line = f"{self.sent:,} sent"
        if self.refused:
            codes = ", ".join(f"{n:,} {code}" for code, n in Counter(self.refused).most_common())
            line += f", refused: {codes}"
        if self.unanswered:
            line += f", {self.unanswered:,} unanswered"
        return line


@dataclass
class Figures:
    """The outcome of a load test."""

    url: str
    clients: int
    seconds: float
    actions: int
    tables: int
    matches_finished: int
    mover: Latency
    seats: Latency
    errors: list[str]
    generator_cpu_s: float
    server_cpu_s: float | None
    chat: Chat = field(default_factory=lambda: Chat(0, latency([]), [], 0))
    #: frames of a type this test does not know, by type
    other_frames: dict[str, int] = field(default_factory=dict)

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "clients": self.clients,
            "seconds": round(self.seconds, 3),
            "actions": self.actions,
            "actions_per_s": round(self.actions_per_s, 1),
            "tables": self.tables,
            "matches_finished": self.matches_finished,
            "latency_ms": {"mover": self.mover.to_dict(), "seats": self.seats.to_dict()},
            "chat": self.chat.to_dict(),
            "errors": len(self.errors),
            "error_messages": dict(Counter(self.errors)),
            "other_frames": self.other_frames,
            "cpu_s": {
                "generator": round(self.generator_cpu_s, 2),
                "server": None if self.server_cpu_s is None else round(self.server_cpu_s, 2),
            },
        }

    def report(self) -> str:
        cpu = f"generator {self.generator_cpu_s:.1f} s"
        if self.server_cpu_s is not None:
            cpu += f", server {self.server_cpu_s:.1f} s"
        lines = [
            f"server    {self.url}",
            f"clients   {self.clients} ({_many(self.tables, 'table', 'tables')}, "
            f"{_many(self.matches_finished, 'match', 'matches')} finished)",
            f"actions   {self.actions:,} in {self.seconds:.1f} s: "
            f"{self.actions_per_s:,.0f} actions/s",
            "latency   action sent -> the first state that shows it",
            f"  mover   {self.mover.text()}",
            f"  seats   {self.seats.text()}",
            f"chat      {self.chat.text()}",
            f"  seats   {self.chat.broadcast.text()} (chat sent -> its broadcast)",
            f"cpu       {cpu} (of {self.seconds:.1f} s on {os.cpu_count()} cores)",
        ]
        if self.other_frames:
            other = ", ".join(f"{n:,} {kind!r}" for kind, n in self.other_frames.items())
            lines.append(f"other     frames of types not known here: {other}")
        if not self.errors:
            lines.append("errors    none")
        else:
            lines.append(f"errors    {len(self.errors)}")
            for message, count in Counter(self.errors).most_common():
                lines.append(f"  {count:>6} x {message}")
        return "\n".join(lines)
