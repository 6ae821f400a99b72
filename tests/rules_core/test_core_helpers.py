"""Helpers rulesets will need: a leader's move, units and leaders joining or leaving the battle
mid-way, and changes to a roll's number of dice kept on the roll with their reasons."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.context import Context
from rules_core.dice import Dice, Modifier, Roll
from rules_core.events import ArrivedOrLeft, LeaderMoved, event_from_dict, event_to_dict
from rules_core.render import Renderer
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import Leader


def context() -> Context:
    rules = registry.get("skirmish").rules
    assert rules is not None
    return Context(rules, sample_battle(), (), (), random.Random(1))


def test_a_leader_moves_along_a_path_and_the_log_says_how_far() -> None:
    ctx = context()
    ctx.move_leader("red_lord", [(10, 4), (13, 8)], ["to rally the left"])
    lord = ctx.state.leader("red_lord")
    assert (lord.x, lord.y, lord.attached_to) == (13, 8, None)
    (moved,) = ctx.events
    assert moved == LeaderMoved("red_lord", ((10, 4), (13, 8)), 5.0, ("to rally the left",))
    assert event_from_dict(json.loads(json.dumps(event_to_dict(moved)))) == moved
    line = Renderer.for_state(ctx.state).line(moved)
    assert line == f'{lord.name} moves 5" to (13, 8); to rally the left'


def test_units_and_leaders_join_and_leave_with_a_reason() -> None:
    ctx = context()
    hero = Leader("red_hero", "Achilles", "red", "red_main", 20, 6)
    ctx.add_leader(hero, "a hero appears")
    reinforcement = replace(ctx.state.unit("r1"), id="r9", name="Red Reserve", x=40, y=4)
    ctx.add_unit(reinforcement, "reinforcements arrive")
    ctx.remove_leader("red_lord", "replaced by Achilles")
    ctx.remove_unit("r2", "sent to guard the baggage")
    assert [ld.id for ld in ctx.state.leaders] == ["blue_lord", "red_hero"]
    assert ctx.state.unit("r9").name == "Red Reserve"
    assert "r2" not in [u.id for u in ctx.state.units]
    renderer = Renderer.for_state(ctx.state, sample_battle())
    assert renderer.lines(ctx.events) == [
        "Achilles joins the battle: a hero appears",
        "Red Reserve joins the battle: reinforcements arrive",
        f"{sample_battle().leader('red_lord').name} leaves the battle: replaced by Achilles",
        f"{sample_battle().unit('r2').name} leaves the battle: sent to guard the baggage",
    ]
    assert all(isinstance(e, ArrivedOrLeft) for e in ctx.events)
    with pytest.raises(KeyError, match="already on the table"):
        ctx.add_unit(reinforcement, "twice")


def test_a_roll_keeps_its_changes_to_the_number_of_dice() -> None:
    dice = Dice(random.Random(3))
    changes = (Modifier(2, "charging"), Modifier(-1, "disordered"))
    roll = dice.roll("Melee", 3, dice_modifiers=changes)
    assert len(roll.dice) == 4 and roll.expression == "4D6"
    assert roll.describe().startswith("Melee: 4D6 [+2 dice charging, -1 die disordered] (")
    assert Roll.from_dict(json.loads(json.dumps(roll.to_dict()))) == roll
    plain = dice.roll("Melee", 3)
    assert "dice_modifiers" not in plain.to_dict()  # records of plain rolls are unchanged
    fewest = dice.roll("Shooting", 2, dice_modifiers=(Modifier(-5, "long range"),))
    assert len(fewest.dice) == 1  # never below one die
