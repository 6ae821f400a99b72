"""Muster: sides pick a stance, wings a posture, generals act twice, units march twice."""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.rulesets.muster.status import (
    CRY,
    INSPIRED,
    MARCHES,
    POSTURE,
    RALLIED,
    STANCE,
    STATUSES,
)

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.orders import Order, OrderKind, Param, Preview, Verdict, path_param, point_param
from rules_core.plugin import Parameter, Rules
from rules_core.state import BattleState, Group, Leader, Outcome, Unit
from rules_core.steps import Actors, SequenceOfPlay, Step
from rules_core.toolkit import checked_orders, turn_limit_outcome

SEQUENCE = SequenceOfPlay(
    (
        Step("deploy", "Deployment", Actors.BOTH, "deploy", None, ("place",)),
        Step("council", "Council", Actors.BOTH, "council", "march",
             ("stance", "posture", "inspire", "rally")),
        Step("march", "March", Actors.BOTH, "march", "parley", ("march", "route", "hold")),
        Step("parley", "Parley", Actors.NOBODY, "parley"),
    ),
    first="council",
    setup="deploy",
)  # fmt: skip

OMENS = 30  # more than fit on buttons: the question is asked with select menus

ORDER_KINDS = (
    OrderKind("place", "Deploy", params=(Param("at", "point"),)),
    OrderKind("stance", "Stance", "side", (Param("stance", "choice", choices=("bold", "wary")),)),
    OrderKind(
        "posture", "Posture", "group",
        (Param("posture", "choice", choices=("attack", "hold", "withdraw")),),
    ),
    OrderKind(
        "inspire", "Inspire", "leader",
        (Param("unit", "unit"), Param("cry", "text", required=False)),
        combines=True, limit=2,
    ),
    OrderKind("rally", "Rally", "leader", (Param("group", "group"),), combines=True),
    OrderKind("march", "March", params=(Param("to", "point"),), combines=True, limit=2),
    OrderKind("route", "Route", params=(Param("via", "path"),)),
    OrderKind("hold", "Hold"),
)  # fmt: skip

ARMIES = (
    {"name": "Red Muster", "units": [
        {"name": "Red Pikes", "type": "foot", "wing": "left"},
        {"name": "Red Horse", "type": "horse", "wing": "right"}]},
    {"name": "Blue Muster", "units": [
        {"name": "Blue Axes", "type": "foot", "wing": "left"},
        {"name": "Blue Horse", "type": "horse", "wing": "right"}]},
)  # fmt: skip


class MusterRules(Rules):
    """Every actor kind gives orders; leaders and units give several per step."""

    sequence = SEQUENCE
    order_kinds = ORDER_KINDS
    parameters = (Parameter("max_turns", 2, "turns before a draw"),)
    statuses = STATUSES

    def unit_from_roster(
        self, entry: Mapping[str, Json], unit_id: str, side: str, group: str
    ) -> Unit:
        """A unit in the wing its roster entry names."""
        wing = entry.get("wing")
        return super().unit_from_roster(entry, unit_id, side, f"{side}_{wing}" if wing else group)

    def forces_from_roster(
        self, roster: Mapping[str, Json], side: str
    ) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
        """Two wings and a general for every side."""
        wings = tuple(Group(f"{side}_{w}", f"{w.title()} wing {side}", side, "wing")
                      for w in ("left", "right"))  # fmt: skip
        return wings, (Leader(f"{side}_general", f"General {side}", side, None, 0.0, 0.0),)

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """What the order does, in a few words."""
        params = order.params
        if order.kind in ("march", "place"):
            x, y = point_param(order, "to" if order.kind == "march" else "at")
            return Preview(order, f"{order.kind}es to ({x:g}, {y:g})")
        if order.kind == "route":
            return Preview(order, f"marches by {len(path_param(order, 'via'))} points")
        if order.kind == "inspire":
            return Preview(order, f"inspires {state.unit(str(params['unit'])).name}")
        if order.kind == "rally":
            return Preview(order, f"rallies {state.group(str(params['group'])).name}")
        value = next(iter(params.values()), order.kind)
        return Preview(order, f"{order.kind}: {value}")

    def default_order(self, state: BattleState, actor: str) -> Order | None:
        """Sides stay wary, wings hold, units hold; leaders do nothing."""
        step = state.cursor.step
        if step == "council" and state.owner("side", actor):
            return Order(actor, "stance", {"stance": "wary"})
        if step == "council" and state.owner("group", actor):
            return Order(actor, "posture", {"posture": "hold"})
        if step == "march" and state.owner("unit", actor):
            return Order(actor, "hold")
        return None

    def sample_armies(self) -> tuple[Mapping[str, Json], ...]:
        """Two small musters."""
        return ARMIES

    def resolve_deploy(self, ctx: Context) -> None:
        """Units go where their players placed them."""
        for order in checked_orders(ctx, ("place",)):
            unit = ctx.state.unit(order.actor)
            ctx.move(unit.id, [(unit.x, unit.y), point_param(order, "at")], unit.facing)

    def resolve_council(self, ctx: Context) -> None:
        """Stances, postures, then each general's actions in the order given."""
        for order in checked_orders(ctx, ("stance", "posture", "inspire", "rally")):
            params = order.params
            if order.kind == "stance":
                ctx.set_side_status(order.actor, "stance chosen", stance=params["stance"])
            elif order.kind == "posture":
                ctx.set_group_status(order.actor, "posture set", posture=params["posture"])
            elif order.kind == "rally":
                ctx.set_group_status(str(params["group"]), "rallied", rallied=True)
            else:
                self._inspire(ctx, order)

    def _inspire(self, ctx: Context, order: Order) -> None:
        """A general inspires a unit; a battle cry is heard by the whole side."""
        unit = ctx.state.unit(str(order.params["unit"]))
        ctx.set_status(unit.id, "inspired", inspired=INSPIRED.of(unit) + 1)
        if order.params.get("cry"):
            side = ctx.state.side(unit.side)
            ctx.set_side_status(side.id, str(order.params["cry"]), cries=CRY.of(side) + 1)

    def resolve_march(self, ctx: Context) -> None:
        """Each march and route in the order given."""
        for order in checked_orders(ctx, ("march", "route")):
            unit = ctx.state.unit(order.actor)
            if order.kind == "march":
                path = [(unit.x, unit.y), point_param(order, "to")]
            else:
                path = [(unit.x, unit.y), *path_param(order, "via")]
            ctx.move(unit.id, path, unit.facing)
            ctx.set_status(unit.id, None, marches=MARCHES.of(ctx.state.unit(unit.id)) + 1)

    def resolve_parley(self, ctx: Context) -> None:
        """Seven questions, every answer kind, put to the sides; two of them at once."""
        red, blue = (side.id for side in ctx.state.sides)
        omens = tuple(Option(f"omen_{n}", f"Omen {n}") for n in range(1, OMENS + 1))
        omen = ctx.ask(Decision("omen", "Which omen do the priests read?", omens, "omen_1", red))
        ctx.set_side_status(red, "omen read", omen=omen)
        champions = tuple(Option(u.id, u.name) for u in ctx.state.units_of(blue))
        asked = Decision("champion", "Who stands champion?", champions, champions[0].id, blue,
                         "unit")  # fmt: skip
        banners = (Option("raise", "Raise the banner"), Option("furl", "Furl it"))
        banner = Decision("banner", "Is the banner raised?", banners, "raise", red)
        champion, raised = ctx.ask_all([asked, banner])  # both open at once, in any order
        ctx.set_status(champion, "named champion", champion=True)
        ctx.set_side_status(red, "banner", banner=raised)
        asked = Decision("herald", "Where does the herald stand?", (), "24,18", red, "point")
        x, y = asked.value(ctx.ask(asked))  # type: ignore[misc]
        ctx.set_side_status(red, "herald placed", herald=f"{x:g},{y:g}")
        asked = Decision("wager", "How much do you wager?", (), "3", blue, "number", 1, 6)
        wager = asked.value(ctx.ask(asked))
        assert isinstance(wager, float)
        ctx.set_side_status(blue, "wager laid", wager=int(wager))
        first = ctx.state.units_of(red)[0]
        asked = Decision("turn", f"Which way does {first.name} face?", (), "0", red, "facing")
        facing = asked.value(ctx.ask(asked))
        assert isinstance(facing, float)
        ctx.move(first.id, [(first.x, first.y)], facing)
        envoys = tuple(Option(ld.id, ld.name) for ld in ctx.state.leaders)
        asked = Decision("envoy", "Who goes as envoy?", envoys, envoys[0].id, blue, "leader")
        ctx.set_side_status(blue, "envoy sent", envoy=ctx.ask(asked))

    def outcome(self, state: BattleState) -> Outcome | None:
        """A draw after ``max_turns``."""
        return super().outcome(state) or turn_limit_outcome(self, state)


__all__ = ["POSTURE", "RALLIED", "STANCE", "MusterRules"]
