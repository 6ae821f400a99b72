"""Units the rules move: retreats into enemies and off the table edge, checked along their
path; pursuits stopping at friends and fresh enemies; evasions ending clear or leaving the
battle, and the charger going on; the countercharger meeting the charge; melees of more than
two units (their dice, modifiers and losses)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import engine
from rules_core.decisions import Answer
from rules_core.events import MeleeFought, OrderRejected
from rules_core.geometry import EPSILON, TOUCH, Footprint
from rules_core.orders import Order
from rules_core.rulesets.impetus import (
    actions,
    cohesion,
    displacement,
    melee,
    movement_tables,
    reactions,
    retreat,
    tables,
)
from rules_core.rulesets.impetus.status import CHARGED, DISORDERED, EVADES, MELEE_PENDING
from rules_core.shared_status import LOSSES
from rules_core.standing import Standing
from rules_core.standing_play import play_standing
from rules_core.state import BattleState
from rules_core.steps import Cursor, Subject
from tests.rules_core.rulesets.impetus.combat_helpers import (
    PARAMS,
    RULES,
    at,
    context,
    detach,
    logged_tests,
    rolls_of,
    terrain,
)


def _rows(ctx: object) -> list[str]:
    return [t.row for t in logged_tests(ctx.events)]  # type: ignore[attr-defined]


def _where(state: BattleState, key: str) -> tuple[float, float]:
    unit = state.unit(key)
    return (round(unit.x, 3), round(unit.y, 3))


def _thin(state: BattleState, key: str, depth: float) -> BattleState:
    return state.with_unit(replace(state.unit(key), depth=depth))


# -- retreats -----------------------------------------------------------------------------------


def test_a_retreat_into_an_enemy_stops_where_it_touches_and_costs_a_vbu() -> None:
    # Legio IX (y 4.5-5.5) loses to the warband at its front; the Arverni stand 0.5H behind it
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180), gauls1=(10, 3.0, 0)))
    ctx = context(state, [6])  # retreat 2H (foot)
    assert retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2")) == 0.5
    assert _where(ctx.state, "romans2") == (10, 4.5)
    assert LOSSES.of(ctx.state.unit("romans2")) == 1
    assert any("retreat stopped after 0.5H by Arverni Warband: -1 VBU" in r for r in _rows(ctx))


def test_a_retreat_that_cannot_even_start_destroys_the_unit() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180), gauls1=(10, 3.5, 0)))
    ctx = context(state, [6])
    assert retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2")) == 0.0
    assert not cohesion.alive(ctx.state, "romans2")
    assert any("cannot even start its retreat (Arverni Warband in the way)" in r
               for r in _rows(ctx))  # fmt: skip


def test_a_retreat_is_checked_along_its_path_not_only_where_it_ends() -> None:
    # a thin enemy between the start (y 4.5-5.5) and the end (y 2.5-3.5): the end is clear
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180), gauls3=(10, 4.0, 0)))
    state = _thin(state, "gauls3", 0.5)  # y 3.75-4.25
    ctx = context(state, [6])
    assert retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2")) == 0.25
    assert _where(ctx.state, "romans2") == (10, 4.75)
    assert LOSSES.of(ctx.state.unit("romans2")) == 1


def test_a_retreat_stopped_by_impassable_ground() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180)))
    state = terrain(state, "impassable", 8, 2, 12, 4)
    ctx = context(state, [6])
    assert retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2")) == 0.5
    assert any("by impassable ground" in r for r in _rows(ctx))


def test_a_retreat_off_the_table_edge_loses_the_unit_or_stops_there() -> None:
    state = detach(at("charge", romans2=(10, 1.5, 0), gauls2=(10, 2.5, 180)))
    ctx = context(state, [6])  # 2H back from y 1-2: past the edge at y 0
    retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2"))
    assert not cohesion.alive(ctx.state, "romans2")
    assert "Legio IX retreats off the table: lost" in _rows(ctx)
    ctx = context(state, [6], retreat_off_table="stop")
    assert retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2")) == 1.0
    assert _where(ctx.state, "romans2") == (10, 0.5)
    assert LOSSES.of(ctx.state.unit("romans2")) == 1


def test_a_retreat_stops_at_a_friend_in_melee_and_the_loss_is_a_parameter() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180), romans1=(10, 3.0, 0),
                      gauls3=(8.5, 3.0, 90)))  # fmt: skip
    ctx = context(state, [6], retreat_blocked_loss=2)  # Legio X is fighting the skirmishers
    assert retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2")) == 1.0
    assert _where(ctx.state, "romans1") == (10, 3.0) and not DISORDERED.of(
        ctx.state.unit("romans1")
    )
    assert LOSSES.of(ctx.state.unit("romans2")) == 2


def test_a_friend_that_cannot_be_pushed_clear_stops_the_retreat() -> None:
    # Legio X behind Legio IX would be pushed into the Arverni behind it
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180), romans1=(10, 3.5, 0),
                      gauls1=(10, 1.5, 0)))  # fmt: skip
    ctx = context(state, [6])
    assert retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2")) == 0.5
    assert _where(ctx.state, "romans2") == (10, 4.5)  # stopped touching Legio X
    assert _where(ctx.state, "romans1") == (10, 3.5) and not DISORDERED.of(
        ctx.state.unit("romans1")
    )
    assert LOSSES.of(ctx.state.unit("romans2")) == 1


# -- pursuits -----------------------------------------------------------------------------------


def test_a_pursuit_stops_on_contact_with_a_friend_it_may_not_pass() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), romans1=(10, 6.5, 0), gauls2=(10, 8, 180)))
    ctx = context(state, [6])  # pursuit 2H (foot): Legio X is 0.5H ahead, the loser 2H
    melee.pursue(ctx, ctx.state.unit("romans2"), "gauls2", melee.MAX_NEW_MELEES)
    assert _where(ctx.state, "romans2") == (10, 5.5)
    assert not any(isinstance(e, MeleeFought) for e in ctx.events)


def test_a_pursuit_meeting_a_fresh_enemy_stops_or_fights_by_parameter() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls3=(10, 6.5, 180), gauls2=(10, 8, 180)))
    ctx = context(state, [6])
    melee.pursue(ctx, ctx.state.unit("romans2"), "gauls2", melee.MAX_NEW_MELEES)
    assert _where(ctx.state, "romans2") == (10, 5.5)
    assert not any(isinstance(e, MeleeFought) for e in ctx.events)
    ctx = context(state, [6], pursuit_fresh_enemy="fight")
    melee.pursue(ctx, ctx.state.unit("romans2"), "gauls2", melee.MAX_NEW_MELEES)
    fought = [e for e in ctx.events if isinstance(e, MeleeFought)]
    assert fought and (fought[0].attacker, fought[0].defender) == ("romans2", "gauls3")


def test_a_pursuit_reaching_the_loser_is_a_new_melee() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 7, 180)))
    ctx = context(state, [6])  # 2H: the loser is 1H ahead
    melee.pursue(ctx, ctx.state.unit("romans2"), "gauls2", melee.MAX_NEW_MELEES)
    assert _where(ctx.state, "romans2") == (10, 6.0)
    fought = [e for e in ctx.events if isinstance(e, MeleeFought)]
    assert fought and fought[0].defender == "gauls2"


PURSUIT_DIE = 6  # the sheet's pursuit distance for this die (foot) is the gap measured below


@pytest.mark.parametrize(
    ("beyond", "reached"),
    [
        (0.0, True),  # exactly the pursuit distance: it ends touching the loser
        (EPSILON / 2, True),  # within the shared tolerance of it
        (-TOUCH / 2, True),  # a hair under: too shallow for the sweep to call a block
        (-0.5, True),  # well under: the loser blocks the pursuit before its full distance
        (0.01, False),  # over: it falls short
    ],
)
def test_a_pursuit_ending_touching_the_loser_is_a_new_melee(beyond: float, reached: bool) -> None:
    distance = tables.distance_row(PURSUIT_DIE, "pursuit", "foot")
    assert distance is not None
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 20, 180)))
    front = Footprint.of(state.unit("romans2")).bounds[3]
    half = state.unit("gauls2").depth / 2
    state = state.with_unit(replace(state.unit("gauls2"), y=front + distance + beyond + half))
    ctx = context(state, [PURSUIT_DIE])
    melee.pursue(ctx, ctx.state.unit("romans2"), "gauls2", melee.MAX_NEW_MELEES)
    fought = [e.defender for e in ctx.events if isinstance(e, MeleeFought)]
    assert fought[:1] == (["gauls2"] if reached else [])


# -- evasions -----------------------------------------------------------------------------------


def test_an_evasion_ends_clear_of_a_friend_it_passes() -> None:
    state = detach(at("charge", gauls3=(10, 10, 180), romans2=(10, 6, 0), gauls2=(10, 13.5, 0)))
    ctx = context(state)
    displacement.evade(ctx, ctx.state.unit("gauls3"), ctx.state.unit("romans2"))
    assert _where(ctx.state, "gauls3") == (10, 12.5)  # 2.5H: short of the warband (y 13-14)
    assert ctx.state.unit("gauls3").facing == 0 and EVADES.of(ctx.state.unit("gauls3")) == 1


def test_an_evasion_stops_short_of_an_enemy_and_of_a_friend_it_may_not_pass() -> None:
    state = detach(at("charge", gauls3=(10, 10, 180), romans2=(10, 6, 0), romans1=(10, 12, 0)))
    ctx = context(state)
    displacement.evade(ctx, ctx.state.unit("gauls3"), ctx.state.unit("romans2"))
    assert _where(ctx.state, "gauls3") == (10, 11)
    # Gallic Horse (CM, Rome's) evades foot; Legio IX behind it may not be passed by horse
    state = detach(at("charge", romans4=(10, 10, 180), gauls2=(10, 7, 0), romans2=(10, 12.5, 0)))
    ctx = context(state)
    displacement.evade(ctx, ctx.state.unit("romans4"), ctx.state.unit("gauls2"))
    assert _where(ctx.state, "romans4") == (10, 11.25)


def test_an_evasion_past_the_table_edge_leaves_the_battle_or_stops_by_parameter() -> None:
    state = detach(at("charge", gauls3=(10, 18, 180), romans2=(10, 14, 0)))
    ctx = context(state)
    displacement.evade(ctx, ctx.state.unit("gauls3"), ctx.state.unit("romans2"))
    assert not cohesion.alive(ctx.state, "gauls3")
    assert "Gallic Skirmishers evades off the table edge: it leaves the battle" in _rows(ctx)
    ctx = context(state, evade_off_table="stop")
    displacement.evade(ctx, ctx.state.unit("gauls3"), ctx.state.unit("romans2"))
    assert _where(ctx.state, "gauls3") == (10, 19.5)


def _charge(state: BattleState, **params: object) -> object:
    asked = reactions.decision(state, "charged", state.unit("gauls3"), state.unit("romans2"),
                               PARAMS)  # fmt: skip
    assert asked is not None and "evasion" in asked.option_ids
    ctx = context(state, [1], answers=[Answer(asked.id, "evasion", "gauls")], **params)  # type: ignore[arg-type]
    actions.charge_one(ctx, state.unit("romans2"), state.unit("gauls3"))
    return ctx


def test_the_charger_moves_its_full_charge_after_an_evasion_out_of_reach() -> None:
    state = detach(at("charge", romans2=(10, 6, 0), gauls3=(10, 8.5, 180)))
    ctx = _charge(state)
    assert _where(ctx.state, "gauls3") == (10, 11.5)  # type: ignore[attr-defined]
    assert _where(ctx.state, "romans2") == (10, 8.0)  # type: ignore[attr-defined]
    assert CHARGED.of(ctx.state.unit("romans2"))  # type: ignore[attr-defined]
    assert not any(isinstance(e, MeleeFought) for e in ctx.events)  # type: ignore[attr-defined]
    rejected = [e for e in ctx.events if isinstance(e, OrderRejected)]  # type: ignore[attr-defined]
    assert "evaded: the charge falls short" in rejected[0].reason
    ctx = _charge(state, charge_after_evade="stop")
    assert _where(ctx.state, "romans2") == (10, 6)  # type: ignore[attr-defined]


def test_the_charger_contacts_an_evader_it_still_reaches() -> None:
    # the evader is stopped after 0.5H by Legio X behind it: still within the legion's 2H
    state = detach(at("charge", romans2=(10, 6, 0), gauls3=(10, 8.5, 180), romans1=(10, 10, 0)))
    ctx = _charge(state)
    assert _where(ctx.state, "gauls3") == (10, 9.0)  # type: ignore[attr-defined]
    fought = [e for e in ctx.events if isinstance(e, MeleeFought)]  # type: ignore[attr-defined]
    assert fought and (fought[0].attacker, fought[0].defender) == ("romans2", "gauls3")


@pytest.mark.parametrize(
    ("beyond", "caught"),
    [
        (0.0, True),  # exactly the charge distance: it ends touching the evader
        (EPSILON / 2, True),  # within the shared tolerance of it
        (-TOUCH / 2, True),  # a hair under: too shallow for the sweep to call a block
        (-0.5, True),  # well under: the evader blocks the charge before its full distance
        (0.01, False),  # over: the charge falls short
    ],
)
def test_a_charge_on_ending_touching_the_evader_contacts_it(beyond: float, caught: bool) -> None:
    state = detach(at("charge", romans2=(10, 6, 0), gauls3=(10, 20, 180)))
    reach = movement_tables.distance(state.unit("romans2"), "charge")
    front = Footprint.of(state.unit("romans2")).bounds[3]
    half = state.unit("gauls3").depth / 2
    state = state.with_unit(replace(state.unit("gauls3"), y=front + reach + beyond + half))
    ctx = context(state)
    assert displacement.charge_on(ctx, state.unit("romans2"), state.unit("gauls3")) is caught
    rejected = [e for e in ctx.events if isinstance(e, OrderRejected)]
    assert bool(rejected) is not caught


# -- countercharges -----------------------------------------------------------------------------


def test_a_countercharger_meets_the_charger_in_the_middle_of_the_gap() -> None:
    state = detach(at("charge", gauls4=(10, 5, 0), romans4=(10, 8, 180)))  # gap 1.5H
    ctx = context(state)
    assert displacement.countercharge_move(ctx, state.unit("gauls4"), state.unit("romans4")) == 0.75
    assert _where(ctx.state, "gauls4") == (10, 5.75)
    ctx = context(state, countercharge_share=1.0)
    displacement.countercharge_move(ctx, state.unit("gauls4"), state.unit("romans4"))
    assert _where(ctx.state, "gauls4") == (10, 6.5)  # all the way: touching


def test_a_countercharge_chosen_by_standing_instruction_moves_and_both_charge() -> None:
    state = detach(at("charge", gauls4=(10, 5, 0), romans4=(10, 8, 180)))
    cursor = Cursor(1, "main", "charge", ("romans", "gauls"),
                    subjects=(Subject("romans_labienus", "romans"),))  # fmt: skip
    state = replace(state, cursor=cursor)
    result = engine.run(RULES, b"counter", state, [Order("romans4", "charge",
                                                          {"target": "gauls4"})])  # fmt: skip
    assert result.state.pending is not None
    standing = [Standing("gauls", "charge_reaction", "countercharge", "by_mounted")]
    done = play_standing(RULES, b"counter", result, standing)
    tests = [e for e in done.events if type(e).__name__ == "TestResolved"]
    assert next(t for t in tests if t.test == "discipline test (countercharge)").passed
    moves = [e for e in done.events if type(e).__name__ == "UnitMoved"]
    assert any(e.unit == "gauls4" and "countercharges Gallic Horse 0.75H" in e.notes
               for e in moves)  # fmt: skip
    charger = next(e for e in moves if e.unit == "romans4")
    assert charger.path[-1] == (10, 7.25)  # met at the middle of the 1.5H gap
    rolls = [e.roll for e in rolls_of(done.events)]
    for label in ("Melee: Noble Cavalry", "Melee: Gallic Horse"):
        roll = next(r for r in rolls if r.label.startswith(label))
        assert "impetus bonus 2" in {m.reason for m in roll.dice_modifiers}


# -- several units in one melee -----------------------------------------------------------------


def _two_on_one() -> BattleState:
    """Legio IX charged in front by the Carnutes, the Arverni touching its right flank."""
    return detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180), gauls1=(12, 5, 270)))


def test_two_on_one_every_roll_and_modifier_shown_and_the_hits_counted_once() -> None:
    # Carnutes: 5 VBU, +3 impetus, +1 flank supported by the Arverni, +1 depth (impetuous FL):
    # 10 dice, 2 hits on Legio IX
    faces = [6, 6] + [1] * 8
    faces += [6] + [1] * 10  # Legio IX: 11 dice against the Carnutes to its front, 1 hit
    faces += [6, 1, 1]  # Arverni: half of 6 VBU, 3 dice: 1 hit on Legio IX
    faces += [2]  # Carnutes' cohesion (critical 5 - 1 = 4): passes, disordered
    faces += [3]  # Legio IX: 6 - 3 hits - 2 flank = 1: a 3 fails by 2
    faces += [6, 1, 1]  # Legio IX retreats 2H; the Carnutes' pursuit dice give none (re-roll)
    state = _two_on_one()
    ctx = context(state, faces)
    result = melee.resolve(ctx, state.unit("gauls2"), state.unit("romans2"), impact=True)
    assert result == melee.ATTACKER
    rolls = [r.roll for r in rolls_of(ctx.events)]
    assert [r.label for r in rolls[:3]] == [
        "Melee: Carnutes Warband (VBU 5) against Legio IX",
        "Melee: Legio IX (VBU 6) against Carnutes Warband",
        "Melee: Arverni Warband (VBU 6) against Legio IX",
    ]
    assert [(m.value, m.reason) for m in rolls[2].dice_modifiers] == [
        (-3, "Supporting Units roll half dice (a further unit in the melee with Legio IX)")
    ]
    cohesion_rolls = [r for r in rolls if r.label.startswith("Cohesion")]
    assert len(cohesion_rolls) == 2  # the Arverni took no hits: no test
    rows = _rows(ctx)
    legion_test = next(r for r in rows if "VBU 6 - 3 hits" in r)
    assert "Flank/Rear" in legion_test
    assert ("Carnutes Warband and Arverni Warband lost 0 VBU, Legio IX lost 2 VBU: Carnutes "
            "Warband and Arverni Warband win") in rows  # fmt: skip
    assert LOSSES.of(ctx.state.unit("romans2")) == 2
    assert LOSSES.of(ctx.state.unit("gauls2")) == 0 and DISORDERED.of(ctx.state.unit("gauls2"))
    assert _where(ctx.state, "romans2") == (10, 3.0)  # retreated from the Carnutes


def test_a_further_unit_rolls_its_full_dice_by_parameter() -> None:
    state = _two_on_one()
    ctx = context(state, [1] * 30, melee_extra_dice="full")
    melee.resolve(ctx, state.unit("gauls2"), state.unit("romans2"), impact=True)
    arverni = next(r.roll for r in rolls_of(ctx.events) if r.roll.label.startswith("Melee: Arv"))
    reasons = {m.reason for m in arverni.dice_modifiers}
    assert not any("half dice" in r for r in reasons)
    assert reasons == {"Impetuous FP or FL vs Mounted or Foot"}  # its own roll, in full
    assert arverni.expression.startswith("7D6")


def test_a_charger_contacting_two_enemies_is_fought_by_both() -> None:
    state = detach(at("charge", romans2=(9, 5, 0), romans1=(11, 5, 0), gauls2=(10, 6.0, 180)))
    # Carnutes 9 dice (5, impetus 3, depth 1); Legio IX 12 (its right flank supported by
    # Legio X); Legio X's half dice are the only ones to hit: 2 hits
    faces = [1] * 9 + [1] * 12 + [6, 6, 1]
    faces += [6]  # the Carnutes' cohesion (5 - 2 = 3) fails by 3
    ctx = context(state, faces)
    result = melee.resolve(ctx, state.unit("gauls2"), state.unit("romans2"), impact=True)
    assert result == melee.DEFENDER
    rolls = [r.roll for r in rolls_of(ctx.events)]
    assert rolls[2].label == "Melee: Legio X (VBU 7) against Carnutes Warband"
    assert rolls[2].dice_modifiers[0].value == -4  # half of 7, rounded down: 3 dice
    assert LOSSES.of(ctx.state.unit("gauls2")) == 3


def test_a_drawn_melee_of_three_is_fought_again_once() -> None:
    state = _two_on_one()
    ctx = context(state, [1] * 30)
    assert melee.resolve(ctx, state.unit("gauls2"), state.unit("romans2"), impact=True) == "draw"
    after = ctx.state
    for key in ("gauls1", "gauls2", "romans2"):
        assert MELEE_PENDING.of(after.unit(key))
    ctx = context(after, [1] * 30)  # the next activation: each pair of the melee in turn
    melee.resolve(ctx, after.unit("romans2"), after.unit("gauls2"), impact=False)
    melee.resolve(ctx, after.unit("romans2"), after.unit("gauls1"), impact=False)
    assert len([e for e in ctx.events if isinstance(e, MeleeFought)]) == 1
