"""The terminal game's input in-process: completion, Enter for a single legal card, long lines,
Ctrl-C and Ctrl-D, the autosave, ``save`` over a file, ``undo``, and failing computer players."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from valtti.cli import main
from valtti.engine import Action, CardSet, Phase, Seat, Suit
from valtti.engine.record import Record
from valtti.players.sandbox import NO_SANDBOX
from valtti.terminal import i18n
from valtti.terminal.commands import InputError, MisreadError, Undo, completions, parse
from valtti.terminal.game import start
from valtti.terminal.saving import Saves, write_atomic
from valtti.terminal.session import EXIT_INTERRUPTED, EXIT_PLAYER_FAULT, Session


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.use("en")
    yield
    i18n.use("en")


def session(
    tmp_path: Path, lines: list[object], seed: int = 2, **options: object
) -> tuple[Session, io.StringIO, list[str]]:
    """A session against random players reading ``lines`` (an exception in them is raised
    there), then the end of input; its output and the prompts it showed."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False)
    options.setdefault("partner", "random")
    options.setdefault("opponents", "random")
    s = start(
        seed=seed,
        fast=True,
        language="en",
        console=console,
        saves=Saves(tmp_path),
        **options,  # type: ignore[arg-type]
    )
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if not lines:
            raise EOFError
        line = lines.pop(0)
        if isinstance(line, BaseException):
            raise line
        if callable(line):
            line = line(s)
        assert isinstance(line, str)
        return line

    s.drawing.read = read
    return s, out, prompts


def first_legal(s: Session) -> str:
    deal = s.match.deal
    assert deal is not None
    return str(deal.legal_actions()[0])


# -- words ---------------------------------------------------------------------------------------


def test_completion_offers_the_legal_cards_first_then_the_commands() -> None:
    hand = list(CardSet.parse("QS TH JH 7C"))
    legal = [Action.play(hand[0])]
    assert completions("", hand, legal)[:2] == ["qs", "help"]  # nothing to declare or ask
    assert completions("q", hand, legal) == ["qs", "quit"]
    assert completions("1", hand, legal) == ["10h"]  # no legal card fits: the others
    assert completions("m", hand, legal) == ["more"]


def test_completion_offers_only_the_legal_moves() -> None:
    """The engine's legal actions say which words and suits come: no others."""
    hand = list(CardSet.parse("QS TH JH 7C"))
    window = [
        Action.play(hand[0]),
        Action.ask_half(Suit.S),
        Action.ask_half(Suit.H),
        Action.declare(Suit.H),
    ]
    assert completions("", hand, window)[:3] == ["qs", "declare", "ask"]
    assert completions("ask ", hand, window) == ["half"]  # no whole: not legal here
    assert completions("ask ", hand, [*window, Action.ask_whole()]) == ["whole", "half"]
    assert completions("ask h", hand, window) == ["half"]
    assert completions("ask half ", hand, window) == ["s", "h", "spades", "hearts"]
    assert completions("declare ", hand, window) == ["h", "hearts"]
    assert completions("declare s", hand, window) == []
    assert completions("answer ", hand, window) == []
    assert completions("ask ", hand, legal := [Action.play(hand[0])]) == []
    assert "declare" not in completions("", hand, legal)
    i18n.use("fi")
    assert completions("ilmoita he", hand, window) == ["hertta"]
    assert completions("kysy puoli ", hand, window) == ["s", "h", "pata", "hertta"]
    assert completions("pe", [], []) == ["peru"]
    assert completions("oh", [], []) == ["ohje"]
    assert parse("peru", []) == Undo()
    # The English words, which Finnish takes too, complete as well.
    assert completions("kysy ", hand, window) == ["puoli"]
    assert completions("ask ", hand, window) == ["half"]


@pytest.mark.parametrize(
    ("language", "line", "says"),
    [
        ("en", "decalre h", "Not understood: decalre h. Did you mean: declare ♥?"),
        ("en", "ask hlaf h", "Did you mean: ask half ♥?"),
        ("en", "hnit", "Did you mean: hint?"),
        ("en", "ask half", "'ask half' needs a suit. Legal now: ask half ♠ or ask half ♥."),
        ("en", "declare", "'declare' needs a suit. Legal now: declare ♥."),
        ("en", "answer", "'answer' needs a suit, and none can be named now."),
        ("fi", "ilmoitta h", "En ymmärrä: ilmoitta h. Tarkoititko: ilmoita ♥?"),
        ("fi", "kysy puoli", "'kysy puoli' tarvitsee maan. Nyt sallittu: kysy puoli ♠ tai "),
        ("en", "hlep rules", "Not understood: hlep rules. Did you mean: help rules?"),
        ("en", "hlep", "Not understood: hlep. Did you mean: help?"),
        ("en", "help rulse", "Not understood: help rulse. Did you mean: help rules?"),
        ("en", "help decalre s", "Not understood: help decalre s. Did you mean: help declare ♠?"),
        ("en", "svae my match.json", "Did you mean: save my match.json?"),
        ("en", "reviwe 2", "Did you mean: review 2?"),
        ("fi", "ohej säännöt", "En ymmärrä: ohej säännöt. Tarkoititko: ohje säännöt?"),
        ("fi", "ohje sääntöt", "En ymmärrä: ohje sääntöt. Tarkoititko: ohje säännöt?"),
    ],
)  # fmt: skip
def test_a_near_miss_says_what_was_meant(language: str, line: str, says: str) -> None:
    window = [Action.ask_half(Suit.S), Action.ask_half(Suit.H), Action.declare(Suit.H)]
    i18n.use(language)
    with pytest.raises(InputError) as refused:
        parse(line, [], legal=window)
    assert says in str(refused.value)
    assert not isinstance(refused.value, MisreadError)


@pytest.mark.parametrize("line", ["decalre s", "decalre c", "ask hlaf d"])
def test_a_near_miss_offers_only_a_legal_move(line: str) -> None:
    """Issue 41: a move read that is not legal is not offered; the session says why not (the
    engine's reason) and what is legal."""
    window = [Action.ask_half(Suit.S), Action.ask_half(Suit.H), Action.declare(Suit.H)]
    with pytest.raises(MisreadError) as refused:
        parse(line, [], legal=window)
    assert "Did you mean" not in str(refused.value)
    assert refused.value.action not in window and refused.value.text == line


def test_the_session_says_why_a_move_read_is_not_legal(tmp_path: Path) -> None:
    s, out, _prompts = session(tmp_path, ["decalre s", "quit", "y"])
    s.run()
    said = " ".join(out.getvalue().translate({ord(c): " " for c in "│╭╮╰╯─"}).split())
    assert (
        "decalre s: if you meant declare ♠, it is not legal: there are no declarations or "
        "questions before trick 1. Legal now: Q♠" in said
    )
    assert "Did you mean" not in said


def test_a_line_near_nothing_is_not_understood() -> None:
    with pytest.raises(InputError) as refused:
        parse("xyzzy plugh", [], legal=[Action.ask_half(Suit.S)])
    assert "Did you mean" not in str(refused.value)
    assert str(refused.value).startswith("Not understood: xyzzy plugh.")


def test_a_very_long_line_is_refused_without_being_repeated() -> None:
    with pytest.raises(InputError) as refused:
        parse("as" * 150, [])
    assert str(refused.value) == (
        "A line of 300 characters is too long (at most 200): nothing was done."
    )


def test_enter_plays_a_single_legal_card(tmp_path: Path) -> None:
    s, _out, prompts = session(tmp_path, ["", "quit", "y"])
    s.run()
    assert prompts[0] == "[Enter plays Q♠] Your card > "
    deal = s.match.deal
    assert deal is not None and Action.parse("QS") in deal.history


def test_enter_with_a_choice_plays_nothing(tmp_path: Path) -> None:
    s, _out, prompts = session(tmp_path, ["", "", "quit", "y"], seed=3)
    s.run()
    assert not prompts[0].startswith("[Enter")
    assert prompts[0] == prompts[1]  # the same turn asked again


# -- leaving -------------------------------------------------------------------------------------


def test_ctrl_c_asks_no_goes_on_yes_leaves_with_130(tmp_path: Path) -> None:
    s, out, prompts = session(tmp_path, [KeyboardInterrupt(), "n", "", KeyboardInterrupt(), "y"])
    assert s.run() == EXIT_INTERRUPTED
    assert prompts[1].startswith("Leave the match?") and prompts[2] == prompts[0]
    said = out.getvalue()
    assert "Interrupted: leaving the match." in said
    assert s.autosave is not None and s.autosave.parent == tmp_path
    assert f"The match so far is saved in {s.autosave}." in said
    assert len(Record.from_json(s.autosave.read_text()).deals[0].actions) > 2


def test_a_second_ctrl_c_leaves(tmp_path: Path) -> None:
    s, _out, _prompts = session(tmp_path, [KeyboardInterrupt(), KeyboardInterrupt()])
    assert s.run() == EXIT_INTERRUPTED


def test_the_end_of_input_leaves_the_match_in_the_autosave(tmp_path: Path) -> None:
    s, out, _prompts = session(tmp_path, [""])
    assert s.run() == 0
    assert "End of input: leaving the match." in out.getvalue()
    assert s.autosave is not None
    saved = Record.from_json(s.autosave.read_text())
    assert Record.of_match(s.match).to_dict()["deals"] == saved.to_dict()["deals"]
    assert [k.path for k in Saves(tmp_path).scan().kept] == [s.autosave]


def test_a_finished_match_stays_in_the_saves_until_the_player_leaves_it(tmp_path: Path) -> None:
    """Issue 41: at the match's end the save holds the finished match; leaving asks first, and
    only then is it removed."""
    seen: list[bool] = []
    asked: list[str] = []

    def move(s: Session) -> str:
        assert s.autosave is not None
        if s.match.is_over():
            assert Saves(tmp_path).scan().kept[0].finished  # kept, finished
            asked.append("")
            return "" if len(asked) == 1 else "y"
        seen.append(s.autosave.exists())
        deal = s.match.deal
        return "" if deal is None or deal.is_over() else first_legal(s)

    s, _out, prompts = session(tmp_path, [move] * 2000, seed=3)
    assert s.run() == 0
    assert s.match.is_over() and all(seen[1:]) and seen
    assert prompts[-2:] == [
        "The match is over: review · save FILE · Enter: leave > ",
        "Leave? The finished match is then removed from the saves: save FILE keeps its record. "
        "(y/n) > ",
    ]
    assert list(tmp_path.iterdir()) == []  # nothing left: no save, no temporary file, no lock


def test_leaving_does_not_promise_an_autosave_that_cannot_be_written(tmp_path: Path) -> None:
    """The data directory is a file: the question to leave says the play is lost, not kept."""
    (tmp_path / "data").write_text("not a directory\n")
    out = io.StringIO()
    s = start(
        seed=2, fast=True, language="en", partner="random", opponents="random",
        console=Console(file=out, width=100, color_system=None),
        saves=Saves(tmp_path / "data" / "valtti" / "saves"),
    )  # fmt: skip
    prompts: list[str] = []
    lines = ["qs", "quit", "y"]
    s.drawing.read = lambda prompt: prompts.append(prompt) or lines.pop(0)  # type: ignore[func-returns-value]
    assert s.run() == 0
    assert prompts[-1] == "Leave the match? Play that is not saved is lost. (y/n) > "
    shown = " ".join(out.getvalue().split())
    assert "Could not write the autosave" in shown and "saved in" not in shown


def test_a_new_match_keeps_the_one_in_progress(tmp_path: Path) -> None:
    """Input that is no terminal: the match in progress is kept without asking, and told."""
    earlier, _out, _prompts = session(tmp_path, [first_legal], seed=3)
    earlier.run()
    assert earlier.autosave is not None
    kept = earlier.autosave.read_text()
    s, _out, _prompts = session(tmp_path, [first_legal])
    assert earlier.autosave.read_text() == kept and s.autosave != earlier.autosave
    assert any(
        "is kept without asking (valtti play --saves lists it)" in line for line in s.drawing.log
    )
    s.run()
    assert [k.path for k in Saves(tmp_path).scan().kept] == [s.autosave, earlier.autosave]


def test_resume_with_no_file_goes_on_with_the_newest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    runner = CliRunner()
    folder = Saves.default().folder
    result = runner.invoke(main, ["play", "--lang", "en", "--resume"])
    assert result.exit_code == 2
    assert f"There is no unfinished match to go on with: none is kept in {folder}." in (
        " ".join(result.output.split())
    )
    new = ["--seed", "2", "--fast", "--partner", "random", "--opponents", "random"]
    result = runner.invoke(main, ["play", "--lang", "en", *new], input="")
    assert result.exit_code == 0 and Saves.default().scan().kept == []  # left before a move
    result = runner.invoke(main, ["play", "--lang", "en", *new], input="\n")  # Enter plays Q♠
    assert result.exit_code == 0 and len(Saves.default().scan().kept) == 1
    result = runner.invoke(main, ["play", "--lang", "en", "--resume", "--fast"], input="quit\ny\n")
    assert result.exit_code == 0 and "Leave the match?" in result.output  # it got to a turn
    assert "Resumed the unfinished match of " in result.output
    assert len(Saves.default().scan().kept) == 1  # the same match, not a copy


# -- save ----------------------------------------------------------------------------------------


def test_save_asks_before_replacing_a_file_and_expands_the_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    kept = tmp_path / "kept.json"
    kept.write_text("mine\n")
    lines: list[object] = ["save ~/kept.json", "n", "save ~/kept.json", "y", "quit", "y"]
    s, out, prompts = session(tmp_path, lines)
    s.run()
    assert prompts[1] == f"{kept} exists. Replace it? (y/n) > "
    said = "".join(out.getvalue().translate({ord(c): " " for c in "│╭╮╰╯─"}).split())
    assert f"Notsaved:{kept}iskeptasitwas." in said
    assert Record.from_json(kept.read_text()).meta is not None
    assert not list(tmp_path.glob(".kept.json.*"))  # no temporary file left


def test_write_atomic_leaves_the_old_file_when_it_fails(tmp_path: Path) -> None:
    target = tmp_path / "record.json"
    target.write_text("old")
    with pytest.raises(TypeError):
        write_atomic(target, 12)  # type: ignore[arg-type]  # fails in the middle of the write
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["record.json"]


# -- undo ----------------------------------------------------------------------------------------


def test_undo_goes_back_to_the_previous_decision_and_the_same_play_goes_the_same(
    tmp_path: Path,
) -> None:
    def moves(n: int) -> list[object]:
        return [first_legal] * n

    straight, _out, _prompts = session(tmp_path / "a", [*moves(4), "quit", "y"], seed=5)
    straight.run()
    expected = Record.of_match(straight.match).to_dict()["deals"]

    seen: list[tuple[str, list[Action]]] = []

    def look(s: Session) -> str:
        deal = s.match.deal
        assert deal is not None
        seen.append((str(deal.hand(Seat.S)), deal.legal_actions()))
        return first_legal(s)

    lines: list[object] = [first_legal, look, "undo", look, first_legal, first_legal]
    s, out, _prompts = session(tmp_path / "b", [*lines, "quit", "y"], seed=5)
    s.run()
    assert seen[0] == seen[1]  # the same hand and the same legal actions
    assert "Taken back to your previous decision (take-back 1 in this match)." in out.getvalue()
    assert Record.of_match(s.match).to_dict()["deals"] == expected  # the computers the same
    assert s.autosave is not None
    meta = Record.from_json(s.autosave.read_text()).meta
    assert meta is not None and meta["takebacks"] == 1

    resumed, _out, _prompts = session(
        tmp_path / "b", ["undo", "quit", "y"], seed=None,  # type: ignore[arg-type]
        resume=s.autosave, partner=None, opponents=None,
    )  # fmt: skip
    assert resumed.takebacks == 1
    resumed.run()
    assert resumed.autosave == s.autosave  # taken on, not copied
    assert [k.path for k in Saves(tmp_path / "b").scan().kept] == [s.autosave]
    meta = Record.from_json(resumed.autosave.read_text()).meta
    assert meta is not None and meta["takebacks"] == 2


def test_undo_before_any_decision_says_so(tmp_path: Path) -> None:
    s, out, _prompts = session(tmp_path, ["undo", "quit", "y"])
    s.run()
    assert "There is nothing to take back: you have not moved yet in this match." in out.getvalue()
    assert s.takebacks == 0


# -- computer players that fail ------------------------------------------------------------------

BOT = """\
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "nonsense"}), flush=True)
    elif m["type"] == "act":
        sys.exit(4)
    elif m["type"] == "quit":
        break
"""


def test_a_failing_computer_player_is_named_and_the_match_kept(bot_dir: Path) -> None:
    bot = bot_dir / "bot.py"
    bot.write_text(BOT)
    spec = f"external:{bot}"
    s, out, _prompts = session(bot_dir, [first_legal] * 30, partner=spec)
    assert s.run() == EXIT_PLAYER_FAULT
    said = " ".join(out.getvalue().split())
    assert f"The computer player at N ({spec}) failed: " in said
    assert "exited with status 4" in said and "Traceback" not in said
    autosave = s.autosave
    assert autosave is not None
    assert f"The match so far is saved in {autosave}." in said
    assert "valtti play --resume --partner club" in said
    record = Record.from_json(autosave.read_text())
    assert Record.of_match(s.match).to_dict()["deals"] == record.to_dict()["deals"]


def test_a_program_that_cannot_start_is_a_clear_start_error(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = tmp_path / "no-such-bot"
    result = runner.invoke(main, ["play", "--lang", "en", "--partner", f"external:{missing}"])
    assert result.exit_code == EXIT_PLAYER_FAULT, result.output
    assert "The computer player at N" in result.output and "Traceback" not in result.output


def test_ctrl_c_at_a_deals_end_and_no_shows_the_end_again(tmp_path: Path) -> None:
    after: list[str] = []  # what to answer once the deal's end is interrupted

    def move(s: Session) -> str:
        deal = s.match.deal
        assert deal is not None
        if after:
            return after.pop(0)
        if not deal.is_over():
            return first_legal(s)
        after.extend(["n", "quit", "y"])
        raise KeyboardInterrupt

    s, _out, prompts = session(tmp_path, [move] * 40, seed=3)
    s.run()
    ends = [i for i, p in enumerate(prompts) if p.startswith("Enter: next deal")]
    assert len(ends) == 2 and prompts[ends[0] + 1].startswith("Leave the match?")
    assert ends[1] == ends[0] + 2 and len(s.match.deals) == 1  # no new deal was started


def test_save_completes_file_names_with_the_home_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "matches").mkdir()
    (tmp_path / "match one.json").write_text("")
    s, _out, _prompts = session(tmp_path, [])
    assert s._completions("save ~/mat") == ["~/match one.json", "~/matches/"]
    assert s._completions(f"save {tmp_path}/matc")[-1] == f"{tmp_path}/matches/"
    assert s._completions("sa") == ["save"]


def test_a_card_number_at_a_deals_end_says_there_is_no_deal(tmp_path: Path) -> None:
    """The hand is empty there: no 'your cards are numbered 1 to 0'."""
    after: list[str] = []

    def move(s: Session) -> str:
        deal = s.match.deal
        assert deal is not None
        if after:
            return after.pop(0)
        if not deal.is_over():
            return first_legal(s)
        after.extend(["quit", "y"])
        return "3"

    s, out, prompts = session(tmp_path, [move] * 40, seed=3)
    s.run()
    ends = [p for p in prompts if p.startswith("Enter: ")]
    assert ends == ["Enter: next deal · score · save FILE · quit > ", "Enter: back to the table > "]
    assert len(s.match.deals) == 1
    shown = " ".join(out.getvalue().split())
    assert "No deal is being played now: there are no cards to play." in shown
    assert "numbered 1 to 0" not in shown


def test_the_prompt_offers_declaring_only_where_something_can_be_declared(tmp_path: Path) -> None:
    """Seed 22, declaring and asking whenever it can: S takes trick 8 with K♣ alone, trumps
    made, nothing to declare or ask, and is told to lead, not to declare, ask or lead."""
    windows: list[tuple[str, bool]] = []

    def move(s: Session) -> str:
        deal = s.match.deal
        assert deal is not None
        if deal.is_over():
            return "quit"
        legal = deal.legal_actions()
        words = [a for a in legal if a.card is None]
        if deal.phase is Phase.DECLARATION:
            windows.append((prompts[-1], bool(words)))
        return str((words or legal)[0])

    s, _out, prompts = session(tmp_path, [move] * 40 + ["y"], seed=22)
    s.run()
    assert ("[Enter plays K♣] Your lead > ", False) in windows
    for prompt, offered in windows:
        assert ("declare, ask or lead" in prompt) == offered, windows


def test_undo_at_a_deals_end_takes_the_last_card_back(tmp_path: Path) -> None:
    undone: list[int] = []
    after: list[str] = []

    def move(s: Session) -> str:
        deal = s.match.deal
        assert deal is not None
        if after:
            return after.pop(0)
        if not deal.is_over():
            return first_legal(s)
        if undone:
            after.append("y")
            return "quit"
        undone.append(len(deal.history))
        return "undo"

    s, _out, prompts = session(tmp_path, [move] * 40, seed=3)
    s.run()
    ends = [i for i, p in enumerate(prompts) if p.startswith("Enter: next deal")]
    assert len(ends) == 2 and prompts[ends[0] + 1].startswith(("Your", "[Enter"))
    deal = s.match.deal
    assert deal is not None and deal.is_over() and len(deal.history) == undone[0]
    assert s.takebacks == 1 and len(s.match.deals) == 1


LOGGING_BOT = """\
import json, os, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    m = json.loads(line)
    log.write(f"{os.getpid()} {m['type']}\\n")
    log.flush()
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 1, "name": "logger"}), flush=True)
    elif m["type"] == "act":
        print(json.dumps({"action": m["legal"][0]}), flush=True)
    elif m["type"] == "quit":
        break
"""


def test_an_external_opponent_is_one_program_per_seat_and_restarted_by_undo(
    tmp_path: Path,
) -> None:
    bot, log = tmp_path / "bot.py", tmp_path / "log"
    bot.write_text(LOGGING_BOT)
    s, out, _prompts = session(
        tmp_path,
        [first_legal] * 6 + ["undo", first_legal, first_legal],
        opponents=f"external:{bot} {log}",
        sandbox=NO_SANDBOX,  # it logs to a file of the test's
    )
    assert s.run() == 0
    assert "Taken back" in out.getvalue()
    seen: dict[str, list[str]] = {}
    for line in log.read_text().splitlines():
        pid, kind = line.split()
        seen.setdefault(pid, []).append(kind)
    # Two started by the check at the start, two for the match, two again after the undo.
    assert len(seen) == 6
    assert all(kinds[0] == "hello" and kinds[-1] == "quit" for kinds in seen.values())
    played = [kinds for kinds in seen.values() if "act" in kinds]
    assert len(played) == 4 and all(kinds[1:3] == ["match", "deal"] for kinds in played)
