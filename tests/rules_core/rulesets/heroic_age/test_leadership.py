"""The Leadership phase: LPs spent on several actions, their validation, the signal to advance
by aggression level, challenges and camp followers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.events import TestResolved
from rules_core.orders import Order
from rules_core.rulesets.heroic_age import leadership
from rules_core.rulesets.heroic_age.leadership import ACTION_LPS, ADVANCE_INCHES, STANDARD_INCHES
from rules_core.rulesets.heroic_age.status import (
    ADVANCE_SIGNALLED,
    AGGRESSION,
    CHALLENGE,
    DPS,
    LPS_SPENT,
)
from rules_core.state import BattleState
from tests.rules_core.rulesets.heroic_age.godsplay import (
    RULES,
    battle,
    leader_named,
    run,
    unit_named,
)

KEY = "gods-1:1:leadership:0"


def with_status(state: BattleState, unit_id: str, **changes: object) -> BattleState:
    unit = state.unit(unit_id)
    return state.with_unit(replace(unit, status={**unit.status, **changes}))


def test_the_costs_and_moves_as_printed() -> None:
    assert ACTION_LPS == {
        "remove_dp": 2,
        "change_aggression": 2,
        "signal_advance": 1,
        "challenge": 3,
    }
    assert ADVANCE_INCHES == {
        "shaken": 0.0,
        "present": 1.0,
        "ready for battle": 2.0,
        "blood lust": 3.0,
    }
    assert STANDARD_INCHES == 1.0


def test_remove_a_dp_within_2_inches() -> None:
    state = battle("leadership")
    alfred = leader_named(state, "King Alfred")
    guard = unit_named(state, "King's Hearthguard")  # his own unit
    fyrd = unit_named(state, "Somerset Fyrd")  # far away
    state = with_status(with_status(state, guard, dps=2), fyrd, dps=1)
    order = Order(alfred, "remove_dp", {"unit": guard})
    assert RULES.judge(state, order).legal
    far = RULES.judge(state, Order(alfred, "remove_dp", {"unit": fyrd}))
    assert not far.legal and 'beyond 2"' in far.reason  # type: ignore[union-attr]
    none = RULES.judge(
        state, Order(alfred, "remove_dp", {"unit": unit_named(state, "Wessex Fyrd")})
    )
    assert not none.legal
    done = run(leadership.resolve, state, orders=(order,), key=KEY)
    assert DPS.of(done.state.unit(guard)) == 1
    assert LPS_SPENT.of(done.state.leader(alfred)) == 2


def test_change_aggression_up_or_down() -> None:
    state = battle("leadership")
    alfred = leader_named(state, "King Alfred")
    guard = unit_named(state, "King's Hearthguard")
    before = AGGRESSION.of(state.unit(guard))
    done = run(
        leadership.resolve,
        state,
        orders=(Order(alfred, "change_aggression", {"unit": guard, "change": "raise"}),),
        key=KEY,
    )
    assert AGGRESSION.of(done.state.unit(guard)) == "blood lust" and before == "ready for battle"
    top = with_status(state, guard, aggression="blood lust")
    assert not RULES.judge(
        top, Order(alfred, "change_aggression", {"unit": guard, "change": "raise"})
    ).legal


def test_several_actions_in_one_phase_within_the_lps() -> None:
    state = battle("leadership")
    alfred = leader_named(state, "King Alfred")  # 6 LPs
    guard = unit_named(state, "King's Hearthguard")
    state = with_status(state, guard, dps=3)
    first = Order(alfred, "remove_dp", {"unit": guard})
    second = Order(alfred, "remove_dp", {"unit": guard})
    third = Order(alfred, "remove_dp", {"unit": guard})
    fourth = Order(alfred, "signal_advance", {})
    orders, problem = RULES.join_orders(state, (first, second), third)
    assert problem is None and len(orders) == 3
    orders, problem = RULES.join_orders(state, orders, fourth)
    assert problem is not None and "6 LP" in problem and len(orders) == 3
    done = run(leadership.resolve, state, orders=(first, second, third), key=KEY)
    assert DPS.of(done.state.unit(guard)) == 0 and LPS_SPENT.of(done.state.leader(alfred)) == 6


def test_an_order_he_can_no_longer_pay_for_is_refused_at_resolution() -> None:
    state = battle("leadership")
    ubba = leader_named(state, "Ubba Ragnarsson")  # 4 LPs
    hird = unit_named(state, "Ubba's Hird")
    state = with_status(state, hird, dps=3)
    orders = tuple(Order(ubba, "remove_dp", {"unit": hird}) for _ in range(3))
    done = run(leadership.resolve, state, orders=orders, key=KEY)
    assert DPS.of(done.state.unit(hird)) == 1
    assert any(isinstance(e, TestResolved) and "LP left" in e.row for e in done.ctx.events)


def test_a_leader_in_combat_spends_no_lps() -> None:
    state = battle("leadership")
    alfred = leader_named(state, "King Alfred")
    guard = unit_named(state, "King's Hearthguard")
    state = with_status(state, guard, in_combat=True, dps=1)
    verdict = RULES.judge(state, Order(alfred, "remove_dp", {"unit": guard}))
    assert not verdict.legal and "in combat" in verdict.reason  # type: ignore[union-attr]


def test_signal_the_advance_moves_the_contingent_by_aggression_level() -> None:
    state = battle("leadership", gap=20.0)
    ubba = leader_named(state, "Ubba Ragnarsson")
    hird = unit_named(state, "Ubba's Hird")  # blood lust: 3"
    bondi = unit_named(state, "Ubba's Bondi")  # present: 1"
    order = Order(ubba, "signal_advance", {})
    done = run(leadership.resolve, state, orders=(order,), key=KEY)
    for unit_id, inches in ((hird, 3.0), (bondi, 1.0)):
        moved = state.unit(unit_id).y - done.state.unit(unit_id).y  # the Danes face south
        assert abs(moved - inches) < 1e-6, unit_id
        assert ADVANCE_SIGNALLED.of(done.state.unit(unit_id))
    assert LPS_SPENT.of(done.state.leader(ubba)) == 1
    others = [u for u in state.units if u.group != state.leader(ubba).group]
    assert all(done.state.unit(u.id).y == u.y for u in others)


def test_the_battle_standard_adds_an_optional_inch() -> None:
    state = battle("leadership", gap=20.0)
    guthrum = leader_named(state, "Guthrum")  # battle standard, with his huscarls
    huscarls = unit_named(state, "Guthrum's Huscarls")  # ready for battle (retinue default)
    level = AGGRESSION.of(state.unit(huscarls))
    base = ADVANCE_INCHES[level]
    yes = run(
        leadership.resolve,
        state,
        orders=(Order(guthrum, "signal_advance", {"standard": "yes"}),),
        key=KEY,
    )
    no = run(
        leadership.resolve,
        state,
        orders=(Order(guthrum, "signal_advance", {"standard": "no"}),),
        key=KEY,
    )
    moved_yes = state.unit(huscarls).y - yes.state.unit(huscarls).y
    moved_no = state.unit(huscarls).y - no.state.unit(huscarls).y
    assert abs(moved_no - base) < 1e-6 and abs(moved_yes - (base + STANDARD_INCHES)) < 1e-6


def test_the_advance_stops_2_inches_from_the_enemy() -> None:
    state = battle("leadership", gap=3.0)
    ubba = leader_named(state, "Ubba Ragnarsson")
    hird = unit_named(state, "Ubba's Hird")
    done = run(leadership.resolve, state, orders=(Order(ubba, "signal_advance", {}),), key=KEY)
    moved = state.unit(hird).y - done.state.unit(hird).y
    assert abs(moved - 1.0) < 1e-3  # 3" apart: only 1" before the 2" stop


def test_a_challenge_is_recorded_for_the_personal_combats() -> None:
    state = battle("leadership")
    guthrum = leader_named(state, "Guthrum")
    alfred = leader_named(state, "King Alfred")
    order = Order(guthrum, "challenge", {"leader": alfred})
    assert RULES.judge(state, order).legal
    assert not RULES.judge(
        state, Order(guthrum, "challenge", {"leader": leader_named(state, "Ubba Ragnarsson")})
    ).legal
    done = run(leadership.resolve, state, orders=(order,), key=KEY)
    assert CHALLENGE.of(done.state.leader(guthrum)) == alfred
    assert LPS_SPENT.of(done.state.leader(guthrum)) == 3


def test_camp_followers_remove_a_dp_nearby() -> None:
    state = battle("leadership")
    fyrd = unit_named(state, "Somerset Fyrd")
    unit = state.unit(fyrd)
    followers = replace(
        unit,
        id="saxons9",
        name="Camp followers",
        type="camp_followers",
        x=unit.x,
        y=unit.y - 3.0,
        status={"dps": 0},
    )
    state = replace(state, units=(*state.units, followers))
    state = with_status(state, fyrd, dps=2)
    done = run(leadership.resolve, state, key=KEY)
    assert DPS.of(done.state.unit(fyrd)) == 2 - RULES.parameter_values()["camp_followers_dps"]


def test_lps_are_plannable_orders_of_the_leadership_step() -> None:
    step = RULES.sequence.step("leadership")
    for kind in ("remove_dp", "change_aggression", "signal_advance", "challenge", "skilled_archer"):
        assert kind in step.order_kinds


def test_the_costs_drive_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(leadership.ACTION_LPS, "remove_dp", 5)
    monkeypatch.setitem(leadership.ADVANCE_INCHES, "blood lust", 4.0)
    state = battle("leadership", gap=20.0)
    ubba = leader_named(state, "Ubba Ragnarsson")  # 4 LPs
    hird = unit_named(state, "Ubba's Hird")
    state = with_status(state, hird, dps=1)
    assert not RULES.judge(state, Order(ubba, "remove_dp", {"unit": hird})).legal
    done = run(leadership.resolve, state, orders=(Order(ubba, "signal_advance", {}),), key=KEY)
    assert abs(state.unit(hird).y - done.state.unit(hird).y - 4.0) < 1e-6


def test_broken_or_retiring_units_do_not_advance_on_the_signal() -> None:
    state = battle("leadership", gap=20.0)
    ubba = leader_named(state, "Ubba Ragnarsson")
    hird, bondi = unit_named(state, "Ubba's Hird"), unit_named(state, "Ubba's Bondi")
    state = with_status(with_status(state, hird, retiring=True), bondi, broken=True)
    assert not RULES.judge(state, Order(ubba, "signal_advance", {})).legal  # nobody to move
