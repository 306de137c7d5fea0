"""Fixtures for every test: nothing a test runs writes into the user's own data directory.

And the test tiers (CONTRIBUTING.md): a test of one of the slow ``KINDS`` is ``slow`` too, and
plain ``pytest`` leaves ``slow`` tests out (``addopts`` in pyproject.toml); ``pytest -m ""``
runs every test. A test is of a kind by its marker (``pytestmark`` in its module, a decorator,
a marked parameter) or by the fixtures it uses (``FIXTURE_KINDS``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

#: The kinds of test that need more than this process and its files, or long: each is ``slow``.
KINDS = ("browser", "postgres", "serve", "e2e", "tools")

#: Fixtures that make a test of a kind, wherever it asks for them (directly or through another
#: fixture): real ``valtti serve`` processes (tests/web/conftest.py), and Playwright's Chromium
#: (tests/web/test_browser.py, test_browser_reach.py).
FIXTURE_KINDS = {"server": "serve", "start_server": "serve", "browser": "browser"}


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = {mark.name for mark in item.iter_markers()}
        fixtures = getattr(item, "fixturenames", ())
        kinds = {kind for name, kind in FIXTURE_KINDS.items() if name in fixtures} - names
        for kind in sorted(kinds):
            item.add_marker(kind)
        if "slow" not in names and kinds | (names & set(KINDS)):
            item.add_marker("slow")


@pytest.fixture(autouse=True, scope="session")
def own_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The terminal game's autosave and the web's default database go to a folder of the run's
    own (platformdirs reads ``XDG_DATA_HOME``); processes the tests start inherit it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
        yield


@pytest.fixture
def bot_dir(tmp_path: Path) -> Path:
    """``tmp_path``, readable by every user: a bot written there runs in the sandbox as the
    user nobody when the tests run as root (players.sandbox)."""
    tmp_path.chmod(0o755)
    return tmp_path
