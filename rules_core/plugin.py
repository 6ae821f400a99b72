"""The ruleset plugin: the hooks a ruleset overrides, and the context its resolvers work in.

A ruleset subclasses ``Rules`` (as a python-chess variant subclasses ``Board``), declares its
sequence of play, order kinds, parameters and tables as class attributes, and writes one
``resolve_<name>`` method for each resolver its steps name. Everything else has a default.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields
from functools import wraps
from operator import attrgetter
from typing import TYPE_CHECKING, ClassVar, ParamSpec, TypeVar

from shapely.geometry import Polygon

from rules_core import far
from rules_core.codec import Json, number_or
from rules_core.general_hints import GeneralHints
from rules_core.geometry import Footprint, overlap_area
from rules_core.hooks import DemoHooks, RosterHooks
from rules_core.odds import Odds, OddsQuery, Refused
from rules_core.orders import (
    Illegal,
    Instead,
    Order,
    OrderKind,
    Preview,
    Verdict,
    another_step,
    condition,
    joined,
)
from rules_core.standing import Recommended, Topic
from rules_core.state import (
    OFF_TABLE,
    RESERVE,
    Battlefield,
    BattleState,
    Group,
    Leader,
    Outcome,
    Point,
    Side,
    Unit,
)
from rules_core.status import StatusSheet
from rules_core.steps import Actors, Cursor, SequenceOfPlay, Step, Subject, active_side
from rules_core.tables import GridTable, ScoreTable
from rules_core.terrain_tables import TerrainTable
from rules_core.toolkit import zone_words
from rules_core.zone_fit import explained

if TYPE_CHECKING:
    from rules_core.context import Context

Table = ScoreTable | GridTable
P = ParamSpec("P")
R = TypeVar("R")


class JudgedCache:
    """Verdicts of recently judged states, so that the same order on the same state is judged
    once.

    Used only inside ``kept()``, which the engine enters while it resolves a step: a verdict
    also reads the ruleset's tables, which never change in play but may in a test.

    A state is recognised by the identity of each of its fields (a state rebuilt with
    ``replace`` shares them), an order by its ``repr`` (its exact content). Each entry holds
    the rules and every field it was keyed on, so no id in a key can be reused by another
    object while the entry lives; states are immutable, so a kept verdict is the one a fresh
    judgement would give. Safe to share between threads.
    """

    def __init__(self, states: int = 16) -> None:
        self._states = states
        self._kept: OrderedDict[tuple[int, ...], tuple[object, dict[str, Verdict]]] = OrderedDict()
        self._lock = threading.Lock()

    def active(self) -> bool:
        """Whether kept verdicts are used here (inside ``kept()``)."""
        return _KEEPING.get()

    @contextmanager
    def kept(self) -> Iterator[None]:
        """Use kept verdicts (and keep new ones) inside this block, in this thread or task."""
        token = _KEEPING.set(True)
        try:
            yield
        finally:
            _KEEPING.reset(token)

    def keeping(self, function: Callable[P, R]) -> Callable[P, R]:
        """``function`` run inside ``kept()``."""

        @wraps(function)
        def kept(*args: P.args, **kwargs: P.kwargs) -> R:
            with self.kept():
                return function(*args, **kwargs)

        return kept

    def verdict(
        self,
        rules: Rules,
        state: BattleState,
        order: Order,
        judge: Callable[[BattleState, Order], Verdict],
    ) -> Verdict:
        """The verdict on ``order``, judged by ``judge`` unless this state already had it."""
        parts = (rules, *_STATE_PARTS(state))
        key = tuple(map(id, parts))
        wording = repr(order)
        with self._lock:
            entry = self._kept.get(key)
            if entry is not None:
                self._kept.move_to_end(key)
                found = entry[1].get(wording)
                if found is not None:
                    return found
        verdict = judge(state, order)
        with self._lock:
            entry = self._kept.get(key)
            if entry is None:
                entry = self._kept[key] = (parts, {})
                while len(self._kept) > self._states:
                    self._kept.popitem(last=False)
            entry[1][wording] = verdict
        return verdict

    def clear(self) -> None:
        """Forget every kept verdict."""
        with self._lock:
            self._kept.clear()


_KEEPING: ContextVar[bool] = ContextVar("judged_kept", default=False)
# Every field of a state, read at once (a verdict's key is their identities).
_STATE_PARTS = attrgetter(*(f.name for f in fields(BattleState)))
JUDGED = JudgedCache()


def needed_words(kind: OrderKind) -> str:
    """What an order of a kind must be given: its required parameters and what each is."""
    shown = ", ".join(f"`{p.name}` ({p.kind})" for p in kind.params if p.required)
    return f"give {shown}" if shown else "give it without parameters"


def wrong_step_reason(kind: str, title: str, accepted: Sequence[str]) -> str:
    """Why an order of ``kind`` is refused at a step, naming the orders the step does take."""
    if not accepted:
        return f"{kind} orders are not given in the {title} step; it takes no orders"
    shown = accepted[0] if len(accepted) == 1 else ", ".join(accepted[:-1]) + f" or {accepted[-1]}"
    return f"{kind} orders are not given in the {title} step; it takes only {shown}"


ROSTER_KEYS = frozenset({"name", "type", "grade", "quality", "stands", "frontage", "depth"})


@dataclass(frozen=True)
class Misplaced:
    """Why a unit may not deploy where it was put: the words that follow its name, then the
    unit in its way, if any ("would overlap" Red Archers)."""

    reason: str
    other: Unit | None = None


@dataclass(frozen=True)
class Parameter:
    """A number or setting of the rules that a campaign may override, and where it comes from."""

    name: str
    default: Json
    description: str
    source: str = ""


class Rules:
    """Base of every ruleset's rules; override the hooks below."""

    sequence: ClassVar[SequenceOfPlay]
    order_kinds: ClassVar[tuple[OrderKind, ...]] = ()
    parameters: ClassVar[tuple[Parameter, ...]] = ()
    tables: ClassVar[Mapping[str, Table]] = {}
    statuses: ClassVar[StatusSheet] = StatusSheet()  # every status key the rules keep
    topics: ClassVar[tuple[Topic, ...]] = ()  # recurring questions standing instructions answer
    # The standing instructions an experienced player would set (``/standing recommended``);
    # none by default.
    recommended: ClassVar[tuple[Recommended, ...]] = ()
    # A kind of ground in the ruleset's own words where they differ from ``terrain_pieces.WORDS``
    # (Impetus: "rough" is the sheet's "broken ground"), so a map's key and labels agree.
    terrain_words: ClassVar[Mapping[str, str]] = {}
    # Order kinds a unit in reserve or off the table may be given (deploy, come back); every
    # other unit order is refused while it is not on the table.
    off_table_orders: ClassVar[frozenset[str]] = frozenset()
    # Step ids and question topics whose stops the pace report counts apart (personal combats).
    pace_apart: ClassVar[frozenset[str]] = frozenset()
    # The functions the roster hooks below call; None: the defaults written in them.
    roster_hooks: ClassVar[RosterHooks | None] = None
    demo_hooks: ClassVar[DemoHooks] = DemoHooks()  # likewise for the demo and the odds
    general: ClassVar[GeneralHints] = GeneralHints()  # the AI general's hints (#36)

    def __init__(self) -> None:
        for step in self.sequence.steps:
            if (
                isinstance(step.resolver, str)
                and step.resolver
                and not hasattr(self, f"resolve_{step.resolver}")
            ):
                raise TypeError(f"{type(self).__name__} has no resolve_{step.resolver}")
            for kind in step.order_kinds:
                self.order_kind(kind)

    # -- declared data -------------------------------------------------------------------

    def order_kind(self, kind_id: str) -> OrderKind:
        """The order kind with this id; KeyError if the ruleset has none."""
        for kind in self.order_kinds:
            if kind.id == kind_id:
                return kind
        raise KeyError(f"no order kind {kind_id!r}")

    def sealed_params(self) -> dict[str, frozenset[str]]:
        """The sealed parameters of each order kind that has any: {kind id: names}."""
        found = {k.id: frozenset(p.name for p in k.params if p.sealed) for k in self.order_kinds}
        return {kind: names for kind, names in found.items() if names}

    def parameter_values(self, overrides: Mapping[str, Json] = {}) -> dict[str, Json]:
        """Every parameter's value: the defaults with a campaign's overrides applied."""
        values = {parameter.name: parameter.default for parameter in self.parameters}
        unknown = sorted(set(overrides) - set(values))
        if unknown:
            raise KeyError(f"unknown parameters: {', '.join(unknown)}")
        return {**values, **overrides}

    def command_kinds(self) -> tuple[str, ...]:
        """The order kinds a player picks by name when giving a leader a command; by default
        every order a leader gives."""
        return tuple(kind.id for kind in self.order_kinds if kind.actor == "leader")

    def resolver(self, step: Step) -> Callable[[Context], None]:
        """The function that resolves a step: the one it names, else the rules' method."""
        if not isinstance(step.resolver, str):
            return step.resolver
        found: Callable[[Context], None] = getattr(self, f"resolve_{step.resolver}")
        return found

    # -- setting up a battle -------------------------------------------------------------

    sides: ClassVar[tuple[int, int]] = (2, 8)  # how many sides a battle takes: (min, max)
    # Whether the ruleset sets the table up itself: the battle starts with every unit in
    # reserve, units and terrain are placed by orders in its ``setup`` steps, and
    # ``setup_complete`` runs when they end. False: the GM lays terrain and the players deploy
    # with ``/battle deploy`` before ``/battle start``.
    setup_in_rules: ClassVar[bool] = False
    measure_mm: ClassVar[float] = 25.4  # millimetres in one unit of the ruleset's measure
    deployment_depth: ClassVar[float] = 12.0  # depth of each side's deployment band
    default_table: ClassVar[tuple[float, float]] = (48.0, 36.0)  # width, depth in the measure

    def new_battle(
        self, battle_id: str, ruleset_id: str, width: float, depth: float, sides: Sequence[Side]
    ) -> BattleState:
        """An empty table for these sides: one group each, deployment bands on opposite edges."""
        band = min(self.deployment_depth, depth / 3)
        zones: tuple[list[Json], list[Json]] = ([0.0, band], [depth - band, depth])
        placed = tuple(
            Side(side.id, side.name, {**side.status, "deploy_zone": zones[index % 2]})
            for index, side in enumerate(sides)
        )
        groups = tuple(Group(f"{s.id}_main", s.name, s.id, "army") for s in placed)
        field = Battlefield(width, depth, self.measure_name(), self.measure_mm)
        cursor = Cursor(0, "setup", "", tuple(s.id for s in placed))
        return BattleState(battle_id, ruleset_id, field, cursor, placed, groups)

    def measure_name(self) -> str:
        """The name of the ruleset's measure (inch, SF, H)."""
        return "inch"

    def unit_from_roster(
        self, entry: Mapping[str, Json], unit_id: str, side: str, group: str
    ) -> Unit:
        """A unit built from one roster entry, not yet placed; profile values pass through."""
        hooks = self.roster_hooks
        if hooks is not None and hooks.unit_from_entry is not None:
            into = group if hooks.group_of is None else hooks.group_of(entry, side, group)
            return hooks.unit_from_entry(entry, unit_id, side, into)
        quality = entry.get("grade", entry.get("quality", ""))
        profile = {key: value for key, value in entry.items() if key not in ROSTER_KEYS}
        frontage, depth = number_or(entry.get("frontage"), 2.0), number_or(entry.get("depth"), 1.0)
        return Unit(
            unit_id,
            str(entry["name"]),
            side,
            group,
            str(entry.get("type", "")),
            str(quality),
            frontage,
            depth,
            0.0,
            0.0,
            0.0,
            stands=int(number_or(entry.get("stands"), 1)),
            profile=profile,
        )

    def forces_from_roster(
        self, roster: Mapping[str, Json], side: str
    ) -> tuple[tuple[Group, ...], tuple[Leader, ...]]:
        """The groups (divisions, wings, commands) and leaders an army list brings; none here.

        Unit ids are ``<side><n>`` in roster order, so a leader's ``attached_to`` can name one.
        """
        return ((), ()) if self.roster_hooks is None else self.roster_hooks.forces(roster, side)

    def setup_complete(self, ctx: Context) -> None:
        """Runs once as the last step of the ``setup`` chain ends, in that step's context (its
        dice, its events): check the deployment, set starting values. Nothing by default."""

    def terrain_table(self, state: BattleState) -> TerrainTable | None:
        """The terrain table ``/battle terrain roll`` rolls on for this battle (the army or
        the table may choose between several); None: terrain is laid by hand only."""
        return None

    def prepare(self, state: BattleState) -> BattleState:
        """The state as play begins, once every unit is deployed (counts, starting values)."""
        return state if self.roster_hooks is None else self.roster_hooks.prepare(state)

    def carry_over(self, entry: Mapping[str, Json], unit: Unit | None) -> dict[str, Json]:
        """A roster entry after a battle: marked destroyed if its unit is gone, else its stands."""
        if self.roster_hooks is not None and self.roster_hooks.carry_over is not None:
            return self.roster_hooks.carry_over(entry, unit)
        if unit is None:
            return {**entry, "status": "destroyed"}
        return {**entry, "stands": unit.stands} if "stands" in entry else dict(entry)

    def deployment_zone(self, state: BattleState, side: str) -> tuple[Point, ...] | None:
        """The area a side deploys in (a polygon), or None for anywhere on the table."""
        return band_zone(state, side)

    def deployment_facing(self, state: BattleState, side: str) -> float:
        """The facing a side's units deploy with unless told: towards the far edge (0 for a
        zone in the lower half of the table, else 180)."""
        zone = self.deployment_zone(state, side)
        if zone is None:
            return 0.0
        middle = sum(y for _, y in zone) / len(zone)
        return 0.0 if middle < state.battlefield.depth / 2 else 180.0

    def reach(self, state: BattleState, unit: Unit, kind: str) -> float:
        """How far the map outlines a unit's ``move`` or shooting ``range``, in the measure;
        0 for none (default: the unit's own ``move`` or ``range`` field)."""
        value = unit.get(kind, 0)
        return float(value) if isinstance(value, int | float) else 0.0

    def status_problem(self, state: BattleState, unit: Unit, key: str, value: Json) -> str | None:
        """Why a unit may not take ``value`` for its status ``key`` (a GM's edit), or None if
        it may (default: any value its declared kind allows)."""
        return None

    def deployment_problem(self, state: BattleState, unit: Unit) -> Misplaced | None:
        """Why a unit may not be deployed where it stands (off the table, outside its side's
        zone, over another unit), or None if it may."""
        footprint = Footprint.of(unit)
        table = state.battlefield
        if not all(0 <= x <= table.width and 0 <= y <= table.depth for x, y in footprint.corners()):
            return Misplaced(
                f"at ({unit.x:g}, {unit.y:g}) would stand off the table "
                f"({table.width:g} by {table.depth:g} {table.measure})"
            )
        zone = self.deployment_zone(state, unit.side)
        if zone is not None and not Polygon(zone).buffer(1e-9).contains(footprint.polygon):
            where = explained(zone_words(state, unit.side, zone), zone, footprint, table.measure)
            return Misplaced(f"must deploy inside {where}")
        for other in state.units_on_table:
            if other.id != unit.id and overlap_area(footprint, Footprint.of(other)) > 1e-9:
                return Misplaced("would overlap", other)
        return None

    # -- the demo ----------------------------------------------------------------------

    def sample_battle(self) -> BattleState | None:
        """A battle laid out at deployment, for the README's map and tests; none by default."""
        made = self.demo_hooks.sample_battle
        return None if made is None else made()

    def sample_armies(self) -> tuple[Mapping[str, Json], ...]:
        """Two rosters a demo or a new GM can start from (editable defaults); none by default."""
        hooks = self.roster_hooks
        if hooks is None or hooks.load_army is None:
            return ()
        return tuple(hooks.load_army(name) for name in hooks.sample_armies)

    def demo_orders(self, state: BattleState, side: str) -> list[Order]:
        """Orders a scripted player gives for one side in the current step; none by default."""
        given = self.demo_hooks.demo_orders
        return [] if given is None else given(self, state, side)

    def demo_answer(self, state: BattleState) -> str:
        """A scripted player's answer to the pending question: its default."""
        assert state.pending is not None
        return state.pending.decision.default

    # -- hooks ---------------------------------------------------------------------------

    def subjects(self, name: str, state: BattleState) -> tuple[Subject, ...]:
        """The subjects a repeated step runs for; ``sides`` is built in (the side order)."""
        if name == "sides":
            return tuple(Subject(side, side) for side in state.cursor.side_order)
        raise KeyError(f"{type(self).__name__} lists no subjects named {name!r}")

    def acting_sides(self, state: BattleState) -> tuple[str, ...]:
        """The sides (or ``gm``) whose orders the current step waits for."""
        step = self.sequence.step(state.cursor.step)
        if not step.order_kinds or step.actors is Actors.NOBODY:
            return ()
        if step.actors is Actors.GM:
            return ("gm",)
        if step.actors is Actors.BOTH:
            return tuple(state.cursor.side_order)
        side = active_side(self.sequence, state.cursor)
        return () if side is None else (side,)

    def judge(self, state: BattleState, order: Order) -> Verdict:
        """Check an order against the state: a preview of its effect, or why it is illegal.

        While the engine resolves a step the verdict is kept per state (see ``JUDGED``): it
        judges a step's orders when it completes them, again in each resolver, and again at
        every answer's replay of the step, all against states made of the very same parts.
        """
        if not JUDGED.active():
            return self._judge(state, order)
        return JUDGED.verdict(self, state, order, self._judge)

    def _judge(self, state: BattleState, order: Order) -> Verdict:
        if far.wanted(order):  # shortened to what the rules allow, each cut judged plainly
            return far.farthest(state, order, self._judge_plain)
        return self._judge_plain(state, order)

    def _judge_plain(self, state: BattleState, order: Order) -> Verdict:
        step = self.sequence.step(state.cursor.step)
        if order.kind not in step.order_kinds:
            reason = wrong_step_reason(order.kind, step.title, step.order_kinds)
            return Illegal(order, reason, self._steps_taking(order.kind))
        kind = self.order_kind(order.kind)
        problem = self.actor_problem(state, order)
        if problem:
            return Illegal(order, problem, self._when_acting(state, order, kind))
        problems = kind.problems(order)
        if problems:
            return Illegal(order, "; ".join(problems), (condition(needed_words(kind)),))
        return self.preview(state, order)

    def _steps_taking(self, kind: str) -> tuple[Instead, ...]:
        """The way forward for an order given at a step that does not take it: the steps that do."""
        steps = tuple(s.id for s in self.sequence.steps if kind in s.order_kinds)
        return (another_step(*steps),) if steps else ()

    def _when_acting(
        self, state: BattleState, order: Order, kind: OrderKind
    ) -> tuple[Instead, ...]:
        """The way forward for an order of a side whose turn it is not: this step, when that
        side's turn at it comes (none for an actor that cannot act for another reason)."""
        side = state.owner(kind.actor, order.actor)
        if side is None or self.turn_problem(state, side) is None:
            return ()
        return (another_step(state.cursor.step),)

    def actor_problem(self, state: BattleState, order: Order) -> str | None:
        """Why this actor may not be given an order of its kind now (not on the table, not
        its side's turn), or None if it may."""
        return self._actor_problem(state, order, self.order_kind(order.kind))

    def _actor_problem(self, state: BattleState, order: Order, kind: OrderKind) -> str | None:
        side = state.owner(kind.actor, order.actor)
        if side is None:
            return f"no {kind.actor} {order.actor!r} on the table"
        if kind.actor == "unit" and order.kind not in self.off_table_orders:
            unit = state.unit(order.actor)
            if unit.location == RESERVE:
                return f"{unit.name} is in reserve, not on the table"
            if unit.location == OFF_TABLE:
                return f"{unit.name} is off the table"
        return self.turn_problem(state, side)

    def kinds_by_id(self) -> dict[str, OrderKind]:
        """Every order kind of the ruleset by its id."""
        return {kind.id: kind for kind in self.order_kinds}

    def join_orders(
        self, state: BattleState, earlier: Sequence[Order], order: Order
    ) -> tuple[tuple[Order, ...], str | None]:
        """An actor's orders for the step once ``order`` follows ``earlier``, or the earlier ones
        and why it may not; by default each kind's ``combines`` and ``limit`` decide."""
        return joined(self.kinds_by_id(), earlier, order)

    def turn_problem(self, state: BattleState, side: str) -> str | None:
        """Why a side may not give orders now (the step waits for others), or None if it may."""
        acting = self.acting_sides(state)
        if "gm" not in acting and side not in acting:
            return f"it is not {side}'s turn to give orders"
        return None

    def legal(self, state: BattleState, order: Order) -> Order | None:
        """The order if the rules accept it now, else None (for scripted players and hints)."""
        return order if isinstance(self.judge(state, order), Preview) else None

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """The ruleset's own check of a well-formed order; override per ruleset."""
        return Preview(order, self.order_kind(order.kind).title)

    def option_choices(
        self, state: BattleState, side: str, kind: str, param: str, actor: str | None = None
    ) -> tuple[str, ...] | None:
        """The choices the ``choice`` parameter ``param`` of an order of ``kind`` allows
        ``side`` now, where the state narrows them (the features of the terrain table the
        side rolls on, the manoeuvres the ordered unit's group may make); ``actor`` is the
        order's actor id when one is typed. None: the kind's static ``Param.choices`` (the
        default). Offered by the bot's autocomplete; ``preview`` still judges the order."""
        return None

    def default_order(self, state: BattleState, actor: str) -> Order | None:
        """The order a unit, leader, group or side follows when given none (None: nothing)."""
        return None

    def odds(self, state: BattleState, query: OddsQuery) -> Odds | Refused | None:
        """The exact chances of what a player asks (a charge, a shot, a test, an order's
        roll), from the same roll specs the resolvers roll; a ``Refused`` with the reason when
        the question does not arise (out of range, no sight), None when the ruleset gives no
        odds for that kind. ``state`` is what the asking side may see (``secrets.view``)."""
        odds = self.demo_hooks.odds
        return None if odds is None else odds(state, query, self.parameter_values(state.parameters))

    def army_broken(self, state: BattleState, side: str) -> bool:
        """True if a side's army has broken; by default when it has no units left."""
        return not state.units_of(side)

    def outcome(self, state: BattleState) -> Outcome | None:
        """The result once the battle is over, else None; by default the last unbroken side wins."""
        standing = [side.id for side in state.sides if not self.army_broken(state, side.id)]
        if len(standing) == 1:
            return Outcome(standing[0], "every other army has broken")
        if not standing:
            return Outcome(None, "every army has broken")
        return None


def band_zone(state: BattleState, side: str) -> tuple[Point, ...] | None:
    """The default deployment zone: the band of y that ``new_battle`` gave the side, if any."""
    band = state.side(side).status.get("deploy_zone")
    if not isinstance(band, list | tuple) or len(band) != 2:
        return None
    low, high = (float(v) for v in band if isinstance(v, int | float))
    width = state.battlefield.width
    return ((0.0, low), (width, low), (width, high), (0.0, high))
