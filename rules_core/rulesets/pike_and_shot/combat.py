"""The Combat step: "any eligible units, of both sides, may conduct shooting then resolve any
melee combat".

Shooting: every unit not in melee with a shooting column, at its ordered target (``shoot``) or
else the nearest enemy in range with a Firing Lane; all dice (hits and saves) are rolled on the
state before any shot lands ("All firing is considered to be simultaneous"), then each shot's
unsaved hits are looked up in the Shooting Results against the target's state as it then is.

Melee: every group of units in contact fights; each unit rolls at the enemy it touches (front
contact first), the enemy saves; a side's score is the unsaved hits it inflicts. The difference
is the Melee Results row; the loser's units take the row's effect by their state, the winner
may advance one unit into the vacated ground (``moves.advance_into``) and, after a rout or
destruction, tests for Impetuous Pursuit. A stand-off leaves both engaged; cavalry against
infantry may break off (not on the sheet: ``break_off`` parameters).

Every roll shows its dice, each modifier to the number of dice and to the score with the
sheet's words, and each result names its table row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_core.context import Context
from rules_core.events import MeleeFought, MeleeResolved, ShotFired, ShotResolved, TestResolved
from rules_core.geometry import Footprint, near, quarter, range_from_front, within
from rules_core.plugin import Parameter
from rules_core.rulesets.pike_and_shot import cohesion as co
from rules_core.rulesets.pike_and_shot import kept, moves
from rules_core.rulesets.pike_and_shot import tables as t

# The rolls and the pursuit live apart (``combat_rolls``, ``pursuit``); the odds (chances.py)
# read the rolls they price here, as the Combat step's own.
from rules_core.rulesets.pike_and_shot.combat_rolls import attack_roll as attack_roll
from rules_core.rulesets.pike_and_shot.combat_rolls import (
    company,
    hits_and_saves,
    infantry,
    mounted,
    shooting_range,
)
from rules_core.rulesets.pike_and_shot.combat_rolls import save_roll as save_roll
from rules_core.rulesets.pike_and_shot.kept import enemies_in_contact
from rules_core.rulesets.pike_and_shot.pursuit import must_test as must_test
from rules_core.rulesets.pike_and_shot.pursuit import pursuit
from rules_core.rulesets.pike_and_shot.pursuit import pursuit_roll as pursuit_roll
from rules_core.rulesets.pike_and_shot.status import (
    ARTILLERY_FIRE,
    ENGAGED,
    ENGAGED_WITH,
    HITS,
    cohesion,
)
from rules_core.standing import Topic
from rules_core.state import BattleState, Unit
from rules_core.terrain import SIGHT_BLOCKING
from rules_core.toolkit import Shot, checked_orders, gap, sight
from rules_core.unit_questions import gm_question, options_of, unit_question

SILENT = "not on the sheet (see README_combat.md)"
BREAK_OFF = "break_off"
BREAK_OFF_WORDS = {"remain": "remain engaged", "break_off": "attempt to break off"}
BREAK_OFF_RULING = "break_off_ruling"
RULING_WORDS = {"yes": "it breaks off", "no": "it remains engaged"}
PARAMETERS = (
    Parameter(
        "close_range_share",
        0.5,
        "a shot is at close range within this share of the shooter's range",
        SILENT,
    ),
    Parameter(
        "uphill_terrain",
        ["hill"],
        "terrain kinds a unit stands uphill on (saves, disorder test)",
        SILENT,
    ),
    Parameter(
        "break_off",
        "disorder_test",
        "cavalry breaking off a stand-off with infantry: disorder_test (it must pass one), "
        "automatic, or gm (the GM rules, the disorder test's result by default)",
        SILENT,
    ),
    Parameter(
        "break_off_distance",
        4.0,
        "inches a cavalry unit that breaks off moves back, facing the enemy",
        SILENT,
    ),
)
TOPICS = (
    Topic.of(
        BREAK_OFF,
        "cavalry in a stand-off with infantry: remain engaged or break off",
        BREAK_OFF_WORDS,
    ),
    # The GM's ruling (standing instructions are for sides: never answered ahead).
    Topic.of(
        BREAK_OFF_RULING,
        "GM: does a cavalry unit attempting to break off succeed",
        RULING_WORDS,
        gm=True,
    ),
)
BEHIND = ("left", "right", "rear")


# -- shooting --------------------------------------------------------------------------------


def firing_problem(state: BattleState, shooter: Unit, target: Unit) -> str | None:
    """Why ``shooter`` may not fire at ``target``, or None: "any unit within its range and to
    which it has a Firing Lane" (README_combat.md: the lane is the quarter before the
    shooter's front with a clear sight line)."""
    reach = shooting_range(shooter)
    if not shooter.on_table or not target.on_table:
        return "not on the table"
    if reach <= 0:
        return f"{shooter.name} does not shoot"
    if target.side == shooter.side:
        return f"{target.name} is a friend"
    if enemies_in_contact(state, shooter):
        return f"{shooter.name} is in melee"
    if enemies_in_contact(state, target):
        return f"{target.name} is in melee"
    apart = range_from_front(Footprint.of(shooter), Footprint.of(target))
    if not within(apart, reach):
        return f'{target.name} is {apart:.1f}" away; range is {reach:g}"'
    if quarter(Footprint.of(shooter), (target.x, target.y)) != "front":
        return f"{target.name} is not before {shooter.name}'s front (no Firing Lane)"
    if not sight(state, shooter, target, SIGHT_BLOCKING).clear:
        return f"no Firing Lane from {shooter.name} to {target.name}"
    return None


def targets(state: BattleState, shooter: Unit) -> list[Unit]:
    """The enemies it may fire at, nearest first (the computed default is the first)."""
    return list(kept.per_unit(state, "targets", shooter, lambda: _targets(state, shooter)))


def _targets(state: BattleState, shooter: Unit) -> tuple[Unit, ...]:
    """``targets`` worked out (kept per state: the side's business and the shooting ask it)."""
    reach = shooting_range(shooter)
    if reach <= 0 or not shooter.on_table:
        return ()
    # only enemies whose boxes come within range of the shooter's box can be in range (the
    # range is measured from its front edge, never shorter than box to box)
    nearby = {id(u) for u in near(state.units, Footprint.of(shooter).bounds, reach)}
    found = [e for e in state.enemies_of(shooter.side, on_table=True) if id(e) in nearby]
    ok = [e for e in found if firing_problem(state, shooter, e) is None]
    return tuple(sorted(ok, key=lambda e: gap(shooter, e)))


def shoot(ctx: Context) -> None:
    """Both sides fire at once: all dice first, then each shot's result."""
    ordered = {o.actor: str(o.params.get("target", "")) for o in checked_orders(ctx, ("shoot",))}
    held = {o.actor for o in checked_orders(ctx, ("hold",))}
    shots: list[Shot] = []
    for side in ctx.state.cursor.side_order:
        for shooter in ctx.state.units_of(side, on_table=True):
            if shooter.id in held or shooting_range(shooter) <= 0:
                continue
            target = _target(ctx.state, shooter, ordered.get(shooter.id, ""))
            if target is None:
                continue
            apart = range_from_front(Footprint.of(shooter), Footprint.of(target))
            ctx.emit(ShotFired(shooter.id, target.id, round(apart, 2)))
            _, _, unsaved = hits_and_saves(ctx, shooter, target, "shooting")
            shots.append(Shot(shooter.id, target.id, unsaved))
    for shot in shots:
        apply_shot(ctx, shot)


def _target(state: BattleState, shooter: Unit, wanted: str) -> Unit | None:
    if wanted:
        found = next((u for u in state.units_on_table if u.id == wanted), None)
        if found is not None and firing_problem(state, shooter, found) is None:
            return found
    listed = targets(state, shooter)
    return listed[0] if listed else None


def apply_shot(ctx: Context, shot: Shot) -> None:
    """The Shooting Results row for the shot's unsaved hits and the target's state now."""
    target = ctx.state.unit(shot.target)
    if not target.on_table or cohesion(target) == "destroyed":
        _shot_result(ctx, shot, "", "", "")
        return
    shooter = ctx.state.unit(shot.shooter)
    if shooter.type in t.ARTILLERY and not ARTILLERY_FIRE.of(target):
        why = f"under artillery fire ({shooter.name})"
        ctx.set_status(target.id, why, under_artillery_fire=True)
    took(ctx, target.id, shot.hits)
    if not shot.hits:
        _shot_result(
            ctx, shot, f"Shooting result ({shooter.name})", "0 unsaved hits: no effect", ""
        )
        return
    row = t.SHOOTING_ROWS.lookup(shot.hits)
    column = cohesion(target)
    outcome = str(t.SHOOTING_RESULTS.lookup(row.result, column))
    words = f"{row.text} against a {column} unit"
    test, row_words = (
        f"Shooting result ({shooter.name})",
        f"{words}: {t.sheet(t.OUTCOMES, outcome)}",
    )
    _shot_result(ctx, shot, test, row_words, outcome)
    artillery = shooter.type in t.ARTILLERY
    apply_outcome(ctx, target, shooter, outcome, f"shot by {shooter.name}", artillery=artillery)


# -- outcomes (shooting and melee) -----------------------------------------------------------


def apply_outcome(
    ctx: Context, unit: Unit, source: Unit, outcome: str, why: str, *, artillery: bool = False
) -> str:
    """Apply an outcome of ``tables.OUTCOMES`` to ``unit``: its new state, its recoil or rout
    move away from ``source``, the disorder test after it, removal. Returns what became of it:
    "stays", "recoiled", "routed", "removed" (destroyed or off the table)."""
    table = t.OUTCOMES
    level = str(table.lookup(outcome, "cohesion"))
    move = str(table.lookup(outcome, "move"))
    test = str(table.lookup(outcome, "test"))
    words = f"{why}: {t.sheet(table, outcome)}"
    if level != cohesion(unit):
        ctx.set_status(unit.id, words, cohesion="routed" if level == "destroyed" else level)
    if test == "rout_or_recoil":
        passed = co.disorder_test(ctx, ctx.state.unit(unit.id), why, artillery_fire=artillery)
        if not passed:
            ctx.set_status(unit.id, f"{why}: failed its Disorder Test: routed", cohesion="routed")
            return _rout(ctx, unit.id, source, why)
        return _recoil(ctx, unit.id, source)
    if move == "recoil":
        return _recoil(ctx, unit.id, source)
    if move == "rout":
        result = _rout(ctx, unit.id, source, why)
        if table.lookup(outcome, "removed") is True:
            if cohesion(ctx.state.unit(unit.id)) != "destroyed":
                moves.remove_from_battle(ctx, unit.id, f"{why}: destroyed after its rout move")
            return "removed"
        if result == "removed":
            return result
        if test == "remove":
            passed = co.disorder_test(ctx, ctx.state.unit(unit.id), why, artillery_fire=artillery)
            if not passed:
                moves.remove_from_battle(
                    ctx, unit.id, f"{why}: failed its Disorder Test after the rout: removed"
                )
                return "removed"
        return result
    return "stays"


def _recoil(ctx: Context, unit_id: str, source: Unit) -> str:
    result = moves.recoil(ctx, ctx.state.unit(unit_id), source, t.RECOIL_DISTANCE)
    return "removed" if result == "eliminated" else "recoiled"


def _rout(ctx: Context, unit_id: str, source: Unit, why: str) -> str:
    """A rout move; "A routed company is removed from the battle after making its rout move."""
    ctx.set_status(unit_id, None, engaged=False, engaged_with="")
    result = moves.rout_move(ctx, ctx.state.unit(unit_id), source)
    if result == "eliminated":
        return "removed"
    unit = ctx.state.unit(unit_id)
    if t.COMPANY_ROUTED_REMOVED and company(unit) and cohesion(unit) == "routed":
        moves.remove_from_battle(
            ctx, unit_id, f"{why}: a routed company is removed after its rout move"
        )
        return "removed"
    return "removed" if result == "off_table" else "routed"


# -- melee -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Melee:
    """One fight: the units of each side in contact, in side order."""

    first: tuple[str, ...]
    second: tuple[str, ...]


def melees(state: BattleState) -> list[Melee]:
    """Every group of units joined by contact with enemies, as two sides."""
    seen: set[str] = set()
    found: list[Melee] = []
    order = state.cursor.side_order or tuple(s.id for s in state.sides)
    for unit in state.units_on_table:
        if unit.id in seen or not enemies_in_contact(state, unit):
            continue
        group, todo = {unit.id}, [unit]
        while todo:
            here = todo.pop()
            for enemy in enemies_in_contact(state, here):
                if enemy.id not in group:
                    group.add(enemy.id)
                    todo.append(enemy)
        seen |= group
        sides = [
            tuple(u.id for u in state.units_on_table if u.id in group and u.side == s)
            for s in order
        ]
        sides = [s for s in sides if s]
        if len(sides) == 2:
            found.append(Melee(sides[0], sides[1]))
    return found


def opponent(state: BattleState, unit: Unit) -> Unit | None:
    """The enemy a unit fights: the one touching its front, else the first in contact."""
    return kept.per_layout(state, "opponent", unit, lambda: _opponent(state, unit))


def _opponent(state: BattleState, unit: Unit) -> Unit | None:
    """``opponent`` worked out (kept per layout: each melee asks it of a unit several times,
    its statuses changing between)."""
    touching = enemies_in_contact(state, unit)
    here = Footprint.of(unit)
    front = [e for e in touching if kept.touching_edge(here, Footprint.of(e)) == "front"]
    chosen = front or touching
    return chosen[0] if chosen else None


def side_score(ctx: Context, units: Sequence[str]) -> int:
    """The unsaved hits a side's units inflict, each at the enemy it fights (each enemy's
    ``hits`` this turn noted)."""
    total = 0
    for unit_id in units:
        unit = ctx.state.unit(unit_id)
        enemy = opponent(ctx.state, unit)
        if enemy is not None:
            lost = hits_and_saves(ctx, unit, enemy, "melee")[2]
            took(ctx, enemy.id, lost)
            total += lost
    return total


def took(ctx: Context, unit_id: str, unsaved: int) -> None:
    """Note a unit's unsaved hits this turn (``hits``: risk to commanders reads it)."""
    if unsaved > 0:
        before = HITS.of(ctx.state.unit(unit_id))
        ctx.set_status(unit_id, None, hits=before + unsaved)


def fight(ctx: Context) -> None:
    """Every melee in contact after shooting."""
    for melee in melees(ctx.state):
        fight_one(ctx, melee)
    for unit in ctx.state.units_on_table:
        if ENGAGED.of(unit) and not enemies_in_contact(ctx.state, unit):
            ctx.set_status(unit.id, "no longer in contact", engaged=False, engaged_with="")


def _shot_result(ctx: Context, shot: Shot, test: str, row: str, outcome: str) -> None:
    """Log a shot's result: read as ``test`` (no line when ""), with its unsaved hits."""
    ctx.emit(
        ShotResolved(
            shot.target,
            test,
            shot.hits,
            False,
            row,
            False,
            shot.shooter,
            shot.target,
            shot.hits,
            outcome,
        )
    )


def fight_one(ctx: Context, melee: Melee) -> None:
    """Both sides roll at once; the difference in unsaved hits is the result for the loser."""
    first = [u for u in melee.first if ctx.state.unit(u).on_table]
    second = [u for u in melee.second if ctx.state.unit(u).on_table]
    if not first or not second:
        return
    ctx.emit(MeleeFought(first[0], second[0]))
    a_score, b_score = side_score(ctx, first), side_score(ctx, second)
    difference = abs(a_score - b_score)
    band = t.MELEE_RESULTS.lookup(difference)
    names = ", ".join(ctx.state.unit(u).name for u in first)
    others = ", ".join(ctx.state.unit(u).name for u in second)
    words = f"Melee result ({names} {a_score} unsaved hits, {others} {b_score})"
    winners, losers = (first, second) if a_score > b_score else (second, first)
    won = band.result != "stand_off"
    ctx.emit(
        MeleeResolved(
            first[0],
            words,
            difference,
            False,
            band.row,
            False,
            winners[0] if won else None,
            losers[0] if won else None,
            ((first[0], a_score), (second[0], b_score)),
            band.result,
        )
    )
    if not won:
        stand_off(ctx, first, second)
        return
    melee_result(ctx, band.result, winners, losers, difference)


def stand_off(ctx: Context, first: Sequence[str], second: Sequence[str]) -> None:
    """The stand-off: "Both units remain engaged into the next turn"; cavalry against infantry
    may try to break off."""
    for unit_id in (*first, *second):
        enemy = opponent(ctx.state, ctx.state.unit(unit_id))
        ctx.set_status(
            unit_id,
            "stand-off: remains engaged",
            engaged=True,
            engaged_with=enemy.id if enemy else "",
        )
    for unit_id in (*first, *second):
        unit = ctx.state.unit(unit_id)
        enemy = opponent(ctx.state, unit)
        if enemy is None or not mounted(unit) or not infantry(enemy):
            continue
        break_off(ctx, unit, enemy)


def break_off(ctx: Context, unit: Unit, enemy: Unit) -> bool:
    """The cavalry's side chooses; by the ``break_off`` parameter the attempt then needs a
    Disorder Test, succeeds, or is the GM's ruling (the test's result by default). A unit that
    breaks off moves back ``break_off_distance`` facing the enemy, with no loss of order."""
    choice = ctx.ask(
        unit_question(
            f"break_off:{unit.id}",
            f"{unit.name} (cavalry) is in a stand-off with {enemy.name}: "
            "remain engaged or attempt to break off?",
            options_of(BREAK_OFF_WORDS),
            "remain",
            (unit, enemy),
            BREAK_OFF,
        )
    )
    if choice != "break_off":
        return False
    how = str(ctx.params.get("break_off", "disorder_test"))
    ok = True
    if how in ("disorder_test", "gm"):
        ok = co.disorder_test(ctx, unit, f"{unit.name} attempts to break off")
    if how == "gm":
        ruling = ctx.ask(
            gm_question(
                f"break_off_ruling:{unit.id}",
                f"GM: does {unit.name} break off from {enemy.name}?",
                RULING_WORDS,
                "yes" if ok else "no",
                BREAK_OFF_RULING,
                (unit, enemy),
            )
        )
        ok = ruling == "yes"
    if not ok:
        ctx.set_status(unit.id, "fails to break off: remains engaged", engaged=True)
        return False
    distance = float(co.num(ctx.params, "break_off_distance", 4.0))
    ctx.set_status(unit.id, "breaks off", engaged=False, engaged_with="")
    moves.recoil(ctx, unit, enemy, distance)
    return True


def melee_result(
    ctx: Context, result: str, winners: Sequence[str], losers: Sequence[str], difference: int = 0
) -> None:
    """The loser's units take the row's effect; the winner pursues and advances as it says."""
    before = {u: ctx.state.unit(u) for u in losers}
    enemy_of = {u: opponent(ctx.state, ctx.state.unit(u)) for u in losers}
    for unit_id in (*winners, *losers):
        ctx.set_status(unit_id, None, engaged=False, engaged_with="")
    for unit_id in losers:
        unit = ctx.state.unit(unit_id)
        source = enemy_of[unit_id] or ctx.state.unit(winners[0])
        outcome = str(t.MELEE_LOSER.lookup(result, _column(unit)))
        ctx.emit(
            TestResolved(
                unit_id,
                "Melee: effect on the loser",
                difference,
                False,
                f"{result.replace('_', ' ')} ({cohesion(unit)}): {t.sheet(t.OUTCOMES, outcome)}",
                False,
            )
        )
        apply_outcome(ctx, unit, source, outcome, f"lost the melee to {source.name}")
    pursuers: set[str] = set()
    if t.MELEE_WINNER.lookup(result, "pursuit_test") is True:
        for loser_id in losers:
            pursuers |= pursuit(ctx, winners, ctx.state.unit(loser_id), pursuers)
    if t.MELEE_WINNER.lookup(result, "advance") is True:
        advance(ctx, winners, pursuers, list(before.values()))


def _column(unit: Unit) -> str:
    level = cohesion(unit)
    return level if level in t.MELEE_LOSER.columns else "routed"


def advance(
    ctx: Context, winners: Sequence[str], pursuers: set[str], vacated: Sequence[Unit]
) -> None:
    """One of the winner's units that did not pursue may advance into the vacated ground and
    change facing (``moves.advance_into`` asks)."""
    gone = [v for v in vacated if _vacated(ctx.state, v)]
    if not gone:
        return
    for unit_id in winners:
        unit = ctx.state.unit(unit_id)
        if unit_id in pursuers or not unit.on_table or enemies_in_contact(ctx.state, unit):
            continue
        moves.advance_into(ctx, unit, gone[0])
        return


def _vacated(state: BattleState, before: Unit) -> bool:
    now = state.unit(before.id)
    return not now.on_table or (now.x, now.y) != (before.x, before.y)


# -- the step --------------------------------------------------------------------------------


def resolve(ctx: Context) -> None:
    """Shooting by both sides at once, then every melee."""
    shoot(ctx)
    fight(ctx)


def engaged_with(unit: Unit) -> str:
    """The enemy it stood off against (``engaged_with``)."""
    return ENGAGED_WITH.of(unit)
