"""Wording of the AI general (#36): its orders' reasons once a step has resolved, and a side
handed to it or back."""

from __future__ import annotations

from bot.presentation.battles import handed_over_text
from bot.presentation.formatting import plain
from bot.services.ai_seat import AI_NAME, AI_TITLE, is_ai
from bot.services.battles import HandOver
from bot.services.general import Explained


def ai_orders_text(explained: list[Explained]) -> str:
    """The AI's orders of the step just resolved, each with why, for everyone."""
    lines = [
        f"- **{plain(e.actor)}**: answered a private question"
        if e.private
        else f"- **{plain(e.actor)}**: {plain(e.summary)} — {plain(e.reason)}"
        for e in explained
    ]
    return "\n".join(
        ["🤖 The AI stand-in's orders and answers in the step just resolved:", *lines]
    )[:1900]


def handed_to_ai_text(handed: HandOver) -> str:
    """A GM gave a side to the AI general, or took it back from it."""
    if is_ai(handed.user_id):
        return (
            f"🤖 {AI_TITLE} now plays **{handed.side_name}** instead of "
            f"<@{handed.previous_id}>: it gives the side's orders and answers as each step "
            f"opens. A GM takes it back with `/battle hand-over side:{handed.side_name} "
            "member:@someone`."
        )
    return (
        f"<@{handed.user_id}> now plays **{handed.side_name}** instead of {AI_NAME}: each step "
        "and question of the side waits for them again."
    )


def hand_over_text(handed: HandOver) -> str:
    """A side handed over: to or from the AI general in its words, else as between members."""
    if is_ai(handed.user_id) or is_ai(handed.previous_id):
        return handed_to_ai_text(handed)
    return handed_over_text(handed)
