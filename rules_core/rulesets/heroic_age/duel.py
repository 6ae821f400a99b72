"""Personal combat between leaders (owned by wave-gods; this is the skeleton's placeholder)."""

from __future__ import annotations

from rules_core.context import Context


def resolve(ctx: Context) -> None:
    """The personal combats of this turn: nothing yet (owned by wave-gods)."""
