"""docs/RULES.md and docs/RECORD.md: the documents that everything else cites.

Every "RULES.md N.M" in the repository names a heading of docs/RULES.md; docs/RULES.md has a
heading for every point of the rules and every variant switch with its default; the example
record of docs/RECORD.md is read and replayed by the engine and by ``valtti replay``.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from valtti.cli import main
from valtti.engine.record import Record
from valtti.engine.variant import SWITCHES, Variant

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "RULES.md"
RECORD = ROOT / "docs" / "RECORD.md"

#: Every section and numbered point of the rules, which docs/RULES.md must have as headings.
POINTS: tuple[str, ...] = (
    *(str(n) for n in range(1, 10)),
    *("1.1", "1.2", "1.3", "1.4"),
    *("2.1", "2.2", "2.3", "2.4"),
    *("3.1", "3.2", "3.2a", "3.2b", "3.2c", "3.3"),
    *("4.1", "4.2", "4.2a", "4.2b", "4.2c", "4.3", "4.4", "4.5", "4.6"),
    "5.1",
    *("6.1", "6.2", "6.3", "6.4"),
    *("7.1", "7.2", "7.3"),
    *(f"9.{n}" for n in range(1, 12)),
)

#: Where citations are looked for: the repository's own text files.
SCANNED = ("src/", "tests/", "tools/", "docs/", "examples/", "README.md")

_HEADING = re.compile(r"^#{2,4}[ \t]+(\d+(?:\.\d+)?[a-z]?)\.?[ \t]+\S", re.MULTILINE)
#: One point: a section, a point, a lettered case ("4.2b"). A letter must end the word, so
#: that "7.2 a partner" is 7.2.
_REF = r"\d+(?:\.\d+)?(?:[a-z](?![A-Za-z]))?"
#: What may stand between "RULES.md" and its number: spaces, and a line break into a comment.
_GAP = r"(?:\s|#|//|\*)*"
_CITATION = re.compile(
    rf"RULES\.md(?:'s)?{_GAP}(?:sections?{_GAP})?"
    rf"(?P<refs>{_REF}(?:\s*(?:,|;|and|or|-|–|/)\s*{_REF})*)"
    rf"(?:,?\s+case\s+(?P<case>\d+))?"
)


def headings(text: str) -> set[str]:
    """The numbers of the numbered headings of a rules text: "4", "4.2", "4.2b"."""
    return set(_HEADING.findall(text))


def citations(text: str, lettered: Collection[str] = ("3.2", "4.2")) -> Iterator[str]:
    """The points of the rules that ``text`` cites: after "RULES.md" (each end of a range, each
    of a list; "RULES.md 9 case 10" is 9 and 9.10), and the bare lettered cases of the points
    ``lettered`` ("(4.2b)"), which nothing else is written like."""
    for found in _CITATION.finditer(text):
        yield from re.findall(_REF, found["refs"])
        if found["case"]:
            yield f"9.{found['case']}"
    bare = "|".join(re.escape(p) for p in sorted(lettered))
    if bare:
        yield from re.findall(rf"(?<![\w.])((?:{bare})[a-z])(?!\w)", text)


def _files() -> list[Path]:
    """The repository's files where citations are looked for: those git knows of (tracked, or
    new and not ignored), else every file under ``SCANNED``."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *SCANNED],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        paths = [ROOT / p for p in listed]
    except (OSError, subprocess.CalledProcessError):
        paths = [
            p for s in SCANNED for p in ([ROOT / s] if s.endswith(".md") else (ROOT / s).rglob("*"))
        ]
    return [p for p in paths if p.is_file() and "__pycache__" not in p.parts]


def _text(path: Path) -> str | None:
    """A file's text, or ``None`` for a binary file."""
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _section(text: str, number: int) -> str:
    """The text of section ``number`` of a rules text, up to the next section."""
    start = re.search(rf"^## {number}\.", text, re.MULTILINE)
    assert start is not None, f"no section {number}"
    end = re.search(r"^## \d+\.", text[start.end() :], re.MULTILINE)
    return text[start.start() : start.end() + end.start() if end else len(text)]


# -- the helpers, on texts of their own: a citation of a point that is not there is found ---------


def test_citations_are_read_in_every_form_the_repository_writes() -> None:
    rules = "RULES" + ".md"  # not itself a citation this file makes
    text = (
        f"({rules} 4.2b) {rules} 7.2 a partner, {rules} 2.4, 3, 4 and 5.1; {rules} 4.1-4.2 "
        f"{rules} sections 3-5, {rules} 1–6 and the variants, {rules}'s section 8, "
        f"{rules} 9 case 11, {rules} 9, case 10, private ({rules}\n    # 7.3). {rules} says. "
        "Bare: (3.2a, 3.3) and 4.2c; not 0.2s, not 1.5b, not v4.2b."
    )
    assert list(citations(text)) == [
        "4.2b", "7.2", "2.4", "3", "4", "5.1", "4.1", "4.2", "3", "5", "1", "6", "8",
        "9", "9.11", "9", "9.10", "7.3", "4.2b", "3.2a", "4.2c",
    ]  # fmt: skip


def test_a_citation_of_a_missing_point_is_caught() -> None:
    known = headings("## 4. Declarations\n### 4.2 Window\n#### 4.2b Ask whole\n## 9. Cases\n")
    assert known == {"4", "4.2", "4.2b", "9"}
    # Written in pieces so that this file cites none of them itself.
    rules, missing, bare = "RULES" + ".md", "4.5" + "b", "4.2" + "d"
    text = f"({rules} {missing}), {rules} 4.2b, {rules} 9 case 12, and {bare}"
    assert set(citations(text)) - known == {missing, "9.12", bare}


# -- docs/RULES.md ----------------------------------------------------------------------------


def test_every_point_of_the_rules_has_a_heading() -> None:
    found = headings(RULES.read_text(encoding="utf-8"))
    assert sorted(set(POINTS) - found) == []
    assert sorted(found - set(POINTS)) == []  # no heading numbered outside the rules


def test_every_citation_in_the_repository_names_a_heading_of_the_rules() -> None:
    known = headings(RULES.read_text(encoding="utf-8"))
    lettered = {p[:-1] for p in known if p[-1].isalpha()}
    files = _files()
    assert any(p.name == "refusal.py" for p in files)  # the scan reaches the engine
    wrong = []
    seen = 0
    for path in files:
        text = _text(path)
        if text is None:
            continue
        for point in citations(text, lettered):
            seen += 1
            if point not in known:
                wrong.append(f"{path.relative_to(ROOT)}: {point}")
    assert wrong == []
    assert seen > 200  # the citations were found, not missed by a broken pattern


@pytest.mark.parametrize("name", list(SWITCHES))
def test_every_variant_switch_is_in_section_8_with_its_default(name: str) -> None:
    section = _section(RULES.read_text(encoding="utf-8"), 8)
    head = re.search(rf"^### {name}$", section, re.MULTILINE)
    assert head is not None, f"no heading for variant {name} in section 8"
    nxt = re.search(r"^### ", section[head.end() :], re.MULTILINE)
    own = section[head.end() : head.end() + nxt.start() if nxt else len(section)]
    default = getattr(Variant(), name)
    written = [str(v).lower() if isinstance(v, bool) else str(v) for v in SWITCHES[name]]
    assert default == SWITCHES[name][0]
    assert re.match(rf"\s*\*\*{re.escape(written[0])}\*\*(?!\w)", own), own  # default first, bold
    for value in written[1:]:
        assert re.search(rf"(?<![\w*]){re.escape(value)}(?![\w*])", own), (name, value)


def test_the_variant_switches_are_the_fields_of_variant() -> None:
    from dataclasses import fields

    assert [f.name for f in fields(Variant)] == list(SWITCHES)


# -- docs/RECORD.md ---------------------------------------------------------------------------


def _example() -> str:
    blocks = re.findall(r"```json\n(.*?)```", RECORD.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, "docs/RECORD.md has one example record, in a json block"
    return str(blocks[0])


def test_the_example_record_reads_and_replays() -> None:
    record = Record.from_json(_example())
    match = record.replay()
    assert len(match.deals) == 2 and match.deals[0].is_over() and not match.deals[1].is_over()
    assert match.score == (3, 1)  # as the page says
    assert record.meta is not None and record.deals[0].meta is not None
    # Written again from the match, as the terminal game saves it: every dealer written out,
    # the metas kept, the same match.
    again = Record.from_json(Record.of_match(match, kept=record).to_json())
    assert [d.dealer for d in again.deals] == [d.dealer for d in match.deals]
    assert again.meta == record.meta and again.deals[0].meta == record.deals[0].meta
    assert again.replay().score == match.score


def test_valtti_replay_accepts_the_example_record(tmp_path: Path) -> None:
    path = tmp_path / "example.json"
    path.write_text(_example(), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "--lang", "en", str(path)])
    assert result.exit_code == 0, result.output
    assert "Match: NS 3, EW 1" in result.output


# -- pointers to the documents ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "documents"),
    [("play", ["docs/RULES.md"]), ("replay", ["docs/RECORD.md", "docs/RULES.md"])],
)
def test_the_help_says_where_the_documents_are(command: str, documents: list[str]) -> None:
    shown = " ".join(CliRunner().invoke(main, [command, "--help"]).output.split())
    for document in documents:
        assert document in shown, shown
