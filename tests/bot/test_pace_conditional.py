"""The pace report's players planning ahead with conditional plans: each planned order carries
the unit's plain orders (hold, rally) as alternatives, and an order not possible as the battle
stands now is kept when it has some, to be judged at its step."""

from __future__ import annotations

from bot import pace
from rules_core import engine, planning, registry
from rules_core.orders import Illegal
from rules_core.plugin import Rules
from rules_core.state import BattleState


def _sample(ruleset: str) -> tuple[Rules, BattleState]:
    """A ruleset's rules and its sample battle."""
    found = registry.get(ruleset)
    assert found.rules is not None
    sample = found.rules.sample_battle()
    assert sample is not None
    return found.rules, sample


def test_a_conditional_planner_gives_its_orders_alternatives_legal_now() -> None:
    rules, sample = _sample("tree_of_battles")
    state = engine.begin(rules, sample)
    while not planning.side_steps(rules, state, state.sides[0].id)[1:]:
        orders = [
            o for s in engine.waiting(rules, state).sides for o in rules.demo_orders(state, s)
        ]
        state = engine.settle(rules, b"s", engine.run(rules, b"s", state, orders)).state
    plain, conditional = pace.OrdersPlanner(), pace.OrdersPlanner(conditional=True)
    for side in state.cursor.side_order:
        plain.plan(rules, state, side)
        conditional.plan(rules, state, side)
    steps = {s.key: s for s in planning.turn_steps(rules, state)}
    given = [p for ps in conditional.orders.values() for p in ps]
    assert not [p for ps in plain.orders.values() for p in ps if p.alternatives]
    with_alternatives = [p for p in given if p.alternatives]
    assert with_alternatives
    for planned in with_alternatives:
        placed = planning.at_step(state, steps[planned.step])
        assert all(a.actor == planned.order.actor for a in planned.alternatives)
        assert not [a for a in planned.alternatives if isinstance(rules.judge(placed, a), Illegal)]
    # Kept though not possible now: only because something may be tried in its place.
    later = [
        p
        for p in given
        if isinstance(rules.judge(planning.at_step(state, steps[p.step]), p.order), Illegal)
    ]
    assert all(p.alternatives for p in later)


def test_conditional_plans_fall_back_on_the_default_less_often() -> None:
    for ruleset in ("tree_of_battles", "hail_caesar"):
        rules, sample = _sample(ruleset)
        plain = pace.play(rules, sample, 2, "plan", standing=pace.scripted_standing)
        # the conditional mode's planner, with the same instructions as the plain run
        conditional = pace.play(rules, sample, 2, "conditional", standing=pace.scripted_standing)
        assert conditional.fallbacks < plain.fallbacks


def test_players_whose_part_comes_later_plan_it_as_the_turn_opens() -> None:
    """Hail Caesar: Gaul's part of turn 1 comes after Rome's, yet Gaul is called (and plans)
    when Rome's opens, as the bot calls it (``plans.later_in_turn``): both wait together."""
    rules, sample = _sample("hail_caesar")
    state = engine.begin(rules, sample)
    planner = pace.OrdersPlanner(conditional=True)
    while state.cursor.turn < 1 or state.pending is not None:
        orders = [
            o for s in engine.waiting(rules, state).sides for o in rules.demo_orders(state, s)
        ]
        state = engine.settle(rules, b"s", engine.run(rules, b"s", state, orders)).state
    acting = engine.waiting(rules, state).sides
    assert acting == ("rom",)
    assert pace.later_in_turn(rules, state, planner, acting) == ["gau"]
    planner.plan(rules, state, "gau")
    assert pace.later_in_turn(rules, state, planner, acting) == []
    # In the whole battle each side stops once per turn, both in the same wait (planning
    # this turn only: with plans for the next turn, every other turn is not waited on).
    this_turn = pace.Mode("this-turn", "", lambda: pace.OrdersPlanner(conditional=True))
    played = pace.play(rules, sample, 3, this_turn, 1, standing=pace.recommended)
    assert all(set(stops.values()) == {1} for stops in played.stops.values()), played.stops


def test_orders_planned_after_a_preview_rarely_fall_back() -> None:
    """Planned with the preview of the battle after the side's own earlier orders (a leader's
    second command action after the first has spent its points), conditional plans fall back
    on the default at most half an order per side per turn in every ruleset."""
    for ruleset in pace.playable():
        rules, sample = _sample(ruleset)
        played = [pace.play(rules, sample, 4, "conditional", seed) for seed in range(2)]
        row = pace.summary(ruleset, "conditional", played)
        assert isinstance(row["fallbacks_mean"], float) and row["fallbacks_mean"] <= 0.5, row


def test_plans_for_the_next_turn_stop_each_side_less_than_once_a_turn() -> None:
    """Called, a conditional planner plans the next game turn too: that turn does not wait
    for it, so a side stops about every other turn and the slow turns are fewer. Planning
    this turn only (the same planner without ``ahead``), every side stops every turn."""
    this_turn = pace.Mode(
        "this-turn",
        "this turn only",
        lambda: pace.OrdersPlanner(conditional=True),
        pace.recommended,
    )
    for ruleset in ("hail_caesar", "skirmish"):
        rules, sample = _sample(ruleset)
        ahead = [pace.play(rules, sample, 4, "conditional", seed) for seed in range(4)]
        alone = [pace.play(rules, sample, 4, this_turn, seed) for seed in range(4)]
        row = pace.summary(ruleset, "conditional", ahead)
        before = pace.summary(ruleset, "this-turn", alone)
        assert before["stops_mean"] == 1.0, before
        assert isinstance(row["stops_mean"], float) and row["stops_mean"] <= 0.75, row
        assert row["hours_p90"] < before["hours_p90"], (row, before)  # type: ignore[operator]
        assert isinstance(row["fallbacks_mean"], float) and row["fallbacks_mean"] <= 0.5, row
        # A turn nobody stopped in took no time: every order in it was planned a turn before.
        assert any(
            sum(p.stops.get(turn, {}).values()) == 0 and p.elapsed[turn] == 0.0
            for p in ahead
            for turn in p.turns
        )
