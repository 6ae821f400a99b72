"""After a melee: the loser's retreat by the D6 table, checked along its path, and the
winner's pursuit die (``melee.pursue`` moves the pursuer and fights a new melee)."""

from __future__ import annotations

import math

from rules_core import paths
from rules_core.context import Context
from rules_core.dice import Purpose
from rules_core.events import TestResolved
from rules_core.geometry import Footprint, around, near, overlapping
from rules_core.rulesets.impetus import (
    cohesion,
    displacement,
    interpenetration,
    profiles,
    tables,
)
from rules_core.rulesets.impetus.melee_dice import engaged
from rules_core.rulesets.impetus.status import (
    DISORDERED,
)
from rules_core.state import BattleState, Unit

STEP = 0.05  # H: the step retreats and pushes are checked at
NEAR_SLACK = 1e-6  # H: a box test widened past the rounding of the poses between


MAX_SHOVE = 12.0  # H: the furthest a retreat goes on to clear friends


def troop_column(unit: Unit) -> str:
    """The retreat and pursuit table's column: CL, mounted or foot."""
    if profiles.troop_type(unit) == "CL":
        return "cl"
    return "mounted" if profiles.mounted(unit) else "foot"


def away_from(from_unit: Unit, unit: Unit) -> tuple[float, float]:
    """The unit vector from ``from_unit`` to ``unit`` ((0, 0) if they share a centre)."""
    dx, dy = unit.x - from_unit.x, unit.y - from_unit.y
    size = math.hypot(dx, dy) or 1.0
    return dx / size, dy / size


def retreat(ctx: Context, loser: Unit, winner: Unit) -> float:
    """The loser retreats by the D6 table, straight away from the winner, keeping its facing;
    the path is checked along its length.

    A friend in the way (involuntary interpenetration): T, CL, non-impetuous FL and units
    that may pass it voluntarily are placed behind it; others push it back and disorder it
    (a W is pushed back, not disordered). An enemy, impassable ground, a friend in melee, or a
    friend that cannot be passed or pushed clear (the place behind it or its push blocked)
    stops the retreat where it touches: the unit loses ``retreat_blocked_loss`` VBU, and is
    destroyed if it cannot even start (published). Reaching the table edge it is lost
    (``retreat_off_table`` "lost") or stops there as if blocked ("stop")."""
    column = troop_column(loser)
    roll = ctx.dice.d6(
        f"Retreat: {loser.name} ({column})", purpose=Purpose(loser.id, "retreat", winner.id, column)
    )
    distance = tables.distance_row(roll.total, "retreat", column) or 0
    _log(ctx, loser, roll.total, f"{roll.total}: retreat {distance}H ({column})", passed=True)
    ux, uy = away_from(winner, loser)
    heading = displacement.heading_of((ux, uy))
    state = ctx.state
    clear = displacement.without_friends(state, loser, heading, float(distance))
    length = clear.reached
    blocked: str | None = None
    if clear.blocker is not None:
        blocked = blocker_words(state, clear.blocker)
    notes = [f"retreats {distance}H from {winner.name}"]
    length, stop, pushes = _through_friends(state, loser, (ux, uy), length, notes)
    if stop is not None:
        blocked = stop
    edge = clear.blocker is not None and clear.blocker.kind == paths.EDGE and blocked is not None
    lost = displacement.setting(ctx.params, "retreat_off_table") == "lost"
    if edge and length >= clear.reached - 1e-6 and lost:
        _log(ctx, loser, roll.total, f"{loser.name} retreats off the table: lost", passed=False)
        cohesion.rout(ctx, loser.id, "retreated off the table edge")
        return round(length, 3)
    if blocked is not None and length < displacement.START:
        _log(
            ctx,
            loser,
            roll.total,
            f"{loser.name} cannot even start its retreat ({blocked} in the way): destroyed",
            passed=False,
        )
        cohesion.rout(ctx, loser.id, f"its retreat is blocked by {blocked}")
        return 0.0
    end_point = (round(loser.x + ux * length, 3), round(loser.y + uy * length, 3))
    if blocked is not None:
        notes.append(f"stopped by {blocked}")
    # The friends pushed back make room first, so the loser never stands on one of them.
    _push_back(ctx, loser, (ux, uy), length, pushes)
    ctx.move(loser.id, [(loser.x, loser.y), end_point], loser.facing, notes)
    if blocked is not None:
        _blocked_loss(ctx, loser, roll.total, length, blocked)
    return round(length, 3)


def _blocked_loss(ctx: Context, loser: Unit, score: int, length: float, blocked: str) -> None:
    """A retreat stopped short: the loser loses ``retreat_blocked_loss`` VBU (published)."""
    loss = int(displacement.number(ctx.params, "retreat_blocked_loss"))
    line = f"{loser.name}'s retreat stopped after {length:.3g}H by {blocked}: -{loss} VBU"
    _log(ctx, loser, score, line)
    if loss > 0:
        cohesion.lose(ctx, loser.id, loss, f"retreat stopped by {blocked}")


def _through_friends(
    state: BattleState, loser: Unit, way: tuple[float, float], length: float, notes: list[str]
) -> tuple[float, str | None, list[tuple[Unit, bool]]]:
    """The retreat through the friends in its way (involuntary interpenetration): how far it
    goes, what stopped it (or None), and the friends it pushes back (and whether each is
    disordered); the friends it passes are added to ``notes``.

    A friend passed places the loser behind it, past the distance rolled, where further friends
    may stand: each is met in turn by the same rule (found by the AI's games,
    tests/bot/test_ai_fuzz.py, seeds 14 and 27: a unit placed behind a friend ended on the next
    friend of its side)."""
    pushes: list[tuple[Unit, bool]] = []
    passed: list[Unit] = []
    seen: set[str] = set()
    friend = _next_in_the_way(state, loser, way, length, seen)
    while friend is not None:
        seen.add(friend.id)
        stop, behind = _meet(state, loser, friend, way, length, pushes)
        if stop is not None:
            length, stop, kept = _stop_short(state, loser, way, length, friend, stop, passed)
            notes.extend(f"passes through {f.name}" for f in passed[:kept])
            pushes = [(f, d) for f, d in pushes if _touched(loser, f, way, length)]
            return length, stop, pushes
        if behind is None:
            pushes.append((friend, interpenetration.retreat_through(loser, friend) == "push"))
        else:
            length = behind
            passed.append(friend)
        friend = _next_in_the_way(state, loser, way, length, seen)
    notes.extend(f"passes through {f.name}" for f in passed)
    return length, None, pushes


def _meet(
    state: BattleState,
    loser: Unit,
    friend: Unit,
    way: tuple[float, float],
    length: float,
    pushes: list[tuple[Unit, bool]],
) -> tuple[str | None, float | None]:
    """What the retreat does at ``friend``: what stops it there (or None), and how far it goes
    to be placed behind the friend (None when the friend is pushed back instead)."""
    heading = displacement.heading_of(way)
    if engaged(state, friend):
        return f"{friend.name}, in melee", None
    if interpenetration.retreat_through(loser, friend) != "pass":
        if _cannot_push(state, loser, friend, way, length):
            return f"{friend.name} (it cannot be pushed back)", None
        return None, None
    behind = _clear_of(loser, friend, way, length)
    beyond = displacement.without_friends(state, loser, heading, behind)
    if beyond.blocker is not None and beyond.reached < behind - 1e-6:
        return f"{friend.name} (no room behind it: {blocker_words(state, beyond.blocker)})", None
    # the friends pushed so far must be pushed clear of the place behind this one as well
    stuck = [f for f, _ in pushes if _cannot_push(state, loser, f, way, behind)]
    if stuck:
        return f"{friend.name} (no room behind it: {stuck[0].name} cannot be pushed back)", None
    return None, behind


def _cannot_push(
    state: BattleState, loser: Unit, friend: Unit, way: tuple[float, float], length: float
) -> bool:
    """Whether ``friend`` cannot be pushed clear of the loser retreated ``length`` along
    ``way``: something stops the push short, or it would end on another unit."""
    shove = _shove(loser, friend, way, length)
    pushed = displacement.without_friends(state, friend, displacement.heading_of(way), shove)
    short = pushed.blocker is not None and pushed.reached < shove - 1e-6
    return short or _pushed_onto(state, friend, loser, way, shove)


def _stop_short(
    state: BattleState,
    loser: Unit,
    way: tuple[float, float],
    length: float,
    friend: Unit,
    stop: str,
    passed: list[Unit],
) -> tuple[float, str, int]:
    """Where a retreat stopped at ``friend`` ends, what stopped it and how many of the friends
    ``passed`` it still passed: it stops touching the friend, unless that leaves it on a friend
    it was passing; then it stops before that one (a retreat never ends on a unit)."""
    heading = displacement.heading_of(way)
    length = min(length, displacement.reach_to(state, loser, heading, length, friend))
    kept = len(passed)
    for _ in passed:  # stopping before the first one passed clears them all: at most this many
        on = next((f for f in passed if _touched(loser, f, way, length)), None)
        if on is None:
            break
        kept = min(kept, passed.index(on))
        length = min(length, displacement.reach_to(state, loser, heading, length, on))
        stop = f"{on.name} (no room behind it: {stop})"
    return length, stop, kept


def _shove(loser: Unit, friend: Unit, way: tuple[float, float], length: float) -> float:
    """How far ``friend`` is pushed back to clear the loser's place ``length`` along ``way``."""
    end = Footprint.of(loser).moved_to((loser.x + way[0] * length, loser.y + way[1] * length))
    return _clear_of(friend, None, way, 0.0, end)


def _pushed_onto(
    state: BattleState, friend: Unit, loser: Unit, way: tuple[float, float], shove: float
) -> bool:
    """Whether ``friend`` pushed ``shove`` along ``way`` would end on another unit. The push's
    sweep leaves the friend's own friends out (``without_friends``), so one standing behind it
    is checked here: a push ends on nobody (found by the AI's games, tests/bot/test_ai_fuzz.py,
    seed 12, a warband pushed into the cavalry behind it)."""
    end = Footprint.of(friend).moved_to((friend.x + way[0] * shove, friend.y + way[1] * shove))
    return any(
        other.id not in (friend.id, loser.id) and overlapping(end, Footprint.of(other))
        for other in near(state.units_on_table, end.bounds)
    )


def _push_back(
    ctx: Context,
    loser: Unit,
    way: tuple[float, float],
    length: float,
    pushes: list[tuple[Unit, bool]],
) -> None:
    """Move each pushed friend clear of the retreated loser, disordering those that are."""
    for friend, disorder in pushes:
        shove = _shove(loser, friend, way, length)
        there = (friend.x + way[0] * shove, friend.y + way[1] * shove)
        ctx.move(
            friend.id,
            [(friend.x, friend.y), there],
            friend.facing,
            [f"pushed back {shove:.1f}H by {loser.name}'s retreat"],
        )
        if disorder and not DISORDERED.of(friend):
            ctx.set_status(friend.id, f"pushed back by {loser.name}'s retreat", disordered=True)


def blocker_words(state: BattleState, blocker: paths.Blocker) -> str:
    """The blocker as a retreat report names it."""
    if blocker.kind == paths.EDGE:
        return "the table edge"
    if blocker.kind == paths.TERRAIN:
        feature = next((t for t in state.terrain if t.id == blocker.id), None)
        name = (feature.name or feature.id) if feature is not None else blocker.id
        return f"impassable ground ({name})"
    return state.unit(blocker.id).name


def _touched(unit: Unit, friend: Unit, way: tuple[float, float], length: float) -> bool:
    """Whether the unit, moved ``length`` along ``way``, overlaps the friend."""
    pose = Footprint.of(unit).moved_to((unit.x + way[0] * length, unit.y + way[1] * length))
    return overlapping(pose, Footprint.of(friend))


def _next_in_the_way(
    state: BattleState, unit: Unit, way: tuple[float, float], length: float, seen: set[str]
) -> Unit | None:
    """The nearest friend along the retreat not met yet (None if there is none)."""
    return next((f for f in _in_the_way(state, unit, way, length) if f.id not in seen), None)


def _in_the_way(
    state: BattleState, unit: Unit, way: tuple[float, float], length: float
) -> list[Unit]:
    """Friends the unit's footprint would overlap somewhere along its retreat, nearest first."""
    here = Footprint.of(unit)
    found: dict[str, tuple[float, Unit]] = {}
    steps = max(1, int(length / STEP))
    last = here.moved_to((unit.x + way[0] * length, unit.y + way[1] * length))
    # every pose between lies in the box around the first and the last: only friends
    # whose boxes meet it can be overlapped (the same friends, found without testing all)
    # (asked of the table's units, whose boxes ``near`` keeps, not a new tuple of the side's)
    nearby = near(state.units_on_table, around((here, last)), gap=NEAR_SLACK)
    friends = [u for u in nearby if u.side == unit.side]
    for n in range(1, steps + 1):
        gone = length * n / steps
        pose = here.moved_to((unit.x + way[0] * gone, unit.y + way[1] * gone))
        for friend in friends:
            if friend.id == unit.id or not friend.on_table or friend.id in found:
                continue
            if overlapping(pose, Footprint.of(friend)):
                found[friend.id] = (gone, friend)
    return [friend for _, friend in sorted(found.values(), key=lambda item: item[0])]


def _clear_of(
    mover: Unit,
    other: Unit | None,
    way: tuple[float, float],
    start: float,
    fixed: Footprint | None = None,
) -> float:
    """How far along ``way`` ``mover`` must go (from ``start``) to overlap ``other`` (or the
    ``fixed`` footprint) no more."""
    block = fixed if fixed is not None else Footprint.of(other) if other is not None else None
    assert block is not None
    here = Footprint.of(mover)
    gone = start
    for _ in range(int(MAX_SHOVE / STEP)):
        pose = here.moved_to((mover.x + way[0] * gone, mover.y + way[1] * gone))
        if not overlapping(pose, block):
            return round(gone, 3)
        gone += STEP
    return round(gone, 3)


def pursuit_distance(ctx: Context, winner: Unit) -> int:
    """The pursuit die (an impetuous unit re-rolls one that gives none)."""
    column = troop_column(winner)
    why = Purpose(winner.id, "pursuit", row=column)
    roll = ctx.dice.d6(f"Pursuit: {winner.name} ({column})", purpose=why)
    distance = tables.distance_row(roll.total, "pursuit", column)
    if distance is None and profiles.impetuous(winner):
        words = f"{roll.total}: no pursuit ({tables.IMPETUOUS_REROLL})"
        ctx.emit(TestResolved(winner.id, "pursuit", roll.total, False, words, False))
        again = Purpose(winner.id, "pursuit (impetuous re-roll)", row=column)
        roll = ctx.dice.d6(f"Pursuit: {winner.name} ({column}), impetuous re-roll", purpose=again)
        distance = tables.distance_row(roll.total, "pursuit", column)
    words = f"{roll.total}: " + (f"pursue {distance}H ({column})" if distance else "no pursuit")
    ctx.emit(TestResolved(winner.id, "pursuit", roll.total, bool(distance), words, False))
    return distance or 0


def _log(ctx: Context, loser: Unit, score: int, line: str, *, passed: bool = False) -> None:
    """Log a line of the retreat as the loser's retreat result (a data-only row, no verdict)."""
    ctx.emit(TestResolved(loser.id, "retreat", score, passed, line, False))
