"""General Will: both armies test in one step; routed brigades (tercios and double brigades
count two, on and off the table) against the army's size; both failing is a draw, one failing
a victory for the other; a campaign may replace the table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.events import TestResolved
from rules_core.rulesets.pike_and_shot import cohesion as co
from rules_core.rulesets.pike_and_shot import tables as t
from rules_core.rulesets.pike_and_shot.sample import sample_battle
from rules_core.state import BattleState
from rules_core.steps import Cursor
from tests.rules_core.rulesets.pike_and_shot.helpers import RULES, context, status

SIDES = ("royalists", "parliament")


def _battle(
    royal_routed: tuple[str, ...] = (), parl_routed: tuple[str, ...] = (),
    fatigued: tuple[str, ...] = ("royalists_left", "parliament_left"),
) -> BattleState:  # fmt: skip
    state = replace(sample_battle(), cursor=Cursor(2, "main", "general_will", SIDES))
    for unit_id in (*royal_routed, *parl_routed):
        state = status(state, unit_id, cohesion="routed")
    for wing in fatigued:
        group = state.group(wing)
        state = state.with_group(replace(group, status={**group.status, "fatigued": True}))
    return state


def test_routed_brigades_count_tercios_two_and_companies_none() -> None:
    # royalists1 cavalry brigade, royalists2 dragoons (a company), royalists3 a tercio.
    state = _battle(("royalists1", "royalists2", "royalists3"))
    assert co.routed_brigades(state, "royalists", {}) == 3
    state = status(state, "royalists1", cohesion="destroyed")
    state = state.with_unit(replace(state.unit("royalists1"), location="off"))
    assert co.routed_brigades(state, "royalists", {}) == 3  # off the table, destroyed: counted
    off = {"general_will_counts_destroyed": False}
    assert co.routed_brigades(state, "royalists", off) == 2
    assert co.army_brigades(state, "royalists") == 7 and co.army_brigades(state, "parliament") == 8


def _results(state: BattleState, faces: list[int]) -> tuple[str, str, BattleState]:
    ctx = context(state, faces)
    co.resolve_general_will(ctx)
    will = [str(ctx.state.side(s).status.get("general_will", "")) for s in SIDES]
    return will[0], will[1], ctx.state


def test_one_army_fails_the_other_wins() -> None:
    # Royalists: 3 routed (cavalry brigade + tercio) of 7: row 3, column 5-10 = 3; a 4 fails.
    # Parliament: 2 routed (a tercio) of 8: row 2, column 5-10 = 4; a 4 passes.
    state = _battle(("royalists1", "royalists3"), ("parliament2",))
    royal, parl, after = _results(state, [4, 4])
    assert (royal, parl) == ("failed", "good")
    assert after.side("royalists").status.get("withdraw_next_turn") is True
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.winner == "parliament"


def test_both_fail_in_the_same_step_a_draw() -> None:
    state = _battle(("royalists1", "royalists3"), ("parliament2",))
    royal, parl, after = _results(state, [4, 5])
    assert (royal, parl) == ("failed", "failed")
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.winner is None


def test_only_armies_with_a_fatigued_wing_test() -> None:
    state = _battle(("royalists1", "royalists3"), ("parliament2",), fatigued=("parliament_left",))
    royal, parl, after = _results(state, [6])
    assert (royal, parl) == ("", "failed")
    assert RULES.outcome(after) is not None


def test_automatic_fail_and_pass_roll_no_die() -> None:
    # 6 routed of 7: column 5-10, row 6 = "Automatic fail"; nothing routed: a pass.
    state = _battle(("royalists1", "royalists3", "royalists4", "royalists5", "royalists7"))
    ctx = context(state, [])
    co.resolve_general_will(ctx)
    rows = [e for e in ctx.events if isinstance(e, TestResolved)]
    assert [(e.subject, e.passed, e.row.split(": ")[-1]) for e in rows] == [
        ("royalists", False, "Automatic fail"),
        ("parliament", True, "Automatic pass"),
    ]
    assert rows[0].row.startswith("6 routed brigades in an army of 7 (row 6, column 5-10)")


@pytest.mark.parametrize(("face", "good"), [(1, True), (3, True), (4, False), (6, False)])
def test_score_equal_or_less_is_good(face: int, good: bool) -> None:
    state = _battle(("royalists1", "royalists3"), fatigued=("royalists_left",))
    royal, _, _ = _results(state, [face])
    assert royal == ("good" if good else "failed")


def test_a_campaign_may_replace_the_table() -> None:
    table = t.grid_to_json(t.GENERAL_WILL)
    rows = table["rows"]
    assert isinstance(rows, dict)
    rows["3"] = [5, 5, 5, 6, 6, 6, 6]
    state = _battle(("royalists1", "royalists3"), fatigued=("royalists_left",))
    state = replace(state, parameters={"general_will_table": table})
    royal, _, _ = _results(state, [4])
    assert royal == "good"


@pytest.mark.parametrize(
    ("routed", "brigades", "column"),
    [(1, 4, "5-10"), (1, 5, "5-10"), (1, 10, "5-10"), (1, 11, "11-15"), (1, 40, "36-40"),
     (1, 41, "36-40"), (1, 99, "36-40")],
)  # fmt: skip
def test_bands_and_armies_outside_them(routed: int, brigades: int, column: str) -> None:
    assert t.general_will_cell(routed, brigades)[2] == column


def _emptied(state: BattleState, side: str) -> BattleState:
    """The state with every unit of ``side`` routed off the table."""
    for unit in state.units_of(side, on_table=True):
        state = state.with_unit(replace(unit, location="off"))
    return state


def test_an_army_with_no_unit_left_loses_saying_so_not_that_its_resolve_failed() -> None:
    after = _emptied(_battle(), "royalists")
    assert not after.side("royalists").status.get("general_will")  # no test was rolled
    outcome = RULES.outcome(after)
    assert outcome is not None and outcome.winner == "parliament"
    assert "no unit left on the table" in outcome.reason and "resolve" not in outcome.reason
    both = _emptied(after, "parliament")
    both = both.with_side(replace(both.side("parliament"), status={"general_will": "failed"}))
    draw = RULES.outcome(both)
    assert draw is not None and draw.winner is None
    royal, parl = (both.side(s).name for s in SIDES)
    assert f"{royal} has no unit left on the table" in draw.reason
    assert f"{parl}'s resolve failed" in draw.reason and draw.reason.endswith("a draw")
