"""Ranged attacks: dice by unit size and formation, to-hit and save modifiers, break tests."""

from __future__ import annotations

from collections.abc import Mapping

from rules_core import profile
from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import GM, Decision, Option
from rules_core.dice import Modifier, Purpose
from rules_core.events import OrderRejected, ShotFired, ShotResolved
from rules_core.geometry import Footprint, quarter, range_from_front
from rules_core.odds import RollSpec
from rules_core.rulesets.hail_caesar import measure, morale, tables
from rules_core.rulesets.hail_caesar.status import DISORDERED, SHAKEN
from rules_core.rulesets.hail_caesar.tables import (
    modifier,
)
from rules_core.rulesets.hail_caesar.topics import SIGHT, SIGHT_WORDS
from rules_core.state import BattleState, Unit
from rules_core.toolkit import checked_orders, engaged, param_number

SLOW_TARGETS = frozenset({"artillery", "baggage", "wagons"})


def ranged_dice(state: BattleState, unit: Unit, value: int) -> tuple[int, list[str]]:
    """A ranged value adjusted by the unit-size and formation tables, with the reasons."""
    return measure.sized_dice(state, unit, value, ranged=True)


def to_hit_rows(
    state: BattleState, shooter: Unit, target: Unit, partial: bool, extra: tuple[str, ...]
) -> list[tuple[str, str]]:
    """The rows of the ranged to-hit table that apply, each with the reason the log gives."""
    rows: list[tuple[str, str]] = []
    if SHAKEN.of(shooter) or DISORDERED.of(shooter):
        rows.append(("shaken_or_disordered", "shooters shaken or disordered"))
    if partial:
        rows.append(("partly_obscured", "target partly obscured"))
    if target.formation == measure.OPEN_ORDER:
        rows.append(("open_order", "target in open order"))
    if target.type in SLOW_TARGETS:
        rows.append(("artillery_or_baggage", "target is artillery or baggage"))
    formed = target.formation != measure.OPEN_ORDER
    front = quarter(Footprint.of(target), (shooter.x, shooter.y)) == "front"
    if formed and front and target.type == "heavy_infantry" and profile.flag(target, "shields"):
        why = "formed shielded heavy infantry, shot from the front"
        rows.append(("shielded_heavy_infantry_front", why))
    if formed and target.type == "cataphracts":
        rows.append(("cataphracts", "formed cataphract cavalry"))
    # Declared situations ("closing shots", "extreme range") name their row in words.
    rows.extend((reason.replace(" ", "_"), reason) for reason in extra)
    return rows


def to_hit(
    state: BattleState, shooter: Unit, target: Unit, partial: bool, extra: tuple[str, ...]
) -> list[Modifier]:
    """The ranged to-hit modifiers: the rows that apply, each number from the table."""
    rows = to_hit_rows(state, shooter, target, partial, extra)
    return [Modifier(modifier(tables.TO_HIT_RANGED, row), why) for row, why in rows]


def resolve_shooting(ctx: Context) -> None:
    """Each unit given a shoot order shoots at its target."""
    for order in checked_orders(ctx, ("shoot",)):
        shooter = ctx.state.unit(order.actor)
        target_id = order.params["target"]
        assert isinstance(target_id, str)
        if not morale.alive(ctx.state, target_id):
            continue
        target = ctx.state.unit(target_id)
        seen = measure.sight(ctx.state, shooter, target)
        if not seen.clear and not _gm_sees(ctx, shooter, target, seen.blocked_by):
            ctx.emit(OrderRejected(shooter.id, "shoot", "the GM ruled it cannot see its target"))
            continue
        extra = ("extreme range",) if order.params.get("option") == "extreme_range" else ()
        shoot(ctx, shooter, target, seen.partial, extra)


def _gm_sees(ctx: Context, shooter: Unit, target: Unit, blocked: tuple[str, ...]) -> bool:
    options = tuple(Option(key, label) for key, label in SIGHT_WORDS.items())
    question = (
        f"By the geometry {shooter.name} cannot see {target.name} (blocked by "
        f"{', '.join(_name(ctx, key) for key in blocked)}). Does it see?"
    )
    asked = Decision(
        f"sight:{shooter.id}",
        question,
        options,
        "blocked",
        GM,
        topic=SIGHT,
        unit=shooter.id,
        other=target.id,
    )
    return ctx.ask(asked) == "clear"


def shot_roll(
    state: BattleState,
    params: Mapping[str, Json],
    shooter: Unit,
    target: Unit,
    partial: bool,
    extra: tuple[str, ...],
) -> tuple[float, RollSpec | None]:
    """The range to a target and the ranged attack at it (None: no dice at that range)."""
    apart = range_from_front(Footprint.of(shooter), Footprint.of(target))
    short = apart <= param_number(params, "short_range") or "closing shots" in extra
    value = profile.number(shooter, "short" if short else "long")
    dice, notes = ranged_dice(state, shooter, value)
    mods = to_hit(state, shooter, target, partial, extra)
    band = "short" if short else "long"
    label = f"Shooting: {shooter.name} at {target.name} ({band} range {value}"
    label += "".join(f", {note}" for note in notes) + f" → {dice} dice)"
    why = Purpose(shooter.id, "shooting", target.id, band)
    return apart, morale.attack_roll(label, dice, mods, params, why)


def shoot(ctx: Context, shooter: Unit, target: Unit, partial: bool, extra: tuple[str, ...]) -> bool:
    """One unit's ranged attack; returns True if the target must take a break test."""
    apart, spec = shot_roll(ctx.state, ctx.params, shooter, target, partial, extra)
    if spec is None:
        return False
    ctx.emit(ShotFired(shooter.id, target.id, round(apart, 2)))  # the map draws every shot
    roll = spec.roll(ctx.dice)
    weapon = str(shooter.get("weapon", "none"))
    was_shaken = SHAKEN.of(target)
    lost = morale.saves(
        ctx, target, roll.total, morale.save_modifiers(ctx.state, target, weapon, True)
    )
    morale.add_casualties(ctx, target.id, lost, f"shot by {shooter.name}")
    need = roll.target or 6
    test = _must_test(ctx, target.id, was_shaken, lost, roll.total, need, roll.faces)
    band = "" if spec.purpose is None else spec.purpose.row or ""
    ctx.emit(
        ShotResolved(
            target.id,
            "",
            lost,
            lost > 0,
            band,
            False,
            shooter.id,
            target.id,
            roll.total,
            "break_test" if test else "",
        )
    )
    if test and "closing shots" not in extra:
        result = morale.break_test(ctx, ctx.state.unit(target.id), "ranged", (), "shot at")
        morale.apply_ranged(ctx, target.id, result, shooter)
    return test


def _must_test(
    ctx: Context,
    unit_id: str,
    was_shaken: bool,
    lost: int,
    hits: int,
    need: int,
    faces: tuple[int, ...],
) -> bool:
    """The sheet's triggers: shaken now (or already and hurt), two 6s needed, or any 6."""
    if not morale.alive(ctx.state, unit_id):
        return False
    shaken_now = SHAKEN.of(ctx.state.unit(unit_id))
    if (shaken_now and not was_shaken) or (was_shaken and lost > 0):
        return True
    if need >= 6:
        return hits >= 2
    return hits > 0 and 6 in faces


def may_close_shoot(state: BattleState, target: Unit, charger: Unit) -> bool:
    """True if a charged unit can shoot closing shots at its charger (to its front)."""
    has_weapon = str(target.get("weapon", "none")) != "none" and profile.number(target, "short") > 0
    facing = quarter(Footprint.of(target), (charger.x, charger.y)) == "front"
    shaped = not tables.no_ranged_dice(target.formation)
    return has_weapon and facing and shaped and not engaged(state, target)


def closing_shots(ctx: Context, target: Unit, charger: Unit) -> None:
    """The charged unit shoots at the charger; a break test it triggers is taken in combat."""
    partial = measure.sight(ctx.state, target, charger).partial
    if shoot(ctx, target, charger, partial, ("closing shots",)) and morale.alive(
        ctx.state, charger.id
    ):
        ctx.set_status(charger.id, "hurt by closing shots", closing_test=True)


def _name(ctx: Context, key: str) -> str:
    """The name of a unit or terrain feature from its id."""
    for unit in ctx.state.units:
        if unit.id == key:
            return unit.name
    return next((f.name or f.id for f in ctx.state.terrain if f.id == key), key)
