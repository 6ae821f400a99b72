"""The sequence of play, status declared once, wing orders, commanders and the battle's end."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import engine, registry
from rules_core.context import Suspended
from rules_core.decisions import GM, Answer
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.pike_and_shot import command
from rules_core.rulesets.pike_and_shot.rules import SEQUENCE, STEP_IDS
from rules_core.rulesets.pike_and_shot.status import (
    COHESION_ORDER,
    OFF_TABLE,
    REPLACED,
    STATUSES,
    WING_ORDER,
    better,
    worse,
)
from rules_core.shared_status import KILLED, WOUNDED
from rules_core.status import Scope
from rules_core.steps import Actors
from tests.rules_core.rulesets.pike_and_shot.helpers import RULES, at, context, status


def test_the_ruleset_is_registered_with_its_rules_and_two_sides() -> None:
    found = registry.get("pike_and_shot")
    assert found.rules is not None and found.measure == "inch"
    assert found.rules.sides == (2, 2)
    assert found.roster_schema.validate({"name": "x", "units": [{"name": "a"}]}) == []
    bad = found.roster_schema.validate(
        {"name": "x", "units": [{"name": "a", "type": "hussars", "quality": "elite"}]}
    )
    assert any("type" in p for p in bad) and any("quality" in p for p in bad)


def test_the_sequence_is_the_sheets_with_the_right_actors() -> None:
    assert tuple(step.id for step in SEQUENCE.steps) == STEP_IDS
    chain = ["orders"]
    while (following := SEQUENCE.step(chain[-1]).next) is not None:
        chain.append(following)
    assert chain == [
        "orders", "movement", "combat", "risk", "reform", "fatigue", "general_will",
        "replace_commanders", "commanders_move",
    ]  # fmt: skip
    assert SEQUENCE.setup == "deploy"
    orders = SEQUENCE.step("orders")
    assert orders.actors is Actors.BOTH and RULES.order_kind("wing_order").actor == "group"
    assert RULES.order_kind("command_move").actor == "leader"
    assert SEQUENCE.step("movement").actors is Actors.BOTH  # simultaneous


def test_every_state_the_sheet_tracks_is_declared_once() -> None:
    keys = {(item.scope, item.key) for item in STATUSES.items}
    for key in ("cohesion", "march_column", "attacker", "engaged", "pursuing", "cover", "pike",
                "lance", "armoured", "dismounted"):  # fmt: skip
        assert (Scope.UNIT, key) in keys, key
    for key in ("rank", "kind", "wounded", "killed", "off_table", "replaced"):
        assert (Scope.LEADER, key) in keys, key
    for key in ("wing_order", "fatigued"):
        assert (Scope.GROUP, key) in keys, key
    for key in ("army_commander", "withdraw_next_turn", "general_will"):
        assert (Scope.SIDE, key) in keys, key
    assert COHESION_ORDER == ("sound", "disordered", "disrupted", "routed", "destroyed")
    assert worse("sound") == "disordered" and worse("disrupted", 5) == "destroyed"
    assert better("disrupted") == "disordered" and better("sound") == "sound"


def test_wing_orders_stand_until_changed_even_with_the_commander_lost() -> None:
    state = at("orders", royalists4=(30, 10, 0))
    leader = state.leader("royalists_centre_cmdr")
    state = state.with_leader(replace(leader, status={**leader.status, "killed": True}))
    ctx = context(state, orders=[Order("royalists_centre", "wing_order", {"order": "hold"})])
    command.resolve_orders(ctx)
    assert WING_ORDER.of(ctx.state.group("royalists_centre")) == "hold"
    assert WING_ORDER.of(ctx.state.group("royalists_left")) == "attack"  # given none: stands
    assert RULES.default_order(ctx.state, "royalists_centre") == Order(
        "royalists_centre", "wing_order", {"order": "hold"}
    )


def test_an_army_ordered_to_withdraw_next_turn_must_withdraw() -> None:
    state = at("orders", royalists4=(30, 10, 0))
    side = state.side("royalists")
    state = state.with_side(replace(side, status={**side.status, "withdraw_next_turn": True}))
    refused = RULES.judge(state, Order("royalists_left", "wing_order", {"order": "attack"}))
    assert isinstance(refused, Illegal) and "withdraw" in refused.reason
    ctx = context(state)
    command.resolve_orders(ctx)
    assert all(WING_ORDER.of(g) == "withdraw" for g in ctx.state.groups if g.side == "royalists")
    assert WING_ORDER.of(ctx.state.group("parliament_left")) == "hold"


def test_a_wing_order_is_given_to_a_wing_only() -> None:
    state = at("orders", royalists4=(30, 10, 0))
    assert isinstance(
        RULES.judge(state, Order("royalists_left", "wing_order", {"order": "withdraw"})), Preview
    )
    bad = RULES.judge(state, Order("royalists_left", "wing_order", {"order": "charge"}))
    assert isinstance(bad, Illegal)


def test_risk_to_commanders_is_a_gm_ruling_with_the_roll_as_default() -> None:
    state = at("risk", royalists4=(30, 10, 0))
    leader = state.leader("royalists_centre_cmdr")
    state = state.with_leader(replace(leader, x=30, y=8))
    state = status(state, "royalists4", recoiled=True)
    with pytest.raises(Suspended) as asked:
        command.resolve_risk(context(state, faces=[1, 2]))
    decision = asked.value.decision
    assert decision.who == GM and decision.default == "killed"
    answer = Answer(decision.id, "wounded", GM)
    ctx = context(state, faces=[1, 2], answers=[answer])
    command.resolve_risk(ctx)
    assert WOUNDED.of(ctx.state.leader("royalists_centre_cmdr"))
    # A miss: no question.
    ctx = context(state, faces=[4])
    command.resolve_risk(ctx)
    assert not WOUNDED.of(ctx.state.leader("royalists_centre_cmdr"))


def test_the_roll_stands_when_the_campaign_says_so() -> None:
    state = at("risk", royalists4=(30, 10, 0))
    state = replace(state, parameters={**state.parameters, "commander_risk": "roll"})
    leader = state.leader("royalists_centre_cmdr")
    state = state.with_leader(replace(leader, attached_to="royalists4"))
    state = status(state, "royalists4", cohesion="routed")
    ctx = context(state, faces=[1, 5])
    command.resolve_risk(ctx)
    assert OFF_TABLE.of(ctx.state.leader("royalists_centre_cmdr"))


def test_a_killed_commander_is_replaced_by_an_ordinary_one() -> None:
    state = at("replace_commanders", royalists4=(30, 10, 0))
    leader = state.leader("royalists_right_cmdr")  # Byron, a heroic commander
    state = state.with_leader(replace(leader, status={**leader.status, "killed": True}))
    ctx = context(state)
    command.resolve_replace(ctx)
    assert all(ld.id != "royalists_right_cmdr" for ld in ctx.state.leaders)
    new = ctx.state.leader(ctx.state.group("royalists_right").leader or "")
    assert REPLACED.of(new) and new.status["kind"] == "" and not KILLED.of(new)
    assert WING_ORDER.of(ctx.state.group("royalists_right")) == "attack"


def test_a_replaced_army_commander_is_the_new_army_commander() -> None:
    state = at("replace_commanders", royalists4=(30, 10, 0))
    leader = state.leader("royalists_general")
    state = state.with_leader(replace(leader, status={**leader.status, "killed": True}))
    ctx = context(state)
    command.resolve_replace(ctx)
    chief = ctx.state.side("royalists").status["army_commander"]
    assert chief != "royalists_general" and ctx.state.leader(str(chief)).status["rank"] == "army"


def test_commanders_move_up_to_24_inches_and_may_attach() -> None:
    state = at("commanders_move", royalists4=(30, 20, 0))
    ok = RULES.judge(state, Order("royalists_centre_cmdr", "command_move",
                                  {"to": [30, 20], "attach": "royalists4"}))  # fmt: skip
    assert isinstance(ok, Preview) and "attaches" in ok.summary
    leader = state.leader("royalists_centre_cmdr")
    far = RULES.judge(state, Order(leader.id, "command_move", {"to": [leader.x, leader.y + 25]}))
    assert isinstance(far, Illegal) and '24"' in far.reason
    assert isinstance(ok, Preview)
    ctx = context(state, orders=[ok.order])
    command.resolve_commanders_move(ctx)
    moved = ctx.state.leader("royalists_centre_cmdr")
    assert moved.attached_to == "royalists4" and (moved.x, moved.y) == (30, 20)


def test_an_attached_commander_leaves_the_table_with_his_unit() -> None:
    state = at("combat", royalists4=(30, 10, 0))
    leader = state.leader("royalists_centre_cmdr")
    state = state.with_leader(replace(leader, attached_to="royalists4"))
    ctx = context(state)
    ctx.take_off_table("royalists4", "routed off")
    command.follow(ctx)
    assert OFF_TABLE.of(ctx.state.leader("royalists_centre_cmdr"))


def test_general_will_failing_ends_the_battle_and_both_at_once_is_a_draw() -> None:
    state = at("commanders_move", royalists4=(30, 10, 0), parliament3=(30, 30, 180))
    assert RULES.outcome(state) is None
    side = state.side("parliament")
    lost = state.with_side(replace(side, status={**side.status, "general_will": "failed"}))
    found = RULES.outcome(lost)
    assert found is not None and found.winner == "royalists"
    other = lost.side("royalists")
    both = lost.with_side(replace(other, status={**other.status, "general_will": "failed"}))
    drawn = RULES.outcome(both)
    assert drawn is not None and drawn.winner is None and "draw" in drawn.reason


def test_the_turn_limit_ends_the_battle_in_a_draw() -> None:
    state = at("orders", royalists4=(30, 10, 0), parliament3=(30, 30, 180))
    late = replace(state, cursor=replace(state.cursor, turn=7))
    found = RULES.outcome(late)
    assert found is not None and found.winner is None


def test_the_sample_battle_begins_and_fits_the_default_table() -> None:
    state = engine.begin(RULES, RULES.sample_battle())
    assert state.cursor.step == "deploy"
    for unit in state.units:
        assert RULES.deployment_problem(state, unit) is None, unit.name
    assert (state.battlefield.width, state.battlefield.depth) == RULES.default_table
