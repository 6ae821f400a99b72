"""The generals' table and their traits, as data, and what the rules read from them.

GENERALS is the sheet's table row by row: Initiative (its effects as keywords), Bonus (added to
the command's 2D6 initiative roll), DT, Melee and CT (added to a test or a melee of the unit the
general is attached to), and the Charismatic's DT note ("Reroll fails 2+").

TRAITS rebuilds the "Extra if" rows, whose cells lost their columns in the sheet's text (see
``/work/shared/RULESETS.md``): each row's two numbers were printed under Melee and CT, but
"+1(Rally)" and "+1(React/Evasion)" qualify discipline tests, so a number qualified by a test's
name is read as a DT modifier for those tests only, and the other numbers keep their printed
columns (Brave +2 and Cavalry +1 in Melee, Severe +1 in CT). The texts printed under Initiative
are initiative effects for Confident only; Brave's (re-rolls of a failed countercharge and of a
risk that succeeds) and Cavalry's (only cavalry; +2H command radius) are listed as ``special``
and ``radius``. "Extra if" means a trait adds to the type's values.

Initiative keywords: ``reroll_1_or_2`` (may re-roll one or both dice), ``reroll_2`` (may re-roll
both dice, not one), ``free_sc`` (Genius: a free second command, here a free second move
without a discipline test for one unit of his command each activation), ``pass`` (may pass the
initiative to another of his side's commands), ``pass_to_enemy`` (Confident: may pass it to
the enemy), ``fails_if_double`` (Incompetent: a double on the initiative roll loses it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from rules_core.codec import Json
from rules_core.rulesets.impetus.status import GENERAL_TYPE, KILLED, TRAITS_OF
from rules_core.state import BattleState, Leader, Unit
from rules_core.tables import GridTable

GENERALS = GridTable(
    "Generals",
    ("initiative", "bonus", "dt", "melee", "ct", "dt_note"),
    {
        "Genius": (["reroll_1_or_2", "free_sc", "pass"], 4, 2, 1, 1, ""),
        "Charismatic": (["reroll_1_or_2", "pass"], 4, 2, 1, 1, "reroll fails 2+"),
        "Expert": (["reroll_2"], 3, 2, 1, 1, ""),
        "Reliable": ([], 2, 2, 1, 1, ""),
        "Poor": ([], 1, 1, 1, 1, ""),
        "Incompetent": (["fails_if_double"], 0, 1, 1, 1, ""),
    },
)

TRAITS = GridTable(
    "General traits",
    ("initiative", "dt", "dt_for", "melee", "ct", "radius", "special"),
    {
        "Brave": ([], 0, [], 2, 0, 0, ["reroll_failed_countercharge", "reroll_risk_if_success"]),
        "Severe": ([], 1, ["rally"], 0, 1, 0, []),
        "Confident": (["pass_to_enemy"], 1, ["reaction", "evasion"], 0, 0, 0, []),
        "Cavalry": ([], 0, [], 1, 0, 2, ["only_cavalry"]),
    },
)

TABLES = (GENERALS, TRAITS)


def _int(value: Json) -> int:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0


def _words(value: Json) -> list[str]:
    return [str(item) for item in value] if isinstance(value, list) else []


def kind_of(general: Leader) -> str:
    """His type (Reliable if none is recorded)."""
    return GENERAL_TYPE.of(general) or "Reliable"


def traits(general: Leader) -> tuple[str, ...]:
    """His traits, as recorded."""
    value = TRAITS_OF.of(general)
    return tuple(str(t) for t in value) if isinstance(value, list) else ()


def initiative_effects(general: Leader) -> frozenset[str]:
    """The Initiative column's keywords for his type and traits."""
    found = set(_words(GENERALS.lookup(kind_of(general), "initiative")))
    for trait in traits(general):
        found.update(_words(TRAITS.lookup(trait, "initiative")))
    return frozenset(found)


def bonus(general: Leader | None) -> int:
    """The initiative Bonus (0 for a command with no living general)."""
    if general is None or KILLED.of(general):
        return 0
    return _int(GENERALS.lookup(kind_of(general), "bonus"))


def dt_modifier(general: Leader, kind: str) -> int:
    """The DT column for his type plus every trait's DT modifier for this kind of test."""
    total = _int(GENERALS.lookup(kind_of(general), "dt"))
    for trait in traits(general):
        if kind in _words(TRAITS.lookup(trait, "dt_for")):
            total += _int(TRAITS.lookup(trait, "dt"))
    return total


def melee_modifier(general: Leader) -> int:
    """The Melee column for his type plus his traits' extras."""
    extra = sum(_int(TRAITS.lookup(t, "melee")) for t in traits(general))
    return _int(GENERALS.lookup(kind_of(general), "melee")) + extra


def ct_modifier(general: Leader) -> int:
    """The CT (cohesion test) column for his type plus his traits' extras."""
    extra = sum(_int(TRAITS.lookup(t, "ct")) for t in traits(general))
    return _int(GENERALS.lookup(kind_of(general), "ct")) + extra


def special(general: Leader) -> frozenset[str]:
    """Special rules of his traits (``reroll_failed_countercharge``, ``only_cavalry`` ...)."""
    return frozenset(s for t in traits(general) for s in _words(TRAITS.lookup(t, "special")))


def command_radius(general: Leader, params: Mapping[str, Json]) -> float:
    """The ``command_radius`` parameter in H, plus the Cavalry trait's +2H."""
    base = params.get("command_radius", 0)
    extra = sum(_int(TRAITS.lookup(t, "radius")) for t in traits(general))
    return float(base if isinstance(base, int | float) else 0) + extra


def general_of(state: BattleState, group_id: str) -> Leader | None:
    """The living general commanding a command, if any."""
    group = next((g for g in state.groups if g.id == group_id), None)
    leader_id = group.leader if group is not None else None
    found = next((ld for ld in state.leaders if ld.id == leader_id), None)
    return None if found is None or KILLED.of(found) else found


def attached_general(state: BattleState, unit: Unit) -> Leader | None:
    """The living general attached to this unit, if any."""
    return next(
        (ld for ld in state.leaders if ld.attached_to == unit.id and not KILLED.of(ld)), None
    )


def in_command_radius(state: BattleState, unit: Unit, params: Mapping[str, Json]) -> bool:
    """Whether the unit is within its command's general's radius (centre to centre, in H).

    A command whose general is dead has no radius: its units are outside it."""
    general = general_of(state, unit.group)
    if general is None:
        return False
    where = _where(state, general)
    return math.dist(where, (unit.x, unit.y)) <= command_radius(general, params)


def _where(state: BattleState, general: Leader) -> tuple[float, float]:
    if general.attached_to is not None:
        home = next((u for u in state.units if u.id == general.attached_to), None)
        if home is not None:
            return (home.x, home.y)
    return (general.x, general.y)


def commands_of(state: BattleState, side: str) -> Sequence[str]:
    """Ids of a side's commands, in roster order."""
    return [g.id for g in state.groups if g.side == side and g.kind == "command"]
