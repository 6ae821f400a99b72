"""Every step map of each ruleset's demo battle reads at a glance, judged from the layout the
renderer computes: names in or joined to their own units, nothing on another unit, label or
badge, every text on the image and legible. Three deliberate breaks show the check bites."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.rendering import legend, legibility, placement, render
from bot.rendering.labels import Occupied
from bot.rendering.legibility import contrast, frame_problems, read_map, table_problems
from bot.rendering.placement import Owner
from bot.rendering.scene import Scene, build_scene
from bot.rendering.style import PAPER, WHITE, side_style
from bot.rendering.table_scene import Label
from tests.rendering.demo_steps import PLAYS, demo_steps

# Side-state lines of these rulesets run off the image until the legend wraps them (#32
# item 2, on another branch); the table itself must already read.


@pytest.mark.parametrize("ruleset", list(PLAYS))
def test_every_step_map_of_the_demo_battle_reads_at_a_glance(ruleset: str) -> None:
    found = [
        f"step {index}: {problem}"
        for index, (state, events) in enumerate(demo_steps(ruleset))
        for problem in table_problems(read_map(state, events))
    ]
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("ruleset", list(PLAYS))
def test_every_text_around_the_table_is_on_the_image_and_legible(ruleset: str) -> None:
    steps = demo_steps(ruleset)
    found = [
        p
        for state, events in (steps[0], steps[-1])
        for p in frame_problems(read_map(state, events))
    ]
    assert not found, "\n".join(found[:20])


def test_contrast_is_the_wcag_ratio() -> None:
    assert contrast(WHITE, (0, 0, 0)) == pytest.approx(21.0)
    assert contrast(WHITE, WHITE) == pytest.approx(1.0)
    assert contrast((118, 118, 118), WHITE) == pytest.approx(4.54, abs=0.01)


def test_every_text_the_map_draws_is_recorded_where_it_lies_on_the_canvas() -> None:
    state, events = demo_steps("hail_caesar")[-1]
    reading = read_map(state, events)
    words = [text.text for text in reading.texts]
    names = [label.name.text for label in reading.pieces.labels if label.name is not None]
    assert names and all(name in words for name in names)
    title = next(t for t in reading.texts if t.text.startswith(state.battle_id))
    assert title.box[1] < reading.table[1]  # the title bar is above the table
    for label in reading.pieces.labels:
        if label.name is not None:  # the table's texts are shifted to where it is pasted
            drawn = next(t for t in reading.texts if t.text == label.name.text)
            assert reading.table[0] <= drawn.box[0] and drawn.box[2] <= reading.table[2]


def test_a_fixed_offset_placement_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    def fixed(occupied: Occupied, owner: Owner, boxes: object) -> Label:
        left, top, _, _ = owner.body.box
        text = placement._text(owner.name, owner, owner.size, (left + 60, top - 30))
        return Label(owner.body.id, text)

    monkeypatch.setattr(placement, "_inside", lambda *args: None)
    monkeypatch.setattr(placement, "_outside", fixed)
    state, events = demo_steps("hail_caesar")[17]  # a busy step: the armies closed up
    found = table_problems(read_map(state, events))
    assert any("neither in its box nor joined to it" in p for p in found), found


def test_a_long_legend_line_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = render.legend_entries

    def longer(scene: Scene) -> list[legend.Entry]:
        words = "Rome: " + "; ".join(f"command {n}: activated this turn" for n in range(30))
        return [*entries(scene), legend.side_entry(words, side_style(PAPER))]

    monkeypatch.setattr(render, "legend_entries", longer)
    state, events = demo_steps("hail_caesar")[-1]
    assert not frame_problems(read_map(state, events))  # wrapped and cut, it stays inside
    monkeypatch.setattr(legend, "rows", lambda entries, width: [list(entries)])  # one line
    found = frame_problems(read_map(state, events))
    assert any("runs off the image" in p for p in found), found


def test_a_destroyed_unit_drawn_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = demo_steps("hail_caesar")
    state, events = steps[-1]
    standing = {unit.id for unit in state.units}
    dead = tuple(unit for unit in steps[0][0].units if unit.id not in standing)
    assert dead  # the battle ended by an army breaking: some units were destroyed

    def with_the_dead(*args: Any, **kwargs: Any) -> Scene:
        scene = build_scene(*args, **kwargs)
        return replace(scene, units=scene.units + dead)

    monkeypatch.setattr(render, "build_scene", with_the_dead)
    monkeypatch.setattr(legibility, "build_scene", with_the_dead)
    found = table_problems(read_map(state, events))
    assert any("is drawn but not on the table" in p for p in found), found
