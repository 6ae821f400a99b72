"""The pre-battle procedure of the DEPLOYMENT box, steps 1-10, as the set-up steps of
``rules.SEQUENCE`` (``rules.SETUP_IDS``). Every open point is listed, with its parameter, in
``README_prebattle.md``.

1. ``attacker``: each side rolls 2D6 + 1 per two mounted units (not EL, W), rounded up; the
   higher is the attacker (ties: ``attacker_ties``). Each side gets its exploration points.
2. ``terrain_defender``, 3. ``terrain_attacker``, 4. ``terrain_defender_again``: the side rolls
   2D6 on the terrain table of its army (``terrain_tables``: Mtd when more than
   ``mounted_table_share`` of its units are mounted, not EL or W), chooses a feature of the row
   and places it. The ``place_terrain`` order says it all ahead of the roll: the feature
   wanted, where, its facing, and up to how many exploration points to spend to reach a row
   offering it (each moves the score one up or down). When the row lacks the feature, the side
   is asked which of the row's features (topic ``terrain_feature``, a computed default); a
   spot that does not suit the feature is asked for (a point, a free spot by default). The
   attacker's piece stands at least ``attacker_gap`` H from other terrain.
5. ``baggage``: defender first, each side places its baggage camp in its deployment zone and
   its fortifications (``fortify`` orders, at most ``fortification_pieces``).
6. ``battle_plan``: each side writes its plan (only with ``battle_plans``), sealed like every
   order and kept afterwards in its hidden state, seen by its side and the GM alone.
7. ``deploy_roll``: each side rolls 2D6 + its unused exploration points; an army of Good CS
   may re-roll one or both dice, of Average CS both (a question, topic ``deploy_reroll``);
   the winner chooses who deploys first (topic ``deploy_order``, default: second).
8. ``deploy_first``, 9. ``deploy_second``: the first player's biggest command, then the
   second's (``place`` orders, checked in the deployment zone; a unit left without an order
   is placed at a free spot). 10. ``deploy_rest``: the other commands alternately.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace

from shapely import Polygon
from shapely.geometry.base import BaseGeometry

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import Modifier, Purpose, Roll
from rules_core.events import TestResolved
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict, point_param
from rules_core.plugin import Parameter, Rules
from rules_core.rulesets.impetus.terrain_tables import (
    FEATURES,
    FOOT,
    MOUNTED,
    MOVE_ENEMY,
    NONE,
    REMOVE_ENEMY,
    TERRAIN_TABLES,
    Feature,
    choices,
)
from rules_core.standing import Topic
from rules_core.state import ON_TABLE, RESERVE, BattleState, Point, TerrainFeature, Unit
from rules_core.steps import SequenceOfPlay, Subject
from rules_core.tables import Band
from rules_core.terrain import feature_shape

SHEET = "the sheet's DEPLOYMENT box"
SILENT = "not on the sheet (see README_prebattle.md)"
NOT_MOUNTED = frozenset({"EL", "W"})  # "mounted (except EL, W)"
MOUNTED_TYPES = frozenset({"CP1", "CP2", "CM", "CL", "CGP", "CGL", "CF"})
FEATURE_ORDER_CHOICES = tuple(FEATURES)
CS_REROLLS = {"good": ("keep", "first", "second", "both"), "average": ("keep", "both")}
TIES = ("reroll", "defender")
EP_CHOICES = tuple(str(n) for n in range(13))  # exploration points to spend at most (option2)

PARAMETERS = (
    Parameter("attacker_ties", "reroll",
              "a tie on the attacker roll: both roll again (reroll), or the first side listed "
              "defends (defender)", SILENT),
    Parameter("mounted_table_share", 0.5,
              "an army rolls on the Mtd terrain table when more than this share of its units "
              "are mounted (not EL, W); otherwise on the FOOT table", SILENT),
    Parameter("exploration_points", 2,
              "exploration points of each army: each moves a terrain score one up or down; "
              "unused ones add to the deployment roll", SILENT),
    Parameter("attacker_gap", 8.0, "H the attacker's terrain stands from other terrain", SHEET),
    Parameter("small_length", 4.0, "H: the length of a small feature (an oval)", SILENT),
    Parameter("small_width", 3.0, "H: the width of a small feature", SILENT),
    Parameter("large_length", 8.0, "H: the length of a large feature (an oval)", SILENT),
    Parameter("large_width", 6.0, "H: the width of a large feature", SILENT),
    Parameter("road_width", 1.0, "H: the width of a road", SILENT),
    Parameter("river_width", 2.0, "H: the width of a river", SILENT),
    Parameter("crossing_width", 2.0, "H: the width of a bridge or ford along its river", SILENT),
    Parameter("enemy_terrain_move", 0.0,
              "H the Mtd table's 10-11 may move an enemy feature (0: anywhere it could be "
              "placed)", SILENT),
    Parameter("baggage_length", 3.0, "H: the frontage of a baggage camp", SILENT),
    Parameter("baggage_width", 2.0, "H: the depth of a baggage camp", SILENT),
    Parameter("fortification_pieces", 2,
              "fortification pieces an army may place at step 5 (0: none)", SILENT),
    Parameter("fortification_length", 4.0, "H: the length of a fortification piece", SILENT),
    Parameter("behind_reach", 1.0,
              "H: a unit this close to a fortification piece or linear obstacle lying between "
              "it and the enemy is behind it (shooting and melee)", SILENT),
    Parameter("battle_plans", True,
              "the advanced rules' battle plans (step 6): written in secret, or skipped", SHEET),
    Parameter("deploy_ties", "reroll",
              "a tie on the deployment roll: both roll again (reroll), or the defender wins "
              "(defender)", SILENT),
)  # fmt: skip

TERRAIN_FEATURE = "terrain_feature"
TERRAIN_SPOT = "terrain_spot"
ENEMY_TERRAIN = "enemy_terrain"
NO_PLAN = "(none written)"
AUTO = "auto"  # the rules' own choice, offered beside pieces of terrain and spots
DEPLOY_REROLL = "deploy_reroll"
DEPLOY_ORDER = "deploy_order"
REROLL_WORDS = {"keep": "keep both dice", "first": "re-roll the first die",
                "second": "re-roll the second die", "both": "re-roll both dice"}  # fmt: skip
ORDER_WORDS = {"first": "deploy first", "second": "deploy second"}
TOPICS = (
    Topic(TERRAIN_FEATURE, "the terrain feature chosen from a terrain table's row",
          tuple(Option(f.key, f.label) for f in FEATURES.values())),
    Topic(TERRAIN_SPOT, "where a terrain feature goes when the spot ordered does not suit it "
          "(typed as x,y, or auto: the rules' spot)",
          (Option(AUTO, "the rules' spot: the free spot nearest the one ordered (an enemy "
                        "piece to move: where it stands)"),)),
    Topic(ENEMY_TERRAIN, "which enemy terrain to move or remove",
          (Option(AUTO, "the biggest enemy piece"),)),
    Topic(DEPLOY_REROLL, "re-rolling the deployment roll (command structure)",
          tuple(Option(k, v) for k, v in REROLL_WORDS.items())),
    Topic(DEPLOY_ORDER, "deploy first or second after winning the deployment roll",
          tuple(Option(k, v) for k, v in ORDER_WORDS.items())),
)  # fmt: skip
TABLES = tuple(TERRAIN_TABLES.values())

# The order kinds each set-up step takes (read by ``rules.SEQUENCE``).
STEP_KINDS: dict[str, tuple[str, ...]] = {
    "terrain_defender": ("place_terrain",),
    "terrain_attacker": ("place_terrain",),
    "terrain_defender_again": ("place_terrain",),
    "baggage": ("place_baggage", "fortify"),
    "battle_plan": ("battle_plan",),
    "deploy_first": ("place",),
    "deploy_second": ("place",),
    "deploy_rest": ("place",),
}
ORDER_KINDS = (
    OrderKind("place_terrain", "Place terrain", "side", (
        Param("feature", "choice", choices=FEATURE_ORDER_CHOICES),
        Param("at", "point", required=False),
        Param("facing", "number", required=False),
        Param("ep", "choice", choices=EP_CHOICES, required=False),
        Param("terrain", "text", required=False),
    )),
    # Both combine, so a camp and fortifications are given side by side in one step.
    OrderKind("place_baggage", "Place baggage", "side", (
        Param("at", "point"), Param("facing", "number", required=False)),
        combines=True, limit=1),
    OrderKind("fortify", "Fortify", "side", (
        Param("at", "point"), Param("facing", "number", required=False)),
        combines=True, limit=10),
    OrderKind("battle_plan", "Battle plan", "side", (Param("plan", "text", sealed=True),)),
    OrderKind("place", "Place", "side", (
        Param("unit", "unit"), Param("at", "point"), Param("facing", "number", required=False)),
        combines=True, limit=50),
    # During the battle: the side shows its battle plan to all (``TURN_STEP_KINDS``).
    OrderKind("reveal_plan", "Reveal battle plan", "side",
              (Param("reason", "text", required=False),)),
)  # fmt: skip
# The turn steps that also take a pre-battle order kind: a side reveals its battle plan in
# the movement step of one of its commands' activations (where it gives orders anyway, so
# revealing costs no stop), planned ahead like any order of that step.
TURN_STEP_KINDS: dict[str, tuple[str, ...]] = {"move": ("reveal_plan",)}


def with_turn_kinds(sequence: SequenceOfPlay) -> SequenceOfPlay:
    """The sequence of play with ``TURN_STEP_KINDS`` added to its turn steps' order kinds."""
    steps = tuple(
        replace(step, order_kinds=(*step.order_kinds, *TURN_STEP_KINDS.get(step.id, ())))
        for step in sequence.steps
    )
    return replace(sequence, steps=steps)


# -- reading the state -----------------------------------------------------------------------


def params_of(state: BattleState) -> dict[str, Json]:
    """The pre-battle parameters: the defaults with the battle's values over them."""
    values: dict[str, Json] = {p.name: p.default for p in PARAMETERS}
    values.update({k: v for k, v in state.parameters.items() if k in values})
    return values


def _num(params: Mapping[str, Json], name: str) -> float:
    value = params[name]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"parameter {name!r} is not a number")
    return float(value)


def _rules() -> Rules:
    from rules_core.registry import get  # the registry imports this package: late

    rules = get("impetus").rules
    assert rules is not None
    return rules


def role_side(state: BattleState, role: str) -> str | None:
    """The side whose ``role`` (attacker or defender) step 1 set, or None before it."""
    return next((s.id for s in state.sides if s.status.get("role") == role), None)


def other_side(state: BattleState, side: str) -> str:
    return next(s.id for s in state.sides if s.id != side)


def troop_type(unit: Unit) -> str:
    return str(unit.profile.get("type") or unit.type)


def mounted_count(state: BattleState, side: str) -> int:
    """The side's mounted units, not counting EL and W."""
    return sum(1 for u in state.units if u.side == side and troop_type(u) in MOUNTED_TYPES)


def attacker_bonus(state: BattleState, side: str) -> int:
    """+1 for every 2 mounted units (not EL, W), rounding up."""
    return math.ceil(mounted_count(state, side) / 2)


def table_of(state: BattleState, side: str, params: Mapping[str, Json] | None = None) -> str:
    """The terrain table an army rolls on: Mtd when more than ``mounted_table_share`` of its
    units are mounted (not EL, W), else FOOT."""
    params = params_of(state) if params is None else params
    units = [u for u in state.units if u.side == side]
    share = mounted_count(state, side) / len(units) if units else 0.0
    return MOUNTED if share > _num(params, "mounted_table_share") else FOOT


def exploration_points(state: BattleState, side: str) -> int:
    value = state.side(side).status.get("exploration_points", 0)
    return int(value) if isinstance(value, int | float) else 0


def command_structure(state: BattleState, side: str) -> str:
    """The army's command structure (good, average, poor): its side status, else a group of
    the side that carries it (the army list's field), else poor."""
    found = state.side(side).status.get("command_structure")
    for group in state.groups:
        if not found and group.side == side:
            found = group.status.get("command_structure")
    return str(found or "poor").lower()


def fortification_limit(state: BattleState, side: str, params: Mapping[str, Json]) -> int:
    """The fortification pieces a side may place at step 5: its army list's
    ``fortifications`` (carried by its commands), else the ``fortification_pieces``
    parameter."""
    for group in state.groups:
        pieces = group.status.get("fortifications")
        if group.side == side and isinstance(pieces, int) and not isinstance(pieces, bool):
            return pieces
    return int(_num(params, "fortification_pieces"))


# -- subjects of the set-up loops --------------------------------------------------------------


def subjects(name: str, state: BattleState) -> tuple[Subject, ...]:
    """The subjects of the set-up loops (see ``rules.SETUP_SUBJECTS``)."""
    defender = role_side(state, "defender")
    attacker = role_side(state, "attacker")
    if name in ("defender", "attacker"):
        side = defender if name == "defender" else attacker
        return () if side is None else (Subject(side, side),)
    if name == "defender_first":
        return tuple(Subject(s, s) for s in (defender, attacker) if s is not None)
    if name == "plans":
        if not bool(params_of(state).get("battle_plans")):
            return ()
        return (Subject("plans", state.cursor.side_order[0]),)
    first = deploys_first(state)
    if first is None:
        return ()
    second = other_side(state, first)
    if name in ("first_deployer", "second_deployer"):
        side = first if name == "first_deployer" else second
        command = biggest_command(state, side)
        if command is None or command not in commands_by_size(state, side, reserve_only=True):
            return ()
        return (Subject(command, side),)
    if name == "deploy_alternate":
        return alternate_commands(state, first)
    raise KeyError(f"no set-up subjects named {name!r}")


def deploys_first(state: BattleState) -> str | None:
    value = state.status.get("deploy_first")
    return str(value) if isinstance(value, str) and value else None


def commands_by_size(state: BattleState, side: str, *, reserve_only: bool = False) -> list[str]:
    """The side's commands, the biggest first: most units, then most VBU, then the army
    list's order (with ``reserve_only``, those with units still in reserve)."""
    sizes: dict[str, tuple[int, float]] = {}
    waiting: set[str] = set()
    for unit in state.units:
        if unit.side != side:
            continue
        count, vbu = sizes.get(unit.group, (0, 0.0))
        value = unit.profile.get("vbu", 0)
        more = float(value) if isinstance(value, int | float) else 0.0
        sizes[unit.group] = (count + 1, vbu + more)
        if unit.location == RESERVE:
            waiting.add(unit.group)
    rank = {g.id: n for n, g in enumerate(state.groups)}
    found = sorted(sizes, key=lambda g: (-sizes[g][0], -sizes[g][1], rank.get(g, 999)))
    return [g for g in found if g in waiting] if reserve_only else found


def biggest_command(state: BattleState, side: str) -> str | None:
    """The side's biggest command (steps 8 and 9), reckoned on all its units so that the
    answer is the same before and after it deploys (planning ahead looks at it early)."""
    found = commands_by_size(state, side)
    return found[0] if found else None


def commands_in_reserve(state: BattleState, side: str) -> list[str]:
    """The side's commands still to deploy at step 10: those with units in reserve, the
    biggest first, without the biggest command (deployed at step 8 or 9)."""
    biggest = biggest_command(state, side)
    return [g for g in commands_by_size(state, side, reserve_only=True) if g != biggest]


def alternate_commands(state: BattleState, first: str) -> tuple[Subject, ...]:
    """The commands for step 10, the sides alternately starting with ``first``; once a side
    has none left, the other's follow one after another."""
    second = other_side(state, first)
    queues = {first: commands_in_reserve(state, first), second: commands_in_reserve(state, second)}
    found: list[Subject] = []
    turn = first
    while queues[first] or queues[second]:
        if not queues[turn]:
            turn = other_side(state, turn)
        found.append(Subject(queues[turn].pop(0), turn))
        turn = other_side(state, turn)
    return tuple(found)


# -- geometry of the pieces --------------------------------------------------------------------


def piece_size(feature: Feature, params: Mapping[str, Json]) -> tuple[float, float]:
    size = feature.size or "small"
    return _num(params, f"{size}_length"), _num(params, f"{size}_width")


def _oval(
    at: Point, length: float, width: float, facing: float, corners: int = 16
) -> tuple[Point, ...]:
    """An oval of ``length`` along the compass ``facing`` and ``width`` across it."""
    return _rotated(at, facing, [(math.cos(2 * math.pi * i / corners) * width / 2,
                                  math.sin(2 * math.pi * i / corners) * length / 2)
                                 for i in range(corners)])  # fmt: skip


def _box(at: Point, length: float, width: float, facing: float) -> tuple[Point, ...]:
    """A rectangle of ``length`` along the compass ``facing`` and ``width`` across it."""
    half_l, half_w = length / 2, width / 2
    return _rotated(at, facing, [(-half_w, -half_l), (half_w, -half_l),
                                 (half_w, half_l), (-half_w, half_l)])  # fmt: skip


def _rotated(at: Point, facing: float, local: Sequence[Point]) -> tuple[Point, ...]:
    """Points given across (x) and along (y) a compass ``facing``, on the table."""
    rad = math.radians(facing)
    ahead = (math.sin(rad), math.cos(rad))
    right = (math.cos(rad), -math.sin(rad))
    return tuple(
        (
            round(at[0] + x * right[0] + y * ahead[0], 3),
            round(at[1] + x * right[1] + y * ahead[1], 3),
        )
        for x, y in local
    )


def _line_across(state: BattleState, at: Point, facing: float) -> tuple[Point, ...] | None:
    """The straight line through ``at`` along the compass ``facing``, from table edge to
    table edge; None if it does not cross the table."""
    field = state.battlefield
    rad = math.radians(facing)
    dx, dy = math.sin(rad), math.cos(rad)
    ts: list[float] = []
    for edge, d, origin in ((0.0, dx, at[0]), (field.width, dx, at[0]), (0.0, dy, at[1]),
                            (field.depth, dy, at[1])):  # fmt: skip
        if abs(d) > 1e-9:
            ts.append((edge - origin) / d)
    hits = []
    for t in ts:
        x, y = at[0] + t * dx, at[1] + t * dy
        if -1e-6 <= x <= field.width + 1e-6 and -1e-6 <= y <= field.depth + 1e-6:
            hits.append((t, (round(x, 3), round(y, 3))))
    hits.sort()
    if len(hits) < 2 or math.dist(hits[0][1], hits[-1][1]) < 1e-6:
        return None
    return (hits[0][1], hits[-1][1])


def outline(
    state: BattleState, feature: Feature, at: Point, facing: float, params: Mapping[str, Json]
) -> tuple[Point, ...] | None:
    """The points of ``feature`` placed at ``at`` along ``facing`` (None: it does not fit)."""
    if feature.linear:
        return _line_across(state, at, facing)
    if feature.crossing:
        river = _water_at(state, at)
        across = facing if river is None else _across(river, at)
        width = _num(params, "river_width") + 2.0
        return _box(at, width, _num(params, "crossing_width"), across)
    length, width = piece_size(feature, params)
    if feature.kind == "village":
        return _box(at, length, width, facing)
    return _oval(at, length, width, facing)


def _water_at(state: BattleState, at: Point) -> TerrainFeature | None:
    from shapely import Point as ShapelyPoint

    spot = ShapelyPoint(at)
    for feature in state.terrain:
        if feature.kind in ("river", "stream") and feature_shape(feature).distance(spot) <= 0.5:
            return feature
    return None


def _across(river: TerrainFeature, at: Point) -> float:
    """The compass facing across a river at the point nearest ``at``."""
    (x1, y1), (x2, y2) = river.points[0], river.points[-1]
    along = math.degrees(math.atan2(x2 - x1, y2 - y1))
    return (along + 90.0) % 360.0


def _shape(feature: TerrainFeature, params: Mapping[str, Json]) -> BaseGeometry:
    """A feature as ground: a road or river with its width."""
    shape = feature_shape(feature)
    if feature.kind in ("road", "river", "stream"):
        width = _num(params, "road_width" if feature.kind == "road" else "river_width")
        return shape.buffer(width / 2)
    return shape


def placement_problem(
    state: BattleState,
    side: str,
    feature: Feature,
    at: Point,
    facing: float,
    params: Mapping[str, Json],
    moving: str | None = None,
) -> str | None:
    """Why ``feature`` may not be placed (or an enemy piece ``moving`` moved) at ``at``, or
    None if it may."""
    points = outline(state, feature, at, facing, params)
    if points is None:
        return f"a {feature.label.lower()} through ({at[0]:g}, {at[1]:g}) does not cross the table"
    field = state.battlefield
    if not feature.linear and not all(
        -1e-6 <= x <= field.width + 1e-6 and -1e-6 <= y <= field.depth + 1e-6 for x, y in points
    ):
        return f"a {feature.label.lower()} at ({at[0]:g}, {at[1]:g}) would not fit on the table"
    river = _water_at(state, at) if feature.crossing else None
    if feature.crossing and river is None:
        where = f"({at[0]:g}, {at[1]:g})"
        return f"a {feature.label.lower()} goes over a river, and there is none at {where}"
    others = [f for f in state.terrain if f.id != moving]
    if feature.kind == "river" and any(f.kind == "river" for f in others):
        return "there is a river already: one river a battlefield"
    probe = TerrainFeature("new", feature.kind or "rough", points, feature.label,
                           {"width": 1.0} if feature.linear else {})  # fmt: skip
    shape = _shape(probe, params)
    if not feature.linear and not feature.crossing:
        for other in others:
            if (
                not other.linear
                and other.kind not in ("bridge", "ford")
                and shape.intersects(feature_shape(other))
                and shape.intersection(feature_shape(other)).area > 1e-6
            ):
                return f"it would overlap {other.name or other.id}"
    if role_of(state, side) == "attacker" and moving is None:
        gap = _num(params, "attacker_gap")
        for other in others:
            if river is not None and other.id == river.id:
                continue
            distance = shape.distance(_shape(other, params))
            if distance < gap - 1e-6:
                return (
                    f"the attacker's terrain stands at least {gap:g} H from other terrain: "
                    f"{other.name or other.id} is {distance:.1f} H away"
                )
    return None


def role_of(state: BattleState, side: str) -> str:
    return str(state.side(side).status.get("role") or "")


def free_spot(
    state: BattleState,
    side: str,
    feature: Feature,
    facing: float,
    params: Mapping[str, Json],
    near: Point | None = None,
    moving: str | None = None,
) -> Point | None:
    """The free spot nearest ``near`` (default the table's centre) where the feature may go."""
    field = state.battlefield
    near = near or (field.width / 2, field.depth / 2)
    spots = [
        (float(x), float(y)) for x in range(1, int(field.width)) for y in range(1, int(field.depth))
    ]
    spots.sort(key=lambda p: (math.dist(p, near), p))
    for spot in spots:
        if placement_problem(state, side, feature, spot, facing, params, moving) is None:
            return spot
    return None


def _terrain_id(state: BattleState) -> str:
    taken = {f.id for f in state.terrain}
    n = len(state.terrain) + 1
    while f"t{n}" in taken:
        n += 1
    return f"t{n}"


def enemy_terrain(state: BattleState, side: str) -> list[TerrainFeature]:
    """The pieces the enemy placed (the Mtd table's 10-11 moves one, its 12 removes one)."""
    return [f for f in state.terrain if f.properties.get("placed_by") not in (None, side)
            and f.properties.get("placed_by") != "baggage"]  # fmt: skip


def _find_terrain(state: BattleState, text: str) -> TerrainFeature | None:
    wanted = text.strip().lower()
    return next((f for f in state.terrain if wanted in (f.id.lower(), f.name.lower())), None)


# -- choices narrowed by the state (``Rules.option_choices``) ----------------------------------


def option_choices(state: BattleState, side: str, kind: str, param: str) -> tuple[str, ...] | None:
    """The choices of a pre-battle order's parameter the side has now: ``place_terrain``'s
    ``feature``, the features of the table the side rolls on (FOOT or Mtd) that may still be
    laid (no second river, a bridge or ford only over a river, moving or removing enemy
    terrain only when the enemy has placed some); its ``ep``, 0 to the points left."""
    if kind != "place_terrain" or not any(s.id == side for s in state.sides):
        return None
    if param == "ep":
        return EP_CHOICES[: exploration_points(state, side) + 1]
    if param != "feature":
        return None
    table = TERRAIN_TABLES[table_of(state, side)]
    found: list[str] = []
    for band in table.bands:
        for feature in choices(band):
            if feature.key not in found and feature_available(state, side, feature):
                found.append(feature.key)
    return tuple(found)


def feature_available(state: BattleState, side: str, feature: Feature) -> bool:
    """Whether a feature may still be laid (or acted on) on this table, wherever it goes."""
    rivers = [f for f in state.terrain if f.kind in ("river", "stream")]
    if feature.kind == "river":
        return not any(f.kind == "river" for f in rivers)
    if feature.crossing:
        return bool(rivers)
    if feature.key in (MOVE_ENEMY, REMOVE_ENEMY):
        return bool(enemy_terrain(state, side))
    return True


# -- judging the orders ------------------------------------------------------------------------


def preview(state: BattleState, order: Order) -> Verdict:
    """A pre-battle order's effect in words, or why it is illegal now."""
    try:
        problem, words = _judged(state, order)
    except KeyError as missing:
        return Illegal(order, f"there is no such {missing.args[0]}")
    return Illegal(order, problem) if problem else Preview(order, words)


def _facing(order: Order, default: float) -> float:
    value = order.params.get("facing")
    return (
        float(value) if isinstance(value, int | float) and not isinstance(value, bool) else default
    )


def _judged(state: BattleState, order: Order) -> tuple[str | None, str]:
    params = params_of(state)
    side = order.actor
    step = state.cursor.step
    if order.kind == "place_terrain":
        return _judge_terrain(state, order, params)
    if order.kind in ("place_baggage", "fortify"):
        zone = _rules().deployment_zone(state, side)
        at = point_param(order, "at")
        facing = _facing(order, _rules().deployment_facing(state, side))
        points = camp_outline(order.kind, at, facing, params)
        if zone is not None and not Polygon(zone).buffer(1e-6).contains(Polygon(points)):
            return f"the {_camp_word(order.kind)} goes inside {side}'s deployment zone", ""
        if order.kind == "fortify" and fortification_limit(state, side, params) <= 0:
            name = state.side(side).name
            return f"{name} may place no fortifications in this battle", ""
        return None, f"places the {_camp_word(order.kind)} at ({at[0]:g}, {at[1]:g})"
    if order.kind == "battle_plan":
        return None, "writes its battle plan (sealed; seen by its side and the GM)"
    if order.kind == "reveal_plan":
        return _judge_reveal(state, side)
    if order.kind == "place":
        return _judge_place(state, order, step)
    return None, order.kind


def _camp_word(kind: str) -> str:
    return "baggage" if kind == "place_baggage" else "fortification"


def camp_outline(
    kind: str, at: Point, facing: float, params: Mapping[str, Json]
) -> tuple[Point, ...]:
    """A baggage camp (``place_baggage``) or a fortification (``fortify``) at ``at``, its
    frontage across the facing: the camp ``baggage_length`` by ``baggage_width``, a
    fortification ``fortification_length`` by 1H."""
    if kind == "place_baggage":
        frontage, depth = _num(params, "baggage_length"), _num(params, "baggage_width")
    else:
        frontage, depth = _num(params, "fortification_length"), 1.0
    return _box(at, depth, frontage, facing)


def ep_of(order: Order) -> int:
    """The most exploration points a ``place_terrain`` order spends (0 if it names none)."""
    value = order.params.get("ep", "0")
    return int(value) if isinstance(value, str) and value.isdigit() else 0


def _judge_terrain(
    state: BattleState, order: Order, params: Mapping[str, Json]
) -> tuple[str | None, str]:
    side = order.actor
    feature = FEATURES[str(order.params["feature"])]
    spend = ep_of(order)
    left = exploration_points(state, side)
    if spend > left:
        return f"{side} has {left} exploration points, not {spend}", ""
    table = TERRAIN_TABLES[table_of(state, side, params)]
    rows = [b for b in table.bands if feature in choices(b)]
    if not rows:
        return f"the {table.name} offers no {feature.label}", ""
    spending = f", spending up to {spend} exploration points to reach it" if spend else ""
    if feature.key == NONE:
        return None, f"places no terrain if the row allows it{spending}"
    if feature.key in (MOVE_ENEMY, REMOVE_ENEMY):
        text = order.params.get("terrain")
        if not isinstance(text, str) or not text.strip():
            return (
                f"name the enemy terrain to {'move' if feature.key == MOVE_ENEMY else 'remove'}",
                "",
            )
        target = _find_terrain(state, text)
        if target is None or target not in enemy_terrain(state, side):
            return f"{text} is not terrain the enemy placed", ""
        if feature.key == REMOVE_ENEMY:
            return None, f"removes {target.name} if the roll allows it{spending}"
        if "at" not in order.params:
            return "say where the enemy terrain goes (x and y)", ""
        at = point_param(order, "at")
        problem = move_problem(state, side, target, at, params)
        if problem:
            return problem, ""
        return (
            None,
            f"moves {target.name} to ({at[0]:g}, {at[1]:g}) if the roll allows it{spending}",
        )
    if "at" not in order.params:
        return "say where the terrain goes (x and y)", ""
    at = point_param(order, "at")
    problem = placement_problem(state, side, feature, at, _facing(order, 90.0), params)
    if problem:
        return problem, ""
    rows_text = " or ".join(b.scores for b in rows)
    return None, (f"places a {feature.label} at ({at[0]:g}, {at[1]:g}) on a roll of {rows_text}"
                  f"{spending}")  # fmt: skip


def _feature_of(terrain: TerrainFeature) -> Feature:
    key = terrain.properties.get("feature")
    return FEATURES.get(str(key), FEATURES["small_brk"])


def move_problem(
    state: BattleState, side: str, target: TerrainFeature, at: Point, params: Mapping[str, Json]
) -> str | None:
    """Why an enemy piece may not be moved to ``at``."""
    limit = _num(params, "enemy_terrain_move")
    centre = _centre(target)
    if limit > 0 and math.dist(centre, at) > limit + 1e-6:
        return f"enemy terrain moves at most {limit:g} H"
    facing = target.properties.get("facing", 90.0)
    return placement_problem(state, side, _feature_of(target), at,
                             float(facing) if isinstance(facing, int | float) else 90.0,
                             params, moving=target.id)  # fmt: skip


def _centre(feature: TerrainFeature) -> Point:
    c = feature_shape(feature).centroid
    return (round(c.x, 3), round(c.y, 3))


def _judge_place(state: BattleState, order: Order, step: str) -> tuple[str | None, str]:
    side = order.actor
    unit = state.unit(str(order.params["unit"]))
    if unit.side != side:
        return f"{unit.name} is not {state.side(side).name}'s", ""
    if unit.location != RESERVE:
        return f"{unit.name} is already deployed", ""
    subject = state.cursor.subject
    if subject is not None and step.startswith("deploy_") and unit.group != subject.id:
        command = next((g.name for g in state.groups if g.id == subject.id), subject.id)
        return f"{unit.name} is not in {command}, the command deploying now", ""
    at = point_param(order, "at")
    rules = _rules()
    facing = _facing(order, rules.deployment_facing(state, side))
    problem = deploy_problem(rules, state, unit, at, facing)
    if problem:
        return problem, ""
    return None, f"deploys {unit.name} at ({at[0]:g}, {at[1]:g}) facing {facing:g}"


def deploy_problem(
    rules: Rules, state: BattleState, unit: Unit, at: Point, facing: float
) -> str | None:
    """Why ``unit`` may not deploy at ``at``: off the table, outside its zone, over another
    unit or on impassable ground."""
    placed = replace(unit, x=at[0], y=at[1], facing=facing, location=ON_TABLE)
    found = rules.deployment_problem(state, placed)
    if found is not None:
        other = f" {found.other.name}" if found.other is not None else ""
        return f"{unit.name} {found.reason}{other}"
    from rules_core.geometry import Footprint

    body = Footprint.of(placed).polygon
    for feature in state.terrain:
        ground = feature_shape(feature)
        if feature.kind == "impassable" and body.intersection(ground).area > 1e-6:
            return f"{unit.name} would stand on impassable ground ({feature.name or feature.id})"
        if feature.properties.get("baggage") and body.intersection(ground).area > 1e-6:
            return f"{unit.name} would stand on {feature.name}"
    return None


def _say(ctx: Context, event: TestResolved) -> None:
    """Log a look-up (a row, a choice, a refusal): nothing passed or failed."""
    ctx.emit(replace(event, verdict=False))


# -- step 1: the attacker ------------------------------------------------------------------------


def attacker(ctx: Context) -> None:
    """Each side rolls 2D6, +1 per two mounted units (not EL, W), rounded up; the higher
    attacks. Each side's exploration points are set."""
    state = ctx.state
    first, second = state.cursor.side_order
    params = ctx.params
    for attempt in range(1, 21):
        scores = {side: _attacker_roll(ctx, side, attempt) for side in (first, second)}
        if scores[first] != scores[second]:
            break
        if str(params["attacker_ties"]) != "reroll":
            scores[second] += 1  # "defender": the first side listed defends
            break
    winner = max(scores, key=lambda s: scores[s])
    loser = other_side(state, winner)
    ctx.set_side_status(winner, f"{scores[winner]} against {scores[loser]}", role="attacker")
    ctx.set_side_status(loser, f"{scores[loser]} against {scores[winner]}", role="defender")
    points = int(_num(params, "exploration_points"))
    for side in (first, second):
        ctx.set_side_status(side, "for the terrain and the deployment roll",
                            exploration_points=points)  # fmt: skip
        table = TERRAIN_TABLES[table_of(ctx.state, side, params)]
        _say(ctx, TestResolved(side, "Terrain table", mounted_count(ctx.state, side), False,
                              f"{mounted_count(ctx.state, side)} mounted units (not EL, W) of "
                              f"{len([u for u in ctx.state.units if u.side == side])}: "
                              f"rolls on the {table.name}"))  # fmt: skip


def _attacker_roll(ctx: Context, side: str, attempt: int) -> int:
    bonus = attacker_bonus(ctx.state, side)
    mounted = mounted_count(ctx.state, side)
    modifiers = (
        [Modifier(bonus, f"{mounted} mounted units (not EL, W), +1 per two rounded up")]
        if bonus
        else []
    )
    again = "" if attempt == 1 else f" (tie, roll {attempt})"
    name = ctx.state.side(side).name
    why = Purpose(side, "attacker roll")
    return ctx.dice.two_d6(f"Attacker roll of {name}{again}", modifiers, purpose=why).total


# -- steps 2-4: terrain --------------------------------------------------------------------------


def terrain_defender(ctx: Context) -> None:
    """2. The defender rolls on its terrain table and places a feature."""
    terrain(ctx)


def terrain_attacker(ctx: Context) -> None:
    """3. The attacker rolls and places, at least ``attacker_gap`` H from other terrain."""
    terrain(ctx)


def terrain_defender_again(ctx: Context) -> None:
    """4. The defender rolls and places again."""
    terrain(ctx)


def terrain(ctx: Context) -> None:
    """The acting side rolls 2D6 on its table, reaches the ordered feature with exploration
    points if it may, else chooses from the row, and places it."""
    side = ctx.side
    assert side is not None
    params = ctx.params
    name = ctx.state.side(side).name
    table_id = table_of(ctx.state, side, params)
    table = TERRAIN_TABLES[table_id]
    order = _own_order(ctx, side, "place_terrain")
    why = Purpose(side, "terrain", row=table_id)
    roll = ctx.dice.two_d6(f"Terrain of {name} on the {table.name}", purpose=why)
    band = ctx.test(side, "Terrain table", roll, table, ())
    wanted = FEATURES[str(order.params["feature"])] if order else None
    score = roll.total
    if wanted is not None and wanted not in choices(band):
        score, band = _spend_points(ctx, side, order, wanted, roll)
    offered = choices(band)
    if wanted is not None and wanted in offered:
        feature = wanted
    else:
        feature = _ask_feature(ctx, side, offered, order, score)
    _carry_out(ctx, side, feature, order, score)


def _own_order(ctx: Context, side: str, kind: str) -> Order | None:
    rules = ctx.rules
    for order in ctx.orders:
        if (
            order.kind == kind
            and order.actor == side
            and isinstance(rules.judge(ctx.state, order), Preview)
        ):
            return order
    return None


def _spend_points(
    ctx: Context, side: str, order: Order | None, wanted: Feature, roll: Roll
) -> tuple[int, Band]:
    """The score moved by exploration points to the nearest row offering ``wanted`` (at
    most the order's ``ep`` and the points left); the row as rolled if none is in reach."""
    assert order is not None
    table = TERRAIN_TABLES[table_of(ctx.state, side, ctx.params)]
    budget = min(ep_of(order), exploration_points(ctx.state, side))
    for shift in range(1, budget + 1):
        for score in (roll.total + shift, roll.total - shift):
            if 2 <= score <= 12 and wanted in choices(table.lookup(score)):
                left = exploration_points(ctx.state, side) - shift
                ctx.set_side_status(side, f"{shift} spent: terrain score {roll.total} → {score}",
                                    exploration_points=left)  # fmt: skip
                band = table.lookup(score)
                _say(ctx, TestResolved(side, "Terrain table (exploration points)", score, False,
                                      band.row))  # fmt: skip
                return score, band
    return roll.total, table.lookup(roll.total)


def _ask_feature(
    ctx: Context, side: str, offered: Sequence[Feature], order: Order | None, score: int
) -> Feature:
    """The side chooses a feature of the row; default: the first it can place (near its
    order's spot), else none, else the first."""
    if len(offered) == 1:
        return offered[0]
    near = point_param(order, "at") if order and "at" in order.params else None
    default = _default_feature(ctx, side, offered, near)
    options = tuple(Option(f.key, _feature_words(ctx, side, f)) for f in offered)
    wanted = f" ({FEATURES[str(order.params['feature'])].label} was not on it)" if order else ""
    answer = ctx.ask(Decision(
        f"terrain_feature_{ctx.state.cursor.step}",
        f"{ctx.state.side(side).name} rolled {score} on the terrain table{wanted}: which feature?",
        options, default.key, side, topic=TERRAIN_FEATURE,
    ))  # fmt: skip
    return FEATURES[answer]


def _feature_words(ctx: Context, side: str, feature: Feature) -> str:
    if feature.key in (MOVE_ENEMY, REMOVE_ENEMY) and not enemy_terrain(ctx.state, side):
        return f"{feature.label} (there is none)"
    return feature.label


def _default_feature(
    ctx: Context, side: str, offered: Sequence[Feature], near: Point | None
) -> Feature:
    for feature in offered:
        if feature.key in (NONE, MOVE_ENEMY, REMOVE_ENEMY):
            continue
        if free_spot(ctx.state, side, feature, 90.0, ctx.params, near) is not None:
            return feature
    actions = [f for f in offered if f.key in (MOVE_ENEMY, REMOVE_ENEMY)]
    if actions and enemy_terrain(ctx.state, side):
        return actions[0]
    return next((f for f in offered if f.key == NONE), offered[0])


def _carry_out(ctx: Context, side: str, feature: Feature, order: Order | None, score: int) -> None:
    name = ctx.state.side(side).name
    if feature.key == NONE:
        _say(ctx, TestResolved(side, "Terrain chosen", score, False, "None: no terrain placed"))
        return
    if feature.key in (MOVE_ENEMY, REMOVE_ENEMY):
        _enemy_terrain(ctx, side, feature, order, score)
        return
    ordered = order is not None and str(order.params["feature"]) == feature.key
    facing = _facing(order, 90.0) if order else 90.0
    at = point_param(order, "at") if order and "at" in order.params else None
    if at is None or placement_problem(ctx.state, side, feature, at, facing, ctx.params):
        at = _ask_spot(ctx, side, feature, facing, at, ordered, score)
    if at is None:
        _say(ctx, TestResolved(side, "Terrain chosen", score, False,
                              f"{feature.label}: no room left for it on the table"))  # fmt: skip
        return
    points = outline(ctx.state, feature, at, facing, ctx.params)
    assert points is not None
    props: dict[str, Json] = {"placed_by": side, "feature": feature.key, "facing": facing}
    if feature.grade:
        props["grade"] = feature.grade
    if feature.size:
        props["size"] = feature.size
    if feature.linear:
        props["width"] = _num(ctx.params, "road_width" if feature.kind == "road" else "river_width")
    assert feature.kind is not None
    piece = TerrainFeature(
        _terrain_id(ctx.state), feature.kind, points, f"{feature.label} ({name})", props
    )
    ctx.add_terrain(piece, f"chosen and placed by {name}")


def _ask_spot(
    ctx: Context,
    side: str,
    feature: Feature,
    facing: float,
    near: Point | None,
    ordered: bool,
    score: int,
) -> Point | None:
    """Where the feature goes: asked, a free spot near the order's by default; an answer
    where it may not go falls back on the default (with the reason logged)."""
    default = free_spot(ctx.state, side, feature, facing, ctx.params, near)
    if default is None:
        return None
    why = "the ordered spot does not suit it" if ordered else "it was not the feature ordered"
    question = Decision(
        f"terrain_spot_{ctx.state.cursor.step}",
        f"Where does {ctx.state.side(side).name}'s {feature.label} go ({why})?",
        (_auto_spot(default, "the free spot nearest the one ordered"),),
        f"{default[0]:g},{default[1]:g}",
        side,
        "point",
        topic=TERRAIN_SPOT,
    )
    at = _spot_answer(question, ctx.ask(question), default)
    problem = placement_problem(ctx.state, side, feature, at, facing, ctx.params)
    if problem:
        _say(ctx, TestResolved(side, "Terrain spot", score, False,
                              f"({at[0]:g}, {at[1]:g}) refused: {problem}; placed at "
                              f"({default[0]:g}, {default[1]:g})"))  # fmt: skip
        return default
    return at


def _auto_spot(default: Point, words: str) -> Option:
    """The named answer ``auto`` of a spot question: the rules' own spot, shown."""
    return Option(AUTO, f"{words}: ({default[0]:g}, {default[1]:g})")


def _spot_answer(question: Decision, answer: str, default: Point) -> Point:
    """A spot question's answer as a point: ``auto`` (a standing instruction's) is the
    default spot."""
    chosen = question.value(answer)
    if not isinstance(chosen, list):
        return default
    return (float(chosen[0]), float(chosen[1]))  # type: ignore[arg-type]


def _enemy_terrain(
    ctx: Context, side: str, feature: Feature, order: Order | None, score: int
) -> None:
    name = ctx.state.side(side).name
    theirs = enemy_terrain(ctx.state, side)
    if not theirs:
        _say(ctx, TestResolved(side, "Terrain chosen", score, False,
                              f"{feature.label}: the enemy has placed no terrain"))  # fmt: skip
        return
    text = order.params.get("terrain") if order else None
    target = _find_terrain(ctx.state, text) if isinstance(text, str) else None
    if target is None or target not in theirs:
        biggest = max(theirs, key=lambda f: (feature_shape(f).area, f.id))
        verb = "move" if feature.key == MOVE_ENEMY else "remove"
        options = (Option(AUTO, f"the biggest ({biggest.name or biggest.id})"),
                   *(Option(f.id, f.name or f.id) for f in theirs))  # fmt: skip
        answer = ctx.ask(Decision(
            f"enemy_terrain_{ctx.state.cursor.step}",
            f"Which enemy terrain does {name} {verb}?", options, AUTO, side, topic=ENEMY_TERRAIN,
        ))  # fmt: skip
        target = biggest if answer == AUTO else next(f for f in theirs if f.id == answer)
    crossing = crossings_on(ctx.state, target)
    if feature.key == REMOVE_ENEMY:
        ctx.remove_terrain(target.id, f"removed by {name} (terrain table)")
        for piece in crossing:
            ctx.remove_terrain(piece.id, f"removed with {target.name}, the river it crossed")
        return
    at = (
        point_param(order, "at")
        if order and "at" in order.params and order.params.get("terrain")
        else None
    )
    if at is None or move_problem(ctx.state, side, target, at, ctx.params):
        here = _centre(target)
        question = Decision(
            f"enemy_spot_{ctx.state.cursor.step}",
            f"Where does {name} move {target.name} (its centre)?",
            (_auto_spot(here, "where it stands"),),
            f"{here[0]:g},{here[1]:g}",
            side,
            "point",
            topic=TERRAIN_SPOT,
        )
        at = _spot_answer(question, ctx.ask(question), here)
        problem = move_problem(ctx.state, side, target, at, ctx.params)
        if problem:
            where = f"({at[0]:g}, {at[1]:g})"
            _say(
                ctx,
                TestResolved(side, "Terrain moved", score, False, f"{where} refused: {problem}"),
            )
            return
    facing = target.properties.get("facing", 90.0)
    turn = float(facing) if isinstance(facing, int | float) else 90.0
    points = outline(ctx.state, _feature_of(target), at, turn, ctx.params)
    if points is None:
        return
    ctx.move_terrain(target.id, points, f"moved by {name} (terrain table)")
    shift = _shift_across(target.points, points)
    for piece in crossing:
        moved = [(round(x + shift[0], 3), round(y + shift[1], 3)) for x, y in piece.points]
        ctx.move_terrain(piece.id, moved, f"moved with {target.name}, the river it crosses")


def crossings_on(state: BattleState, river: TerrainFeature) -> list[TerrainFeature]:
    """The bridges and fords laid across ``river`` (none for any other piece): they go
    where it goes, or off the table with it."""
    if river.kind not in ("river", "stream"):
        return []
    return [
        f
        for f in state.terrain
        if f.kind in ("bridge", "ford")
        and (found := _water_at(state, _centre(f))) is not None
        and found.id == river.id
    ]


def _shift_across(before: Sequence[Point], after: Sequence[Point]) -> Point:
    """How far a straight river moved across itself (its direction kept): the offset that
    keeps a crossing at the same place along it and on it."""
    (x1, y1), (x2, y2) = before[0], before[-1]
    length = math.dist((x1, y1), (x2, y2)) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    dx, dy = after[0][0] - x1, after[0][1] - y1
    along = dx * ux + dy * uy
    return (dx - along * ux, dy - along * uy)


# -- step 5: baggage and fortifications ------------------------------------------------------------


def baggage(ctx: Context) -> None:
    """The side places its baggage camp (ordered, else the middle of its zone's back) and
    its fortifications (at most ``fortification_pieces``)."""
    side = ctx.side
    assert side is not None
    name = ctx.state.side(side).name
    rules = ctx.rules
    facing = rules.deployment_facing(ctx.state, side)
    order = _own_order(ctx, side, "place_baggage")
    at = point_param(order, "at") if order else _camp_default(ctx, side)
    facing = _facing(order, facing) if order else facing
    outline_ = camp_outline("place_baggage", at, facing, ctx.params)
    camp = TerrainFeature(_terrain_id(ctx.state), "village", outline_,
                          f"{name} baggage", {"placed_by": "baggage", "baggage": side})  # fmt: skip
    ctx.add_terrain(camp, f"{name}'s baggage camp")
    placed: list[Json] = [{"baggage": [at[0], at[1]]}]
    limit = fortification_limit(ctx.state, side, ctx.params)
    forts = [o for o in ctx.orders if o.kind == "fortify" and o.actor == side
             and isinstance(rules.judge(ctx.state, o), Preview)][:limit]  # fmt: skip
    for fort in forts:
        spot = point_param(fort, "at")
        piece = fortification_piece(ctx.state, side, spot, _facing(fort, facing), ctx.params)
        ctx.add_terrain(piece, f"{name}'s field fortification")
        placed.append({"fortification": [spot[0], spot[1]]})
    ctx.set_side_status(side, None, baggage=placed)


def fortification_piece(
    state: BattleState, side: str, at: Point, facing: float, params: Mapping[str, Json]
) -> TerrainFeature:
    """The piece a ``fortify`` order lays: ``camp_outline`` at ``at``, marked as the side's
    (``fortified_by``: it protects that side's units, ``protection.fortification``)."""
    props: dict[str, Json] = {"placed_by": "baggage", "fortified_by": side}
    outline_ = camp_outline("fortify", at, facing, params)
    name = f"{state.side(side).name} fortification"
    return TerrainFeature(_terrain_id(state), "fortification", outline_, name, props)


def _camp_default(ctx: Context, side: str) -> Point:
    zone = ctx.rules.deployment_zone(ctx.state, side)
    if zone is None:
        return (ctx.state.battlefield.width / 2, 2.0)
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    back = min(ys) + 1.0 if sum(ys) / len(ys) < ctx.state.battlefield.depth / 2 else max(ys) - 1.0
    return ((min(xs) + max(xs)) / 2, back)


# -- step 6: battle plans ----------------------------------------------------------------------


def battle_plan(ctx: Context) -> None:
    """Each side's plan goes into its hidden state: its side and the GM alone see it (the
    order was sealed until now, as every order is)."""
    for side in ctx.state.cursor.side_order:
        order = _own_order(ctx, side, "battle_plan")
        plan = str(order.params["plan"]) if order else ""
        ctx.set_hidden(side, "written before the battle", battle_plan=plan or NO_PLAN)


PLAN_REVEALED = "plan_revealed"  # a side's plan once revealed: public (``Scope.SIDE``)


def plan_of(state: BattleState, side: str) -> str:
    """The side's battle plan as written at step 6 ("" if none was)."""
    from rules_core.status import hidden_of

    plan = str(hidden_of(state, side).status.get("battle_plan") or "")
    return "" if plan == NO_PLAN else plan


def _judge_reveal(state: BattleState, side: str) -> tuple[str | None, str]:
    name = state.side(side).name
    if state.cursor.segment == "setup":
        return "a battle plan is revealed during the battle, not before it", ""
    if state.side(side).status.get(PLAN_REVEALED):
        return f"{name}'s battle plan is revealed already", ""
    if not plan_of(state, side):
        return f"{name} wrote no battle plan to reveal", ""
    return None, f"reveals {name}'s battle plan to everyone as this step resolves"


def reveal_ordered(ctx: Context) -> None:
    """The step's ``reveal_plan`` orders carried out (each side's first, if it may)."""
    for order in ctx.orders:
        if order.kind != "reveal_plan":
            continue
        if not isinstance(ctx.rules.judge(ctx.state, order), Preview):
            continue
        given = order.params.get("reason")
        reason = str(given).strip() if isinstance(given, str) and given.strip() else "ordered"
        reveal_plan(ctx, order.actor, reason)


def reveal_plan(ctx: Context, side: str, reason: str) -> str:
    """Reveal a side's battle plan to everyone (a ``reveal_plan`` order, or a turn step
    that reveals it): logged publicly with ``reason`` and kept in the side's public status
    (``plan_revealed``); the plan stays in its hidden state too. Returns the plan."""
    plan = plan_of(ctx.state, side)
    if plan and not ctx.state.side(side).status.get(PLAN_REVEALED):
        _say(
            ctx,
            TestResolved(
                side,
                "Battle plan revealed (turn)",
                ctx.state.cursor.turn,
                False,
                f"{plan} ({reason})",
            ),
        )
        ctx.set_side_status(side, None, **{PLAN_REVEALED: plan})
    return plan


# -- step 7: the deployment roll ----------------------------------------------------------------


def deploy_roll(ctx: Context) -> None:
    """Each side rolls 2D6 + unused exploration points, re-rolls as its command structure
    allows, and the winner chooses who deploys first."""
    state = ctx.state
    sides = tuple(state.cursor.side_order)
    rolls = {side: _deploy_roll(ctx, side, "") for side in sides}
    questions = [q for q in (_reroll_question(ctx, side, rolls) for side in sides) if q]
    answers = ctx.ask_all(questions) if questions else ()
    for question, answer in zip(questions, answers, strict=True):
        side = question.who
        indexes = {"keep": (), "first": (0,), "second": (1,), "both": (0, 1)}[answer]
        if indexes:
            rolls[side] = ctx.dice.reroll(rolls[side], indexes,
                                          f"Deployment roll of {state.side(side).name}, re-rolled "
                                          f"({command_structure(state, side)} CS)")  # fmt: skip
    attempt = 1
    while rolls[sides[0]].total == rolls[sides[1]].total and attempt < 20:
        if str(ctx.params["deploy_ties"]) != "reroll":
            break
        attempt += 1
        rolls = {side: _deploy_roll(ctx, side, f" (tie, roll {attempt})") for side in sides}
    first, second = sides
    if rolls[first].total == rolls[second].total:
        winner = role_side(state, "defender") or first
    else:
        winner = max(sides, key=lambda s: rolls[s].total)
    loser = other_side(state, winner)
    choice = ctx.ask(Decision(
        "deploy_order",
        f"{state.side(winner).name} won the deployment roll ({rolls[winner].total} against "
        f"{rolls[loser].total}): deploy first or second?",
        tuple(Option(k, v) for k, v in ORDER_WORDS.items()), "second", winner, topic=DEPLOY_ORDER,
    ))  # fmt: skip
    deploying = winner if choice == "first" else loser
    ctx.set_battle_status(f"{state.side(winner).name} chose to {ORDER_WORDS[choice]}",
                          deploy_first=deploying)  # fmt: skip
    ctx.set_side_order((deploying, other_side(state, deploying)), "deploys first")


def _deploy_roll(ctx: Context, side: str, again: str) -> Roll:
    points = exploration_points(ctx.state, side)
    modifiers = [Modifier(points, "unused exploration points")] if points else []
    why = Purpose(side, "deployment roll")
    return ctx.dice.two_d6(
        f"Deployment roll of {ctx.state.side(side).name}{again}", modifiers, purpose=why
    )


def _reroll_question(ctx: Context, side: str, rolls: Mapping[str, Roll]) -> Decision | None:
    structure = command_structure(ctx.state, side)
    allowed = CS_REROLLS.get(structure)
    if allowed is None:
        return None
    roll = rolls[side]
    theirs = rolls[other_side(ctx.state, side)].total
    faces = roll.faces
    default = "keep"
    if roll.total <= theirs:
        low = [i for i, face in enumerate(faces) if face <= 3]
        if structure == "good":
            default = {0: "keep", 1: ("first", "second")[low[0]] if low else "keep", 2: "both"}[
                len(low)
            ]
        elif sum(faces) <= 7:
            default = "both"
    words = {"first": f"re-roll the first die (a {faces[0]})",
             "second": f"re-roll the second die (a {faces[1]})"}  # fmt: skip
    options = tuple(Option(k, words.get(k, REROLL_WORDS[k])) for k in allowed)
    return Decision(
        f"deploy_reroll_{side}",
        f"{ctx.state.side(side).name} rolled {roll.total} for deployment against {theirs} "
        f"({structure} command structure): re-roll?",
        options,
        default,
        side,
        topic=DEPLOY_REROLL,
    )


# -- steps 8-10: deployment ------------------------------------------------------------------------


def deploy_first(ctx: Context) -> None:
    """8. The first player deploys his biggest command."""
    deploy_command(ctx)


def deploy_second(ctx: Context) -> None:
    """9. The second player deploys his biggest command."""
    deploy_command(ctx)


def deploy_rest(ctx: Context) -> None:
    """10. The remaining commands, alternately."""
    deploy_command(ctx)


def deploy_command(ctx: Context) -> None:
    """The subject command's units go where the side's ``place`` orders say; the rest of the
    command at free spots of the zone."""
    subject = ctx.subject
    side = ctx.side
    if subject is None or side is None:
        return
    name = ctx.state.side(side).name
    rules = ctx.rules
    assert isinstance(rules, Rules)  # the context types its rules as the narrower RulesView
    for order in ctx.orders:
        if order.kind != "place" or order.actor != side:
            continue
        if not isinstance(rules.judge(ctx.state, order), Preview):
            continue
        unit = ctx.state.unit(str(order.params["unit"]))
        facing = _facing(order, rules.deployment_facing(ctx.state, side))
        ctx.place_from_reserve(unit.id, point_param(order, "at"), facing, f"deployed by {name}")
    for unit in [u for u in ctx.state.units if u.group == subject.id and u.location == RESERVE]:
        spot = deploy_spot(rules, ctx.state, unit)
        if spot is None:
            continue
        facing = rules.deployment_facing(ctx.state, side)
        ctx.place_from_reserve(
            unit.id, spot, facing, f"deployed at a free spot ({name} gave no place)"
        )


def deploy_spot(rules: Rules, state: BattleState, unit: Unit) -> Point | None:
    """A free spot for ``unit`` in its zone: the front of the zone first, near its middle."""
    zone = rules.deployment_zone(state, unit.side)
    field = state.battlefield
    facing = rules.deployment_facing(state, unit.side)
    if zone is None:
        xs, ys = [0.0, field.width], [0.0, field.depth]
    else:
        xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    towards_enemy = facing < 90 or facing > 270
    rows = sorted({round(y * 2) / 2 for y in _steps(min(ys), max(ys), 0.5)},
                  reverse=towards_enemy)  # fmt: skip
    middle = (min(xs) + max(xs)) / 2
    columns = sorted(_steps(min(xs), max(xs), 0.5), key=lambda x: (abs(x - middle), x))
    for y in rows:
        for x in columns:
            if deploy_problem(rules, state, unit, (x, y), facing) is None:
                return (x, y)
    return None


def _steps(low: float, high: float, step: float) -> list[float]:
    count = int((high - low) / step)
    return [round(low + i * step, 3) for i in range(count + 1)]


# -- scripted players and defaults ----------------------------------------------------------------


def demo_orders(state: BattleState, side: str) -> list[Order]:
    """The scripted player's set-up orders: a feature of its table at a free spot, the
    baggage at the default, a short plan, each unit of the command deploying at a free spot."""
    step = state.cursor.step
    params = params_of(state)
    if step.startswith("terrain_"):
        table = TERRAIN_TABLES[table_of(state, side, params)]
        for band in table.bands[1:]:
            for feature in choices(band):
                if feature.kind is None or feature.crossing or feature.kind == "river":
                    continue
                spot = free_spot(state, side, feature, 90.0, params)
                if spot is not None:
                    return [Order(side, "place_terrain", {"feature": feature.key, "at": list(spot),
                                                          "ep": "1"})]  # fmt: skip
        return []
    if step == "battle_plan":
        return [Order(side, "battle_plan", {"plan": "Hold the centre, strike on the left."})]
    if step.startswith("deploy_") and state.cursor.subject is not None:
        rules = _rules()
        orders: list[Order] = []
        planned = state
        for unit in [
            u for u in state.units if u.group == state.cursor.subject.id and u.location == RESERVE
        ]:
            spot = deploy_spot(rules, planned, unit)
            if spot is None:
                continue
            orders.append(Order(side, "place", {"unit": unit.id, "at": list(spot)}))
            moved = replace(unit, x=spot[0], y=spot[1], location=ON_TABLE,
                            facing=rules.deployment_facing(state, side))  # fmt: skip
            planned = replace(
                planned, units=tuple(moved if u.id == unit.id else u for u in planned.units)
            )
        return orders
    return []
