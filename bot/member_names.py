"""The display names the bot has seen: each member's as their last command showed it, else
the client's caches; never a call to Discord (the war table asks on every page)."""

from __future__ import annotations

import discord

MAX_KEPT = 50_000  # members remembered at most (the oldest forgotten first)


class MemberNames:
    """Display names by (guild, member), learned from the interactions the bot receives."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._seen: dict[tuple[int, int], str] = {}

    async def learn(self, interaction: discord.Interaction) -> None:
        """Keep the display name a member's interaction carries (their nickname in the guild,
        else their global name, else their username)."""
        if interaction.guild_id is None:
            return
        key = (interaction.guild_id, interaction.user.id)
        self._seen.pop(key, None)  # re-inserted last: the most recently seen
        self._seen[key] = interaction.user.display_name
        if len(self._seen) > MAX_KEPT:
            del self._seen[next(iter(self._seen))]

    def name(self, guild_id: int, user_id: int) -> str | None:
        """A member's display name as the bot last saw it, or as the client caches it."""
        seen = self._seen.get((guild_id, user_id))
        if seen is not None:
            return seen
        guild = self.client.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        user = member or self.client.get_user(user_id)
        return user.display_name if user is not None else None
