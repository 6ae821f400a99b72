"""What an order aimed on the map would do, read from the ruleset's own judge: the path it
takes, the distance used and left, the terrain crossed, where an "as far as possible" move
stops, and the ground a move can reach.

Any ruleset: the path is the order's own line (a point ``to`` or a ``path``, from where the
actor stands; for "as far as possible" the line the judge cut it to); the distance left is
what the judge's refusal of the same move carried far beyond says the actor has (its
``distance`` way forward); the reach is a polar grid of candidate points, each judged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from shapely.geometry import LineString

from rules_core import far
from rules_core.codec import Json
from rules_core.orders import Illegal, Order, Preview, Verdict
from rules_core.plugin import Rules
from rules_core.state import BattleState
from rules_core.terrain import feature_shape

Point = tuple[float, float]
# The reach's polar grid: 24 bearings of 6 rings, refined by 3 halvings where a bearing is
# refused; 10 halvings on 4 bearings find its radius when the rules name no distance.
SPOKES, RINGS, HALVINGS, PROBES = 24, 6, 3, 10
POINT_PARAMS = ("to", "path")


@dataclass(frozen=True)
class Aim:
    """The facts of an aimed order: its path from the actor, the distance it uses and the
    distance left after it (all the actor has when it is refused; None when the rules name
    none), the terrain it crosses and, for an "as far as possible" move cut short, where it
    stops."""

    path: tuple[Point, ...]
    used: float
    left: float | None
    terrain: tuple[str, ...]
    stops_at: Point | None = None


def facts(rules: Rules, state: BattleState, order: Order, verdict: Verdict) -> Aim | None:
    """The facts of ``order`` as ``verdict`` judged it; None when it has no line on the map."""
    taken = verdict.order if isinstance(verdict, Preview) else far.plain(order)
    path = line_of(state, taken)
    if path is None:
        return None
    used = _length(path)
    most = most_distance(rules, state, far.plain(order))
    spent = used if isinstance(verdict, Preview) else 0.0  # a refused order spends nothing
    left = None if most is None else round(max(0.0, most - spent), 2)
    stops = path[-1] if far.wanted(order) and taken.params != far.plain(order).params else None
    return Aim(path, round(used, 2), left, crossed(state, path), stops)


def line_of(state: BattleState, order: Order) -> tuple[Point, ...] | None:
    """The order's line: from where its actor stands through its point or path."""
    start = _position(state, order.actor)
    value = order.params.get("path", order.params.get("to"))
    if start is None or not isinstance(value, list) or not value:
        return None
    points: list[Json] = value if isinstance(value[0], list) else [value]
    return (start, *_points(points))


def most_distance(rules: Rules, state: BattleState, order: Order) -> float | None:
    """How far the actor may take this order: the ``distance`` the judge names when the same
    move is carried far past any reach (None when it names none)."""
    path = line_of(state, order)
    if path is None:
        return None
    a, b = path[-2], path[-1]
    step = math.dist(a, b) or 1.0
    beyond = 4 * (state.battlefield.width + state.battlefield.depth)
    end: Json = [a[0] + (b[0] - a[0]) * beyond / step, a[1] + (b[1] - a[1]) * beyond / step]
    before: list[Json] = [[p[0], p[1]] for p in path[1:-1]]
    verdict = rules.judge(state, _to(order, [*before, end]))
    if isinstance(verdict, Illegal):
        found = [way.distance for way in verdict.instead if way.kind == "distance"]
        return found[0] if found else None
    return None


def crossed(state: BattleState, path: tuple[Point, ...]) -> tuple[str, ...]:
    """The names of the terrain features the path touches, in the table's order."""
    if len(path) < 2:
        return ()
    line = LineString(path)
    return tuple(f.name or f.id for f in state.terrain if feature_shape(f).intersects(line))


def reach(rules: Rules, state: BattleState, order: Order) -> tuple[Point, ...]:
    """The outline of where the actor can get with this order (its point or path's last point
    moved): on each of ``SPOKES`` bearings the farthest of ``RINGS`` candidate distances the
    judge accepts before its first refusal, refined by a few halvings toward that refusal;
    empty when the order has no line."""
    path = line_of(state, order)
    if path is None:
        return ()
    start = path[0]
    radius = most_distance(rules, state, order) or _probed_radius(rules, state, order, start)
    outline: list[Point] = []
    for spoke in range(SPOKES):
        bearing = 2 * math.pi * spoke / SPOKES
        direction = (math.cos(bearing), math.sin(bearing))

        def legal(length: float, d: Point = direction) -> bool:
            return _legal(rules, state, order, _along(start, d, length))

        kept, refused = 0.0, None
        for ring in range(1, RINGS + 1):
            if not legal(radius * ring / RINGS):
                refused = radius * ring / RINGS
                break
            kept = radius * ring / RINGS
        kept = kept if refused is None else _farthest(legal, kept, refused, HALVINGS)
        outline.append(_along(start, direction, kept))
    return tuple(outline)


def _probed_radius(rules: Rules, state: BattleState, order: Order, start: Point) -> float:
    """How far the order goes when the rules name no distance: the farthest legal point found
    by halvings on four bearings, out to the table's diagonal."""
    whole = math.hypot(state.battlefield.width, state.battlefield.depth)
    found = 0.0
    for quarter in range(4):
        d = (math.cos(quarter * math.pi / 2), math.sin(quarter * math.pi / 2))

        def legal(length: float, d: Point = d) -> bool:
            return _legal(rules, state, order, _along(start, d, length))

        found = max(found, _farthest(legal, 0.0, whole, PROBES))
    return found or whole / RINGS


def _farthest(legal: Callable[[float], bool], low: float, high: float, rounds: int) -> float:
    """The farthest length in [low, high) found legal by ``rounds`` halvings (low is legal)."""
    for _ in range(rounds):
        middle = (low + high) / 2
        low, high = (middle, high) if legal(middle) else (low, middle)
    return low


def _legal(rules: Rules, state: BattleState, order: Order, point: Point) -> bool:
    return isinstance(rules.judge(state, _to(order, [list(point)])), Preview)


def _along(start: Point, direction: Point, length: float) -> Point:
    return (round(start[0] + direction[0] * length, 2), round(start[1] + direction[1] * length, 2))


def _points(points: list[Json]) -> tuple[Point, ...]:
    """Points given as ``[x, y]`` lists."""
    found: list[Point] = []
    for p in points:
        assert isinstance(p, list) and len(p) == 2  # the order's params were read as points
        x, y = p
        assert isinstance(x, int | float) and isinstance(y, int | float)
        found.append((float(x), float(y)))
    return tuple(found)


def _to(order: Order, points: list[Json]) -> Order:
    """The order moved to end at these points (its ``path``, or its point ``to``)."""
    if isinstance(order.params.get("path"), list):
        return Order(order.actor, order.kind, {**order.params, "path": points})
    return Order(order.actor, order.kind, {**order.params, "to": points[-1]})


def _position(state: BattleState, actor: str) -> Point | None:
    """Where the unit or leader giving the order stands."""
    units = [(u.x, u.y) for u in state.units if u.id == actor]
    leaders = [(ld.x, ld.y) for ld in state.leaders if ld.id == actor]
    return (units + leaders)[0] if units + leaders else None


def _length(path: tuple[Point, ...]) -> float:
    return sum(math.dist(a, b) for a, b in pairwise(path))
