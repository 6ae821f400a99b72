"""Faults the AI fuzzer (tests/bot/test_ai_fuzz.py, seeds 3-39) found in Hail Caesar, each
rebuilt as a small state: no move leaves a base on another unit."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.context import Context
from rules_core.geometry import TOUCH, Footprint, penetration
from rules_core.rulesets.hail_caesar import measure, movement
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor, Subject
from tests.bot.test_ai_fuzz import fuzzed

RULES = HailCaesarRules()
# Seed 5: the Carnutes Warband (6" by 2") beside the Arverni Warband (8" by 2"), sent towards
# a point almost straight south of it: turned there where it stands, its base swings 0.27"
# into the Arverni, and every step along the way passes through them.
HEADING = 186.509
GOAL = (27.77 + 3 * math.sin(math.radians(HEADING)), 38.69 + 3 * math.cos(math.radians(HEADING)))


def state() -> BattleState:
    """The two warbands as seed 5 left them before the Carnutes' initiative move."""
    cursor = Cursor(3, "main", "orders", ("gau", "rom"), 0, (Subject("gau_warbands", "gau"),))
    base = replace(sample_battle(), cursor=cursor)
    arverni = replace(base.unit("g1"), x=20.9, y=37.4, facing=156.0)
    carnutes = replace(base.unit("g2"), x=27.77, y=38.69, facing=213.53)
    return replace(base, units=(arverni, carnutes), terrain=(), leaders=())


def test_turned_where_it_stands_the_base_is_on_its_neighbour() -> None:
    here = state()
    turned = Footprint.of(here.unit("g2")).moved_to((27.77, 38.69), HEADING)
    assert penetration(turned, Footprint.of(here.unit("g1"))) > 0.2


def test_with_no_room_to_turn_and_go_the_search_leaves_it_unturned() -> None:
    here = state()
    pose = measure.reachable(here, here.unit("g2"), GOAL, 3.0, HEADING, 1.0)
    assert (pose.x, pose.y, pose.facing) == (27.77, 38.69, 213.53)


def test_the_move_leaves_it_as_it_stood_and_on_nobody() -> None:
    ctx = Context(RULES, state(), (), (), random.Random(0))
    movement.move_to(ctx, ctx.state.unit("g2"), GOAL, 1, None, "initiative move")
    carnutes = ctx.state.unit("g2")
    assert (carnutes.x, carnutes.y, carnutes.facing) == (27.77, 38.69, 213.53)
    arverni = Footprint.of(ctx.state.unit("g1"))
    assert penetration(Footprint.of(carnutes), arverni) <= TOUCH


@pytest.mark.parametrize("seed", [5])
def test_the_seed_the_fuzzer_found_the_fault_in_now_plays_clean(seed: int) -> None:
    rules = registry.get("hail_caesar").rules
    assert rules is not None
    _, _, found = fuzzed(rules, seed)
    assert found == []
