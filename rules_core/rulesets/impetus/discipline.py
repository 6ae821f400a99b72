"""Discipline tests (owned by wave-impB; this is wave-impA's placeholder: every test passes).

``test(ctx, unit, kind, **facts)`` takes a discipline test of one kind (``KINDS``) for a unit
and returns a ``TestResult`` whose ``passed`` says whether it passed. ``facts`` carry what the
caller knows that state does not (``moves=3`` for a third move, ``charger=<unit id>``,
``evades=2``, ``fragmented=True`` ...).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.state import Unit

KINDS = (
    "second_move", "frenzy", "reaction", "defensive_fire", "close_ranks", "countercharge",
    "rally", "evasion", "disengagement",
)  # fmt: skip


@dataclass(frozen=True)
class TestResult:
    """A discipline test's outcome (wave-impB adds the dice and modifiers)."""

    passed: bool
    text: str = ""


def test(ctx: Context, unit: Unit, kind: str, **facts: Json) -> TestResult:
    """Placeholder (owned by wave-impB): every discipline test passes."""
    if kind not in KINDS:
        raise ValueError(f"unknown discipline test {kind!r}")
    return TestResult(True, "passed (placeholder)")
