"""The Combat step: both sides shoot, then every melee is fought (owned by wave-pasB)."""

from __future__ import annotations

from rules_core.context import Context


def resolve(ctx: Context) -> None:
    """Shooting then melee, saves, results, impetuous pursuit, cavalry break-off (wave-pasB)."""
