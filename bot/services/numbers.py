"""Numbers entering a service: every one finite, whatever layer it came through."""

from __future__ import annotations

import math

from bot.errors import InvalidInput


def check_finite(**numbers: float | None) -> None:
    """Refuse the first number given that is NaN or infinite (None is not given); checked at
    each service entry, as NaN compares false with every bound and would be stored."""
    for name, value in numbers.items():
        if value is not None and not math.isfinite(value):
            raise InvalidInput(f"`{name}` must be a finite number, not `{value}`.")
