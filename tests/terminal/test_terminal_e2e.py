"""``valtti play`` end to end in a real pseudo-terminal: a whole match against random players.

A scripted player reads each screen as a person would (the hand, the legal line, the prompt) and
types its choice: a declaration and a question when offered for the first time, else the first
legal card, typed alternately as a token (``10h``) and as its number. Along the way it makes an
illegal and an unknown input, asks for help, saves, quits, resumes and finally saves the record.
With seed 22 the player at S declares and then asks in deal 1; the match lasts nine deals.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

#: A real terminal session each: the full tier (CONTRIBUTING.md).
pytestmark = pytest.mark.e2e

pexpect = pytest.importorskip("pexpect")

from valtti.engine import Seat, Team  # noqa: E402 - after the skip
from valtti.engine.record import Record  # noqa: E402
from valtti.terminal.i18n import translations  # noqa: E402

#: The question before leaving, when the match is kept in the autosave.
LEAVE = "Leave the match? It is kept: valtti play --resume goes on. (y/n)"

SEED = 22
ROWS, COLUMNS = 50, 120
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")
CARD = re.compile(r"(10|[AKQJ9876])([♠♥♦♣])")
NUMBERED = re.compile(r"(\d+):((?:10|[AKQJ9876])[♠♥♦♣])")
LETTERS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env["TERM"] = "xterm-256color"
    return env


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "valtti", "play", "--fast", "--partner", "random", "--opponents", "random", *args],
        env=_env(),
        dimensions=(ROWS, COLUMNS),
        encoding="utf-8",
        timeout=20,
    )


@dataclass
class Screen:
    kind: str  #: "turn", "deal over" or "match over"
    text: str  #: the last screen drawn, without colours
    prompt: str

    @property
    def flat(self) -> str:
        """The words on the screen, without frames and line breaks: wrapped text is whole."""
        return " ".join(re.sub(r"[│╭╮╰╯─]", " ", self.text).split())

    def panel(self, title: str) -> str:
        """The inside of the full-width panel whose title starts with ``title``."""
        lines = self.text.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith(f"╭─ {title}"))
        inner = []
        for line in lines[start + 1 :]:
            if line.startswith("╰"):
                break
            inner.append(line.strip("│ "))
        return "\n".join(inner)


@dataclass
class Scripted:
    """Reads the screen and answers like a methodical beginner."""

    child: pexpect.spawn
    language: str
    declared: bool = False
    asked: bool = False
    turns: int = 0
    seen: list[Screen] = field(default_factory=list)

    def __post_init__(self) -> None:
        t = translations(self.language)
        self.gettext = t.gettext
        self.word = lambda w: t.pgettext("command", w)
        self.south = t.pgettext("seat", "S")  # the player's seat as the screen writes it
        self.turn_prompts = [
            t.gettext(m) + " > "
            for m in ("Your lead", "Your card", "You took the trick: declare, ask or lead")
        ] + [t.gettext("Name a marriage") + " > "]
        self.deal_over = t.gettext("Enter: next deal · score · save FILE · quit > ")
        self.match_over = t.gettext("The match is over: review · save FILE · Enter: leave > ")
        #: Under a reply at the match's end, where Enter goes back to the final score.
        self.final_back = t.gettext("Enter: back to the final score > ")
        self.leave = t.gettext(
            "Leave? The finished match is then removed from the saves: save FILE keeps its "
            "record. (y/n) > "
        )

    def wait(self) -> Screen:
        prompts = [*self.turn_prompts, self.deal_over, self.match_over, self.final_back]
        i = self.child.expect_exact(prompts)
        kind = "turn" if i < len(self.turn_prompts) else "deal over" if i == 4 else "match over"
        screen = Screen(kind, ANSI.sub("", self.child.before.split("\x1b[2J")[-1]), prompts[i])
        self.seen.append(screen)
        return screen

    def send(self, line: str) -> Screen:
        self.child.sendline(line)
        return self.wait()

    def hand(self, screen: Screen) -> dict[str, str]:
        """Card (as shown, e.g. ``10♥``) → its number."""
        panel = screen.panel(self.gettext("Your hand ({seat})").format(seat=self.south))
        return {card: number for number, card in NUMBERED.findall(panel)}

    def legal(self, screen: Screen) -> tuple[list[str], list[str]]:
        """The legal cards and the declaration words, from the hand panel's legal line."""
        panel = screen.panel(self.gettext("Your hand ({seat})").format(seat=self.south))
        label = self.gettext("Legal") + ": "
        line = " ".join(panel[panel.index(label) + len(label) :].split())
        cards = ["".join(c) for c in CARD.findall(line.split(" · ")[0])]
        words = [w for w in line.split(" · ") if not CARD.fullmatch(w.split()[0])]
        return cards, words

    def choose(self, screen: Screen) -> str:
        cards, words = self.legal(screen)
        starts = {w: [x for x in words if x.startswith(self.word(w))] for w in ("declare", "ask")}
        answers = [x for x in words if x.startswith(self.word("answer"))]
        if answers:
            return answers[0]
        if starts["declare"] and not self.declared:
            self.declared = True
            return starts["declare"][0]
        if starts["ask"] and not self.asked:
            self.asked = True
            return starts["ask"][0]
        self.turns += 1
        card = cards[0]
        if self.turns % 2:
            return self.hand(screen)[card]
        return card[:-1] + LETTERS[card[-1]]

    def play_until(self, screen: Screen, stop: Stop | None = None) -> Screen:
        """Answer turns and deal ends until the match is over, or until ``stop(self, screen)``."""
        while screen.kind != "match over":
            if stop is not None and stop(self, screen):
                return screen
            screen = self.send(self.choose(screen) if screen.kind == "turn" else "")
        return screen


Stop = Callable[[Scripted, Screen], bool]


def _illegal_card(player: Scripted, screen: Screen) -> str | None:
    cards, _words = player.legal(screen)
    held = player.hand(screen)
    refused = [c for c in held if c not in cards]
    return refused[0] if screen.kind == "turn" and refused and cards else None


@pytest.fixture(autouse=True, scope="module")
def data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder of saves of the module's own: no unfinished match of another test is asked of."""
    home = tmp_path_factory.mktemp("data-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(home))
        yield home


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, list[Screen]]]:
    """The English match, interrupted by a save and a resume: its final record and screens."""
    folder = tmp_path_factory.mktemp("e2e")
    child = spawn("--seed", str(SEED), "--lang", "en")
    player = Scripted(child, "en")
    screen = player.wait()
    assert "Deal 1" in screen.text and "S · you" in screen.text and "N · partner" in screen.text

    # An unknown input and an illegal card explain themselves; nothing else changes.
    screen = player.play_until(screen, lambda p, s: _illegal_card(p, s) is not None)
    before = screen
    refused = _illegal_card(player, screen)
    assert refused is not None
    screen = player.send("xyzzy")
    assert "Not understood: xyzzy" in screen.flat
    screen = player.send(refused[:-1] + LETTERS[refused[-1]])
    assert f"{refused} is not legal: you must" in screen.flat
    assert screen.prompt == before.prompt
    assert player.hand(screen) == player.hand(before)
    assert screen.panel("What happened") == before.panel("What happened")

    # Play on until the declaration window offers a declaration; ask for help there first.
    def offers(word: str) -> Stop:
        return lambda p, s: s.kind == "turn" and any(w.startswith(word) for w in p.legal(s)[1])

    screen = player.play_until(screen, offers("declare"))
    help_screen = player.send("help")
    assert "You took the trick. Before leading you may make one" in help_screen.flat
    screen = player.send(player.choose(screen))
    assert player.declared
    log = screen.panel("What happened")
    assert re.search(r"S declares [♠♥♦♣] — ([♠♥♦♣] trumps, NS \+2|little trump)", log), log
    assert re.search(r"Trumps: [♠♥♦♣] \((NS|EW)\)", screen.text)

    # Then a question, whose locks the screen shows.
    screen = player.play_until(screen, offers("ask"))
    explained = player.send("help " + player.legal(screen)[1][-1])
    assert re.search(r"Locked afterwards: (N )?S \(their own marriages", explained.flat)
    screen = player.send(player.choose(screen))
    assert player.asked
    log = screen.panel("What happened")
    assert re.search(r"S asks for (a whole marriage|half [♠♥♦♣]): (yes|no)", log), log
    assert "Locked now: " in log and re.search(r"Locked: (N )?S", screen.text)

    # Save, leave, and come back.
    saved = folder / "match.json"
    screen = player.send(f"save {saved}")
    assert f"Saved to {saved}" in screen.flat
    child.sendline("quit")
    child.expect_exact(LEAVE + " > ")
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert Record.from_json(saved.read_text()).meta == {
        "program": "valtti play",
        "seat": "S",
        "seed": SEED,
        "players": {"N": "random", "E": "random", "W": "random"},
    }

    child = spawn("--resume", str(saved), "--lang", "en")
    player.child = child
    resumed = player.wait()
    assert f"Resumed from {saved}." in resumed.flat
    assert player.hand(resumed) == player.hand(screen)

    screen = player.play_until(resumed)
    final = folder / "final.json"
    screen = player.send(f"save {final}")
    assert f"Saved to {final}" in screen.flat and screen.prompt == player.final_back
    assert player.send("").prompt == player.match_over  # Enter closes the reply
    child.sendline("")  # and then asks before leaving
    child.expect_exact(player.leave)
    child.sendline("y")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    yield final, player.seen


def test_a_whole_match_with_save_and_resume(english: tuple[Path, list[Screen]]) -> None:
    final, screens = english
    match = Record.from_json(final.read_text()).replay()
    assert match.is_over()
    events = [e for d in match.deals for e in d.events if e.seat == Seat.S]
    assert any(e.how == "declare" for e in events)
    assert any(e.how in ("ask-whole", "ask-half") for e in events)

    ends = [s for s in screens if s.kind == "deal over"]
    assert len(ends) >= len(match.deals) - 1
    summary = ends[0].panel("Deal 1 is over")
    assert all(w in summary for w in ("tricks", "card points", "game points"))
    assert re.search(r"NS: .*= \d", summary) and re.search(r"NS 0 \+ \d+ = \d+", summary)

    last = screens[-1]
    assert last.prompt == "The match is over: review · save FILE · Enter: leave > "
    assert last.text.splitlines()[0] == "The match is over"  # a page of its own
    ns, ew = match.score
    if match.is_draw:
        assert "The match is a draw" in last.text
    else:
        ours = match.winner is Team.NS
        winner = "You and your partner win the match" if ours else "EW win the match"
        assert f"{winner}: NS {ns} – EW {ew}" in last.flat


def test_the_same_match_in_finnish(english: tuple[Path, list[Screen]], tmp_path: Path) -> None:
    child = spawn("--seed", str(SEED), "--lang", "fi")
    player = Scripted(child, "fi")
    screen = player.wait()
    # Finnish seat letters: S is E (etelä), N is P (pohjoinen).
    assert "Jako 1" in screen.text and "E · sinä" in screen.text and "Kätesi (E)" in screen.text
    assert "P · kumppani" in screen.text

    screen = player.play_until(screen, lambda p, s: _illegal_card(p, s) is not None)
    refused = _illegal_card(player, screen)
    assert refused is not None
    screen = player.send(refused[:-1] + LETTERS[refused[-1]])
    assert f"{refused} ei ole sallittu: sinun on" in screen.flat
    screen = player.send("ohje")
    assert "Kirjoita kortti (as, 10d, td) tai sen numero" in screen.flat

    over = player.play_until(screen)
    assert player.declared and player.asked
    assert re.search(r"(voititte|voitti) ottelun|tasan", over.flat)
    final = tmp_path / "ottelu.json"
    screen = player.send(f"tallenna {final}")
    assert f"Tallennettu tiedostoon {final}" in screen.flat
    first_end = next(s for s in player.seen if s.kind == "deal over")
    assert "Jako 1 päättyi" in first_end.text and "pelipisteet" in first_end.text
    assert any(re.search(r"E ilmoittaa [♠♥♦♣]", s.text) for s in player.seen)
    assert player.send("").prompt == player.match_over
    child.sendline("lopeta")
    child.expect_exact(player.leave)
    child.sendline("k")
    child.expect(pexpect.EOF)

    english_record = Record.from_json(english[0].read_text())
    finnish_record = Record.from_json(final.read_text())
    assert [d.to_dict() for d in finnish_record.deals] == [
        d.to_dict() for d in english_record.deals
    ]
