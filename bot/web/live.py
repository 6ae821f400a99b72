"""News of a battle's change for open pages (stub: filled by the live work of #34)."""

from __future__ import annotations


class Hub:
    """Where the bot says a battle changed, and open pages hear it."""

    def publish(self, battle_id: int) -> None:
        """Tell every page open on this battle that it changed (no content: pages fetch their
        own view again)."""
