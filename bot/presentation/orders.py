"""How orders read to the player who gives them."""

from __future__ import annotations

from bot.presentation.announce import mentions
from bot.services.play import Confirmed, OrderView

RESOLVING = "Confirmed: every order is in, resolving."


def preview_text(view: OrderView) -> str:
    """The private answer to an order: what it will do."""
    notes = "".join(f"\n• {note}" for note in view.notes)
    return f"✅ **{view.unit_name}**: {view.summary}{notes}\n(secret until the step resolves)"


def withdrawn_text(view: OrderView) -> str:
    """The private answer to withdrawing an order."""
    if view.remaining:
        return f"Withdrawn: **{view.unit_name}**'s {view.kind} order; {view.remaining} left."
    return f"Withdrawn: **{view.unit_name}** will follow its default."


def waiting_text(confirmed: Confirmed) -> str:
    """The private answer to ``/order done`` while others have still to confirm (or when a
    deadline or a GM resolved the step first)."""
    if not confirmed.side_names:
        return "Confirmed. The step has just been resolved; its result is in the channel."
    return (
        f"Confirmed. Still waiting for {', '.join(confirmed.side_names)} "
        f"({mentions(confirmed.waiting_for)})."
    )


def orders_text(views: list[OrderView]) -> str:
    """A player's orders for the step, one a line."""
    text = "\n".join(f"**{v.unit_name}** ({v.kind}): {v.summary}" for v in views)
    return text[:2000] or "You have given no orders for this step."
