"""Orders "as far as possible": an order the ruleset's own judge refuses, shortened along its
own line to the farthest point the judge accepts.

Any ruleset: a move to a point is cut along the straight line from the actor to the point, a
move along a path along the path, a move by a ``distance`` by that number, and a charge on a
unit out of reach becomes the ruleset's ``move`` toward the target's nearest point, cut alike.
Each candidate is judged by the ruleset's own judge on the same state (which already checks
reach, terrain and friends along the way), so the order keeps every rule the ruleset has; a
bisection on the distance finds where the rules stop it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from shapely.geometry import Point as ShapelyPoint
from shapely.ops import nearest_points

from rules_core.codec import Json
from rules_core.events import OrderShortened
from rules_core.geometry import Footprint, distance
from rules_core.orders import AS_FAR_AS_POSSIBLE, Illegal, Order, OrderKind, Preview, Verdict
from rules_core.state import BattleState

Judge = Callable[[BattleState, Order], Verdict]
Point = tuple[float, float]
ROUNDS = 12  # bisection rounds: the stop is found within 1/4096 of the full distance
MOVE = "move"  # the order kind a charge out of reach becomes, where the ruleset has one


@dataclass(frozen=True)
class Line:
    """The order cut at a fraction of its full distance, and the words for where it stops."""

    cut: Callable[[float], Order]
    where: Callable[[Order], str]


def wanted(order: Order) -> bool:
    """Whether the order asks to go as far as the rules allow."""
    return order.params.get(AS_FAR_AS_POSSIBLE) is True


def applies(kind: OrderKind) -> bool:
    """Whether orders of this kind have a line to be cut along: a point ``to``, a ``path``, a
    ``distance``, or a charge's ``target``."""
    wanted_kinds = {"to": "point", "path": "path", "distance": "number"}
    if any(wanted_kinds.get(p.name) == p.kind for p in kind.params):
        return True
    return "charge" in kind.id and any(p.name == "target" for p in kind.params)


def plain(order: Order) -> Order:
    """The order without its "as far as possible" flag: what the ruleset judges."""
    params = {k: v for k, v in order.params.items() if k != AS_FAR_AS_POSSIBLE}
    return Order(order.actor, order.kind, params)


def farthest(state: BattleState, order: Order, judge: Judge) -> Verdict:
    """The verdict on an "as far as possible" order: the full order's preview when it is legal,
    else the preview of the order shortened to the farthest legal point, with a note saying
    where it stops and why the full order is refused; Illegal when not even a step is legal."""
    full_order = plain(order)
    full = judge(state, full_order)
    if isinstance(full, Preview):
        return full
    line = _line(state, full_order)
    if line is None:
        return Illegal(order, f"{full.reason} (it cannot be shortened: nothing to go along)")
    best = _bisect(state, line, judge)
    if best is None:
        moved = line.cut(0.5)
        if moved.kind != order.kind:  # a charge read as a move toward its target
            return Illegal(order, f"{full.reason} (and no {moved.kind} toward it is allowed now)")
        return Illegal(order, f"{full.reason} (and no shorter way toward it is allowed either)")
    how = (
        "it stops" if best.order.kind == order.kind else f"it moves toward its {order.kind} target"
    )
    note = f"As far as possible: {how} {line.where(best.order)}; the full order: {full.reason}"
    return Preview(best.order, best.summary, (note, *best.notes))


def said(order: Order, cut: Order, reason: str) -> OrderShortened:
    """The event saying where an "as far as possible" order, cut to ``cut``, stops and why."""
    where = cut.params.get("path", cut.params.get("to"))
    if isinstance(where, list) and where and isinstance(where[0], list):
        where = where[-1]  # a path ends at its last point
    at = _point(where) if isinstance(where, list) else None
    distance = cut.params.get("distance")
    length = float(distance) if isinstance(distance, int | float) else None
    return OrderShortened(order.actor, order.kind, reason, at, length)


def _bisect(state: BattleState, line: Line, judge: Judge) -> Preview | None:
    """The legal cut of the line farthest along it (its preview), or None if none is."""
    low, high, best = 0.0, 1.0, None
    for _ in range(ROUNDS):
        middle = (low + high) / 2
        verdict = judge(state, line.cut(middle))
        if isinstance(verdict, Preview):
            low, best = middle, verdict
        else:
            high = middle
    return best


def _line(state: BattleState, order: Order) -> Line | None:
    """How the order is cut along its own line, or None when it has none to cut."""
    params = order.params
    start = _position(state, order.actor)
    if isinstance(params.get("path"), list) and start is not None:
        return _along_path(order, start)
    if isinstance(params.get("to"), list) and start is not None:
        return _along_path(order, start, "to")
    number = params.get("distance")
    if isinstance(number, int | float) and not isinstance(number, bool):
        return _by_number(order, float(number))
    target = params.get("target")
    if isinstance(target, str) and start is not None and "charge" in order.kind:
        return _toward(state, order, start, target)
    return None


def _along_path(order: Order, start: Point, name: str = "path") -> Line:
    """Cuts of a move along its path (or to its point): the first part of the path's length."""
    value = order.params[name]
    assert isinstance(value, list)
    points = [start, *(_point(p) for p in value)] if name == "path" else [start, _point(value)]
    total = sum(distance(a, b) for a, b in pairwise(points))

    def cut(fraction: float) -> Order:
        kept = _prefix(points, total * fraction)
        shown: Json = [list(p) for p in kept[1:]] if name == "path" else list(kept[-1])
        return Order(order.actor, order.kind, {**order.params, name: shown})

    def where(shortened: Order) -> str:
        found = shortened.params[name]
        assert isinstance(found, list)
        end = _point(found[-1]) if name == "path" else _point(found)
        return f"at ({_g(end[0])}, {_g(end[1])})"

    return Line(cut, where)


def _by_number(order: Order, full: float) -> Line:
    """Cuts of a move by a distance: a shorter distance."""

    def cut(fraction: float) -> Order:
        return Order(order.actor, order.kind, {**order.params, "distance": _round(full * fraction)})

    def where(shortened: Order) -> str:
        return f"after {_g(shortened.number('distance'))}"

    return Line(cut, where)


def _toward(state: BattleState, order: Order, start: Point, target_id: str) -> Line | None:
    """A charge out of reach read as the ruleset's move toward the target's nearest point."""
    try:
        target = state.unit(target_id)
    except KeyError:
        return None
    near = nearest_points(Footprint.of(target).polygon, ShapelyPoint(start))[0]
    move = Order(order.actor, MOVE, {"to": [_round(near.x), _round(near.y)]})
    return _along_path(move, start, "to")


def _position(state: BattleState, actor: str) -> Point | None:
    """Where a unit or leader stands (the point its moves are measured from), or None."""
    for find in (state.unit, state.leader):
        try:
            found = find(actor)
        except KeyError:
            continue
        return (found.x, found.y)
    return None


def _prefix(points: list[Point], length: float) -> list[Point]:
    """The path's points up to ``length`` along it, the last one cut (rounded to 0.01)."""
    kept = [points[0]]
    for a, b in pairwise(points):
        leg = distance(a, b)
        if leg >= length and leg > 0:
            t = length / leg
            kept.append((_round(a[0] + (b[0] - a[0]) * t), _round(a[1] + (b[1] - a[1]) * t)))
            return kept
        length -= leg
        kept.append(b)
    return kept


def _point(value: Json) -> Point:
    assert isinstance(value, list | tuple) and len(value) == 2
    x, y = value
    assert isinstance(x, int | float) and isinstance(y, int | float)
    return (float(x), float(y))


def _round(value: float) -> float:
    return round(value, 2)


def _g(value: float) -> str:
    return f"{value:g}"
