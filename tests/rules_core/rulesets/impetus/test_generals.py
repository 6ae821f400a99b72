"""The generals' table and traits, row by row with the sheet's numbers, and what reads them."""

from __future__ import annotations

import pytest

from rules_core.rulesets.impetus import generals
from rules_core.state import Leader

# The sheet: Type, Initiative, Bonus, DT, Melee, CT.
SHEET = {
    "Genius": ({"reroll_1_or_2", "free_sc", "pass"}, 4, 2, 1, 1),
    "Charismatic": ({"reroll_1_or_2", "pass"}, 4, 2, 1, 1),
    "Expert": ({"reroll_2"}, 3, 2, 1, 1),
    "Reliable": (set(), 2, 2, 1, 1),
    "Poor": (set(), 1, 1, 1, 1),
    "Incompetent": ({"fails_if_double"}, 0, 1, 1, 1),
}


def general(kind: str, *traits: str, attached: str | None = None) -> Leader:
    status = {"general_type": kind, "traits": list(traits), "killed": False}
    return Leader("g", "Gaius", "red", "red_g", 0.0, 0.0, attached_to=attached, status=status)


@pytest.mark.parametrize("kind", list(SHEET))
def test_every_row_of_the_generals_table(kind: str) -> None:
    effects, bonus, dt, melee, ct = SHEET[kind]
    leader = general(kind)
    assert generals.initiative_effects(leader) == effects
    assert generals.bonus(leader) == bonus
    for test in ("rally", "second_move", "reaction", "evasion", "countercharge"):
        assert generals.dt_modifier(leader, test) == dt
    assert generals.melee_modifier(leader) == melee
    assert generals.ct_modifier(leader) == ct


def test_the_charismatic_dt_note_is_kept() -> None:
    assert generals.GENERALS.lookup("Charismatic", "dt_note") == "reroll fails 2+"


def test_brave_adds_two_in_melee_and_its_rerolls() -> None:
    leader = general("Reliable", "Brave")
    assert generals.melee_modifier(leader) == 1 + 2
    assert generals.ct_modifier(leader) == 1
    assert generals.dt_modifier(leader, "countercharge") == 2
    assert generals.special(leader) == {"reroll_failed_countercharge", "reroll_risk_if_success"}


def test_severe_adds_one_to_rally_tests_only_and_one_to_cohesion() -> None:
    leader = general("Poor", "Severe")
    assert generals.dt_modifier(leader, "rally") == 1 + 1
    assert generals.dt_modifier(leader, "second_move") == 1
    assert generals.ct_modifier(leader) == 1 + 1
    assert generals.melee_modifier(leader) == 1


def test_confident_passes_to_the_enemy_and_helps_reactions_and_evasion() -> None:
    leader = general("Reliable", "Confident")
    assert "pass_to_enemy" in generals.initiative_effects(leader)
    assert generals.dt_modifier(leader, "reaction") == 3
    assert generals.dt_modifier(leader, "evasion") == 3
    assert generals.dt_modifier(leader, "close_ranks") == 2


def test_cavalry_adds_two_h_to_the_command_radius_and_one_in_melee() -> None:
    params = {"command_radius": 10.0}
    assert generals.command_radius(general("Reliable"), params) == 10.0
    cavalry = general("Reliable", "Cavalry")
    assert generals.command_radius(cavalry, params) == 12.0
    assert generals.melee_modifier(cavalry) == 2
    assert "only_cavalry" in generals.special(cavalry)


def test_a_killed_general_gives_no_bonus() -> None:
    leader = general("Genius")
    dead = Leader(**{**leader.__dict__, "status": {**leader.status, "killed": True}})
    assert generals.bonus(dead) == 0 and generals.bonus(None) == 0


def test_a_changed_cell_changes_the_bonus(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = dict(generals.GENERALS.rows)
    rows["Poor"] = ([], 3, 1, 1, 1, "")
    table = generals.GENERALS.__class__("Generals", generals.GENERALS.columns, rows)
    monkeypatch.setattr(generals, "GENERALS", table)
    assert generals.bonus(general("Poor")) == 3


def test_command_radius_reads_the_distance_to_the_generals_unit() -> None:
    from dataclasses import replace

    from tests.rules_core.rulesets.impetus.helpers import stopped_at, unit_named

    state = stopped_at("move")
    legio = unit_named(state, "Legio X")
    archers = unit_named(state, "Cretan Archers")
    caesar = generals.general_of(state, legio.group)
    assert caesar is not None and caesar.attached_to == legio.id
    params = {"command_radius": 10.0}
    near = replace(archers, x=legio.x + 9.5, y=legio.y)
    far = replace(archers, x=legio.x + 10.5, y=legio.y)
    assert generals.in_command_radius(state.with_unit(near), near, params)
    assert not generals.in_command_radius(state.with_unit(far), far, params)
    assert generals.in_command_radius(state.with_unit(far), far, {"command_radius": 11.0})
