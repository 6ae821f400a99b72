"""Impetus in the pace report: planning ahead, each side stops at most twice a game turn on
average, and the pre-battle procedure is counted apart."""

from __future__ import annotations

from bot import pace
from rules_core import registry


def test_impetus_planned_ahead_stops_at_most_twice_per_side_per_turn() -> None:
    assert "impetus" in pace.playable()
    rows = pace.measure(("impetus",), 2, standing=pace.scripted_standing)
    by = {row["mode"]: row for row in rows}
    plan, step = by["plan"], by["step"]
    assert plan["turns"] == 2
    assert float(plan["stops_mean"]) <= 2.0  # type: ignore[arg-type]
    assert float(plan["stops_mean"]) < float(step["stops_mean"])  # type: ignore[arg-type]
    assert int(plan["apart_stops"]) > 0  # type: ignore[call-overload]  # the pre-battle steps


def test_the_pre_battle_steps_are_counted_apart() -> None:
    rules = registry.get("impetus").rules
    assert rules is not None
    assert {"attacker", "deploy_first", "deploy_rest"} <= rules.pace_apart
    sample = rules.sample_battle()
    assert sample is not None
    played = pace.play(rules, sample, 1, "step")
    assert 0 not in played.stops  # nothing of the set-up counts as a turn's stop
    assert played.apart_stops > 0
