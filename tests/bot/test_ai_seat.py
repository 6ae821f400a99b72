"""Who `/battle hand-over member:` names (#36): the AI general, a mention, an id; else refused."""

from __future__ import annotations

import pytest

from bot.errors import InvalidInput
from bot.services.ai_seat import AI_GENERAL, holder_id

MEMBER = 1325796006297600008


@pytest.mark.parametrize("typed", ["ai", " AI ", "AI general", "the AI general"])
def test_the_ai_general_by_name(typed: str) -> None:
    assert holder_id(typed) == AI_GENERAL


@pytest.mark.parametrize("typed", [f"<@{MEMBER}>", f"<@!{MEMBER}>", str(MEMBER)])
def test_a_member_by_mention_or_id(typed: str) -> None:
    assert holder_id(typed) == MEMBER


@pytest.mark.parametrize("typed", ["zzz", "@alice", "<@>", "<@12>", "1", "<#123456789>"])
def test_anything_else_is_refused_saying_what_would_do(typed: str) -> None:
    with pytest.raises(InvalidInput, match="names no one: give a member"):
        holder_id(typed)
