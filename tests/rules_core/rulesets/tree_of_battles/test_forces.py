"""A battle built the bot's way: forces from the army lists, deployment, prepare, carry-over."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules_core import engine, registry
from rules_core.codec import Json
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.record import BattleRecord
from rules_core.rulesets.tree_of_battles import demo
from rules_core.state import BattleState, Side
from rules_core.verify import verify

SEED = bytes.fromhex("5eed" * 16)


@pytest.fixture(scope="module")
def rules() -> Rules:
    found = registry.get("tree_of_battles").rules
    assert found is not None
    return found


def built(rules: Rules, width: float = 24.0, depth: float = 16.0) -> BattleState:
    """New battle, forces from both sample armies, every unit deployed across its zone."""
    armies = rules.sample_armies()
    sides = (Side("a", "England"), Side("b", "France"))
    state = rules.new_battle("tob-bot", "tree_of_battles", width, depth, sides)
    for side, army in zip(sides, armies, strict=True):
        groups, leaders = rules.forces_from_roster(army, side.id)
        state = replace(state, groups=state.groups + groups, leaders=state.leaders + leaders)
    for side, army in zip(sides, armies, strict=True):
        zone = rules.deployment_zone(state, side.id)
        assert zone is not None
        y = sum(p[1] for p in zone) / len(zone)
        entries = army["units"]
        assert isinstance(entries, list)
        for index, entry in enumerate(entries):
            assert isinstance(entry, dict)
            unit = rules.unit_from_roster(
                entry, f"{side.id}{index + 1}", side.id, f"{side.id}_main"
            )
            x = width * (index + 1) / (len(entries) + 1)
            facing = 0.0 if y < depth / 2 else 180.0
            state = replace(state, units=(*state.units, replace(unit, x=x, y=y, facing=facing)))
    return state


def test_the_sample_armies_validate_and_name_their_battles(rules: Rules) -> None:
    schema = registry.get("tree_of_battles").roster_schema
    armies = rules.sample_armies()
    assert [a["name"] for a in armies] == [
        "The English at Agincourt, 1415",
        "The French at Agincourt, 1415",
    ]
    assert all(schema.validate(army) == [] for army in armies)
    assert rules.default_table == (24.0, 16.0)


def test_leaders_are_prefixed_with_their_side_and_lead_their_battles(rules: Rules) -> None:
    groups, leaders = rules.forces_from_roster(rules.sample_armies()[0], "a")
    assert [(ld.id, ld.points, ld.attached_to, ld.group) for ld in leaders] == [
        ("a_henry", 4, "a3", "a_henry_battle"),
        ("a_york", 3, "a2", "a_york_battle"),
        ("a_camoys", 2, "a4", "a_camoys_battle"),
    ]
    assert leaders[0].status == {"rank": "marshal", "noble": True}
    assert (groups[0].id, groups[0].name, groups[0].kind, groups[0].leader) == (
        "a_henry_battle", "King Henry V's battle", "battle", "a_henry",
    )  # fmt: skip
    # two copies of one list cannot clash
    _, theirs = rules.forces_from_roster(rules.sample_armies()[0], "b")
    assert not {ld.id for ld in leaders} & {ld.id for ld in theirs}


def test_units_join_the_battle_their_entry_names(rules: Rules) -> None:
    english = rules.sample_armies()[0]["units"]
    assert isinstance(english, list)
    archers, baggage = english[0], english[5]
    assert isinstance(archers, dict) and isinstance(baggage, dict)
    assert rules.unit_from_roster(archers, "a1", "a", "a_main").group == "a_york_battle"
    assert rules.unit_from_roster(baggage, "a6", "a", "a_main").group == "a_main"


def test_a_lost_contingent_leaves_its_leader_to_join_another(rules: Rules) -> None:
    english = dict(rules.sample_armies()[0])
    units = list(english["units"])  # type: ignore[arg-type]
    york_vaward = units[1]
    assert isinstance(york_vaward, dict)
    units[1] = {**york_vaward, "status": "destroyed"}  # York's Vaward fell in an earlier battle
    _, leaders = rules.forces_from_roster({**english, "units": units}, "a")
    assert leaders[1].attached_to is None
    state = built(rules)
    state = replace(
        state,
        units=tuple(x for x in state.units if x.id != "a2"),
        leaders=tuple(ld if ld.id != "a_york" else leaders[1] for ld in state.leaders),
    )
    york = rules.prepare(state).leader("a_york")
    assert york.attached_to == "a1"  # the first contingent of his battle
    assert (york.x, york.y) == (state.unit("a1").x, state.unit("a1").y)


def test_prepare_places_leaders_with_their_contingents(rules: Rules) -> None:
    state = engine.begin(rules, built(rules))
    for leader in state.leaders:
        assert leader.attached_to is not None
        home = state.unit(leader.attached_to)
        assert (leader.x, leader.y) == (home.x, home.y)
    assert state.group("a_main").leader == "a_henry"
    assert state.group("b_main").leader == "b_albret"
    assert state.cursor.step == "command"


def test_unknown_battles_fall_back_to_the_main_group(rules: Rules) -> None:
    state = built(rules)
    stray = replace(state.unit("a1"), group="a_nobody_battle")
    assert rules.prepare(state.with_unit(stray)).unit("a1").group == "a_main"


def test_carry_over_costs_stands_and_marks_the_lost(rules: Rules) -> None:
    entry: dict[str, Json] = {"name": "Archers", "type": "archers", "stands": 4}
    unit = rules.unit_from_roster(entry, "a1", "a", "a_main")
    assert rules.carry_over(entry, unit) == entry
    hurt = unit.with_status(casualties=1, dps=3, broken=True)
    assert rules.carry_over(entry, hurt) == {**entry, "stands": 3}
    assert rules.carry_over({"name": "Bills"}, hurt) == {"name": "Bills", "stands": 3}
    assert rules.carry_over(entry, None) == {**entry, "status": "destroyed"}
    assert rules.carry_over(entry, unit.with_status(casualties=4))["status"] == "destroyed"


def test_the_demo_player_gives_leaders_orders_too(rules: Rules) -> None:
    state = engine.begin(rules, built(rules))
    assert state.cursor.step == "command"
    herald = Order("a_york", "new_orders", {"text": demo.HOLD_ORDERS})
    assert rules.demo_orders(state, "a") == [herald]
    assert demo.orders_for(rules, state, "a") == [herald]
    assert demo.orders_for(rules, state, "b") == []


def test_a_battle_built_the_bots_way_plays_and_verifies(rules: Rules) -> None:
    first = engine.begin(rules, built(rules))
    result = Resolution(first, (), ())
    answered = 0
    while result.state.outcome is None and result.state.cursor.turn <= 3:
        state = result.state
        if state.pending is not None:
            decision = state.pending.decision
            given = Answer(decision.id, rules.demo_answer(state), decision.who)
            result = result.then(engine.answer(rules, SEED, state, given))
            answered += 1
            continue
        sides = engine.waiting(rules, state).sides
        orders = [order for side in sides for order in demo.orders_for(rules, state, side)]
        result = result.then(engine.run(rules, SEED, state, orders))
    assert result.state.cursor.turn == 4 and answered > 0
    moved = [x for x in result.state.units_of("b") if x.y != first.unit(x.id).y]
    assert moved, "the attacker advanced"
    kept = BattleRecord.start(first, SEED).extended(result.entries)
    report = verify(json.loads(json.dumps(kept.revealed(SEED).to_dict())))
    assert report.ok, report.problem
