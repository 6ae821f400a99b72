"""The pace report's war table planner: the plan mode's players, every order posted through
the page's HTTP endpoints to the bot's services over a real SQLite file; on one seed its stops
per side per turn are the slash-command planners'."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot import pace
from rules_core import registry


@pytest.mark.parametrize("ruleset", pace.playable())
def test_the_war_table_planner_stops_as_the_slash_command_planner(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    made: dict[str, pace.OrdersPlanner] = {}

    def planner(kind: type[pace.OrdersPlanner]) -> Callable[[], pace.Planner]:
        def make() -> pace.Planner:
            made[kind.__name__] = kind()
            return made[kind.__name__]

        return make

    played = {}
    for kind in (pace.OrdersPlanner, pace.TablePlanner):
        sample = rules.sample_battle()
        assert sample is not None
        played[kind] = pace.play(rules, sample, 2, pace.Mode("x", "x", planner(kind)), seed=0)
    plan, web = played[pace.OrdersPlanner], played[pace.TablePlanner]
    assert web.stops and web.stops == plan.stops  # per side, per turn
    assert web.row() == plan.row()
    # planned through the page: the services kept every order the slash planner keeps
    kept = {name: sorted(map(repr, planner.orders.values())) for name, planner in made.items()}
    assert kept["TablePlanner"] == kept["OrdersPlanner"] != []
    table = made["TablePlanner"]
    assert isinstance(table, pace.TablePlanner) and table.table is None  # stopped once played


def test_the_report_has_a_war_table_row() -> None:
    rows = pace.measure(("skirmish",), 1, seeds=3)
    (row,) = [r for r in rows if r["mode"] == "table"]
    assert row["available"] is True and row["seeds"] == 1
    assert "war table: plan ahead on the page" in pace.table(rows)
