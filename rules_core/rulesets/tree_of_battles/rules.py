"""The Tree of Battles: its sequence of play, parameters and phase resolvers.

One turn, both sides in every phase: Command (command actions, then control tests) → Approach
→ Shooting (then control tests) → Tactical movement → Combat (charges and responses, shooting
at chargers, hand to hand, moves after combat) → Rally. The sheet gives no victory condition:
an army with ``army_break_share`` of the fighting contingents it began with broken or gone (by
default half, rounded up) has broken, and after ``max_turns`` it is a draw.
"""

from __future__ import annotations

from collections.abc import Callable

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.forces import leaders_following
from rules_core.hooks import DemoHooks, RosterHooks
from rules_core.orders import Order, Verdict
from rules_core.plugin import Parameter, Rules
from rules_core.rulesets.tree_of_battles import (
    after,
    army_break,
    chances,
    charges,
    combat,
    command,
    control,
    demo,
    forces,
    losses,
    measure,
    orders,
    profiles,
    sample,
    shooting,
    tables,
    tactical,
)
from rules_core.rulesets.tree_of_battles import general as general_hints
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import (
    CHARGED_BY,
    COMBAT_ENEMY,
    COMBAT_RESULT,
    CONTROL,
    COUNTER_CHARGED,
    IN_COMBAT,
    LOOTING,
    PURSUING,
    RESPONSE,
    SHOOTING_DPS,
    SHOT_AT,
    SHOT_BY_ARTILLERY,
    SHOT_BY_HANDGUNS,
    SPENT,
    STATIONARY,
    STATUSES,
)
from rules_core.rulesets.tree_of_battles.topics import TOPICS
from rules_core.standing import recommended_in
from rules_core.state import BattleState, Outcome, Unit
from rules_core.steps import Actors, SequenceOfPlay, Step, Subject
from rules_core.toolkit import checked_orders, engaged, param_number, turn_limit_outcome

UNIT_STEPS = ("restrain", "march", "shoot", "move", "manoeuvre", "charge", "hold")
SEQUENCE = SequenceOfPlay(
    (
        Step(
            "command",
            "Command",
            Actors.BOTH,
            "command",
            "control",
            ("leader_move", "steady", "control", "new_orders"),
            repeat_for="command_rounds",
        ),
        Step(
            "control",
            "Command: control tests",
            Actors.BOTH,
            "control",
            "approach",
            ("restrain", "hold"),
        ),
        Step("approach", "Approach", Actors.BOTH, "approach", "shooting", ("march", "hold")),
        Step("shooting", "Shooting", Actors.BOTH, "shooting", "tactical", ("shoot", "hold")),
        Step(
            "tactical",
            "Tactical movement",
            Actors.BOTH,
            "tactical",
            "charges",
            ("move", "manoeuvre", "hold"),
        ),
        Step(
            "charges",
            "Combat: charges and responses",
            Actors.BOTH,
            "charges",
            "charge_shooting",
            ("charge", "hold"),
        ),
        Step(
            "charge_shooting",
            "Combat: shooting at chargers",
            Actors.NOBODY,
            "charge_shooting",
            "melee",
        ),
        Step("melee", "Combat: hand to hand", Actors.NOBODY, "melee", "after_combat"),
        Step("after_combat", "Combat: moves after combat", Actors.NOBODY, "after_combat", "rally"),
        Step("rally", "Rally", Actors.NOBODY, "rally"),
    ),
    first="command",
)

PARAMETERS = (
    Parameter("max_turns", 8, "turns played before the battle is a draw", "not on the sheet"),
    Parameter(
        "army_break_share",
        0.5,
        "an army breaks when this share of the fighting contingents it began with is broken"
        " or gone (0.5: half of them, rounded up; 1: every one)",
        "not on the sheet (RULESETS.md: a stated default with its threshold as a parameter; half,"
        " as Hail Caesar's divisions and Impetus's VBU break here)",
    ),
    Parameter(
        "command_rounds",
        2,
        "command actions a leader may take each turn, one a round (CPs still limit)",
        "by-post procedure, not on the sheet",
    ),
    Parameter(
        "artillery_maximum",
        42,
        "artillery maximum range in SF",
        'sheet prints "42 SF"; doubtful, kept as printed',
    ),
    Parameter(
        "understrength_share",
        0.5,
        "a contingent with fewer than this share of its stands is understrength",
        "not on the sheet",
    ),
    Parameter(
        "free_hack_casualties",
        1,
        "casualties a pursuer's free hack inflicts on troops it catches",
        "sheet names the free hack without its effect",
    ),
    Parameter(
        "civil_war",
        False,
        "a civil war: failed control tests (1-) of non-mercenaries test for treachery",
        "sheet",
    ),
)


class TreeOfBattlesRules(Rules):
    """The hooks of The Tree of Battles."""

    sides = (2, 2)  # two armies face each other
    sequence = SEQUENCE
    order_kinds = orders.ORDER_KINDS
    parameters = PARAMETERS
    statuses = STATUSES
    topics = TOPICS
    recommended = recommended_in(__name__)  # recommended.json, beside this file
    tables = {
        table.name: table
        for table in (
            tables.REMOVE_DPS,
            tables.CAUSES_OF_DPS,
            tables.RISK_TO_LEADER,
            tables.LEADER_HIT,
            tables.MOVE_DISTANCES,
            tables.COMMAND_ACTIONS,
            tables.CONTROL_TRIGGERS,
            tables.CONTROL_MODIFIERS,
            tables.CONTROL_TEST,
            tables.MANOEUVRES,
            tables.RANGES,
            tables.SHOOTING_HIT,
            tables.SHOOTING_MODIFIERS,
            tables.ARTILLERY_MODIFIERS,
            tables.ARTILLERY_EFFECTIVE,
            tables.ARTILLERY_CLOSE,
            tables.CHARGE_RESTRICTIONS,
            tables.CHARGE_RESPONSES,
            tables.COMBAT_RESULTS,
            tables.COMBAT_LOSSES,
            tables.COMBAT_FACTORS,
            tables.MOVES_AFTER_COMBAT,
        )
    }
    measure_mm = 40.0  # one SF: a 40 mm stand frontage (15 mm figures); an editable default
    deployment_depth = 4.0
    default_table = (24.0, 16.0)  # SF: about 96 by 64 cm with 40 mm stands
    # Each leader (CPs in points) with his battle; the English and French at Agincourt.
    # Casualties cost stands for good.
    roster_hooks = RosterHooks.of(forces, profiles)

    general = general_hints.HINTS  # the AI general's hints (#36)
    demo_hooks = DemoHooks(sample.sample_battle, demo.orders_for, chances.odds)

    # -- setting up ----------------------------------------------------------------------

    def measure_name(self) -> str:
        """Distances are in SF, one stand's frontage."""
        return "SF"

    def reach(self, state: BattleState, unit: Unit, kind: str) -> float:
        """A march for ``move`` (foot or mounted); the missile's maximum range for ``range``."""
        if kind == "move":
            column = "mounted" if u.mounted(unit) else "foot"
            value = tables.MOVE_DISTANCES.lookup("march", column)
            return float(value) if isinstance(value, int | float) else 0.0
        missile = u.missile(unit)
        if missile == "none":
            return 0.0
        return shooting.ranges(missile, self.parameter_values(state.parameters))[0]

    def demo_answer(self, state: BattleState) -> str:
        """The scripted player's answer: the attacker's horse counter-charges and pursues."""
        return demo.answer_for(state)

    # -- orders --------------------------------------------------------------------------

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """What an order will do, with the numbers, or why it is illegal."""
        return orders.preview(state, order, self.parameter_values(state.parameters))

    def turn_problem(self, state: BattleState, side: str) -> str | None:
        """None: in a simultaneous phase either side may always give orders."""
        return None

    def subjects(self, name: str, state: BattleState) -> tuple[Subject, ...]:
        """Command rounds: as many as the most CPs any leader can still spend (and the limit)."""
        if name != "command_rounds":
            return super().subjects(name, state)
        limit = self.parameter_values(state.parameters)["command_rounds"]
        assert isinstance(limit, int)
        rounds = min(limit, max((command.left(ld) for ld in state.leaders), default=0))
        return tuple(Subject(f"action {n}", "") for n in range(1, rounds + 1))

    def acting_sides(self, state: BattleState) -> tuple[str, ...]:
        """Only the sides with something to order in this step."""
        step = state.cursor.step
        found = super().acting_sides(state)
        return tuple(side for side in found if self._has_business(state, side, step))

    def _has_business(self, state: BattleState, side: str, step: str) -> bool:
        if step == "command":
            return any(command.left(ld) >= 1 for ld in state.leaders if ld.side == side)
        mine = [x for x in state.units_of(side, on_table=True) if x.type != "baggage"]
        params = self.parameter_values(state.parameters)
        enemies = state.enemies_of(side, on_table=True)

        def free(unit: Unit) -> bool:
            return orders.moving_problem(state, unit) is None

        checks: dict[str, Callable[[Unit], bool]] = {
            "control": lambda x: control.may_restrain(state, x),
            "approach": lambda x: (
                free(x) and not measure.enemy_within(state, x, tables.MARCH_CLEAR_SF)
            ),
            "shooting": lambda x: any(
                not isinstance(shooting.plan(state, x, e, params), str) for e in enemies
            ),
            "tactical": free,
            "charges": lambda x: any(charges.may_charge(state, x, e) for e in enemies),
        }
        check = checks.get(step)
        return check is not None and any(check(x) for x in mine)

    # -- resolvers -----------------------------------------------------------------------

    def resolver(self, step: Step) -> Callable[[Context], None]:
        """The step's resolver; afterwards leaders stand where their contingents stand."""
        return leaders_following(super().resolver(step))

    def resolve_command(self, ctx: Context) -> None:
        """Command actions, paid with CPs."""
        for order in checked_orders(ctx, tuple(command.ACTIONS)):
            command.carry_out(ctx, order)

    def resolve_control(self, ctx: Context) -> None:
        """Control tests: out of command, stopping pursuit or looting, chivalry holding back."""
        asked = {o.actor for o in checked_orders(ctx, ("restrain",))}
        for unit in list(ctx.state.units_on_table):
            if not u.alive(ctx.state, unit.id):
                continue
            if unit.id in asked:
                stop = PURSUING.of(unit) or LOOTING.of(unit)
                control.control_test(ctx, unit, "stop_pursuit" if stop else "chivalrous")
            elif (
                control.may_restrain(ctx.state, unit)
                and u.chivalrous(unit)
                and not PURSUING.of(unit)
            ):
                u.set_flags(
                    ctx, unit.id, "chivalrous within 6 SF of the enemy", control="full_speed"
                )
            elif control.must_test_out_of_command(ctx.state, unit):
                control.control_test(ctx, unit, "out_of_command")

    def resolve_approach(self, ctx: Context) -> None:
        """March moves of contingents beyond 6 SF of the enemy."""
        for order in checked_orders(ctx, ("march",)):
            tactical.march(ctx, order)

    def resolve_shooting(self, ctx: Context) -> None:
        """All shooting at once, then control tests for contingents it hit hard."""
        planned = []
        for order in checked_orders(ctx, ("shoot",)):
            shot = shooting.plan(
                ctx.state,
                ctx.state.unit(order.actor),
                ctx.state.unit(str(order.params["target"])),
                ctx.params,
            )
            assert not isinstance(shot, str)
            planned.append((shot, shooting.resolve(ctx, shot)))
        for shot, hits in planned:
            tactical.apply_shooting(ctx, shot, hits)
        for unit in {shot.target.id: shot.target for shot, _ in planned}.values():
            if u.alive(ctx.state, unit.id):
                self._after_shooting(ctx, ctx.state.unit(unit.id))

    def _after_shooting(self, ctx: Context, unit: Unit) -> None:
        """Risk to leaders of contingents hit; control tests for 1 DP a stand or C/D hit by guns."""
        if SHOOTING_DPS.of(unit):
            losses.risk_to_leaders(ctx, unit, "contingent shot at")
        guns = SHOT_BY_ARTILLERY.of(unit) or SHOT_BY_HANDGUNS.of(unit)
        if u.one_dp_per_stand(unit) or (unit.quality in ("C", "D") and guns):
            control.control_test(ctx, ctx.state.unit(unit.id), "shooting")

    def resolve_tactical(self, ctx: Context) -> None:
        """Routs and pursuits, then forced moves, then ordered moves and manoeuvres."""
        tactical.routs_and_pursuits(ctx)
        done = tactical.forced(ctx)
        for order in checked_orders(ctx, ("move", "manoeuvre")):
            if order.actor in done:
                continue
            (tactical.move if order.kind == "move" else tactical.manoeuvre)(ctx, order)

    def resolve_charges(self, ctx: Context) -> None:
        """Declare and execute charges; each charged contingent's player chooses its response."""
        declared = [(o.actor, str(o.params["target"])) for o in checked_orders(ctx, ("charge",))]
        declared += self._forced_charges(ctx, {a for a, _ in declared})
        responded: dict[str, str] = {}
        for charger_id, target_id in declared:
            if not (u.alive(ctx.state, charger_id) and u.alive(ctx.state, target_id)):
                continue
            charger, target = ctx.state.unit(charger_id), ctx.state.unit(target_id)
            fled = responded.get(charger_id) in ("evade", "break")
            if fled or COUNTER_CHARGED.of(charger):
                continue
            if not charges.may_charge(ctx.state, charger, target):
                continue
            if target_id in responded:
                response = "stand"
            elif (target_id, charger_id) in declared:
                response = "counter_charge"
            else:
                response = charges.respond(ctx, target, charger)
            responded.setdefault(target_id, response)
            charges.execute(ctx, charger, target, response)

    def _forced_charges(self, ctx: Context, ordered: set[str]) -> list[tuple[str, str]]:
        """Chivalry that must charge the nearest A grade, or that advances at full speed."""
        found = []
        for unit in ctx.state.units_on_table:
            how = CONTROL.of(unit)
            if unit.id in ordered or how not in ("charge_a", "charge_a_max", "full_speed"):
                continue
            target = tactical.quarry_for(ctx, unit, how)
            if target is not None and charges.may_charge(ctx.state, unit, target):
                found.append((unit.id, target.id))
        return found

    def resolve_charge_shooting(self, ctx: Context) -> None:
        """Contingents that stood to receive a charge shoot at their chargers."""
        planned = []
        for unit in ctx.state.units_on_table:
            charger = CHARGED_BY.of(unit)
            if RESPONSE.of(unit) != "stand" or not charger or not u.alive(ctx.state, charger):
                continue
            free = unit.with_status(in_combat=False)
            shot = shooting.plan(ctx.state, free, ctx.state.unit(charger), ctx.params)
            if not isinstance(shot, str):
                planned.append((shot, shooting.resolve(ctx, shot)))
        for shot, hits in planned:
            tactical.apply_shooting(ctx, shot, hits)

    def resolve_melee(self, ctx: Context) -> None:
        """Every combat: both roll with their factors; results by difference; leaders at risk."""
        for a_id, b_id in combat.pairs(ctx.state):
            a, b = ctx.state.unit(a_id), ctx.state.unit(b_id)
            if "baggage" in (a.type, b.type):
                self._loot(ctx, a, b)
                continue
            first, second = combat.fight(ctx, a, b)
            combat.apply_losses(ctx, first, combat.mounted_charged_archers(a, b))
            combat.apply_losses(ctx, second, combat.mounted_charged_archers(b, a))
            for unit_id, why in ((a_id, f"fighting {b.name}"), (b_id, f"fighting {a.name}")):
                if u.alive(ctx.state, unit_id):
                    losses.risk_to_leaders(ctx, ctx.state.unit(unit_id), why)

    def _loot(self, ctx: Context, a: Unit, b: Unit) -> None:
        """Baggage contacted is looted: 2 DPs to its side's contingents; the looters loot."""
        baggage, looter = (a, b) if a.type == "baggage" else (b, a)
        losses.destroy(ctx, baggage, f"looted by {looter.name}")
        u.set_flags(ctx, looter.id, "loots the baggage", looting=True, pursuing=False)
        dps = tables.CAUSES_OF_DPS.lookup("baggage_looted", "dps")
        assert isinstance(dps, int)
        for friend in ctx.state.units_of(baggage.side):
            u.add_dps(ctx, friend.id, dps, "baggage train looted")

    def resolve_after_combat(self, ctx: Context) -> None:
        """Moves after combat for every combat fought this turn, the beaten side first."""
        done: set[str] = set()
        for unit in list(ctx.state.units_on_table):
            enemy = COMBAT_ENEMY.of(unit)
            if unit.id in done or not enemy or not COMBAT_RESULT.of(unit):
                continue
            done.update((unit.id, enemy))
            after.resolve_pair(ctx, unit.id, enemy)

    def resolve_rally(self, ctx: Context) -> None:
        """Remove DPs by grade if eligible, then clear this turn's marks."""
        # Rallying and marking move nobody: who touches an enemy is asked of the state before.
        before, marks = ctx.state, {}
        for unit in list(before.units):
            touching = engaged(before, unit)
            if u.dps(unit) and _may_rally(unit, touching):
                u.add_dps(ctx, unit.id, -_rally_dps(unit), f"rallies ({unit.quality} grade)")
            marks[unit.id] = _fresh_turn(touching)
        u.mark_all(ctx, marks)  # marks log nothing: set together after the rallies, as one
        for leader in ctx.state.leaders:
            if SPENT.of(leader):
                ctx.set_leader_status(leader.id, None, spent=0)

    # -- helpers ------------------------------------------------------------------------

    def default_order(self, state: BattleState, actor: str) -> Order | None:
        """Nobody is given an order by default: forced moves are the resolvers' business."""
        return None

    def army_broken(self, state: BattleState, side: str) -> bool:
        """An army with ``army_break_share`` of the fighting contingents it began with broken
        or gone (the sheet gives no army break; by default half of them, rounded up)."""
        share = param_number(self.parameter_values(state.parameters), "army_break_share")
        return army_break.broken(state, side, share)

    def outcome(self, state: BattleState) -> Outcome | None:
        """A broken army loses; after ``max_turns`` the battle is a draw."""
        return super().outcome(state) or turn_limit_outcome(self, state)


def _remove_dps_row(unit: Unit) -> str:
    """The "Remove DPs" row for the contingent's grade (C for a grade the sheet lacks)."""
    return unit.quality if unit.quality in tables.REMOVE_DPS.rows else "C"


def _rally_dps(unit: Unit) -> int:
    """The DPs the contingent's "Remove DPs" row takes off."""
    dps = tables.REMOVE_DPS.lookup(_remove_dps_row(unit), "dps")
    assert isinstance(dps, int)
    return dps


def _may_rally(unit: Unit, engaged: bool) -> bool:
    """The "Remove DPs" row for the contingent's grade."""
    row = _remove_dps_row(unit)
    needs = dict(zip(tables.REMOVE_DPS.columns, tables.REMOVE_DPS.rows[row], strict=True))
    checks = {
        "stationary": STATIONARY.of(unit),
        "not_in_combat": not engaged and not IN_COMBAT.of(unit),
        "no_shooting_dps": not SHOOTING_DPS.of(unit),
        "not_shot_at": not SHOT_AT.of(unit),
    }
    return all(ok or not needs[key] for key, ok in checks.items())


def _fresh_turn(engaged: bool) -> dict[str, Json]:
    """Status marks that last one turn."""
    return {
        "stationary": True,
        "shot_at": False,
        "shooting_dps": 0,
        "shot_by_artillery": False,
        "shot_by_handguns": False,
        "charged": False,
        "counter_charged": False,
        "response": None,
        "charged_by": None,
        "combat_result": None,
        "control": None,
        "controlled_by": None,
        "retiring": False,
        "in_combat": engaged,
        **({} if engaged else {"melee_with": None, "fought_melee": False}),
    }
