"""A refused request, as docs/WEB.md writes it, and a store that did not take an action."""

from __future__ import annotations

import json
from typing import Any


class RoomError(Exception):
    """A refused request: the ``code`` and ``message`` of docs/WEB.md, and extra fields."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def frame(self) -> str:
        return json.dumps(
            {"type": "error", "code": self.code, "message": self.message, **self.extra}
        )


class WriteFailed(Exception):
    """The store refused an action: it was not played, and sending it again may succeed."""
