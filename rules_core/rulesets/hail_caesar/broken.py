"""A broken division's units on their initiative: whether they may still advance.

The sheet names what a broken division's units do on orders: a failed order, or no test at
all, allows one retirement move, and only the army commander's Where Is Your Courage? gives
one of them an order. It is silent on initiative moves, and the public sources searched
(reviews, battle reports and forum threads on Hail Caesar, November 2026) did not establish
the book's procedure. So this is a judgement call (RULESETS.md, "When a sheet is silent",
point 3): an initiative action that brings the unit no nearer the enemy is what a retirement
may do and goes ahead; one that brings it nearer (a move closer, any charge) is put to the GM,
with the ruling of the ``broken_initiative_ruling`` parameter (``forbid`` unless a campaign
says otherwise) pre-selected.
"""

from __future__ import annotations

from rules_core.context import Context
from rules_core.decisions import GM, Decision, Option
from rules_core.geometry import Footprint, facing_towards
from rules_core.orders import Order, point_param
from rules_core.rulesets.hail_caesar import measure, morale
from rules_core.rulesets.hail_caesar.topics import (
    ALLOW,
    BROKEN_ADVANCE,
    BROKEN_ADVANCE_WORDS,
    FORBID,
)
from rules_core.state import BattleState, Unit


def in_broken_division(state: BattleState, unit: Unit) -> bool:
    """Whether the unit's division is marked broken."""
    return unit.group in morale.broken_divisions(state, unit.side)


def advance_towards(state: BattleState, unit: Unit, order: Order) -> Unit | None:
    """The enemy an initiative order brings the unit nearer to (any charge does), or None."""
    enemy = measure.nearest_enemy(state, unit)
    if order.kind == "charge":
        target = order.params.get("target")
        return state.unit(target) if isinstance(target, str) else enemy
    if order.kind != "move" or enemy is None:
        return None
    end = point_param(order, "to")
    pose = Footprint.of(unit).moved_to(end, facing_towards((unit.x, unit.y), end))
    after = pose.polygon.distance(Footprint.of(enemy).polygon)
    return enemy if after < measure.gap(unit, enemy) - 1e-6 else None


def preview_note(state: BattleState, unit: Unit, order: Order, ruling: object) -> tuple[str, ...]:
    """The warning an initiative order of a broken division's unit carries, or none."""
    if not in_broken_division(state, unit) or advance_towards(state, unit, order) is None:
        return ()
    default = "no" if _ruling(ruling) == FORBID else "yes"
    return (
        "its division is broken: the GM rules whether it may advance on its initiative "
        f"(pre-selected: {default}); a Retire order, no nearer the enemy, needs no ruling",
    )


def gm_allows(ctx: Context, unit: Unit, order: Order) -> bool:
    """Whether a broken division's unit may carry out its initiative order (the GM rules
    when it would advance; the parameter's ruling is pre-selected)."""
    enemy = advance_towards(ctx.state, unit, order)
    if enemy is None:
        return True
    what = f"charge {enemy.name}" if order.kind == "charge" else f"move nearer to {enemy.name}"
    question = (
        f"{unit.name}'s division is broken and it would {what} on its initiative. The sheet "
        "gives a broken division's units one retirement move, and moves only under Where Is "
        "Your Courage?; it says nothing of initiative. May it advance?"
    )
    options = tuple(Option(key, label) for key, label in BROKEN_ADVANCE_WORDS.items())
    default = _ruling(ctx.params.get("broken_initiative_ruling"))
    asked = Decision(
        f"broken_advance:{unit.id}",
        question,
        options,
        default,
        GM,
        topic=BROKEN_ADVANCE,
        unit=unit.id,
        other=enemy.id,
    )
    return ctx.ask(asked) == ALLOW


def refusal(unit: Unit) -> str:
    """Why a broken division's unit did not advance on its initiative, and what it may do."""
    return (
        f"{unit.name}'s division is broken and the GM ruled it may not advance on its "
        "initiative: give it a Retire order (one move, no nearer the enemy) or let it hold"
    )


def _ruling(value: object) -> str:
    """The parameter's ruling; anything but ``allow`` forbids (the cautious reading)."""
    return ALLOW if value == ALLOW else FORBID
