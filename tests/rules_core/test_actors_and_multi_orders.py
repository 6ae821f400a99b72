"""Orders given by units, leaders, groups and sides, several per actor where the kind allows."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core import engine
from rules_core.events import OrderRejected, StatusChanged, UnitMoved
from rules_core.orders import Illegal, Order, OrderKind, Param, joined
from rules_core.plugin import Rules
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState, Group

SEED = b"actors-seed"


def at_council(rules: Rules) -> BattleState:
    """The skirmish sample table under Muster's rules, with two wings a side, at the council."""
    state = sample_battle()
    wings = tuple(
        Group(f"{side.id}_{w}", f"{w} {side.id}", side.id, "wing")
        for side in state.sides
        for w in ("left", "right")
    )
    state = replace(state, groups=(*state.groups, *wings))
    return engine.run(rules, SEED, engine.begin(rules, state)).state


def test_every_actor_kind_is_judged_against_its_own_roster(muster: Rules) -> None:
    state = at_council(muster)
    assert state.cursor.step == "council"
    assert muster.judge(state, Order("red", "stance", {"stance": "bold"})).legal
    assert muster.judge(state, Order("red_left", "posture", {"posture": "attack"})).legal
    assert muster.judge(state, Order("red_lord", "rally", {"group": "red_left"})).legal
    wrong = muster.judge(state, Order("r1", "stance", {"stance": "bold"}))
    assert isinstance(wrong, Illegal) and wrong.reason == "no side 'r1' on the table"
    group_as_side = muster.judge(state, Order("red_left", "stance", {"stance": "bold"}))
    assert isinstance(group_as_side, Illegal)


def test_sides_and_groups_follow_defaults_and_their_orders(muster: Rules) -> None:
    state = at_council(muster)
    orders = [
        Order("red", "stance", {"stance": "bold"}),
        Order("blue_right", "posture", {"posture": "withdraw"}),
    ]
    after = engine.resolve(muster, SEED, state, orders).state
    assert after.side("red").status["stance"] == "bold"
    assert after.side("blue").status["stance"] == "wary"  # its default
    assert after.group("blue_right").status["posture"] == "withdraw"
    assert after.group("red_left").status["posture"] == "hold"  # its default


def test_a_leader_acts_several_times_in_the_order_given_up_to_the_limit(muster: Rules) -> None:
    state = at_council(muster)
    orders = [
        Order("red_lord", "inspire", {"unit": "r2", "cry": "For Red!"}),
        Order("red_lord", "rally", {"group": "red_right"}),
        Order("red_lord", "inspire", {"unit": "r2"}),
        Order("red_lord", "inspire", {"unit": "r3"}),  # a third: over the limit of two
    ]
    result = engine.resolve(muster, SEED, state, orders)
    assert result.state.unit("r2").status["inspired"] == 2
    assert "inspired" not in result.state.unit("r3").status
    assert result.state.group("red_right").status["rallied"] is True
    assert result.state.side("red").status["cries"] == 1
    rejected = [e for e in result.events if isinstance(e, OrderRejected)]
    assert rejected == [OrderRejected("red_lord", "inspire", "at most 2 inspire order(s) per step")]
    changed = [e.subject for e in result.events if isinstance(e, StatusChanged)]
    assert changed.index("r2") < changed.index("red_right")  # in the order given


def test_a_unit_marches_twice_and_a_kind_that_does_not_combine_keeps_the_first_refusing_it(
    muster: Rules,
) -> None:
    state = engine.resolve(muster, SEED, at_council(muster)).state
    assert state.cursor.step == "march"
    r1, r2 = state.unit("r1"), state.unit("r2")
    orders = [
        Order("r1", "march", {"to": [r1.x, r1.y + 1]}),
        Order("r1", "march", {"to": [r1.x + 1, r1.y + 1]}),
        Order("r2", "route", {"via": [[r2.x, r2.y + 1], [r2.x + 1, r2.y + 1]]}),
        Order("r2", "march", {"to": [0, 0]}),  # a route does not combine: refused
    ]
    result = engine.resolve(muster, SEED, state, orders)
    rejected = [e for e in result.events if isinstance(e, OrderRejected)]
    route, march = muster.order_kind("route").title, muster.order_kind("march").title
    assert rejected == [
        OrderRejected(
            "r2",
            "march",
            f"it already has a {route} order this step; {march} does not combine with it",
        )
    ]
    moves = [(e.unit, e.path[-1]) for e in result.events if isinstance(e, UnitMoved)]
    assert moves[:3] == [
        ("r1", (r1.x, r1.y + 1)),
        ("r1", (r1.x + 1, r1.y + 1)),
        ("r2", (r2.x + 1, r2.y + 1)),
    ]
    assert len(moves) == 3
    assert result.state.unit("r1").status["marches"] == 2


def test_joined_replaces_adds_and_refuses() -> None:
    kinds = {
        "hold": OrderKind("hold", "Hold"),
        "act": OrderKind("act", "Act", "leader", combines=True, limit=2),
        "aim": OrderKind("aim", "Aim", "leader", (Param("at", "path"),), combines=True),
    }
    hold, act, aim = Order("x", "hold"), Order("x", "act"), Order("x", "aim", {"at": [[1, 2]]})
    assert joined(kinds, [act], hold) == ((hold,), None)  # a non-combining kind replaces
    assert joined(kinds, [hold], act) == ((act,), None)  # and is replaced
    assert joined(kinds, [act, aim], act) == ((act, aim, act), None)
    assert joined(kinds, [act, act], act) == ((act, act), "at most 2 act order(s) per step")


@pytest.mark.parametrize(
    ("kind", "value", "problem"),
    [
        ("path", [[1, 2], [3, 4]], None),
        ("path", [], "via must be a path of points [[x, y], ...]"),
        ("path", [[1, 2], [3]], "via must be a path of points [[x, y], ...]"),
        ("group", "red_left", None),
        ("group", "", "via must be an id"),
    ],
)
def test_path_and_group_parameters(kind: str, value: object, problem: str | None) -> None:
    assert Param("via", kind).problem(value) == problem  # type: ignore[arg-type]


def test_an_unknown_actor_kind_or_a_zero_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown actor kind"):
        OrderKind("x", "X", "regiment")
    with pytest.raises(ValueError, match="limit must be at least 1"):
        OrderKind("x", "X", combines=True, limit=0)
