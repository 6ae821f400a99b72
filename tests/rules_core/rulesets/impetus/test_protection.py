"""Every situational modifier of shooting and the fortification rows of melee are set by play
from the table (``protection``), not by a flag a caller passes: fortification pieces laid by
the pre-battle ``fortify`` step, cover, indirect shooting, evaders, reaction and defensive
fire (#30 items 4 and 7)."""

from __future__ import annotations

from dataclasses import replace

from rules_core import engine
from rules_core.dice import Modifier
from rules_core.orders import Order
from rules_core.rulesets.impetus import melee_dice, prebattle, reactions, shooting, tables
from rules_core.state import BattleState, TerrainFeature
from tests.rules_core.rulesets.impetus.combat_helpers import (
    PARAMS,
    add,
    at,
    context,
    detach,
    profile,
    rolls_of,
    status,
    terrain,
)
from tests.rules_core.rulesets.impetus.helpers import SEED, rules, stopped_at, unit_named

FORTIFIED = tables.reason(tables.SHOOTING_MODIFIERS, "fortified")
ART_FORTIFIED = tables.reason(tables.SHOOTING_MODIFIERS, "artillery_fortified")
COVER = tables.reason(tables.SHOOTING_MODIFIERS, "cover")
INDIRECT = tables.reason(tables.SHOOTING_MODIFIERS, "indirect")
EVADERS = tables.reason(tables.SHOOTING_MODIFIERS, "evaders")
REACTION = tables.reason(tables.SHOOTING_MODIFIERS, "reaction")


def _value(table: str, row: str) -> int:
    found = tables.cell(getattr(tables, table), row, "dice")
    assert found is not None
    return found


def _piece(state: BattleState, side: str, x: float, y: float, facing: float) -> BattleState:
    """The state with a fortification piece laid as the pre-battle ``fortify`` step lays it."""
    piece = prebattle.fortification_piece(state, side, (x, y), facing, prebattle.params_of(state))
    return replace(state, terrain=(*state.terrain, piece))


def _rows(mods: list[Modifier]) -> dict[str, int]:
    """Each situational modifier by its sheet row (its reason starts with the row's words)."""
    rows = [tables.reason(tables.SHOOTING_MODIFIERS, r) for r in tables.SHOOTING_MODIFIERS.rows]
    return {row: m.value for m in mods for row in rows if m.reason.startswith(row)}


def _archers_and(target: str, y: float = 9.5) -> BattleState:
    """Cretan Archers (romans3) at (10, 5) facing the target, foot, at (10, y)."""
    return detach(at("shoot", romans3=(10, 5, 0), **{target: (10, y, 180)}))


def test_a_shot_in_the_shoot_step_at_a_unit_behind_its_fortification_takes_minus_two() -> None:
    state = stopped_at("shoot", "romans_caesar")
    archers = unit_named(state, "Cretan Archers")
    target = unit_named(state, "Carnutes Warband")
    keep = {archers.id, target.id}
    for unit in state.units:
        if unit.id not in keep:
            state = state.without_unit(unit.id)
    state = state.with_unit(replace(archers, x=10.0, y=5.0, facing=0.0).with_status(moves=0))
    state = state.with_unit(replace(target, x=10.0, y=9.5, facing=180.0))
    state = _piece(replace(state, terrain=()), target.side, 10.0, 8.0, 180.0)  # 7.5 to 8.5
    result = engine.run(rules(), SEED, state, [Order(archers.id, "shoot", {"target": target.id})])
    shot = next(r.roll for r in rolls_of(result.events) if r.roll.label.startswith("Shooting"))
    reasons = _rows(list(shot.dice_modifiers))
    assert reasons[FORTIFIED] == _value("SHOOTING_MODIFIERS", "fortified")
    assert COVER not in reasons and INDIRECT not in reasons  # -2 instead of the -1 cover row


def test_the_piece_protects_its_own_side_only_and_only_from_the_far_side() -> None:
    state = _archers_and("gauls2")
    shooter, target = state.unit("romans3"), state.unit("gauls2")
    theirs = _piece(state, "gauls", 10.0, 8.0, 180.0)
    assert FORTIFIED in _rows(shooting.dice_modifiers(theirs, shooter, target)[1])
    ours = _piece(state, "romans", 10.0, 8.0, 180.0)  # the shooter's side laid it
    assert FORTIFIED not in _rows(shooting.dice_modifiers(ours, shooter, target)[1])
    behind_shooter = _piece(state, "gauls", 10.0, 12.0, 180.0)  # at the target's back
    assert FORTIFIED not in _rows(shooting.dice_modifiers(behind_shooter, shooter, target)[1])
    far = _piece(state, "gauls", 10.0, 6.0, 180.0)  # between, but 2.5H before the target
    reach = prebattle.params_of(state)["behind_reach"]
    assert isinstance(reach, float) and reach < 2.5
    assert FORTIFIED not in _rows(shooting.dice_modifiers(far, shooter, target)[1])


def test_artillery_shooting_behind_fortifications_takes_its_own_row() -> None:
    state = _piece(_archers_and("gauls2"), "gauls", 10.0, 8.0, 180.0)
    state = profile(state, "romans3", type="ART", missile="artillery", missile_class="B")
    state = state.with_unit(replace(state.unit("romans3"), type="ART"))
    reasons = _rows(shooting.dice_modifiers(state, state.unit("romans3"),
                                            state.unit("gauls2"))[1])  # fmt: skip
    assert reasons[ART_FORTIFIED] == _value("SHOOTING_MODIFIERS", "artillery_fortified")
    assert FORTIFIED not in reasons and COVER not in reasons


def test_cover_behind_a_linear_obstacle_and_a_pavise_is_found_from_the_table() -> None:
    state = _archers_and("gauls2")
    shooter, target = state.unit("romans3"), state.unit("gauls2")
    assert COVER not in _rows(shooting.dice_modifiers(state, shooter, target)[1])
    hedge = TerrainFeature("hedge", "linear_obstacle", ((7.0, 8.6), (13.0, 8.6)), "Hedge")
    hedged = replace(state, terrain=(hedge,))
    found = _rows(shooting.dice_modifiers(hedged, shooter, target)[1])
    assert found[COVER] == _value("SHOOTING_MODIFIERS", "cover")
    shielded = profile(state, "gauls2", pavise=True)
    found = _rows(shooting.dice_modifiers(shielded, shooter, shielded.unit("gauls2"))[1])
    assert found[COVER] == _value("SHOOTING_MODIFIERS", "cover")


def test_shooting_without_a_sight_line_is_indirect_except_for_s() -> None:
    state = _archers_and("gauls2", 10.5)
    shooter, target = state.unit("romans3"), state.unit("gauls2")
    assert INDIRECT not in _rows(shooting.dice_modifiers(state, shooter, target)[1])
    screened = add(state, "screen", "romans", "romans_caesar", (10, 7.0, 0), type="FP")
    found = _rows(shooting.dice_modifiers(screened, shooter, target)[1])
    assert found[INDIRECT] == _value("SHOOTING_MODIFIERS", "indirect")
    wood = terrain(state, "wood", 6, 6.5, 14, 8.5)  # a wood between screens the target
    assert INDIRECT in _rows(shooting.dice_modifiers(wood, shooter, target)[1])
    slingers = detach(at("shoot", romans6=(10, 5, 0), gauls2=(10, 8.5, 180)))
    slingers = add(slingers, "screen", "romans", "romans_caesar", (10, 6.5, 0), type="FP")
    found = _rows(shooting.dice_modifiers(slingers, slingers.unit("romans6"),
                                          slingers.unit("gauls2"))[1])  # fmt: skip
    assert INDIRECT not in found  # "(except S)"


def test_a_target_that_evaded_this_turn_is_an_evader() -> None:
    state = _archers_and("gauls2")
    shooter = state.unit("romans3")
    assert EVADERS not in _rows(shooting.dice_modifiers(state, shooter, state.unit("gauls2"))[1])
    evaded = status(state, "gauls2", evades=1)
    found = _rows(shooting.dice_modifiers(evaded, shooter, evaded.unit("gauls2"))[1])
    assert found[EVADERS] == _value("SHOOTING_MODIFIERS", "evaders")


def test_reaction_fire_is_set_by_the_reaction_played() -> None:
    state = detach(at("move", romans3=(10, 5, 0), gauls2=(10, 9.5, 180)))
    ctx = context(state, [1] + [2] * 10)  # the reaction test passes on a 1; no hits
    reactions._carry_out(ctx, "reaction_fire", ctx.state.unit("romans3"), ctx.state.unit("gauls2"))
    shot = next(r.roll for r in rolls_of(ctx.events) if r.roll.label.startswith("Shooting"))
    assert _rows(list(shot.dice_modifiers))[REACTION] == _value("SHOOTING_MODIFIERS", "reaction")


def test_a_charge_on_a_unit_behind_its_fortification_loses_its_impact_and_it_defends() -> None:
    state = detach(at("charge", romans1=(10, 6.5, 0), gauls2=(10, 9.5, 180)))
    charger, target = state.unit("gauls2"), state.unit("romans1")
    assert melee_dice.nullified_by(state, charger, target) != "fortified"
    walled = _piece(state, "romans", 10.0, 8.0, 0.0)  # before Legio X, between them
    assert melee_dice.nullified_by(walled, charger, target) == "fortified"
    defending = tables.reason(tables.COHESION_MELEE, "defending")
    mods = melee_dice.cohesion_modifiers(walled, target, charger)
    assert any(m.reason.startswith(defending) for m in mods)
    assert not any(m.reason.startswith(defending)
                   for m in melee_dice.cohesion_modifiers(state, target, charger))  # fmt: skip
    assert melee_dice.nullified_by(walled, target, charger) != "fortified"  # not the Gauls' piece
    assert "behind_reach" in PARAMS  # a parameter of the rules, shown by /campaign rules
