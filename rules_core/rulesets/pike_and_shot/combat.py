"""The Combat step: "any eligible units, of both sides, may conduct shooting then resolve any
melee combat."

Shooting: every unit not in melee with a shooting column, at its ordered target (``shoot``) or
else the nearest enemy in range with a Firing Lane; all dice (hits and saves) are rolled on the
state before any shot lands ("All firing is considered to be simultaneous"), then each shot's
unsaved hits are looked up in the Shooting Results against the target's state as it then is.

Melee: every group of units in contact fights; each unit rolls at the enemy it touches (front
contact first), the enemy saves; a side's score is the unsaved hits it inflicts. The difference
is the Melee Results row; the loser's units take the row's effect by their state, the winner
may advance one unit into the vacated ground (``moves.advance_into``) and, after a rout or
destruction, tests for Impetuous Pursuit. A stand-off leaves both engaged; cavalry against
infantry may break off (not on the sheet: ``break_off`` parameters).

Every roll shows its dice, each modifier to the number of dice and to the score with the
sheet's words, and each result names its table row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import Modifier, Purpose
from rules_core.events import MeleeFought, MeleeResolved, ShotFired, ShotResolved, TestResolved
from rules_core.geometry import Footprint, contact_edge, near, quarter, range_from_front, within
from rules_core.odds import RollSpec
from rules_core.plugin import Parameter
from rules_core.rulesets.pike_and_shot import cohesion as co
from rules_core.rulesets.pike_and_shot import moves, profiles
from rules_core.rulesets.pike_and_shot import tables as t
from rules_core.rulesets.pike_and_shot.status import (
    ARMOURED,
    ARTILLERY_FIRE,
    COVER,
    ENGAGED,
    ENGAGED_WITH,
    HITS,
    LANCE,
    MARCH_COLUMN,
    PIKE,
    cohesion,
)
from rules_core.standing import Topic
from rules_core.state import BattleState, Unit
from rules_core.terrain import SIGHT_BLOCKING
from rules_core.toolkit import checked_orders, enemies_in_contact, gap, sight

SILENT = "not on the sheet (see README_combat.md)"
BREAK_OFF = "break_off"
BREAK_OFF_WORDS = {"remain": "remain engaged", "break_off": "attempt to break off"}
BREAK_OFF_RULING = "break_off_ruling"
RULING_WORDS = {"yes": "it breaks off", "no": "it remains engaged"}
PARAMETERS = (
    Parameter("close_range_share", 0.5,
              "a shot is at close range within this share of the shooter's range", SILENT),
    Parameter("uphill_terrain", ["hill"],
              "terrain kinds a unit stands uphill on (saves, disorder test)", SILENT),
    Parameter("break_off", "disorder_test",
              "cavalry breaking off a stand-off with infantry: disorder_test (it must pass one), "
              "automatic, or gm (the GM rules, the disorder test's result by default)", SILENT),
    Parameter("break_off_distance", 4.0,
              "inches a cavalry unit that breaks off moves back, facing the enemy", SILENT),
)  # fmt: skip
TOPICS = (
    Topic(BREAK_OFF, "cavalry in a stand-off with infantry: remain engaged or break off",
          tuple(Option(k, v) for k, v in BREAK_OFF_WORDS.items())),
    # The GM's ruling (standing instructions are for sides: never answered ahead).
    Topic(BREAK_OFF_RULING, "GM: does a cavalry unit attempting to break off succeed",
          tuple(Option(k, v) for k, v in RULING_WORDS.items())),
)  # fmt: skip
BEHIND = ("left", "right", "rear")


# -- who is what -----------------------------------------------------------------------------


def mounted(unit: Unit) -> bool:
    """Mounted: cavalry, and dragoons that are not dismounted (``profiles.is_mounted``)."""
    return profiles.is_mounted(unit)


def size(unit: Unit) -> str:
    """tercio, double, brigade or company (``cohesion.size``)."""
    return co.size(unit)


def company(unit: Unit) -> bool:
    """A company (a sub-unit)."""
    return profiles.is_company(unit)


def infantry(unit: Unit) -> bool:
    """Foot: not mounted and not artillery (dismounted dragoons are foot)."""
    return not mounted(unit) and unit.type not in t.ARTILLERY


def dice_row(unit: Unit) -> str:
    """The Combat dice row a unit reads (dismounted dragoons read the detachments' row)."""
    if unit.type == "dragoons" and unit.status.get("dismounted") is True:
        return "dismounted_dragoons"
    return unit.type if unit.type in t.COMBAT_DICE.rows else "infantry_brigade"


def shooting_range(unit: Unit) -> float:
    """The unit's range in inches (0: it does not shoot; a march column never does)."""
    if MARCH_COLUMN.of(unit):
        return 0.0
    value = t.COMBAT_DICE.lookup(dice_row(unit), "range")
    return float(value) if isinstance(value, int | float) else 0.0


def attacked_edge(target: Unit, attacker: Unit, combat: str = "melee") -> str:
    """The target's edge the attacker fights: in melee the edge it touches ("" if none), in
    shooting the quarter of the target the shooter stands in."""
    here = Footprint.of(target)
    if combat == "shooting":
        return quarter(here, (attacker.x, attacker.y))
    return contact_edge(here, Footprint.of(attacker)) or ""


# -- the dice --------------------------------------------------------------------------------


def _dice_mod(row: str, times: int = 1) -> Modifier:
    return Modifier(t.whole(t.DICE_MODIFIERS, row, "dice") * times, t.sheet(t.DICE_MODIFIERS, row))


def dice_modifiers(unit: Unit, enemy: Unit, combat: str) -> list[Modifier]:
    """Every modifier to the number of d6 a unit rolls at ``enemy`` in ``combat`` ("shooting"
    or "melee"), with the sheet's words; a row counts only in the combats it names."""
    state = cohesion(unit)
    found: list[tuple[str, bool]] = [
        ("flank", attacked_edge(enemy, unit, combat) in ("left", "right")),
        ("pike_vs_mounted", PIKE.of(unit) and mounted(enemy)),
        ("veteran_volley", unit.type in t.VOLLEY_TYPES and unit.quality == "veteran"
         and state == "sound"),
        ("veteran_cavalry", unit.quality == "veteran" and unit.type in t.CAVALRY_TYPES
         and unit.type != "dragoons"),
        ("lance", LANCE.of(unit) and cohesion(enemy) != "sound"),
        ("disrupted", state == "disrupted"),
        ("company_march_column", MARCH_COLUMN.of(unit) and company(unit)),
        ("brigade_march_column", MARCH_COLUMN.of(unit) and not company(unit)),
        ("routed", state == "routed"),
    ]  # fmt: skip
    return [
        _dice_mod(row)
        for row, applies in found
        if applies and t.DICE_MODIFIERS.lookup(row, "combats") in ("all", combat)
    ]


def base_dice(unit: Unit, combat: str) -> int:
    """The Combat dice table's number for the unit (0 for the sheet's "-")."""
    value = t.COMBAT_DICE.lookup(dice_row(unit), combat)
    return int(value) if isinstance(value, int) else 0


def dice_count(unit: Unit, enemy: Unit, combat: str) -> tuple[int, int, list[Modifier]]:
    """(dice rolled, the table's dice, the modifiers). A march column in melee rolls at least
    the "March Columns" row's die; otherwise a unit whose dice fall to 0 rolls none."""
    base = base_dice(unit, combat)
    mods = dice_modifiers(unit, enemy, combat)
    count = base + sum(m.value for m in mods) if base else 0
    if combat == "melee" and MARCH_COLUMN.of(unit):
        floor = base_dice_of_row("march_column", "melee")
        if count < floor:
            mods.append(Modifier(floor - count, "'Rabble' infantry and March Columns | 1 die"))
            count = floor
    return max(0, count), base, mods


def base_dice_of_row(row: str, combat: str) -> int:
    value = t.COMBAT_DICE.lookup(row, combat)
    return int(value) if isinstance(value, int) else 0


def attack_roll(unit: Unit, enemy: Unit, combat: str) -> RollSpec | None:
    """The unit's combat dice at ``enemy`` (None: no dice), hits on 4+; rolled by the step and
    read by the odds."""
    count, base, mods = dice_count(unit, enemy, combat)
    if count <= 0:
        return None
    row = t.sheet(t.COMBAT_DICE, dice_row(unit)).split(" | ")[0]
    label = (
        f"{combat.title()}: {unit.name} at {enemy.name} ({row}: {base} dice; hits on {t.HIT_ON}+)"
    )
    why = Purpose(unit.id, combat, enemy.id, row)
    return RollSpec(
        label, base, mode="pool", target=t.HIT_ON, dice_modifiers=tuple(mods), purpose=why
    )


# -- the saves -------------------------------------------------------------------------------


def on_high_ground(state: BattleState, unit: Unit, params: Mapping[str, Json]) -> bool:
    """The unit's centre stands on terrain of the ``uphill_terrain`` kinds."""
    kinds = co.kinds(params, "uphill_terrain")
    return co.in_terrain(state, unit, kinds)


def close_range(shooter: Unit, target: Unit, params: Mapping[str, Json]) -> bool:
    """Within ``close_range_share`` of the shooter's range (from its front edge)."""
    share = float(co.num(params, "close_range_share", 0.5))
    apart = range_from_front(Footprint.of(shooter), Footprint.of(target))
    return within(apart, shooting_range(shooter) * share)


def save_modifiers(
    state: BattleState, target: Unit, attacker: Unit, combat: str, params: Mapping[str, Json]
) -> list[Modifier]:
    """Every saving-throw modifier of ``target`` against hits from ``attacker``."""
    level = cohesion(target)
    edge = attacked_edge(target, attacker, combat)
    shooting = combat == "shooting"
    artillery = attacker.type in t.ARTILLERY
    close = shooting and close_range(attacker, target, params)
    found: list[tuple[str, bool]] = [
        ("veteran", target.quality == "veteran"),
        ("poor_attacker", attacker.quality == "raw"
         or cohesion(attacker) in ("disordered", "disrupted")),
        ("armoured_cavalry", ARMOURED.of(target) and mounted(target)),
        ("uphill", on_high_ground(state, target, params)
         and not on_high_ground(state, attacker, params)),
        ("cover", COVER.of(target) in ("cover", "buildings", "fortifications")),
        ("close_range", close and not artillery),
        ("close_artillery", close and artillery),
        ("disordered", level == "disordered"),
        ("disrupted", level == "disrupted"),
        ("flank", edge in ("left", "right")),
        ("rear", edge == "rear"),
    ]  # fmt: skip
    table = t.SAVE_MODIFIERS
    return [
        Modifier(t.whole(table, row, "dice"), t.sheet(table, row))
        for row, applies in found
        if applies and table.lookup(row, "combats") in ("all", combat)
    ]


def save_roll(
    state: BattleState, target: Unit, attacker: Unit, combat: str, params: Mapping[str, Json]
) -> RollSpec | None:
    """The target's saving dice against ``attacker``'s hits (None: no dice), saving on 4+."""
    base = t.whole(t.SAVING_DICE, size(target), "dice")
    mods = save_modifiers(state, target, attacker, combat, params)
    if base + sum(m.value for m in mods) <= 0:
        return None
    row = t.sheet(t.SAVING_DICE, size(target)).split(" | ")[0]
    label = f"Saves: {target.name} ({row}: {base} dice; saves on {t.SAVE_ON}+)"
    why = Purpose(target.id, "saves", attacker.id, row)
    return RollSpec(
        label, base, mode="pool", target=t.SAVE_ON, dice_modifiers=tuple(mods), purpose=why
    )


def _note_no_dice(ctx: Context, unit: Unit, what: str, spec_mods: Sequence[Modifier]) -> None:
    mods = "; ".join(m.describe() for m in spec_mods) or "none"
    ctx.emit(TestResolved(unit.id, f"{what}: no dice left ({mods})", 0, False, "0 dice", False))


def hits_and_saves(ctx: Context, attacker: Unit, target: Unit, combat: str) -> tuple[int, int, int]:
    """Roll the attacker's dice and the target's saves: (hits, saves, unsaved)."""
    spec = attack_roll(attacker, target, combat)
    if spec is None:
        _, _, mods = dice_count(attacker, target, combat)
        _note_no_dice(ctx, attacker, f"{combat.title()} of {attacker.name}", mods)
        return 0, 0, 0
    hits = spec.roll(ctx.dice).total
    if not hits:
        return 0, 0, 0
    save = save_roll(ctx.state, target, attacker, combat, ctx.params)
    if save is None:
        mods = save_modifiers(ctx.state, target, attacker, combat, ctx.params)
        _note_no_dice(ctx, target, f"Saves of {target.name}", mods)
        return hits, 0, hits
    saved = min(hits, save.roll(ctx.dice).total)
    return hits, saved, hits - saved


# -- shooting --------------------------------------------------------------------------------


def firing_problem(state: BattleState, shooter: Unit, target: Unit) -> str | None:
    """Why ``shooter`` may not fire at ``target``, or None: "any unit within its range and to
    which it has a Firing Lane" (README_combat.md: the lane is the quarter before the
    shooter's front with a clear sight line)."""
    reach = shooting_range(shooter)
    if not shooter.on_table or not target.on_table:
        return "not on the table"
    if reach <= 0:
        return f"{shooter.name} does not shoot"
    if target.side == shooter.side:
        return f"{target.name} is a friend"
    if enemies_in_contact(state, shooter):
        return f"{shooter.name} is in melee"
    if enemies_in_contact(state, target):
        return f"{target.name} is in melee"
    apart = range_from_front(Footprint.of(shooter), Footprint.of(target))
    if not within(apart, reach):
        return f'{target.name} is {apart:.1f}" away; range is {reach:g}"'
    if quarter(Footprint.of(shooter), (target.x, target.y)) != "front":
        return f"{target.name} is not before {shooter.name}'s front (no Firing Lane)"
    if not sight(state, shooter, target, SIGHT_BLOCKING).clear:
        return f"no Firing Lane from {shooter.name} to {target.name}"
    return None


def targets(state: BattleState, shooter: Unit) -> list[Unit]:
    """The enemies it may fire at, nearest first (the computed default is the first)."""
    reach = shooting_range(shooter)
    if reach <= 0 or not shooter.on_table:
        return []
    # only enemies whose boxes come within range of the shooter's box can be in range (the
    # range is measured from its front edge, never shorter than box to box)
    nearby = {id(u) for u in near(state.units, Footprint.of(shooter).bounds, reach)}
    found = [e for e in state.enemies_of(shooter.side, on_table=True) if id(e) in nearby]
    ok = [e for e in found if firing_problem(state, shooter, e) is None]
    return sorted(ok, key=lambda e: gap(shooter, e))


@dataclass(frozen=True)
class Shot:
    """One unit's shooting, rolled before any shot lands."""

    shooter: str
    target: str
    unsaved: int


def shoot(ctx: Context) -> None:
    """Both sides fire at once: all dice first, then each shot's result."""
    ordered = {o.actor: str(o.params.get("target", "")) for o in checked_orders(ctx, ("shoot",))}
    held = {o.actor for o in checked_orders(ctx, ("hold",))}
    shots: list[Shot] = []
    for side in ctx.state.cursor.side_order:
        for shooter in ctx.state.units_of(side, on_table=True):
            if shooter.id in held or shooting_range(shooter) <= 0:
                continue
            target = _target(ctx.state, shooter, ordered.get(shooter.id, ""))
            if target is None:
                continue
            apart = range_from_front(Footprint.of(shooter), Footprint.of(target))
            ctx.emit(ShotFired(shooter.id, target.id, round(apart, 2)))
            _, _, unsaved = hits_and_saves(ctx, shooter, target, "shooting")
            shots.append(Shot(shooter.id, target.id, unsaved))
    for shot in shots:
        apply_shot(ctx, shot)


def _target(state: BattleState, shooter: Unit, wanted: str) -> Unit | None:
    if wanted:
        found = next((u for u in state.units_on_table if u.id == wanted), None)
        if found is not None and firing_problem(state, shooter, found) is None:
            return found
    listed = targets(state, shooter)
    return listed[0] if listed else None


def apply_shot(ctx: Context, shot: Shot) -> None:
    """The Shooting Results row for the shot's unsaved hits and the target's state now."""
    target = ctx.state.unit(shot.target)
    if not target.on_table or cohesion(target) == "destroyed":
        _shot_result(ctx, shot, "", "", "")
        return
    shooter = ctx.state.unit(shot.shooter)
    if shooter.type in t.ARTILLERY and not ARTILLERY_FIRE.of(target):
        why = f"under artillery fire ({shooter.name})"
        ctx.set_status(target.id, why, under_artillery_fire=True)
    took(ctx, target.id, shot.unsaved)
    if not shot.unsaved:
        _shot_result(
            ctx, shot, f"Shooting result ({shooter.name})", "0 unsaved hits: no effect", ""
        )
        return
    row = t.SHOOTING_ROWS.lookup(shot.unsaved)
    column = cohesion(target)
    outcome = str(t.SHOOTING_RESULTS.lookup(row.result, column))
    words = f"{row.text} against a {column} unit"
    test, row_words = (
        f"Shooting result ({shooter.name})",
        f"{words}: {t.sheet(t.OUTCOMES, outcome)}",
    )
    _shot_result(ctx, shot, test, row_words, outcome)
    artillery = shooter.type in t.ARTILLERY
    apply_outcome(ctx, target, shooter, outcome, f"shot by {shooter.name}", artillery=artillery)


# -- outcomes (shooting and melee) -----------------------------------------------------------


def apply_outcome(
    ctx: Context, unit: Unit, source: Unit, outcome: str, why: str, *, artillery: bool = False
) -> str:
    """Apply an outcome of ``tables.OUTCOMES`` to ``unit``: its new state, its recoil or rout
    move away from ``source``, the disorder test after it, removal. Returns what became of it:
    "stays", "recoiled", "routed", "removed" (destroyed or off the table)."""
    table = t.OUTCOMES
    level = str(table.lookup(outcome, "cohesion"))
    move = str(table.lookup(outcome, "move"))
    test = str(table.lookup(outcome, "test"))
    words = f"{why}: {t.sheet(table, outcome)}"
    if level != cohesion(unit):
        ctx.set_status(unit.id, words, cohesion="routed" if level == "destroyed" else level)
    if test == "rout_or_recoil":
        passed = co.disorder_test(ctx, ctx.state.unit(unit.id), why, artillery_fire=artillery)
        if not passed:
            ctx.set_status(unit.id, f"{why}: failed its Disorder Test: routed", cohesion="routed")
            return _rout(ctx, unit.id, source, why)
        return _recoil(ctx, unit.id, source)
    if move == "recoil":
        return _recoil(ctx, unit.id, source)
    if move == "rout":
        result = _rout(ctx, unit.id, source, why)
        if table.lookup(outcome, "removed") is True:
            if cohesion(ctx.state.unit(unit.id)) != "destroyed":
                moves.remove_from_battle(ctx, unit.id, f"{why}: destroyed after its rout move")
            return "removed"
        if result == "removed":
            return result
        if test == "remove":
            passed = co.disorder_test(ctx, ctx.state.unit(unit.id), why, artillery_fire=artillery)
            if not passed:
                moves.remove_from_battle(
                    ctx, unit.id, f"{why}: failed its Disorder Test after the rout: removed"
                )
                return "removed"
        return result
    return "stays"


def _recoil(ctx: Context, unit_id: str, source: Unit) -> str:
    result = moves.recoil(ctx, ctx.state.unit(unit_id), source, t.RECOIL_DISTANCE)
    return "removed" if result == "eliminated" else "recoiled"


def _rout(ctx: Context, unit_id: str, source: Unit, why: str) -> str:
    """A rout move; "A routed company is removed from the battle after making its rout move."""
    ctx.set_status(unit_id, None, engaged=False, engaged_with="")
    result = moves.rout_move(ctx, ctx.state.unit(unit_id), source)
    if result == "eliminated":
        return "removed"
    unit = ctx.state.unit(unit_id)
    if t.COMPANY_ROUTED_REMOVED and company(unit) and cohesion(unit) == "routed":
        moves.remove_from_battle(
            ctx, unit_id, f"{why}: a routed company is removed after its rout move"
        )
        return "removed"
    return "removed" if result == "off_table" else "routed"


# -- melee -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Melee:
    """One fight: the units of each side in contact, in side order."""

    first: tuple[str, ...]
    second: tuple[str, ...]


def melees(state: BattleState) -> list[Melee]:
    """Every group of units joined by contact with enemies, as two sides."""
    seen: set[str] = set()
    found: list[Melee] = []
    order = state.cursor.side_order or tuple(s.id for s in state.sides)
    for unit in state.units_on_table:
        if unit.id in seen or not enemies_in_contact(state, unit):
            continue
        group, todo = {unit.id}, [unit]
        while todo:
            here = todo.pop()
            for enemy in enemies_in_contact(state, here):
                if enemy.id not in group:
                    group.add(enemy.id)
                    todo.append(enemy)
        seen |= group
        sides = [tuple(u.id for u in state.units_on_table if u.id in group and u.side == s)
                 for s in order]  # fmt: skip
        sides = [s for s in sides if s]
        if len(sides) == 2:
            found.append(Melee(sides[0], sides[1]))
    return found


def opponent(state: BattleState, unit: Unit) -> Unit | None:
    """The enemy a unit fights: the one touching its front, else the first in contact."""
    touching = enemies_in_contact(state, unit)
    here = Footprint.of(unit)
    front = [e for e in touching if contact_edge(here, Footprint.of(e)) == "front"]
    chosen = front or touching
    return chosen[0] if chosen else None


def side_score(ctx: Context, units: Sequence[str]) -> int:
    """The unsaved hits a side's units inflict, each at the enemy it fights (each enemy's
    ``hits`` this turn noted)."""
    total = 0
    for unit_id in units:
        unit = ctx.state.unit(unit_id)
        enemy = opponent(ctx.state, unit)
        if enemy is not None:
            lost = hits_and_saves(ctx, unit, enemy, "melee")[2]
            took(ctx, enemy.id, lost)
            total += lost
    return total


def took(ctx: Context, unit_id: str, unsaved: int) -> None:
    """Note a unit's unsaved hits this turn (``hits``: risk to commanders reads it)."""
    if unsaved > 0:
        before = HITS.of(ctx.state.unit(unit_id))
        ctx.set_status(unit_id, None, hits=before + unsaved)


def fight(ctx: Context) -> None:
    """Every melee in contact after shooting."""
    for melee in melees(ctx.state):
        fight_one(ctx, melee)
    for unit in ctx.state.units_on_table:
        if ENGAGED.of(unit) and not enemies_in_contact(ctx.state, unit):
            ctx.set_status(unit.id, "no longer in contact", engaged=False, engaged_with="")


def _shot_result(ctx: Context, shot: Shot, test: str, row: str, outcome: str) -> None:
    """Log a shot's result: read as ``test`` (no line when ""), with its unsaved hits."""
    ctx.emit(ShotResolved(shot.target, test, shot.unsaved, False, row, False, shot.shooter,
                          shot.target, shot.unsaved, outcome))  # fmt: skip


def fight_one(ctx: Context, melee: Melee) -> None:
    """Both sides roll at once; the difference in unsaved hits is the result for the loser."""
    first = [u for u in melee.first if ctx.state.unit(u).on_table]
    second = [u for u in melee.second if ctx.state.unit(u).on_table]
    if not first or not second:
        return
    ctx.emit(MeleeFought(first[0], second[0]))
    a_score, b_score = side_score(ctx, first), side_score(ctx, second)
    difference = abs(a_score - b_score)
    band = t.MELEE_RESULTS.lookup(difference)
    names = ", ".join(ctx.state.unit(u).name for u in first)
    others = ", ".join(ctx.state.unit(u).name for u in second)
    words = f"Melee result ({names} {a_score} unsaved hits, {others} {b_score})"
    winners, losers = (first, second) if a_score > b_score else (second, first)
    won = band.result != "stand_off"
    ctx.emit(MeleeResolved(
        first[0], words, difference, False, band.row, False,
        winners[0] if won else None, losers[0] if won else None,
        ((first[0], a_score), (second[0], b_score)), band.result,
    ))  # fmt: skip
    if not won:
        stand_off(ctx, first, second)
        return
    melee_result(ctx, band.result, winners, losers, difference)


def stand_off(ctx: Context, first: Sequence[str], second: Sequence[str]) -> None:
    """ "Both units remain engaged into the next turn"; cavalry against infantry may try to
    break off."""
    for unit_id in (*first, *second):
        enemy = opponent(ctx.state, ctx.state.unit(unit_id))
        ctx.set_status(unit_id, "stand-off: remains engaged", engaged=True,
                       engaged_with=enemy.id if enemy else "")  # fmt: skip
    for unit_id in (*first, *second):
        unit = ctx.state.unit(unit_id)
        enemy = opponent(ctx.state, unit)
        if enemy is None or not mounted(unit) or not infantry(enemy):
            continue
        break_off(ctx, unit, enemy)


def break_off(ctx: Context, unit: Unit, enemy: Unit) -> bool:
    """The cavalry's side chooses; by the ``break_off`` parameter the attempt then needs a
    Disorder Test, succeeds, or is the GM's ruling (the test's result by default). A unit that
    breaks off moves back ``break_off_distance`` facing the enemy, with no loss of order."""
    choice = ctx.ask(
        Decision(
            f"break_off:{unit.id}", f"{unit.name} (cavalry) is in a stand-off with {enemy.name}: "
            "remain engaged or attempt to break off?",
            tuple(Option(k, v) for k, v in BREAK_OFF_WORDS.items()), "remain", unit.side,
            topic=BREAK_OFF, unit=unit.id, other=enemy.id,
        )
    )  # fmt: skip
    if choice != "break_off":
        return False
    how = str(ctx.params.get("break_off", "disorder_test"))
    ok = True
    if how in ("disorder_test", "gm"):
        ok = co.disorder_test(ctx, unit, f"{unit.name} attempts to break off")
    if how == "gm":
        ruling = ctx.ask(
            Decision(
                f"break_off_ruling:{unit.id}", f"GM: does {unit.name} break off from {enemy.name}?",
                tuple(Option(k, v) for k, v in RULING_WORDS.items()),
                "yes" if ok else "no", "gm", topic=BREAK_OFF_RULING, unit=unit.id, other=enemy.id,
            )
        )  # fmt: skip
        ok = ruling == "yes"
    if not ok:
        ctx.set_status(unit.id, "fails to break off: remains engaged", engaged=True)
        return False
    distance = float(co.num(ctx.params, "break_off_distance", 4.0))
    ctx.set_status(unit.id, "breaks off", engaged=False, engaged_with="")
    moves.recoil(ctx, unit, enemy, distance)
    return True


def melee_result(
    ctx: Context, result: str, winners: Sequence[str], losers: Sequence[str], difference: int = 0
) -> None:
    """The loser's units take the row's effect; the winner pursues and advances as it says."""
    before = {u: ctx.state.unit(u) for u in losers}
    enemy_of = {u: opponent(ctx.state, ctx.state.unit(u)) for u in losers}
    for unit_id in (*winners, *losers):
        ctx.set_status(unit_id, None, engaged=False, engaged_with="")
    for unit_id in losers:
        unit = ctx.state.unit(unit_id)
        source = enemy_of[unit_id] or ctx.state.unit(winners[0])
        outcome = str(t.MELEE_LOSER.lookup(result, _column(unit)))
        ctx.emit(TestResolved(unit_id, "Melee: effect on the loser", difference, False,
                              f"{result.replace('_', ' ')} ({cohesion(unit)}): "
                              f"{t.sheet(t.OUTCOMES, outcome)}", False))  # fmt: skip
        apply_outcome(ctx, unit, source, outcome, f"lost the melee to {source.name}")
    pursuers: set[str] = set()
    if t.MELEE_WINNER.lookup(result, "pursuit_test") is True:
        for loser_id in losers:
            pursuers |= pursuit(ctx, winners, ctx.state.unit(loser_id), pursuers)
    if t.MELEE_WINNER.lookup(result, "advance") is True:
        advance(ctx, winners, pursuers, list(before.values()))


def _column(unit: Unit) -> str:
    level = cohesion(unit)
    return level if level in t.MELEE_LOSER.columns else "routed"


def advance(
    ctx: Context, winners: Sequence[str], pursuers: set[str], vacated: Sequence[Unit]
) -> None:
    """One of the winner's units that did not pursue may advance into the vacated ground and
    change facing (``moves.advance_into`` asks)."""
    gone = [v for v in vacated if _vacated(ctx.state, v)]
    if not gone:
        return
    for unit_id in winners:
        unit = ctx.state.unit(unit_id)
        if unit_id in pursuers or not unit.on_table or enemies_in_contact(ctx.state, unit):
            continue
        moves.advance_into(ctx, unit, gone[0])
        return


def _vacated(state: BattleState, before: Unit) -> bool:
    now = state.unit(before.id)
    return not now.on_table or (now.x, now.y) != (before.x, before.y)


# -- impetuous pursuit -----------------------------------------------------------------------


def pursuit_modifiers(
    state: BattleState, unit: Unit, routers: Unit, params: Mapping[str, Json]
) -> list[Modifier]:
    """Every Impetuous Pursuit modifier of a winning unit, with the sheet's words."""
    level = cohesion(unit)
    order = co.wing_order(state, unit)
    kind = co.wing_commander_kind(state, unit)
    cover = COVER.of(unit)
    enemy_cav = any(
        mounted(e) and cohesion(e) == "sound" and within(gap(unit, e), t.PURSUIT_ENEMY_CAVALRY)
        for e in state.enemies_of(unit.side, on_table=True)
    )
    clear = routers.on_table and co.clear_path(state, unit, routers, t.PURSUIT_CLEAR_PATH)
    found: list[tuple[str, bool]] = [
        ("enemy_cavalry", enemy_cav),
        ("routers_sub_unit", company(routers)),
        ("detachment", unit.type == "detachment"),
        ("infantry_brigade", unit.type == "infantry_brigade"),
        ("tercio", unit.type == "tercio"),
        ("hold", order == "hold"),
        ("withdraw", order == "withdraw"),
        ("veteran", unit.quality == "veteran"),
        ("disordered", level == "disordered"),
        ("buildings", cover == "buildings"),
        ("fortifications", cover == "fortifications"),
        ("clear_path", clear),
        ("rabble", unit.type == "rabble"),
        ("irregular", unit.type in t.IRREGULAR_TYPES),
        ("sound_cavalry_brigade", unit.type == "cavalry_brigade" and level == "sound"),
        ("sound_double_brigade", unit.type == "double_brigade" and level == "sound"),
        ("attack", order == "attack"),
        ("raw", unit.quality == "raw"),
        ("heroic_commander", kind == "heroic"),
        ("politico_commander", kind == "politico"),
    ]
    table = t.PURSUIT_MODIFIERS
    return [
        Modifier(t.whole(table, row, "modifier"), t.sheet(table, row))
        for row, applies in found
        if applies
    ]


def pursuit_roll(
    state: BattleState, unit: Unit, routers: Unit, params: Mapping[str, Json]
) -> RollSpec:
    """The Impetuous Pursuit test: a d6 with its modifiers; 3 or less pursues."""
    mods = tuple(pursuit_modifiers(state, unit, routers, params))
    why = Purpose(unit.id, "impetuous pursuit", routers.id)
    return RollSpec(
        f"Impetuous pursuit: {unit.name} after {routers.name}", 1, modifiers=mods, purpose=why
    )


def must_test(state: BattleState, unit: Unit, routers: Unit) -> bool:
    """ "If a losing unit ends its rout move within 18ins and line of sight of the winning
    unit(s)"; "Disrupted units may not engage in Impetuous Pursuit." (a routed or destroyed
    unit's last position counts)."""
    if not unit.on_table or cohesion(unit) in ("disrupted", "routed", "destroyed"):
        return False
    if enemies_in_contact(state, unit):
        return False
    return co.within_sight(state, unit, routers, t.PURSUIT_RANGE)


def pursuit(ctx: Context, winners: Sequence[str], routers: Unit, done: set[str]) -> set[str]:
    """Each winning unit that must, tests; a score of 3 or less pursues (``moves.pursue``)."""
    pursuing: set[str] = set()
    for unit_id in winners:
        unit = ctx.state.unit(unit_id)
        if unit_id in done or not must_test(ctx.state, unit, routers):
            continue
        roll = pursuit_roll(ctx.state, unit, routers, ctx.params).roll(ctx.dice)
        band = ctx.test(unit_id, "Impetuous pursuit", roll, t.PURSUIT_TEST, ())
        if band.result == "pursue":
            moves.pursue(ctx, unit, ctx.state.unit(routers.id))
            pursuing.add(unit_id)
    return pursuing


# -- the step --------------------------------------------------------------------------------


def resolve(ctx: Context) -> None:
    """Shooting by both sides at once, then every melee."""
    shoot(ctx)
    fight(ctx)


def engaged_with(unit: Unit) -> str:
    """The enemy it stood off against (``engaged_with``)."""
    return ENGAGED_WITH.of(unit)
