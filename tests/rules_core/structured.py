"""Checks that a battle's outcomes can be read from its events alone, without parsing text."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from dataclasses import dataclass

from rules_core import registry
from rules_core.events import (
    DiceRolled,
    Event,
    MeleeFought,
    MeleeResolved,
    Private,
    ShotFired,
    ShotResolved,
)
from tests.rules_core.scripted import Played

RULESETS = ("hail_caesar", "heroic_age", "impetus", "pike_and_shot", "skirmish", "tree_of_battles")


@functools.cache
def scripted(ruleset: str) -> Played:
    """The ruleset's scripted sample battle (the one its golden file reads), played once."""
    if ruleset == "impetus":  # its helper builds its own rules
        from tests.rules_core.rulesets.impetus.helpers import play

        return play()
    rules = registry.get(ruleset).rules
    assert rules is not None
    played: Played = importlib.import_module(f"tests.rules_core.rulesets.{ruleset}.script").play(
        rules
    )
    return played


@dataclass(frozen=True)
class Counted:
    """How many rolls, shots and melees the checks read."""

    rolls: int
    shots: int
    melees: int


def seen(events: Sequence[Event]) -> list[Event]:
    """The events with each private one in its own (GM's) form."""
    return [e.event if isinstance(e, Private) else e for e in events]


def unexplained_rolls(events: Sequence[Event]) -> list[str]:
    """The labels of rolls whose purpose does not say who rolls and for what."""
    return [
        e.roll.label
        for e in seen(events)
        if isinstance(e, DiceRolled)
        and (e.roll.purpose is None or not e.roll.purpose.roller or not e.roll.purpose.for_what)
    ]


def check_results(events: Sequence[Event]) -> Counted:
    """Assert that every shot and melee has its typed result naming the same units."""
    found = seen(events)
    fired = [(e.shooter, e.target) for e in found if isinstance(e, ShotFired)]
    shot = [(e.shooter, e.target) for e in found if isinstance(e, ShotResolved)]
    assert sorted(fired) == sorted(shot)
    fought = [e for e in found if isinstance(e, MeleeFought)]
    results = [e for e in found if isinstance(e, MeleeResolved)]
    for melee in fought:  # one result at least (a ruleset may log one per unit) names both
        assert any({melee.attacker, melee.defender} <= _units(r) for r in results)
    for result in results:
        assert (result.winner is None) == (result.loser is None)
        assert result.winner is None or {result.winner, result.loser} <= _units(result)
    rolls = sum(1 for e in found if isinstance(e, DiceRolled))
    return Counted(rolls, len(fired), len(fought))


def _units(result: MeleeResolved) -> set[str]:
    return {unit for unit, _ in result.hits}
