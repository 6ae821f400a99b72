"""The pace report's war table planner: the plan mode's players, every order posted through
the page's HTTP endpoints to the bot's services over a real SQLite file; on one seed its stops
per side per turn are the slash-command planners'."""

from __future__ import annotations

import pytest

from bot import pace
from rules_core import registry


@pytest.mark.parametrize("ruleset", ["skirmish", "hail_caesar"])
def test_the_war_table_planner_stops_as_the_slash_command_planner(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    made: list[pace.TablePlanner] = []

    def table() -> pace.TablePlanner:
        made.append(pace.TablePlanner())
        return made[-1]

    played = {}
    for mode in (pace.mode_of("plan"), pace.Mode("table", "war table", table)):
        sample = rules.sample_battle()
        assert sample is not None
        played[mode.id] = pace.play(rules, sample, 2, mode, seed=0)
    plan, web = played["plan"], played["table"]
    assert web.stops and web.stops == plan.stops  # per side, per turn
    assert web.row() | {"mode": "plan"} == plan.row()
    # planned through the page: the services kept orders (the plan is not the default's)
    assert sum(len(kept) for kept in made[0].orders.values()) > 0
    assert made[0].table is None  # the war table was stopped once played


def test_the_report_has_a_war_table_row() -> None:
    rows = pace.measure(("skirmish",), 1, seeds=3)
    (row,) = [r for r in rows if r["mode"] == "table"]
    assert row["available"] is True and row["seeds"] == 1
    assert "war table: plan ahead on the page" in pace.table(rows)
