"""Members' names on the war table: the display names Discord shows, from the names the bot
already keeps (no Discord call per request), else the member's id."""

from __future__ import annotations

from collections.abc import Callable, Iterable

# A member's display name in a guild (guild id, user id), None when the bot knows none.
Namer = Callable[[int, int], str | None]


def names_of(namer: Namer | None, guild_id: int, user_ids: Iterable[int]) -> dict[int, str]:
    """The display names of these members the bot knows."""
    if namer is None:
        return {}
    found = {user_id: namer(guild_id, user_id) for user_id in set(user_ids)}
    return {user_id: name for user_id, name in found.items() if name}
