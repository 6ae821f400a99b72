"""Every refusal says what to do instead (#40 item 1): for every order kind of every ruleset,
orders refused on its sample battle (given at the wrong step, against a bad target, to a
point out of reach, by a unit of the side not acting, with a parameter missing) each carry a
way forward, and each way forward holds: the steps named take the order, the targets named
make it legal, the kinds named are taken now, a distance is one it may go."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from rules_core import engine, registry
from rules_core.codec import Json
from rules_core.orders import Illegal, Instead, Order, OrderKind, Preview
from rules_core.plugin import Rules
from rules_core.rulesets.hail_caesar.sample import sample_battle
from rules_core.state import BattleState
from rules_core.ways import way_forward
from tests.rules_core.dropped import demo_step
from tests.rules_core.rulesets.hail_caesar import test_turn_keep_off as keep_off

RULESETS = sorted(r.id for r in registry.all_rulesets())
FAR = [999.0, 999.0]  # a point out of every unit's reach (and off every table)


@dataclass
class Walked:
    """The first state at which each step of the sample battle waited for orders."""

    states: dict[str, BattleState] = field(default_factory=dict)


def walk(rules: Rules, limit: int = 600) -> Walked:
    """The sample battle played by its demo policy until every step taking orders has waited
    once (or the battle ends)."""
    sample = rules.sample_battle()
    assert sample is not None
    state = engine.begin(rules, sample)
    wanted = {s.id for s in rules.sequence.steps if s.order_kinds}
    walked = Walked()
    for _ in range(limit):
        if state.outcome is not None or wanted <= set(walked.states):
            break
        waits = engine.waiting(rules, state)
        if state.pending is None and waits.sides:
            walked.states.setdefault(waits.step, state)
        state = demo_step(rules, state)
    return walked


def actors(rules: Rules, state: BattleState, kind: OrderKind, acting: bool) -> list[str]:
    """Ids of the actors of a kind on the sides acting now (or on the others)."""
    now = set(rules.acting_sides(state))
    found = [(a.id, state.owner(kind.actor, a.id)) for a in state.actors(kind.actor)]
    return [a for a, side in found if side is not None and (side in now) == acting]


def filled(state: BattleState, kind: OrderKind, actor: str) -> dict[str, Json]:
    """Plausible values for every parameter of a kind (an enemy, a point nearby, ...)."""
    side = state.owner(kind.actor, actor)
    enemies = [u.id for u in state.units_on_table if u.side != side] or ["nobody"]
    params: dict[str, Json] = {}
    for param in kind.params:
        if param.kind == "unit":
            params[param.name] = enemies[0]
        elif param.kind == "point":
            params[param.name] = [10.0, 10.0]
        elif param.kind == "path":
            params[param.name] = [[10.0, 10.0]]
        elif param.kind == "number":
            params[param.name] = 1
        elif param.kind == "choice":
            params[param.name] = param.choices[0]
        elif param.kind in ("leader", "group"):
            found = state.actors(param.kind)
            params[param.name] = found[0].id if found else "nobody"
        else:
            params[param.name] = "x"
    return params


def refused(rules: Rules, state: BattleState, kind: OrderKind) -> list[Order]:
    """Orders of ``kind`` at a step that takes it, each wrong in one way."""
    mine, theirs = actors(rules, state, kind, True), actors(rules, state, kind, False)
    if not mine:
        return []
    actor = mine[0]
    good = filled(state, kind, actor)
    found = [Order(theirs[0], kind.id, filled(state, kind, theirs[0]))] if theirs else []
    for param in kind.params:
        if param.kind == "unit":
            found.append(Order(actor, kind.id, {**good, param.name: actor}))  # itself
        if param.kind == "point":
            found.append(Order(actor, kind.id, {**good, param.name: FAR}))
        if param.required:
            found.append(Order(actor, kind.id, {k: v for k, v in good.items() if k != param.name}))
    return found


def check(rules: Rules, state: BattleState, verdict: Illegal) -> list[Instead]:
    """The way forward of a refusal, each part checked against the rules."""
    ways = list(way_forward(rules, state, verdict))
    assert ways, f"no way forward for {verdict.order}: {verdict.reason}"
    order = verdict.order
    for way in ways:
        if way.kind == "step":
            assert way.names, verdict
            assert all(order.kind in rules.sequence.step(s).order_kinds for s in way.names)
        elif way.kind == "targets":
            kind = rules.order_kind(order.kind)
            name = next(p.name for p in kind.params if p.kind == "unit")
            for target in way.names:
                tried = Order(order.actor, order.kind, {**order.params, name: target})
                assert isinstance(rules.judge(state, tried), Preview), (verdict, target)
        elif way.kind == "kinds":
            taken = rules.sequence.step(state.cursor.step).order_kinds
            assert way.names and set(way.names) <= set(taken) - {order.kind}, (verdict, way)
        elif way.kind == "actors":
            for actor in way.names:
                tried = Order(actor, order.kind, order.params)
                assert isinstance(rules.judge(state, tried), Preview), (verdict, actor)
        elif way.kind == "distance":
            assert way.distance > 0, verdict
        else:
            assert way.words.strip(), verdict
    return ways


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_refusal_of_every_order_kind_carries_a_way_forward(ruleset: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    walked = walk(rules)
    checked: dict[str, int] = {kind.id: 0 for kind in rules.order_kinds}
    for step_id, state in walked.states.items():
        taken = rules.sequence.step(step_id).order_kinds
        for kind in rules.order_kinds:
            if kind.id in taken:
                orders = refused(rules, state, kind)
            else:
                mine = actors(rules, state, kind, True) or actors(rules, state, kind, False)
                orders = [Order(a, kind.id, filled(state, kind, a)) for a in mine[:1]]
            for order in orders:
                verdict = rules.judge(state, order)
                if isinstance(verdict, Illegal):
                    ways = check(rules, state, verdict)
                    if kind.id not in taken:  # the wrong step: the steps that take it
                        assert [w.kind for w in ways] == ["step"], (verdict, ways)
                    checked[kind.id] += 1
    assert all(checked.values()), f"kinds never refused here: {checked}"


def test_hail_caesars_first_move_is_sent_to_the_orders_step() -> None:
    """A move at the Army step (General Advance or hold) is taken at the Orders step."""
    rules = registry.get("hail_caesar").rules
    assert rules is not None
    state = walk(rules).states["army"]
    unit = next(u for u in state.units_on_table if u.side in rules.acting_sides(state))
    verdict = rules.judge(state, Order(unit.id, "move", {"to": [unit.x, unit.y + 1]}))
    assert isinstance(verdict, Illegal) and "takes only general_advance or hold" in verdict.reason
    assert way_forward(rules, state, verdict) == (Instead("step", ("orders",)),)


def test_hail_caesars_turn_too_near_an_enemy_says_to_keep_facing_or_charge() -> None:
    here = keep_off.state()
    verdict = keep_off.RULES.judge(here, Order("r1", "move", {"to": [21, 8]}))
    assert isinstance(verdict, Illegal) and verdict.reason == keep_off.TURNED
    (way,) = way_forward(keep_off.RULES, here, verdict)
    assert way.kind == "condition"
    assert "without turning" in way.words and "facing of 0°" in way.words
    assert way.words.endswith("or charge Arverni Warband")


# Each ruleset's sample unit, and how far it may go: three moves of 6" (Hail Caesar's First
# Cohort), a 6" move (Skirmish), the horse's allowance named in the reason (Pike and Shot).
REACH = [
    ("hail_caesar", "orders", "18"),
    ("skirmish", "move", "6"),
    ("pike_and_shot", "movement", 'of its {}"'),
]


@pytest.mark.parametrize(("ruleset", "step", "most"), REACH)
def test_a_move_out_of_reach_says_how_far_it_may_go(ruleset: str, step: str, most: str) -> None:
    rules = registry.get(ruleset).rules
    assert rules is not None
    state = walk(rules).states[step]
    if ruleset == "hail_caesar":  # its demo's General Advance moves all; its sample, unmoved
        state = replace(sample_battle(), cursor=keep_off.state().cursor)
    movers = [  # the units a 1" move is open to now
        u
        for u in state.units_on_table
        if u.side in rules.acting_sides(state)
        and isinstance(rules.judge(state, Order(u.id, "move", {"to": [u.x, u.y + 1]})), Preview)
    ]
    far = rules.judge(state, Order(movers[0].id, "move", {"to": [movers[0].x, movers[0].y + 200]}))
    assert isinstance(far, Illegal)
    (way,) = far.instead
    assert way.kind == "distance" and way.distance > 0
    if "{}" in most:
        assert most.format(f"{way.distance:g}") in far.reason
    else:
        assert f"{way.distance:g}" == most
