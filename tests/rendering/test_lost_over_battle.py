"""Units lost earlier in a battle stay listed on every later map, with when and why.

Played through the services on a real SQLite file (the demo's players and orders), so the
losses come from the stored stages as the bot posts them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from bot.db.session import Database
from bot.demo import StepClock, Transcript, play, set_up
from bot.rendering.render import MapOptions, lay_out
from bot.rendering.scene import build_scene
from bot.services import Services, battles
from bot.services.stages import StageReport
from rules_core import registry
from rules_core.events import UnitDestroyed
from rules_core.render import Gone, gone_each
from tests.rendering import states


class Reports(Transcript):
    """Keeps every stage's report instead of writing it down."""

    def __init__(self) -> None:
        super().__init__(Path(), [])
        self.reports: list[StageReport] = []

    async def step(self, report: StageReport) -> None:
        """Keep the report."""
        self.reports.append(report)


def panel_text(report: StageReport) -> str:
    """The words of the side panel of the report's map, as laid out."""
    options = MapOptions(lost=report.lost, gone=report.gone, after=report.title)
    state = report.battle.state
    scene = build_scene(state, report.events, None, None, options.lost)
    return " ".join(line.words for line in lay_out(scene, options, report.events).panel.lines)


async def test_a_unit_destroyed_in_one_turn_is_still_listed_with_its_reason_next_turn(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(battles, "new_seed", lambda: bytes(32 * [1]))  # a loss in turn 2
    clock, rules = StepClock(), registry.get("skirmish").rules
    assert rules is not None
    services, log = Services.build(db, clock=clock), Reports()
    await set_up(services, "skirmish", rules)
    await play(services, rules, clock, 3, log)
    at = next(i for i, r in enumerate(log.reports) if r.lost)
    losing = log.reports[at]
    unit = losing.lost[0]
    killed = next(e for e in losing.events if isinstance(e, UnitDestroyed) and e.unit == unit.id)
    turn = int(losing.title.split()[1])  # "Turn 2 · Shooting (Blue Host)"
    last = next(r for r in log.reports if r.title.startswith(f"Turn {turn + 1} "))
    assert unit not in last.lost
    line = f"{unit.name}: destroyed, {killed.reason} ({losing.title})"
    assert Gone(unit.side, "Lost", line) in last.gone
    assert line in panel_text(last)
    # The report the outbox rebuilds for the stage says the same.
    rebuilt = await services.outbox.rebuild(last.battle.id, last.stage)
    assert rebuilt is not None and rebuilt.gone == last.gone


def test_a_reason_reported_before_a_question_carries_to_the_step_the_unit_leaves_in() -> None:
    before = states.start()
    unit = before.units[0]
    after = replace(before, units=before.units[1:])
    destroyed = UnitDestroyed(unit.id, "broken in melee")
    steps = [
        (before, before, (destroyed,), "Turn 1 · Melee"),  # stopped for a question
        (before, after, (), "Turn 1 · Melee (answered)"),  # the unit leaves as it resumes
    ]
    line = f"{unit.name}: destroyed, broken in melee (Turn 1 · Melee)"
    assert gone_each(steps) == [(), (Gone(unit.side, "Lost", line),)]


def test_a_unit_back_on_the_table_after_an_undo_is_no_longer_listed() -> None:
    before = states.start()
    after = replace(before, units=before.units[1:])
    steps = [(before, after, (), "Turn 1 · Melee"), (after, before, (), "Undone")]
    assert [len(gone) for gone in gone_each(steps)] == [1, 0]
