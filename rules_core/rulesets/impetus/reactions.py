"""Reactions of the side not activating: a question to the OTHER side's player when its
trigger happens, answerable by a standing instruction, with a computed default; the reaction
chosen is resolved by a discipline test of its kind (the sheet's specific modifiers).

``offer(ctx, trigger, unit, enemy)`` offers ``unit`` (of the side not activating) the
reactions the trigger allows and carries out the one chosen; it returns the reaction carried
out ("none" if none was chosen, allowed or passed):

* ``charged`` (``enemy`` is about to charge ``unit``, asked before the charger moves):
  ``defensive_fire`` (a shooter with the charger in range: shoots it, DT "defensive_fire"),
  ``close_ranks`` (FP or FL charged by mounted, not EL: closed ranks, DT "close_ranks"; the
  charger's moves are its ``moves`` + 1: the moves made and the charge), ``countercharge``
  (mounted, not W, Art or EL, the charger ahead: DT "countercharge"; a Brave general
  attached re-rolls a failed test; the unit turns and moves to meet the charger,
  ``displacement.countercharge_move``, and is marked ``charged``: ``melee.resolve`` counts it
  as charging), ``evasion`` (S and CL; other mounted, not W or EL, from foot: DT "evasion"; it
  moves away its normal move ending clear of other units, or leaves the battle past the table
  edge, ``displacement.evade``; the charger then goes on, ``displacement.charge_on``).
* ``moved`` (``enemy`` ended a move near ``unit``): ``reaction_fire`` (shoots it as reaction
  fire, -1) or ``reaction_charge`` (charges it at once: melee), DT "reaction".

What the question shows (#11): the unit asked about, the enemy that triggered it and the
reactions allowed, nothing else: the charge being made is the only order of the active side
it names, and it is being carried out as the question is asked.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import QUICK_HOURS, Decision, Option
from rules_core.events import OrderRejected, ReactionResolved
from rules_core.geometry import Footprint, quarter
from rules_core.rulesets.impetus import (
    contact,
    discipline,
    displacement,
    generals,
    melee,
    orders,
    profiles,
    shooting,
)
from rules_core.rulesets.impetus.status import DISORDERED, MOVES, ROUTED
from rules_core.standing import Condition, Topic, when_other, when_unit
from rules_core.state import BattleState, Unit

TRIGGERS = ("charged", "moved")
NONE = "none"
CHARGED_WORDS = {
    NONE: "no reaction",
    "defensive_fire": "defensive fire at the charger",
    "close_ranks": "close ranks",
    "countercharge": "countercharge",
    "evasion": "evade",
}
MOVED_WORDS = {
    NONE: "no reaction",
    "reaction_fire": "opportunity fire at it",
    "reaction_charge": "opportunity charge it",
}
TEST_OF = {
    "defensive_fire": "defensive_fire",
    "close_ranks": "close_ranks",
    "countercharge": "countercharge",
    "evasion": "evasion",
    "reaction_fire": "reaction",
    "reaction_charge": "reaction",
}
CHARGE_REACTION = "charge_reaction"
OPPORTUNITY = "opportunity"
NO_EVADE = ("W", "EL", "ART", "CGP", "CF")  # mounted that do not evade
NO_COUNTER = ("W", "EL", "ART")
Params = Mapping[str, Json]


def _shoots(unit: Unit) -> bool:
    return bool(profiles.missile(unit))


def _light(unit: Unit) -> bool:
    return profiles.troop_type(unit) in ("S", "CL")


# Both reactions may be limited to units that shoot, or to disordered units.
SHOOTERS = Condition("shooters", "if the unit shoots", when_unit(_shoots))
DISORDERED_UNIT = Condition("disordered", "if the unit is disordered", when_unit(DISORDERED.of))

TOPICS = (
    Topic.of(
        CHARGE_REACTION,
        "the reaction of a unit the enemy charges",
        CHARGED_WORDS,
        (
            Condition("by_mounted", "if the charger is mounted", when_other(profiles.mounted)),
            Condition("by_foot", "if the charger is on foot", when_other(profiles.foot)),
            Condition("light", "if the unit is S or CL", when_unit(_light)),
            SHOOTERS,
            DISORDERED_UNIT,
        ),
    ),
    Topic.of(
        OPPORTUNITY,
        "opportunity fire or charge at an enemy that moved near",
        MOVED_WORDS,
        (
            SHOOTERS,
            Condition("mounted", "if the unit is mounted", when_unit(profiles.mounted)),
            DISORDERED_UNIT,
        ),
    ),
)


def ahead(unit: Unit, other: Unit) -> bool:
    """Whether ``other`` stands before ``unit``'s front."""
    return quarter(Footprint.of(unit), (other.x, other.y)) == "front"


def allowed(state: BattleState, trigger: str, unit: Unit, enemy: Unit, params: Params) -> list[str]:
    """The reactions this trigger allows the unit, "none" first."""
    if trigger not in TRIGGERS:
        raise ValueError(f"unknown reaction trigger {trigger!r}")
    if ROUTED.of(unit) or not unit.on_table:
        return [NONE]
    kind = profiles.troop_type(unit)
    can_shoot = shooting.problem(state, unit, enemy) is None and ahead(unit, enemy)
    found = [NONE]
    if trigger == "moved":
        if can_shoot:
            found.append("reaction_fire")
        if kind not in ("ART", "W") and _can_charge(state, unit, enemy, params):
            found.append("reaction_charge")
        return found
    if can_shoot:
        found.append("defensive_fire")
    charger_mounted = profiles.mounted(enemy) and profiles.troop_type(enemy) != "EL"
    if kind in ("FP", "FL") and charger_mounted and ahead(unit, enemy):
        found.append("close_ranks")
    if profiles.mounted(unit) and kind not in NO_COUNTER and ahead(unit, enemy):
        found.append("countercharge")
    if _light(unit) or (profiles.mounted(unit) and kind not in NO_EVADE and profiles.foot(enemy)):
        found.append("evasion")
    return found


def _can_charge(state: BattleState, unit: Unit, enemy: Unit, params: Params) -> bool:
    return orders.charge_problem(state, unit, enemy, params) is None


def default(state: BattleState, trigger: str, unit: Unit, enemy: Unit, options: list[str]) -> str:
    """The reaction a player would usually choose: evade if light and charged by heavier
    troops, countercharge mounted with mounted, close ranks against horse, shoot if able."""
    if trigger == "moved":
        return "reaction_fire" if "reaction_fire" in options else NONE
    if "evasion" in options and not _light(enemy):
        return "evasion"
    for choice in ("countercharge", "close_ranks", "defensive_fire"):
        if choice in options:
            return choice
    return NONE


def question(trigger: str, unit: Unit, enemy: Unit) -> str:
    """The question's words: the unit, the enemy and what it does now, nothing more."""
    if trigger == "charged":
        return f"{enemy.name} charges {unit.name}: how does {unit.name} react?"
    return f"{enemy.name} moved near {unit.name}: does {unit.name} react?"


def decision(
    state: BattleState, trigger: str, unit: Unit, enemy: Unit, params: Params
) -> Decision | None:
    """The question to ask, or None when only "none" is allowed."""
    options = allowed(state, trigger, unit, enemy, params)
    if options == [NONE]:
        return None
    words = CHARGED_WORDS if trigger == "charged" else MOVED_WORDS
    return Decision(
        f"react:{trigger}:{unit.id}:{enemy.id}:{state.cursor.iteration}",
        question(trigger, unit, enemy),
        tuple(Option(k, words[k]) for k in options),
        default(state, trigger, unit, enemy, options),
        unit.side,
        topic=CHARGE_REACTION if trigger == "charged" else OPPORTUNITY,
        unit=unit.id,
        other=enemy.id,
        deadline_hours=QUICK_HOURS,
    )


def offer(ctx: Context, trigger: str, unit: Unit, enemy: Unit) -> str:
    """Ask the unit's player, take the test, carry the reaction out; returns what was done."""
    asked = decision(ctx.state, trigger, unit, enemy, ctx.params)
    if asked is None:
        return NONE
    choice = ctx.ask(asked)
    if choice == NONE:
        return NONE
    kind = TEST_OF[choice]
    charger: dict[str, Json] = {}
    if trigger == "charged":
        charger = {"charger": enemy.id, "charger_moves": MOVES.of(enemy) + 1}
    result = discipline.test(ctx, unit, kind, **charger)
    if not result.passed and choice == "countercharge":
        general = generals.attached_general(ctx.state, unit)
        if general is not None and "reroll_failed_countercharge" in generals.special(general):
            result = discipline.test(ctx, unit, kind, **charger)
    _resolved(ctx, unit, choice, result)
    if not result.passed:
        return NONE
    return _carry_out(ctx, choice, ctx.state.unit(unit.id), ctx.state.unit(enemy.id))


def _resolved(ctx: Context, unit: Unit, choice: str, result: discipline.TestResult) -> None:
    """Log the reaction's outcome as data (no line: the test and what follows say it): the
    reaction carried out next, or none when its test failed."""
    outcome, done = ("passed", choice) if result.passed else ("failed", NONE)
    ctx.emit(
        ReactionResolved(
            unit.id,
            "",
            result.die,
            result.passed,
            TEST_OF[choice],
            True,
            unit.id,
            choice,
            outcome,
            done,
        )
    )


def _carry_out(ctx: Context, choice: str, unit: Unit, enemy: Unit) -> str:
    if choice in ("defensive_fire", "reaction_fire"):
        defensive = choice == "defensive_fire"
        shooting.resolve(ctx, unit, enemy, reaction=not defensive, defensive=defensive)
    elif choice == "close_ranks":
        ctx.set_status(unit.id, f"closes ranks against {enemy.name}", closed_ranks=True)
    elif choice == "countercharge":
        ctx.set_status(unit.id, f"countercharges {enemy.name}", charged=True)
        displacement.countercharge_move(ctx, unit, enemy)
    elif choice == "evasion":
        evade(ctx, unit, enemy)
    elif choice == "reaction_charge":
        _opportunity_charge(ctx, unit, enemy)
    return choice


def evade(ctx: Context, unit: Unit, enemy: Unit) -> None:
    """The unit moves away from the charger its normal move, turning its back on it, ending
    clear of other units (``displacement.evade``)."""
    displacement.evade(ctx, unit, enemy)


def _opportunity_charge(ctx: Context, unit: Unit, enemy: Unit) -> None:
    if not contact.contact(ctx, unit, enemy):
        ctx.emit(OrderRejected(unit.id, "reaction_charge", f"{enemy.name} out of reach"))
        return
    here = next((u for u in ctx.state.units_on_table if u.id == unit.id), None)
    there = next((u for u in ctx.state.units_on_table if u.id == enemy.id), None)
    if here is not None and there is not None:
        melee.resolve(ctx, here, there, impact=True)
