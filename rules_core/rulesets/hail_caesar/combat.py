"""Hand-to-hand: clash then sustained dice, supports, to-hit and saves, results, break tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_core import profile
from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import MeleeFought, MeleeResolved
from rules_core.odds import RollSpec
from rules_core.rulesets.hail_caesar import measure, morale, tables
from rules_core.rulesets.hail_caesar.status import (
    CASUALTIES,
    CHARGED,
    CLOSING_TEST,
    DISORDERED,
    FOUGHT,
    SHAKEN,
    WON,
)
from rules_core.rulesets.hail_caesar.tables import (
    modifier,
)
from rules_core.state import BattleState, Unit
from rules_core.toolkit import contact_pairs, engaged


def combat_dice(state: BattleState, unit: Unit) -> tuple[int, list[str]]:
    """Clash (first round) or sustained value, moved by the size and formation tables."""
    first = not FOUGHT.of(unit)
    value = profile.number(unit, "clash" if first else "sustained")
    notes = [f"{'clash' if first else 'sustained'} {value}"]
    dice, moved = measure.sized_dice(state, unit, value, ranged=False)
    return dice, [*notes, *moved]


def to_hit_rows(state: BattleState, unit: Unit, enemy: Unit) -> list[tuple[str, str]]:
    """The rows of the hand-to-hand to-hit table that apply, with the reason the log gives."""
    rows: list[tuple[str, str]] = []
    if CHARGED.of(unit) and not FOUGHT.of(unit):
        rows.append(("charging", "charging"))
    if WON.of(unit):
        rows.append(("winning", "winning"))
    here, there = measure.terrain_kinds_at(state, unit), measure.terrain_kinds_at(state, enemy)
    if "hill" in here and "hill" not in there:
        rows.append(("uphill", "uphill"))
    if SHAKEN.of(unit) or DISORDERED.of(unit):
        rows.append(("shaken_or_disordered", "shaken and/or disordered"))
    if unit.formation == measure.OPEN_ORDER:
        rows.append(("open_order", "open order"))
    if measure.edge_touched(unit, enemy) != "front":
        rows.append(("flank_rear", "enemy to its flank or rear"))
    return rows


def to_hit(state: BattleState, unit: Unit, enemy: Unit) -> list[Modifier]:
    """The hand-to-hand to-hit modifiers: the rows that apply, each number from the table."""
    table = tables.TO_HIT_HAND_TO_HAND
    return [Modifier(modifier(table, row), why) for row, why in to_hit_rows(state, unit, enemy)]


def attack_roll(
    state: BattleState,
    params: Mapping[str, Json],
    unit: Unit,
    enemy: Unit,
    helpers: Sequence[Unit],
) -> RollSpec | None:
    """A unit's hand-to-hand attack on an enemy, supports adding their short value."""
    dice, notes = combat_dice(state, unit)
    for friend in helpers:
        extra = profile.number(friend, "short")
        if extra:
            dice += extra
            notes.append(f"+{extra} support from {friend.name}")
    label = f"Hand-to-hand: {unit.name} against {enemy.name} ({', '.join(notes)} → {dice} dice)"
    why = Purpose(unit.id, "hand-to-hand", enemy.id)
    return morale.attack_roll(label, dice, to_hit(state, unit, enemy), params, why)


def attacks(ctx: Context, unit: Unit, enemy: Unit, helpers: Sequence[Unit]) -> int:
    """A unit's hand-to-hand hits on an enemy."""
    spec = attack_roll(ctx.state, ctx.params, unit, enemy, helpers)
    return 0 if spec is None else spec.roll(ctx.dice).total


def test_reason(unit: Unit, loser: str | None, diff: int) -> tuple[str, list[Modifier]]:
    """Why a unit takes a break test after a round ("" for no test) and the test's modifiers:
    it lost, it is shaken and drew, or closing shots hurt it as it charged."""
    if loser == unit.id:
        return "lost the combat", [Modifier(-diff, f"lost by {diff}")]
    if loser is None and SHAKEN.of(unit):
        return "shaken and drew the combat", []
    if CLOSING_TEST.of(unit):
        return "hit by closing shots", []
    return "", []


def resolve_combat(ctx: Context) -> None:
    """Both sides fight every combat; losers, shaken drawers and shot chargers test."""
    for a_id, b_id in contact_pairs(ctx.state):
        if morale.alive(ctx.state, a_id) and morale.alive(ctx.state, b_id):
            fight(ctx, a_id, b_id)
    for unit in ctx.state.units:
        if CHARGED.of(unit):
            ctx.set_status(unit.id, "the charge is spent", charged=False)


def fight(ctx: Context, a_id: str, b_id: str) -> None:
    """One round of one combat and its break tests."""
    reach = ctx.number("support_distance")
    a, b = ctx.state.unit(a_id), ctx.state.unit(b_id)
    ctx.emit(MeleeFought(a.id, b.id))  # the map marks where they meet
    helpers = {u.id: measure.supports(ctx.state, u, reach) for u in (a, b)}
    hits_a = attacks(ctx, a, b, helpers[a.id])
    hits_b = attacks(ctx, b, a, helpers[b.id])
    lost_b = morale.saves(ctx, b, hits_a, morale.save_modifiers(ctx.state, b))
    lost_a = morale.saves(ctx, a, hits_b, morale.save_modifiers(ctx.state, a))
    shattered = {
        a.id: _suffer(ctx, a, lost_a, b, [u.id for u in helpers[a.id]]),
        b.id: _suffer(ctx, b, lost_b, a, [u.id for u in helpers[b.id]]),
    }
    diff = abs(lost_a - lost_b)
    loser = a.id if lost_a > lost_b else b.id if lost_b > lost_a else None
    _result(ctx, (a.id, lost_b), (b.id, lost_a), loser, diff)
    for unit, enemy in sorted(((a, b), (b, a)), key=lambda pair: pair[0].id != loser):
        if shattered[unit.id]:
            _supports_test(ctx, helpers[unit.id], diff, enemy, "supported unit shattered")
            continue
        _after(ctx, unit, enemy, loser, diff, [u.id for u in helpers[unit.id]])


def _result(
    ctx: Context, a: tuple[str, int], b: tuple[str, int], loser: str | None, diff: int
) -> None:
    """Log the round's outcome as data (no line: casualties and break tests say it); ``hits``
    are the casualties each unit caused."""
    winner = None if loser is None else b[0] if loser == a[0] else a[0]
    row = "draw" if loser is None else f"lost by {diff}"
    ctx.emit(
        MeleeResolved(
            a[0],
            "",
            a[1] - b[1],
            winner == a[0],
            row,
            False,
            winner,
            loser,
            (a, b),
            "" if loser is None else "break_test",
        )
    )


def _suffer(ctx: Context, unit: Unit, lost: int, enemy: Unit, helpers: list[str]) -> bool:
    """Add casualties; excess goes to supports; at double stamina the unit is shattered."""
    stamina = profile.number(unit, "stamina", 6)
    total = CASUALTIES.of(unit) + lost
    excess = morale.add_casualties(ctx, unit.id, lost, f"fighting {enemy.name}")
    for index in range(excess):
        if helpers:
            morale.add_casualties(ctx, helpers[index % len(helpers)], 1, "casualties passed back")
    if lost and total >= 2 * stamina:
        morale.remove(ctx, unit.id, f"shattered: {total} casualties, double its stamina")
        return True
    return False


def _after(
    ctx: Context, unit: Unit, enemy: Unit, loser: str | None, diff: int, helpers: list[str]
) -> None:
    """Break test for a loser, a shaken unit that drew, or a charger shaken by closing shots."""
    if not morale.alive(ctx.state, unit.id):
        return
    current = ctx.state.unit(unit.id)
    still = morale.alive(ctx.state, enemy.id)
    why, mods = test_reason(current, loser, diff)
    if CLOSING_TEST.of(current):
        ctx.set_status(unit.id, "closing shots taken into account", closing_test=False)
    outcome = "held"
    if why:
        result = morale.break_test(ctx, current, "hand_to_hand", mods, why)
        outcome = morale.apply_hand_to_hand(ctx, unit.id, result, enemy, helpers)
        if outcome == "broken":
            supporters = [ctx.state.unit(h) for h in helpers if morale.alive(ctx.state, h)]
            _supports_test(ctx, supporters, 0, enemy, "supported unit broke")
    _mark(ctx, unit.id, enemy.id, loser, outcome, still)


def _mark(
    ctx: Context, unit_id: str, enemy_id: str, loser: str | None, outcome: str, still: bool
) -> None:
    """Remember the round: fought (sustained next time) and winning, while still in contact."""
    if not morale.alive(ctx.state, unit_id):
        return
    unit = ctx.state.unit(unit_id)
    touching = still and morale.alive(ctx.state, enemy_id) and engaged(ctx.state, unit)
    won = touching and loser is not None and loser != unit_id
    changes = {
        flag.key: value
        for flag, value in ((FOUGHT, touching), (WON, won))
        if flag.of(unit) != value
    }
    if changes:
        ctx.set_status(unit_id, "after the round", **changes)


def _supports_test(ctx: Context, helpers: Sequence[Unit], diff: int, enemy: Unit, why: str) -> None:
    """Each supporting unit takes a break test when the unit it supported breaks or shatters."""
    for helper in helpers:
        if not morale.alive(ctx.state, helper.id):
            continue
        mods = [Modifier(-diff, f"lost by {diff}")] if diff else []
        unit = ctx.state.unit(helper.id)
        result = morale.break_test(ctx, unit, "hand_to_hand", mods, why)
        morale.apply_hand_to_hand(ctx, helper.id, result, enemy, ())
