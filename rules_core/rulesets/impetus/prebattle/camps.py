"""Step 5: each side's baggage camp and fortifications, defender first."""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.orders import Preview, point_param
from rules_core.rulesets.impetus.prebattle.judging import camp_outline
from rules_core.rulesets.impetus.prebattle.pieces import terrain_id
from rules_core.rulesets.impetus.prebattle.reading import facing_of, fortification_limit, own_order
from rules_core.state import BattleState, Point, TerrainFeature
from rules_core.terrain_pieces import PIECE, PIECES, words_for


def baggage(ctx: Context) -> None:
    """The side places its baggage camp (ordered, else the middle of its zone's back) and
    its fortifications (at most ``fortification_pieces``)."""
    side = ctx.side
    assert side is not None
    name = ctx.state.side(side).name
    rules = ctx.rules
    facing = rules.deployment_facing(ctx.state, side)
    order = own_order(ctx, side, "place_baggage")
    at = point_param(order, "at") if order else _camp_default(ctx, side)
    facing = facing_of(order, facing) if order else facing
    outline_ = camp_outline("place_baggage", at, facing, ctx.params)
    camp = TerrainFeature(
        terrain_id(ctx.state),
        PIECES["baggage"],
        outline_,
        words_for("baggage"),
        {"placed_by": "baggage", "baggage": side, PIECE: "baggage"},
    )
    ctx.add_terrain(camp, f"{name}'s baggage camp")
    placed: list[Json] = [{"baggage": [at[0], at[1]]}]
    limit = fortification_limit(ctx.state, side, ctx.params)
    forts = [
        o
        for o in ctx.orders
        if o.kind == "fortify"
        and o.actor == side
        and isinstance(rules.judge(ctx.state, o), Preview)
    ][:limit]
    for fort in forts:
        spot = point_param(fort, "at")
        piece = fortification_piece(ctx.state, side, spot, facing_of(fort, facing), ctx.params)
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
    return TerrainFeature(
        terrain_id(state), "fortification", outline_, words_for("fortification"), props
    )


def _camp_default(ctx: Context, side: str) -> Point:
    zone = ctx.rules.deployment_zone(ctx.state, side)
    if zone is None:
        return (ctx.state.battlefield.width / 2, 2.0)
    xs, ys = [p[0] for p in zone], [p[1] for p in zone]
    back = min(ys) + 1.0 if sum(ys) / len(ys) < ctx.state.battlefield.depth / 2 else max(ys) - 1.0
    return ((min(xs) + max(xs)) / 2, back)
