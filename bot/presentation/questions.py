"""A waiting question as the channel sees it: buttons, select menus, or a typed ``/answer``.

Up to 25 options are buttons; more are select menus of 25 each (Discord's limit, up to five
menus); every option can also be typed into ``/answer``, which offers them as you type. A point,
number or facing is typed into ``/answer``. Buttons and menus carry the battle and stage in
their custom id, so they still work after the bot restarts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord

from bot.presentation.formatting import mentions, timestamp
from bot.services.stages import DecisionView

# ``decision/`` is named only when several questions are open at once.
DECIDE_ID = re.compile(
    r"decide:(?P<battle>\d+):(?P<stage>\d+):(?:(?P<decision>[\w:.-]{1,40})/)?(?P<option>[\w:.-]{1,60})"
)
MENU_ID = re.compile(
    r"decide-menu:(?P<battle>\d+):(?P<stage>\d+):(?P<page>\d)(?:/(?P<decision>[\w:.-]{1,40}))?"
)
BUTTONS = 25
MENU_SIZE = 25
MENUS = 5


def question_text(decision: DecisionView, who: str, when: str) -> str:
    """The question as posted: who answers, the question, its default and how to answer."""
    how = ""
    if decision.answer in ("point", "number", "facing"):
        named = "".join(f" or `{option}` ({label})" for option, label in decision.options)
        how = f"\nAnswer with `/answer` ({answer_shape(decision)}{named})."
    elif len(decision.options) > BUTTONS:
        how = "\nPick from the menus, or type the answer into `/answer`."
    return f"{who}: {decision.question} (default **{decision.default}** {when}){how}"


PRIVATE_NOTE_MARK = ": a private question is waiting for **"
CLOSED_MARK = "\n(closed: "  # what announce.close_question adds to a post it closes


def private_note(who: str, side_name: str) -> str:
    """The channel's words for a private question: who it waits for, never what it asks."""
    return (
        f"{who}{PRIVATE_NOTE_MARK}{side_name}**: answer with `/answer` "
        "(its player also finds it in their direct messages, where they accept them)."
    )


def is_open_private_note(content: str) -> bool:
    """Whether a channel post is a private question's note not yet closed (it shows no
    buttons, so only its words tell it after a restart)."""
    return PRIVATE_NOTE_MARK in content and CLOSED_MARK not in content


def private_question_text(battle_name: str, decision: DecisionView, when: str) -> str:
    """A private question as its player reads it in a direct message."""
    return f"**{battle_name}** (private to you) — " + question_text(decision, "You", when)


def open_questions_reply(
    shown: list[tuple[DecisionView, bool]],
) -> tuple[str, discord.ui.View | None]:
    """``/answer`` with no answer, privately: every open question as the reader may see it
    (another side's private one by its public words only), with buttons for the ones theirs
    to answer."""
    lines, items = [], []
    named = len(shown) > 1
    for decision, ours in shown:
        if decision.private and not decision.options and not ours:
            lines.append(f"🔒 {decision.question}: only its player (or a GM) sees it.")
            continue
        who = "You" if ours else mentions(decision.user_ids)
        lines.append(question_text(decision, who, timestamp(decision.deadline_at)))
        buttons = decision_view(decision, named=named) if ours else None
        items += list(buttons.children) if buttons is not None else []
    view = None
    if items and len(items) <= BUTTONS:
        view = discord.ui.View(timeout=None)
        for item in items:
            view.add_item(item)
    return "\n".join(lines), view


def private_answered_text(user_id: int, choice: str, reason: str = "") -> str:
    """What the one who answered a private question reads, privately."""
    why = f" ({reason})" if reason else ""
    return f"<@{user_id}>, you answered: **{choice}**{why}. Only your side and the GM see it."


def private_answered_note(user_id: int) -> str:
    """The channel's note that a private question was answered, without the answer."""
    return f"<@{user_id}> answered a private question."


def answer_shape(decision: DecisionView) -> str:
    """What a typed answer looks like."""
    if decision.answer == "point":
        return "a point `x,y`"
    if decision.answer == "facing":
        return "a facing in degrees, 0 to 360"
    low, high = decision.low, decision.high
    return "a number" if low is None or high is None else f"a number from {low:g} to {high:g}"


def decision_view(decision: DecisionView, named: bool = False) -> discord.ui.View | None:
    """Buttons or select menus for a question picked from options; None for a typed one.
    ``named``: several questions are open, so each component names its question."""
    if decision.answer in ("point", "number", "facing"):
        return None
    view = discord.ui.View(timeout=None)
    options, which = decision.options, decision.decision_id if named else ""
    battle, stage = decision.battle_id, decision.stage
    if len(options) <= BUTTONS:
        for option, label in options:
            view.add_item(DecisionButton(battle, stage, option, label, which))
        return view
    for page in range(min(MENUS, -(-len(options) // MENU_SIZE))):
        chunk = options[page * MENU_SIZE : (page + 1) * MENU_SIZE]
        view.add_item(DecisionMenu(battle, stage, page, chunk, which))
    return view


@dataclass(frozen=True)
class Click:
    """An answer from a button or a menu: the question's battle, stage and id (when several
    are open), the option chosen and the words shown for it."""

    battle_id: int
    stage: int
    decision: str | None
    choice: str
    shown: str


class AnswersClicks(Protocol):
    """The bot as a button or menu reaches it: it answers and posts what follows (the
    presentation words the question; delivering the answer's result is the bot's)."""

    async def answer_click(self, interaction: discord.Interaction, click: Click) -> None:
        """Answer from a click or a pick and post what follows."""


async def _answer(interaction: discord.Interaction, click: Click) -> None:
    """Hand a click or a pick to the bot that received it."""
    await cast(AnswersClicks, interaction.client).answer_click(interaction, click)


class DecisionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DECIDE_ID.pattern):
    """One answer to a question; its custom id carries the battle, stage and option."""

    def __init__(
        self, battle_id: int, stage: int, option: str, label: str = "", decision: str = ""
    ) -> None:
        which = f"{decision}/" if decision else ""
        super().__init__(
            discord.ui.Button(
                label=(label or option)[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"decide:{battle_id}:{stage}:{which}{option}",
            )
        )
        self.battle_id, self.stage, self.option = battle_id, stage, option
        self.decision = decision or None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DecisionButton:
        """Rebuild the button from a click."""
        battle, stage, decision = int(match["battle"]), int(match["stage"]), match["decision"]
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(battle, stage, match["option"], label or "", decision or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer the question and post what follows."""
        shown = self.item.label or self.option
        await _answer(
            interaction, Click(self.battle_id, self.stage, self.decision, self.option, shown)
        )


class DecisionMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_ID.pattern):
    """A select menu of up to 25 of a question's options; one of up to five."""

    def __init__(
        self,
        battle_id: int,
        stage: int,
        page: int,
        options: tuple[tuple[str, str], ...] = (),
        decision: str = "",
    ) -> None:
        first, last = page * MENU_SIZE + 1, page * MENU_SIZE + len(options)
        choices = [discord.SelectOption(label=text[:100], value=value) for value, text in options]
        super().__init__(
            discord.ui.Select(
                custom_id=f"decide-menu:{battle_id}:{stage}:{page}"
                + (f"/{decision}" if decision else ""),
                placeholder=f"Answers {first}–{last}" if options else "Answers",
                options=choices or [discord.SelectOption(label="…", value="…")],
            )
        )
        self.battle_id, self.stage, self.decision = battle_id, stage, decision or None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DecisionMenu:
        """Rebuild the menu from a pick."""
        battle, stage, page = int(match["battle"]), int(match["stage"]), int(match["page"])
        return cls(battle, stage, page, (), match["decision"] or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer with the picked option."""
        data: Mapping[str, object] = interaction.data or {}
        picked = data.get("values")  # a JSON list in a select's payload
        values = [str(v) for v in picked] if isinstance(picked, list) else []
        if not values:
            return
        await _answer(
            interaction, Click(self.battle_id, self.stage, self.decision, values[0], values[0])
        )
