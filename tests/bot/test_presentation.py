"""The presentation package words the services' plain data as before they returned it."""

from __future__ import annotations

from dataclasses import replace as copy
from datetime import UTC, datetime

import pytest

from bot.db.models import BattleStatus
from bot.presentation.announce import loss_line
from bot.presentation.battles import log_text
from bot.presentation.formatting import battle_embed
from bot.presentation.gm import change_text
from bot.presentation.replies import labelled_choices
from bot.services.battle_state import BattleView, SideView
from bot.services.endings import ArmyLosses
from bot.services.gm import Change, GmChange, Placement, TimeLeft
from bot.services.records import LoggedStep
from rules_core import registry
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.status import describe_state

WHEN = datetime(2026, 3, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("change", "text"),
    [
        (
            GmChange(Change.PAUSE, "holiday", "running", TimeLeft(40 * 3600), 11),
            "🛠️ <@11> paused the battle: holiday\nBefore: running\nAfter: 40.0 h left on the clock",
        ),
        (
            GmChange(Change.RESUME, "back", "paused", TimeLeft(None), 11),
            "🛠️ <@11> resumed the battle: back\nBefore: paused\nAfter: no deadline",
        ),
        (
            GmChange(Change.EXTEND, "slow", WHEN, WHEN, 11),
            f"🛠️ <@11> extended the deadline: slow\nBefore: <t:{int(WHEN.timestamp())}:f>\n"
            f"After: <t:{int(WHEN.timestamp())}:f>",
        ),
        (
            GmChange(Change.SET, "fell", None, True, 11, "Blue Riders", "disordered"),
            "🛠️ <@11> set disordered of **Blue Riders**: fell\nBefore: (unset)\nAfter: True",
        ),
        (
            GmChange(Change.MOVE, "oops", Placement(1.5, 2, 0), Placement(40, 30, 90), 11, "X"),
            "🛠️ <@11> moved **X**: oops\nBefore: (1.5, 2) facing 0°\nAfter: (40, 30) facing 90°",
        ),
        (
            GmChange(Change.UNDO, "wrong", "Turn 1 · Shooting", "Set-up · Deployment", 11),
            "🛠️ <@11> undid a step: wrong\nBefore: Turn 1 · Shooting\nAfter: Set-up · Deployment",
        ),
    ],
)
def test_every_gm_change_reads_as_it_did(change: GmChange, text: str) -> None:
    assert change_text(change) == text


def test_a_turn_log_names_each_step_and_who_gave_no_orders() -> None:
    steps = [
        LoggedStep("Turn 1 · Movement (Red)", "deadline", ("Blue",), ("Red Archers hold.",)),
        LoggedStep("Turn 1 · Shooting", "all orders confirmed", (), ()),
    ]
    assert log_text(steps, 1).splitlines() == [
        "**Turn 1 · Movement (Red)** (deadline)",
        "No orders from Blue: defaults applied.",
        "Red Archers hold.",
        "**Turn 1 · Shooting** (all orders confirmed)",
    ]
    assert log_text([], 3) == "Nothing has been resolved in turn 3 yet."


def test_answers_are_offered_by_label_and_matched_on_id_too() -> None:
    options = [("yes", "Pursue"), ("no", "Halt")]
    assert [c.value for c in labelled_choices(options, "")] == ["yes", "no"]
    assert [c.name for c in labelled_choices(options, "NO")] == ["Halt"]


def test_losses_read_one_army_a_line() -> None:
    assert loss_line(ArmyLosses("Red Host", ("Red Horse", "Red Foot"))) == (
        "Red Host lost Red Horse, Red Foot."
    )
    assert loss_line(ArmyLosses("Blue Host", ())) == "Blue Host lost nothing."


def test_the_battle_card_shows_each_sides_declared_state() -> None:
    state = sample_battle()
    first, second = state.sides
    division = next(g for g in state.groups if g.side == first.id)
    state = copy(state, sides=(copy(first, status={"broken_divisions": [division.id]}), second))
    rules = registry.get("hail_caesar").rules
    assert rules is not None
    words = describe_state(rules.statuses, state)
    sides = (SideView(first.id, first.name, 11, "Legio"), SideView(second.id, second.name, 12, "G"))
    view = BattleView(
        1, "Alesia", "Gallic War", "hail_caesar", BattleStatus.RUNNING, 5, "ab" * 32, 3, None,
        sides, state, "Shooting", (), (), {side: tuple(lines) for side, lines in words.items()},
    )  # fmt: skip
    fields = {field.name: field.value for field in battle_embed(view).fields}
    assert fields[first.name].splitlines()[:2] == [
        "<@11> — Legio",
        f"broken divisions: {division.name}",
    ]
    assert fields[second.name].splitlines()[0] == "<@12> — G"
    assert "broken divisions" not in (fields[second.name] or "")
