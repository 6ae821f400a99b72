"""The odds of a charge, a combat, a missile exchange or a control test, from the rolls the
resolvers make: the charge test (``charges.charge_roll``), each engaged unit's combat dice
(``combat.combat_roll``) and the leader's automatic hit, the missile dice
(``missiles.missile_roll``) and the control test (``movement.control_roll``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from rules_core import odds as od
from rules_core.chances_kit import Answers, answer, banded_odds
from rules_core.codec import Json
from rules_core.geometry import Footprint, within_to_front
from rules_core.rulesets.heroic_age import charges, combat, measure, missiles, movement, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.status import BROKEN, CHARGE_COMBAT, CHARGED, DPS, STATUSES
from rules_core.state import BattleState, Unit
from rules_core.status import Scope
from rules_core.toolkit import param_number

Params = Mapping[str, Json]
SEVEN = "the Seven's re-roll of a set of dice is not counted"
A_GRADE = {"+1": 1, "plus": 1, "-1": -1, "minus": -1}  # /odds test option: an A grade's choice
A_GRADE_CHOICES = ("+1", "-1")  # offered as typed; "plus" and "minus" are read too
SEPARATED = "separated (inconclusive twice)"


def odds(state: BattleState, query: od.OddsQuery, params: Params) -> od.Odds | od.Refused | None:
    """The odds of what a player asks: a charge, a round of combat, a shot, a control test."""

    def shoot(unit: Unit, target: Unit) -> od.Odds | od.Refused:
        """The missile exchange, if the unit may shoot at the target."""
        why = missiles.problem(state, unit, target)
        return od.Refused(why) if why else shot_odds(state, params, unit, target)

    return answer(
        state,
        query,
        Answers(
            lambda unit, target, option: control_odds(state, unit, option),
            shoot,
            melee=lambda unit, target: melee_odds(state, params, unit),
            charge=lambda unit, target: charge_odds(state, params, unit, target),
            engaged=lambda state, unit, target: target in u.engaged_with(state, unit),
        ),
    )


def side_dist(
    state: BattleState,
    units: Sequence[Unit],
    charge: bool,
    hill: tuple[str, ...],
    enemies: list[Unit] | None = None,
) -> tuple[od.Dist, list[od.RollSpec]]:
    """A side's hits: each unit's combat dice added up, and a fighting leader's hit."""
    specs = [combat.combat_roll(state, x, charge, hill, enemies) for x in units]
    hits = od.Dist.certain(combat.leader_hits(state, list(units)))
    for spec in specs:
        hits = hits + spec.distribution()
    return hits, specs


def result_tables(
    state: BattleState,
    mine: Sequence[Unit],
    theirs: Sequence[Unit],
    charge: bool,
    hill: tuple[str, ...],
    facing: tuple[list[Unit], list[Unit]] | None = None,
) -> tuple[tuple[od.OddsTable, ...], list[od.RollSpec]]:
    """Each side's result band by the difference in hits, then the combat's outcome once an
    inconclusive round is refought (a non-charge round; a second one separates them)."""
    ours, theirs_ = (None, None) if facing is None else facing
    a, a_specs = side_dist(state, mine, charge, hill, ours)
    b, b_specs = side_dist(state, theirs, charge, hill, theirs_)
    difference = a - b
    name, enemy = _names(mine), _names(theirs)
    first = (
        od.OddsTable.of(f"{name}'s result", od.bands(difference, tables.COMBAT_RESULTS)),
        od.OddsTable.of(
            f"{enemy}'s result", od.bands(difference.map(lambda v: -v), tables.COMBAT_RESULTS)
        ),
    )
    again = difference
    if charge:
        a2, _ = side_dist(state, mine, False, hill, ours)
        b2, _ = side_dist(state, theirs, False, hill, theirs_)
        again = a2 - b2
    inconclusive = _in_band(difference, "inconclusive")
    outcome: dict[str, Fraction] = {}
    for label, chance in od.bands(difference, tables.COMBAT_RESULTS):
        if not label.endswith(" inconclusive"):
            outcome[label] = chance
    for label, chance in od.bands(again, tables.COMBAT_RESULTS):
        key = SEPARATED if label.endswith(" inconclusive") else label
        outcome[key] = outcome.get(key, Fraction(0)) + inconclusive * chance
    order = [
        od.band_label(band) for band in tables.COMBAT_RESULTS.bands if band.result != "inconclusive"
    ]
    refought = od.OddsTable.of(
        f"{name}'s result after any refight",
        ((k, outcome[k]) for k in (*order, SEPARATED) if k in outcome),
    )
    return (*first, refought), a_specs + b_specs


def refight_notes(state: BattleState, units: Sequence[Unit]) -> tuple[str, ...]:
    """What the refight's odds leave out for these units: a level lost to the 4-DP rule on
    the inconclusive round's DP, a leader killed by the risk after the first round."""
    found = []
    worn = [x.name for x in units if DPS.of(x) >= tables.FOUR_DP_LIMIT]
    if worn:
        found.append(
            f"the refight counts {', '.join(worn)} at its level now, though the inconclusive "
            f"round's DP costs a level at {tables.FOUR_DP_LIMIT} DPs"
        )
    if any(u.leaders_with(state, x) for x in units):
        found.append("the refight counts each leader's hit, though the risk may kill him first")
    return tuple(found)


def _in_band(dist: od.Dist, result: str) -> Fraction:
    """The chance that a difference in hits falls in the named Combat Results row."""
    return dist.where(lambda v: tables.COMBAT_RESULTS.lookup(v).result == result)


def _names(units: Sequence[Unit]) -> str:
    return " and ".join(x.name for x in units)


def melee_odds(state: BattleState, params: Params, unit: Unit) -> od.Odds | od.Refused:
    """The next round of the combat the unit is in: every unit joined in it, both sides."""
    cluster = next(
        (pair for pair in combat.clusters(state) if unit.id in (*pair[0].units, *pair[1].units)),
        None,
    )
    if cluster is None or BROKEN.of(unit):
        return od.Refused(f"{unit.name} is broken and does not fight")
    first, second = cluster
    mine, theirs = (first, second) if unit.id in first.units else (second, first)
    a = [state.unit(x) for x in mine.units]
    b = [state.unit(x) for x in theirs.units]
    charge = any(CHARGE_COMBAT.of(x) for x in (*a, *b))
    hill = measure.kinds(params, "high_ground")
    found, specs = result_tables(state, a, b, charge, hill)
    kind = "Charge combat" if charge else "Combat"
    notes = (*refight_notes(state, (*a, *b)), SEVEN)
    return od.Odds(f"{kind}: {_names(a)} against {_names(b)}", found, od.rolls_of(specs), notes)


def charge_odds(
    state: BattleState, params: Params, unit: Unit, target: Unit
) -> od.Odds | od.Refused:
    """The charge test, then the charge combat as if the charge went home from where both
    stand (the charger alone against the target)."""
    why = charges.standing_problem(state, unit, target)
    if why:
        return od.Refused(why)
    notes: list[str] = []
    reach = param_number(params, "charge_reach")
    if not within_to_front(Footprint.of(unit), Footprint.of(target), reach):
        notes.append(
            f"{target.name} is not within {reach:g}\" to {unit.name}'s front now: "
            "the odds are as if it were"
        )
    spec = charges.charge_roll(state, unit, target, set())
    if u.level(unit) == "blood lust":
        test = od.OddsTable.of("Charge test", (("Blood Lust: charges automatically", Fraction(1)),))
        specs: list[od.RollSpec] = []
    else:
        test = od.OddsTable.of("Charge test", od.bands(spec.distribution(), tables.CHARGE_TEST))
        specs = [spec]
        row = tables.CHARGE_MODIFIERS.lookup("friend_charging", "sheet")
        notes.append(f"{row} is counted only for a friend that has passed its test first")
    charged = STATUSES.apply(
        state, Scope.UNIT, unit.id, {CHARGED.key: True, CHARGE_COMBAT.key: True}
    )
    a, b = charged.unit(unit.id), charged.unit(target.id)
    hill = measure.kinds(params, "high_ground")
    found, rolled = result_tables(charged, [a], [b], True, hill, ([b], [a]))
    notes += [
        f"the combat: as if {unit.name} charged home alone from where it stands; the edges "
        "they meet on (a flank or rear) and others joining the combat may change it",
        *refight_notes(charged, (a, b)),
        SEVEN,
    ]
    return od.Odds(
        f"Charge: {unit.name} at {target.name}",
        (test, *found),
        od.rolls_of([*specs, *rolled]),
        tuple(notes),
    )


# -- the missile exchange ----------------------------------------------------------------------


def shot_odds(state: BattleState, params: Params, shooter: Unit, target: Unit) -> od.Odds:
    """The hits of the shooter's dice at the target (each hit drops a level above Present,
    otherwise gives a DP)."""
    spec = missiles.missile_roll(state, shooter, target, measure.kinds(params, "cover_terrain"))
    hits = spec.distribution()
    effect = tables.MISSILE_HIT_EFFECT
    each = f"{effect.lookup('above_present', 'sheet')} {effect.lookup('otherwise', 'sheet')}"
    return od.Odds(
        f"Missiles: {shooter.name} at {target.name}",
        (od.OddsTable.counts("Hits", hits, "hit"),),
        od.rolls_of((spec,)),
        (
            f"each hit: {each}",
            "the exchange is simultaneous: shots back at it are not shown",
            SEVEN,
        ),
    )


# -- control tests -------------------------------------------------------------------------------


def control_odds(state: BattleState, unit: Unit, option: str) -> od.Odds | od.Refused:
    """A control test's result bands; an A grade's optional +1 or -1 by ``option``."""
    if option and option not in A_GRADE:
        return od.Refused("the control test's option is an A grade's choice: +1 or -1")
    choice = A_GRADE.get(option, 0)
    if choice and unit.quality != "A":
        return od.Refused(f"only an A grade may choose +1 or -1; {unit.name} is {unit.quality}")
    spec = movement.control_roll(unit, choice)
    notes: list[str] = []
    if not movement.control_due(state, unit):
        notes.append(
            f'{unit.name} takes no control test as it stands (within 2" of a leader, '
            "in combat, broken or retiring): the odds are as if it did"
        )
    if unit.quality == "A" and not choice:
        notes.append("an A grade may choose +1 or -1 (option +1 or -1)")
    if u.level(unit) == "shaken":
        notes.append(f"{unit.name} is Shaken: on 2- it retires rather than halts")
    return banded_odds(f"Control test: {unit.name}", spec, tables.CONTROL_TEST, (*notes, SEVEN))
