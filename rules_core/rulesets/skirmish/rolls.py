"""The rolls the skirmish resolvers make and its odds read: a melee pool and a rally test."""

from __future__ import annotations

from rules_core import profile
from rules_core.dice import Modifier, Purpose
from rules_core.odds import RollSpec
from rules_core.rulesets.skirmish import tables
from rules_core.rulesets.skirmish.status import CHARGED, DISORDERED
from rules_core.state import Unit


def melee_roll(unit: Unit, enemy: Unit) -> RollSpec:
    """A unit's melee pool against an enemy, with its modifiers."""
    dice = profile.value(unit, "melee", 1)
    assert isinstance(dice, int)
    rows = [flag.key for flag in (CHARGED, DISORDERED) if flag.of(unit)]
    modifiers = tuple(Modifier(tables.modifier(row, "melee"), row) for row in rows)
    need = tables.TO_HIT.lookup("melee", "short")
    assert isinstance(need, int)
    label = f"Melee: {unit.name} against {enemy.name}"
    why = Purpose(unit.id, "melee", enemy.id, "short")
    return RollSpec(label, dice, mode="pool", target=need, modifiers=modifiers, purpose=why)


def rally_roll(unit: Unit) -> RollSpec:
    """A disordered unit's rally test."""
    return RollSpec(f"Rally: {unit.name}", 1, purpose=Purpose(unit.id, "rally"))
