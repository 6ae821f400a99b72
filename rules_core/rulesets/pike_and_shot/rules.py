"""The pike-and-shot ruleset: its sequence of play, parameters and phase resolvers.

Step ids (fixed: the modules build on them); each step names the function that resolves it:

- setup: ``deploy`` (both sides place their units, GM-led as in Hail Caesar: ``place``).
- main chain, once a turn, both sides in each step (simultaneous):
  ``orders`` (1 Orders: each side gives each of its wings Attack, Hold or Withdraw, a group
  actor; an order stands until changed; ``command.resolve_orders``) →
  ``movement`` (2 Movement: both sides move at once; contact makes a melee and the unit that
  moved into contact is the attacker; pursuers come back; ``movement.resolve``) →
  ``combat`` (3 Combat: both sides shoot, then every melee is fought: ``combat.resolve``) →
  ``risk`` (risk to commanders, not on the sheet: a parameterised GM ruling after Combat, so
  that Fatigue sees a commander wounded, killed or off table this turn;
  ``command.resolve_risk``) →
  ``reform`` (4 Reform: ``cohesion.resolve_reform``) →
  ``fatigue`` (5 Fatigue, per wing: ``cohesion.resolve_fatigue``) →
  ``general_will`` (6 General Will, both armies in one step: ``cohesion.resolve_general_will``)
  →
  ``replace_commanders`` (7 Replace commanders: ``command.resolve_replace``) →
  ``commanders_move`` (8 Commanders move, up to 24": leaders' ``command_move`` orders, both
  sides; ``command.resolve_commanders_move``).

The battle ends when General Will breaks an army (``GENERAL_WILL`` "failed"; both at once is a
draw) or after ``max_turns``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rules_core.codec import Json, number_or
from rules_core.context import Context
from rules_core.hooks import DemoHooks, RosterHooks
from rules_core.orders import Illegal, Order, Preview, Verdict, point_param
from rules_core.plugin import Parameter, Rules
from rules_core.rulesets.pike_and_shot import (
    chances,
    cohesion,
    combat,
    command,
    demo,
    movement,
    movement_tables,
    orders,
    profiles,
    sample,
    tables,
)
from rules_core.rulesets.pike_and_shot import general as general_hints
from rules_core.rulesets.pike_and_shot.status import GENERAL_WILL, STATUSES
from rules_core.rulesets.pike_and_shot.topics import TOPICS
from rules_core.standing import recommended_in
from rules_core.state import BattleState, Outcome, Unit
from rules_core.steps import Actors, SequenceOfPlay, Step
from rules_core.toolkit import deploy_placed, turn_limit_outcome

STEP_IDS = (
    "deploy",
    "orders",
    "movement",
    "combat",
    "risk",
    "reform",
    "fatigue",
    "general_will",
    "replace_commanders",
    "commanders_move",
)

SEQUENCE = SequenceOfPlay(
    (
        Step("deploy", "Deployment", Actors.BOTH, deploy_placed, None, ("place",)),
        Step("orders", "Orders", Actors.BOTH, command.resolve_orders, "movement", ("wing_order",)),
        Step(
            "movement",
            "Movement",
            Actors.BOTH,
            movement.resolve,
            "combat",
            ("move", "hold", "return"),
        ),
        Step("combat", "Combat", Actors.BOTH, combat.resolve, "risk", ("shoot", "hold")),
        Step("risk", "Risk to commanders", Actors.NOBODY, command.resolve_risk, "reform"),
        Step("reform", "Reform", Actors.NOBODY, cohesion.resolve_reform, "fatigue"),
        Step("fatigue", "Fatigue", Actors.NOBODY, cohesion.resolve_fatigue, "general_will"),
        Step(
            "general_will",
            "General Will",
            Actors.NOBODY,
            cohesion.resolve_general_will,
            "replace_commanders",
        ),
        Step(
            "replace_commanders",
            "Replace commanders",
            Actors.NOBODY,
            command.resolve_replace,
            "commanders_move",
        ),
        Step(
            "commanders_move",
            "Commanders move",
            Actors.BOTH,
            command.resolve_commanders_move,
            None,
            ("command_move", "stay"),
        ),
    ),
    first="orders",
    setup="deploy",
)

SILENT = "not on the sheet (see the package README)"
PARAMETERS = (
    Parameter("max_turns", 8, "turns played before the battle is a draw", SILENT),
    *movement_tables.PARAMETERS,
    *movement.PARAMETERS,
    *command.PARAMETERS,
)


_NO_UNIT = "no unit left on the table (all destroyed or routed off)"


class PikeAndShotRules(Rules):
    """The hooks of the pike-and-shot ruleset."""

    sequence = SEQUENCE
    sides = (2, 2)  # two armies face each other
    order_kinds = orders.ORDER_KINDS
    parameters = (*PARAMETERS, *combat.PARAMETERS, *cohesion.PARAMETERS)
    statuses = STATUSES
    topics = (*TOPICS, *combat.TOPICS)
    recommended = recommended_in(__name__)  # recommended.json, beside this file
    tables = {t.name: t for t in (*movement_tables.TABLES, *tables.ALL)}
    off_table_orders = frozenset({"return"})  # a pursuer off the table comes back
    deployment_depth = 12.0
    default_table = (72.0, 48.0)
    # The wings, each with its commander; the Royalists and the Parliament as samples.
    roster_hooks = RosterHooks(
        profiles.forces,
        command.prepare,  # commanders with their wings; the army's size in brigades noted
        unit_from_entry=profiles.unit_from_entry,
        group_of=profiles.group_of,
        load_army=profiles.load_army,
        sample_armies=profiles.SAMPLE_ARMIES,
    )

    general = general_hints.HINTS  # the AI general's hints (#36)
    demo_hooks = DemoHooks(sample.sample_battle, demo.orders_for, chances.odds, chances.TESTS)

    # -- resolvers -----------------------------------------------------------------------

    def resolver(self, step: Step) -> Callable[[Context], None]:
        """The step's resolver; afterwards attached commanders stand with their units."""
        inner = super().resolver(step)

        def run(ctx: Context) -> None:
            inner(ctx)
            command.follow(ctx)

        return run

    def status_problem(self, state: BattleState, unit: Unit, key: str, value: Json) -> str | None:
        """March column is refused to a unit whose Movement row says n/a."""
        if key != "march_column" or value is not True:
            return None
        params = self.parameter_values(state.parameters)
        return movement_tables.no_march_column(movement_tables.row_of(unit, params))

    # -- orders and the end ---------------------------------------------------------------

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """What an order will do, with the numbers, or why it is illegal."""
        if order.kind == "place":
            unit = state.unit(order.actor)
            facing = number_or(order.params.get("facing", unit.facing), 0.0)
            x, y = point_param(order, "to")
            moved = replace(unit, x=x, y=y, facing=facing)
            problem = self.deployment_problem(state, moved)
            if problem is not None:
                return Illegal(order, f"{unit.name} {problem.reason}")
            return Preview(order, f"{unit.name} deploys at ({x:g}, {y:g}) facing {facing:g}")
        return orders.preview(state, order, self.parameter_values(state.parameters))

    def default_order(self, state: BattleState, actor: str) -> Order | None:
        """A wing keeps its order; everything else holds."""
        return orders.default_order(state, actor)

    def turn_problem(self, state: BattleState, side: str) -> str | None:
        """None: in a simultaneous step either side may always give orders."""
        return None

    def acting_sides(self, state: BattleState) -> tuple[str, ...]:
        """Only the sides with something to order in this step."""
        found = super().acting_sides(state)
        params = self.parameter_values(state.parameters)
        return tuple(s for s in found if orders.has_business(state, s, state.cursor.step, params))

    def army_broken(self, state: BattleState, side: str) -> bool:
        """General Will failed (``GENERAL_WILL`` "failed"), or no unit left on the table."""
        if GENERAL_WILL.of(state.side(side)) == "failed":
            return True
        return not state.units_of(side, on_table=True)

    def outcome(self, state: BattleState) -> Outcome | None:
        """An army whose General Will fails, or with no unit left, loses (both at once: a
        draw); past the turn limit the battle is a draw. The reason says which befell it."""
        if state.cursor.segment == "setup" or state.cursor.turn < 1:
            return None
        found = super().outcome(state)
        if found is None:
            return turn_limit_outcome(self, state)
        losers = [s for s in state.sides if self.army_broken(state, s.id)]
        failed = [GENERAL_WILL.of(s) == "failed" for s in losers]
        if all(failed):
            if found.winner is None:
                return Outcome(None, "both armies' resolve failed at once: a draw")
            return Outcome(found.winner, "the enemy commander's resolve failed: victory")
        if found.winner is not None and not any(failed):
            return Outcome(found.winner, f"the enemy army has {_NO_UNIT}: victory")
        words = [
            f"{s.name}'s resolve failed" if will else f"{s.name} has {_NO_UNIT}"
            for s, will in zip(losers, failed, strict=True)
        ]
        ending = "a draw" if found.winner is None else "victory"
        return Outcome(found.winner, f"{'; '.join(words)}: {ending}")

    # -- the demo --------------------------------------------------------------------------

    def reach(self, state: BattleState, unit: Unit, kind: str) -> float:
        """The Normal (or March Column) move for ``move``; the combat range for ``range``."""
        if kind == "move":
            params = self.parameter_values(state.parameters)
            if movement.column_problem(unit, params) is not None:
                return 0.0  # it may not move as it stands (movement refuses every move)
            return movement_tables.rate(unit, params)
        return tables.shooting_range(unit)
