"""Run in the engine's worker by the lean-worker test: what the worker process imported."""

from __future__ import annotations

import sys


def imported(*names: str) -> list[str]:
    """Which of these modules the process calling this has imported."""
    return [name for name in names if name in sys.modules]
