"""How standing instructions read to the player who sets them."""

from __future__ import annotations

import re
from typing import Any, Protocol, cast

import discord

from bot.services.standing import RecommendedView, StandingView

# The battle and the side whose player may accept; kept in the id, so it works after a restart.
RECOMMEND_ID = re.compile(r"recommend:(?P<battle>\d+):(?P<side>[\w:.-]{1,60})")
ACCEPT_LABEL = "Accept the recommended instructions"
NONE_RECOMMENDED = "These rules recommend no standing instructions."

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


def recommended_words(view: RecommendedView) -> str:
    """``response to a charge: **stand to receive** (else counter-charge) if … — why``."""
    first, *others = view.choices
    rest = f" (else {', '.join(others)})" if others else ""
    when = f" {view.condition}" if view.condition else ""
    return f"{view.topic}: **{first}**{rest}{when} — {view.why}"


def recommended_text(views: list[RecommendedView]) -> str:
    """``/standing recommended``: what an experienced player sets, and what each means."""
    if not views:
        return NONE_RECOMMENDED
    lines = "\n".join(f"• {recommended_words(v)}" for v in views)
    return (
        "Recommended standing instructions (what an experienced player answers every time; "
        "the first choice a question offers is used):\n"
        f"{lines}\n"
        f"**{ACCEPT_LABEL}** below sets them all for your side; `/standing set` changes one, "
        "`/standing clear` takes them back."
    )[:2000]


def accepted_text(views: list[StandingView]) -> str:
    """The private answer to accepting the recommended instructions."""
    topics = list(dict.fromkeys(v.topic for v in views))
    side = views[0].side if views else "your side"
    return (
        f"✅ **{side}** now follows the recommended standing instructions on {len(topics)} "
        f"kind{'s' if len(topics) != 1 else ''} of question: "
        f"{'; '.join(topics)}.\n"
        "Those questions are answered at once, and the battle log says so. "
        "`/standing list` shows them; `/standing clear` takes them back."
    )[:2000]


class AcceptsRecommended(Protocol):
    """The bot as the accept button reaches it: it sets the instructions and posts what
    follows (a question they answer may be open)."""

    async def accept_recommended(
        self, interaction: discord.Interaction, battle_id: int, side_id: str
    ) -> None:
        """Accept the recommended instructions for a side and post what follows."""


class RecommendButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=RECOMMEND_ID.pattern
):
    """The one button that sets every recommended standing instruction for a side."""

    def __init__(self, battle_id: int, side_id: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=ACCEPT_LABEL,
                style=discord.ButtonStyle.success,
                custom_id=f"recommend:{battle_id}:{side_id}",
            )
        )
        self.battle_id, self.side_id = battle_id, side_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RecommendButton:
        """Rebuild the button from a click."""
        return cls(int(match["battle"]), match["side"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Set the instructions and post what follows."""
        bot = cast(AcceptsRecommended, interaction.client)
        await bot.accept_recommended(interaction, self.battle_id, self.side_id)


def recommend_view(battle_id: int, side_id: str) -> discord.ui.View:
    """A view with the accept button, which lives on after a restart."""
    view = discord.ui.View(timeout=None)
    view.add_item(RecommendButton(battle_id, side_id))
    return view
