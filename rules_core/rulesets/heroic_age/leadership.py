"""The Leadership phase: LPs, leader actions, camp followers (owned by wave-gods; placeholder)."""

from __future__ import annotations

from rules_core.context import Context
from rules_core.orders import OrderKind

# The order kinds of the leader actions; the rules add them to their own and to the Leadership
# step (owned by wave-gods).
ORDER_KINDS: tuple[OrderKind, ...] = ()


def resolve(ctx: Context) -> None:
    """The Leadership step: nothing yet (owned by wave-gods)."""
