"""The fake clock moves only when told, and always in aware UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from bot.clock import Clock
from tests.e2e.fake_clock import DEFAULT_START, FakeClock


def test_starts_fixed_and_aware() -> None:
    """Two reads without advancing give the same aware UTC moment."""
    clock = FakeClock()
    assert clock.now() == clock.now() == DEFAULT_START
    assert clock.now().tzinfo is UTC


def test_advance_and_set() -> None:
    """advance() moves forward; set() jumps and converts to UTC."""
    clock = FakeClock()
    assert clock.advance(timedelta(days=2, hours=3)) == DEFAULT_START + timedelta(days=2, hours=3)
    paris = timezone(timedelta(hours=1))
    clock.set(datetime(2025, 3, 1, 9, 0, tzinfo=paris))
    assert clock.now() == datetime(2025, 3, 1, 8, 0, tzinfo=UTC)
    assert clock.now().tzinfo is UTC


def test_refuses_backwards_and_naive() -> None:
    """Negative advances and naive datetimes are errors."""
    clock = FakeClock()
    with pytest.raises(ValueError):
        clock.advance(timedelta(seconds=-1))
    with pytest.raises(ValueError):
        clock.set(datetime(2025, 1, 1))
    with pytest.raises(ValueError):
        FakeClock(datetime(2025, 1, 1))


def test_is_a_clock() -> None:
    """FakeClock satisfies the bot's Clock protocol."""
    clock: Clock = FakeClock()
    assert isinstance(clock.now(), datetime)
