"""Time as the bot sees it: one injectable clock, so tests can run deadlines forward."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Anything that tells the current time as an aware UTC datetime."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        return datetime.now(UTC)
