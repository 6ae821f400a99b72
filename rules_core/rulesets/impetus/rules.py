"""The Impetus ruleset: its sequence of play, parameters and phase resolvers.

Step ids (fixed: the modules build on them); each step names the function that resolves it:

- set-up (the pre-battle procedure, steps 1-10, resolvers in ``prebattle``):
  ``attacker`` (1, nobody) → ``terrain_defender`` (2, the defender) → ``terrain_attacker`` (3,
  the attacker) → ``terrain_defender_again`` (4, the defender) → ``baggage`` (5, each side,
  defender first) → ``battle_plan`` (6, both sides, secret) → ``deploy_roll`` (7, nobody;
  questions) → ``deploy_first`` (8, the first player's biggest command) → ``deploy_second`` (9)
  → ``deploy_rest`` (10, the remaining commands, alternately).
- turn start: ``initiative`` (marks of the last turn cleared; the first initiative contest:
  each side names a command that has not acted, 2D6 + its general's Bonus, the higher
  activates next).
- main chain, a loop over the commands (``repeat_for="commands"``), in the order the contests
  decide during the turn:
  ``activate`` (the command activates: drawn melees of its units fought again) →
  ``rally`` (its disordered units may try to rally: a DT) →
  ``move`` (its units' moves; each move after the first a DT, failing it disorders; group
  moves, ``group_move`` orders: ``groups``; interpenetration; moves checked along their path) →
  ``shoot`` (its units shoot: ``shooting.resolve``) →
  ``charge`` (its units charge: reactions of the charged, ``reactions.offer``; contact; melee
  at once, ``melee.resolve``) →
  ``next_initiative`` (the contest for the next activation among the commands still to act)
  and, once every command has acted, ``end_turn`` (the army break checked).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.hooks import DemoHooks, RosterHooks
from rules_core.orders import Order, Verdict
from rules_core.plugin import Parameter, Rules
from rules_core.rulesets.impetus import (
    actions,
    activation,
    chances,
    demo,
    displacement,
    ending,
    forces,
    generals,
    groups,
    movement_tables,
    orders,
    prebattle,
    profiles,
    reactions,
    sample,
    terrain_tables,
)
from rules_core.rulesets.impetus import general as general_hints
from rules_core.rulesets.impetus import tables as combat_tables
from rules_core.rulesets.impetus.status import ARMY_BROKEN, STATUSES
from rules_core.rulesets.impetus.topics import TOPICS
from rules_core.standing import recommended_in
from rules_core.state import BattleState, Outcome, Unit
from rules_core.steps import Actors, Resolver, SequenceOfPlay, Step, Subject
from rules_core.toolkit import turn_limit_outcome

SETUP_IDS = (
    "attacker",
    "terrain_defender",
    "terrain_attacker",
    "terrain_defender_again",
    "baggage",
    "battle_plan",
    "deploy_roll",
    "deploy_first",
    "deploy_second",
    "deploy_rest",
)
TURN_IDS = (
    "initiative",
    "activate",
    "rally",
    "move",
    "shoot",
    "charge",
    "next_initiative",
    "end_turn",
)
# The subjects of the set-up loops (listed by ``prebattle.subjects``).
SETUP_SUBJECTS = (
    "defender",
    "attacker",
    "defender_first",
    "plans",
    "first_deployer",
    "second_deployer",
    "deploy_alternate",
)
STEP_IDS = SETUP_IDS + TURN_IDS


def _asked(
    step_id: str,
    title: str,
    resolver: Resolver,
    next_step: str | None,
    repeat_for: str,
    actors: Actors = Actors.ACTIVE,
) -> Step:
    """A pre-battle step that asks each player in turn for its orders until all have given them."""
    kinds = prebattle.STEP_KINDS[step_id]
    return Step(step_id, title, actors, resolver, next_step, kinds, repeat_for, until=step_id)


SEQUENCE = SequenceOfPlay(
    (
        # -- the pre-battle procedure --
        Step(
            "attacker",
            "1. Attacker and defender",
            Actors.NOBODY,
            prebattle.attacker,
            "terrain_defender",
        ),
        _asked(
            "terrain_defender",
            "2. Terrain: the defender",
            prebattle.terrain,
            "terrain_attacker",
            "defender",
        ),
        _asked(
            "terrain_attacker",
            "3. Terrain: the attacker",
            prebattle.terrain,
            "terrain_defender_again",
            "attacker",
        ),
        _asked(
            "terrain_defender_again",
            "4. Terrain: the defender again",
            prebattle.terrain,
            "baggage",
            "defender",
        ),
        _asked(
            "baggage",
            "5. Baggage and fortifications",
            prebattle.baggage,
            "battle_plan",
            "defender_first",
        ),
        _asked(
            "battle_plan",
            "6. Battle plans",
            prebattle.battle_plan,
            "deploy_roll",
            "plans",
            Actors.BOTH,
        ),
        Step(
            "deploy_roll",
            "7. Deployment roll",
            Actors.NOBODY,
            prebattle.deploy_roll,
            "deploy_first",
        ),
        _asked(
            "deploy_first",
            "8. Deployment: the first player's biggest command",
            prebattle.deploy_command,
            "deploy_second",
            "first_deployer",
        ),
        _asked(
            "deploy_second",
            "9. Deployment: the second player's biggest command",
            prebattle.deploy_command,
            "deploy_rest",
            "second_deployer",
        ),
        _asked(
            "deploy_rest",
            "10. Deployment: the remaining commands",
            prebattle.deploy_command,
            None,
            "deploy_alternate",
        ),
        # -- the turn --
        Step("initiative", "Initiative", Actors.NOBODY, activation.start_turn),
        Step(
            "activate",
            "Activation",
            Actors.NOBODY,
            activation.activate,
            "rally",
            repeat_for="commands",
            until="next_initiative",
        ),
        Step("rally", "Rally", Actors.ACTIVE, actions.rally, "move", ("rally", "hold")),
        Step(
            "move", "Movement", Actors.ACTIVE, actions.move, "shoot", ("move", "group_move", "hold")
        ),
        Step("shoot", "Shooting", Actors.ACTIVE, actions.shoot, "charge", ("shoot", "hold")),
        Step(
            "charge",
            "Charges and melee",
            Actors.ACTIVE,
            actions.charge,
            "next_initiative",
            ("charge", "group_charge", "hold"),
        ),
        Step(
            "next_initiative",
            "Initiative for the next activation",
            Actors.NOBODY,
            activation.next_contest,
            "end_turn",
        ),
        Step("end_turn", "End of turn", Actors.NOBODY, ending.end_turn),
    ),
    first="activate",
    turn_start="initiative",
    setup="attacker",
)
SEQUENCE = prebattle.with_turn_kinds(SEQUENCE)  # a battle plan revealed in the move step

SILENT = "not on the sheet (see the package README)"
PARAMETERS = (
    Parameter("max_turns", 8, "turns played before the battle is a draw", SILENT),
    Parameter(
        "command_radius", 10.0, "a general's command radius in H (Cavalry trait +2H)", SILENT
    ),
    Parameter(
        "initiative_ties",
        "reroll",
        "an initiative tie: reroll, or the side that did not activate last wins (alternate)",
        SILENT,
    ),
    Parameter("max_moves", 4, "most moves a unit may make in one activation", SILENT),
    Parameter(
        "army_break_share",
        0.5,
        "an army breaks when it has lost this share of its starting VBU (routed units "
        "count their whole VBU; Impetus 1's demoralisation comparison)",
        SILENT,
    ),
    Parameter(
        "broken_terrain",
        ["rough"],
        "terrain kinds that count as broken ground (the distance table's Broken column)",
        SILENT,
    ),
    Parameter(
        "difficult_terrain",
        ["wood", "dense_wood", "marsh"],
        "terrain kinds that count as difficult ground (the Difficult column)",
        SILENT,
    ),
    Parameter(
        "charge_reach_extra",
        0.0,
        "H added to a unit's charge distance when checking it can reach its target",
        SILENT,
    ),
)


# The last answers of ``orders.has_business``: it reads only the units, the activating
# command, the step and the parameters, and the engine asks it of several states alike (a
# step's context state, then the waiting state) for the same frozen units.
_BUSINESS: list[tuple[tuple[Unit, ...], tuple[object, ...], bool]] = []
_BUSINESS_MAX = 8


def _has_business(state: BattleState, side: str, params: Mapping[str, Json], words: str) -> bool:
    """``orders.has_business``, kept for the same units, subject, step, side and parameters
    (``words``: the parameters written out, ``_parameters``)."""
    key = (state.cursor.subject, state.cursor.step, side, words)
    for units, kept_key, found in _BUSINESS:
        if units is state.units and kept_key == key:
            return found
    found = orders.has_business(state, side, state.cursor.step, params)
    if len(_BUSINESS) >= _BUSINESS_MAX:
        del _BUSINESS[0]
    _BUSINESS.append((state.units, key, found))
    return found


# The parameters' values last worked out from a state's overrides, and the same written out
# (a key of ``_has_business``): the engine asks who acts on every call, of the same overrides.
_PARAMETERS: list[tuple[Rules, dict[str, Json], dict[str, Json], str]] = []


def _parameters(rules: Rules, overrides: Mapping[str, Json]) -> tuple[dict[str, Json], str]:
    """``rules.parameter_values(overrides)`` and its values written out, kept for the last
    overrides seen (compared by value: a copy is kept)."""
    for kept_rules, kept_overrides, values, words in _PARAMETERS:
        if kept_rules is rules and kept_overrides == overrides:
            return values, words
    values = rules.parameter_values(overrides)
    words = repr(sorted(values.items()))
    _PARAMETERS[:] = [(rules, dict(overrides), values, words)]
    return values, words


class ImpetusRules(Rules):
    """The hooks of the Impetus ruleset."""

    sequence = SEQUENCE
    sides = (2, 2)
    setup_in_rules = True
    order_kinds = (*orders.UNIT_ORDER_KINDS, *prebattle.ORDER_KINDS)
    parameters = (
        *PARAMETERS,
        *groups.PARAMETERS,
        *combat_tables.PARAMETERS,
        *displacement.PARAMETERS,
        *prebattle.PARAMETERS,
    )
    statuses = STATUSES
    terrain_words = terrain_tables.GRADE_WORDS
    topics = (*TOPICS, *reactions.TOPICS, *prebattle.TOPICS)
    recommended = recommended_in(__name__)  # recommended.json, beside this file
    # Each general with his command; Caesar's legions and the Gauls as samples.
    roster_hooks = RosterHooks(
        forces.forces,
        forces.prepare,  # the starting VBU set
        load_army=profiles.load_army,
        sample_armies=profiles.SAMPLE_ARMIES,
    )
    tables = {
        table.name: table
        for table in (
            *generals.TABLES,
            *movement_tables.TABLES,
            *combat_tables.TABLES,
            terrain_tables.FOOT_TABLE,
            terrain_tables.MOUNTED_TABLE,
        )
    }
    pace_apart = frozenset(SETUP_IDS)
    measure_mm = 40.0  # 15mm figures on 80mm bases: H is 40mm
    deployment_depth = 4.0
    default_table = (30.0, 20.0)  # 120 by 80 cm at 40mm an H

    def measure_name(self) -> str:
        """Impetus measures in H, half a base width."""
        return "H"

    general = general_hints.HINTS  # the AI general's hints (#36)
    demo_hooks = DemoHooks(sample.sample_battle, odds=chances.odds, odds_tests=chances.TESTS)

    # -- setting up ----------------------------------------------------------------------

    def unit_from_roster(
        self, entry: Mapping[str, Json], unit_id: str, side: str, group: str
    ) -> Unit:
        """A unit: its type's editable profile, in the command its entry names."""
        return profiles.unit_from_entry(
            entry, unit_id, side, forces.group_of(entry, None, side, group)
        )

    def subjects(self, name: str, state: BattleState) -> tuple[Subject, ...]:
        """The commands in the order the initiative gives them; the set-up loops'
        subjects from ``prebattle``."""
        if name == "commands":
            return activation.command_subjects(state)
        if name in SETUP_SUBJECTS:
            return prebattle.subjects(name, state)
        return super().subjects(name, state)

    def setup_complete(self, ctx: Context) -> None:
        """Set-up is over: every unit is on the table."""
        ctx.set_battle_status("set-up complete", ready=True)

    def resolver(self, step: Step) -> Any:
        """The step's resolver; afterwards generals stand where their units stand."""
        inner = super().resolver(step)

        def run(ctx: Context) -> None:
            prebattle.reveal_ordered(ctx)  # a battle plan revealed by order, first
            inner(ctx)
            ctx.state = groups.mark(forces.follow_generals(ctx.state), ctx.params)

        return run

    # -- orders and the end ---------------------------------------------------------------

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """What an order will do, with the numbers, or why it is illegal."""
        if order.kind in {kind.id for kind in prebattle.ORDER_KINDS}:
            return prebattle.preview(state, order)
        return orders.preview(state, order, self.parameter_values(state.parameters))

    def option_choices(
        self, state: BattleState, side: str, kind: str, param: str, actor: str | None = None
    ) -> tuple[str, ...] | None:
        """The pre-battle orders' choices the state narrows (``prebattle.option_choices``)
        and a group move's manoeuvres (those the Group Move row allows the actor's group, or
        any group of the side's activating command when no unit is typed)."""
        if kind == "group_move" and param == "manoeuvre":
            params = self.parameter_values(state.parameters)
            return tuple(orders.group_move_options(state, actor, side, params))
        return prebattle.option_choices(state, side, kind, param)

    def acting_sides(self, state: BattleState) -> tuple[str, ...]:
        """Only the sides with something to order in this step."""
        found = super().acting_sides(state)
        if state.cursor.step not in ("rally", "move", "shoot", "charge"):
            return found
        params, words = _parameters(self, state.parameters)
        return tuple(s for s in found if _has_business(state, s, params, words))

    def army_broken(self, state: BattleState, side: str) -> bool:
        """The side's army broke at the end of a turn (``ending.end_turn``: it had lost
        ``army_break_share`` of its starting VBU)."""
        return ARMY_BROKEN.of(state.side(side))

    def outcome(self, state: BattleState) -> Outcome | None:
        """A broken army loses; past the turn limit the battle is a draw."""
        if state.cursor.segment == "setup":
            return None
        found = super().outcome(state)
        if found is not None:
            return found
        return turn_limit_outcome(self, state)

    # -- the demo --------------------------------------------------------------------------

    def demo_orders(self, state: BattleState, side: str) -> list[Order]:
        """The scripted player's orders: set up, advance, shoot, charge."""
        if state.cursor.segment == "setup":
            return prebattle.demo_orders(state, side)
        return demo.orders_for(self, state, side)

    def reach(self, state: BattleState, unit: Unit, kind: str) -> float:
        """A unit's normal move for ``move``; 8H for shooters' ``range``."""
        if kind == "move":
            return movement_tables.distance(unit, "normal")
        return 8.0 if profiles.missile(unit) else 0.0
