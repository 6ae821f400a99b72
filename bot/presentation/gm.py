"""How the GM's changes and rulings read in the channel."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.presentation.formatting import plain
from bot.services.gm import Change, GmChange, Placement, TimeLeft

UNDO_QUESTION = (
    "Go back to the start of the previous step? Its results are discarded, orders "
    "given since are cleared, and the step is replayed with fresh dice."
)
_DONE = {
    Change.PAUSE: "paused the battle",
    Change.RESUME: "resumed the battle",
    Change.EXTEND: "extended the deadline",
    Change.UNDO: "undid a step",
}


def change_text(change: GmChange) -> str:
    """A GM's change as the channel reads it."""
    return (
        f"🛠️ <@{change.gm_id}> {change_what(change)}: {plain(change.reason)}\n"
        f"Before: {_show(change.before)}\nAfter: {_show(change.after)}"
    )


def change_what(change: GmChange) -> str:
    """What the GM did, in a few words."""
    if change.change is Change.SET:
        return f"set {change.field} of **{plain(change.unit)}**"
    if change.change is Change.MOVE:
        return f"moved **{plain(change.unit)}**"
    if change.change is Change.OFF_TABLE:
        return f"took **{plain(change.unit)}** off the table"
    if change.change is Change.ON_TABLE:
        return f"put **{plain(change.unit)}** back on the table"
    if change.change is Change.TERRAIN:
        return "laid terrain" if change.before is None else "lifted terrain"
    return _DONE[change.change]


def forced_text(gm_id: int, title: str) -> str:
    """The public note that a GM resolved a step early."""
    return f"🛠️ <@{gm_id}> forced **{title}**."


def ruled_text(gm_id: int, choice: str, reason: str = "") -> str:
    """The public note that a GM answered the waiting question, and why."""
    why = f" ({reason})" if reason else ""
    return f"🛠️ <@{gm_id}> ruled: **{choice}**{why}."


def answered_text(user_id: int, choice: str, reason: str = "") -> str:
    """The public note that someone answered the waiting question with ``/answer``."""
    why = f" ({reason})" if reason else ""
    return f"<@{user_id}> answered: **{choice}**{why}."


def _show(value: Any) -> str:
    """A value before or after a change, by its type."""
    if isinstance(value, TimeLeft):
        return _left(value.seconds)
    if isinstance(value, datetime):
        return _stamp(value)
    if isinstance(value, Placement):
        return f"({value.x:g}, {value.y:g}) facing {value.facing:g}°"
    return "(unset)" if value is None else str(value)


def _stamp(when: datetime) -> str:
    """A moment each reader sees in their own time zone, with date and time."""
    return f"<t:{int(when.timestamp())}:f>"


def _left(seconds: float | None) -> str:
    """Time left on a clock, in hours."""
    if seconds is None:
        return "no deadline"
    return f"{seconds / 3600:.1f} h left on the clock"
