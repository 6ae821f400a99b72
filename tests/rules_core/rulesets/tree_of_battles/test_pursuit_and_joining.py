"""Two faults found by AI-vs-AI games: who a pursuer breaks, and what a joining charge fights.

Sheet, "Movement after Combat": "Fall-back. Move back base depth facing the enemy." "Retire.
... Break if caught by pursuers and the pursuers get a free hack." "Pursue. Full fast move, in
disarray, in an attempt to remain in contact with opponent." Only retiring troops break when
caught; a pursuer reaching an opponent that fell back (or halted) stays in contact with it.

Sheet, "Combat": "+1 Mêlée reinforced this turn", "-1 If outnumbered", and the DP factor is
starred: "These apply in charge combats only, not in mêlée". "Charge Responses": "Troops in
mêlée from a previous turn must also stand to receive." A contingent charging an enemy already
in mêlée with a friend reinforces that mêlée; it fights no charge combat of its own, whichever
side it is on and wherever either is listed.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from rules_core import registry
from rules_core.context import Context
from rules_core.dice import Modifier
from rules_core.orders import Order, Preview
from rules_core.rulesets.tree_of_battles import after, combat
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import BROKEN, COMBAT_RESULT, MELEE_WITH
from rules_core.state import BattleState
from rules_core.toolkit import enemies_in_contact
from tests.rules_core.rulesets.tree_of_battles.test_moves_back import context, placed

# York's Vaward (foot, 2 ranks of ½ SF stands) facing north; the Constable's Vanguard facing
# south in contact with it, at its front.
VAWARD = (12.0, 10.0, 0.0)
VANGUARD = (12.0, 11.0, 180.0)


def _after_combat(state: BattleState, faces: list[int]) -> Context:
    """The Vaward lost (set back), the Vanguard won (success): both still in mêlée."""
    ctx = context(state, faces)
    for key, result, enemy in (("e2", "set_back", "f2"), ("f2", "success", "e2")):
        u.mark(ctx, key, in_combat=True, combat_result=result, combat_enemy=enemy, melee_with=enemy)
    return ctx


@pytest.mark.parametrize("move", ["fall_back", "halt"])
def test_a_pursuer_reaching_a_contingent_that_fell_back_or_halted_stays_in_contact(
    move: str,
) -> None:
    # The pursuit rolls AvD 5 and 5 (5 SF): far enough to reach the Vaward ½ SF back.
    ctx = _after_combat(placed(e2=VAWARD, f2=VANGUARD), [5, 5, 5, 5, 5, 5])
    after.carry_out(ctx, "e2", "f2", move)
    after.carry_out(ctx, "f2", "e2", "pursue")
    vaward, vanguard = ctx.state.unit("e2"), ctx.state.unit("f2")
    assert not BROKEN.of(vaward) and u.casualties(vaward) == 0  # no break, no free hack
    assert enemies_in_contact(ctx.state, vaward) == [vanguard]
    assert MELEE_WITH.of(vaward) == "f2" and MELEE_WITH.of(vanguard) == "e2"  # mêlée goes on
    assert u.array(vanguard) == "disarray"  # "Full fast move, in disarray"


def test_a_retiring_contingent_caught_breaks_and_the_pursuers_get_a_free_hack() -> None:
    # Retire AvD 2 and 2 (2 SF); pursuit AvD 5 and 5 (5 SF) catches it; the rout rolls 5 and 5.
    ctx = _after_combat(placed(e2=VAWARD, f2=VANGUARD), [2, 2, 5, 5, 5, 5])
    after.carry_out(ctx, "e2", "f2", "retire")
    after.carry_out(ctx, "f2", "e2", "pursue")
    vaward = ctx.state.unit("e2")
    assert BROKEN.of(vaward)
    assert u.casualties(vaward) == int(ctx.number("free_hack_casualties"))


# -- a charge into a mêlée -------------------------------------------------------------------

# The friend in mêlée and the joining charger side by side, both touching the enemy's front.
FRIEND, JOINER, ENEMY = (11.5, 10.0, 0.0), (13.5, 10.0, 0.0), (12.0, 11.0, 180.0)
SIDES = {"english joins": ("e2", "e3", "f2"), "french joins": ("f2", "f3", "e2")}


def _joining(friend: str, joiner: str, enemy: str, order: tuple[str, ...]) -> BattleState:
    """``enemy`` in mêlée since last turn with ``friend``; ``joiner`` has just charged it."""
    flip = friend.startswith("f")  # the French come from the north, facing south
    where = {}
    for key, (x, y, facing) in ((friend, FRIEND), (joiner, JOINER), (enemy, ENEMY)):
        where[key] = (x, 21.0 - y, facing + 180.0) if flip else (x, y, facing)
    state = placed(**where)
    marks = {
        friend: {"in_combat": True, "melee_with": enemy, "fought_melee": True},
        enemy: {"in_combat": True, "melee_with": friend, "fought_melee": True},
        joiner: {"charged": True},
    }
    units = {x.id: x.with_status(**marks[x.id]) for x in state.units}  # type: ignore[arg-type]
    return replace(state, units=tuple(units[key] for key in order))


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_a_charge_into_a_melee_reinforces_it_in_any_order(
    side: str, order: tuple[int, ...]
) -> None:
    friend, joiner, enemy = SIDES[side]
    state = _joining(friend, joiner, enemy, tuple(SIDES[side][n] for n in order))
    assert [set(pair) for pair in combat.pairs(state)] == [{friend, enemy}]
    mine, theirs = state.unit(friend), state.unit(enemy)
    assert not combat.charge_combat(mine, theirs)  # a mêlée: the enemy's DPs do not count
    assert Modifier(1, "mêlée reinforced this turn") in combat.factors(state, mine, theirs, False)
    assert combat.outnumbering(state, theirs, mine) is not None


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_the_same_melee_gives_the_mirrored_result_whichever_side_joins(
    order: tuple[int, ...],
) -> None:
    results = {}
    for side, (friend, joiner, enemy) in SIDES.items():
        state = _joining(friend, joiner, enemy, tuple(SIDES[side][n] for n in order))
        ctx = context(state, [3] * 10)  # every die a 3: only the factors decide
        assert ctx.rules is not None
        ctx.rules.resolve_melee(ctx)  # type: ignore[attr-defined]
        results[side] = tuple(COMBAT_RESULT.of(ctx.state.unit(key)) for key in SIDES[side])
    english, french = results.values()
    assert english == french
    assert not english[1]  # the joiner fought no combat of its own
    assert english[0] in combat.WON  # the reinforced friend won


def test_the_charge_preview_says_it_reinforces_the_melee() -> None:
    friend, joiner, enemy = SIDES["english joins"]
    state = _joining(friend, joiner, enemy, (friend, joiner, enemy))
    state = state.with_unit(state.unit(joiner).with_status(charged=False))
    away = replace(state.unit(joiner), x=16.0, y=11.0, facing=270.0)  # at the enemy's flank
    state = replace(state.with_unit(away), cursor=replace(state.cursor, step="charges"))
    rules = registry.get("tob").rules
    assert rules is not None
    verdict = rules.judge(state, Order(joiner, "charge", {"target": enemy}))
    assert isinstance(verdict, Preview), verdict
    assert verdict.summary.endswith(
        "; The Constable's Vanguard is in mêlée with York's Vaward: the charge reinforces that"
        " mêlée (+1 Mêlée reinforced this turn, and its stands count against The Constable's"
        " Vanguard for outnumbering) and fights no charge combat of its own"
    )
