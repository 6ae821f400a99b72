"""Melee: fought at once inside the charging unit's activation; a drawn melee is fought again
when either unit next activates.

Each unit rolls one die per point of its current VBU, plus the impetus bonus of a unit that
charged (``impact``: nullified or reduced by the sheet's rows), the general modifiers, the
depth bonus, pilum/PBW, and +1 in a second or further new melee (a pursuit's) if not exhausted;
each supporting unit rolls half its dice. Each 6 is a hit and each pair of 5s a hit. Both take
a cohesion test with the hits they took (``tables.COHESION_MELEE``). The unit that lost more
VBU loses: it retreats by the D6 table, and the winner pursues by it (an impetuous unit
re-rolls a die that gives no pursuit); a pursuer that reaches the loser fights it again as a
new melee. Both moves are checked along their path (enemies, friends, impassable ground, the
table edge: ``retreat``, ``pursue``, README_combat.md). Equal losses: a drawn melee, marked to
be fought again. Fatigue: a fresh unit that fought is no longer fresh; a unit that fights a
second new melee in one activation is exhausted. Other enemies touching either unit join the
melee (``joining``, ``_resolve_many``): each contact is a fight.

``resolve(ctx, attacker, defender, *, impact)`` returns "attacker", "defender" or "draw" (the
side that won). ``melee_roll`` builds each unit's roll; the odds read the same roll.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from rules_core import paths
from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import MeleeFought, MeleeResolved, TestResolved
from rules_core.geometry import EPSILON, Footprint, near
from rules_core.odds import RollSpec
from rules_core.rulesets.impetus import (
    cohesion,
    displacement,
    interpenetration,
    profiles,
    tables,
)
from rules_core.rulesets.impetus.edges import touching_edge
from rules_core.rulesets.impetus.melee_dice import (
    Fight,
    cohesion_modifiers,
    flanked_by,
    melee_roll,
    support_roll,
    supports,
)
from rules_core.rulesets.impetus.retreat import away_from, blocker_words, pursuit_distance, retreat
from rules_core.rulesets.impetus.shooting import hits_row
from rules_core.rulesets.impetus.status import (
    CHARGED,
    FRESHNESS,
    FRESHNESS_ORDER,
    MELEE_PENDING,
    MELEE_WITH,
    ROUTED,
)
from rules_core.state import BattleState, Unit

Params = Mapping[str, Json]


ATTACKER = "attacker"


DEFENDER = "defender"


DRAW = "draw"


RETREAT, ROUTED_AWAY, FOUGHT_AGAIN = "retreat", "routed", "fought_again"  # a round's next step


MAX_NEW_MELEES = 3  # pursuits into new melees in one charge (a guard; the table rarely allows 2)


# -- the melee ------------------------------------------------------------------------------


def _roll_side(ctx: Context, unit: Unit, enemy: Unit, fight: Fight) -> int:
    hits = 0
    spec = melee_roll(ctx.state, unit, enemy, fight)
    if spec.n + sum(m.value for m in spec.dice_modifiers) > 0:
        hits, words = hits_row(spec.roll(ctx.dice))
        ctx.emit(TestResolved(enemy.id, f"hits from {unit.name}", hits, hits > 0, words, False))
    for friend in supports(ctx.state, unit):
        extra = support_roll(ctx.state, friend, unit)
        if math.floor(profiles.current_vbu(friend) * tables.SUPPORT_SHARE) <= 0:
            continue
        more, words = hits_row(extra.roll(ctx.dice))
        ctx.emit(
            TestResolved(
                enemy.id, f"hits from {friend.name} (support)", more, more > 0, words, False
            )
        )
        hits += more
    return hits


def _tire(ctx: Context, unit_id: str, new_melee: bool) -> None:
    """Fresh -> no longer fresh after a melee; exhausted after a second new melee."""
    if not cohesion.alive(ctx.state, unit_id):
        return
    now = FRESHNESS.of(ctx.state.unit(unit_id)) or "fresh"
    floor = "exhausted" if new_melee else "no_longer_fresh"
    after = max(now, floor, key=FRESHNESS_ORDER.index)
    if after != now:
        why = "a second new melee in one activation" if new_melee else "fought a melee"
        ctx.set_status(unit_id, why, freshness=after)


def _mark(ctx: Context, a: str, b: str, drawn: bool) -> None:
    for me, other in ((a, b), (b, a)):
        if not cohesion.alive(ctx.state, me):
            continue
        unit = ctx.state.unit(me)
        listed = MELEE_WITH.of(unit)
        enemies = [str(x) for x in listed] if isinstance(listed, list) else []
        if drawn:
            enemies = sorted({*enemies, other})
            ctx.set_status(
                me,
                "drawn melee: fought again when either unit next activates",
                melee_pending=True,
                melee_with=list(enemies),
            )
        else:
            left = [x for x in enemies if x != other and cohesion.alive(ctx.state, x)]
            ctx.set_status(
                me, None, melee_pending=bool(left) and MELEE_PENDING.of(unit), melee_with=list(left)
            )


def _test_both(ctx: Context, *fighters: tuple[Unit, int]) -> tuple[dict[str, int], dict[str, bool]]:
    """Each of the two units hit takes its cohesion test against the other: the VBU each lost
    and whether each routed."""
    lost = {unit.id: 0 for unit, _ in fighters}
    routed = {unit.id: False for unit, _ in fighters}
    (first, _), (second, _) = fighters
    for (unit, hits), enemy in zip(fighters, (second, first), strict=True):
        if hits <= 0 or not cohesion.alive(ctx.state, unit.id):
            continue
        now = ctx.state.unit(unit.id)
        mods = cohesion_modifiers(
            ctx.state,
            now,
            ctx.state.unit(enemy.id) if cohesion.alive(ctx.state, enemy.id) else enemy,
        )
        found = cohesion.test(ctx, now, hits, mods, cohesion.MELEE, f"melee with {enemy.name}")
        lost[unit.id], routed[unit.id] = found.lost, found.routed
    return lost, routed


def resolve(
    ctx: Context,
    attacker: Unit,
    defender: Unit,
    *,
    impact: bool,
    new_melee: bool = False,
    depth_left: int = MAX_NEW_MELEES,
) -> str:
    """Fight one melee round; returns the side that won it or "draw"."""
    fought = _fought(ctx)
    if not impact and frozenset((attacker.id, defender.id)) in fought:
        return DRAW  # fought already in this activation, in a melee of more than two units
    ctx.emit(MeleeFought(attacker.id, defender.id))
    # A countercharge (``reactions``) marks the charged unit of the side not acting as charged.
    countercharge = (
        impact and CHARGED.of(defender) and ctx.side is not None and defender.side != ctx.side
    )
    if countercharge and CHARGED.of(defender):
        ctx.set_status(defender.id, None, charged=False)
    attacking = Fight(charging=impact, new_melee=new_melee)
    defending = Fight(charging=impact and countercharge, receiving=impact and not countercharge)
    joining_a = joining(ctx.state, defender, attacker)
    joining_d = joining(ctx.state, attacker, defender)
    if joining_a or joining_d:
        return _resolve_many(
            ctx, attacker, defender, joining_a, joining_d, attacking, defending, depth_left
        )
    fought.add(frozenset((attacker.id, defender.id)))
    hits_on_defender = _roll_side(ctx, attacker, defender, attacking)
    hits_on_attacker = _roll_side(ctx, defender, attacker, defending)
    lost, routed = _test_both(ctx, (attacker, hits_on_attacker), (defender, hits_on_defender))
    result = _result(lost, routed, attacker.id, defender.id)
    row = _row([attacker], lost[attacker.id], [defender], lost[defender.id], result)
    scored = ((attacker.id, hits_on_defender), (defender.id, hits_on_attacker))
    _melee_result(
        ctx, attacker, defender, result, lost[defender.id] - lost[attacker.id], row, scored
    )
    _tire(ctx, attacker.id, new_melee)
    _tire(ctx, defender.id, False)
    _mark(ctx, attacker.id, defender.id, result == DRAW)
    if result == DRAW:
        return result
    winner, loser = (attacker, defender) if result == ATTACKER else (defender, attacker)
    if cohesion.alive(ctx.state, loser.id):
        retreat(ctx, ctx.state.unit(loser.id), winner)
    if cohesion.alive(ctx.state, winner.id) and depth_left > 0:
        pursue(ctx, ctx.state.unit(winner.id), loser.id, depth_left)
    return result


def _fought(ctx: Context) -> set[frozenset[str]]:
    """The pairs of units that fought a round in this resolution (an activation's step): a
    drawn melee of more than two units is fought again once, not once for each pair."""
    found = ctx.scratch.setdefault("impetus.melee.fought", set())
    assert isinstance(found, set)
    return found


def _melee_result(
    ctx: Context,
    attacker: Unit,
    defender: Unit,
    result: str,
    score: int,
    row: str,
    scored: tuple[tuple[str, int], ...],
) -> None:
    """Log the round's result ("melee result" for the attacker: the VBU lost, the winner) with
    the hits each side scored and what comes next: the loser retreats (or has routed), a draw
    is fought again."""
    if result == DRAW:
        winner, loser, next_ = None, None, FOUGHT_AGAIN
    else:
        winner, loser = (attacker, defender) if result == ATTACKER else (defender, attacker)
        next_ = RETREAT if cohesion.alive(ctx.state, loser.id) else ROUTED_AWAY
    ctx.emit(
        MeleeResolved(
            attacker.id,
            "melee result",
            score,
            result == ATTACKER,
            row,
            False,
            None if winner is None else winner.id,
            None if loser is None else loser.id,
            scored,
            next_,
        )
    )


def joining(state: BattleState, unit: Unit, enemy: Unit) -> list[Unit]:
    """The other enemies of ``unit`` in contact with it (edge to edge), besides ``enemy``:
    they join its melee with ``enemy``."""
    here = Footprint.of(unit)
    return [
        other
        for other in near(state.units_on_table, here.bounds, gap=EPSILON)  # only those can touch
        if other.side != unit.side
        and other.id != enemy.id
        and not ROUTED.of(other)
        and touching_edge(here, Footprint.of(other)) is not None
    ]


def _front_enemy(state: BattleState, unit: Unit, first: Unit, others: list[Unit]) -> Unit:
    """The enemy a unit in contact with several rolls its dice against: ``first`` if it stands
    to its front or none does, else the one to its front."""
    here = Footprint.of(unit)
    if touching_edge(here, Footprint.of(first)) == "front":
        return first
    return next((o for o in others if touching_edge(here, Footprint.of(o)) == "front"), first)


def extra_roll(state: BattleState, unit: Unit, enemy: Unit, params: Params) -> RollSpec:
    """The roll of a further unit in a melee of more than two (``melee_extra_dice``): half its
    dice as a supporting unit, or its own full roll."""
    if displacement.setting(params, "melee_extra_dice") == "full":
        return melee_roll(state, unit, enemy, Fight())
    full = profiles.current_vbu(unit)
    half = math.floor(full * tables.SUPPORT_SHARE)
    why = f"Supporting Units roll half dice (a further unit in the melee with {enemy.name})"
    label = f"Melee: {unit.name} (VBU {full}) against {enemy.name}"
    mods = (Modifier(half - full, why),)
    purpose = Purpose(unit.id, "melee", enemy.id, "further unit")
    return RollSpec(
        label, full, mode="pool", target=tables.HIT_FACE, dice_modifiers=mods, purpose=purpose
    )


def _roll_at(ctx: Context, spec: RollSpec, roller: Unit, target: Unit) -> int:
    if spec.n + sum(m.value for m in spec.dice_modifiers) <= 0:
        return 0
    hits, words = hits_row(spec.roll(ctx.dice))
    ctx.emit(TestResolved(target.id, f"hits from {roller.name}", hits, hits > 0, words, False))
    return hits


def _resolve_many(
    ctx: Context,
    attacker: Unit,
    defender: Unit,
    joining_a: list[Unit],
    joining_d: list[Unit],
    attacking: Fight,
    defending: Fight,
    depth_left: int,
) -> str:
    """A melee of more than two units: each contact is a fight. The attacker and the defender
    each roll once (with their rear supports) against the enemy to their front (their charge's
    target, the one who charged them, if it is there or none is); each further unit rolls
    against the one of them it touches (``extra_roll``). A unit takes every hit rolled at it
    and one cohesion test (the flank or rear modifier if any enemy touches it there). The side
    that lost more VBU (a routed attacker or defender first) loses: each of its units
    retreats from the enemy it fought; the winning one of the two pursues the losing one."""
    fights = ((attacker, attacking), (defender, defending))
    hits, facing = _roll_many(ctx, fights, joining_a, joining_d)
    side_a = [attacker, *joining_a]
    side_d = [defender, *joining_d]
    lost, routed = _test_many(ctx, (*side_a, *side_d), hits, facing)
    total_a = sum(lost.get(u.id, 0) for u in side_a)
    total_d = sum(lost.get(u.id, 0) for u in side_d)
    broke = {ATTACKER: routed.get(attacker.id, False), DEFENDER: routed.get(defender.id, False)}
    result = _result({ATTACKER: total_a, DEFENDER: total_d}, broke, ATTACKER, DEFENDER)
    row = _row(side_a, total_a, side_d, total_d, result)
    scored = (
        (attacker.id, sum(hits.get(u.id, 0) for u in side_d)),
        (defender.id, sum(hits.get(u.id, 0) for u in side_a)),
    )
    _melee_result(ctx, attacker, defender, result, total_d - total_a, row, scored)
    fought = _fought(ctx)
    for unit in (*side_a, *side_d):
        _tire(ctx, unit.id, attacking.new_melee and unit.id == attacker.id)
        for foe in facing.get(unit.id, []):
            fought.add(frozenset((unit.id, foe.id)))
    for unit in side_a:
        for foe in facing.get(unit.id, []):
            _mark(ctx, unit.id, foe.id, result == DRAW)
    if result != DRAW:
        _retreat_many(
            ctx, (side_a, side_d) if result == ATTACKER else (side_d, side_a), facing, depth_left
        )
    return result


def _roll_many(
    ctx: Context,
    fights: tuple[tuple[Unit, Fight], tuple[Unit, Fight]],
    joining_a: list[Unit],
    joining_d: list[Unit],
) -> tuple[dict[str, int], dict[str, list[Unit]]]:
    """Every roll of a melee of more than two: the hits rolled at each unit, and each unit's
    enemies in this melee."""
    (attacker, attacking), (defender, defending) = fights
    state = ctx.state
    a_target = _front_enemy(state, attacker, defender, joining_d)
    d_target = _front_enemy(state, defender, attacker, joining_a)
    hits: dict[str, int] = {}
    facing: dict[str, list[Unit]] = {}

    def meet(a: Unit, b: Unit) -> None:
        facing.setdefault(a.id, []).append(b)
        facing.setdefault(b.id, []).append(a)

    for unit, target, fight in ((attacker, a_target, attacking), (defender, d_target, defending)):
        got = _roll_at(ctx, melee_roll(ctx.state, unit, target, fight), unit, target)
        for friend in supports(ctx.state, unit):
            if math.floor(profiles.current_vbu(friend) * tables.SUPPORT_SHARE) <= 0:
                continue
            got += _roll_at(ctx, support_roll(ctx.state, friend, unit), friend, target)
        hits[target.id] = hits.get(target.id, 0) + got
    meet(attacker, defender)
    for extras, core in ((joining_a, defender), (joining_d, attacker)):
        for unit in extras:
            got = _roll_at(ctx, extra_roll(ctx.state, unit, core, ctx.params), unit, core)
            hits[core.id] = hits.get(core.id, 0) + got
            meet(unit, core)
    return hits, facing


def _test_many(
    ctx: Context,
    units: tuple[Unit, ...],
    hits: dict[str, int],
    facing: dict[str, list[Unit]],
) -> tuple[dict[str, int], dict[str, bool]]:
    """Each hit unit's one cohesion test (flank or rear if any enemy touches it there): the
    VBU each lost and whether it routed."""
    lost: dict[str, int] = {}
    routed: dict[str, bool] = {}
    for unit in units:
        taken = hits.get(unit.id, 0)
        if taken <= 0 or not cohesion.alive(ctx.state, unit.id):
            continue
        now = ctx.state.unit(unit.id)
        foes = facing.get(unit.id, [])
        enemy = next((f for f in foes if flanked_by(ctx.state, now, f)), foes[0])
        mods = cohesion_modifiers(ctx.state, now, enemy)
        names = ", ".join(f.name for f in foes)
        found = cohesion.test(ctx, now, taken, mods, cohesion.MELEE, f"melee with {names}")
        lost[unit.id], routed[unit.id] = found.lost, found.routed
    return lost, routed


def _retreat_many(
    ctx: Context,
    sides: tuple[list[Unit], list[Unit]],
    facing: dict[str, list[Unit]],
    depth_left: int,
) -> None:
    """Each losing unit retreats from the first winner it fought; the first winner pursues the
    first loser."""
    winners, losers = sides
    for unit in losers:
        if not cohesion.alive(ctx.state, unit.id):
            continue
        foes = [f for f in facing.get(unit.id, []) if f in winners]
        if foes:
            retreat(ctx, ctx.state.unit(unit.id), foes[0])
    winner, loser = winners[0], losers[0]
    if cohesion.alive(ctx.state, winner.id) and depth_left > 0:
        pursue(ctx, ctx.state.unit(winner.id), loser.id, depth_left)


def _row(side_a: list[Unit], lost_a: int, side_d: list[Unit], lost_d: int, result: str) -> str:
    """The result row: the VBU each side lost, and who won."""
    names_a = " and ".join(u.name for u in side_a)
    names_d = " and ".join(u.name for u in side_d)
    return (
        f"{names_a} lost {lost_a} VBU, {names_d} lost {lost_d} VBU: "
        + {
            ATTACKER: f"{names_a} win{'s' if len(side_a) == 1 else ''}",
            DEFENDER: f"{names_d} win{'s' if len(side_d) == 1 else ''}",
            DRAW: "a drawn melee",
        }[result]
    )


def _result(lost: dict[str, int], routed: dict[str, bool], a: str, d: str) -> str:
    if routed[a] != routed[d]:
        return DEFENDER if routed[a] else ATTACKER
    if lost[a] == lost[d]:
        return DRAW
    return ATTACKER if lost[a] < lost[d] else DEFENDER


def pursue(ctx: Context, winner: Unit, loser_id: str, depth_left: int) -> None:
    """The winner follows the loser by the pursuit table, checked along its path: it passes
    friends it may interpenetrate voluntarily but stops on contact with any other ("Pursuit:
    If not allowed stop on contact"), never ends on a friend, and stops at impassable ground
    and the table edge. Reaching the loser (stopped by it, or going exactly the gap and ending
    touching it), a new melee; meeting another enemy it stops on contact
    (``pursuit_fresh_enemy`` "stop") or fights it as a new melee ("fight")."""
    if profiles.troop_type(winner) in ("ART", "W"):
        return
    if not cohesion.alive(ctx.state, loser_id):
        return
    distance = pursuit_distance(ctx, winner)
    if distance <= 0:
        return
    loser = ctx.state.unit(loser_id)
    heading = displacement.heading_of(away_from(winner, loser))
    found = displacement.travel(
        ctx.state,
        winner,
        heading,
        float(distance),
        lambda f: interpenetration.pursuit_may_pass(winner, f),
    )
    end = found.end
    notes = [f"pursues {loser.name} {found.reached:.3g}H"]
    blocker = found.blocker
    met = (
        ctx.state.unit(blocker.id)
        if blocker is not None and blocker.kind in (paths.ENEMY, paths.FRIEND)
        else None
    )
    if met is None and displacement.ends_touching(found, loser):
        met = loser  # a pursuit of exactly the gap reaches the loser: a new melee
    if met is not None and met.id != loser_id:
        notes.append(f"stops on contact with {met.name}")
    elif blocker is not None and met is None:
        notes.append(f"stops at {blocker_words(ctx.state, blocker)}")
    ctx.move(
        winner.id, [(winner.x, winner.y), (round(end.x, 3), round(end.y, 3))], winner.facing, notes
    )
    moved = ctx.state.unit(winner.id)
    if met is None or met.side == winner.side or not cohesion.alive(ctx.state, met.id):
        return
    if met.id != loser_id and displacement.setting(ctx.params, "pursuit_fresh_enemy") != "fight":
        return
    resolve(
        ctx, moved, ctx.state.unit(met.id), impact=True, new_melee=True, depth_left=depth_left - 1
    )
