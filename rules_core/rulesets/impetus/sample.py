"""The sample battle: Caesar's legions against the Gauls, every unit in reserve before the
pre-battle procedure, on a 30 by 20 H table (120 by 80 cm at 40 mm an H)."""

from __future__ import annotations

from dataclasses import replace

from rules_core.registry import get
from rules_core.rulesets.impetus import forces
from rules_core.rulesets.impetus.profiles import load_army, unit_from_entry
from rules_core.state import RESERVE, BattleState, Leader, Side, Unit
from rules_core.steps import Cursor

WIDTH, DEPTH = 30.0, 20.0
DEPLOY = 4.0


def sample_battle(battle_id: str = "impetus-gergovia", max_turns: int = 6) -> BattleState:
    """The Roman and Gallic sample armies in reserve, ready for ``engine.begin``."""
    rules = get("impetus").rules  # rules.py imports this module: the registry holds its Rules
    assert rules is not None
    sides = (Side("romans", "Rome"), Side("gauls", "Gaul"))
    state = rules.new_battle(battle_id, "impetus", WIDTH, DEPTH, sides)
    groups = list(state.groups)
    leaders: list[Leader] = []
    units: list[Unit] = []
    for side in sides:
        army = load_army(side.id)
        more, generals = forces.forces(army, side.id)
        groups += more
        leaders += generals
        raw = army["units"]
        assert isinstance(raw, list)
        for index, entry in enumerate(raw, start=1):
            assert isinstance(entry, dict)
            group = forces.group_of(entry, army, side.id, f"{side.id}_main")
            unit = unit_from_entry(entry, f"{side.id}{index}", side.id, group)
            units.append(replace(unit, location=RESERVE))
    return replace(
        state,
        groups=tuple(groups),
        leaders=tuple(leaders),
        units=tuple(units),
        parameters={"max_turns": max_turns},
        cursor=Cursor(0, "setup", "", ("romans", "gauls")),
    )
