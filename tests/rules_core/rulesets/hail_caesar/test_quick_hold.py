"""Hail Caesar judges a plain hold at once: the verdict is the one full judging gives."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.rulesets.hail_caesar.rules import SEQUENCE, HailCaesarRules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import OFF_TABLE, RESERVE, BattleState
from rules_core.steps import Cursor, Subject

RULES = HailCaesarRules()


def states() -> list[BattleState]:
    """The sample battle at every step, in each side's player turn (the orders step in a Roman
    division's turn), with one Roman unit in reserve and one off the table."""
    battle = sample_battle()
    battle = battle.with_unit(replace(battle.unit("r2"), location=RESERVE))
    battle = battle.with_unit(replace(battle.unit("r3"), location=OFF_TABLE))
    found = []
    for step in SEQUENCE.steps:
        for turn in (0, 1):
            subjects = (Subject("rom_legio", "rom"),) if step.id == "orders" else ()
            cursor = Cursor(1, "main", step.id, ("rom", "gau"), turn, subjects)
            found.append(replace(battle, cursor=cursor))
    return found


@pytest.mark.parametrize(
    ("params", "verdicts"),
    [
        ({}, {"Preview", "Illegal"}),
        ({"option": "order"}, {"Illegal"}),
        ({"to": [2, 6]}, {"Illegal"}),
    ],
)
def test_a_hold_is_judged_as_full_judging_would(
    params: dict[str, object], verdicts: set[str]
) -> None:
    seen = set()
    for state in states():
        for actor in [u.id for u in state.units] + [ld.id for ld in state.leaders] + ["nobody"]:
            order = Order(actor, "hold", params)  # type: ignore[arg-type]
            quick = RULES.judge(state, order)
            assert quick == Rules.judge(RULES, state, order), (state.cursor, actor)
            seen.add(type(quick).__name__)
    assert seen == verdicts  # a plain hold is both allowed and refused somewhere: both compared
