"""The sandbox of external bots (players.sandbox; docs/PROTOCOL.md, The sandbox): what a bot in
it can see and do, its limits (each broken by a bot, which forfeits while the run goes on), and
what is said when it cannot be had."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sys
import time
from pathlib import Path

import psutil
import pytest
from click.testing import CliRunner

from valtti.arena import run_arena
from valtti.cli import main
from valtti.engine import Deal, Seat
from valtti.players.external import BotError, ExternalPlayer, bot_command
from valtti.players.sandbox import (
    INSTALL,
    NO_SANDBOX,
    NOBODY,
    SANDBOX,
    Launch,
    Limits,
    Sandbox,
    SandboxError,
)

#: A bot that answers like any other and first tells, on its standard error, what it sees.
PROBE = """\
import json, os, socket, sys
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n"); sys.stdout.flush()
def tell(**facts):  # a line each: the host keeps 200 characters of a line
    for name, value in facts.items():
        sys.stderr.write(json.dumps({name: value}) + "\\n")
    sys.stderr.flush()
def can(action):
    try:
        action()
        return True
    except OSError:
        return False
def connect():
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2).close()
def write(path):
    with open(path, "w") as f:
        f.write("note")
here = os.path.dirname(os.path.abspath(__file__))
tell(uid=os.getuid(), processes=sum(p.isdigit() for p in os.listdir("/proc")),
     env=sorted(os.environ)[:8], cwd=os.getcwd(), home=os.listdir(os.environ["HOME"]),
     tmp=os.listdir("/tmp")[:3], secret=os.path.exists(sys.argv[2].split("=")[1]),
     network=can(connect),
     write_tmp=can(lambda: write("/tmp/note")),
     write_home=can(lambda: write(os.environ["HOME"] + "/n")),
     write_own=can(lambda: write(os.path.join(here, "note"))), parent=os.getppid())
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        send({"type": "hello", "protocol": 1, "name": "probe"})
    elif m["type"] == "act":
        send({"action": m["legal"][0]})
    elif m["type"] == "quit":
        break
"""


def observation() -> object:
    import random

    return Deal.shuffled(random.Random(1), Seat.W).observation(Seat.N)  # N leads trick 1


def probe(bot_dir: Path, sandbox: Sandbox) -> dict[str, object]:
    """What the probe bot saw, run in ``sandbox``, with a server listening on the host's
    loopback and a secret file beside the test's folder."""
    bot = bot_dir / "probe.py"
    bot.write_text(PROBE)
    secret = bot_dir.parent / f"{bot_dir.name}-secret"
    secret.write_text("the cards")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        # The secret's path not as a word of its own: the sandbox shows a path named so.
        command = bot_command(f"{bot} {port} secret={secret}")
        player = ExternalPlayer(command, timeout=20, sandbox=sandbox)
        try:
            player.choose(observation())  # type: ignore[arg-type]
        finally:
            player.close()
    facts: dict[str, object] = {}
    for line in player.error_log():
        facts.update(json.loads(line))
    return facts


def test_a_sandboxed_bot_sees_nothing_of_the_host(bot_dir: Path) -> None:
    facts = probe(bot_dir, SANDBOX)
    assert set(facts) >= {"uid", "processes", "network", "secret", "write_own", "home"}
    # Its own processes only: the sandbox's init and itself.
    assert facts["processes"] == 2
    assert facts["network"] is False  # no network: the host's loopback is not its own
    assert facts["secret"] is False  # nothing of the host's files but what it needs
    assert facts["env"] == ["HOME", "LANG", "PATH", "PWD", "PYTHONDONTWRITEBYTECODE", "TMPDIR"]
    assert facts["cwd"] == str(bot_dir)  # it starts in its own folder
    assert facts["home"] == []  # empty, of its own, as /tmp but for the way to its own folder
    way = bot_dir.relative_to("/tmp").parts[:1] if bot_dir.is_relative_to("/tmp") else ()
    assert facts["tmp"] == list(way)
    assert facts["write_tmp"] is True and facts["write_home"] is True
    assert facts["write_own"] is False  # its folder is read-only: no note for another copy
    if os.geteuid() == 0:
        assert facts["uid"] == NOBODY  # a host run as root runs its bots as nobody
    else:
        assert facts["uid"] == os.getuid()


def test_the_control_an_unconfined_bot_sees_the_host(bot_dir: Path) -> None:
    """The same probe out of the sandbox sees what the sandbox hides, so the test above can
    fail."""
    facts = probe(bot_dir, NO_SANDBOX)
    assert facts["network"] is True and facts["secret"] is True and facts["write_own"] is True
    assert facts["processes"] > 3  # type: ignore[operator]


def test_everything_a_sandboxed_bot_started_is_gone_when_it_stops(bot_dir: Path) -> None:
    bot = bot_dir / "forker.py"
    bot.write_text(
        "import json, subprocess, sys\n"
        "for _ in range(3):\n"
        "    subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
        "sys.stdin.readline()\n"
        "print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'forker'}), flush=True)\n"
        "sys.stdin.read()\n"
    )
    player = ExternalPlayer(bot_command(str(bot)), sandbox=SANDBOX)
    sandbox = psutil.Process(player._process.pid)
    deadline = time.monotonic() + 20
    while sum(p.name() == "sleep" for p in sandbox.children(recursive=True)) < 3:
        assert time.monotonic() < deadline, "the bot's children never started"
        time.sleep(0.05)
    started = sandbox.children(recursive=True)
    player.close()
    _, alive = psutil.wait_procs(started, timeout=10)
    assert not alive, alive


def _arena_with(bot_dir: Path, act: str, limits: str) -> tuple[str, ...]:
    """The failures of an arena run of a bot that runs ``act`` at its first decision against
    random, under ``limits``: every match forfeit, and the run to its end."""
    bot = bot_dir / "greedy.py"
    bot.write_text(
        "import json, os, subprocess, sys, time\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        hello = {'type': 'hello', 'protocol': 1, 'name': 'greedy'}\n"
        "        print(json.dumps(hello), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        f"        {act}\n"
        "        print(json.dumps({'action': m['legal'][0]}), flush=True)\n"
    )
    result = run_arena(
        [f"external:{bot}", "random"],
        matches=1,
        seed=1,
        backend="serial",
        sandbox=Sandbox(limits=Limits.parse(limits)),
    )
    (pairing,) = result.pairings
    assert (pairing.wins, pairing.losses) == (0, 2)  # each match forfeit, the run over
    return pairing.failures


#: Whether this host gives each sandboxed bot a control group (as root, where it may): its limits
#: then hold for the whole bot, not each process.
GROUPED = SANDBOX.launch(["true"]).cgroup is not None


def _said_out_of_memory(failure: str) -> bool:
    return "MemoryError" in failure or "it used its memory limit of 200 MiB" in failure


def test_a_bot_over_its_memory_limit_forfeits(bot_dir: Path) -> None:
    failures = _arena_with(bot_dir, "waste = bytearray(400 << 20)", "memory=200")
    assert all(_said_out_of_memory(f) for f in failures), failures


@pytest.mark.skipif(not GROUPED, reason="a control group for each bot: root, and the machine's")
def test_a_bot_that_forks_stays_within_its_memory_and_cpu_as_a_whole(bot_dir: Path) -> None:
    """Three processes of 150 MiB each are over 200 MiB between them; three spinning a second
    each over 1 s of CPU: each within the limit alone, the bot over it."""
    grow = (
        "kids = [subprocess.Popen([sys.executable, '-c', "
        "'w = bytearray(150 << 20); import time; time.sleep(30)']) for _ in range(3)]; "
        "time.sleep(2)"
    )
    failures = _arena_with(bot_dir, grow, "memory=200")
    assert all("used its memory limit of 200 MiB (all its processes)" in f for f in failures), (
        failures
    )
    spin = (
        "kids = [subprocess.Popen([sys.executable, '-c', "
        "'import time\\nend = time.process_time() + 0.8\\nwhile time.process_time() < end: "
        "pass']) for _ in range(3)]; [k.wait() for k in kids]"
    )
    failures = _arena_with(bot_dir, spin, "cpu=1")
    assert all("used its CPU time limit of 1 s (all its processes)" in f for f in failures), (
        failures
    )


def test_one_bots_processes_do_not_count_against_another(bot_dir: Path) -> None:
    """A bot that forks as many processes as it may does not leave another bot unable to start
    a thread: each has its own count (the host run as root; as another user, one user's count
    is shared, docs/PROTOCOL.md)."""
    hog = bot_dir / "hog.py"
    hog.write_text(
        "import json, os, sys, time\n"
        "kids = []\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'hog'}), flush=True)\n"
        "    elif m['type'] == 'match':\n"
        "        try:\n"
        "            while True:\n"
        "                pid = os.fork()\n"
        "                if pid == 0:\n"
        "                    time.sleep(60); os._exit(0)\n"
        "                kids.append(pid)\n"
        "        except OSError:\n"
        "            pass\n"
        "    elif m['type'] == 'act':\n"
        "        print(json.dumps({'action': m['legal'][0]}), flush=True)\n"
    )
    threaded = bot_dir / "threaded.py"
    threaded.write_text(
        "import json, sys, threading\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        "        print(json.dumps({'type': 'hello', 'protocol': 1, 'name': 'thr'}), flush=True)\n"
        "    elif m['type'] == 'act':\n"
        "        worker = threading.Thread(target=lambda: None); worker.start(); worker.join()\n"
        "        print(json.dumps({'action': m['legal'][0]}), flush=True)\n"
    )
    if os.geteuid() != 0:
        pytest.skip("as a user other than root, the user's process count is shared")
    result = run_arena(
        [f"external:{threaded}", f"external:{hog}"],
        matches=1,
        seed=1,
        backend="serial",
        max_deals=2,
        sandbox=Sandbox(limits=Limits(processes=16)),
    )
    (pairing,) = result.pairings
    assert pairing.failures == (), pairing.failures


def test_a_bot_over_its_process_limit_forfeits(bot_dir: Path) -> None:
    act = "[subprocess.Popen(['sleep', '60']) for _ in range(40)]"
    failures = _arena_with(bot_dir, act, "processes=16")
    assert all("Resource temporarily unavailable" in f for f in failures), failures


def test_a_bot_over_its_cpu_time_limit_forfeits(bot_dir: Path) -> None:
    failures = _arena_with(bot_dir, "while True: pass", "cpu=1")
    assert all("killed by SIGXCPU: it used its CPU time limit of 1 s" in f for f in failures), (
        failures
    )


def test_a_bot_that_fills_its_scratch_folders_forfeits(bot_dir: Path) -> None:
    act = "open('/tmp/big', 'wb').write(b'x' * (80 << 20))"
    failures = _arena_with(bot_dir, act, "files=32")
    assert all("No space left on device" in f or "File too large" in f for f in failures), failures


def test_limits_are_read_as_documented() -> None:
    assert Limits.parse("") == Limits()
    assert Limits.parse("memory=512, cpu=30") == Limits(memory=512, cpu=30)
    assert str(Limits(processes=8)) == "memory=4096,processes=8,cpu=3600,files=256"
    for text, said in [
        ("disk=3", "unknown bot limit 'disk=3'"),
        ("memory", "unknown bot limit 'memory'"),
        ("cpu=0", "must be a whole number above 0"),
        ("cpu=ten", "must be a whole number above 0"),
    ]:
        with pytest.raises(ValueError, match=re.escape(said)):
            Limits.parse(text)


def test_how_a_sandboxed_bot_ended_is_said() -> None:
    confined = Launch(("bot",), Sandbox(limits=Limits(cpu=7)))
    assert confined.describe_exit(3) == "exited with status 3"
    assert confined.describe_exit(128 + signal.SIGXCPU) == (
        "exited with status 152 (killed by SIGXCPU: it used its CPU time limit of 7 s)"
    )
    assert confined.describe_exit(137) == "exited with status 137 (killed by SIGKILL)"
    unconfined = Launch(("bot",), NO_SANDBOX)
    assert unconfined.describe_exit(-9) == "exited with status -9 (killed by SIGKILL)"
    assert unconfined.describe_exit(137) == "exited with status 137"


def test_without_bwrap_the_error_says_how_to_install_it(
    bot_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(bot_dir))  # no bwrap there
    with pytest.raises(SandboxError, match=re.escape(INSTALL)):
        SANDBOX.launch([sys.executable, "bot.py"])
    example = Path(__file__).resolve().parents[2] / "examples" / "external_bot.py"
    result = CliRunner().invoke(
        main, ["arena", "--players", f"random,external:{example}", "--matches", "1"]
    )
    assert result.exit_code == 2
    said = " ".join(result.output.split())
    assert "sudo apt-get install bubblewrap" in said and "--sandbox none" in said
    assert NO_SANDBOX.launch(["bot"]).args == ("bot",)  # no sandbox needs none


def test_a_bot_whose_folder_holds_the_runs_files_is_refused(bot_dir: Path) -> None:
    bot = bot_dir / "bot.py"
    bot.write_text("")
    with pytest.raises(ValueError, match=r"which holds .*records") as refused:
        run_arena(
            [f"external:{bot}", "random"], 1, 1, backend="serial", records=bot_dir / "records"
        )
    assert "Keep the bot in a folder of its own" in str(refused.value)
    assert not (bot_dir / "records").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="as root the bot runs as nobody")
def test_a_bot_nobody_may_read_is_refused_with_the_reason(tmp_path: Path) -> None:
    tmp_path.chmod(0o700)
    bot = tmp_path / "bot.py"
    bot.write_text("")
    with pytest.raises(BotError, match=r"cannot read .* \(mode 0700\): make it readable to all"):
        ExternalPlayer(bot_command(str(bot)))


def test_a_program_not_in_the_sandbox_is_named() -> None:
    with pytest.raises(BotError, match="no program no-such-program to run in the sandbox"):
        ExternalPlayer(["no-such-program"])


def test_an_unconfined_run_warns_at_its_start_and_in_its_results() -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "external_bot.py"
    args = ["arena", "--players", f"random,external:{example}", "--deals", "1"]
    runner = CliRunner()
    result = runner.invoke(main, [*args, "--sandbox", "none", "--backend", "serial"])
    assert result.exit_code == 0, result.output
    warning = "--sandbox none: the programs ran as ordinary programs of this user"
    assert result.output.count(warning) == 2  # at the start, and with the figures
    assert "not a fair competition" in result.output
    figures = json.loads(
        runner.invoke(main, [*args, "--backend", "serial", "--json"]).output.splitlines()[-1]
    )
    assert figures["sandbox"] == str(SANDBOX)
    honest = json.loads(
        runner.invoke(
            main,
            [
                "arena",
                "--players",
                "random,random",
                "--deals",
                "1",
                "--backend",
                "serial",
                "--json",
            ],
        ).output
    )
    assert honest["sandbox"] is None  # no program, no sandbox to speak of


def test_a_bots_group_on_cgroup_v2_is_written_as_the_kernel_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cgroup v2 (this machine has v1 only, which the tests above use for real): a group under
    ``valtti`` with the controllers enabled on the way, its limits, its CPU time and its memory
    kills read back; a group left by a killed host an hour ago swept away."""
    from valtti.players import cgroup

    (tmp_path / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (tmp_path / "valtti" / "valtti-old").mkdir(parents=True)
    os.utime(tmp_path / "valtti" / "valtti-old", (0, 0))
    monkeypatch.setattr(cgroup, "_mounts", lambda: [("cgroup2", str(tmp_path), "/", set())])
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    group = cgroup.make("123", 200 << 20, 18)
    assert group is not None and group.folders == (tmp_path / "valtti" / "123",)
    assert (tmp_path / "cgroup.subtree_control").read_text() == "+memory +pids"
    assert (tmp_path / "valtti" / "cgroup.subtree_control").read_text() == "+memory +pids"
    folder = group.folders[0]
    assert (folder / "memory.max").read_text() == str(200 << 20)
    assert (folder / "pids.max").read_text() == "18"
    assert group.procs() == (str(folder / "cgroup.procs"),)
    assert not (tmp_path / "valtti" / "valtti-old").exists()
    (folder / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2000000\n")
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 0\n")
    assert group.cpu_seconds() == 2.5 and not group.out_of_memory()
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\n")
    assert group.out_of_memory()
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert cgroup.make("124", 1, 1) is None  # not root: none
