"""Shooting (owned by wave-impB; this is wave-impA's placeholder: no hits).

``resolve(ctx, shooter, target, **facts)`` carries out one unit's shooting at a target it was
ordered to shoot (the caller has checked the order is legal): dice from the shooting table,
situational modifiers, hits and the target's cohesion test. ``facts``: ``reaction=True`` for
reaction or defensive fire.
"""

from __future__ import annotations

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.state import Unit


def resolve(ctx: Context, shooter: Unit, target: Unit, **facts: Json) -> None:
    """Placeholder (owned by wave-impB): the shot misses."""
