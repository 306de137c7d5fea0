"""Fixtures for every test: nothing a test runs writes into the user's own data directory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def own_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The terminal game's autosave and the web's default database go to a folder of the run's
    own (platformdirs reads ``XDG_DATA_HOME``); processes the tests start inherit it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
        yield
