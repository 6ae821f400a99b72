"""The pre-battle procedure, steps 1-10 (owned by wave-impC; this is wave-impA's placeholder).

Each function is the resolver of one set-up step of ``rules.SEQUENCE`` (``rules.SETUP_IDS``):

1. ``attacker``: both roll 2D6, +1 per two mounted units (not EL, W), rounded up; higher is
   the attacker (side status ``role``).
2. ``terrain_defender``, 3. ``terrain_attacker``, 4. ``terrain_defender_again``: the terrain
   tables, placing, exploration points.
5. ``baggage``: baggage and fortifications, defender first.
6. ``battle_plan``: the battle plans (secret).
7. ``deploy_roll``: the deployment roll and its re-rolls; the winner chooses who deploys first.
8. ``deploy_first``, 9. ``deploy_second``, 10. ``deploy_rest``: the commands deployed.

``subjects(name, state)`` lists the subjects of the set-up loops (``rules.SETUP_SUBJECTS``);
``ORDER_KINDS`` the side orders of the set-up and ``preview`` judges them.
The placeholder: the first side attacks, nothing is placed but the units, deployed in a line.
"""

from __future__ import annotations

from rules_core.context import Context
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict, point_param
from rules_core.state import RESERVE, BattleState
from rules_core.steps import Subject

ORDER_KINDS = (
    OrderKind("place_terrain", "Place terrain", "side", (Param("at", "point"),)),
    OrderKind("place_baggage", "Place baggage", "side", (Param("at", "point"),)),
    OrderKind("battle_plan", "Battle plan", "side", (Param("plan", "text"),)),
    OrderKind(
        "place", "Place", "side",
        (Param("unit", "unit"), Param("at", "point"), Param("facing", "number", required=False)),
        combines=True, limit=50,
    ),
)  # fmt: skip


# The order kinds each set-up step takes (read by ``rules.SEQUENCE``).
STEP_KINDS: dict[str, tuple[str, ...]] = {
    "terrain_defender": ("place_terrain",),
    "terrain_attacker": ("place_terrain",),
    "terrain_defender_again": ("place_terrain",),
    "baggage": ("place_baggage",),
    "battle_plan": ("battle_plan",),
    "deploy_first": ("place",),
    "deploy_second": ("place",),
    "deploy_rest": ("place",),
}


def subjects(name: str, state: BattleState) -> tuple[Subject, ...]:
    """Placeholder: every set-up loop runs for the sides in the side order."""
    return tuple(Subject(side, side) for side in state.cursor.side_order)


def preview(state: BattleState, order: Order) -> Verdict:
    """Placeholder: every set-up order is accepted as given."""
    if order.kind == "place" and state.unit(str(order.params["unit"])).side != order.actor:
        return Illegal(order, "not your unit")
    return Preview(order, f"{order.kind} at {point_param(order, 'at')}")


def attacker(ctx: Context) -> None:
    """Step 1 placeholder: the first side is the attacker."""
    first, second = ctx.state.cursor.side_order
    ctx.set_side_status(first, "attacks (placeholder)", role="attacker")
    ctx.set_side_status(second, "defends (placeholder)", role="defender")


def terrain_defender(ctx: Context) -> None:
    """Step 2 placeholder: no terrain."""


def terrain_attacker(ctx: Context) -> None:
    """Step 3 placeholder: no terrain."""


def terrain_defender_again(ctx: Context) -> None:
    """Step 4 placeholder: no terrain."""


def baggage(ctx: Context) -> None:
    """Step 5 placeholder: no baggage."""


def battle_plan(ctx: Context) -> None:
    """Step 6 placeholder: no battle plans."""


def deploy_roll(ctx: Context) -> None:
    """Step 7 placeholder: the first side deploys first."""
    ctx.set_battle_status(
        "deploys first (placeholder)", deploy_first=ctx.state.cursor.side_order[0]
    )


def deploy_first(ctx: Context) -> None:
    """Step 8 placeholder: the side's units go where its orders say, else in a line."""
    _deploy(ctx)


def deploy_second(ctx: Context) -> None:
    """Step 9 placeholder: as step 8."""
    _deploy(ctx)


def deploy_rest(ctx: Context) -> None:
    """Step 10 placeholder: as step 8."""
    _deploy(ctx)


def _deploy(ctx: Context) -> None:
    side = ctx.side
    if side is None:
        return
    rules = ctx.rules
    for order in ctx.orders:
        if order.kind == "place":
            unit = ctx.state.unit(str(order.params["unit"]))
            if unit.location == RESERVE:
                facing = rules.deployment_facing(ctx.state, side)
                ctx.place_from_reserve(unit.id, point_param(order, "at"), facing, "deployed")
    reserve = [u for u in ctx.state.units if u.side == side and u.location == RESERVE]
    zone = ctx.state.side(side).status.get("deploy_zone")
    if not reserve or not isinstance(zone, list):
        return
    y = (float(zone[0]) + float(zone[1])) / 2  # type: ignore[arg-type]
    width = ctx.state.battlefield.width
    for index, unit in enumerate(reserve):
        x = width * (index + 1) / (len(reserve) + 1)
        facing = rules.deployment_facing(ctx.state, side)
        ctx.place_from_reserve(unit.id, (x, y), facing, "deployed in line (placeholder)")
