"""The skirmish ruleset: a small game that exercises every part of the rules core.

Setup: both sides deploy at once. Each turn opens with a rally test per side (a repeated
step) and an initiative roll whose winner chooses to go first or second (a decision). Then
each side takes a player turn: it moves or charges (the charged player chooses to stand or
evade), shoots (line of sight and range from the front edge), and both sides fight every
melee (the winner chooses to follow up or halt). An army with half its units gone breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules_core import orders, paths, profile
from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import QUICK_HOURS, Decision, Option
from rules_core.dice import Modifier, Purpose
from rules_core.events import MeleeFought, MeleeResolved, ShotFired, ShotResolved
from rules_core.forces import Troops
from rules_core.geometry import Footprint, facing_towards, quarter, range_from_front, within
from rules_core.hooks import DemoHooks
from rules_core.odds import Odds, OddsQuery, Refused, RollSpec
from rules_core.orders import Illegal, Order, OrderKind, Param, Preview, Verdict, point_param
from rules_core.plugin import Parameter, Rules
from rules_core.rulesets.skirmish import chances, demo, measure, tables
from rules_core.rulesets.skirmish import general as general_hints
from rules_core.rulesets.skirmish.rolls import melee_roll, rally_roll
from rules_core.rulesets.skirmish.sample import INFANTRY, PROFILES, SAMPLE_ARMIES, sample_battle
from rules_core.rulesets.skirmish.status import (
    CHARGED,
    DISORDERED,
    START_UNITS,
    STATUSES,
    WOUNDS,
)
from rules_core.rulesets.skirmish.tables import RALLY, TERRAIN, TO_HIT
from rules_core.rulesets.skirmish.topics import (
    CHARGE_RESPONSE,
    FOLLOW_UP,
    FOLLOW_WORDS,
    INITIATIVE,
    INITIATIVE_WORDS,
    TOPICS,
)
from rules_core.standing import recommended_in
from rules_core.state import BattleState, Outcome, Side, Unit
from rules_core.status import Scope
from rules_core.steps import Actors, SequenceOfPlay, Step
from rules_core.toolkit import (
    checked_orders,
    contact_pairs,
    enemy_target,
    engaged,
    g,
    param_number,
    turn_limit_outcome,
    zone_words,
)
from rules_core.unit_questions import options_of, unit_question
from rules_core.zone_fit import explained

SEQUENCE = SequenceOfPlay(
    (
        Step("deploy", "Deployment", Actors.BOTH, "deploy", None, ("place",)),
        Step("rally", "Rally", Actors.NOBODY, "rally", "initiative", repeat_for="sides"),
        Step("initiative", "Initiative", Actors.NOBODY, "initiative"),
        Step("move", "Movement", Actors.ACTIVE, "movement", "shoot", ("move", "charge", "hold")),
        Step("shoot", "Shooting", Actors.ACTIVE, "shooting", "melee", ("shoot", "hold")),
        Step("melee", "Melee", Actors.NOBODY, "melee"),
    ),
    first="move",
    player_turns=True,
    turn_start="rally",
    setup="deploy",
)

ORDER_KINDS = (
    OrderKind("place", "Deploy", params=(Param("at", "point"), Param("facing", "number", False))),
    OrderKind("move", "Move", params=(Param("to", "point"),)),
    OrderKind("charge", "Charge", params=(Param("target", "unit"),)),
    OrderKind("shoot", "Shoot", params=(Param("target", "unit"),)),
    OrderKind("hold", "Hold"),
)

PARAMETERS = (
    Parameter("max_turns", 6, "turns played before the battle is a draw"),
    Parameter("difficult_factor", 2, "each inch in difficult terrain costs this many"),
    Parameter("obstacle_cost", 2, "inches of move lost crossing an obstacle or stream"),
    Parameter("road_bonus", 2, "extra inches for a move made wholly along a road"),
    Parameter("evade_distance", 3, "inches an evading unit moves away from its charger"),
    Parameter("fall_back", 2, "inches a beaten unit falls back after melee"),
    Parameter("short_range", 0.5, "share of a weapon's range that counts as short range"),
)


class SkirmishRules(Rules):
    """The hooks of the skirmish ruleset."""

    sequence = SEQUENCE
    order_kinds = ORDER_KINDS
    parameters = PARAMETERS
    statuses = STATUSES
    topics = TOPICS
    recommended = recommended_in(__name__)  # recommended.json, beside this file
    tables = {
        "to_hit": TO_HIT,
        "rally": RALLY,
        "terrain": TERRAIN,
        "modifiers": tables.MODIFIERS,
    }

    general = general_hints.HINTS  # the AI general's hints (#36)
    demo_hooks = DemoHooks(sample_battle, demo.orders_for)

    # -- orders --------------------------------------------------------------------------

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """Dispatch to the check for the order's kind."""
        checks: dict[str, Callable[[BattleState, Order, Unit], Verdict]] = {
            "place": self._preview_place,
            "move": self._preview_move,
            "charge": self._preview_charge,
            "shoot": self._preview_shoot,
        }
        check = checks.get(order.kind)
        return (
            Preview(order, "holds its ground")
            if check is None
            else check(state, order, state.unit(order.actor))
        )

    def unit_from_roster(
        self, entry: Mapping[str, Json], unit_id: str, side: str, group: str
    ) -> Unit:
        """A skirmish unit: a 4" by 2" base of two stands, its profile from its type."""
        kind = str(entry.get("type") or "infantry")
        profile: dict[str, Json] = {**PROFILES.get(kind, INFANTRY)}
        profile.update({key: entry[key] for key in ("move", "stamina") if key in entry})
        troops = Troops(kind, "B", 4.0, 2.0, profile, stands=2, formation="line")
        return troops.unit(entry, unit_id, side, group)

    def prepare(self, state: BattleState) -> BattleState:
        """Count each side's units at the start: an army breaks at half of them."""
        for side in state.sides:
            if START_UNITS.key not in side.status:
                counted = {START_UNITS.key: len(state.units_of(side.id))}
                state = STATUSES.apply(state, Scope.SIDE, side.id, counted)
        return state

    def sample_armies(self) -> tuple[Mapping[str, Json], ...]:
        """The Red and Blue hosts of the sample battle, as rosters."""
        return SAMPLE_ARMIES

    def default_order(self, state: BattleState, actor: str) -> Order | None:
        """Units given no order hold (there is no default deployment move)."""
        return None if state.cursor.step == "deploy" else Order(actor, "hold")

    def _preview_place(self, state: BattleState, order: Order, unit: Unit) -> Verdict:
        x, y = point_param(order, "at")
        facing = order.params.get("facing", unit.facing)
        assert isinstance(facing, int | float)
        zone = self.deployment_zone(state, unit.side)
        assert zone is not None  # every side deploys in a band (``new_battle``, the sample)
        low, high = min(py for _, py in zone), max(py for _, py in zone)
        pose = Footprint.of(unit).moved_to((x, y), float(facing))
        table = state.battlefield
        inside = all(0 <= cx <= table.width and low <= cy <= high for cx, cy in pose.corners())
        if not inside:
            where = explained(zone_words(state, unit.side, zone), zone, pose, table.measure)
            return Illegal(order, f"({g(x)}, {g(y)}) is outside {where}")
        return Preview(order, f"deploys at ({g(x)}, {g(y)}) facing {g(float(facing))}°")

    def _preview_move(self, state: BattleState, order: Order, unit: Unit) -> Verdict:
        if engaged(state, unit):
            return Illegal(order, f"{unit.name} is in melee and may not move")
        end = point_param(order, "to")
        cost = measure.move_cost(state, unit, end, self.parameter_values(state.parameters))
        if cost.barred_by:
            return Illegal(order, f"the path crosses {cost.barred_by}")
        if not cost.possible:
            why = f'needs {g(cost.cost)}" of movement, beyond its {g(cost.allowance)}" move'
            return Illegal(order, why, (orders.shorter(cost.allowance),))
        pose = Footprint.of(unit).moved_to(end, facing_towards((unit.x, unit.y), end))
        blocker = measure.passes_through(state, unit, pose)
        if blocker:
            return Illegal(order, f"{unit.name} would pass through {blocker}")
        length = ((end[0] - unit.x) ** 2 + (end[1] - unit.y) ** 2) ** 0.5
        summary = f'moves {g(length)}" to ({g(end[0])}, {g(end[1])})'
        return Preview(order, summary, cost.notes)

    def _preview_charge(self, state: BattleState, order: Order, unit: Unit) -> Verdict:
        target = enemy_target(state, unit, order)
        if isinstance(target, str):
            return Illegal(order, target)
        if engaged(state, unit):
            return Illegal(order, f"{unit.name} is already in melee")
        if quarter(Footprint.of(unit), (target.x, target.y)) != "front":
            return Illegal(order, f"{target.name} is not to {unit.name}'s front")
        turned, gap = measure.charge_line(unit, target)
        end = turned.advanced(gap)
        cost = measure.move_cost(
            state, unit, (end.x, end.y), self.parameter_values(state.parameters)
        )
        if not cost.possible:
            why = f'{target.name} is {g(gap)}" away, beyond its {g(cost.allowance)}" charge'
            return Illegal(order, why)
        blocker = measure.passes_through(state, unit, end, spare=target.id)
        if blocker:
            return Illegal(order, f"{unit.name} would pass through {blocker}")
        return Preview(order, f'charges {target.name}, {g(gap)}" away', cost.notes)

    def _preview_shoot(self, state: BattleState, order: Order, unit: Unit) -> Verdict:
        target = enemy_target(state, unit, order)
        if isinstance(target, str):
            return Illegal(order, target)
        reach = profile.value(unit, "range", 0)
        assert isinstance(reach, int | float)
        if not reach:
            return Illegal(order, f"{unit.name} has no missile weapons")
        if engaged(state, unit):
            return Illegal(order, f"{unit.name} is in melee and may not shoot")
        seen = measure.sight(state, unit, target)
        if not seen.clear:
            names = ", ".join(_name(state, key) for key in seen.blocked_by)
            return Illegal(order, f"no line of sight to {target.name}: blocked by {names}")
        gap = range_from_front(Footprint.of(unit), Footprint.of(target))
        if not within(gap, reach):
            return Illegal(order, f'{target.name} is {g(gap)}" away, beyond {g(reach)}" range')
        band, need = self._band(state, gap, float(reach))
        notes = tuple(
            f"{why}: {_hits(tables.modifier(row, 'shooting'))}"
            for row, why in _shooting_rows(unit, seen.partial)
        )
        summary = f'shoots at {target.name}, {g(gap)}" away: {band} range, hits on {need}+'
        return Preview(order, summary, notes)

    def _band(self, state: BattleState, gap: float, reach: float) -> tuple[str, int]:
        share = param_number(self.parameter_values(state.parameters), "short_range")
        band = "short" if within(gap, reach * share) else "long"
        need = tables.TO_HIT.lookup("shooting", band)
        assert isinstance(need, int)
        return band, need

    # -- resolvers -----------------------------------------------------------------------

    def resolve_deploy(self, ctx: Context) -> None:
        """Place each unit given a deployment order."""
        for order in checked_orders(ctx, ("place",)):
            unit = ctx.state.unit(order.actor)
            facing = order.params.get("facing", unit.facing)
            assert isinstance(facing, int | float)
            ctx.move(unit.id, [(unit.x, unit.y), point_param(order, "at")], float(facing))

    def resolve_rally(self, ctx: Context) -> None:
        """Each disordered unit of the side, out of melee, tests to rally."""
        for unit in ctx.state.units_of(ctx.side or ""):
            if DISORDERED.of(unit) and not engaged(ctx.state, unit):
                roll = rally_roll(unit).roll(ctx.dice)
                band = ctx.test(unit.id, "Rally test", roll, tables.RALLY, passing=("rallied",))
                if band.result == "rallied":
                    ctx.set_status(unit.id, "rallied", disordered=False)

    def resolve_initiative(self, ctx: Context) -> None:
        """Both sides roll a D6 (re-rolling ties); the winner chooses to go first or second."""
        first, second = ctx.state.sides[0], ctx.state.sides[1]
        for _ in range(20):
            a = ctx.dice.d6(f"Initiative: {first.name}", purpose=_initiative(first, second)).total
            b = ctx.dice.d6(f"Initiative: {second.name}", purpose=_initiative(second, first)).total
            if a != b:
                break
        winner, loser = (first, second) if a > b else (second, first)
        options = tuple(Option(key, label) for key, label in INITIATIVE_WORDS.items())
        question = f"{winner.name} won the initiative: go first or second?"
        asked = Decision("initiative", question, options, "first", winner.id, topic=INITIATIVE)
        choice = ctx.ask(asked)
        order = (winner.id, loser.id) if choice == "first" else (loser.id, winner.id)
        ctx.set_side_order(order, f"{winner.name} won the initiative and goes {choice}")

    def resolve_movement(self, ctx: Context) -> None:
        """Carry out moves and charges in roster order; a charge asks the target's player."""
        for order in checked_orders(ctx, ("move", "charge")):
            unit = ctx.state.unit(order.actor)
            if order.kind == "move":
                end = point_param(order, "to")
                cost = measure.move_cost(ctx.state, unit, end, ctx.params)
                facing = facing_towards((unit.x, unit.y), end)
                ctx.move(unit.id, [(unit.x, unit.y), end], facing, cost.notes)
            else:
                target = order.params["target"]
                assert isinstance(target, str)
                self._charge(ctx, unit, ctx.state.unit(target))

    def _charge(self, ctx: Context, unit: Unit, target: Unit) -> None:
        evade = ctx.number("evade_distance")
        options = (Option("stand", "stand"), Option("evade", f'evade {g(evade)}"'))
        question = f"{unit.name} charges {target.name}: stand or evade?"
        key, pair = f"response:{target.id}", (target, unit)
        asked = unit_question(key, question, options, "stand", pair, CHARGE_RESPONSE, QUICK_HOURS)
        choice = ctx.ask(asked)
        if choice == "evade":
            away = facing_towards((unit.x, unit.y), (target.x, target.y))
            if not _retreat(ctx, target, away, evade, "evades"):
                return
            target = ctx.state.unit(target.id)
        turned, gap = measure.charge_line(unit, target)
        end = turned.advanced(gap)
        if measure.move_cost(ctx.state, unit, (end.x, end.y), ctx.params).possible:
            ctx.move(unit.id, [(unit.x, unit.y), (end.x, end.y)], turned.facing, ("charges home",))
            ctx.set_status(unit.id, "charged", charged=True)
            return
        stop = measure.farthest(ctx.state, unit, (end.x, end.y), ctx.params)
        ctx.move(unit.id, [(unit.x, unit.y), stop], turned.facing, ("the charge falls short",))

    def resolve_shooting(self, ctx: Context) -> None:
        """Each shooter rolls a pool against the to-hit score for its range band."""
        for order in checked_orders(ctx, ("shoot",)):
            shooter = ctx.state.unit(order.actor)
            target_id = order.params["target"]
            assert isinstance(target_id, str)
            target = ctx.state.unit(target_id)
            gap, spec = self.shot_roll(ctx.state, shooter, target)
            ctx.emit(ShotFired(shooter.id, target.id, round(gap, 2)))
            roll = spec.roll(ctx.dice)
            band = "" if spec.purpose is None else spec.purpose.row or ""
            hits, next_ = roll.total, "wounds" if roll.total else ""
            ctx.emit(
                ShotResolved(
                    target.id, "", hits, hits > 0, band, False, shooter.id, target.id, hits, next_
                )
            )
            if roll.total:
                _wound(ctx, target.id, roll.total, f"shot by {shooter.name}")

    def shot_roll(self, state: BattleState, shooter: Unit, target: Unit) -> tuple[float, RollSpec]:
        """The range to a target and the shooter's pool at it, with its modifiers."""
        reach = profile.value(shooter, "range", 0)
        dice = profile.value(shooter, "shoot", 1)
        assert isinstance(reach, int | float) and isinstance(dice, int)
        gap = range_from_front(Footprint.of(shooter), Footprint.of(target))
        band, need = self._band(state, gap, float(reach))
        partial = measure.sight(state, shooter, target).partial
        modifiers = tuple(
            Modifier(tables.modifier(row, "shooting"), why)
            for row, why in _shooting_rows(shooter, partial)
        )
        label = f"Shooting: {shooter.name} at {target.name} ({band} range)"
        why = Purpose(shooter.id, "shooting", target.id, band)
        spec = RollSpec(label, dice, mode="pool", target=need, modifiers=modifiers, purpose=why)
        return gap, spec

    def odds(self, state: BattleState, query: OddsQuery) -> Odds | Refused | None:
        """Charges and melees (hits, result, losses), shots (hits, losses), rally tests."""
        return chances.odds(self, state, query)

    def resolve_melee(self, ctx: Context) -> None:
        """Every pair of units in contact fights; the loser falls back, the winner may follow."""
        for a_id, b_id in contact_pairs(ctx.state):
            a, b = ctx.state.unit(a_id), ctx.state.unit(b_id)
            ctx.emit(MeleeFought(a.id, b.id))
            hits_a, hits_b = _fight(ctx, a, b), _fight(ctx, b, a)
            _melee_result(ctx, (a.id, hits_a), (b.id, hits_b))
            _wound(ctx, b.id, hits_a, _melee_words(a.name, hits_b, hits_a))
            _wound(ctx, a.id, hits_b, _melee_words(b.name, hits_a, hits_b))
            if hits_a != hits_b:
                winner, loser = (a, b) if hits_a > hits_b else (b, a)
                self._after_melee(ctx, winner.id, loser.id)
        for unit in ctx.state.units:
            if CHARGED.of(unit):
                ctx.set_status(unit.id, "the charge is spent", charged=False)

    def _after_melee(self, ctx: Context, winner_id: str, loser_id: str) -> None:
        if not (_present(ctx.state, winner_id) and _present(ctx.state, loser_id)):
            return
        winner, loser = ctx.state.unit(winner_id), ctx.state.unit(loser_id)
        away = facing_towards((winner.x, winner.y), (loser.x, loser.y))
        if not _retreat(ctx, loser, away, ctx.number("fall_back"), "falls back"):
            return
        question = f"{loser.name} falls back: does {winner.name} follow up or halt?"
        key, options = f"after:{winner.id}", options_of(FOLLOW_WORDS)
        decision = unit_question(key, question, options, "halt", (winner, loser), FOLLOW_UP)
        if ctx.ask(decision) == "follow_up":
            turned, gap = measure.charge_line(winner, ctx.state.unit(loser.id))
            end = turned.advanced(gap)
            path = [(winner.x, winner.y), (end.x, end.y)]
            ctx.move(winner.id, path, turned.facing, ("follows up",))

    # -- the end of the battle -----------------------------------------------------------

    def army_broken(self, state: BattleState, side: str) -> bool:
        """An army breaks when half or more of its units have gone."""
        start = START_UNITS.of(state.side(side))
        assert isinstance(start, int)
        return len(state.units_of(side)) * 2 <= start

    def outcome(self, state: BattleState) -> Outcome | None:
        """A broken army loses; past the turn limit the battle is a draw."""
        return super().outcome(state) or turn_limit_outcome(self, state)


def _name(state: BattleState, key: str) -> str:
    for unit in state.units:
        if unit.id == key:
            return unit.name
    return next((f.name or f.id for f in state.terrain if f.id == key), key)


def _shooting_rows(shooter: Unit, partial: bool) -> list[tuple[str, str]]:
    """The rows of the modifiers table a shot reads, each with the reason the log gives."""
    rows = [("partly_obscured", "target partly obscured")] if partial else []
    if DISORDERED.of(shooter):
        rows.append(("disordered", "disordered"))
    return rows


def _hits(value: int) -> str:
    """A modifier to a pool's hits in words, e.g. "one hit fewer"."""
    count = "one" if abs(value) == 1 else str(abs(value))
    return f"{count} hit{'s' if abs(value) != 1 else ''} {'fewer' if value < 0 else 'more'}"


def _retreat(ctx: Context, unit: Unit, heading: float, length: float, note: str) -> bool:
    """Move a unit ``length`` along ``heading``, keeping its facing; False if it left the table.

    Any unit in the path stops it short (so one between it and the edge keeps it on the table).
    """
    move = paths.sweep(ctx.state, unit, heading, length, leaves_table=True)
    end = move.end
    table = ctx.state.battlefield
    if not (0 <= end.x <= table.width and 0 <= end.y <= table.depth):
        ctx.destroy(unit.id, f"{note} off the table")
        return False
    notes = [note]
    if move.blocker is not None:
        notes.append(f"stops short: {ctx.state.unit(move.blocker.id).name} in the way")
    ctx.move(unit.id, [(unit.x, unit.y), (round(end.x, 6), round(end.y, 6))], unit.facing, notes)
    return True


def _initiative(side: Side, other: Side) -> Purpose:
    return Purpose(side.id, "initiative", other.id)


def _melee_result(ctx: Context, a: tuple[str, int], b: tuple[str, int]) -> None:
    """Log a melee's outcome as data (no line: the wounds and the fall back say it)."""
    (first, hits_a), (second, hits_b) = a, b
    winner, loser = (first, second) if hits_a > hits_b else (second, first)
    won = hits_a != hits_b
    ctx.emit(
        MeleeResolved(
            first,
            "",
            hits_a - hits_b,
            hits_a > hits_b,
            f"{hits_a}-{hits_b}",
            False,
            winner if won else None,
            loser if won else None,
            (a, b),
            "falls_back" if won else "",
        )
    )


def _melee_words(enemy: str, mine: int, theirs: int) -> str:
    """Why a unit took hits in melee, from its own side of the result: each side's hits wound
    the other, so the winner may be hurt (even destroyed) without being beaten."""
    if mine < theirs:
        return f"beaten in melee by {enemy}, {theirs} hits to {mine}"
    if mine > theirs:
        return f"hit by {enemy} in a melee it won, {mine} hits to {theirs}"
    return f"hit by {enemy} in a drawn melee, {mine} hit{'' if mine == 1 else 's'} each"


def _fight(ctx: Context, unit: Unit, enemy: Unit) -> int:
    return melee_roll(unit, enemy).roll(ctx.dice).total


def _wound(ctx: Context, unit_id: str, hits: int, reason: str) -> None:
    """Add hits to a unit; at its stamina it is destroyed, otherwise it is disordered."""
    if not hits or not _present(ctx.state, unit_id):
        return
    unit = ctx.state.unit(unit_id)
    wounds = WOUNDS.of(unit)
    stamina = unit.get("stamina", 1)
    assert isinstance(wounds, int) and isinstance(stamina, int)
    if wounds + hits >= stamina:
        ctx.destroy(unit_id, reason)
    else:
        ctx.set_status(unit_id, reason, wounds=wounds + hits, disordered=True)


def _present(state: BattleState, unit_id: str) -> bool:
    """Whether the unit is still in the battle (the state's own index, not a scan of it)."""
    try:
        return bool(state.unit(unit_id))
    except KeyError:  # destroyed or removed earlier in the step
        return False
