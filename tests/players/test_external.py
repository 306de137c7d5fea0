"""External bots (docs/PROTOCOL.md): the example bot, the messages in order, every kind of fault."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from valtti.arena import MatchJob, play_match, run_arena
from valtti.engine import Deal, Seat, Variant
from valtti.players import make_player
from valtti.players.external import (
    LINE_LIMIT,
    STDERR_LINE_CHARS,
    BotError,
    ExternalPlayer,
    bot_command,
)
from valtti.players.sandbox import NO_SANDBOX, SANDBOX, Sandbox

#: Both ways a bot runs: the protocol is the same in the sandbox and out of it.
BOTH = pytest.mark.parametrize("sandbox", [SANDBOX, NO_SANDBOX], ids=["bwrap", "none"])

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "external_bot.py"

#: A bot in a few lines: greets as "faulty" and answers each ``act`` with ``{act}``.
BOT = """\
import json, sys, time
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        send({{"type": "hello", "protocol": {protocol}, "name": "faulty"}})
    elif m["type"] == "act":
        {act}
    elif m["type"] == "quit":
        break
"""


def write_bot(tmp_path: Path, act: str, protocol: int = 1) -> Path:
    path = tmp_path / "bot.py"
    path.write_text(BOT.format(act=act, protocol=protocol))
    return path


def forehand_deal() -> Deal:
    return Deal.shuffled(random.Random(1), Seat.W)  # N leads trick 1


def test_example_bot_plays_legal_actions_for_a_whole_deal() -> None:
    bot = ExternalPlayer(bot_command(str(EXAMPLE)), seed=3)
    others = make_player("random", 1)
    deal = forehand_deal()
    try:
        assert bot.name == "example"
        while (seat := deal.current_player) is not None:
            player = bot if seat == Seat.N else others
            deal.apply(player.choose(deal.observation(seat)))  # apply raises if illegal
    finally:
        bot.close()
    assert deal.is_over()


def test_example_bot_plays_a_whole_arena_match() -> None:
    job = MatchJob(0, f"external:{EXAMPLE}", "random", 0, False, 4, Variant(), 200, False)
    outcome = play_match(job)
    assert outcome.failure is None
    assert outcome.deals > 0 and outcome.decisions[0] > 0


RECORDER = """\
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write(line)
    log.flush()
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "recorder"}), flush=True)
    elif m["type"] == "act":
        print(json.dumps({"action": m["legal"][-1]}), flush=True)
    elif m["type"] == "quit":
        break
"""


def transcript(tmp_path: Path) -> tuple[str, Path]:
    (tmp_path / "recorder.py").write_text(RECORDER)
    log = tmp_path / "log with space.jsonl"
    return f"external:{tmp_path / 'recorder.py'} '{log}'", log


def test_the_host_sends_the_documented_messages_in_order(tmp_path: Path) -> None:
    spec, log = transcript(tmp_path)
    # Out of the sandbox, where the recorder may write its transcript; the recorder sits EW.
    job = MatchJob(0, spec, "random", 0, True, 9, Variant(), 2, False, NO_SANDBOX)
    outcome = play_match(job)
    assert outcome.failure is None and outcome.deals == 2
    messages = [json.loads(line) for line in log.read_text().splitlines()]
    # Two seats: E and W each have their own process, each logging to the same file.
    types = [m["type"] for m in messages]
    assert types.count("hello") == types.count("match") == types.count("quit") == 2
    assert types.count("deal") == types.count("deal_end") == 4
    assert types.count("match_end") == 2
    assert {m["seat"] for m in messages if m["type"] == "match"} == {"E", "W"}
    match = next(m for m in messages if m["type"] == "match")
    assert match["variant"]["target"] == 10 and match["timeout"] > 0
    acts = [m for m in messages if m["type"] == "act"]
    assert acts and all(m["legal"] == m["observation"]["legal"] != [] for m in acts)
    assert all(m["observation"]["seat"] in "EW" for m in acts)
    ends = [m for m in messages if m["type"] == "deal_end"]
    assert all(set(m["score"]) == {"NS", "EW"} for m in ends)
    assert {m["winner"] for m in messages if m["type"] == "match_end"} == {None}  # stopped at 2


def test_a_host_that_only_asks_for_decisions_still_announces_match_and_deals(
    tmp_path: Path,
) -> None:
    spec, log = transcript(tmp_path)
    bot = make_player(spec, 1, sandbox=NO_SANDBOX)
    rng = random.Random(2)
    try:
        for dealer in (Seat.W, Seat.N):  # two deals in a row, the bot at N in both
            deal = Deal.shuffled(rng, dealer)
            while (seat := deal.current_player) is not None:
                obs = deal.observation(seat)
                deal.apply(bot.choose(obs) if seat == Seat.N else obs.legal_actions[0])
    finally:
        bot.close()
    types = [json.loads(line)["type"] for line in log.read_text().splitlines()]
    assert [t for t in types if t != "act"] == ["hello", "match", "deal", "deal", "quit"]
    assert types.count("act") >= 18


@pytest.mark.parametrize(
    ("act", "expected"),
    [
        ('send({"action": "ask-whole"})', "'ask-whole', which is not legal here; legal: "),
        ('send({"action": "XYZ"})', "'XYZ', which is not an action"),
        ('send({"move": m["legal"][0]})', 'not {"action": TOKEN}'),
        ('send(m["legal"][0])', "not a JSON object"),
        ('print("thinking...", flush=True)', "a line that is not JSON: 'thinking...'"),
        ("time.sleep(60)", "did not answer a decision request within 0.5 s"),
        (
            'sys.stderr.write("boom\\n"); sys.stderr.flush(); sys.exit(3)',
            "exited with status 3 instead of answering a decision request; "
            "its last error output: boom",
        ),
    ],
)
@BOTH
def test_a_faulty_answer_raises_a_clear_error_and_stops_the_bot(
    bot_dir: Path, act: str, expected: str, sandbox: Sandbox
) -> None:
    # Half a second for the bot that never answers; the others answer at once, and are given
    # long enough that a busy machine is never taken for a silent bot.
    timeout = 0.5 if act.startswith("time.sleep") else 20.0
    command = bot_command(str(write_bot(bot_dir, act)))
    bot = ExternalPlayer(command, timeout=timeout, sandbox=sandbox)
    with pytest.raises(BotError) as error:
        bot.choose(forehand_deal().observation(Seat.N))
    message = str(error.value)
    assert message.startswith("bot 'faulty' (") and " at N: " in message
    assert expected in message
    assert bot._process.poll() is not None  # stopped, not left running
    bot.close()  # and closing again is harmless


@BOTH
def test_a_bot_that_speaks_another_protocol_is_refused(bot_dir: Path, sandbox: Sandbox) -> None:
    path = write_bot(bot_dir, "pass", protocol=2)
    with pytest.raises(BotError, match="speaks protocol 2; this host speaks 1"):
        ExternalPlayer(bot_command(str(path)), sandbox=sandbox)


@BOTH
def test_a_bot_that_never_greets_is_refused(bot_dir: Path, sandbox: Sandbox) -> None:
    path = bot_dir / "mute.py"
    path.write_text("import sys\nsys.stdin.read()\n")
    with pytest.raises(BotError, match=r"did not answer the handshake within 0\.5 s"):
        ExternalPlayer(bot_command(str(path)), start_timeout=0.5, sandbox=sandbox)


class _Interrupted(BaseException):
    """Stands for the KeyboardInterrupt of Ctrl-C, which pytest would take for its own."""


def test_ctrl_c_while_a_bot_starts_stops_the_bot(tmp_path: Path) -> None:
    """The bot leads a session of its own, so the terminal's Ctrl-C never reaches it: it was
    left running, orphaned, when the host was interrupted before the handshake's answer."""
    pid_file = tmp_path / "pid"
    bot = tmp_path / "slow.py"
    bot.write_text(
        f"import os, time\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\ntime.sleep(600)\n"
    )

    def interrupt(signum: int, frame: object) -> None:
        if not pid_file.exists() or not pid_file.read_text():
            signal.setitimer(signal.ITIMER_REAL, 0.05)  # not started yet: a little later
            return
        raise _Interrupted

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        with pytest.raises(_Interrupted):
            ExternalPlayer(bot_command(str(bot)), sandbox=NO_SANDBOX)  # it writes its pid
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    pid = int(pid_file.read_text())
    try:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # gone, and reaped
    finally:  # no orphan left behind by a failing run either
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@BOTH
def test_a_bot_that_cannot_be_started_is_named(bot_dir: Path, sandbox: Sandbox) -> None:
    missing = str(bot_dir / "no-such-bot")
    with pytest.raises(BotError, match=re.escape(f"bot '{missing}': cannot be started")):
        ExternalPlayer([missing], sandbox=sandbox)


def test_a_failing_bot_forfeits_its_matches_and_the_arena_goes_on(bot_dir: Path) -> None:
    path = write_bot(bot_dir, "sys.exit(3)")
    result = run_arena(["random", f"external:{path}"], matches=1, seed=1, backend="serial")
    (pairing,) = result.pairings
    assert (pairing.wins, pairing.draws, pairing.losses) == (2, 0, 0)
    assert len(pairing.failures) == 2
    assert re.match(
        f"match 1A: external:{re.escape(str(path))} at [EW]: BotError: bot 'faulty'",
        pairing.failures[0],
    )
    assert "exited with status 3" in pairing.failures[1]
    assert "failures (2, each a forfeit)" in result.report()


def test_bot_command_runs_python_scripts_with_this_python_and_splits_like_a_shell() -> None:
    assert bot_command("bots/bot.py") == [sys.executable, "bots/bot.py"]
    assert bot_command("'bots/my bot.py' --level 3") == [
        sys.executable,
        "bots/my bot.py",
        "--level",
        "3",
    ]
    assert bot_command("./engine --uci") == ["./engine", "--uci"]
    with pytest.raises(ValueError, match="needs the bot's command"):
        bot_command("  ")
    with pytest.raises(ValueError, match="cannot read the bot command"):
        bot_command("'unclosed")


def test_the_external_spec_keeps_the_command_as_written() -> None:
    with pytest.raises(ValueError, match="needs the bot's command"):
        make_player("external")
    bot = make_player(f"EXTERNAL:{EXAMPLE}")
    bot.close()
    assert bot.name == "example"


def test_after_a_fault_the_other_bots_of_the_match_get_quit_and_are_stopped(
    tmp_path: Path,
) -> None:
    """A faulty bot ends the match; the other side's bots still get ``quit`` (PROTOCOL.md) and
    are stopped even when they ignore the end of their input."""
    log = tmp_path / "log"
    other = tmp_path / "other.py"
    other.write_text(
        "import json, sys, time\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'other'}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        print(json.dumps({'action': m['legal'][0]}), flush=True)\n"
        "    elif m['type'] == 'quit':\n"
        "        log.write('quit\\n'); log.flush()\n"
        "time.sleep(3600)  # ignores the end of its input\n"
    )
    faulty = write_bot(tmp_path, "sys.exit(3)")
    job = MatchJob(  # out of the sandbox: the other bot writes to the test's log
        0, f"external:{other}", f"external:{faulty}", 0, False, 1, Variant(), 200, False, NO_SANDBOX
    )
    outcome = play_match(job)
    assert outcome.failure is not None and "exited with status 3" in outcome.failure
    assert log.read_text().split() == ["quit", "quit"]


def test_a_line_over_the_limit_is_a_fault_read_no_further(bot_dir: Path) -> None:
    # 64 MiB without a newline: the host stops at the limit instead of reading it all.
    act = 'sys.stdout.write("A" * (64 << 20)); sys.stdout.flush(); time.sleep(60)'
    bot = ExternalPlayer(bot_command(str(write_bot(bot_dir, act))), timeout=20)
    with pytest.raises(BotError, match=f"with a line over {LINE_LIMIT} bytes") as error:
        bot.choose(forehand_deal().observation(Seat.N))
    assert len(str(error.value)) < 400
    assert bot._process.poll() is not None


def test_a_long_token_and_long_error_lines_are_shortened_in_the_message(bot_dir: Path) -> None:
    act = (
        'sys.stderr.write("E" * 100000 + "\\nlast\\n"); sys.stderr.flush(); '
        'send({"action": "A" * 30000})'
    )
    bot = ExternalPlayer(bot_command(str(write_bot(bot_dir, act))), timeout=5)
    with pytest.raises(BotError) as error:
        bot.choose(forehand_deal().observation(Seat.N))
    message = str(error.value)
    assert (
        "which is not an action token" in message and "not an action: not an action" not in message
    )
    assert "A" * 120 + "…'" in message and "A" * 121 not in message
    assert "E" * STDERR_LINE_CHARS + "… | last" in message
    assert len(message) < 1000


def test_control_characters_of_the_error_output_are_shown_escaped(bot_dir: Path) -> None:
    """The fault's message goes to terminals: the bot's escape sequences were passed on raw,
    and cleared or recoloured the screen of whoever read the arena's report."""
    act = 'sys.stderr.write("\\x1b[2J\\x1b[31mred\\x07 ä\\n"); sys.stderr.flush(); sys.exit(1)'
    bot = ExternalPlayer(bot_command(str(write_bot(bot_dir, act))), timeout=5)
    with pytest.raises(BotError) as error:
        bot.choose(forehand_deal().observation(Seat.N))
    message = str(error.value)
    assert message.endswith("its last error output: \\x1b[2J\\x1b[31mred\\x07 ä")
    assert "\x1b" not in message and "\x07" not in message


def test_a_bot_that_exits_while_its_child_holds_the_pipe_is_reported_as_exited(
    tmp_path: Path,
) -> None:
    pid_file = tmp_path / "child"
    act = (
        "import subprocess; "
        'child = subprocess.Popen(["sleep", "3600"]); '
        f"open({str(pid_file)!r}, 'w').write(str(child.pid)); sys.exit(7)"
    )
    command = bot_command(str(write_bot(tmp_path, act)))
    bot = ExternalPlayer(command, timeout=1.5, sandbox=NO_SANDBOX)  # it writes the child's pid
    with pytest.raises(BotError, match="exited with status 7 instead of answering"):
        bot.choose(forehand_deal().observation(Seat.N))
    bot.close()
    stat = Path(f"/proc/{pid_file.read_text()}/stat")
    for _ in range(50):  # the child was killed too: gone, or a zombie no one has reaped yet
        with contextlib.suppress(FileNotFoundError):
            if stat.read_text().split(") ")[1][0] != "Z":
                time.sleep(0.1)
                continue
        break
    else:
        pytest.fail("the bot's child is still running")


@pytest.mark.parametrize(
    ("sandbox", "expected"),
    [
        (NO_SANDBOX, r"at N: closed its standard input$"),
        # The sandbox's own processes hold the pipe open too: the bot is found not answering.
        (SANDBOX, r"at N: did not answer a decision request within 2 s$"),
    ],
    ids=["none", "bwrap"],
)
def test_a_bot_that_closes_its_input_is_reported_so(
    bot_dir: Path, sandbox: Sandbox, expected: str
) -> None:
    path = bot_dir / "closer.py"
    path.write_text(
        "import json, os, sys, time\n"
        "sys.stdin.readline()\n"
        "os.close(0)\n"
        "print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'closer'}), flush=True)\n"
        "time.sleep(60)\n"
    )
    bot = ExternalPlayer(bot_command(str(path)), timeout=2, sandbox=sandbox)
    with pytest.raises(BotError, match=expected):
        bot.choose(forehand_deal().observation(Seat.N))


def test_a_second_answer_line_to_one_act_is_a_fault(bot_dir: Path) -> None:
    act = 'send({"action": m["legal"][0]}); send({"action": m["legal"][-1]})'
    bot = ExternalPlayer(bot_command(str(write_bot(bot_dir, act))), timeout=5)
    observation = forehand_deal().observation(Seat.N)
    bot.choose(observation)
    deadline = time.monotonic() + 20
    while bot._lines.empty():  # until the bot's reader has the extra line
        assert time.monotonic() < deadline, "the second line never came"
        time.sleep(0.01)
    with pytest.raises(BotError, match=re.escape("wrote a line no request asked for: '{")):
        bot.choose(observation)
