"""The benchmark runs in its smoke mode and its big battles are what they claim to be."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench.__main__ import live_figures, main
from bench.engine import play_turns
from bench.report import Figure
from bench.targets import ISSUE_TARGETS, with_slots
from rules_core import registry
from rules_core.big_battles import begun, big_battle, deploy
from rules_core.registry import all_rulesets


def registry_ids() -> set[str]:
    """Every ruleset with a sample battle the benchmark can copy."""
    found = all_rulesets(include_unlisted=True)
    return {r.id for r in found if r.rules is not None and r.rules.sample_battle() is not None}


@pytest.mark.parametrize(
    "ruleset", ["skirmish", "tree_of_battles", "hail_caesar", "heroic_age", "pike_and_shot"]
)
def test_big_battle_copies_the_sample_with_unique_ids_and_closes_up(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    sample = rules.sample_battle()
    assert sample is not None
    big = big_battle(rules, len(sample.units) * 4)
    assert len(big.units) == len(sample.units) * 4
    assert len({u.id for u in big.units}) == len(big.units)
    assert {u.group for u in big.units} <= {g.id for g in big.groups}
    assert big.battlefield.width == sample.battlefield.width * 4
    assert all(0 <= u.x <= big.battlefield.width for u in big.units)
    gap = _gap(big)
    assert gap < _gap(sample)


def test_impetus_is_deployed_by_its_pre_battle_then_copied_and_closed_up() -> None:
    """Impetus's sample waits in reserve for the pre-battle; the bench battle starts at turn
    1 with every copy on the table and each side's starting VBU counted for all of them."""
    rules = registry.get("impetus").rules
    assert rules is not None
    deployed = deploy(rules, rules.sample_battle())  # type: ignore[arg-type]
    assert deployed.cursor.turn == 1
    assert all(u.location == "table" for u in deployed.units)
    big = begun(rules, len(deployed.units) * 4)
    assert big.cursor == deployed.cursor
    assert len(big.units) == len(deployed.units) * 4
    assert len({u.id for u in big.units}) == len(big.units)
    assert all(u.location == "table" for u in big.units)
    assert all(0 <= u.x <= big.battlefield.width for u in big.units)
    for side, alone in zip(big.sides, deployed.sides, strict=True):
        assert side.status["start_vbu"] == 4 * alone.status["start_vbu"]  # type: ignore[operator]
    assert _gap(big) < _gap(deployed)
    played = play_turns(rules, big, turns=1)
    assert len(played.turns) == 1


@pytest.mark.parametrize("ruleset", ["hail_caesar", "pike_and_shot"])
def test_a_ruleset_without_a_set_up_of_its_own_is_begun_as_before(ruleset: str) -> None:
    from rules_core import engine

    rules = registry.get(ruleset).rules
    assert rules is not None
    assert begun(rules, 24) == engine.begin(rules, big_battle(rules, 24))


def _gap(state) -> float:  # type: ignore[no-untyped-def]
    """The distance between the two sides' mean depths."""
    a, b = (sum(u.y for u in state.units_of(s.id)) / len(state.units_of(s.id)) for s in state.sides)
    return abs(a - b)


def test_a_turn_of_a_copied_battle_is_played_and_timed() -> None:
    rules = registry.get("hail_caesar").rules
    assert rules is not None
    played = play_turns(rules, big_battle(rules, 22), turns=1)
    assert played.units == 22
    assert len(played.turns) == 1
    assert played.largest > 0


def test_smoke_mode_prints_one_table_and_writes_json(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "bench.json"
    assert main(["--smoke", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| figure | value | target | met |" in printed
    data = json.loads(out.read_text())
    names = [f["name"] for f in data["figures"]]
    assert {"pike_and_shot", "impetus"} <= registry_ids()
    for ruleset in registry_ids():
        assert any(n.startswith(f"engine {ruleset} ") for n in names), ruleset
    assert any(n.startswith("map 120 units") for n in names)
    assert any(n.startswith("event loop lag while tree_of_battles") for n in names)
    for mode in ("thread", "process"):  # the engine in a thread, and in its worker process
        assert any(n.endswith(f"(ENGINE={mode}): largest") for n in names), mode
    # The bot through the fake Discord: latency, deadlines, memory and growth, each measured.
    for start in (
        "interaction one at a time",
        "interaction burst of",
        "resident memory",
        "at rest (its heap trimmed)",
        "start-up with",
        "deadlines due in the same 2 s",
        "/battle status p50 with",
    ):
        assert any(start in n for n in names), start
    assert "resident memory" in printed
    assert all(isinstance(f["value"], float) for f in data["figures"])
    # Every #37 target is printed beside its target: measured, or "not measured" with why.
    rows = [line for line in printed.splitlines() if line.startswith("| ")]
    for target in ISSUE_TARGETS:
        beside = [r for r in rows if target.key in r and f"| {target.target} |" in r]
        assert beside, target.key
    measured = {t.key for t in ISSUE_TARGETS if t.measured_by in ("bench.live", "bench.loop_lag")}
    measured -= {"burst of 100 (SQLite): p99", "burst of 100 (PostgreSQL): p99"}  # not --smoke
    for key in measured:
        assert any(key in n and "not measured" not in n for n in names), key


def test_a_battle_ending_before_a_full_turn_is_named_and_left_out_of_growth() -> None:
    from bench.engine import Played
    from bench.targets import engine_targets

    played = [
        Played("pike_and_shot", 16, [80.0], 30.0),
        Played("pike_and_shot", 128, [1000.0], 400.0),
        Played("pike_and_shot", 240, [], 1200.0, "ended in turn 1: a draw"),
    ]
    figures = {f.name: f for f in engine_targets(played)}
    ended = "engine pike_and_shot 240 units: full turn p50: no full turn, the battle ended"
    assert any(name.startswith(ended) for name in figures)
    assert all(f.met is None for name, f in figures.items() if name.startswith(ended))
    growth = [f for name, f in figures.items() if "cost per unit" in name]
    assert [f.name for f in growth] == ["engine pike_and_shot: cost per unit, 128 vs 16 units"]
    assert growth[0].value == (1000.0 / 128) / (80.0 / 16)


def test_a_target_no_figure_measured_is_printed_as_not_measured_with_why() -> None:
    measured = Figure("loop CPU per command: p50", 1.0, "ms", "<= 3 ms", True)
    figures = with_slots([measured], {"replay GIF": "no replay here"})
    assert figures[0] is measured
    assert len(figures) == len(ISSUE_TARGETS)  # the others, once each
    (gif,) = [f for f in figures if "replay GIF" in f.name]
    assert gif.name.endswith("not measured (no replay here)") and gif.target == "<= 3 s"
    assert gif.met is None
    (orders,) = [f for f in figures if "/orders mine" in f.name]
    assert orders.name.endswith("not measured (needs bench.orders_mine)")


@pytest.mark.skipif(not os.environ.get("TEST_POSTGRES_URL"), reason="needs TEST_POSTGRES_URL")
def test_the_bursts_are_measured_on_postgresql_when_a_server_is_given() -> None:
    found = live_figures(True, os.environ["TEST_POSTGRES_URL"])
    names = [f.name for f in found]
    assert names and all("(PostgreSQL)" in n for n in names), names
    assert any(n.endswith(": p99") and f.target for n, f in zip(names, found, strict=True))
