"""The AI general's candidates (#36): for each of a side's actors, the orders it could be
given in the open step, from the step's order kinds and the ruleset's hints, each judged by
the ruleset's own judge (the one the bot's intake uses) and kept only if legal."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rules_core import far
from rules_core.codec import Json
from rules_core.general_hints import GeneralHints, standing_enemies
from rules_core.orders import AS_FAR_AS_POSSIBLE, Order, OrderKind, Preview
from rules_core.plugin import Rules
from rules_core.state import BattleState, Unit
from rules_core.toolkit import gap

RETIRE_DISTANCE = 12.0  # how far back a retire aims, in the measure (the judge cuts it short)


@dataclass(frozen=True)
class Candidate:
    """Orders one actor could be given (one, or the scripted player's several), their role
    (one of ``general_hints.ROLES``, or ``scripted``) and the target they aim at, if any."""

    actor: str
    orders: tuple[Order, ...]
    role: str
    target: Unit | None = None
    in_line: bool = False  # an advance that keeps the line (the army's shift toward the enemy)


def scripted(rules: Rules, view: BattleState, side: str) -> list[Candidate]:
    """The ruleset's scripted player's orders, grouped by actor, as one candidate each."""
    by_actor: dict[str, list[Order]] = {}
    drill = rules.general.drill
    drilled = drill(rules, view, side) if drill is not None else None
    given = rules.demo_orders(view, side) if drilled is None else drilled
    for order in (*given, *rules.general.adds(view, side)):
        by_actor.setdefault(order.actor, []).append(order)
    return [
        Candidate(actor, tuple(orders), "scripted", _target(view, orders[0]))
        for actor, orders in by_actor.items()
        if all(_legal(rules, view, order) for order in orders)
    ]


def role_of(rules: Rules, candidate: Candidate) -> str:
    """The role a candidate plays: its own, or for the script's orders, their first kind's."""
    if candidate.role != "scripted":
        return candidate.role
    return rules.general.role(candidate.orders[0].kind) or "scripted"


def _target(view: BattleState, order: Order) -> Unit | None:
    """The unit an order aims at, if it names one the side can see."""
    target = order.params.get("target")
    return _unit(view, target) if isinstance(target, str) else None


def actors(rules: Rules, view: BattleState, side: str) -> list[tuple[str, tuple[OrderKind, ...]]]:
    """The side's units on the table and its groups, each with the kinds of the open step
    that the hints give a role and that actor may take (in roster order: deterministic)."""
    step = rules.sequence.step(view.cursor.step)
    kinds = [rules.order_kind(kind) for kind in step.order_kinds]
    roled = [k for k in kinds if rules.general.role(k.id)]
    of_units = tuple(k for k in roled if k.actor == "unit")
    of_groups = tuple(k for k in roled if k.actor == "group" and _plain(k))
    found = [(u.id, of_units) for u in view.units_of(side, on_table=True)] if of_units else []
    if of_groups:
        found += [(g.id, of_groups) for g in view.groups if g.side == side]
    return found


def of_actor(
    rules: Rules, view: BattleState, actor: str, kinds: Sequence[OrderKind]
) -> Iterator[Candidate]:
    """The legal candidates of one actor: each kind with a role, at each target it may take."""
    unit = _unit(view, actor)
    probe = next((k for k in kinds if not any(p.required for p in k.params)), None)
    if probe is not None and not _legal(rules, view, Order(actor, probe.id)):
        return  # it may take no plain order now (not its division's step): none at all
    for kind in kinds:
        role = rules.general.role(kind.id)
        assert role is not None
        for order, target, in_line in _orders(rules, view, actor, unit, kind, role):
            if _legal(rules, view, order):
                yield Candidate(actor, (order,), role, target, in_line)


def _orders(
    rules: Rules, view: BattleState, actor: str, unit: Unit | None, kind: OrderKind, role: str
) -> Iterator[tuple[Order, Unit | None, bool]]:
    """The orders of one kind worth judging for an actor (not yet judged), each with its
    target and whether it keeps the line; a group (no ``unit``) takes only the kind's fixed
    parameters."""
    fixed: dict[str, Json] = dict(rules.general.params.get(kind.id, {}))
    names = {param.name for param in kind.params}
    if unit is None:
        yield Order(actor, kind.id, fixed), None, False
    elif role in ("charge", "shoot"):
        if "target" in names:
            for enemy in targets(rules, view, unit, rules.general):
                yield Order(actor, kind.id, {**fixed, "target": enemy.id}), enemy, False
    elif role in ("advance", "retire", "face"):
        if far.applies(kind):
            fixed[AS_FAR_AS_POSSIBLE] = True
        line = _line(view, unit) if role == "advance" and "to" in names else None
        if line is not None:
            yield Order(actor, kind.id, {**fixed, "to": list(line)}), None, True
        goal = _goal(view, unit, role, rules.general)
        if goal is not None:
            if "to" in names:
                fixed["to"] = list(goal)
            yield Order(actor, kind.id, fixed), None, False
    else:
        yield Order(actor, kind.id, fixed), None, False


def _plain(kind: OrderKind) -> bool:
    """Whether a kind needs no point, path or unit of its own (a group's order can be given
    from its fixed parameters alone)."""
    return not any(p.required and p.kind in ("point", "path", "unit") for p in kind.params)


def _unit(view: BattleState, actor: str) -> Unit | None:
    """The unit of this id, or None for a group or leader."""
    try:
        return view.unit(actor)
    except KeyError:
        return None


def targets(rules: Rules, view: BattleState, unit: Unit, hints: GeneralHints) -> list[Unit]:
    """The nearest enemies the unit could reach, nearest first (ties by id: deterministic)."""
    enemies = sorted(view.enemies_of(unit.side, on_table=True), key=lambda e: (gap(unit, e), e.id))
    reach = max(rules.reach(view, unit, "move"), rules.reach(view, unit, "range"))
    if reach > 0:
        enemies = [e for e in enemies if gap(unit, e) <= reach * hints.far_factor]
    return enemies[: hints.targets]


def _line(view: BattleState, unit: Unit) -> tuple[float, float] | None:
    """Where an advance in line aims: the unit shifted as its army's centre would be to the
    enemy's (friends keep their places in the line: lines meet, not a crowd on one enemy)."""
    friends = view.units_of(unit.side, on_table=True)
    enemies = view.enemies_of(unit.side, on_table=True)
    if not enemies or not friends:
        return None
    dx = _mean([e.x for e in enemies]) - _mean([f.x for f in friends])
    dy = _mean([e.y for e in enemies]) - _mean([f.y for f in friends])
    return _on_table(view, unit.x + dx, unit.y + dy)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _on_table(view: BattleState, x: float, y: float) -> tuple[float, float]:
    field = view.battlefield
    return (min(max(x, 0.0), field.width), min(max(y, 0.0), field.depth))


def _goal(
    view: BattleState, unit: Unit, role: str, hints: GeneralHints
) -> tuple[float, float] | None:
    """Where an advance or a turn to face aims (the nearest enemy still standing) or a retire
    (straight away from it)."""
    enemies = standing_enemies(view, unit.side, hints)
    if not enemies:
        return None
    enemy = min(enemies, key=lambda e: (gap(unit, e), e.id))
    if role in ("advance", "face"):
        return (enemy.x, enemy.y)
    dx, dy = unit.x - enemy.x, unit.y - enemy.y
    length = max((dx * dx + dy * dy) ** 0.5, 1e-9)
    x = unit.x + dx / length * RETIRE_DISTANCE
    y = unit.y + dy / length * RETIRE_DISTANCE
    return _on_table(view, x, y)


def _legal(rules: Rules, view: BattleState, order: Order) -> bool:
    """Whether the ruleset's judge accepts the order against the side's view."""
    return isinstance(rules.judge(view, order), Preview)
