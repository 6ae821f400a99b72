"""Melee: the impetus bonus with every nullifying and reducing row, the dice modifiers, depth,
pilum, support, both cohesion tests, the result, retreat and pursuit, drawn melees, fatigue."""

from __future__ import annotations

from dataclasses import replace

from rules_core.dice import Modifier
from rules_core.rulesets.impetus import melee, melee_dice, retreat
from rules_core.rulesets.impetus.status import (
    DISORDERED,
    FRESHNESS,
    MELEE_PENDING,
    MELEE_WITH,
)
from rules_core.shared_status import LOSSES
from rules_core.state import BattleState, TerrainFeature
from tests.rules_core.rulesets.impetus.combat_helpers import (
    add,
    at,
    context,
    detach,
    logged_tests,
    profile,
    status,
    terrain,
)


def _reasons(mods: list[Modifier]) -> dict[str, int]:
    return {m.reason: m.value for m in mods}


def _face_off(attacker: str = "gauls2", defender: str = "romans2") -> BattleState:
    """The defender at (10, 5) facing north, the attacker touching its front."""
    return detach(at("charge", **{defender: (10, 5, 0), attacker: (10, 6.0, 180)}))


def test_warband_charging_legion_dice() -> None:
    state = _face_off()
    gauls, romans = state.unit("gauls2"), state.unit("romans2")
    base, mods = melee_dice.dice_modifiers(state, gauls, romans, melee_dice.Fight(charging=True))
    assert base == 5
    assert mods == [
        Modifier(3, "impetus bonus 3"),
        Modifier(1, "Impetuous FP or FL vs Mounted or Foot"),  # depth, though not large
    ]
    base, mods = melee_dice.dice_modifiers(state, romans, gauls, melee_dice.Fight(receiving=True))
    assert base == 6
    assert _reasons(mods) == {
        "for each level of Better Discipline (B against C)": 1,
        "Pilum receiving charge": 4,
    }


def test_pilum_charging_and_pbw() -> None:
    state = _face_off("romans2", "gauls2")
    mods = melee_dice.pilum(state.unit("romans2"), melee_dice.Fight(charging=True))
    assert mods == [Modifier(2, "Pilum charging")]
    state = profile(state, "gauls2", weapons=["pbw"])
    assert melee_dice.pilum(state.unit("gauls2"), melee_dice.Fight(receiving=True)) == [
        Modifier(3, "PBW receiving charge")
    ]
    assert melee_dice.pilum(state.unit("gauls2"), melee_dice.Fight()) == []


def test_impact_bonus_nullified_rows() -> None:
    state = _face_off("gauls4", "romans2")  # CM charging FP
    assert melee_dice.nullified_by(state, state.unit("gauls4"), state.unit("romans2")) is None
    spears = profile(state, "romans2", weapons=["long_spear"])
    assert melee_dice.nullified_by(spears, spears.unit("gauls4"), spears.unit("romans2")) == (
        "mounted_v_steady"
    )
    bonus, words = melee_dice.impact_bonus(spears, spears.unit("gauls4"), spears.unit("romans2"))
    assert bonus == 0 and words.endswith("nullified: Mounted charging W, EL, Camels or Foot with "
                                         "Pike, Long Spear, Polearm – Except EL and Camels "
                                         "charging Camels or EL charging EL")  # fmt: skip
    foot = _face_off("gauls2", "romans4")
    assert (
        melee_dice.nullified_by(foot, foot.unit("gauls2"), foot.unit("romans4")) == "foot_v_mounted"
    )
    tired = status(state, "gauls4", freshness="exhausted")
    assert (
        melee_dice.nullified_by(tired, tired.unit("gauls4"), tired.unit("romans2")) == "exhausted"
    )
    rough = terrain(state, "rough", 8, 4, 12, 8)
    assert melee_dice.nullified_by(rough, rough.unit("gauls4"), rough.unit("romans2")) == "rough"
    stakes = profile(state, "romans2", stakes=True)
    assert (
        melee_dice.nullified_by(stakes, stakes.unit("gauls4"), stakes.unit("romans2")) == "stakes"
    )
    light = _face_off("gauls2", "romans6")  # FL in broken ground charging S
    light = terrain(light, "rough", 8, 4, 12, 8)
    assert melee_dice.nullified_by(light, light.unit("gauls2"), light.unit("romans6")) == (
        "fl_rough_v_light"
    )


def test_impact_bonus_reduced_rows() -> None:
    pikes = profile(_face_off(), "romans2", weapons=["pike"])
    bonus, words = melee_dice.impact_bonus(pikes, pikes.unit("gauls2"), pikes.unit("romans2"))
    assert bonus == 2 and "3→2: Max+2 Foot charging Pike, Long Spear, Polearm" in words
    tired = status(_face_off("gauls4", "romans2"), "gauls4", freshness="no_longer_fresh")
    bonus, words = melee_dice.impact_bonus(tired, tired.unit("gauls4"), tired.unit("romans2"))
    assert bonus == 1 and "2→1: Max+1 If no longer Fresh" in words
    heavy = status(profile(_face_off("gauls4", "romans2"), "gauls4", impetus=4), "romans2",
                   closed_ranks=True)  # fmt: skip
    bonus, words = melee_dice.impact_bonus(heavy, heavy.unit("gauls4"), heavy.unit("romans2"))
    assert bonus == 2 and "4→2: By -2 Closed Ranks FP, FL frontally charged by Mounted" in words


def test_general_modifiers_and_depth() -> None:
    state = at("charge", romans1=(10, 5, 0), gauls1=(10, 7.0, 180))
    state = terrain(state, "wood", 0, 0, 30, 20)
    caesar = state.unit("romans1")
    state = status(state, "romans1", disordered=True)
    base, mods = melee_dice.dice_modifiers(state, state.unit("romans1"), state.unit("gauls1"),
                                      melee_dice.Fight())  # fmt: skip
    reasons = _reasons(mods)
    assert base == caesar.profile["vbu"]
    assert reasons["Unit is Disordered"] == -1
    assert reasons["Caesar: General attached"] == 1
    assert reasons["for each level of Better Discipline (A against B)"] == 1
    # the warband is large and impetuous: its depth bonus, its general (Reliable +1, Brave +2)
    _, mods = melee_dice.dice_modifiers(state, state.unit("gauls1"), state.unit("romans1"),
                                   melee_dice.Fight())  # fmt: skip
    reasons = _reasons(mods)
    assert reasons["Impetuous FP or FL vs Mounted or Foot"] == 1
    assert reasons["Vercingetorix: General attached"] == 3


def test_mounted_in_difficult_ground_and_supported_flanks() -> None:
    state = detach(at("charge", gauls4=(10, 5, 0), gauls5=(12, 5, 0), romans2=(10, 6.25, 180)))
    state = terrain(state, "marsh", 8, 3, 12, 8)
    _, mods = melee_dice.dice_modifiers(state, state.unit("gauls4"), state.unit("romans2"),
                                   melee_dice.Fight())  # fmt: skip
    reasons = _reasons(mods)
    assert reasons["Mounted or Pikes in Difficult terrain or against a unit entirely in "
                   "Difficult terrain"] == -2  # fmt: skip
    assert reasons["For each supported flank (with units it can form Group with, excepts S or "
                   "Art) (right)"] == 1  # fmt: skip


def test_supporting_units_roll_half_dice() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), romans1=(10, 4, 0), gauls2=(10, 6.0, 180)))
    assert [u.id for u in melee_dice.supports(state, state.unit("romans2"))] == ["romans1"]
    spec = melee_dice.support_roll(state, state.unit("romans1"), state.unit("romans2"))
    assert spec.dice == 3  # half of VBU 7, rounded down


def test_cohesion_modifiers_in_melee() -> None:
    state = detach(at("charge", gauls4=(10, 5, 0), romans2=(11.5, 5, 270)))
    mods = melee_dice.cohesion_modifiers(state, state.unit("gauls4"), state.unit("romans2"))
    assert _reasons(mods) == {
        "Unit attacked on Flank/Rear (Pike only in rear) (right)": -2,
        "CP, CM, CL in Melee with FP": -1,
    }
    ranks = status(_face_off("gauls4", "romans2"), "romans2", closed_ranks=True)
    ranks = terrain(ranks, "village", 8, 3, 12, 5.4)
    mods = melee_dice.cohesion_modifiers(ranks, ranks.unit("romans2"), ranks.unit("gauls4"))
    assert _reasons(mods) == {
        "Infantry with Closed Ranks": 1,
        "Defending River Bank, Village, Fortification or higher on hill": 1,
    }


def test_a_unit_on_the_bank_defends_it_against_an_enemy_in_the_river() -> None:
    # the river's line runs across at y = 6.5 (2H wide by default): the warband at y = 6 is
    # in the water, Legio IX at y = 5 on the bank
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180)))
    river = TerrainFeature("r", "river", ((0.0, 6.5), (30.0, 6.5)))
    state = replace(state, terrain=(*state.terrain, river))
    row = "Defending River Bank, Village, Fortification or higher on hill"
    mine = _reasons(
        melee_dice.cohesion_modifiers(state, state.unit("romans2"), state.unit("gauls2"))
    )
    theirs = _reasons(
        melee_dice.cohesion_modifiers(state, state.unit("gauls2"), state.unit("romans2"))
    )
    assert mine.get(row) == 1 and row not in theirs
    dry = replace(state, terrain=(*state.terrain[:-1],))
    assert row not in _reasons(
        melee_dice.cohesion_modifiers(dry, dry.unit("romans2"), dry.unit("gauls2"))
    )


def test_a_melee_won_by_the_defender_retreat_and_pursuit() -> None:
    state = _face_off()
    faces = [6, 6, 1, 1, 1, 1, 1, 1, 1]  # the warband's 9 dice (5, impetus 3, depth 1): 2 hits
    faces += [6, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1]  # the legion's 11 dice: 2 hits
    faces += [5, 2]  # cohesion: warband (critical 3) fails by 2, legion (4) passes
    faces += [6, 4]  # retreat 2H (foot), pursuit 1H (foot)
    ctx = context(state, faces)
    result = melee.resolve(ctx, state.unit("gauls2"), state.unit("romans2"), impact=True)
    assert result == melee.DEFENDER
    gauls, romans = ctx.state.unit("gauls2"), ctx.state.unit("romans2")
    assert LOSSES.of(gauls) == 2 and DISORDERED.of(gauls)
    assert LOSSES.of(romans) == 0 and DISORDERED.of(romans)
    assert FRESHNESS.of(gauls) == FRESHNESS.of(romans) == "no_longer_fresh"
    assert (gauls.x, gauls.y) == (10, 8.0)  # retreated 2H straight away
    assert (romans.x, romans.y) == (10, 6.0)  # pursued 1H
    rows = [t.row for t in logged_tests(ctx.events)]
    assert "Carnutes Warband lost 2 VBU, Legio IX lost 0 VBU: Legio IX wins" in rows
    assert "6: retreat 2H (foot)" in rows and "4: pursue 1H (foot)" in rows
    assert not MELEE_PENDING.of(gauls) and MELEE_WITH.of(romans) == []


def test_a_drawn_melee_is_marked_to_be_fought_again() -> None:
    state = _face_off()
    faces = [1] * 9 + [1] * 11
    ctx = context(state, faces)
    assert melee.resolve(ctx, state.unit("gauls2"), state.unit("romans2"), impact=True) == "draw"
    for key, other in (("gauls2", "romans2"), ("romans2", "gauls2")):
        unit = ctx.state.unit(key)
        assert MELEE_PENDING.of(unit) and MELEE_WITH.of(unit) == [other]


def test_pursuit_into_contact_is_a_new_melee_with_plus_one() -> None:
    state = detach(at("charge", romans4=(10, 5, 0), gauls3=(10, 6.0, 180)))  # CM against S
    faces = [6] * 8  # Gallic horse: VBU 5, impetus 2, discipline B against C: all hits
    faces += [1, 1, 1]  # skirmishers: nothing
    faces += [3]  # skirmishers' cohesion (critical 1) fails by 2: 2 lost
    faces += [1]  # retreat 1H (foot)
    faces += [6]  # pursuit 2H (mounted): reaches them
    ctx = context(state, faces)
    melee.resolve(ctx, state.unit("romans4"), state.unit("gauls3"), impact=True)
    # 8 hits against VBU 3: the critical number is 1 at least; a 3 fails by 2
    new = [
        e
        for e in ctx.events
        if hasattr(e, "roll") and e.roll.label.startswith("Melee: Gallic Horse")
    ]
    assert len(new) == 2
    assert "2nd and subsequent new melee or pursuit if not exhausted" in {
        m.reason for m in new[1].roll.dice_modifiers
    }
    assert FRESHNESS.of(ctx.state.unit("romans4")) == "exhausted"


def test_an_impetuous_unit_rerolls_a_pursuit_die_that_gives_none() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180)))
    state = add(state, "x", "gauls", "gauls_vercingetorix", (0, 0, 0), type="FL")
    ctx = context(state, [1, 5])
    assert retreat.pursuit_distance(ctx, state.unit("gauls2")) == 1
    assert [t.row for t in logged_tests(ctx.events)] == [
        "1: no pursuit (Impetuous can Reroll if fail)",
        "5: pursue 1H (foot)",
    ]
    ctx = context(state, [1, 5])
    assert retreat.pursuit_distance(ctx, state.unit("romans2")) == 0


def test_a_retreat_passes_light_troops_behind_a_friend() -> None:
    state = detach(at("charge", romans3=(10, 5, 0), romans2=(10, 3.5, 0), gauls2=(10, 6.0, 180)))
    ctx = context(state, [6])  # 2H back: onto the legion behind; archers (T) pass through
    length = retreat.retreat(ctx, ctx.state.unit("romans3"), ctx.state.unit("gauls2"))
    archers, legion = ctx.state.unit("romans3"), ctx.state.unit("romans2")
    assert length == 2.5 and (archers.x, archers.y) == (10, 2.5)  # just behind the legion
    assert (legion.x, legion.y) == (10, 3.5) and not DISORDERED.of(legion)


def test_a_retreat_pushes_back_and_disorders_a_friend_it_may_not_pass() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), romans1=(10, 3.5, 0), gauls2=(10, 6.0, 180)))
    ctx = context(state, [6])  # the legion retreats 2H into Legio X
    assert retreat.retreat(ctx, ctx.state.unit("romans2"), ctx.state.unit("gauls2")) == 2.0
    legion, pushed = ctx.state.unit("romans2"), ctx.state.unit("romans1")
    assert (legion.x, legion.y) == (10, 3.0)
    assert (pushed.x, round(pushed.y, 3)) == (10, 2.0) and DISORDERED.of(pushed)


def test_a_retreat_with_no_room_behind_a_friend_stops_at_it() -> None:
    # the archers may pass Legio IX, but the Arverni stand where they would be placed
    state = detach(at("charge", romans3=(10, 5, 0), romans2=(10, 3.5, 0), gauls2=(10, 6.0, 180),
                      gauls1=(10, 1.5, 0)))  # fmt: skip
    ctx = context(state, [6])
    assert retreat.retreat(ctx, ctx.state.unit("romans3"), ctx.state.unit("gauls2")) == 0.5
    archers = ctx.state.unit("romans3")
    assert (archers.x, archers.y) == (10, 4.5) and LOSSES.of(archers) == 1
    rows = [t.row for t in logged_tests(ctx.events)]
    assert any("Legio IX (no room behind it: Arverni Warband)" in r for r in rows)
