"""The pace report: scripted players planning ahead stop less than players answering step by
step, and the JSON carries every field (no timing assertions)."""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from bot import pace
from bot.services.settings import DEFAULT_POLICY, DeadlinePolicy, decision_deadline, step_deadline
from rules_core import registry
from rules_core.plugin import Rules
from rules_core.state import BattleState


def test_planning_ahead_needs_fewer_stops_than_step_by_step() -> None:
    rulesets = ("hail_caesar", "tree_of_battles", "heroic_age", "pike_and_shot")
    rows = pace.measure(rulesets, 1, standing=pace.scripted_standing)
    by = {(row["ruleset"], row["mode"]): row for row in rows}
    for ruleset in rulesets:
        step, plan = by[(ruleset, "step")], by[(ruleset, "plan")]
        assert step["turns"] == plan["turns"] == 1
        assert float(plan["stops_mean"]) < float(step["stops_mean"])  # type: ignore[arg-type]
        assert set(FIELDS) <= set(step) and set(FIELDS) <= set(plan)


FIELDS = pace.FIELDS


def test_a_step_by_step_hail_caesar_turn_stops_each_side_at_every_step() -> None:
    rules = registry.get("hail_caesar").rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None
    played = pace.play(rules, sample, 1, "step")
    # General Advance, one order step per division (two each) and shooting, per side.
    assert min(played.stops[1].values()) >= 4


def test_the_command_prints_a_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "pace.json"
    done = subprocess.run(
        [sys.executable, "-m", "bot", "pace", "--ruleset", "hail_caesar", "--turns", "1",
         "--json", str(out), "--seed", "3", "--seeds", "2"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "| hail_caesar | step by step | 2 | 1 |" in done.stdout
    assert "| hail_caesar | plan ahead | 2 | 1 |" in done.stdout
    data = json.loads(out.read_text())
    assert data["fields"] == list(FIELDS)
    assert [row["mode"] for row in data["rows"]] == [mode.id for mode in pace.MODES]
    for row in data["rows"]:
        assert set(row) == set(FIELDS)


def test_every_mode_has_a_row_and_one_not_in_this_build_says_so_without_figures() -> None:
    modes = ["step", "plan", "recommended", "conditional", "table"]
    assert [mode.id for mode in pace.MODES] == modes
    rows = pace.measure(("hail_caesar",), 1, seeds=2)
    by = {row["mode"]: row for row in rows}
    assert set(by) == set(modes)
    for mode in pace.MODES:
        row = by[mode.id]
        if mode.available:
            assert row["available"] is True and row["seeds"] == min(2, mode.most_seeds or 2)
            assert isinstance(row["stops_mean"], float) and isinstance(row["hours_p90"], float)
            assert row["hours_p90"] >= row["hours_median"]  # type: ignore[operator]
        else:  # no feature, no figure
            assert row["available"] is False
            figures = {row[name] for name in FIELDS if name not in ("ruleset", "mode", "available")}
            assert figures == {pace.NOT_AVAILABLE}
    shown = pace.table(rows).splitlines()
    missing = [line for line in shown if pace.NOT_AVAILABLE in line]
    titles = [m.title for m in pace.MODES if not m.available]
    assert len(missing) == len(titles) and all(
        t in line for t, line in zip(titles, missing, strict=True)
    )
    assert {line.count("|") for line in shown} == {15}  # every row has every column


def test_a_mode_s_planner_is_its_hook() -> None:
    """A mode plays with the planner it names: one that never plans stops at every step."""
    rules = registry.get("hail_caesar").rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None

    class Forgetful(pace.OrdersPlanner):
        def plan(self, rules: Rules, state: BattleState, side: str) -> None:
            return None  # plans nothing and is never done for the turn

    forgetful = pace.play(rules, sample, 1, pace.Mode("forgetful", "forgets", Forgetful))
    planned = pace.play(rules, sample, 1, "plan")
    assert forgetful.mode == "forgetful" and min(forgetful.counts()) >= 3  # each of its steps
    assert max(planned.counts()) < min(forgetful.counts())


def test_figures_pool_every_seed_and_the_ninetieth_percentile_is_a_rank() -> None:
    rules = registry.get("skirmish").rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None
    played = [pace.play(rules, sample, 2, "plan", seed) for seed in range(3)]
    row = pace.summary("skirmish", "plan", played)
    hours = sorted(h for p in played for h in p.hours())
    assert row["seeds"] == 3 and row["turns"] == 2
    assert row["hours_median"] == round(statistics.median(hours), 1)
    assert row["hours_p90"] == round(hours[math.ceil(0.9 * len(hours)) - 1], 1)
    falls = sum(p.fallbacks for p in played) / sum(len(p.turns) * len(p.sides) for p in played)
    assert row["fallbacks_mean"] == round(falls, 2)
    assert pace.percentile([], 0.9) == 0.0 and pace.percentile([5.0], 0.9) == 5.0


def test_an_unavailable_mode_is_not_played() -> None:
    rules = registry.get("skirmish").rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None
    with pytest.raises(ValueError, match="not available"):
        pace.play(rules, sample, 1, pace.Mode("later", "later", available=False))


def test_an_unknown_ruleset_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "pace", "--ruleset", "chess", "--turns", "1"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2 and "no sample battle for chess" in done.stderr


def test_own_deadlines_scale_with_the_campaign_policy() -> None:
    assert step_deadline(DEFAULT_POLICY) == 48.0
    assert decision_deadline(DEFAULT_POLICY, 8.0) == 8.0
    fast = DeadlinePolicy(step_hours=24.0, decision_hours=12.0)
    assert step_deadline(fast, 12.0) == 6.0
    assert decision_deadline(fast, 8.0) == 4.0
    assert decision_deadline(fast) == 12.0


def test_stops_at_steps_a_ruleset_counts_apart_are_a_column_of_their_own() -> None:
    rules = registry.get("heroic_age").rules
    assert rules is not None and "duels" in rules.pace_apart  # personal combats

    class MovementApart(type(rules)):  # type: ignore[misc]
        pace_apart = frozenset({"movement"})

    sample = rules.sample_battle()
    assert sample is not None
    plain = pace.play(rules, sample, 1, "step")
    apart = pace.play(MovementApart(), sample, 1, "step")
    assert plain.apart_stops == 0 and apart.apart_stops == 2  # both sides' Movement orders
    assert sum(apart.stops[1].values()) == sum(plain.stops[1].values()) - 2


def test_pike_and_shot_planned_ahead_stops_each_side_at_most_once_a_turn() -> None:
    rules = registry.get("pike_and_shot").rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None
    played = pace.play(rules, sample, 3, "plan", standing=pace.scripted_standing)
    assert played.stops and all(n <= 1 for turn in played.stops.values() for n in turn.values())


def test_the_recommended_modes_answer_with_the_rulesets_recommended_set() -> None:
    rules = registry.get("skirmish").rules  # its sides are asked in the first two turns
    assert rules is not None and rules.recommended
    sample = rules.sample_battle()
    assert sample is not None
    played = {m: pace.play(rules, sample, 2, m) for m in ("plan", "recommended")}
    assert played["recommended"].questions < played["plan"].questions  # the set answers
    assert pace.mode_of("recommended").standing is pace.recommended
    conditional = pace.mode_of("conditional")
    assert conditional.standing is pace.recommended and conditional.planner is not None
    planner = conditional.planner()
    assert isinstance(planner, pace.OrdersPlanner) and planner.conditional
