"""External bots: any program that speaks the JSON-lines protocol of docs/PROTOCOL.md.

The host (this module) writes one JSON object per line to the bot's standard input and reads
the bot's answers, one JSON object per line, from its standard output; the bot's standard error
is free for its own logging. Anything the bot does wrong — it cannot be started, answers the
handshake badly, answers a decision with something that is not a legal action, takes longer than
the time limit, writes a line over ``LINE_LIMIT`` bytes, or exits — raises ``BotError`` naming
the bot, its seat and the fault, after the bot has been told (``{"type": "error"}``) and
stopped. The program runs in a sandbox (``players.sandbox``, by default ``bwrap``), and what it
writes on its standard error is kept for the host's log (``error_log``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Sequence
from typing import IO, Any, Final, NoReturn

from valtti.engine import Action, Observation, Seat, Team, Variant
from valtti.engine.match import Outcome
from valtti.players.base import Player
from valtti.players.sandbox import SANDBOX, Sandbox, SandboxError

PROTOCOL_VERSION: Final = 1
#: Seconds a bot has to answer one decision request.
DECISION_TIMEOUT: Final = 10.0
#: Seconds a bot has to answer the handshake: an interpreter or a VM may be slow to start.
START_TIMEOUT: Final = 30.0
#: Seconds a bot has to exit after ``quit`` before it is killed.
QUIT_GRACE: Final = 2.0
#: Lines of the bot's standard error kept to explain a fault.
STDERR_LINES: Final = 5
#: Characters kept of each of those lines; the rest of a longer line is read and dropped.
STDERR_LINE_CHARS: Final = 200
#: Lines of the bot's standard error kept for the host's log in one match; later ones are
#: counted, not kept.
LOG_LINES: Final = 1000
#: Bytes a line of the bot's standard output may have, its newline included: a longer line is a
#: fault, found without reading the rest of it into memory.
LINE_LIMIT: Final = 64 * 1024


class BotError(RuntimeError):
    """The bot broke the protocol; the message names the bot, its seat and what went wrong."""


class _Overlong:
    """In the queue of the bot's lines: a line over ``LINE_LIMIT`` bytes (reading stopped)."""


#: What the reader of the bot's output queues: a line, an over-long line, or the end (``None``).
_Line = str | _Overlong | None


def bot_command(text: str) -> list[str]:
    """The command line in ``external:TEXT``, split as a POSIX shell would.

    A first word ending in ``.py`` is run with the current Python, so ``external:bot.py`` works
    without the script being executable. ``ValueError`` for an empty or unbalanced command.
    """
    try:
        words = shlex.split(text)
    except ValueError as e:
        raise ValueError(f"cannot read the bot command {text!r}: {e}") from None
    if not words:
        raise ValueError("external needs the bot's command: external:path/to/bot.py")
    if words[0].endswith(".py"):
        words.insert(0, sys.executable)
    return words


class ExternalPlayer(Player):
    """A player whose decisions come from another program (docs/PROTOCOL.md).

    The program is started and greeted here (``BotError`` if it does not answer the handshake);
    ``close()`` asks it to quit and kills it if it does not. A host that calls the
    ``MatchListener`` hooks tells the bot about matches and deals as they happen; with a host that
    only calls ``choose`` the bot is told of the match and of each deal before its first
    decision in them.
    """

    def __init__(
        self,
        command: Sequence[str],
        seed: int | None = None,
        *,
        timeout: float = DECISION_TIMEOUT,
        start_timeout: float = START_TIMEOUT,
        sandbox: Sandbox = SANDBOX,
    ) -> None:
        self.command = tuple(command)
        self.seed = seed
        self.timeout = timeout
        self.sandbox = sandbox
        self.name = "external"
        self._label = f"bot {shlex.join(self.command)!r}"
        self._seat: Seat | None = None
        self._deal_number = 0
        self._in_deal = False
        self._seen = 0  #: public actions at this seat's latest decision: fewer means a new deal
        self._lines: queue.Queue[_Line] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._log: list[str] = []
        self._unlogged = 0
        try:
            launch = sandbox.launch(self.command)
            self._process = subprocess.Popen(
                launch.args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=launch.cwd,
                env=launch.env,
                # Its own process group, so that ``_stop`` also ends the children it forked.
                start_new_session=True,
            )
        except SandboxError as e:
            raise BotError(f"{self._label}: cannot be started: {e}") from None
        except OSError as e:
            raise BotError(f"{self._label}: cannot be started: {e.strerror or e}") from None
        assert self._process.stdout is not None and self._process.stderr is not None
        self._streams = (self._process.stdout, self._process.stderr)
        self._readers = [
            _pump_lines(self._process.stdout, self._lines.put),
            _pump_errors(self._process.stderr, self._hear_error),
        ]
        try:
            self._shake_hands(start_timeout)
        except BaseException as e:
            # Ctrl-C while the bot starts: no caller holds this player to close it, and the
            # bot, in a session of its own, gets no signal from the terminal.
            if not isinstance(e, BotError):
                self._stop(0.0)
            raise

    def _shake_hands(self, start_timeout: float) -> None:
        self._send({"type": "hello", "protocol": PROTOCOL_VERSION})
        reply = self._receive(start_timeout, "the handshake")
        name = reply.get("name")
        if reply.get("type") != "hello" or not isinstance(name, str) or not name.strip():
            self._fault(
                f"answered the handshake with {_short(reply)}, "
                f'not {{"type": "hello", "protocol": {PROTOCOL_VERSION}, "name": NAME}}'
            )
        if reply.get("protocol") != PROTOCOL_VERSION:
            self._fault(
                f"speaks protocol {reply.get('protocol')!r}; this host speaks {PROTOCOL_VERSION}"
            )
        self.name = name.strip()
        self._label = f"bot {self.name!r} ({shlex.join(self.command)})"

    # The MatchListener hooks.

    def match_started(self, variant: Variant, seat: Seat) -> None:
        self._seat = seat
        self._deal_number = 0
        self._in_deal = False
        self._send(
            {
                "type": "match",
                "seat": str(seat),
                "variant": dataclasses.asdict(variant),
                "seed": self.seed,
                "timeout": self.timeout,
            }
        )

    def deal_started(self, observation: Observation) -> None:
        # The match's own count where the observation has it (a match resumed or taken back).
        self._deal_number = observation.deal_number or self._deal_number + 1
        self._in_deal = True
        self._seen = len(observation.history)
        self._send(
            {"type": "deal", "number": self._deal_number, "observation": observation.to_dict()}
        )

    def deal_ended(self, observation: Observation, score: tuple[int, int]) -> None:
        self._in_deal = False
        self._send(
            {
                "type": "deal_end",
                "number": self._deal_number,
                "observation": observation.to_dict(),
                "score": Team.named(score),
            }
        )

    def match_ended(self, score: tuple[int, int], winner: Outcome) -> None:
        self._send({"type": "match_end", "score": Team.named(score), "winner": winner})
        self._seat = None

    def choose(self, observation: Observation) -> Action:
        if self._seat is None:
            self.match_started(observation.variant, observation.seat)
        # Between two decisions of one seat the public history only grows; it is shorter at
        # the first decision of a new deal (at most three plays then, over thirty before).
        if not self._in_deal or len(observation.history) < self._seen:
            self.deal_started(observation)
        self._seen = len(observation.history)
        legal = [str(a) for a in observation.legal_actions]
        self._refuse_extra_lines()
        self._send({"type": "act", "observation": observation.to_dict(), "legal": legal})
        reply = self._receive(self.timeout, "a decision request")
        token = reply.get("action")
        if not isinstance(token, str):
            self._fault(
                f'answered a decision request with {_short(reply)}, not {{"action": TOKEN}}'
            )
        try:
            action = Action.parse(token)
        except ValueError:
            self._fault(
                f"answered {_short(token)}, which is not an action token (a card such as AS or "
                "10d, 'declare S', 'ask-whole', 'ask-half S' or 'answer S')"
            )
        if action not in observation.legal_actions:
            self._fault(f"chose {_short(token)}, which is not legal here; legal: {' '.join(legal)}")
        return action

    def close(self) -> None:
        """Ask the bot to quit; kill it if it has not exited within ``QUIT_GRACE`` seconds."""
        if self._process.poll() is None:
            self._write({"type": "quit"})
        self._stop(QUIT_GRACE)

    def error_log(self) -> tuple[str, ...]:
        """What the bot wrote on its standard error so far, a line each (cut and escaped as in
        a fault's message; after ``LOG_LINES`` lines, a line saying how many more there were).
        Complete once the bot is closed."""
        more = (f"[{self._unlogged} more lines not kept]",) if self._unlogged else ()
        return (*self._log, *more)

    def _hear_error(self, line: str) -> None:
        self._stderr.append(line)
        if len(self._log) < LOG_LINES:
            self._log.append(line)
        else:
            self._unlogged += 1

    # The pipes.

    def _send(self, message: dict[str, Any]) -> None:
        if not self._write(message):
            status = self._exit_status()
            self._fault(
                "closed its standard input"
                if status is None
                else f"{status} before reading the host's {message['type']!r} message"
            )

    def _write(self, message: dict[str, Any]) -> bool:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            stdin.flush()
        except (OSError, ValueError):  # a broken pipe, or the pipe already closed
            return False
        return True

    def _receive(self, timeout: float, awaited: str) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                # A bot that exited while a child of it keeps its output open sends no end.
                code = self._process.poll()
                if code is not None:
                    exited = self.sandbox.describe_exit(code)
                    self._fault(f"{exited} instead of answering {awaited}")
                self._fault(f"did not answer {awaited} within {timeout:g} s")
            if line is None:
                status = self._exit_status()
                self._fault(f"{status or 'closed its output'} instead of answering {awaited}")
            if isinstance(line, _Overlong):
                self._fault(f"answered {awaited} with a line over {LINE_LIMIT} bytes")
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except (ValueError, RecursionError):  # not JSON, a number too long, too deep
                self._fault(f"answered {awaited} with a line that is not JSON: {_short(line)}")
            if not isinstance(message, dict):
                self._fault(f"answered {awaited} with {_short(message)}, not a JSON object")
            return message

    def _refuse_extra_lines(self) -> None:
        """A fault if the bot's output holds a line no request asked for (one ``act``, one line).

        Only lines already read are seen: an extra line written later is taken as the answer
        to the next request.
        """
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)  # the end stays the last thing read
                return
            if isinstance(line, _Overlong):
                self._fault(f"wrote a line over {LINE_LIMIT} bytes that no request asked for")
            if line.strip():
                self._fault(f"wrote a line no request asked for: {_short(line)}")

    def _fault(self, problem: str) -> NoReturn:
        where = self._label if self._seat is None else f"{self._label} at {self._seat}"
        message = f"{where}: {problem}"
        self._write({"type": "error", "message": message})
        self._stop(0.0)
        if self._stderr:
            message += "; its last error output: " + " | ".join(self._stderr)
        if any(line.startswith("bwrap: ") for line in self._stderr):
            message += " (the sandbox could not be set up: docs/PROTOCOL.md, The sandbox)"
        raise BotError(message)

    def _stop(self, grace: float) -> None:
        """Close the bot's input, wait ``grace`` seconds for it to exit, then kill it."""
        if self._process.stdin is not None:
            # OSError: the bot has gone and the last write could not be flushed; nothing to do.
            with contextlib.suppress(OSError):
                self._process.stdin.close()
        try:
            self._process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self._kill_group()
            self._process.kill()
            self._process.wait()
        self._kill_group()  # children the bot forked, which may hold its pipes open
        for reader, stream in zip(self._readers, self._streams, strict=True):
            reader.join(timeout=1.0)
            # A reader still blocked holds the stream's lock (a child of the bot keeps the pipe
            # open): closing would wait for it, so that stream is left to the garbage collector.
            if not reader.is_alive():
                stream.close()

    def _kill_group(self) -> None:
        """Kill what is left of the bot's process group (it leads its own session)."""
        if hasattr(os, "killpg"):
            # ProcessLookupError: nothing is left; PermissionError: the group is gone and its
            # number is another's (macOS reports that for a group of zombies).
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._process.pid, signal.SIGKILL)

    def _exit_status(self) -> str | None:
        """``"exited with status N"`` once the bot has exited (within 1 s), with the signal
        that ended it and the limit it broke if any, else ``None``."""
        try:
            status = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return None
        self._readers[1].join(timeout=1.0)  # so that its last error output can be shown
        return self.sandbox.describe_exit(status)


def _pump_lines(stream: IO[bytes], take: Callable[[_Line], None]) -> threading.Thread:
    """Read the bot's output line by line into ``take`` on a daemon thread; ``None`` at the
    end, or an ``_Overlong`` (and no more) at a line over ``LINE_LIMIT`` bytes."""

    def run() -> None:
        try:
            while line := stream.readline(LINE_LIMIT + 1):
                if len(line) > LINE_LIMIT:
                    take(_Overlong())
                    return
                take(line.decode("utf-8", errors="replace"))
        except (OSError, ValueError):
            pass  # the host closed the stream after stopping the bot
        finally:
            take(None)

    return _start(run)


def _pump_errors(stream: IO[bytes], take: Callable[[str], None]) -> threading.Thread:
    """Read the bot's standard error into ``take`` on a daemon thread, each line cut to
    ``STDERR_LINE_CHARS`` characters; the rest of a long line is read in pieces and dropped."""

    def run() -> None:
        limit = STDERR_LINE_CHARS * 4  # bytes enough for that many characters of UTF-8
        try:
            while line := stream.readline(limit):
                text = line.decode("utf-8", errors="replace").rstrip()
                cut = len(line) == limit and not line.endswith(b"\n")
                if cut:  # drop the rest of the line, a piece at a time
                    while (rest := stream.readline(limit)) and not rest.endswith(b"\n"):
                        pass
                if cut or len(text) > STDERR_LINE_CHARS:
                    text = text[:STDERR_LINE_CHARS] + "…"
                take(_visible(text))
        except (OSError, ValueError):
            pass  # the host closed the stream after stopping the bot

    return _start(run)


def _visible(text: str) -> str:
    """``text`` with its control characters written as escapes (``\\x1b``): a bot's output is
    shown on terminals, where an escape sequence would act (clear the screen, retitle it)."""
    return "".join(
        c.encode("unicode_escape").decode("ascii") if unicodedata.category(c)[0] == "C" else c
        for c in text
    )


def _start(run: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _short(value: object, limit: int = 120) -> str:
    text = value.strip() if isinstance(value, str) else json.dumps(value)
    return repr(text if len(text) <= limit else text[:limit] + "…")
