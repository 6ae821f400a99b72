"""The display names the bot keeps for the war table: a member's as their last interaction
showed it, else the client's caches, else none; bounded."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import bot.member_names as member_names
from bot.member_names import MemberNames


class Client:
    """A client whose caches know one user (no guild members cached)."""

    def get_guild(self, guild_id: int) -> Any:
        return None

    def get_user(self, user_id: int) -> Any:
        return SimpleNamespace(display_name="Cached Carol") if user_id == 3 else None


def interaction(guild_id: int | None, user_id: int, name: str) -> Any:
    """An interaction as discord.py gives it: its guild and its user's display name."""
    return SimpleNamespace(guild_id=guild_id, user=SimpleNamespace(id=user_id, display_name=name))


async def test_the_last_interaction_names_a_member_in_its_guild() -> None:
    names = MemberNames(Client())  # type: ignore[arg-type]
    await names.learn(interaction(10, 1, "Alice"))
    await names.learn(interaction(10, 1, "Queen Alice"))  # renamed since
    await names.learn(interaction(None, 2, "Bob in a DM"))  # no guild: not a member's name
    assert names.name(10, 1) == "Queen Alice"
    assert names.name(11, 1) is None  # another server: not known there
    assert names.name(10, 2) is None
    assert names.name(10, 3) == "Cached Carol"  # the client's cache


async def test_the_oldest_name_is_forgotten_past_the_bound(monkeypatch: Any) -> None:
    monkeypatch.setattr(member_names, "MAX_KEPT", 2)
    names = MemberNames(Client())  # type: ignore[arg-type]
    for user_id in (1, 2, 1, 4):  # 1 seen again: 2 is then the oldest
        await names.learn(interaction(10, user_id, f"m{user_id}"))
    assert (names.name(10, 1), names.name(10, 2), names.name(10, 4)) == ("m1", None, "m4")
