"""Recoil, rout, pursuit and advance moves; units leaving the table and coming back."""

from __future__ import annotations

from rules_core.context import Suspended
from rules_core.decisions import Answer
from rules_core.orders import Illegal, Order, Preview
from rules_core.rulesets.pike_and_shot import movement, moves
from rules_core.rulesets.pike_and_shot.status import (
    ATTACKER,
    COHESION,
    LEFT_IN_PURSUIT,
    LEFT_IN_ROUT,
    RECOILED,
)
from rules_core.state import OFF_TABLE, TerrainFeature
from tests.rules_core.rulesets.pike_and_shot.helpers import RULES, at, context, status

WOOD = TerrainFeature("wood", "wood", ((0, 0), (72, 0), (72, 6), (0, 6)), "Wood")


def test_a_recoil_goes_four_inches_straight_back_facing_the_enemy() -> None:
    state = at("combat", royalists4=(30, 20, 0), parliament3=(30, 23, 180))
    ctx = context(state)
    assert moves.recoil(ctx, ctx.state.unit("royalists4"), ctx.state.unit("parliament3")) == (
        "recoiled"
    )
    unit = ctx.state.unit("royalists4")
    assert (unit.x, unit.y, unit.facing) == (30, 16, 0) and RECOILED.of(unit)


def test_a_recoil_from_a_shooter_faces_the_shooter() -> None:
    state = at("combat", royalists4=(30, 20, 0), parliament6=(36, 26, 180))
    ctx = context(state)
    moves.recoil(ctx, ctx.state.unit("royalists4"), ctx.state.unit("parliament6"))
    unit = ctx.state.unit("royalists4")
    assert abs(unit.facing - 45) < 1e-6
    assert abs(unit.x - (30 - 4 / 2**0.5)) < 1e-3 and abs(unit.y - (20 - 4 / 2**0.5)) < 1e-3


def test_a_recoil_passes_through_friends_and_never_ends_on_one() -> None:
    state = at(
        "combat", royalists4=(30, 20, 0), royalists5=(30, 16.5, 0), parliament3=(30, 23, 180)
    )
    ctx = context(state)
    moves.recoil(ctx, ctx.state.unit("royalists4"), ctx.state.unit("parliament3"))
    assert ctx.state.unit("royalists4").y <= 14.5 + 1e-6  # behind the friend, clear of it


def test_a_retreat_through_a_gap_of_five_inches_between_enemies_passes() -> None:
    # Enemy brigades 6" wide at x=23 and x=37 leave a gap of 8" - 6" ... 20" to 26" and
    # 34" to 40": the gap between them is 8" wide, enough.
    state = at(
        "combat", royalists4=(30, 20, 180), parliament3=(30, 17, 0),
        parliament4=(23, 12, 180), parliament5=(37, 12, 180),
    )  # fmt: skip
    ctx = context(state)
    result = moves.rout_move(ctx, ctx.state.unit("royalists4"), ctx.state.unit("parliament3"))
    assert result == "routed" and ctx.state.unit("royalists4").y > 30


def test_a_retreat_with_no_five_inch_gap_eliminates_the_unit() -> None:
    # Enemy brigades 6" wide at x=26 and x=34: a gap of 2" between them.
    state = at(
        "combat", royalists4=(30, 30, 0), parliament3=(30, 33, 180),
        parliament4=(26, 26, 0), parliament5=(34.5, 26, 0),
    )  # fmt: skip
    ctx = context(state)
    result = moves.recoil(ctx, ctx.state.unit("royalists4"), ctx.state.unit("parliament3"))
    assert result == "eliminated"
    gone = ctx.state.unit("royalists4")
    assert gone.location == OFF_TABLE and COHESION.of(gone) == "destroyed"


def test_a_rout_uses_the_march_column_rate_facing_away() -> None:
    state = at("combat", royalists4=(30, 30, 0), parliament3=(30, 33, 180))
    ctx = context(state)
    assert moves.rout_move(ctx, ctx.state.unit("royalists4"), ctx.state.unit("parliament3")) == (
        "routed"
    )
    unit = ctx.state.unit("royalists4")
    assert (unit.y, unit.facing) == (12, 180)  # 18": the brigade's March Column rate


def test_a_rout_pays_for_difficult_terrain() -> None:
    # 18" of march-column move; each inch with its base in the wood (y < 6) costs 12/6 = 2
    # inches. From y=20, facing away, its front edge (1" ahead of its centre) reaches the
    # wood after 13" in the open; the other 5" of move take it 2.5" on (#39: the base, not the
    # centre, is in the wood): y = 20 - 13 - 2.5.
    state = at("combat", [WOOD], royalists4=(30, 20, 0), parliament3=(30, 23, 180))
    ctx = context(state)
    moves.rout_move(ctx, ctx.state.unit("royalists4"), ctx.state.unit("parliament3"))
    assert abs(ctx.state.unit("royalists4").y - 4.5) < 1e-3


def test_a_router_leaving_the_table_never_comes_back() -> None:
    state = at("combat", royalists4=(30, 10, 0), parliament3=(30, 13, 180))
    ctx = context(state)
    result = moves.rout_move(ctx, ctx.state.unit("royalists4"), ctx.state.unit("parliament3"))
    unit = ctx.state.unit("royalists4")
    assert result == "off_table" and unit.location == OFF_TABLE and LEFT_IN_ROUT.of(unit)
    later = at("movement", royalists4=(0, 0, 0)).with_unit(unit)
    back = RULES.judge(later, Order("royalists4", "return", {"to": [30, 2]}))
    assert isinstance(back, Illegal) and "not off the table in pursuit" in back.reason


def test_a_pursuer_stops_in_contact_and_is_the_attacker() -> None:
    state = at("combat", royalists1=(30, 10, 0), parliament3=(30, 20, 0))
    ctx = context(state)
    result = moves.pursue(ctx, ctx.state.unit("royalists1"), ctx.state.unit("parliament3"))
    horse = ctx.state.unit("royalists1")
    assert result == "contact" and ATTACKER.of(horse) and abs(horse.y - 18) < 1e-3


def test_a_pursuer_leaving_the_table_returns_within_six_inches_once_sound() -> None:
    state = at("combat", royalists1=(30, 38, 0), parliament3=(30, 60, 0))
    ctx = context(state)
    assert moves.pursue(ctx, ctx.state.unit("royalists1"), ctx.state.unit("parliament3")) == (
        "off_table"
    )
    horse = ctx.state.unit("royalists1")
    assert horse.location == OFF_TABLE and LEFT_IN_PURSUIT.of(horse)
    later = at("movement", royalists1=(0, 0, 0)).with_unit(horse)
    left = horse.left_at
    assert left is not None
    near = Order("royalists1", "return", {"to": [left[0] + 5, left[1] - 3], "facing": 180})
    far = Order("royalists1", "return", {"to": [left[0] + 9, left[1] - 3]})
    assert isinstance(RULES.judge(later, near), Preview)
    refused = RULES.judge(later, far)
    assert isinstance(refused, Illegal) and 'within 6"' in refused.reason
    shaken = status(later, "royalists1", cohesion="disordered")
    assert isinstance(RULES.judge(shaken, near), Illegal)
    ctx = context(later, orders=[near])
    movement.resolve(ctx)
    back = ctx.state.unit("royalists1")
    assert back.on_table and not LEFT_IN_PURSUIT.of(back) and back.facing == 180


def test_advancing_into_vacated_ground_asks_to_advance_then_the_facing() -> None:
    state = at(
        "combat", royalists4=(30, 20, 0), parliament3=(30, 23, 180), parliament5=(50, 30, 180)
    )
    loser = state.unit("parliament3")
    ctx = context(state)
    moves.recoil(ctx, loser, state.unit("royalists4"))
    after = ctx.state
    try:
        moves.advance_into(context(after), after.unit("royalists4"), loser)
        raise AssertionError("no question asked")
    except Suspended as asked:
        assert asked.decision.topic == "advance_into" and asked.decision.default == "advance"
    answers = [Answer("advance:royalists4:parliament3", "advance", "royalists")]
    try:
        moves.advance_into(context(after, answers=answers), after.unit("royalists4"), loser)
        raise AssertionError("no facing asked")
    except Suspended as asked:
        facing = asked.decision
    # The nearest enemy is straight ahead: keeping its facing faces it.
    assert facing.topic == "advance_facing" and facing.default == "keep"
    assert set(facing.option_ids) == {"keep", "left", "right"}
    answers.append(Answer("facing:royalists4:parliament3", "right", "royalists"))
    ctx = context(after, answers=answers)
    assert moves.advance_into(ctx, after.unit("royalists4"), loser)
    unit = ctx.state.unit("royalists4")
    assert abs(unit.y - 22) < 1e-3 and unit.facing == 90


def test_a_unit_that_stays_does_not_move() -> None:
    state = at("combat", royalists4=(30, 20, 0), parliament3=(30, 23, 180))
    loser = state.unit("parliament3")
    answers = [Answer("advance:royalists4:parliament3", "stay", "royalists")]
    ctx = context(state.without_unit("parliament3"), answers=answers)
    assert not moves.advance_into(ctx, ctx.state.unit("royalists4"), loser)
    assert ctx.state.unit("royalists4").y == 20


def test_flank_and_rear_come_from_the_contact_geometry() -> None:
    state = at(
        "combat", royalists4=(30, 20, 0), parliament3=(30, 22, 180), parliament1=(34, 20, 270),
        parliament7=(30, 18, 0),
    )  # fmt: skip
    target = state.unit("royalists4")
    assert moves.attacked_on(target, state.unit("parliament3")) == "front"
    assert moves.attacked_on(target, state.unit("parliament1")) == "flank"
    assert moves.attacked_on(target, state.unit("parliament7")) == "rear"


def test_the_facing_offered_after_an_advance_includes_the_nearest_enemy() -> None:
    state = at("combat", royalists4=(30, 20, 0), parliament5=(40, 30, 180))
    found = moves.facing_options(state, state.unit("royalists4"))
    assert found == {"face_enemy": 45.0, "keep": 0.0, "left": 270.0, "right": 90.0}


def test_no_facing_is_offered_after_an_advance_that_turns_the_base_onto_a_unit() -> None:
    # The seed-18 AI game: Balfour's Horse advanced 2" into the ground the Lifeguard left
    # recoiling 4"; turning a quarter to face its nearest enemy swung its 6" frontage onto
    # them. Here Wilmot's Horse stand 1.5" ahead of Gerard's Foot: any quarter turn reaches
    # 0.5" into them, so only keeping its facing is offered.
    state = at(
        "combat", royalists4=(30, 20, 0), parliament5=(40, 20, 180), royalists1=(30, 23.5, 0)
    )
    assert moves.facing_options(state, state.unit("royalists4")) == {"keep": 0.0}
    clear = at("combat", royalists4=(30, 20, 0), parliament5=(40, 20, 180), royalists1=(30, 24, 0))
    assert moves.facing_options(clear, clear.unit("royalists4")) == {
        "face_enemy": 90.0,
        "keep": 0.0,
        "left": 270.0,
        "right": 90.0,
    }
