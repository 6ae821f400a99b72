"""The heroic-age ruleset: its sequence of play, parameters and phase resolvers.

Step ids (fixed: the modules build on them); each step names the function that resolves it:

- setup: ``deploy`` (both sides place their units, as in Hail Caesar).
- turn start: ``initiative`` (D6 each, +1 for the commander-in-chief with more LPs; the winner
  chooses to go first or second: ``ctx.set_side_order``).
- main chain, once a turn, both sides in each step (the side order governs who acts first
  inside a step):
  ``gods`` (Invoke the Gods: ``gods.resolve_invoke``) →
  ``leadership`` (LP allocation and leader actions, orders of ``leadership.ORDER_KINDS``, both
  sides: ``leadership.resolve``) →
  ``duels`` (personal combats: ``duel.resolve``) →
  ``movement`` (control tests, then moves, manoeuvres and rest) →
  ``missiles`` (the missile exchange, simultaneous) →
  ``charges`` (Combat: declare and test charges, chargers move into contact) →
  ``combat`` (Combat: every combat fought, refights of inconclusive rounds) →
  ``after_combat`` (Combat: moves after combat, losers first) →
  ``end_turn`` (this turn's marks cleared; the battle's end checked).

The sheet gives no victory condition: see ``outcome``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rules_core.context import Context
from rules_core.forces import leaders_following
from rules_core.hooks import DemoHooks, RosterHooks
from rules_core.orders import Order, Verdict
from rules_core.plugin import Parameter, Rules
from rules_core.rulesets.heroic_age import (
    after,
    chances,
    charges,
    combat,
    demo,
    duel,
    ending,
    forces,
    gods,
    initiative,
    leadership,
    missiles,
    movement,
    orders,
    profiles,
    sample,
    tables,
)
from rules_core.rulesets.heroic_age import general as general_hints
from rules_core.rulesets.heroic_age.status import STATUSES
from rules_core.rulesets.heroic_age.topics import TOPICS
from rules_core.standing import recommended_in
from rules_core.state import BattleState, Outcome, Unit
from rules_core.steps import Actors, SequenceOfPlay, Step
from rules_core.toolkit import deploy_placed, turn_limit_outcome

STEP_IDS = (
    "deploy",
    "initiative",
    "gods",
    "leadership",
    "duels",
    "movement",
    "missiles",
    "charges",
    "combat",
    "after_combat",
    "end_turn",
)
LEADERSHIP_KINDS = tuple(kind.id for kind in leadership.ORDER_KINDS)


SEQUENCE = SequenceOfPlay(
    (
        Step("deploy", "Deployment", Actors.BOTH, deploy_placed, None, ("place",)),
        Step("initiative", "Initiative", Actors.NOBODY, initiative.resolve),
        Step("gods", "Invoke the Gods", Actors.NOBODY, gods.resolve_invoke, "leadership"),
        Step(
            "leadership", "Leadership", Actors.BOTH, leadership.resolve, "duels", LEADERSHIP_KINDS
        ),
        Step("duels", "Leadership: personal combats", Actors.NOBODY, duel.resolve, "movement"),
        Step(
            "movement",
            "Movement",
            Actors.BOTH,
            movement.resolve,
            "missiles",
            ("move", "manoeuvre", "rest", "hold"),
        ),
        Step(
            "missiles",
            "Missile exchange",
            Actors.BOTH,
            missiles.resolve,
            "charges",
            ("shoot", "hold"),
        ),
        Step("charges", "Combat: charges", Actors.BOTH, "charges", "combat", ("charge", "hold")),
        Step("combat", "Combat", Actors.NOBODY, combat.resolve, "after_combat"),
        Step(
            "after_combat",
            "Combat: moves after combat",
            Actors.NOBODY,
            after.resolve,
            "end_turn",
        ),
        Step("end_turn", "End of turn", Actors.NOBODY, ending.end_turn),
    ),
    first="gods",
    turn_start="initiative",
    setup="deploy",
)

SILENT = "not on the sheet (see the package README)"
PARAMETERS = (
    Parameter("max_turns", 8, "turns played before the battle is a draw", SILENT),
    Parameter(
        "initiative_ties",
        "reroll",
        "an initiative tie: reroll, or keep_order (last turn's order stands)",
        SILENT,
    ),
    Parameter(
        "loss_share",
        1.0,
        "an army loses when this share of its units is broken, destroyed or Shaken",
        SILENT,
    ),
    Parameter(
        "charge_reach",
        2.0,
        'inches to its front within which a unit may declare a charge (moves stop 2" short)',
        SILENT,
    ),
    Parameter(
        "difficult_terrain",
        ["wood", "dense_wood", "rough", "marsh", "village", "river", "stream", "linear_obstacle"],
        "terrain kinds that leave a unit moving through or across them unformed",
        SILENT,
    ),
    Parameter(
        "cover_terrain",
        ["wood", "dense_wood", "village", "fortification"],
        "terrain kinds that count as cover against missiles",
        SILENT,
    ),
    Parameter(
        "high_ground",
        ["hill"],
        "terrain kinds that give advantage of ground against units not on them",
        SILENT,
    ),
)


class HeroicAgeRules(Rules):
    """The hooks of the heroic-age ruleset."""

    sequence = SEQUENCE
    sides = (2, 2)  # two warbands face each other
    order_kinds = (*orders.UNIT_ORDER_KINDS, *leadership.ORDER_KINDS)
    parameters = (*PARAMETERS, *gods.PARAMETERS, *leadership.PARAMETERS, *duel.PARAMETERS)
    statuses = STATUSES
    topics = (*TOPICS, *gods.TOPICS, *duel.TOPICS)
    recommended = recommended_in(__name__)  # recommended.json, beside this file
    tables = {table.name: table for table in (*tables.ALL, *duel.TABLES)}
    # Personal combats are counted apart by the pace report.
    pace_apart = frozenset({"duels", *duel.PACE_APART})
    deployment_depth = 8.0
    default_table = (36.0, 24.0)
    # Each leader (LPs, flags) with his contingent; the Saxons and the Danes as samples.
    # Casualties cost stands for good.
    roster_hooks = RosterHooks.of(forces, profiles)

    general = general_hints.HINTS  # the AI general's hints (#36)
    demo_hooks = DemoHooks(
        sample.sample_battle, demo.orders_for, chances.odds, chances.A_GRADE_CHOICES
    )

    # -- resolvers -----------------------------------------------------------------------

    def resolver(self, step: Step) -> Callable[[Context], None]:
        """The step's resolver; afterwards leaders stand where their units stand."""
        return leaders_following(super().resolver(step))

    def resolve_charges(self, ctx: Context) -> None:
        """Declare and test charges; chargers move into contact."""
        charges.resolve(ctx, ctx.number("charge_reach"))

    # -- orders and the end ---------------------------------------------------------------

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """What an order will do, with the numbers, or why it is illegal."""
        if order.kind in LEADERSHIP_KINDS:
            return leadership.preview(state, order)
        if order.kind == "place":
            return orders.place(
                state, order, self.deployment_zone(state, state.unit(order.actor).side)
            )
        return orders.preview(state, order, self.parameter_values(state.parameters))

    def join_orders(
        self, state: BattleState, earlier: Sequence[Order], order: Order
    ) -> tuple[tuple[Order, ...], str | None]:
        """A leader's orders add up to no more LPs than he has left (``leadership``)."""
        return leadership.join_orders(state, earlier, order, self.kinds_by_id())

    def turn_problem(self, state: BattleState, side: str) -> str | None:
        """None: in a simultaneous phase either side may always give orders."""
        return None

    def acting_sides(self, state: BattleState) -> tuple[str, ...]:
        """Only the sides with something to order in this step."""
        found = super().acting_sides(state)
        params = self.parameter_values(state.parameters)
        return tuple(s for s in found if orders.has_business(state, s, state.cursor.step, params))

    def army_broken(self, state: BattleState, side: str) -> bool:
        """Every unit (or ``loss_share`` of them) broken, destroyed or Shaken, or the
        commander-in-chief killed with no leader left."""
        return ending.army_lost(state, side, self.parameter_values(state.parameters))

    def outcome(self, state: BattleState) -> Outcome | None:
        """A side whose army is lost loses; past the turn limit the battle is a draw."""
        if state.cursor.segment == "setup":
            return None
        found = super().outcome(state)
        if found is not None:
            return Outcome(
                found.winner,
                found.reason.replace("every other army has broken", "the enemy army is lost"),
            )
        return turn_limit_outcome(self, state)

    # -- the demo --------------------------------------------------------------------------

    def reach(self, state: BattleState, unit: Unit, kind: str) -> float:
        """A move's most likely reach (AvD + D6) for ``move``; 2" for missile units' ``range``."""
        if kind == "move":
            return 5.0 + 6.0
        return 2.0 if unit.profile.get("missile") is True else 0.0
