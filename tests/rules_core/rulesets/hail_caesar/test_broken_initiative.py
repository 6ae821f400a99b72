"""A broken division's units on their initiative: an advance is the GM's ruling, pre-selected
from the ``broken_initiative_ruling`` parameter; a move no nearer the enemy goes ahead."""

from __future__ import annotations

from dataclasses import replace

from rules_core import engine
from rules_core.decisions import GM, Answer
from rules_core.events import OrderRejected
from rules_core.orders import Illegal, Order, Preview, other_kinds
from rules_core.rulesets.hail_caesar import broken, measure
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.state import BattleState
from tests.rules_core.rulesets.hail_caesar.test_orders import at
from tests.rules_core.rulesets.hail_caesar.test_orders import broken as broken_state

RULES = HailCaesarRules()
SEED = b"b" * 32
NEARER = Order("r1", "move", {"to": [20, 31]})  # First Cohort 10" from the Slingers
AWAY = Order("r1", "move", {"to": [20, 23]})
WHY = (
    "First Cohort's division is broken and the GM ruled it may not advance on its initiative: "
    "give it a Retire order (one move, no nearer the enemy) or let it hold"
)


def near_the_enemy(*divisions: str, **parameters: str) -> BattleState:
    """First Cohort within 12" of the Gauls, at its division's orders, these divisions broken."""
    state = broken_state(at("orders", "rom_legio", r1=(20, 27, 0)), *divisions)
    return replace(state, parameters=dict(parameters))


def test_an_unbroken_unit_advances_on_its_initiative_without_a_question() -> None:
    state = near_the_enemy()
    result = engine.resolve(RULES, SEED, state, [NEARER])
    assert result.state.pending is None
    assert (result.state.unit("r1").x, result.state.unit("r1").y) == (20, 31)


def test_a_broken_division_unit_advancing_on_its_initiative_asks_the_gm_forbid_preselected() -> (
    None
):
    state = near_the_enemy("rom_legio")
    stopped = engine.resolve(RULES, SEED, state, [NEARER]).state
    assert stopped.pending is not None
    asked = stopped.pending.decision
    assert (asked.who, asked.default, asked.topic) == (GM, "forbid", "broken_advance")
    assert asked.question.startswith(
        "First Cohort's division is broken and it would move nearer to Slingers on its initiative"
    )
    result = engine.answer(RULES, SEED, stopped, Answer(asked.id, "forbid", GM))
    assert OrderRejected("r1", "move", WHY) in result.events
    assert result.state.unit("r1") == state.unit("r1")


def test_the_gm_may_allow_the_advance() -> None:
    stopped = engine.resolve(RULES, SEED, near_the_enemy("rom_legio"), [NEARER]).state
    assert stopped.pending is not None
    result = engine.answer(RULES, SEED, stopped, Answer(stopped.pending.decision.id, "allow", GM))
    assert (result.state.unit("r1").x, result.state.unit("r1").y) == (20, 31)


def test_a_campaign_may_preselect_allow() -> None:
    state = near_the_enemy("rom_legio", broken_initiative_ruling="allow")
    stopped = engine.resolve(RULES, SEED, state, [NEARER]).state
    assert stopped.pending is not None and stopped.pending.decision.default == "allow"


def test_a_charge_on_its_initiative_is_an_advance() -> None:
    state = near_the_enemy("rom_legio")
    charge = Order("r1", "charge", {"target": "g4"})
    assert broken.advance_towards(state, state.unit("r1"), charge) == state.unit("g4")


def test_an_initiative_move_no_nearer_the_enemy_needs_no_ruling() -> None:
    state = near_the_enemy("rom_legio")
    assert broken.advance_towards(state, state.unit("r1"), AWAY) is None
    result = engine.resolve(RULES, SEED, state, [AWAY])
    assert result.state.pending is None
    assert (result.state.unit("r1").x, result.state.unit("r1").y) == (20, 23)


def test_the_preview_warns_of_the_ruling_only_for_an_advance() -> None:
    state = near_the_enemy("rom_legio")
    found = RULES.judge(state, NEARER)
    assert isinstance(found, Preview)
    assert found.notes == (
        "its division is broken: the GM rules whether it may advance on its initiative "
        "(pre-selected: no); a Retire order, no nearer the enemy, needs no ruling",
    )
    away = RULES.judge(state, AWAY)
    assert isinstance(away, Preview) and away.notes == ()
    unbroken = RULES.judge(near_the_enemy(), NEARER)
    assert isinstance(unbroken, Preview) and unbroken.notes == ()


def test_an_ordered_move_refused_to_a_broken_division_offers_retire_or_hold() -> None:
    state = broken_state(at("orders", "rom_equites"), "rom_equites")
    unit = state.unit("r5")
    refused = RULES.judge(state, Order("r5", "move", {"to": [unit.x, unit.y + measure.rate(unit)]}))
    assert isinstance(refused, Illegal)
    assert refused.instead == (other_kinds("retire", "hold"),)
