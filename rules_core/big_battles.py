"""Big battles (the benchmarks', the AI general's games): a ruleset's sample battle copied side
by side and closed up.

The sample battle is laid ``copies`` times across a table as many times wider, each copy's
ids suffixed, then both sides are moved towards the middle so that they meet within a turn
or two: many units end up in contact or in range, as in a big battle's busiest turns.

A ruleset whose sample keeps its units in reserve until a set-up inside the rules places
them (Impetus's pre-battle: terrain, baggage, deployment) is deployed first: ``begun`` plays
the sample's set-up with the demo's players, then copies the deployed battle, so that the
benchmark times turns of battle, not set-ups of a table as wide as many.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from rules_core import engine
from rules_core.codec import Json
from rules_core.decisions import Answer
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.state import RESERVE, BattleState, Group, Leader, Side, Unit

CLOSE_UP = 0.2  # each side moves this fraction of the table's depth towards the middle
SEED = b"bench-seed"
SETUP_CALLS = 500  # a guard against a set-up that never ends
Piece = TypeVar("Piece", Unit, Leader)  # a unit stays a unit when it is moved


def begun(rules: Rules, units: int) -> BattleState:
    """A big battle of about ``units`` units at the first step the engine plays: begun, and
    for a ruleset that places its units in a set-up of its own, deployed and at turn 1."""
    sample = _sample(rules)
    if not any(u.location == RESERVE for u in sample.units):
        return engine.begin(rules, big_battle(rules, units))
    deployed = deploy(rules, sample)
    return rules.prepare(big_battle(rules, units, deployed))  # each side's totals counted again


def deploy(rules: Rules, state: BattleState) -> BattleState:
    """The battle begun and its set-up played with the demo's orders and answers, to turn 1."""
    state = engine.begin(rules, state)
    for _ in range(SETUP_CALLS):
        if state.cursor.turn >= 1 or state.outcome is not None:
            return state
        if state.pending is not None:
            decision = state.pending.decision
            given = Answer(decision.id, rules.demo_answer(state), decision.who)
            state = engine.answer(rules, SEED, state, given).state
        else:
            sides = engine.waiting(rules, state).sides
            orders = [o for side in sides for o in rules.demo_orders(state, side)]
            state = engine.run(rules, SEED, state, orders).state
    raise RuntimeError(f"{state.ruleset}: the set-up did not end in {SETUP_CALLS} calls")


def _sample(rules: Rules) -> BattleState:
    sample = rules.sample_battle()
    if sample is None:
        raise ValueError("the ruleset has no sample battle")
    return sample


def big_battle(rules: Rules, units: int, sample: BattleState | None = None) -> BattleState:
    """The ruleset's sample battle (or ``sample``) copied to about ``units`` units (at least
    one copy), not begun: ``begun`` gives one ready for the engine's turns."""
    sample = _sample(rules) if sample is None else sample
    copies = max(1, round(units / len(sample.units)))
    width = sample.battlefield.width
    parts = [_copy(sample, index, width * index) for index in range(copies)]
    battlefield = replace(sample.battlefield, width=width * copies)
    state = replace(
        sample,
        battle_id=f"{sample.battle_id}-x{copies}",
        battlefield=battlefield,
        groups=tuple(g for part in parts for g in part.groups),
        leaders=tuple(ld for part in parts for ld in part.leaders),
        units=tuple(u for part in parts for u in part.units),
        terrain=tuple(t for part in parts for t in part.terrain),
        sides=tuple(_scaled_side(side, copies) for side in sample.sides),
    )
    return _closed_up(state)


def _copy(state: BattleState, index: int, dx: float) -> BattleState:
    """One copy of the battle moved ``dx`` to the right, its ids suffixed (none for the first)."""
    if index == 0:
        return state

    def key(old: str | None) -> str | None:
        return None if old is None else f"{old}.{index}"

    groups = tuple(replace(g, id=f"{g.id}.{index}", leader=key(g.leader)) for g in state.groups)
    leaders = tuple(
        replace(
            ld,
            id=f"{ld.id}.{index}",
            group=key(ld.group),
            attached_to=key(ld.attached_to),
            x=ld.x + dx,
        )
        for ld in state.leaders
    )
    units = tuple(
        replace(u, id=f"{u.id}.{index}", group=f"{u.group}.{index}", x=u.x + dx)
        for u in state.units
    )
    terrain = tuple(
        replace(t, id=f"{t.id}.{index}", points=tuple((x + dx, y) for x, y in t.points))
        for t in state.terrain
    )
    return replace(state, groups=groups, leaders=leaders, units=units, terrain=terrain)


def _scaled_side(side: Side, copies: int) -> Side:
    """A side whose unit count (where it keeps one) covers every copy."""
    status: dict[str, Json] = dict(side.status)
    count = status.get("units")
    if isinstance(count, int):
        status["units"] = count * copies
    return replace(side, status=status)


def _closed_up(state: BattleState) -> BattleState:
    """Both sides moved towards the middle of the table by ``CLOSE_UP`` of its depth."""
    depth = state.battlefield.depth
    near = {side.id: _near_side(state, side.id) for side in state.sides}

    def shift(side: str) -> float:
        return depth * CLOSE_UP * (1 if near[side] else -1)

    units = tuple(_moved(u, shift(u.side)) for u in state.units)
    leaders = tuple(_moved(ld, shift(ld.side)) for ld in state.leaders)
    return replace(state, units=units, leaders=leaders)


def _near_side(state: BattleState, side: str) -> bool:
    """Whether a side starts in the half of the table nearest y = 0."""
    ys = [u.y for u in state.units_of(side)]
    return sum(ys) / max(len(ys), 1) < state.battlefield.depth / 2


def _moved(piece: Piece, dy: float) -> Piece:
    """A unit or leader moved ``dy`` along the table's depth."""
    return replace(piece, y=piece.y + dy)


__all__ = ["Group", "begun", "big_battle", "deploy"]


# The scripted players of the benchmarks, here (not in a benchmark's module) so that a worker
# process can find them by name whichever module was run as ``__main__``.
def demo_answer(rules: Rules, state: BattleState) -> Answer:
    """The demo's answer to the open question."""
    assert state.pending is not None
    decision = state.pending.decision
    return Answer(decision.id, rules.demo_answer(state), decision.who)


def demo_orders(rules: Rules, state: BattleState) -> list[Order]:
    """The demo's orders for every side the step waits for."""
    sides = engine.waiting(rules, state).sides
    return [o for side in sides for o in rules.demo_orders(state, side)]
