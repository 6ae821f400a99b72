"""Moves judged and carried out in an activation: allowances, who may move how, second moves,
paths checked for enemies, friends and impassable ground, disorder from ground and from moving
backwards, charges into contact."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import engine
from rules_core.events import OrderRejected, StatusChanged, TestResolved, UnitMoved
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.impetus import movement_tables as mt
from rules_core.state import BattleState, TerrainFeature, Unit
from rules_core.tables import GridTable
from tests.rules_core.rulesets.impetus.helpers import SEED, rules, stopped_at, unit_named


def at_caesars_move() -> BattleState:
    return stopped_at("move", "romans_caesar")


def move(
    unit: Unit, manoeuvre: str, distance: float | None = None, side: str | None = None
) -> Order:
    params: dict[str, object] = {"manoeuvre": manoeuvre}
    if distance is not None:
        params["distance"] = distance
    if side is not None:
        params["side"] = side
    return Order(unit.id, "move", params)  # type: ignore[arg-type]


def reason(state: BattleState, order: Order) -> str:
    verdict = rules().judge(state, order)
    assert isinstance(verdict, Illegal), verdict
    return verdict.reason


def test_a_forward_move_up_to_the_allowance_is_legal_and_beyond_it_is_not() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    assert isinstance(rules().judge(state, move(legio, "forward", 2.0)), Preview)
    assert "at most 2H" in reason(state, move(legio, "forward", 2.5))
    assert "give the distance" in reason(state, move(legio, "forward"))


def test_only_the_activated_commands_units_may_move() -> None:
    state = at_caesars_move()
    horse = unit_named(state, "Gallic Horse")
    assert "not in the command activating now" in reason(state, move(horse, "forward", 1.0))


def test_disordered_units_may_not_move_sideways_but_s_cl_cm_may_go_backwards() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    messy = legio.with_status(disordered=True)
    state = state.with_unit(messy)
    assert "disordered" in reason(state, move(messy, "sideways", 1.0, "right"))
    assert "disordered" in reason(state, move(messy, "backwards", 1.0))
    assert isinstance(rules().judge(state, move(messy, "forward", 1.0)), Preview)


def test_a_large_unit_moves_sideways_one_h_only() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    big = replace(legio, profile={**legio.profile, "large": True})
    state = state.with_unit(big)
    assert "at most 1H" in reason(state, move(big, "sideways", 1.5, "right"))


def test_about_face_only_as_the_first_move_and_sideways_not_as_a_second() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X").with_status(moves=1)
    state = state.with_unit(legio)
    assert "first and only" in reason(state, move(legio, "about_face"))
    assert "second or further" in reason(state, move(legio, "sideways", 1.0, "left"))


def test_a_move_may_not_end_on_a_friend_or_reach_an_enemy_or_cross_impassable_ground() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    ix = unit_named(state, "Legio IX")
    crowded = state.with_unit(replace(ix, x=legio.x, y=legio.y + 2.0))
    assert "pass through" in reason(crowded, move(legio, "forward", 2.0)) or "end on" in reason(
        crowded, move(legio, "forward", 2.0)
    )
    foe = next(u for u in state.units_on_table if u.side == "gauls")
    near = state.with_unit(replace(foe, x=legio.x, y=legio.y + 2.5))
    assert "contact an enemy" in reason(near, move(legio, "forward", 2.0))
    lake = TerrainFeature(
        "lake", "impassable",
        ((legio.x - 2, legio.y + 1.2), (legio.x + 2, legio.y + 1.2),
         (legio.x + 2, legio.y + 1.8), (legio.x - 2, legio.y + 1.8)), "Lake",
    )  # fmt: skip
    wet = replace(state, terrain=(lake,))
    assert "impassable" in reason(wet, move(legio, "forward", 2.0))


def test_friends_that_may_be_passed_are_passed_and_others_not() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    slingers = unit_named(state, "Balearic Slingers")
    ahead = {"x": legio.x, "y": legio.y + 1.0, "facing": legio.facing}
    screen = state.with_unit(replace(slingers, **ahead))  # type: ignore[arg-type]
    assert isinstance(rules().judge(screen, move(legio, "forward", 2.0)), Preview)
    ix = unit_named(state, "Legio IX")
    wall = state.with_unit(replace(ix, **ahead))  # type: ignore[arg-type]
    assert "may not pass through Legio IX" in reason(wall, move(legio, "forward", 2.0))


def test_two_moves_are_made_in_turn_and_a_difficult_ground_move_disorders() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    front = legio.y + legio.depth / 2  # the base, not its centre, goes into the marsh (#39)
    marsh = TerrainFeature(
        "marsh", "marsh",
        ((legio.x - 2, front + 2.2), (legio.x + 2, front + 2.2),
         (legio.x + 2, front + 6), (legio.x - 2, front + 6)), "Marsh",
    )  # fmt: skip
    state = replace(state, terrain=(marsh,))
    orders = [move(legio, "forward", 2.0), move(legio, "forward", 1.0)]
    result = engine.run(rules(), SEED, state, orders)
    moved = [e for e in result.events if isinstance(e, UnitMoved) and e.unit == legio.id]
    assert len(moved) == 2
    after = next(u for u in result.state.units if u.id == legio.id)
    assert after.y == legio.y + 3.0 or after.y == legio.y - 3.0
    assert any(
        isinstance(e, StatusChanged) and e.subject == legio.id and "difficult" in e.reason
        for e in result.events
    )


def test_moving_backwards_disorders_foot() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    result = engine.run(rules(), SEED, state, [move(legio, "backwards", 1.0)])
    after = next(u for u in result.state.units if u.id == legio.id)
    assert after.status.get("disordered") is True


def test_a_sideways_move_of_foot_is_its_last_and_an_about_face_ends_moves_and_shooting() -> None:
    state = at_caesars_move()
    legio = unit_named(state, "Legio X")
    stepped = legio.with_status(moves=1, last_manoeuvre="sideways")
    after = state.with_unit(stepped)
    assert "no further after its sideways" in reason(after, move(stepped, "forward", 1.0))
    horse = unit_named(state, "Gallic Horse")
    cm = replace(horse, group=legio.group).with_status(moves=1, last_manoeuvre="sideways")
    assert isinstance(rules().judge(state.with_unit(cm), move(cm, "forward", 1.0)), Preview)
    turned = legio.with_status(moves=1, last_manoeuvre="about_face")
    turned_state = state.with_unit(turned)
    assert "no further after its about face" in reason(turned_state, move(turned, "forward", 1.0))
    shooting = stopped_at("shoot", "romans_caesar")
    archers = unit_named(shooting, "Cretan Archers").with_status(last_manoeuvre="about_face")
    foe = next(u for u in shooting.units_on_table if u.side != archers.side)
    shot = Order(archers.id, "shoot", {"target": foe.id})
    assert "may not shoot" in reason(shooting.with_unit(archers), shot)


def _gun(state: BattleState, grade: str) -> tuple[BattleState, Unit]:
    """Caesar's Cretan Archers made artillery of a class, alone on open ground."""
    archers = unit_named(state, "Cretan Archers")
    profile = {**archers.profile, "type": "ART", "missile": "artillery", "missile_class": grade}
    gun = replace(archers, type="ART", profile=profile, x=4.0, y=10.0, facing=0.0)
    return replace(state.with_unit(gun), terrain=()), gun


def test_artillery_a_or_c_wheels_at_most_45_degrees_once() -> None:
    state, gun = _gun(at_caesars_move(), "A")
    assert isinstance(rules().judge(state, move(gun, "wheel", 1.5, "left")), Preview)  # 43°
    assert "at most 45°" in reason(state, move(gun, "wheel", 1.7, "left"))
    moved = gun.with_status(moves=1, last_manoeuvre="wheel")
    assert "1 move only" in reason(state.with_unit(moved), move(moved, "wheel", 1.0, "left"))


def test_artillery_a_or_c_makes_one_move_whatever_the_manoeuvre() -> None:
    for grade in ("A", "C"):
        state, gun = _gun(at_caesars_move(), grade)
        for first in ("forward", "wheel"):
            moved = gun.with_status(moves=1, last_manoeuvre=first)
            after = state.with_unit(moved)
            assert "1 move only" in reason(after, move(moved, "forward", 1.0))
    state, gun = _gun(at_caesars_move(), "B")  # the note names A and C only
    moved = gun.with_status(moves=1, last_manoeuvre="forward")
    assert isinstance(rules().judge(state.with_unit(moved), move(moved, "forward", 1.0)), Preview)


def test_artillery_a_gets_no_further_move_in_play_and_takes_no_test_for_it() -> None:
    state, gun = _gun(at_caesars_move(), "A")
    orders = [move(gun, "wheel", 1.0, "left"), move(gun, "forward", 1.0)]
    result = engine.run(rules(), SEED, state, orders)
    moved = [e for e in result.events if isinstance(e, UnitMoved) and e.unit == gun.id]
    assert len(moved) == 1
    refused = [e for e in result.events if isinstance(e, OrderRejected) and e.actor == gun.id]
    assert refused and "1 move only" in refused[0].reason
    tests = [e for e in result.events if isinstance(e, TestResolved) and e.subject == gun.id]
    assert not tests  # refused before any discipline test: one move, whatever the test


def test_the_one_move_limit_is_read_from_the_movement_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state, gun = _gun(at_caesars_move(), "A")
    moved = gun.with_status(moves=1, last_manoeuvre="forward")
    after = state.with_unit(moved)
    row = mt.MOVE_LIMITS.rows["art_a_c_45_one_move"]
    column = mt.MOVE_LIMITS.columns.index("moves")
    cells = tuple(2 if i == column else c for i, c in enumerate(row))
    patched = GridTable(mt.MOVE_LIMITS.name, mt.MOVE_LIMITS.columns,
                        {**mt.MOVE_LIMITS.rows, "art_a_c_45_one_move": cells})  # fmt: skip
    monkeypatch.setattr(mt, "MOVE_LIMITS", patched)
    assert isinstance(rules().judge(after, move(moved, "forward", 1.0)), Preview)
