"""The Hail Caesar ruleset: alternate player turns of Command, Shooting, Hand-to-hand and tidy.

Setup: both sides deploy at once. In each player turn the side rallies its elite units, its
army commander may order a General Advance, each of its divisions takes its orders (a step
repeated per division), it shoots, then every combat on the table is fought by both sides,
and the side's disorder markers come off. The numbers the sheet does not print are in
``PARAMETERS`` with their sources.
"""

from __future__ import annotations

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.hooks import DemoHooks, RosterHooks
from rules_core.orders import Order, Verdict
from rules_core.plugin import Parameter, Rules
from rules_core.rulesets.hail_caesar import (
    chances,
    combat,
    command,
    demo,
    forces,
    kept,
    measure,
    morale,
    orders,
    sample,
    shooting,
    tables,
)
from rules_core.rulesets.hail_caesar import general as general_hints
from rules_core.rulesets.hail_caesar.profiles import load_army, unit_from_entry
from rules_core.rulesets.hail_caesar.status import (
    ADVANCED,
    DISORDERED,
    FOUGHT,
    GRANTED_MOVES,
    NO_FREE_MOVE,
    RANK,
    STATUSES,
    WON,
)
from rules_core.rulesets.hail_caesar.topics import FORBID, TOPICS
from rules_core.standing import recommended_in
from rules_core.state import BattleState, Outcome, Unit
from rules_core.steps import Actors, SequenceOfPlay, Step, Subject
from rules_core.toolkit import deploy_placed, engaged, turn_limit_outcome

UNIT_ORDERS = ("move", "charge", "form", "retire", "hold", "command")
SEQUENCE = SequenceOfPlay(
    (
        Step("deploy", "Deployment", Actors.BOTH, deploy_placed, None, ("place",)),
        Step("rally", "Command: Rally Elite", Actors.NOBODY, command.resolve_rally, "army"),
        Step(
            "army",
            "Command: General Advance",
            Actors.ACTIVE,
            command.resolve_army,
            "orders",
            ("general_advance", "hold"),
        ),
        Step(
            "orders",
            "Command: Orders",
            Actors.ACTIVE,
            command.resolve_orders,
            "shooting",
            UNIT_ORDERS,
            repeat_for="divisions",
        ),
        Step(
            "shooting",
            "Shooting",
            Actors.ACTIVE,
            shooting.resolve_shooting,
            "combat",
            ("shoot", "hold"),
        ),
        Step("combat", "Hand-to-hand", Actors.NOBODY, combat.resolve_combat, "tidy"),
        Step("tidy", "Remove Disorder Markers", Actors.NOBODY, "tidy"),
    ),
    first="rally",
    player_turns=True,
    setup="deploy",
)

PUBLISHED = "published Hail Caesar rules as widely described (not on the sheet)"
PARAMETERS = (
    Parameter("max_turns", 8, "turns played before the battle is a draw"),
    Parameter("hit_score", 4, "score each attack die needs before modifiers", PUBLISHED),
    Parameter(
        "order_test_moves",
        tables.ORDER_TEST_MOVES,
        "order test: [2D6 score minus Leadership, moves]; above Leadership fails",
        "published order test: equal 1 move, one less 2, two or more less 3, double six blunders",
    ),
    Parameter(
        "default_leadership", 8, "Leadership of a general whose profile gives none", PUBLISHED
    ),
    Parameter(
        "blunder_table", tables.BLUNDER_TABLE, "D6 blunder results [score, kind, moves]", PUBLISHED
    ),
    Parameter(
        "command_distance_step",
        12,
        "-1 to an order test per full step from general to unit",
        PUBLISHED,
    ),
    Parameter("initiative_range", 12, "an enemy this close allows an initiative move", "the sheet"),
    Parameter(
        "proximity", 12, "formed units this close to an enemy may not take orders", "the sheet"
    ),
    Parameter("open_order_proximity", 6, "the same for units in open order", "the sheet"),
    Parameter(
        "join_range", 12, "a general joins units and re-rolls for generals this close", "the sheet"
    ),
    Parameter(
        "enemy_keep_off", 1, "inches a move (not a charge) stops short of the enemy", PUBLISHED
    ),
    Parameter(
        "short_range", 6, "targets this close are shot with the short-range value", PUBLISHED
    ),
    Parameter("give_ground_distance", 3, "inches a unit gives ground (the sheet gives none)"),
    Parameter("support_distance", 3, "inches behind or beside a fighter a supporter may stand"),
    Parameter(
        "rally_min_hits", 2, "casualties a unit needs before a general may rally it", "the sheet"
    ),
    Parameter(
        "division_break_share",
        0.5,
        "a division breaks when more than this share of its units is lost or shaken",
        PUBLISHED,
    ),
    Parameter(
        "broken_initiative_ruling",
        FORBID,
        "forbid or allow: the GM's pre-selected ruling when a broken division's unit would"
        " advance or charge on its initiative",
        "judgement call: the sheet and the public sources found are silent (broken.py)",
    ),
    Parameter(
        "army_break_share",
        0.5,
        "an army breaks when this share (or more) of its divisions is broken",
        PUBLISHED,
    ),
    Parameter(
        "break_test_hand_to_hand",
        tables.BREAK_TEST_HAND_TO_HAND,
        "hand-to-hand break test [low, high, infantry, cavalry, skirmishers]",
        "the sheet, damaged cells rebuilt",
    ),
    Parameter(
        "break_test_ranged",
        tables.BREAK_TEST_RANGED,
        "ranged break test [low, high, infantry, cavalry, skirmishers]",
        "the sheet, damaged cells rebuilt",
    ),
)


class HailCaesarRules(Rules):
    """The hooks of the Hail Caesar ruleset."""

    sides = (2, 2)  # two armies face each other
    sequence = SEQUENCE
    order_kinds = orders.ORDER_KINDS
    parameters = PARAMETERS
    tables = tables.all_tables()
    statuses = STATUSES
    topics = TOPICS
    recommended = recommended_in(__name__)  # recommended.json, beside this file
    # Divisions and generals (ids prefixed by side); the Roman legion and Gallic host as samples.
    roster_hooks = RosterHooks(
        forces.forces,
        forces.prepare,  # generals behind their divisions, units counted for break tests
        unit_from_entry=unit_from_entry,
        group_of=forces.group_of,
        carry_over=forces.carry_over,  # units that broke or shattered are lost
        load_army=load_army,
        sample_armies=("romans", "gauls"),
    )

    general = general_hints.HINTS  # the AI general's hints (#36)
    demo_hooks = DemoHooks(sample.sample_battle, demo.orders_for, chances.odds, chances.TESTS)

    # -- the demo ----------------------------------------------------------------------

    def reach(self, state: BattleState, unit: Unit, kind: str) -> float:
        """One move by the Moving Units Table for ``move``; the weapon's range for ``range``."""
        if kind == "move":
            return measure.rate(unit)
        weapon = str(unit.get("weapon", "none"))
        if weapon not in tables.RANGE_TABLE.rows:
            return 0.0
        value = tables.RANGE_TABLE.lookup(weapon, "inches")
        return float(value) if isinstance(value, int | float) else 0.0

    def demo_answer(self, state: BattleState) -> str:
        """Re-roll failed orders, retreat rather than hold disordered, else the default."""
        return demo.answer(state)

    # -- orders --------------------------------------------------------------------------

    def judge(self, state: BattleState, order: Order) -> Verdict:
        """As every ruleset judges, with a plain hold judged at once: the engine judges a default
        hold for every unit at each division's orders, and its verdict needs no measuring."""
        if (
            order.kind == "hold"
            and not order.params
            and kept.plain_hold_allowed(self, state, order)
        ):
            return orders.preview(state, order, {})  # a hold: no parameters to measure
        return super().judge(state, order)

    def preview(self, state: BattleState, order: Order) -> Verdict:
        """What an order will do, or why it is illegal."""
        if order.kind == "place":
            zone = self.deployment_zone(state, state.unit(order.actor).side)
            return orders.place(state, order, zone)
        if not orders.checked(order.kind):  # a hold: no need to work out the parameters
            return orders.preview(state, order, {})
        return orders.preview(state, order, self.parameter_values(state.parameters))

    def default_order(self, state: BattleState, actor: str) -> Order | None:
        """Units given no order hold; generals with no order give orders unit by unit."""
        if state.cursor.step == "deploy" or state.owner("unit", actor) is None:
            return None
        if not state.unit(actor).on_table:  # ids are unique: by id, not a scan of the table
            return None
        return Order(actor, "hold")

    def subjects(self, name: str, state: BattleState) -> tuple[Subject, ...]:
        """Divisions of the side whose player turn it is, the army commander's first."""
        if name != "divisions":
            return super().subjects(name, state)
        side = state.cursor.player_side
        if side is None:
            return ()
        found = list(dict.fromkeys(u.group for u in state.units_of(side)))
        chiefs = [ld for ld in state.leaders if ld.side == side and RANK.of(ld) == "army"]
        chief = chiefs[0].group if chiefs else None
        found.sort(key=lambda division: division != chief)
        return tuple(Subject(division, side) for division in found)

    # -- resolvers -----------------------------------------------------------------------

    def resolve_tidy(self, ctx: Context) -> None:
        """Remove the side's disorder markers and this turn's marks."""
        side = ctx.side or ""
        for unit in ctx.state.units:
            changes: dict[str, Json] = {}
            if unit.side == side:
                for flag in (DISORDERED, ADVANCED, NO_FREE_MOVE):
                    if flag.of(unit):
                        changes[flag.key] = False
                if GRANTED_MOVES.of(unit):
                    changes[GRANTED_MOVES.key] = 0
            fought = {f.key: False for f in (FOUGHT, WON) if f.of(unit)}
            if fought and not engaged(ctx.state, unit):  # contact asked only where it matters
                changes.update(fought)
            if changes:
                ctx.set_status(unit.id, "end of the player turn", **changes)
        command.detach_generals(ctx, side)

    # -- the end of the battle -----------------------------------------------------------

    def army_broken(self, state: BattleState, side: str) -> bool:
        """An army breaks when half or more of its divisions are broken (or it has no units)."""
        divisions = morale.divisions_of(state, side)
        broken = morale.broken_divisions(state, side)
        share = self.parameter_values(state.parameters)["army_break_share"]
        assert isinstance(share, int | float)
        if not state.units_of(side):
            return True
        return bool(divisions) and len(broken) >= share * len(divisions)

    def outcome(self, state: BattleState) -> Outcome | None:
        """A broken army loses; past the turn limit the battle is a draw."""
        if state.cursor.segment == "setup":
            return None
        found = super().outcome(state)
        if found is not None:
            reason = found.reason.replace("every other army has broken", "the enemy army broke")
            return Outcome(found.winner, reason)
        return turn_limit_outcome(self, state)
