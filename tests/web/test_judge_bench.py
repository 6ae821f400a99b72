"""``bench.web_judge`` in its smoke mode: a judgement posted by the page runs the ruleset's
judge off the bot's loop, and the bench says so."""

from __future__ import annotations

from bench import web_judge


def test_the_pages_judgement_runs_off_the_loop() -> None:
    figures = {f.name: f for f in web_judge.figures(smoke=True)}
    on_loop = figures[
        "war table judging: the ruleset's judge ran on the loop's thread (1 yes, 0 no)"
    ]
    assert on_loop.value == 0.0 and on_loop.met is True
    cpu = next(f for name, f in figures.items() if "server CPU p50" in name)
    assert cpu.value > 0 and cpu.target == "<= 50 ms"
    reach = next(f for name, f in figures.items() if name.startswith("war table reach"))
    assert reach.value > 0 and "50 ms" in reach.target


def test_the_bench_prints_a_charge_judged_with_its_odds_beside_50_ms() -> None:
    figures = {f.name: f for f in web_judge.figures(smoke=True)}
    name = "war table judgement of a charge with its odds (12 units): server CPU p50"
    assert figures[name].value > 0 and figures[name].target == "<= 50 ms"
    assert figures[f"{name}: the odds asked alone (their own read)"].value > 0
