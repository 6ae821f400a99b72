"""News of a battle's change for open pages (stub: filled by the live work of #34)."""

from __future__ import annotations

from aiohttp import web


class Hub:
    """Where the bot says a battle changed, and open pages hear it."""

    def publish(self, battle_id: int) -> None:
        """Tell every page open on this battle that it changed (no content: pages fetch their
        own view again)."""


async def stream(request: web.Request, hub: Hub, battle_id: int) -> web.StreamResponse:
    """The page's event stream of this battle (placeholder until the live work lands: an
    empty stream that ends at once)."""
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    await response.write_eof()
    return response
