"""How standing instructions read to the player who sets them."""

from __future__ import annotations

from bot.services.standing import StandingView

NONE_SET = (
    "No standing instructions. Set one with `/standing set`: the bot then answers that kind "
    "of question for you at once, without waiting."
)


def instruction_words(view: StandingView) -> str:
    """``Red · Red Horse · response to a charge: evade if the enemy is mounted``."""
    whose = f"**{view.side}**" + (f" · **{view.unit}**" if view.unit else "")
    when = f" {view.condition}" if view.condition else ""
    return f"{whose} · {view.topic}: **{view.choice}**{when}"


def standing_list_text(views: list[StandingView]) -> str:
    """Every standing instruction the player may see, one a line."""
    if not views:
        return NONE_SET
    lines = [f"• {instruction_words(v)}" for v in views]
    return ("Standing instructions (a unit's own come before its side's):\n" + "\n".join(lines))[
        :2000
    ]


def standing_set_text(view: StandingView) -> str:
    """The private confirmation of a new standing instruction."""
    return (
        f"✅ Standing instruction set: {instruction_words(view)}.\n"
        "Such questions are now answered at once, and the battle log says so. "
        "`/standing clear` takes it back."
    )


def standing_cleared_text(views: list[StandingView]) -> str:
    """The private answer to ``/standing clear``."""
    if not views:
        return "No standing instructions matched; nothing was cleared."
    lines = "\n".join(f"• {instruction_words(v)}" for v in views)
    return f"Cleared {len(views)} standing instruction{'s' if len(views) != 1 else ''}:\n{lines}"[
        :2000
    ]
