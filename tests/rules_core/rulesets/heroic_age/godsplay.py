"""Helpers for the tests of the god pack, leadership and personal combat: a battle of the two
sample armies facing each other, and a resolver run with answers given as it asks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from rules_core.context import Context, Suspended
from rules_core.decisions import Answer, Decision
from rules_core.orders import Order
from rules_core.rulesets.heroic_age.profiles import load_army
from rules_core.rulesets.heroic_age.rules import HeroicAgeRules
from rules_core.seeding import stream
from rules_core.state import BattleState, Side
from rules_core.steps import Cursor

RULES = HeroicAgeRules()
SEED = bytes.fromhex("90d5" * 16)
SIDES = ("saxons", "danes")


def battle(step: str = "gods", gap: float = 10.0) -> BattleState:
    """The Saxons (y 4, facing north) and the Danes (``gap`` inches further, facing south),
    units side by side 6" apart, at ``step`` of turn 1."""
    state = RULES.new_battle(
        "gods-1", "heroic_age", 48, 36, tuple(Side(s, s.title()) for s in SIDES)
    )
    for index, side in enumerate(SIDES):
        army = load_army(side)
        groups, leaders = RULES.forces_from_roster(army, side)
        placed = []
        for n, entry in enumerate(army["units"]):  # type: ignore[arg-type]
            assert isinstance(entry, Mapping)
            unit = RULES.unit_from_roster(entry, f"{side}{n + 1}", side, f"{side}_main")
            y = 4.0 if index == 0 else 4.0 + gap + unit.depth
            placed.append(replace(unit, x=6.0 + 8.0 * n, y=y, facing=0.0 if index == 0 else 180.0))
        state = replace(
            state,
            groups=(*state.groups, *groups),
            leaders=(*state.leaders, *leaders),
            units=(*state.units, *placed),
        )
    state = RULES.prepare(state)
    return replace(state, cursor=Cursor(1, "main", step, SIDES))


@dataclass
class Run:
    """A resolver run to its end: the context, and every question asked on the way."""

    ctx: Context
    asked: list[Decision]

    @property
    def state(self) -> BattleState:
        return self.ctx.state


Chooser = Callable[[Decision], str | None]


def run(
    fn: Callable[[Context], object],
    state: BattleState,
    choose: Chooser = lambda decision: None,
    orders: tuple[Order, ...] = (),
    key: str = "gods-1:1:gods:0",
) -> Run:
    """Run ``fn`` as the engine would, replaying it with each answer: ``choose`` gives the
    answer to a question (None: its default)."""
    answers: list[Answer] = []
    asked: list[Decision] = []
    for _ in range(200):
        ctx = Context(RULES, state, orders, answers, stream(SEED, key))
        try:
            fn(ctx)
        except Suspended as stop:
            for decision in (stop.decision, *stop.others):
                choice = choose(decision)
                asked.append(decision)
                answers.append(
                    Answer(
                        decision.id, decision.default if choice is None else choice, decision.who
                    )
                )
            continue
        return Run(ctx, asked)
    raise AssertionError("the resolver kept asking")


def unit_named(state: BattleState, name: str) -> str:
    """The id of the unit with this name."""
    return next(u.id for u in state.units if u.name == name)


def leader_named(state: BattleState, name: str) -> str:
    """The id of the leader with this name."""
    return next(ld.id for ld in state.leaders if ld.name == name)
