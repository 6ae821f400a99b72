"""Judging the pre-battle orders and the choices the state narrows (``Rules.judge``)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from shapely import Polygon

from rules_core.codec import Json
from rules_core.geometry import Footprint
from rules_core.orders import Illegal, Order, Preview, Verdict, point_param
from rules_core.plugin import Rules
from rules_core.rulesets.impetus import terrain_tables as tt
from rules_core.rulesets.impetus.prebattle.declared import EP_CHOICES
from rules_core.rulesets.impetus.prebattle.pieces import (
    box,
    enemy_terrain,
    find_terrain,
    placement_problem,
)
from rules_core.rulesets.impetus.prebattle.reading import (
    exploration_points,
    facing_of,
    fortification_limit,
    impetus_rules,
    num,
    params_of,
    plan_of,
    table_of,
)
from rules_core.rulesets.impetus.status import (
    PLAN_REVEALED,
)
from rules_core.state import ON_TABLE, RESERVE, BattleState, Point, TerrainFeature, Unit
from rules_core.terrain import feature_shape


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
    table = tt.TERRAIN_TABLES[table_of(state, side)]
    found: list[str] = []
    for band in table.bands:
        for feature in tt.choices(band):
            if feature.key not in found and feature_available(state, side, feature):
                found.append(feature.key)
    return tuple(found)


def feature_available(state: BattleState, side: str, feature: tt.Feature) -> bool:
    """Whether a feature may still be laid (or acted on) on this table, wherever it goes."""
    rivers = [f for f in state.terrain if f.kind in ("river", "stream")]
    if feature.kind == "river":
        return not any(f.kind == "river" for f in rivers)
    if feature.crossing:
        return bool(rivers)
    if feature.key in (tt.MOVE_ENEMY, tt.REMOVE_ENEMY):
        return bool(enemy_terrain(state, side))
    return True


def preview(state: BattleState, order: Order) -> Verdict:
    """A pre-battle order's effect in words, or why it is illegal now."""
    try:
        problem, words = _judged(state, order)
    except KeyError as missing:
        return Illegal(order, f"there is no such {missing.args[0]}")
    return Illegal(order, problem) if problem else Preview(order, words)


def _judged(state: BattleState, order: Order) -> tuple[str | None, str]:
    params = params_of(state)
    side = order.actor
    step = state.cursor.step
    if order.kind == "place_terrain":
        return _judge_terrain(state, order, params)
    if order.kind in ("place_baggage", "fortify"):
        zone = impetus_rules().deployment_zone(state, side)
        at = point_param(order, "at")
        facing = facing_of(order, impetus_rules().deployment_facing(state, side))
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
        frontage, depth = num(params, "baggage_length"), num(params, "baggage_width")
    else:
        frontage, depth = num(params, "fortification_length"), 1.0
    return box(at, depth, frontage, facing)


def ep_of(order: Order) -> int:
    """The most exploration points a ``place_terrain`` order spends (0 if it names none)."""
    value = order.params.get("ep", "0")
    return int(value) if isinstance(value, str) and value.isdigit() else 0


def _judge_terrain(
    state: BattleState, order: Order, params: Mapping[str, Json]
) -> tuple[str | None, str]:
    side = order.actor
    feature = tt.FEATURES[str(order.params["feature"])]
    spend = ep_of(order)
    left = exploration_points(state, side)
    if spend > left:
        return f"{side} has {left} exploration points, not {spend}", ""
    table = tt.TERRAIN_TABLES[table_of(state, side, params)]
    rows = [b for b in table.bands if feature in tt.choices(b)]
    if not rows:
        return f"the {table.name} offers no {feature.label}", ""
    spending = f", spending up to {spend} exploration points to reach it" if spend else ""
    if feature.key == tt.NONE:
        return None, f"places no terrain if the row allows it{spending}"
    if feature.key in (tt.MOVE_ENEMY, tt.REMOVE_ENEMY):
        text = order.params.get("terrain")
        if not isinstance(text, str) or not text.strip():
            return (
                f"name the enemy terrain to {'move' if feature.key == tt.MOVE_ENEMY else 'remove'}",
                "",
            )
        target = find_terrain(state, text)
        if target is None or target not in enemy_terrain(state, side):
            return f"{text} is not terrain the enemy placed", ""
        if feature.key == tt.REMOVE_ENEMY:
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
    problem = placement_problem(state, side, feature, at, facing_of(order, 90.0), params)
    if problem:
        return problem, ""
    rows_text = " or ".join(b.scores for b in rows)
    return None, (
        f"places a {feature.label} at ({at[0]:g}, {at[1]:g}) on a roll of {rows_text}{spending}"
    )


def feature_of(terrain: TerrainFeature) -> tt.Feature:
    """The terrain table entry of a placed piece (a small broken one if unknown)."""
    key = terrain.properties.get("feature")
    return tt.FEATURES.get(str(key), tt.FEATURES["small_brk"])


def move_problem(
    state: BattleState, side: str, target: TerrainFeature, at: Point, params: Mapping[str, Json]
) -> str | None:
    """Why an enemy piece may not be moved to ``at``."""
    limit = num(params, "enemy_terrain_move")
    centre = centre_of(target)
    if limit > 0 and math.dist(centre, at) > limit + 1e-6:
        return f"enemy terrain moves at most {limit:g} H"
    facing = target.properties.get("facing", 90.0)
    return placement_problem(
        state,
        side,
        feature_of(target),
        at,
        float(facing) if isinstance(facing, int | float) else 90.0,
        params,
        moving=target.id,
    )


def centre_of(feature: TerrainFeature) -> Point:
    """The centre of a terrain piece, rounded to the thousandth."""
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
    rules = impetus_rules()
    facing = facing_of(order, rules.deployment_facing(state, side))
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
    body = Footprint.of(placed).polygon
    for feature in state.terrain:
        ground = feature_shape(feature)
        if feature.kind == "impassable" and body.intersection(ground).area > 1e-6:
            return f"{unit.name} would stand on impassable ground ({feature.name or feature.id})"
        owner = feature.properties.get("baggage")
        if isinstance(owner, str) and body.intersection(ground).area > 1e-6:
            return f"{unit.name} would stand on {state.side(owner).name}'s {feature.name}"
    return None


def _judge_reveal(state: BattleState, side: str) -> tuple[str | None, str]:
    name = state.side(side).name
    if state.cursor.segment == "setup":
        return "a battle plan is revealed during the battle, not before it", ""
    if PLAN_REVEALED.of(state.side(side)):
        return f"{name}'s battle plan is revealed already", ""
    if not plan_of(state, side):
        return f"{name} wrote no battle plan to reveal", ""
    return None, f"reveals {name}'s battle plan to everyone as this step resolves"
