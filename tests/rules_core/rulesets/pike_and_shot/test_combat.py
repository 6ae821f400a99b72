"""The Combat step on real states: shooting (dice, saves, every Shooting Results cell applied),
melee (dice, saves, the result by the difference, recoil, rout, destruction, stand-off, cavalry
breaking off, impetuous pursuit, advance into the vacated ground)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules_core.context import Context
from rules_core.decisions import Answer
from rules_core.events import TestResolved
from rules_core.orders import Order
from rules_core.rulesets.pike_and_shot import combat, pursuit
from rules_core.rulesets.pike_and_shot import combat_rolls as rolls
from rules_core.rulesets.pike_and_shot import tables as t
from rules_core.rulesets.pike_and_shot.status import cohesion
from rules_core.state import BattleState
from tests.rules_core.rulesets.pike_and_shot.helpers import at, context, status

FOOT, ENEMY_FOOT, HORSE = "royalists4", "parliament3", "royalists1"


def _rows(ctx: Context) -> list[str]:
    return [e.row for e in ctx.events if isinstance(e, TestResolved)]


def _facing_shot() -> BattleState:
    """Gerard's Foot (trained) and Essex's Foot (trained) 2.5" apart, face to face."""
    return at("combat", **{FOOT: (20.0, 20.0, 0.0), ENEMY_FOOT: (20.0, 24.5, 180.0)})


def _contact(
    attacker: str = FOOT, where: tuple[float, float, float] = (20.0, 20.0, 0.0)
) -> BattleState:
    return at("combat", **{attacker: where, ENEMY_FOOT: (20.0, 22.0, 180.0)})


# -- dice ---------------------------------------------------------------------------------------


def test_infantry_brigade_dice_and_veteran_volley_only_when_sound() -> None:
    state = _facing_shot()
    foot, enemy = state.unit(FOOT), state.unit(ENEMY_FOOT)
    assert rolls.dice_count(foot, enemy, "shooting")[0] == 2
    assert rolls.dice_count(foot, enemy, "melee")[0] == 2
    veteran = replace(foot, quality="veteran")
    assert rolls.dice_count(veteran, enemy, "shooting")[0] == 3
    assert rolls.dice_count(veteran, enemy, "melee")[0] == 2  # volley fire is shooting only
    shaken = veteran.with_status(cohesion="disordered")
    assert rolls.dice_count(shaken, enemy, "shooting")[0] == 2


def test_pike_against_mounted_and_veteran_cavalry_and_lance() -> None:
    state = _contact()
    foot, enemy = state.unit(FOOT), state.unit(ENEMY_FOOT)
    horse = at("combat", **{HORSE: (40.0, 20.0, 0.0)}).unit(HORSE)
    assert [m.value for m in rolls.dice_modifiers(foot, horse, "melee")] == [1]  # pike
    assert rolls.dice_count(foot, horse, "melee")[0] == 3
    assert not any("pike" in m.reason for m in rolls.dice_modifiers(foot, horse, "shooting"))
    veteran = replace(horse, quality="veteran")
    lancers = veteran.with_status(lance=True)
    assert rolls.dice_count(lancers, foot, "melee")[0] == 4  # 3 + veteran cavalry
    assert rolls.dice_count(lancers, enemy.with_status(cohesion="disordered"), "melee")[0] == 5


def test_a_shoot_order_is_refused_out_of_range_in_combat_and_planned_with_a_note() -> None:
    """In the Combat step a shot the unit cannot make is refused with the reason; planned
    earlier (before the moves), it is taken with a note that it is checked when Combat comes."""
    from rules_core.orders import Illegal, Preview
    from rules_core.rulesets.pike_and_shot import orders
    from rules_core.rulesets.pike_and_shot.rules import PikeAndShotRules

    rules = PikeAndShotRules()
    far = {FOOT: (20.0, 20.0, 0.0), ENEMY_FOOT: (20.0, 26.5, 180.0)}
    order = Order(FOOT, "shoot", {"target": ENEMY_FOOT})
    refused = rules.judge(at("combat", **far), order)
    assert isinstance(refused, Illegal) and 'range is 3"' in refused.reason
    planned = orders.preview(at("movement", **far), order, rules.parameter_values())
    assert isinstance(planned, Preview)
    assert any("checked when Combat comes" in note for note in planned.notes)
    near = {FOOT: (20.0, 20.0, 0.0), ENEMY_FOOT: (20.0, 24.5, 180.0)}
    assert isinstance(rules.judge(at("combat", **near), order), Preview)


@pytest.mark.parametrize(
    ("changes", "shooting", "melee"),
    [
        ({"cohesion": "disrupted"}, 1, 1),
        ({"cohesion": "routed"}, 0, 0),  # 2 - 2: no dice left
        ({"march_column": True}, 0, 1),  # no shooting; the March Columns row's die in melee
    ],
)
def test_dice_penalties(changes: dict[str, object], shooting: int, melee: int) -> None:
    state = _facing_shot()
    foot = state.unit(FOOT).with_status(**changes)  # type: ignore[arg-type]
    enemy = state.unit(ENEMY_FOOT)
    assert rolls.dice_count(foot, enemy, "shooting")[0] == shooting
    assert rolls.dice_count(foot, enemy, "melee")[0] == melee


def test_company_in_march_column_loses_one_die() -> None:
    state = at("combat", royalists2=(40.0, 20.0, 0.0), **{ENEMY_FOOT: (40.0, 22.0, 180.0)})
    dragoons = state.unit("royalists2").with_status(march_column=True)
    mods = rolls.dice_modifiers(dragoons, state.unit(ENEMY_FOOT), "melee")
    assert [m.value for m in mods] == [-1]


def test_flank_and_rear_from_contact_geometry() -> None:
    flank = at("combat", **{HORSE: (24.0, 22.0, 270.0), ENEMY_FOOT: (20.0, 22.0, 180.0)})
    horse, foot = flank.unit(HORSE), flank.unit(ENEMY_FOOT)
    assert rolls.attacked_edge(foot, horse) in ("left", "right")
    assert "Unit attacking enemy flank | + 1 in all combats" in [
        m.reason for m in rolls.dice_modifiers(horse, foot, "melee")
    ]
    saves = rolls.save_modifiers(flank, foot, horse, "melee", {})
    assert [(m.value, m.reason) for m in saves] == [(-1, "Unit attacked in flank | - 1 saving die")]
    rear = at("combat", **{HORSE: (20.0, 24.0, 180.0), ENEMY_FOOT: (20.0, 22.0, 180.0)})
    saves = rolls.save_modifiers(rear, rear.unit(ENEMY_FOOT), rear.unit(HORSE), "melee", {})
    assert [m.value for m in saves] == [-2]


def test_saving_dice_by_size_and_modifiers() -> None:
    state = _facing_shot()
    foot, enemy = state.unit(FOOT), state.unit(ENEMY_FOOT)
    spec = rolls.save_roll(state, enemy, foot, "shooting", {"close_range_share": 0.5})
    assert spec is not None and spec.dice == 2 and spec.target == 4
    raw = replace(foot, quality="raw")
    spec = rolls.save_roll(state, enemy.with_status(cover="cover"), raw, "shooting", {})
    assert spec is not None and spec.dice == 4  # + raw shooter + cover
    close = rolls.save_modifiers(state, enemy, foot, "shooting", {"close_range_share": 1.0})
    assert [m.reason for m in close] == ["Hit caused by close range shooting | - 1 saving die"]
    assert (
        rolls.save_roll(state, enemy.with_status(cohesion="disrupted"), foot, "melee", {}) is None
    )


# -- shooting ------------------------------------------------------------------------------------


def test_both_sides_shoot_at_once_and_two_unsaved_hits_disrupt() -> None:
    # Gerard's 2 dice (6, 6) = 2 hits; Essex's saves (1, 1) = 0; Essex's 2 dice (1, 1) = 0.
    ctx = context(_facing_shot(), [6, 6, 1, 1, 1, 1])
    combat.shoot(ctx)
    assert cohesion(ctx.state.unit(ENEMY_FOOT)) == "disrupted"
    assert (ctx.state.unit(ENEMY_FOOT).x, ctx.state.unit(ENEMY_FOOT).y) == (20.0, 24.5)
    assert cohesion(ctx.state.unit(FOOT)) == "sound"
    assert any("2 hits against a sound unit" in r for r in _rows(ctx))


def test_shooting_is_simultaneous() -> None:
    """Both shooters roll before either result lands: the disrupted foot still shoots with
    its sound dice (2) and the results then apply to both."""
    # Gerard: hits 6,6 ; Essex saves 1,1 ; Essex: hits 6,6 ; Gerard saves 1,1.
    ctx = context(_facing_shot(), [6, 6, 1, 1, 6, 6, 1, 1])
    combat.shoot(ctx)
    assert cohesion(ctx.state.unit(ENEMY_FOOT)) == "disrupted"
    assert cohesion(ctx.state.unit(FOOT)) == "disrupted"


def test_hold_order_and_ordered_target() -> None:
    """The nearest is the default target; an order names another; a unit on Hold does not
    fire."""
    other = "parliament4"
    where = {FOOT: (20.0, 20.0, 0.0), ENEMY_FOOT: (20.0, 24.5, 180.0), other: (27.0, 24.5, 180.0)}
    state = at("combat", **where)
    assert [u.id for u in combat.targets(state, state.unit(FOOT))] == [ENEMY_FOOT, other]
    orders = [
        Order(FOOT, "shoot", {"target": other}),
        Order(ENEMY_FOOT, "hold"),
        Order(other, "hold"),
    ]
    ctx = context(state, [6, 6, 1, 1], orders=orders)
    combat.shoot(ctx)
    assert cohesion(ctx.state.unit(other)) == "disrupted"
    assert cohesion(ctx.state.unit(ENEMY_FOOT)) == "sound"
    assert cohesion(ctx.state.unit(FOOT)) == "sound"


def test_no_firing_lane_behind_or_out_of_range() -> None:
    state = at("combat", **{FOOT: (20.0, 20.0, 180.0), ENEMY_FOOT: (20.0, 22.5, 180.0)})
    why = combat.firing_problem(state, state.unit(FOOT), state.unit(ENEMY_FOOT))
    assert why is not None and "Firing Lane" in why
    far = at("combat", **{FOOT: (20.0, 20.0, 0.0), ENEMY_FOOT: (20.0, 26.5, 180.0)})
    why = combat.firing_problem(far, far.unit(FOOT), far.unit(ENEMY_FOOT))
    assert why is not None and 'range is 3"' in why


@pytest.mark.parametrize(
    ("hits", "before", "after", "moved"),
    [
        (1, "sound", "disordered", 0.0),
        (1, "disordered", "disrupted", 0.0),
        (2, "sound", "disrupted", 0.0),
        (2, "disordered", "disrupted", 4.0),
        (2, "disrupted", "routed", 18.0),
        (3, "sound", "disrupted", 4.0),
        (3, "disordered", "routed", 18.0),
        (3, "disrupted", "routed", 18.0),
        (4, "sound", "routed", 18.0),
        (5, "sound", "routed", 18.0),
        (4, "disordered", "destroyed", None),
        (4, "disrupted", "destroyed", None),
    ],
)
def test_every_shooting_result_cell(
    hits: int, before: str, after: str, moved: float | None
) -> None:
    state = status(_facing_shot(), ENEMY_FOOT, cohesion=before)
    ctx = context(state)
    combat.apply_shot(ctx, combat.Shot(FOOT, ENEMY_FOOT, hits))
    target = ctx.state.unit(ENEMY_FOOT)
    assert cohesion(target) == after
    if moved is None:
        assert not target.on_table
        return
    assert target.on_table
    assert target.y - 24.5 == pytest.approx(moved)
    if moved == 4.0:
        assert target.facing == pytest.approx(180.0)  # recoils facing the shooter
    if moved == 18.0:
        assert target.facing == pytest.approx(0.0)  # routs facing away


@pytest.mark.parametrize(("face", "after", "moved"), [(4, "routed", 18.0), (6, "disrupted", 4.0)])
def test_one_hit_on_disrupted_tests_rout_or_recoil(face: int, after: str, moved: float) -> None:
    # Essex's test: trained +1, Hold +1, disrupted -2, sound enemy brigade within 8" -1 = -1.
    state = status(_facing_shot(), ENEMY_FOOT, cohesion="disrupted")
    ctx = context(state, [face])
    combat.apply_shot(ctx, combat.Shot(FOOT, ENEMY_FOOT, 1))
    target = ctx.state.unit(ENEMY_FOOT)
    assert cohesion(target) == after
    assert target.y - 24.5 == pytest.approx(moved)
    assert _rows(ctx)[-1] == (
        "4+: If the modified score is 4 or more then the unit passes its test."
        if face == 6
        else "3-: 3 or less: fails"
    )


def test_a_routed_company_is_removed_after_its_rout_move() -> None:
    state = at("combat", royalists2=(20.0, 20.0, 90.0), **{ENEMY_FOOT: (16.0, 20.0, 90.0)})
    state = status(state, "royalists2", cohesion="disrupted")
    ctx = context(state)
    combat.apply_shot(ctx, combat.Shot(ENEMY_FOOT, "royalists2", 2))
    dragoons = ctx.state.unit("royalists2")
    assert not dragoons.on_table and cohesion(dragoons) == "destroyed"
    assert dragoons.left_at is not None and dragoons.left_at[0] > 40.0  # after its rout move


# -- melee ---------------------------------------------------------------------------------------


def test_melee_recoil_disorders_the_loser_and_the_winner_may_advance() -> None:
    # Gerard 6,6 (2 hits), Essex saves 4,1 (1 saved); Essex 1,1 (no hit): 1 - 0 = recoil.
    answers = [Answer(f"advance:{FOOT}:{ENEMY_FOOT}", "stay", "royalists")]
    ctx = context(_contact(), [6, 6, 4, 1, 1, 1], answers=answers)
    combat.fight(ctx)
    enemy = ctx.state.unit(ENEMY_FOOT)
    assert cohesion(enemy) == "disordered"
    assert enemy.y == pytest.approx(26.0) and enemy.facing == pytest.approx(180.0)
    assert "1: Scores differ by one hit = Recoil." in _rows(ctx)
    assert ctx.state.unit(FOOT).y == 20.0


def test_melee_advance_into_vacated_ground() -> None:
    answers = [
        Answer(f"advance:{FOOT}:{ENEMY_FOOT}", "advance", "royalists"),
        Answer(f"facing:{FOOT}:{ENEMY_FOOT}", "keep", "royalists"),
    ]
    ctx = context(_contact(), [6, 6, 4, 1, 1, 1], answers=answers)
    combat.fight(ctx)
    assert ctx.state.unit(FOOT).y > 20.0


@pytest.mark.parametrize(("face", "pursues"), [(1, True), (2, True), (3, False), (6, False)])
def test_rout_and_impetuous_pursuit(face: int, pursues: bool) -> None:
    # Gerard 6,6, Essex saves 1,1; Essex 1,1: 2 - 0 = rout. Gerard's pursuit test:
    # infantry brigade +3, Attack orders -1, clear path to the routers -1 = +1: 3 or less pursues.
    answers = [Answer(f"advance:{FOOT}:{ENEMY_FOOT}", "stay", "royalists")]
    ctx = context(_contact(), [6, 6, 1, 1, 1, 1, face], answers=answers)
    combat.fight(ctx)
    enemy = ctx.state.unit(ENEMY_FOOT)
    assert cohesion(enemy) == "routed" and enemy.y == pytest.approx(40.0)
    assert "2: Scores differ by two hits = Rout." in _rows(ctx)
    foot = ctx.state.unit(FOOT)
    assert (foot.status.get("pursuing") is True) is pursues
    assert (foot.y > 20.0) is pursues


def test_pursuit_modifiers_are_the_sheets() -> None:
    state = _contact()
    mods = pursuit.pursuit_modifiers(state, state.unit(FOOT), state.unit(ENEMY_FOOT), {})
    assert [(m.value, m.reason) for m in mods] == [
        (3, "Pursuers are an Infantry Brigade | + 3"),
        (-1, "Clear path to routers within 18ins | - 1"),
        (-1, "Pursuers are under Attack orders | - 1"),
    ]


def test_disrupted_winners_do_not_pursue() -> None:
    state = status(_contact(), FOOT, cohesion="disrupted")
    assert not pursuit.must_test(state, state.unit(FOOT), state.unit(ENEMY_FOOT))


def test_destruction_removes_the_loser_after_its_rout_move() -> None:
    # Wilmot's Horse 6,6,6; Essex saves 1,1; Essex (pike v mounted: 3 dice) 1,1,1: 3 - 0.
    # Wilmot's pursuit: sound cavalry brigade -2, Attack -1: any d6 pursues.
    state = _contact(HORSE)
    ctx = context(state, [6, 6, 6, 1, 1, 1, 1, 1, 6])
    combat.fight(ctx)
    enemy = ctx.state.unit(ENEMY_FOOT)
    assert cohesion(enemy) == "destroyed" and not enemy.on_table
    assert "3+: Scores differ by three or more = Destruction." in _rows(ctx)
    assert ctx.state.unit(HORSE).status.get("pursuing") is True


def test_stand_off_both_remain_engaged() -> None:
    ctx = context(_contact(), [1, 1, 1, 1])
    combat.fight(ctx)
    assert ctx.state.unit(FOOT).status.get("engaged") is True
    assert ctx.state.unit(ENEMY_FOOT).status.get("engaged_with") == FOOT
    assert "0: Scores are equal = Stand-off." in _rows(ctx)


@pytest.mark.parametrize(
    ("choice", "face", "broke_off"),
    [("remain", 6, False), ("break_off", 6, True), ("break_off", 1, False)],
)
def test_cavalry_may_break_off_a_stand_off_with_infantry(
    choice: str, face: int, broke_off: bool
) -> None:
    answers = [Answer(f"break_off:{HORSE}", choice, "royalists")]
    ctx = context(_contact(HORSE), [1, 1, 1, 1, 1, 1, face], answers=answers)
    combat.fight(ctx)
    horse = ctx.state.unit(HORSE)
    assert (horse.y == pytest.approx(16.0)) is broke_off
    assert (horse.status.get("engaged") is True) is not broke_off


def test_shooting_rows_read_from_the_table() -> None:
    assert t.SHOOTING_RESULTS.lookup("2", "disordered") == "disrupted_recoil"


@pytest.mark.parametrize(("face", "removed"), [(1, True), (6, False)])
def test_a_disrupted_loser_routs_then_tests_or_is_removed(face: int, removed: bool) -> None:
    # Gerard 6,6 at the disrupted Essex (no saving dice: 2 - 2); Essex 1 die (disrupted): 1.
    # 2 - 0 = rout: Essex routs, then its Disorder Test: trained +1, Hold +1, routed -3 = -1.
    # Gerard's pursuit: Essex ended 18" away: d6 6 + 1 = 7, no pursuit.
    state = status(_contact(), ENEMY_FOOT, cohesion="disrupted")
    answers = [Answer(f"advance:{FOOT}:{ENEMY_FOOT}", "stay", "royalists")]
    ctx = context(state, [6, 6, 1, face, 6], answers=answers)
    combat.fight(ctx)
    enemy = ctx.state.unit(ENEMY_FOOT)
    assert enemy.on_table is not removed
    assert cohesion(enemy) == ("destroyed" if removed else "routed")


def test_artillery_at_close_range_and_from_the_flank() -> None:
    # The Royal Train (field artillery, 12") 4" from Essex's Foot's flank.
    state = at("combat", royalists6=(28.0, 22.0, 270.0), **{ENEMY_FOOT: (20.0, 22.0, 180.0)})
    guns, foot = state.unit("royalists6"), state.unit(ENEMY_FOOT)
    assert combat.firing_problem(state, guns, foot) is None
    dice = [m.reason for m in rolls.dice_modifiers(guns, foot, "shooting")]
    assert dice == ["Unit attacking enemy flank | + 1 in all combats"]
    saves = [
        m.reason
        for m in rolls.save_modifiers(state, foot, guns, "shooting", {"close_range_share": 0.5})
    ]
    assert saves == [
        "Hit caused by close range artillery fire | - 1 saving die",
        "Unit attacked in flank | - 1 saving die",
    ]


def test_a_shot_without_unsaved_hits_shows_its_row() -> None:
    ctx = context(_facing_shot(), [6, 1, 6, 6, 1])
    combat.shoot(ctx)
    assert "0 unsaved hits: no effect" in _rows(ctx)
    assert cohesion(ctx.state.unit(ENEMY_FOOT)) == "sound"


def test_break_off_as_a_gm_ruling() -> None:
    state = replace(_contact(HORSE), parameters={"break_off": "gm"})
    answers = [
        Answer(f"break_off:{HORSE}", "break_off", "royalists"),
        Answer(f"break_off_ruling:{HORSE}", "no", "gm"),
    ]
    ctx = context(state, [1, 1, 1, 1, 1, 1, 6], answers=answers)
    combat.fight(ctx)
    assert ctx.state.unit(HORSE).status.get("engaged") is True


def test_unsaved_hits_are_noted_for_the_risk_to_commanders() -> None:
    ctx = context(_facing_shot(), [6, 6, 1, 1, 1, 1])
    combat.shoot(ctx)
    assert ctx.state.unit(ENEMY_FOOT).status.get("hits") == 2
    assert not ctx.state.unit(FOOT).status.get("hits")


def test_destroyed_even_when_its_rout_move_leaves_the_table() -> None:
    state = at("combat", **{FOOT: (20.0, 41.5, 0.0), ENEMY_FOOT: (20.0, 46.0, 180.0)})
    state = status(state, ENEMY_FOOT, cohesion="disordered")
    ctx = context(state)
    combat.apply_shot(ctx, combat.Shot(FOOT, ENEMY_FOOT, 4))
    enemy = ctx.state.unit(ENEMY_FOOT)
    assert not enemy.on_table and cohesion(enemy) == "destroyed"
