"""Who reads a war-table page: the campaign, the member (or a spectator) and their seat now.

The dataclass lives with the service that finds it (``bot.services.web_links``), a floor
below the web package, so the services never import the web layer.
"""

from __future__ import annotations

from bot.services.web_links import Reader

__all__ = ["Reader"]
