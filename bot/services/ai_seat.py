"""The AI general's seat (#36): the user id a battle side's row holds while the AI plays it.

Kept apart so that the services that hand a side over, and the one that plays it, read the
same id without importing each other. Discord's ids are 17 digits and more: 1 is no one's.
"""

from __future__ import annotations

from bot.errors import InvalidInput

AI_GENERAL = 1  # owner_id of a side the AI holds; its orders are kept under this user id
AI_NAME = "the AI general"
AI_TITLE = "The AI general"
STAND_IN_ANSWERS = "deadline: answers by the AI stand-in"  # a result's trigger (fits its column)


def is_ai(user_id: int) -> bool:
    """Whether a side's holder (or an order's giver) is the AI general."""
    return user_id == AI_GENERAL


def holder_id(typed: str) -> int:
    """Who ``/battle hand-over member:`` names: ``ai`` (the AI general), a member's mention or
    id; anything else is refused."""
    text = typed.strip()
    if text.casefold() in ("ai", "ai general", AI_NAME.casefold()):
        return AI_GENERAL
    mention = text.startswith("<") and text.endswith(">") and text[1:2] == "@"
    digits = text[2:-1].removeprefix("!") if mention else text  # a mention as Discord sends it
    if not (digits.isdigit() and 5 <= len(digits) <= 20):
        raise InvalidInput(
            f"`{typed[:40]}` names no one: give a member (`@them`, as offered) or `ai` for "
            "the AI general."
        )
    return int(digits)
