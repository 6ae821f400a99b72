"""What a war-table page shows, drawn for one reader (stub: filled by the page work of #34)."""

from __future__ import annotations

from typing import Any

from bot.services import Services
from bot.web.reader import Reader


async def table_page(services: Services, reader: Reader) -> str:
    """The page's HTML for this reader."""
    return '<!doctype html><title>War table</title><main id="table"></main>'


async def map_svg(services: Services, reader: Reader) -> str:
    """The battle as SVG, in the reader's view."""
    return '<svg xmlns="http://www.w3.org/2000/svg" id="map"></svg>'


async def table_state(services: Services, reader: Reader) -> dict[str, Any]:
    """Everything the page shows besides the map, as JSON-ready data, in the reader's view."""
    return {}


async def replay_index(services: Services, reader: Reader) -> dict[str, Any]:
    """The stored stages of the battle the reader may replay."""
    return {"frames": []}


async def replay_frame(services: Services, reader: Reader, number: int) -> str:
    """One stage of the replay as SVG, in the reader's view."""
    return '<svg xmlns="http://www.w3.org/2000/svg"></svg>'
