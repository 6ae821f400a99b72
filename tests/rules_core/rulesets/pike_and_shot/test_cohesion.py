"""The Disorder test (both columns, modifiers from state and geometry), Reforming from Disorder
and Fatigue per wing, on real states."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.events import TestResolved
from rules_core.rulesets.pike_and_shot import cohesion as co
from rules_core.rulesets.pike_and_shot import combat
from rules_core.rulesets.pike_and_shot.status import cohesion
from rules_core.state import BattleState
from tests.rules_core.rulesets.pike_and_shot.helpers import at, context, status

TERCIO, FOOT, RAW_FOOT = "parliament2", "parliament3", "parliament4"


def _leaders_at(state: BattleState, **where: tuple[float, float]) -> BattleState:
    for leader in state.leaders:
        x, y = where.get(leader.id, (70.0, 2.0))
        state = state.with_leader(replace(leader, x=x, y=y))
    return state


def _mods(state: BattleState, unit: str) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in co.disorder_modifiers(state, state.unit(unit), {})]


def test_large_units_read_the_column_after_the_slash() -> None:
    state = at("reform", **{TERCIO: (20.0, 40.0, 180.0)})
    assert _mods(state, TERCIO) == [
        (2, "Trained | + 1 / + 2"),
        (1, "Under Hold orders | + 1"),
        (1, 'No enemy unit within 24" | + 1'),
    ]
    state = status(state, TERCIO, cohesion="disordered")
    assert _mods(state, TERCIO)[-1] == (-2, "Disordered | - 1 / - 2")
    state = status(state, TERCIO, cohesion="routed")
    assert _mods(state, TERCIO)[-1] == (-4, "Routed | - 3 / - 4")


def test_normal_units_read_the_column_before_the_slash() -> None:
    state = at("reform", **{FOOT: (20.0, 40.0, 180.0), RAW_FOOT: (40.0, 40.0, 180.0)})
    assert _mods(state, FOOT)[0] == (1, "Trained | + 1 / + 2")
    assert [m for m in _mods(state, RAW_FOOT) if "Raw" in m[1]] == []  # raw: 0 for normal units
    state = status(state, FOOT, cohesion="disrupted")
    assert _mods(state, FOOT)[-1] == (-2, "Disrupted | - 2 / - 3")


def test_friends_on_one_and_both_flanks() -> None:
    one = at("reform", **{FOOT: (20.0, 40.0, 180.0), RAW_FOOT: (26.5, 40.0, 180.0)})
    reasons = [r for _, r in _mods(one, FOOT)]
    assert "Sound friendly brigade, or Tercio, on one flank | + 1" in reasons
    assert "Sound friendly brigades, or Tercios, on both flanks | + 1" not in reasons
    both = at(
        "reform",
        **{FOOT: (20.0, 40.0, 180.0), RAW_FOOT: (26.5, 40.0, 180.0), TERCIO: (13.5, 40.0, 180.0)},
    )
    reasons = [r for _, r in _mods(both, FOOT)]
    assert "Sound friendly brigade, or Tercio, on one flank | + 1" in reasons
    assert "Sound friendly brigades, or Tercios, on both flanks | + 1" in reasons
    unsound = status(both, TERCIO, cohesion="disordered")
    assert "Sound friendly brigades, or Tercios, on both flanks | + 1" not in [
        r for _, r in _mods(unsound, FOOT)
    ]


def test_attacked_in_flank_and_attacking_a_flank() -> None:
    state = at("reform", royalists1=(24.0, 40.0, 270.0), **{FOOT: (20.0, 40.0, 180.0)})
    assert (-2, "Attacked in the flank or rear | - 2 / - 1") in _mods(state, FOOT)
    assert (1, "Attacking enemy flank | + 1") in _mods(state, "royalists1")
    rear = at("reform", royalists1=(20.0, 42.0, 180.0), **{FOOT: (20.0, 40.0, 180.0)})
    assert (2, "Attacking enemy rear | + 2") in _mods(rear, "royalists1")


def test_enemy_near_and_behind_the_flank() -> None:
    state = at("reform", royalists4=(30.0, 40.0, 270.0), **{FOOT: (20.0, 40.0, 180.0)})
    reasons = [r for _, r in _mods(state, FOOT)]
    assert "Within 8ins of sound enemy brigade | - 1" in reasons
    assert "Enemy brigade behind flank within 8ins | - 1" in reasons


def test_commanders_attached() -> None:
    state = at("reform", **{FOOT: (20.0, 40.0, 180.0)})
    for leader_id in ("parliament_centre_cmdr", "parliament_general"):
        state = state.with_leader(replace(state.leader(leader_id), attached_to=FOOT))
    reasons = [r for _, r in _mods(state, FOOT)]
    assert "Wing Commander attached | + 1" in reasons
    assert "Higher Commander attached | + 2" in reasons


@pytest.mark.parametrize(("face", "passed"), [(3, False), (4, True)])
def test_disorder_test_passes_on_4(face: int, passed: bool) -> None:
    # Essex's Foot alone: trained +1, Hold +1, no enemy within 24" +1, disordered -1 = +2.
    state = status(at("reform", **{FOOT: (20.0, 40.0, 180.0)}), FOOT, cohesion="disordered")
    ctx = context(state, [face - 2])
    assert co.disorder_test(ctx, ctx.state.unit(FOOT), "a test") is passed


# -- Reform -------------------------------------------------------------------------------------


def _reform_state(level: str = "disordered") -> BattleState:
    state = status(at("reform", **{FOOT: (20.0, 40.0, 180.0)}), FOOT, cohesion=level)
    return _leaders_at(state, parliament_centre_cmdr=(20.0, 46.0))


@pytest.mark.parametrize(
    ("level", "face", "after"),
    [
        ("disordered", 6, "sound"),
        ("disordered", 1, "disordered"),  # failing adds no disorder
        ("disrupted", 6, "disordered"),
        ("disrupted", 1, "disrupted"),
        ("routed", 6, "routed"),  # a routed unit does not reform (parameter reform_routed)
    ],
)
def test_reform_removes_one_level_on_a_pass(level: str, face: int, after: str) -> None:
    ctx = context(_reform_state(level), [face])
    co.resolve_reform(ctx)
    assert cohesion(ctx.state.unit(FOOT)) == after


def test_a_unit_under_artillery_fire_this_turn_reforms_at_minus_1() -> None:
    """The "Under artillery fire -1" counts at Reform for a unit artillery shot at in Combat."""

    def lowest_pass(under_fire: bool) -> int:
        state = _reform_state("disordered")
        state = status(state, FOOT, under_artillery_fire=under_fire)
        for face in range(1, 7):
            ctx = context(state, [face])
            co.resolve_reform(ctx)
            if cohesion(ctx.state.unit(FOOT)) == "sound":
                return face
        return 7

    assert lowest_pass(True) == lowest_pass(False) + 1


def test_artillery_fire_marks_its_target_until_the_next_turn() -> None:
    state = at("combat", royalists6=(20.0, 20.0, 0.0), **{FOOT: (20.0, 28.0, 180.0)})
    ctx = context(state, [1, 1, 1, 1, 1, 1])
    combat.apply_shot(ctx, combat.Shot("royalists6", FOOT, 0))
    assert ctx.state.unit(FOOT).status.get("under_artillery_fire") is True


def test_no_reform_within_4_inches_of_the_enemy_or_out_of_command() -> None:
    near = at("reform", royalists4=(20.0, 35.0, 0.0), **{FOOT: (20.0, 40.0, 180.0)})
    near = _leaders_at(status(near, FOOT, cohesion="disordered"), parliament_centre_cmdr=(20, 46))
    ctx = context(near, [6])
    co.resolve_reform(ctx)
    assert cohesion(ctx.state.unit(FOOT)) == "disordered"
    assert not [e for e in ctx.events if isinstance(e, TestResolved)]
    far = _leaders_at(
        status(at("reform", **{FOOT: (20.0, 40.0, 180.0)}), FOOT, cohesion="disordered")
    )
    assert co.may_reform(far, far.unit(FOOT), {"command_range": 12.0}) == "not in command"
    ctx = context(far, [6])
    co.resolve_reform(ctx)
    assert cohesion(ctx.state.unit(FOOT)) == "disordered"


# -- Fatigue ------------------------------------------------------------------------------------


def _tired_centre() -> BattleState:
    state = at(
        "fatigue",
        **{TERCIO: (20.0, 40.0, 180.0), FOOT: (30.0, 40.0, 180.0), RAW_FOOT: (40.0, 40.0, 180.0),
           "parliament6": (50.0, 40.0, 180.0)},
    )  # fmt: skip
    state = status(state, TERCIO, cohesion="disordered")
    state = status(state, FOOT, cohesion="disrupted")
    state = status(state, RAW_FOOT, cohesion="routed", left_in_rout=True)
    state = state.with_unit(replace(state.unit(RAW_FOOT), location="off", left_at=(40.0, 48.0)))
    state = status(state, "parliament6", cohesion="destroyed")
    state = state.with_unit(replace(state.unit("parliament6"), location="off"))
    leader = state.leader("parliament_centre_cmdr")
    return state.with_leader(replace(leader, status={**leader.status, "wounded": True}))


def test_fatigue_modifiers_of_a_wing() -> None:
    state = _tired_centre()
    mods = co.fatigue_modifiers(state, state.group("parliament_centre"))
    assert [(m.value, m.reason) for m in mods] == [
        (1, "Commander or attached General is wounded | + 1"),
        (1, "Each company lost | + 1"),
        (1, "Each brigade off-table and not destroyed | + 1"),
        (1, "Each Disordered Tercio or Double Brigade | + 1"),
        (2, "Each Disrupted brigade, Tercio or Double Brigade | + 2"),
        (3, "Each Routed or destroyed brigade, Tercio or Double Brigade | + 3"),
        (-1, "If under Hold orders | - 1"),
        (-1, 'No sound enemy unit within 24" | - 1'),
        (-1, "Higher Commander attached to the Wing | - 1"),
    ]


def test_each_row_counts_every_unit() -> None:
    state = at(
        "fatigue",
        royalists3=(20.0, 10.0, 0.0), royalists4=(30.0, 10.0, 0.0), royalists5=(40.0, 10.0, 0.0),
        **{FOOT: (30.0, 16.0, 180.0)},
    )  # fmt: skip
    mods = co.fatigue_modifiers(state, state.group("royalists_centre"))
    assert [(m.value, m.reason) for m in mods] == [
        (1, "Within 8ins of the enemy | + 1"),
        (-3, "Each sound infantry brigade or Tercio | - 1 (x3)"),
        (-1, "Each sound veteran brigade or Tercio | - 1"),
    ]


@pytest.mark.parametrize(("face", "fatigued"), [(1, False), (2, True)])
def test_fatigue_8_or_more_fatigues_the_wing(face: int, fatigued: bool) -> None:
    ctx = context(_tired_centre(), [face])  # + 6 in all: 7 unaffected, 8 fatigued
    co.resolve_fatigue(ctx)
    wing = ctx.state.group("parliament_centre")
    assert (wing.status.get("fatigued") is True) is fatigued
    assert wing.status.get("fatigue_roll") == face + 6


def test_a_pursuer_off_the_table_reforms_and_a_router_off_it_does_not() -> None:
    state = _reform_state("disordered")
    pursuer = replace(state.unit(FOOT), location="off", left_at=(20.0, 48.0))
    state = state.with_unit(pursuer.with_status(left_in_pursuit=True))
    assert co.may_reform(state, state.unit(FOOT), {}) is None
    ctx = context(state, [6])
    co.resolve_reform(ctx)
    assert cohesion(ctx.state.unit(FOOT)) == "sound"
    router = state.unit(FOOT).with_status(left_in_pursuit=False, left_in_rout=True)
    assert co.may_reform(state.with_unit(router), router, {}) == "left the table in rout"
