"""The sheet's combat, saving, results, pursuit, disorder, fatigue and General Will tables
(owned by wave-pasB)."""

from __future__ import annotations

from rules_core.plugin import Table
from rules_core.state import Unit

ALL: tuple[Table, ...] = ()


def shooting_range(unit: Unit) -> float:
    """The unit's shooting range in inches from the combat dice table (0 for none)."""
    return 0.0
