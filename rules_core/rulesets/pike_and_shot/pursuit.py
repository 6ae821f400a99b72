"""Impetuous Pursuit: which winners of a melee must test, the test with its modifiers, and the
pursuit itself (``moves.pursue``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.geometry import within
from rules_core.odds import RollSpec
from rules_core.rulesets.pike_and_shot import cohesion as co
from rules_core.rulesets.pike_and_shot import moves
from rules_core.rulesets.pike_and_shot import tables as t
from rules_core.rulesets.pike_and_shot.combat_rolls import company, mounted
from rules_core.rulesets.pike_and_shot.kept import enemies_in_contact
from rules_core.rulesets.pike_and_shot.status import (
    COVER,
    cohesion,
)
from rules_core.state import BattleState, Unit
from rules_core.toolkit import gap

# -- impetuous pursuit -----------------------------------------------------------------------


def pursuit_modifiers(
    state: BattleState, unit: Unit, routers: Unit, params: Mapping[str, Json]
) -> list[Modifier]:
    """Every Impetuous Pursuit modifier of a winning unit, with the sheet's words."""
    level = cohesion(unit)
    order = co.wing_order(state, unit)
    kind = co.wing_commander_kind(state, unit)
    cover = COVER.of(unit)
    enemy_cav = any(
        mounted(e) and cohesion(e) == "sound" and within(gap(unit, e), t.PURSUIT_ENEMY_CAVALRY)
        for e in state.enemies_of(unit.side, on_table=True)
    )
    clear = routers.on_table and co.clear_path(state, unit, routers, t.PURSUIT_CLEAR_PATH)
    found: list[tuple[str, bool]] = [
        ("enemy_cavalry", enemy_cav),
        ("routers_sub_unit", company(routers)),
        ("detachment", unit.type == "detachment"),
        ("infantry_brigade", unit.type == "infantry_brigade"),
        ("tercio", unit.type == "tercio"),
        ("hold", order == "hold"),
        ("withdraw", order == "withdraw"),
        ("veteran", unit.quality == "veteran"),
        ("disordered", level == "disordered"),
        ("buildings", cover == "buildings"),
        ("fortifications", cover == "fortifications"),
        ("clear_path", clear),
        ("rabble", unit.type == "rabble"),
        ("irregular", unit.type in t.IRREGULAR_TYPES),
        ("sound_cavalry_brigade", unit.type == "cavalry_brigade" and level == "sound"),
        ("sound_double_brigade", unit.type == "double_brigade" and level == "sound"),
        ("attack", order == "attack"),
        ("raw", unit.quality == "raw"),
        ("heroic_commander", kind == "heroic"),
        ("politico_commander", kind == "politico"),
    ]
    table = t.PURSUIT_MODIFIERS
    return [
        Modifier(t.whole(table, row, "modifier"), t.sheet(table, row))
        for row, applies in found
        if applies
    ]


def pursuit_roll(
    state: BattleState, unit: Unit, routers: Unit, params: Mapping[str, Json]
) -> RollSpec:
    """The Impetuous Pursuit test: a d6 with its modifiers; 3 or less pursues."""
    mods = tuple(pursuit_modifiers(state, unit, routers, params))
    why = Purpose(unit.id, "impetuous pursuit", routers.id)
    return RollSpec(
        f"Impetuous pursuit: {unit.name} after {routers.name}", 1, modifiers=mods, purpose=why
    )


def must_test(state: BattleState, unit: Unit, routers: Unit) -> bool:
    """Whether the unit must test: "If a losing unit ends its rout move within 18ins and line of
    sight of the winning unit(s)"; "Disrupted units may not engage in Impetuous Pursuit." (a
    routed or destroyed unit's last position counts)."""
    if not unit.on_table or cohesion(unit) in ("disrupted", "routed", "destroyed"):
        return False
    if enemies_in_contact(state, unit):
        return False
    return co.within_sight(state, unit, routers, t.PURSUIT_RANGE)


def pursuit(ctx: Context, winners: Sequence[str], routers: Unit, done: set[str]) -> set[str]:
    """Each winning unit that must, tests; a score of 3 or less pursues (``moves.pursue``)."""
    pursuing: set[str] = set()
    for unit_id in winners:
        unit = ctx.state.unit(unit_id)
        if unit_id in done or not must_test(ctx.state, unit, routers):
            continue
        roll = pursuit_roll(ctx.state, unit, routers, ctx.params).roll(ctx.dice)
        band = ctx.test(unit_id, "Impetuous pursuit", roll, t.PURSUIT_TEST, ())
        if band.result == "pursue":
            moves.pursue(ctx, unit, ctx.state.unit(routers.id))
            pursuing.add(unit_id)
    return pursuing
