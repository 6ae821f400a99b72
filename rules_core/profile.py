"""Roster values of a unit (clash, morale save, missile, armour): its profile, never its status.

Status the rules change in play is declared in the ruleset's ``status.py`` and read through its
declaration; these read only what the army list gave the unit.
"""

from __future__ import annotations

from rules_core.codec import Json
from rules_core.state import Unit


def number(unit: Unit, key: str, default: int = 0) -> int:
    """A whole-number roster value, or ``default`` when the profile has none."""
    value = unit.profile.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return default
    return int(value)


def flag(unit: Unit, key: str) -> bool:
    """A true-or-false roster value (only ``True`` counts)."""
    return unit.profile.get(key) is True


def text(unit: Unit, key: str, default: str = "") -> str:
    """A text roster value, or ``default`` when the profile has none."""
    value = unit.profile.get(key, default)
    return value if isinstance(value, str) else default


def value(unit: Unit, key: str, default: Json = None) -> Json:
    """A roster value as the army list gave it (a number that may be whole or not)."""
    return unit.profile.get(key, default)
