"""Vanguard: terrain rolled and placed by the sides, alternate deployment, activations."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from rules_core.rulesets.vanguard.status import MOVES, PASSED, STATUSES

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict, point_param
from rules_core.plugin import Parameter, Rules
from rules_core.state import (
    ON_TABLE,
    RESERVE,
    BattleState,
    Group,
    Leader,
    Outcome,
    TerrainFeature,
    Unit,
)
from rules_core.steps import Actors, SequenceOfPlay, Step, Subject
from rules_core.tables import Band, ScoreTable
from rules_core.toolkit import turn_limit_outcome

SEQUENCE = SequenceOfPlay(
    (
        Step("terrain", "Terrain", Actors.ACTIVE, "terrain", "deploy", ("place_terrain",),
             repeat_for="sides", until="terrain"),
        Step("deploy", "Deployment", Actors.ACTIVE, "deploy", None, ("place",),
             repeat_for="sides", until="deploy"),
        Step("initiative", "Initiative", Actors.NOBODY, "initiative"),
        Step("activate", "Activation", Actors.NOBODY, "activate", "move",
             repeat_for="commands", until="move"),
        Step("move", "Move", Actors.ACTIVE, "move", None, ("move", "leave", "return", "halt")),
    ),
    first="activate",
    setup="terrain",
    turn_start="initiative",
)  # fmt: skip

MOVES_PER_ACTIVATION = 2
MOVE_DISTANCE = 6.0  # inches in one move
EDGE_DISTANCE = 4.0  # a unit whose centre is this close to an edge may leave the table
RETURN_DISTANCE = 6.0  # a unit comes back within this distance of where it left
PASS_ON = 2  # an activation roll of this or less passes the initiative (once a turn)
TERRAIN_SIZE = (8.0, 4.0)  # width and depth of a piece of terrain

TERRAIN = ScoreTable(
    "Terrain",
    (
        Band(1, 2, "wood", "a wood"),
        Band(3, 4, "hill", "a hill"),
        Band(5, 5, "rough", "rough ground"),
        Band(6, 6, "marsh", "a marsh"),
    ),
)

ORDER_KINDS = (
    OrderKind("place_terrain", "Place terrain", "side", (Param("at", "point"),)),
    OrderKind("place", "Place", "side", (Param("unit", "unit"), Param("at", "point"),
                                         Param("facing", "number", required=False))),
    OrderKind("move", "Move", params=(Param("to", "point"),)),
    OrderKind("leave", "Leave the table"),
    OrderKind("return", "Return", params=(Param("at", "point"),)),
    OrderKind("halt", "Halt"),
)  # fmt: skip

ARMIES = (
    {"name": "Red Vanguard", "units": [
        {"name": "Red Foot", "type": "foot", "command": "van"},
        {"name": "Red Horse", "type": "horse", "command": "rear"}]},
    {"name": "Blue Vanguard", "units": [
        {"name": "Blue Foot", "type": "foot", "command": "van"},
        {"name": "Blue Horse", "type": "horse", "command": "rear"}]},
)  # fmt: skip

# Where the scripted players put things: terrain per side, units by name.
SCRIPT_TERRAIN = {0: (14.0, 18.0), 1: (34.0, 18.0)}
SCRIPT_PLACES = {"Red Foot": (12.0, 6.0), "Red Horse": (44.0, 6.0),
                 "Blue Foot": (12.0, 30.0), "Blue Horse": (30.0, 30.0)}  # fmt: skip


class VanguardRules(Rules):
    """A ruleset that sets the table up itself and activates commands during the turn."""

    sequence = SEQUENCE
    order_kinds = ORDER_KINDS
    parameters = (Parameter("max_turns", 2, "turns before a draw"),)
    tables = {"terrain": TERRAIN}
    statuses = STATUSES
    sides = (2, 2)
    setup_in_rules = True
    off_table_orders = frozenset({"return"})

    # -- set-up ---------------------------------------------------------------------------

    def unit_from_roster(
        self, entry: Mapping[str, Json], unit_id: str, side: str, group: str
    ) -> Unit:
        """A unit in the command its roster entry names."""
        command = entry.get("command")
        return super().unit_from_roster(
            entry, unit_id, side, f"{side}_{command}" if command else group
        )

    def forces_from_roster(
        self, roster: Mapping[str, Json], side: str
    ) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
        """Two commands for every side: the van and the rear."""
        army = str(roster.get("name", side)).split()[0]  # "Red" of "Red Vanguard"
        return tuple(
            Group(f"{side}_{c}", f"{army} {c}", side, "command") for c in ("van", "rear")
        ), ()

    def sample_armies(self) -> tuple[Mapping[str, Json], ...]:
        """Two small vanguards."""
        return ARMIES

    def subjects(self, name: str, state: BattleState) -> tuple[Subject, ...]:
        """Commands with units on the table, the sides taking turns in the side order."""
        if name != "commands":
            return super().subjects(name, state)
        rank = {side: n for n, side in enumerate(state.cursor.side_order)}
        groups = [g for g in state.groups if g.kind == "command" and _has_units(state, g.id)]
        ordered = sorted(groups, key=lambda g: (_index_in_side(state, g), rank.get(g.side, 9)))
        return tuple(Subject(g.id, g.side) for g in ordered)

    def resolve_terrain(self, ctx: Context) -> None:
        """The side rolls on the terrain table and places what it rolled where it said."""
        side = ctx.side
        assert side is not None
        order = next((o for o in ctx.orders if o.kind == "place_terrain"), None)
        at = point_param(order, "at") if order else _middle(ctx.state, side)
        roll = ctx.dice.roll(f"Terrain for {ctx.state.side(side).name}", 1)
        band = ctx.test(side, "terrain", roll, TERRAIN, ())
        width, depth = TERRAIN_SIZE
        x, y = at
        points = ((x - width / 2, y - depth / 2), (x + width / 2, y - depth / 2),
                  (x + width / 2, y + depth / 2), (x - width / 2, y + depth / 2))  # fmt: skip
        feature_id = f"t{len(ctx.state.terrain) + 1}"
        feature = TerrainFeature(feature_id, band.result, points, band.text.capitalize())
        ctx.add_terrain(feature, f"rolled {band.text} for {ctx.state.side(side).name}")

    def resolve_deploy(self, ctx: Context) -> None:
        """The side places one unit from its reserve; the sides take turns while any is left."""
        side = ctx.side
        assert side is not None
        name = ctx.state.side(side).name
        for order in ctx.orders:
            if order.kind == "place":
                unit = ctx.state.unit(str(order.params["unit"]))
                facing = order.params.get("facing")
                turn = float(facing) if isinstance(facing, int | float) else None
                turn = self.deployment_facing(ctx.state, side) if turn is None else turn
                ctx.place_from_reserve(unit.id, point_param(order, "at"), turn, f"placed by {name}")
        if ctx.upcoming:
            return
        waiting = [s for s in _after(ctx.state, side) if _reserve(ctx.state, s)]
        if waiting:
            ctx.set_subjects([Subject(s, s) for s in waiting], "deployment goes on")

    def setup_complete(self, ctx: Context) -> None:
        """Set-up is over: the battle is ready."""
        ctx.set_battle_status("set-up complete", ready=True)

    # -- the turn ---------------------------------------------------------------------------

    def resolve_initiative(self, ctx: Context) -> None:
        """Both sides roll; the higher goes first (ties: the order stays); passes are reset."""
        first, second = ctx.state.cursor.side_order
        one = ctx.dice.roll(f"Initiative of {ctx.state.side(first).name}", 1)
        two = ctx.dice.roll(f"Initiative of {ctx.state.side(second).name}", 1)
        if two.total > one.total:
            ctx.set_side_order((second, first), "won the initiative")
        for group in ctx.state.groups:
            if PASSED.of(group):
                ctx.set_group_status(group.id, None, passed=False)

    def resolve_activate(self, ctx: Context) -> None:
        """The command rolls to activate; a low roll passes the initiative once a turn."""
        subject = ctx.subject
        assert subject is not None
        group = ctx.state.group(subject.id)
        ctx.set_group_status(group.id, None, moves=0)
        roll = ctx.dice.roll(f"Activation of {group.name}", 1)
        if roll.total <= PASS_ON and not PASSED.of(group):
            ctx.set_group_status(group.id, "passes the initiative", passed=True)
            ctx.insert_subject(subject, f"{group.name} passes", len(ctx.upcoming))
            ctx.end_iteration()

    def resolve_move(self, ctx: Context) -> None:
        """Each unit's move; the command may move again until it has moved twice or halts."""
        subject = ctx.subject
        assert subject is not None
        moved = False
        for order in ctx.orders:
            if isinstance(self.judge(ctx.state, order), Illegal):
                continue
            unit = ctx.state.unit(order.actor)
            if order.kind == "move":
                ctx.move(unit.id, [(unit.x, unit.y), point_param(order, "to")], unit.facing)
            elif order.kind == "leave":
                ctx.take_off_table(unit.id, "rides off the table")
            elif order.kind == "return":
                ctx.return_to_table(unit.id, point_param(order, "at"), unit.facing, "rides back")
            moved = moved or order.kind != "halt"
        if not moved:
            return
        group = ctx.state.group(subject.id)
        ctx.set_group_status(group.id, None, moves=MOVES.of(group) + 1)
        if MOVES.of(ctx.state.group(group.id)) < MOVES_PER_ACTIVATION:
            ctx.again()

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """Each order checked against the step: whose unit, where it goes."""
        problem = self._problem(state, order)
        if problem:
            return Illegal(order, problem)
        if order.kind == "place":
            unit = state.unit(str(order.params["unit"]))
            x, y = point_param(order, "at")
            return Preview(order, f"places {unit.name} at ({x:g}, {y:g})")
        if order.kind in ("place_terrain", "move", "return"):
            x, y = point_param(order, "to" if order.kind == "move" else "at")
            verb = {"place_terrain": "places terrain", "move": "moves", "return": "returns"}
            return Preview(order, f"{verb[order.kind]} at ({x:g}, {y:g})")
        return Preview(order, {"leave": "leaves the table", "halt": "halts"}[order.kind])

    def _problem(self, state: BattleState, order: Order) -> str | None:
        if order.kind == "place_terrain":
            x, y = point_param(order, "at")
            third = state.battlefield.depth / 3
            if not (4 <= x <= state.battlefield.width - 4 and third <= y <= 2 * third):
                return 'terrain goes in the middle third of the table, 4" from the sides'
            return None
        if order.kind == "place":
            return self._place_problem(state, order)
        unit = state.unit(order.actor)
        subject = state.cursor.subject
        if subject is None or unit.group != subject.id:
            return f"{unit.name} is not in the command activating now"
        if order.kind == "return":
            if unit.location != "off":
                return f"{unit.name} is not off the table"
            at = point_param(order, "at")
            if unit.left_at is None or math.dist(unit.left_at, at) > RETURN_DISTANCE:
                return f'{unit.name} comes back within {RETURN_DISTANCE:g}" of where it left'
            return None
        if unit.location != ON_TABLE:
            return f"{unit.name} is not on the table"
        if order.kind == "move":
            x, y = point_param(order, "to")
            if math.dist((unit.x, unit.y), (x, y)) > MOVE_DISTANCE:
                return f'a move is at most {MOVE_DISTANCE:g}"'
        if order.kind == "leave" and _edge_gap(state, unit) > EDGE_DISTANCE:
            return f'{unit.name} is more than {EDGE_DISTANCE:g}" from every edge'
        return None

    def _place_problem(self, state: BattleState, order: Order) -> str | None:
        try:
            unit = state.unit(str(order.params["unit"]))
        except KeyError:
            return "there is no such unit"
        if unit.side != order.actor:
            return f"{unit.name} is not {state.side(order.actor).name}'s"
        if unit.location != RESERVE:
            return f"{unit.name} is not in reserve"
        x, y = point_param(order, "at")
        placed = replace(unit, x=x, y=y, location=ON_TABLE,
                         facing=self.deployment_facing(state, unit.side))  # fmt: skip
        found = self.deployment_problem(state, placed)
        if found is not None:
            other = f" {found.other.name}" if found.other is not None else ""
            return f"{unit.name} {found.reason}{other}"
        return None

    def default_order(self, state: BattleState, actor: str) -> Order | None:
        """A side that gives no place order places its next reserve unit at a free spot."""
        if state.cursor.step != "deploy" or state.owner("side", actor) != actor:
            return None
        return next(iter(self._default_places(state, actor)), None)

    def _default_places(self, state: BattleState, side: str) -> list[Order]:
        reserve = _reserve(state, side)
        if not reserve:
            return []
        zone = state.side(side).status.get("deploy_zone")
        assert isinstance(zone, list)
        y = (float(zone[0]) + float(zone[1])) / 2  # type: ignore[arg-type]
        for x in range(4, int(state.battlefield.width) - 3, 4):
            order = Order(side, "place", {"unit": reserve[0].id, "at": [float(x), y]})
            if self._place_problem(state, order) is None:
                return [order]
        return []

    def demo_orders(self, state: BattleState, side: str) -> list[Order]:
        """The scripted players: terrain and units where the script says; the van marches, the
        red horse rides off the table on turn 1 and back on turn 2."""
        step = state.cursor.step
        if step == "terrain":
            index = [s.id for s in state.sides].index(side)
            return [Order(side, "place_terrain", {"at": list(SCRIPT_TERRAIN[index])})]
        if step == "deploy":
            reserve = _reserve(state, side)
            if not reserve:
                return []
            at = SCRIPT_PLACES.get(reserve[0].name)
            if at is None:
                return self._default_places(state, side)
            return [Order(side, "place", {"unit": reserve[0].id, "at": list(at)})]
        if step != "move" or state.cursor.subject is None:
            return []
        orders = []
        for unit in state.units:
            if unit.group != state.cursor.subject.id:
                continue
            if unit.location == "off" and unit.left_at is not None:
                if state.cursor.turn >= 2:
                    x, y = unit.left_at
                    orders.append(Order(unit.id, "return", {"at": [x + 2, y + 4]}))
            elif unit.name == "Red Horse" and state.cursor.turn == 1:
                orders.append(Order(unit.id, "leave"))
            elif unit.location == ON_TABLE and state.cursor.again == 0:
                step_y = 3.0 if unit.facing == 0 else -3.0
                orders.append(Order(unit.id, "move", {"to": [unit.x, unit.y + step_y]}))
            else:
                orders.append(Order(unit.id, "halt"))
        return [o for o in orders if self.legal(state, o) is not None]

    def outcome(self, state: BattleState) -> Outcome | None:
        """A draw after ``max_turns`` (no army breaks while its units are in reserve)."""
        return turn_limit_outcome(self, state)


def _reserve(state: BattleState, side: str) -> list[Unit]:
    return [u for u in state.units if u.side == side and u.location == RESERVE]


def _has_units(state: BattleState, group_id: str) -> bool:
    return any(u.group == group_id and u.location != RESERVE for u in state.units)


def _index_in_side(state: BattleState, group: Group) -> int:
    return [g.id for g in state.groups if g.side == group.side].index(group.id)


def _after(state: BattleState, side: str) -> list[str]:
    """Every side, starting with the one after ``side`` in the side order."""
    order = list(state.cursor.side_order)
    start = order.index(side) + 1
    return order[start:] + order[:start]


def _middle(state: BattleState, side: str) -> tuple[float, float]:
    index = [s.id for s in state.sides].index(side)
    return ((index + 1) * state.battlefield.width / 3, state.battlefield.depth / 2)


def _edge_gap(state: BattleState, unit: Unit) -> float:
    table = state.battlefield
    return min(unit.x, table.width - unit.x, unit.y, table.depth - unit.y)
