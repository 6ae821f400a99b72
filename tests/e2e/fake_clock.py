"""A clock the tests move by hand, so deadlines pass without sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

DEFAULT_START = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)


class FakeClock:
    """Implements bot.clock.Clock; time only moves when a test says so."""

    def __init__(self, start: datetime = DEFAULT_START) -> None:
        """Start at a fixed, aware moment."""
        self._now = _as_utc(start)

    def now(self) -> datetime:
        """The current fake time, aware, in UTC."""
        return self._now

    def advance(self, delta: timedelta) -> datetime:
        """Move time forward by delta and return the new now."""
        if delta < timedelta(0):
            raise ValueError("time only moves forward")
        self._now += delta
        return self._now

    def set(self, when: datetime) -> None:
        """Jump to an exact moment (forward or back)."""
        self._now = _as_utc(when)


def _as_utc(when: datetime) -> datetime:
    """The same instant in UTC; naive datetimes are refused."""
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError("naive datetime; give a timezone")
    return when.astimezone(UTC)
