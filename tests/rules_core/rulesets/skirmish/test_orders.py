"""Skirmish orders: previews and refusals, with the numbers behind them."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules_core import engine, registry
from rules_core.context import Context
from rules_core.orders import Illegal, Order, Preview
from rules_core.plugin import Rules
from rules_core.rulesets.skirmish import measure
from rules_core.rulesets.skirmish.rules import _retreat
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState, Leader
from rules_core.steps import Cursor
from tests.rules_core.footprints import beside, laid


@pytest.fixture
def rules() -> Rules:
    found = registry.get("skirmish").rules
    assert found is not None
    return found


def in_step(step: str, side: str = "red", **moves: tuple[float, float, float]) -> BattleState:
    """The sample battle at a step of red's player turn, with some units placed (x, y, facing)."""
    state = replace(
        sample_battle(), cursor=Cursor(1, "main", step, (side, "blue" if side == "red" else "red"))
    )
    for key, (x, y, facing) in moves.items():
        state = state.with_unit(replace(state.unit(key), x=x, y=y, facing=facing))
    return state


def verdict(
    rules: Rules, state: BattleState, actor: str, kind: str, **params: object
) -> Preview | Illegal:
    return rules.judge(state, Order(actor, kind, params))  # type: ignore[arg-type]


def test_a_move_in_the_open(rules: Rules) -> None:
    found = verdict(rules, in_step("move"), "r1", "move", to=[12, 10])
    assert found == Preview(Order("r1", "move", {"to": [12, 10]}), 'moves 6" to (12, 10)')


def test_difficult_terrain_counts_double(rules: Rules) -> None:
    # From (18, 9) to (18, 14), the base 2" deep: its front goes 1" into the wood (y 14 to
    # 15), and that inch costs 2: 6" in all. The base, not the centre, is in the wood (#39).
    state = in_step("move", r1=(18, 9, 0))
    found = verdict(rules, state, "r1", "move", to=[18, 14])
    assert isinstance(found, Preview) and found.notes == ('1" in difficult terrain counts double',)
    refused = verdict(rules, state, "r1", "move", to=[18, 14.5])
    assert refused == Illegal(refused.order, 'needs 7" of movement, beyond its 6" move')


def test_a_stream_costs_two_inches(rules: Rules) -> None:
    # The stream runs from (26, 16) to (48, 20); r2's base (4" wide, 2" deep) first meets it
    # at its front left corner (x 28, y 16.36): the base, not the centre, crosses (#39).
    state = in_step("move", r2=(30, 11, 0))
    found = verdict(rules, state, "r2", "move", to=[30, 15])
    assert isinstance(found, Preview) and found.notes == ()
    up_to = verdict(rules, state, "r2", "move", to=[30, 15.3])  # its corner short of it
    assert isinstance(up_to, Preview) and up_to.notes == ()
    assert (
        measure.move_cost(state, state.unit("r2"), (30, 15), {**rules.parameter_values()}).cost == 4
    )
    beyond = verdict(rules, state, "r2", "move", to=[30, 16])
    assert beyond == Illegal(beyond.order, 'needs 7" of movement, beyond its 6" move')


def test_a_move_wholly_on_the_road_goes_further(rules: Rules) -> None:
    found = verdict(rules, in_step("move"), "r3", "move", to=[36, 15])
    assert isinstance(found, Preview) and found.notes == ("follows the road",)
    off_road = verdict(rules, in_step("move"), "r3", "move", to=[39, 14])
    assert off_road == Illegal(off_road.order, 'needs 10.4" of movement, beyond its 9" move')


def test_moves_may_not_pass_through_other_units(rules: Rules) -> None:
    state = in_step("move", r1=(24, 1.5, 0), r2=(24, 5, 0))
    found = verdict(rules, state, "r1", "move", to=[24, 7.5])
    assert found == Illegal(found.order, "Red Spearmen would pass through Red Archers")


def test_only_the_active_side_gives_orders(rules: Rules) -> None:
    found = verdict(rules, in_step("move"), "b1", "move", to=[12, 30])
    assert found == Illegal(found.order, "it is not blue's turn to give orders")
    wrong_step = verdict(rules, in_step("shoot"), "r1", "move", to=[12, 10])
    reason = "move orders are not given in the Shooting step; it takes only shoot or hold"
    assert wrong_step == Illegal(wrong_step.order, reason)


def test_a_charge_needs_the_target_to_the_front_and_in_reach(rules: Rules) -> None:
    # Off the road: Red Horse's front edge at y = 21, Blue Riders' near edge at y = 31.
    state = in_step("move", r3=(30, 20, 0), b3=(30, 32, 180))
    found = verdict(rules, state, "r3", "charge", target="b3")
    assert found == Illegal(found.order, 'Blue Riders is 10" away, beyond its 9" charge')
    on_road = in_step("move", r3=(36, 20, 0))
    assert verdict(rules, on_road, "r3", "charge", target="b3") == Preview(
        Order("r3", "charge", {"target": "b3"}),
        'charges Blue Riders, 10" away',
        ("follows the road",),
    )
    closer = in_step("move", r3=(30, 22, 0), b3=(30, 32, 180))
    assert verdict(rules, closer, "r3", "charge", target="b3") == Preview(
        Order("r3", "charge", {"target": "b3"}), 'charges Blue Riders, 8" away'
    )
    behind = in_step("move", r3=(30, 22, 180), b3=(30, 32, 180))
    refused = verdict(rules, behind, "r3", "charge", target="b3")
    assert refused == Illegal(refused.order, "Blue Riders is not to Red Horse's front")


def test_shooting_needs_range_and_sight(rules: Rules) -> None:
    # Archers at (24, 18) face Blue Slingers at (24, 32): front edge 19 to near edge 31 = 12.
    state = in_step("shoot", r2=(24, 18, 0))
    assert verdict(rules, state, "r2", "shoot", target="b2") == Preview(
        Order("r2", "shoot", {"target": "b2"}),
        'shoots at Blue Slingers, 12" away: long range, hits on 5+',
    )
    far = in_step("shoot", r2=(24, 17, 0))
    refused = verdict(rules, far, "r2", "shoot", target="b2")
    assert refused == Illegal(refused.order, 'Blue Slingers is 13" away, beyond 12" range')
    screened = in_step("shoot", r2=(24, 18, 0), r1=(24, 25, 0))
    blocked = verdict(rules, screened, "r2", "shoot", target="b2")
    assert blocked == Illegal(
        blocked.order, "no line of sight to Blue Slingers: blocked by Red Spearmen"
    )
    wooded = in_step("shoot", r2=(18, 10, 0), b2=(18, 24, 180))
    hidden = verdict(rules, wooded, "r2", "shoot", target="b2")
    assert hidden == Illegal(
        hidden.order, "no line of sight to Blue Slingers: blocked by Thornwood"
    )
    no_bows = verdict(rules, state, "r1", "shoot", target="b2")
    assert no_bows == Illegal(no_bows.order, "Red Spearmen has no missile weapons")


def test_leaders_never_block_sight(rules: Rules) -> None:
    state = in_step("shoot", r2=(24, 18, 0))
    state = state.with_leader(replace(state.leader("red_lord"), x=24, y=25))
    assert isinstance(verdict(rules, state, "r2", "shoot", target="b2"), Preview)


def test_the_turn_limit_makes_a_draw(rules: Rules) -> None:
    state = replace(sample_battle(), cursor=Cursor(7, "turn_start", "rally", ("red", "blue")))
    outcome = rules.outcome(state)
    assert outcome is not None and outcome.winner is None


def test_an_army_breaks_at_half_its_units(rules: Rules) -> None:
    state = sample_battle().without_unit("b1")
    assert not rules.army_broken(state, "blue")
    assert rules.army_broken(state.without_unit("b2"), "blue")
    outcome = rules.outcome(state.without_unit("b2"))
    assert outcome is not None and outcome.winner == "red"


def test_a_leader_on_the_table_is_data_like_any_other(rules: Rules) -> None:
    state = engine.begin(rules, sample_battle())
    assert state.leader("red_lord") == Leader(
        "red_lord", "Earl Aelfric", "red", "red_main", 24.0, 2.0, points=3
    )


def test_a_unit_in_the_way_stops_a_fall_back_short_of_the_table_edge(rules: Rules) -> None:
    # Red Spearmen (2" deep, y 4 to 6) fall back 4"; Red Horse stands 1" behind (y 1 to 3).
    state = in_step("melee", r1=(12.0, 5.0, 0.0), r3=(12.0, 2.0, 0.0))
    ctx = Context(rules, state, (), (), random.Random(0))
    assert _retreat(ctx, ctx.state.unit("r1"), 180.0, 4.0, "falls back")
    assert ctx.state.unit("r1").y == pytest.approx(4.0, abs=0.003)
    # With the way clear, 6" takes its centre off the table.
    ctx = Context(rules, state.without_unit("r3"), (), (), random.Random(0))
    assert not _retreat(ctx, ctx.state.unit("r1"), 180.0, 6.0, "falls back")


def test_a_base_brushing_a_wood_its_centre_line_misses_pays_for_it(rules: Rules) -> None:
    # A wood under only the right quarter of r1's front, from 1" before it (#39 item 2):
    # moving 3" takes the base 2" into it, which counts double: 5" in all.
    state = in_step("move", r1=(10, 9, 0))
    state = laid(state, beside(state.unit("r1"), "wood", 1.0))
    found = verdict(rules, state, "r1", "move", to=[10, 12])
    assert isinstance(found, Preview) and found.notes == ('2" in difficult terrain counts double',)
    assert measure.move_cost(state, state.unit("r1"), (10, 12), rules.parameter_values()).cost == 5
