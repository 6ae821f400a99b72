"""Steps 2-4: each side's terrain roll, the feature chosen, where it stands."""

from __future__ import annotations

import math
from collections.abc import Sequence

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import Purpose, Roll
from rules_core.events import TestResolved
from rules_core.orders import Order, as_point, point_param
from rules_core.rulesets.impetus.prebattle.declared import (
    AUTO,
    ENEMY_TERRAIN,
    TERRAIN_FEATURE,
    TERRAIN_SPOT,
)
from rules_core.rulesets.impetus.prebattle.judging import centre_of, ep_of, feature_of, move_problem
from rules_core.rulesets.impetus.prebattle.pieces import (
    enemy_terrain,
    find_terrain,
    free_spot,
    outline,
    placement_problem,
    terrain_id,
    water_at,
)
from rules_core.rulesets.impetus.prebattle.reading import (
    exploration_points,
    facing_of,
    num,
    own_order,
    say,
    table_of,
)
from rules_core.rulesets.impetus.terrain_tables import (
    FEATURES,
    MOVE_ENEMY,
    NONE,
    REMOVE_ENEMY,
    TERRAIN_TABLES,
    Feature,
    choices,
)
from rules_core.state import BattleState, Point, TerrainFeature
from rules_core.tables import Band
from rules_core.terrain import feature_shape


def terrain(ctx: Context) -> None:
    """Steps 2 to 4 (the defender, the attacker, the defender again): the acting side rolls
    2D6 on its table, reaches the ordered feature with exploration points if it may, else
    chooses from the row, and places it."""
    side = ctx.side
    assert side is not None
    params = ctx.params
    name = ctx.state.side(side).name
    table_id = table_of(ctx.state, side, params)
    table = TERRAIN_TABLES[table_id]
    order = own_order(ctx, side, "place_terrain")
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
                ctx.set_side_status(
                    side,
                    f"{shift} spent: terrain score {roll.total} → {score}",
                    exploration_points=left,
                )
                band = table.lookup(score)
                say(
                    ctx,
                    TestResolved(
                        side, "Terrain table (exploration points)", score, False, band.row
                    ),
                )
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
    answer = ctx.ask(
        Decision(
            f"terrain_feature_{ctx.state.cursor.step}",
            f"{ctx.state.side(side).name} rolled {score} on the terrain table{wanted}: "
            "which feature?",
            options,
            default.key,
            side,
            topic=TERRAIN_FEATURE,
        )
    )
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
        _no_terrain(ctx, side, score, "None: no terrain placed")
        return
    if feature.key in (MOVE_ENEMY, REMOVE_ENEMY):
        _enemy_terrain(ctx, side, feature, order, score)
        return
    ordered = order is not None and str(order.params["feature"]) == feature.key
    facing = facing_of(order, 90.0) if order else 90.0
    at = point_param(order, "at") if order and "at" in order.params else None
    if at is None or placement_problem(ctx.state, side, feature, at, facing, ctx.params):
        at = _ask_spot(ctx, side, feature, facing, at, ordered, score)
    if at is None:
        _no_terrain(ctx, side, score, f"{feature.label}: no room left for it on the table")
        return
    points = outline(ctx.state, feature, at, facing, ctx.params)
    assert points is not None
    props: dict[str, Json] = {"placed_by": side, "feature": feature.key, "facing": facing}
    if feature.grade:
        props["grade"] = feature.grade
    if feature.size:
        props["size"] = feature.size
    if feature.linear:
        props["width"] = num(ctx.params, "road_width" if feature.kind == "road" else "river_width")
    assert feature.kind is not None
    # Named in full words; whose it is the log says here, and the map's key, not its label.
    piece = TerrainFeature(terrain_id(ctx.state), feature.kind, points, feature.words, props)
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
    words = f"Where does {ctx.state.side(side).name}'s {feature.label} go ({why})?"
    at = _spot_question(
        ctx, side, "terrain_spot", words, default, "the free spot nearest the one ordered"
    )
    problem = placement_problem(ctx.state, side, feature, at, facing, ctx.params)
    if problem:
        say(
            ctx,
            TestResolved(
                side,
                "Terrain spot",
                score,
                False,
                f"({at[0]:g}, {at[1]:g}) refused: {problem}; placed at "
                f"({default[0]:g}, {default[1]:g})",
            ),
        )
        return default
    return at


def _spot_question(
    ctx: Context, side: str, kind: str, words: str, default: Point, auto: str
) -> Point:
    """Ask the side where something goes (a point; ``auto``, the default spot, is the named
    answer a standing instruction gives) and read the answer as a point."""
    question = Decision(
        f"{kind}_{ctx.state.cursor.step}",
        words,
        (_auto_spot(default, auto),),
        f"{default[0]:g},{default[1]:g}",
        side,
        "point",
        topic=TERRAIN_SPOT,
    )
    return _spot_answer(question, ctx.ask(question), default)


def _auto_spot(default: Point, words: str) -> Option:
    """The named answer ``auto`` of a spot question: the rules' own spot, shown."""
    return Option(AUTO, f"{words}: ({default[0]:g}, {default[1]:g})")


def _spot_answer(question: Decision, answer: str, default: Point) -> Point:
    """A spot question's answer as a point: ``auto`` (a standing instruction's) is the
    default spot."""
    chosen = question.value(answer)
    if not isinstance(chosen, list):
        return default
    return as_point(chosen)


def _no_terrain(ctx: Context, side: str, score: int, why: str) -> None:
    """Say that the side's terrain roll places nothing, and why."""
    say(ctx, TestResolved(side, "Terrain chosen", score, False, why))


def _enemy_terrain(
    ctx: Context, side: str, feature: Feature, order: Order | None, score: int
) -> None:
    name = ctx.state.side(side).name
    theirs = enemy_terrain(ctx.state, side)
    if not theirs:
        _no_terrain(ctx, side, score, f"{feature.label}: the enemy has placed no terrain")
        return
    target = _enemy_target(ctx, side, feature, order, theirs)
    crossing = crossings_on(ctx.state, target)
    if feature.key == REMOVE_ENEMY:
        ctx.remove_terrain(target.id, f"removed by {name} (terrain table)")
        for piece in crossing:
            ctx.remove_terrain(piece.id, f"removed with {target.name}, the river it crossed")
        return
    at = _enemy_spot(ctx, side, target, order, score)
    if at is None:
        return
    facing = target.properties.get("facing", 90.0)
    turn = float(facing) if isinstance(facing, int | float) else 90.0
    points = outline(ctx.state, feature_of(target), at, turn, ctx.params)
    if points is None:
        return
    ctx.move_terrain(target.id, points, f"moved by {name} (terrain table)")
    shift = _shift_across(target.points, points)
    for piece in crossing:
        moved = [(round(x + shift[0], 3), round(y + shift[1], 3)) for x, y in piece.points]
        ctx.move_terrain(piece.id, moved, f"moved with {target.name}, the river it crosses")


def _enemy_target(
    ctx: Context, side: str, feature: Feature, order: Order | None, theirs: list[TerrainFeature]
) -> TerrainFeature:
    """The enemy piece the order names, else the one the side is asked for (the biggest)."""
    text = order.params.get("terrain") if order else None
    target = find_terrain(ctx.state, text) if isinstance(text, str) else None
    if target is not None and target in theirs:
        return target
    name = ctx.state.side(side).name
    biggest = max(theirs, key=lambda f: (feature_shape(f).area, f.id))
    verb = "move" if feature.key == MOVE_ENEMY else "remove"
    options = (
        Option(AUTO, f"the biggest ({biggest.name or biggest.id})"),
        *(Option(f.id, f.name or f.id) for f in theirs),
    )
    answer = ctx.ask(
        Decision(
            f"enemy_terrain_{ctx.state.cursor.step}",
            f"Which enemy terrain does {name} {verb}?",
            options,
            AUTO,
            side,
            topic=ENEMY_TERRAIN,
        )
    )
    return biggest if answer == AUTO else next(f for f in theirs if f.id == answer)


def _enemy_spot(
    ctx: Context, side: str, target: TerrainFeature, order: Order | None, score: int
) -> Point | None:
    """Where the enemy piece goes: the order's spot, else the one asked for; None (logged)
    when that spot is refused."""
    at = (
        point_param(order, "at")
        if order and "at" in order.params and order.params.get("terrain")
        else None
    )
    if at is not None and not move_problem(ctx.state, side, target, at, ctx.params):
        return at
    here = centre_of(target)
    words = f"Where does {ctx.state.side(side).name} move {target.name} (its centre)?"
    at = _spot_question(ctx, side, "enemy_spot", words, here, "where it stands")
    problem = move_problem(ctx.state, side, target, at, ctx.params)
    if problem:
        where = f"({at[0]:g}, {at[1]:g})"
        say(ctx, TestResolved(side, "Terrain moved", score, False, f"{where} refused: {problem}"))
        return None
    return at


def crossings_on(state: BattleState, river: TerrainFeature) -> list[TerrainFeature]:
    """The bridges and fords laid across ``river`` (none for any other piece): they go
    where it goes, or off the table with it."""
    if river.kind not in ("river", "stream"):
        return []
    return [
        f
        for f in state.terrain
        if f.kind in ("bridge", "ford")
        and (found := water_at(state, centre_of(f))) is not None
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
