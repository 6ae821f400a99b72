"""The war table's aiming: an order's verdict with the rules' facts as JSON, and the reach of a
move (``GET api/reach``); the services decide, this module only shapes their answers."""

from __future__ import annotations

from typing import Any

from bot.services.aiming import Aimed
from rules_core.aim import Aim

Point = tuple[float, float]


def facts_json(facts: Aim | None) -> dict[str, Any]:
    """The rules' facts of an aimed order: ``path``, ``used``, ``left``, ``terrain`` and, for
    an "as far as possible" move cut short, ``stops_at``; nothing when it has no line."""
    if facts is None:
        return {}
    found: dict[str, Any] = {
        "path": [list(p) for p in facts.path],
        "used": facts.used,
        "terrain": list(facts.terrain),
    }
    if facts.left is not None:
        found["left"] = facts.left
    if facts.stops_at is not None:
        found["stops_at"] = list(facts.stops_at)
    return found


def aimed_json(aimed: Aimed, text: str, extra: dict[str, Any]) -> dict[str, Any]:
    """The judge's answer: ``ok``, the verdict's ``text``, ``extra`` and the facts."""
    return {"ok": aimed.refused is None, "text": text, **extra, **facts_json(aimed.facts)}


def reach_json(outline: tuple[Point, ...]) -> dict[str, Any]:
    """The reach of a move: the outline of where the unit can get."""
    return {"outline": [list(p) for p in outline]}
