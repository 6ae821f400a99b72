"""Combat: every group of units in contact fights; dice per engaged stand by grade, every
modifier (the charge-only ones marked), hits on 6 or 5-6, an automatic hit for a leader; the
result by the difference in hits, shared by every unit on a side; inconclusive rounds refought.
A corner's touch joins combats into one, but each unit fights (and records) only its opponents.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from rules_core.codec import Json
from rules_core.context import Context
from rules_core.dice import Modifier, Purpose
from rules_core.events import MeleeFought, MeleeResolved
from rules_core.geometry import Footprint, contact_edge
from rules_core.odds import RollSpec
from rules_core.rulesets.heroic_age import gods, measure, moves, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.status import (
    BROKEN,
    CHARGE_COMBAT,
    CHARGED,
    DPS,
    FOLLOWING_UP,
    UNFORMED,
)
from rules_core.state import BattleState, Unit
from rules_core.tables import Band

BASE_BEHIND = ("rear", "left", "right")
FLANKS = ("left", "right")


@dataclass(frozen=True)
class Side:
    """One side of a combat: its engaged units and its hits."""

    side: str
    units: tuple[str, ...]


def clusters(state: BattleState) -> list[tuple[Side, Side]]:
    """Every combat: units joined by contact with enemies, as two sides (initiative order);
    broken units do not fight (pursuers hack them in the moves after combat)."""
    seen: set[str] = set()
    found: list[tuple[Side, Side]] = []
    places: dict[str, list[int]] = {}  # where each id stands in the state's order
    for place, x in enumerate(state.units):
        places.setdefault(x.id, []).append(place)
    for unit in state.units:
        if unit.id in seen or BROKEN.of(unit) or not u.engaged_with(state, unit):
            continue
        group, todo = {unit.id}, [unit]
        while todo:
            here = todo.pop()
            for enemy in u.engaged_with(state, here):
                if enemy.id not in group and not BROKEN.of(enemy):
                    group.add(enemy.id)
                    todo.append(enemy)
        seen |= group
        members = [state.units[p] for p in sorted(p for x in group for p in places[x])]
        sides = [
            Side(side, tuple(x.id for x in members if x.side == side))
            for side in state.cursor.side_order
        ]
        sides = [s for s in sides if s.units]
        if len(sides) == 2:
            found.append((sides[0], sides[1]))
    return found


def opponents(state: BattleState, unit: Unit, among: Collection[str] | None = None) -> list[Unit]:
    """The enemies the unit fights: those touching it along an edge (of ``among``, if given),
    or, if none do, those touching only its corners. A neighbour's enemy at a corner joins the
    combat into one (``clusters``) but is not this unit's opponent."""
    here = Footprint.of(unit)
    touching = [e for e in u.engaged_with(state, unit) if among is None or e.id in among]
    edged = [e for e in touching if touching_edge(here, Footprint.of(e)) is not None]
    return edged or touching


@lru_cache(maxsize=4_096)
def touching_edge(here: Footprint, other: Footprint) -> str | None:
    """``contact_edge``, kept per pair of footprints: a combat asks it of the same pairs for
    each unit's dice, each round and each result (a footprint is frozen, its edge a given)."""
    return contact_edge(here, other)


def hit_score(
    state: BattleState, unit: Unit, hill: tuple[str, ...], enemies: list[Unit] | None = None
) -> tuple[int, str]:
    """6 if unformed, fighting to a flank or rear, or against advantage of ground; else 5.
    ``enemies``: those it fights (by default its ``opponents``)."""
    table = tables.COMBAT_HITS
    if UNFORMED.of(unit):
        return tables.whole(table, "unformed", "lowest"), str(table.lookup("unformed", "sheet"))
    here = Footprint.of(unit)
    for enemy in opponents(state, unit) if enemies is None else enemies:
        if touching_edge(here, Footprint.of(enemy)) in BASE_BEHIND:
            return tables.whole(table, "from_behind", "lowest"), str(
                table.lookup("from_behind", "sheet")
            )
        if measure.in_terrain(state, enemy, hill) and not measure.in_terrain(state, unit, hill):
            return (
                tables.whole(table, "advantage_of_ground", "lowest"),
                str(table.lookup("advantage_of_ground", "sheet")),
            )
    return tables.whole(table, "other", "lowest"), str(table.lookup("other", "sheet"))


def flank_stands(state: BattleState, unit: Unit) -> int:
    """Unengaged friendly stands on the unit's flanks: the stands of each unengaged friend
    touching its left or right edge that touch it (its ranks)."""
    here = Footprint.of(unit)
    count = 0
    for friend in state.units_of(unit.side):
        # The edge first: it is a box test for most friends, contact a search for each.
        if friend.id == unit.id or contact_edge(here, Footprint.of(friend)) not in FLANKS:
            continue
        if not u.engaged_with(state, friend):
            ranks = friend.profile.get("ranks", 1)
            count += int(ranks) if isinstance(ranks, int | float) else 1
    return count


def dice_modifiers(state: BattleState, unit: Unit, charge: bool) -> list[Modifier]:
    """Every dice modifier per engaged unit, with the sheet's words; the * ones only in a
    charge combat."""
    table = tables.COMBAT_MODIFIERS
    level = u.level(unit)
    counts = {
        "blood_lust": 1 if level == "blood lust" else 0,
        "ready_for_battle": 1 if level == "ready for battle" else 0,
        "shaken": 1 if level == "shaken" else 0,
        "flank_stand": flank_stands(state, unit),
        "charged": 1 if CHARGED.of(unit) else 0,
        "following_up": 1 if FOLLOWING_UP.of(unit) else 0,
        "champion_or_standard": 1 if u.champion_or_standard(state, unit) else 0,
        "dps": DPS.of(unit),
    }
    found = []
    for row, times in counts.items():
        if not times or (table.lookup(row, "charge_only") is True and not charge):
            continue
        each = tables.whole(table, row, "dice")
        words = str(table.lookup(row, "sheet"))
        found.append(Modifier(each * times, words if times == 1 else f"{words} (x{times})"))
    return found


def combat_roll(
    state: BattleState,
    unit: Unit,
    charge: bool,
    hill: tuple[str, ...],
    enemies: list[Unit] | None = None,
) -> RollSpec:
    """One engaged unit's dice: stands x grade, modifiers, at least one die, hitting on 6 or
    5-6 (``enemies`` as for ``hit_score``); rolled in combat and read by the odds."""
    grade = unit.quality if unit.quality in tables.COMBAT_DICE.rows else "C"
    per_stand = tables.whole(tables.COMBAT_DICE, grade, "dice")
    stands = u.front_stands(unit)
    score, why = hit_score(state, unit, hill, enemies)
    label = (
        f"Combat: {unit.name} ({stands} stands x {per_stand} for grade {grade}; "
        f"hits on {score}+: {why})"
    )
    mods = tuple(dice_modifiers(state, unit, charge))
    purpose = Purpose(unit.id, "combat", row=f"grade {grade}")
    return RollSpec(
        label, stands * per_stand, mode="pool", target=score, dice_modifiers=mods, purpose=purpose
    )


def leader_hits(state: BattleState, units: list[Unit]) -> int:
    """The automatic hit a side scores when a leader fights with any of its units."""
    return tables.LEADER_HITS if any(u.leaders_with(state, x) for x in units) else 0


def _roll_unit(ctx: Context, unit: Unit, charge: bool) -> int:
    """One engaged unit's dice (``combat_roll``), offered to the Seven's re-roll."""
    hill = measure.kinds(ctx.params, "high_ground")
    roll = combat_roll(ctx.state, unit, charge, hill).roll(ctx.dice)
    roll = gods.reroll(ctx, unit.side, f"combat dice of {unit.name}", roll)
    return roll.total


def side_hits(ctx: Context, side: Side, charge: bool) -> int:
    """A side's hits: each unit's dice, plus the automatic hit of a fighting leader."""
    hits = 0
    for unit_id in side.units:
        if u.alive(ctx.state, unit_id):
            hits += _roll_unit(ctx, ctx.state.unit(unit_id), charge)
    living = [ctx.state.unit(x) for x in side.units if u.alive(ctx.state, x)]
    return hits + leader_hits(ctx.state, living)


def resolve(ctx: Context) -> None:
    """Fight every combat; a combat's inconclusive round is refought as a non-charge combat."""
    for first, second in clusters(ctx.state):
        charge = any(
            u.alive(ctx.state, x) and CHARGE_COMBAT.of(ctx.state.unit(x))
            for x in (*first.units, *second.units)
        )
        for attempt in range(tables.INCONCLUSIVE_ROUNDS):
            result = fight_round(ctx, first, second, charge and attempt == 0, attempt + 1)
            if result != "inconclusive":
                break
        else:
            _separate(ctx, first, second)
        for unit_id in (*first.units, *second.units):
            if u.alive(ctx.state, unit_id) and FOLLOWING_UP.of(ctx.state.unit(unit_id)):
                ctx.set_status(unit_id, None, following_up=False)


def fight_round(ctx: Context, first: Side, second: Side, charge: bool, number: int) -> str:
    """One round: both sides roll, the difference gives each its row; effects shared."""
    a_units = [x for x in first.units if u.alive(ctx.state, x)]
    b_units = [x for x in second.units if u.alive(ctx.state, x)]
    if not a_units or not b_units:
        return "over"
    ctx.emit(MeleeFought(a_units[0], b_units[0]))
    for unit_id in (*a_units, *b_units):
        ctx.set_status(unit_id, None, in_combat=True)
    a_hits, b_hits = side_hits(ctx, first, charge), side_hits(ctx, second, charge)
    kind = "charge combat" if charge else f"combat (round {number})"
    a_side, b_side = (a_units[0], a_hits), (b_units[0], b_hits)
    a_band = _result(ctx, first.side, f"{kind}: {a_hits} hits to {b_hits}", a_side, b_side)
    b_band = _result(ctx, second.side, f"{kind}: {b_hits} hits to {a_hits}", b_side, a_side)
    for unit_id in (*a_units, *b_units):
        if u.alive(ctx.state, unit_id):
            u.risk_to_leaders(ctx, ctx.state.unit(unit_id), "engaged in combat")
    for units, band, enemies in ((a_units, a_band, b_units), (b_units, b_band, a_units)):
        apply_result(ctx, units, band.result, band.text, charge, enemies)
    return a_band.result


def _result(
    ctx: Context, side: str, words: str, mine: tuple[str, int], theirs: tuple[str, int]
) -> Band:
    """The Combat Results row for a side's difference in hits, logged with the row, the
    winner and loser (a unit of each side; None when the hits are equal) and the row's result
    for this side as what comes next."""
    difference = mine[1] - theirs[1]
    band = tables.COMBAT_RESULTS.lookup(difference)
    won, lost = (mine[0], theirs[0]) if difference > 0 else (theirs[0], mine[0])
    decided = difference != 0
    ctx.emit(
        MeleeResolved(
            side,
            f"Combat result ({words})",
            difference,
            False,
            band.row,
            False,
            won if decided else None,
            lost if decided else None,
            (mine, theirs),
            band.result,
        )
    )
    return band


def apply_result(
    ctx: Context, units: list[str], result: str, text: str, charge: bool, enemies: list[str]
) -> None:
    """The row's levels, DPs and move for every unit of a side (previously Shaken units take
    the Shaken columns); the move and each unit's own opponents among ``enemies`` (the other
    side's units) are kept for the moves after combat."""
    table = tables.RESULT_EFFECTS
    for unit_id in units:
        if not u.alive(ctx.state, unit_id):
            continue
        shaken = u.level(ctx.state.unit(unit_id)) == "shaken"
        prefix = "shaken_" if shaken else ""
        levels = tables.whole(table, result, f"{prefix}levels")
        dps = tables.whole(table, result, f"{prefix}dps")
        move = str(table.lookup(result, f"{prefix}move"))
        if charge and not shaken and move != "pursue":
            move = str(table.lookup(result, "charge_move"))
        fought: list[Json] = [e.id for e in opponents(ctx.state, ctx.state.unit(unit_id), enemies)]
        ctx.set_status(unit_id, text, combat_result=result, combat_enemy=fought, after_move=move)
        u.change_aggression(ctx, unit_id, levels, text)
        u.add_dps(ctx, unit_id, dps, text, "combat")


def _separate(ctx: Context, first: Side, second: Side) -> None:
    """Second inconclusive round: the combatants are separated by 2" (each steps back half)."""
    step = tables.INCONCLUSIVE_SEPARATE / 2
    for unit_id in (*first.units, *second.units):
        if not u.alive(ctx.state, unit_id):
            continue
        unit = ctx.state.unit(unit_id)
        heading = measure.away_heading(ctx.state, unit)
        moves.travel(
            ctx,
            unit,
            heading,
            step,
            unit.facing,
            "separated after a second inconclusive round",
            keep_off=False,
        )
        ctx.set_status(unit_id, None, after_move="", combat_result="inconclusive")
