"""Reactions of the side not activating (owned by wave-impB; wave-impA's placeholder).

``offer(ctx, trigger, unit, enemy, **facts)`` offers the reactions a trigger allows to the
other side's unit ``unit`` (a question to its player, answerable by standing instructions,
showing nothing of the active side's orders not yet carried out) and carries out the one
chosen, returning its id ("none" if none). Triggers: ``charged`` (``unit`` is charged by
``enemy``: defensive fire, close ranks, countercharge, evasion) and ``moved`` (``enemy`` moved
near ``unit``: opportunity charge or fire).
"""

from __future__ import annotations

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.state import Unit

TRIGGERS = ("charged", "moved")


def offer(ctx: Context, trigger: str, unit: Unit, enemy: Unit, **facts: Json) -> str:
    """Placeholder (owned by wave-impB): no reaction."""
    if trigger not in TRIGGERS:
        raise ValueError(f"unknown reaction trigger {trigger!r}")
    return "none"
