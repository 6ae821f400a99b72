"""The odds of a shot, a charge, a melee or a discipline test, from the rolls the resolvers
make: the shooting dice (``shooting.shot_roll``), each unit's melee dice and its supports
(``melee_dice.melee_roll``, ``melee_dice.support_roll``), the cohesion test that follows
(``cohesion``) and the discipline test (``discipline.target_of``). Hits are 6s and pairs of 5s
(``shooting.hits_dist``)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from rules_core import odds as od
from rules_core.chances_kit import Answers, answer
from rules_core.codec import Json
from rules_core.dice import Modifier
from rules_core.rulesets.impetus import (
    cohesion,
    discipline,
    melee,
    melee_dice,
    profiles,
    shooting,
    tables,
)
from rules_core.rulesets.impetus.status import DISORDERED, MELEE_WITH
from rules_core.state import BattleState, Unit

Params = Mapping[str, Json]
TESTS = tuple(discipline.KINDS)  # /odds test option: the kind of discipline test
NO_REACTION = "the target's reaction (evasion, countercharge, close ranks, defensive fire) "
NO_REACTION += "is not counted: these odds are for the charge meeting it as it stands"


def odds(state: BattleState, query: od.OddsQuery, params: Params) -> od.Odds | od.Refused | None:
    """The odds of what a player asks: a shot, a charge, a melee, a discipline test."""

    def shoot(unit: Unit, target: Unit) -> od.Odds | od.Refused:
        """The shooting dice, if the unit may shoot at the target."""
        why = shooting.problem(state, unit, target)
        return od.Refused(why) if why else shot_odds(state, unit, target, params)

    def test(unit: Unit, target: Unit | None, option: str) -> od.Odds | od.Refused:
        """A discipline test (for a second move unless the option names another)."""
        return discipline_odds(state, unit, option or "second_move", params)

    return answer(
        state,
        query,
        Answers(
            test,
            shoot,
            melee=lambda unit, target: melee_odds(state, unit, target, params, impact=False),
            charge=lambda unit, target: melee_odds(state, unit, target, params, impact=True),
            engaged=lambda state, unit, target: target.id in _enemies_in_melee(unit),
            engaged_words="in melee with",
        ),
    )


def _enemies_in_melee(unit: Unit) -> list[str]:
    found = MELEE_WITH.of(unit)
    return [str(x) for x in found] if isinstance(found, list) else []


def dice_of(spec: od.RollSpec) -> int:
    """The dice a roll spec rolls, 0 when its modifiers leave none (no roll is made)."""
    return max(0, spec.n + sum(m.value for m in spec.dice_modifiers))


def losses(
    vbu_now: int, hits: od.Dist, mods: Sequence[Modifier], disordered: bool, params: Params
) -> od.Dist:
    """VBU a unit loses from ``hits`` through its cohesion test (capped at what it has)."""

    def after(h: int) -> od.Dist:
        if h <= 0:
            return od.Dist.certain(0)
        number = cohesion.critical(vbu_now, h, list(mods), params)
        return cohesion.outcome_dist(number, disordered, params).map(lambda n: min(n, vbu_now))

    return hits.then(after)


def _loss_table(name: str, lost: od.Dist, vbu_now: int) -> od.OddsTable:
    def label(n: int) -> str:
        if n >= vbu_now:
            return f"{name} routs"
        return f"{name} loses {n} VBU"

    return od.OddsTable.of(f"{name}'s cohesion", ((label(v), p) for v, p in lost.items()))


def shot_odds(state: BattleState, shooter: Unit, target: Unit, params: Params) -> od.Odds:
    """The hits of a shot and what the target's cohesion test costs it."""
    spec = shooting.shot_roll(state, shooter, target)
    hits = shooting.hits_dist(dice_of(spec))
    _base, _mods, _row, band = shooting.dice_modifiers(state, shooter, target)
    cmods = shooting.cohesion_modifiers(state, shooter, target, band)
    vbu_now = profiles.current_vbu(target)
    lost = losses(vbu_now, hits, cmods, DISORDERED.of(target), params)
    notes = ("each 6 is a hit and each pair of 5s a hit",)
    return od.Odds(
        f"{shooter.name} shooting at {target.name}",
        (od.OddsTable.counts("Hits", hits, "hit"), _loss_table(target.name, lost, vbu_now)),
        od.rolls_of([spec]),
        (*notes, f"cohesion modifiers: {_words(cmods)}"),
    )


def _words(mods: Sequence[Modifier]) -> str:
    return ", ".join(m.describe() for m in mods) or "none"


def side_hits(
    state: BattleState, unit: Unit, enemy: Unit, fight: melee_dice.Fight
) -> tuple[od.Dist, list[od.RollSpec]]:
    """A unit's hits in a melee: its dice and its supports' half dice."""
    spec = melee_dice.melee_roll(state, unit, enemy, fight)
    hits = shooting.hits_dist(dice_of(spec))
    specs = [spec]
    for friend in melee_dice.supports(state, unit):
        extra = melee_dice.support_roll(state, friend, unit)
        half = math.floor(profiles.current_vbu(friend) * tables.SUPPORT_SHARE)
        if half > 0:
            hits = hits + shooting.hits_dist(half)
            specs.append(extra)
    return hits, specs


def melee_odds(
    state: BattleState, attacker: Unit, defender: Unit, params: Params, *, impact: bool
) -> od.Odds:
    """A melee round: each side's hits, the VBU each loses, who wins or a draw."""
    a_hits, a_specs = side_hits(state, attacker, defender, melee_dice.Fight(charging=impact))
    d_hits, d_specs = side_hits(state, defender, attacker, melee_dice.Fight(receiving=impact))
    a_now, d_now = profiles.current_vbu(attacker), profiles.current_vbu(defender)
    a_mods = melee_dice.cohesion_modifiers(state, attacker, defender)
    d_mods = melee_dice.cohesion_modifiers(state, defender, attacker)
    a_lost = losses(a_now, d_hits, a_mods, DISORDERED.of(attacker), params)
    d_lost = losses(d_now, a_hits, d_mods, DISORDERED.of(defender), params)
    result: dict[str, Fraction] = {}
    names = {
        melee.ATTACKER: f"{attacker.name} wins",
        melee.DEFENDER: f"{defender.name} wins",
        melee.DRAW: "a drawn melee (fought again)",
    }
    for la, pa in a_lost.items():
        for ld, pd in d_lost.items():
            key = melee._result(
                {attacker.id: la, defender.id: ld},
                {attacker.id: la >= a_now, defender.id: ld >= d_now},
                attacker.id,
                defender.id,
            )
            result[names[key]] = result.get(names[key], Fraction(0)) + pa * pd
    order = [names[k] for k in (melee.ATTACKER, melee.DRAW, melee.DEFENDER)]
    kind = "charging" if impact else "in melee with"
    notes = [
        "each 6 is a hit and each pair of 5s a hit",
        "the retreat, the pursuit and any new melee it leads to are not counted",
    ]
    if impact:
        notes.insert(0, NO_REACTION)
    return od.Odds(
        f"{attacker.name} {kind} {defender.name}",
        (
            od.OddsTable.counts(f"Hits by {attacker.name}", a_hits, "hit"),
            od.OddsTable.counts(f"Hits by {defender.name}", d_hits, "hit"),
            _loss_table(attacker.name, a_lost, a_now),
            _loss_table(defender.name, d_lost, d_now),
            od.OddsTable.of("Result", ((k, result[k]) for k in order if k in result)),
        ),
        od.rolls_of(a_specs + d_specs),
        tuple(notes),
    )


def discipline_odds(
    state: BattleState, unit: Unit, kind: str, params: Params
) -> od.Odds | od.Refused:
    """The chance a discipline test of this kind passes (``/odds test option:<kind>``)."""
    if kind not in discipline.KINDS:
        return od.Refused(f"no discipline test {kind!r}: one of {', '.join(discipline.KINDS)}")
    target, parts = discipline.target_of(state, unit, kind, params)
    passing = discipline.pass_chance(target, params).chance(1)
    name = discipline.NAMES[kind]
    return od.Odds(
        f"{unit.name}: discipline test ({name})",
        (od.OddsTable.of("Discipline test", (("passes", passing), ("fails", 1 - passing))),),
        (f"D6 at or under {target} ({discipline.describe(parts)})",),
    )
