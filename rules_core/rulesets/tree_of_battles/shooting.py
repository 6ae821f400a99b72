"""Shooting: range bands, missile dice per stand and their halving, artillery per gun."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import ShotFired, ShotResolved
from rules_core.geometry import Footprint, quarter, range_from_front, within
from rules_core.odds import RollSpec
from rules_core.rulesets.tree_of_battles import kept, measure, tables
from rules_core.rulesets.tree_of_battles import units as u
from rules_core.rulesets.tree_of_battles.status import BROKEN, IN_COMBAT, LAST_RANGE, LAST_TARGET
from rules_core.state import BattleState, Unit
from rules_core.tables import ScoreTable
from rules_core.toolkit import g

FORTIFIED = frozenset({"fortification"})
Params = Mapping[str, Json]


@dataclass(frozen=True)
class Shot:
    """A legal shot: range, its band, and the modifiers known before the dice."""

    shooter: Unit
    target: Unit
    distance: float
    band: str  # close, effective, beyond (artillery) or maximum (missile troops)
    modifiers: tuple[Modifier, ...]
    dice: int
    halved: tuple[str, ...]

    @property
    def artillery(self) -> bool:
        """True for guns."""
        return u.missile(self.shooter) == "artillery"

    def need(self) -> int:
        """The D6 score each missile die needs: the table's hit score less the modifiers."""
        return hit_score() - sum(m.value for m in self.modifiers)


def hit_score() -> int:
    """The lowest D6 score the shooting table counts as a hit (5 on the sheet)."""
    hit = next(band for band in tables.SHOOTING_HIT.bands if band.result == "hit")
    assert hit.low is not None
    return hit.low


def ranges(kind: str, params: Mapping[str, Json]) -> tuple[float, float | None, float | None]:
    """Maximum, effective and close range of a missile kind (the artillery maximum as set)."""
    maximum, effective, close = (tables.RANGES.lookup(kind, c) for c in tables.RANGES.columns)
    if kind == "artillery":
        maximum = params.get("artillery_maximum", maximum)
    assert isinstance(maximum, int | float)
    eff = float(effective) if isinstance(effective, int | float) else None
    near = float(close) if isinstance(close, int | float) else None
    return float(maximum), eff, near


def band_of(kind: str, distance: float, params: Mapping[str, Json]) -> str | None:
    """The range band of a distance, or None beyond maximum range."""
    maximum, effective, close = ranges(kind, params)
    if close is not None and within(distance, close):
        return "close"
    if effective is not None and within(distance, effective):
        return "effective"
    if within(distance, maximum):
        return "beyond" if effective is not None else "maximum"
    return None


def plan(state: BattleState, shooter: Unit, target: Unit, params: Mapping[str, Json]) -> Shot | str:
    """The shot a contingent would take at a target, or why it may not shoot (kept per state:
    a step's shots are judged with its orders, then planned again as it resolves)."""
    key = ("shot", shooter.id, target.id, repr(sorted(params.items())))
    return kept.answer(state, key, (shooter, target), lambda: _plan(state, shooter, target, params))


def _plan(state: BattleState, shooter: Unit, target: Unit, params: Params) -> Shot | str:
    """``plan`` worked out."""
    kind = u.missile(shooter)
    if kind == "none":
        return f"{shooter.name} has no missiles"
    if target.side == shooter.side:
        return f"{target.name} is a friendly contingent"
    if IN_COMBAT.of(shooter) or BROKEN.of(shooter):
        return f"{shooter.name} is {'in combat' if IN_COMBAT.of(shooter) else 'routing'}"
    if quarter(Footprint.of(shooter), (target.x, target.y)) != "front":
        return f"{target.name} is not to {shooter.name}'s front"
    seen = measure.sight(state, shooter, target)
    if not seen.clear:
        return f"no line of sight to {target.name}"
    distance = range_from_front(Footprint.of(shooter), Footprint.of(target))
    band = band_of(kind, distance, params)
    if band is None:
        maximum = ranges(kind, params)[0]
        return f"{target.name} is {g(distance)} SF away, beyond {g(maximum)} SF maximum range"
    if kind == "artillery":
        mods = artillery_modifiers(state, shooter, target, distance, band)
        return Shot(shooter, target, distance, band, tuple(mods), u.stands_left(shooter), ())
    halved = halving(shooter, params)
    dice = u.front_stands(shooter)
    dice = math.ceil(dice / 2) if halved else dice
    mods = missile_modifiers(state, shooter, target, band)
    return Shot(shooter, target, distance, band, tuple(mods), dice, halved)


def halving(shooter: Unit, params: Mapping[str, Json]) -> tuple[str, ...]:
    """Why the dice are halved: 1 DP per stand, in disarray, or understrength."""
    share = params.get("understrength_share", 0.5)
    assert isinstance(share, int | float)
    found = (
        u.one_dp_per_stand(shooter),
        u.array(shooter) == "disarray",
        u.understrength(shooter, share),
    )
    return tuple(why for why, hit in zip(tables.HALVE_DICE, found, strict=True) if hit)


def _value(table_key: str) -> int:
    value = tables.SHOOTING_MODIFIERS.lookup(table_key, "value")
    assert isinstance(value, int)
    return value


def in_cover(state: BattleState, target: Unit) -> bool:
    """True if the target stands in a wood, village or fortification."""
    return bool(measure.areas_at(state, (target.x, target.y)) & measure.COVER)


def missile_modifiers(state: BattleState, shooter: Unit, target: Unit, band: str) -> list[Modifier]:
    """Every shooting modifier the state and geometry decide."""
    kind = u.missile(shooter)
    foot = not u.mounted(target)
    found: list[Modifier] = []
    if kind in ("archers", "skirmishers") and foot and u.armour(target) >= 1:
        found.append(Modifier(_value("armoured_foot"), "archers/skirmishers at armoured foot"))
    if u.foot_skirmishers(target):
        found.append(Modifier(_value("foot_skirmishers"), "shooting at foot skirmishers"))
    if in_cover(state, target):
        found.append(Modifier(_value("cover"), "target in cover"))
    if band == "close" and not (kind == "archers" and u.armour(target) == 2):
        found.append(Modifier(_value("close"), "close range"))
    if kind == "archers" and u.mounted(target) and u.array(target) != "skirmish":
        found.append(Modifier(_value("archers_at_mounted"), "archers at non-skirmishing mounted"))
    return found


def _art(key: str) -> int:
    value = tables.ARTILLERY_MODIFIERS.lookup(key, "value")
    assert isinstance(value, int)
    return value


def artillery_modifiers(
    state: BattleState, gun: Unit, target: Unit, distance: float, band: str
) -> list[Modifier]:
    """Every artillery modifier; "same target and range" and "new target" compare the last shot."""
    found: list[Modifier] = []
    last, last_range = LAST_TARGET.of(gun), LAST_RANGE.of(gun)
    same_range = isinstance(last_range, int | float) and abs(float(last_range) - distance) <= 0.25
    if last == target.id and same_range:
        found.append(Modifier(_art("same_target"), "same target and range"))
    elif last != target.id:
        # The same target at a changed range earns neither: it is not a new target.
        found.append(Modifier(_art("new_target"), "new target"))
    enfilade = measure.quarter_of(target, gun) in ("left", "right")
    if u.array(target) == "column" or enfilade:
        found.append(Modifier(_art("column_or_enfilade"), "column" if not enfilade else "enfilade"))
    if u.dps(gun):
        found.append(
            Modifier(
                _art("each_dp") * u.dps(gun), f"{u.dps(gun)} DP{'s' if u.dps(gun) > 1 else ''}"
            )
        )
    if band == "beyond":
        found.append(Modifier(_art("beyond_effective"), "beyond effective range"))
    if measure.areas_at(state, (target.x, target.y)) & FORTIFIED:
        found.append(Modifier(_art("fortification"), "target in fortification"))
    return found


def describe(shot: Shot) -> str:
    """A preview of a shot."""
    if shot.artillery:
        mods = "".join(f", {m.describe()}" for m in shot.modifiers)
        where = f"{g(shot.distance)} SF ({shot.band} range)"
        return f"{shot.dice} D6 (one a gun) at {shot.target.name}, {where}{mods}"
    halved = f", halved ({', '.join(shot.halved)})" if shot.halved else ""
    return (
        f"{shot.dice} D6 at {shot.target.name}, {g(shot.distance)} SF ({shot.band} range){halved}: "
        f"1 DP for each {shot.need()}+"
    )


def resolve(ctx: Context, shot: Shot) -> int:
    """Roll a shot and look it up; the DPs it causes (applied by the caller, simultaneously)."""
    ctx.emit(ShotFired(shot.shooter.id, shot.target.id, round(shot.distance, 2)))
    if shot.artillery:
        return _shot(ctx, shot, "", _guns(ctx, shot), gun_table(shot).name, False)
    need = shot.need()
    rule = f"{hit_score()}-6 = 1 DP"  # the sheet's row, "D6 roll 5-6 = 1 DP"
    spec = missile_roll(shot)
    if spec is None:
        row = f"{rule}; modified to {need}+: no hit possible"
        return _shot(ctx, shot, "Shooting", 0, row, False)
    roll = spec.roll(ctx.dice)
    row = f"{rule} (modified: {max(1, need)}+)"
    return _shot(ctx, shot, f"Shooting by {shot.shooter.name}", roll.total, row, True)


def _shot(ctx: Context, shot: Shot, test: str, dps: int, row: str, verdict: bool) -> int:
    """Log a shot's outcome (read as the test line ``test``, none when "") and its DPs."""
    target = shot.target.id
    ctx.emit(
        ShotResolved(
            target,
            test,
            dps,
            dps > 0,
            row,
            verdict,
            shot.shooter.id,
            target,
            dps,
            "dps" if dps else "",
        )
    )
    return dps


def missile_roll(shot: Shot) -> RollSpec | None:
    """The missile troops' pool: one D6 per die, each hitting on the modified score; None when
    the modifiers put a hit out of reach."""
    need = shot.need()
    if need > 6:
        return None
    reasons = ", ".join(m.describe() for m in shot.modifiers) or "no modifiers"
    rule = f"{hit_score()}-6 = 1 DP"
    label = f"Shooting: {shot.shooter.name} at {shot.target.name} ({rule}; {reasons}: {need}+)"
    why = Purpose(shot.shooter.id, "shooting", shot.target.id, shot.band)
    return RollSpec(label, shot.dice, mode="pool", target=max(1, need), purpose=why)


def gun_roll(shot: Shot, gun: int) -> RollSpec:
    """One gun's D6 with the artillery modifiers."""
    label = f"Artillery: {shot.shooter.name} gun {gun} at {shot.target.name}"
    why = Purpose(shot.shooter.id, "artillery", shot.target.id, shot.band)
    return RollSpec(label, 1, modifiers=shot.modifiers, purpose=why)


def gun_table(shot: Shot) -> ScoreTable:
    """The artillery results table of the shot's range band."""
    return tables.ARTILLERY_CLOSE if shot.band == "close" else tables.ARTILLERY_EFFECTIVE


def gun_dps(result: str) -> int:
    """The DPs an artillery result gives ("none" gives none)."""
    return int(result) if result != "none" else 0


def _guns(ctx: Context, shot: Shot) -> int:
    """Artillery: 1 D6 per gun, each looked up in the band's results table."""
    table = gun_table(shot)
    total = 0
    for gun in range(1, shot.dice + 1):
        roll = gun_roll(shot, gun).roll(ctx.dice)
        band = ctx.test(shot.target.id, table.name, roll, table, ("1", "2"))
        total += gun_dps(band.result)
    u.set_flags(
        ctx,
        shot.shooter.id,
        "artillery remembers its target",
        last_target=shot.target.id,
        last_range=round(shot.distance, 2),
    )
    return total
