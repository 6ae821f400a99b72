"""The benchmark and the sample-map script run and say what they did."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PIL import Image

from bench import maps as bench
from bot.rendering import style
from bot.rendering.style import TERRAIN_COLOURS
from rules_core.state import LINEAR_KINDS, TERRAIN_KINDS
from tools import sample_maps as sample


def test_bench_scene_has_120_units_and_30_terrain_features() -> None:
    state, events = bench.busy_battle()
    assert len(state.units) == 120
    assert len(state.terrain) == 30
    assert events


def test_bench_without_matplotlib_prints_its_figures_and_how_to_compare(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "bench.maps_matplotlib", None)  # import fails
    code = bench.main(["--runs", "1"])
    out = capsys.readouterr().out
    assert "median" in out and "KB" in out
    assert "pip install matplotlib" in out
    assert code in (0, 1)  # 1 only if this machine misses the targets


def test_the_matplotlib_comparison_knows_every_terrain_kind() -> None:
    """The comparison once crashed on ``impassable`` (a kind added after it); the bench scene
    cycles through every kind, so each needs a colour there."""
    drawn = {f.kind for f in bench.busy_battle()[0].terrain}
    assert drawn == set(TERRAIN_KINDS)
    known = style.COMPARISON_AREAS.keys() | style.COMPARISON_LINES.keys()
    assert set(TERRAIN_KINDS) <= known, set(TERRAIN_KINDS) - known
    assert style.COMPARISON_LINES.keys() == LINEAR_KINDS
    colours = [*style.COMPARISON_AREAS.values(), *(c for c, _ in style.COMPARISON_LINES.values())]
    assert set(colours) <= TERRAIN_COLOURS.keys()


def test_the_matplotlib_comparison_draws_the_bench_scene() -> None:
    pytest.importorskip("matplotlib")
    from bench.maps_matplotlib import renderer

    state, events = bench.busy_battle()
    png = renderer(state, events, 400, 267)()
    assert png.startswith(b"\x89PNG")


def test_sample_writes_a_map_of_each_sample_battle(tmp_path: Path) -> None:
    assert sample.main(["--out", str(tmp_path)]) == 0
    image = Image.open(tmp_path / "skirmish.png")
    assert image.width == 1600


def test_the_committed_sample_maps_are_fresh() -> None:
    """docs/maps holds what `python -m tools.sample_maps` draws today; rerun it if not."""
    battles = sample.sample_battles()
    assert set(battles) == {p.stem for p in sample.DEFAULT_FOLDER.glob("*.png")}
    for name, state in battles.items():
        committed = (sample.DEFAULT_FOLDER / f"{name}.png").read_bytes()
        assert sample.under_way(state).render() == committed, name


def test_each_sample_map_shows_the_battle_under_way() -> None:
    for name, state in sample.sample_battles().items():
        shown = sample.under_way(state)
        assert shown.title.startswith("Turn "), name  # not the set-up
        assert shown.events, name  # the step's moves, shots and combats
        assert shown.state.units_on_table, name
