"""Melee (owned by wave-impB; this is wave-impA's placeholder: nothing happens).

``resolve(ctx, attacker, defender, *, impact)`` fights one melee between two units in contact:
``impact=True`` when ``attacker`` has just charged into contact in its activation (impact
bonus), ``False`` for a drawn melee fought again when either unit next activates. It writes
losses, cohesion, retreats and pursuits, and ``melee_with`` / ``melee_pending`` when drawn.
"""

from __future__ import annotations

from rules_core.context import Context
from rules_core.state import Unit


def resolve(ctx: Context, attacker: Unit, defender: Unit, *, impact: bool) -> None:
    """Placeholder (owned by wave-impB): no blows are struck."""
