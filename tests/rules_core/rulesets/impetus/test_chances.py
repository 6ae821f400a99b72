"""The odds of a shot, a charge, a melee and a discipline test, read from the rolls the
resolvers make."""

from __future__ import annotations

from fractions import Fraction

from rules_core.odds import Odds, OddsQuery, Refused
from rules_core.rulesets.impetus import chances, melee_dice, shooting
from rules_core.rulesets.impetus.status import MELEE_WITH
from tests.rules_core.rulesets.impetus.combat_helpers import RULES, at, detach, status


def _table(odds: Odds, title: str) -> dict[str, Fraction]:
    found = next(t for t in odds.tables if t.title == title)
    return {c.label: c.chance for c in found.chances}


def test_shot_odds_hits_and_cohesion() -> None:
    state = detach(at("shoot", romans3=(10, 5, 0), gauls2=(10, 8.5, 180)))
    odds = RULES.odds(state, OddsQuery("shoot", "romans3", "gauls2"))
    assert isinstance(odds, Odds)
    hits = _table(odds, "Hits")
    # 4 dice: no 6 and at most one 5
    assert hits["0 hits"] == Fraction(4, 6) ** 4 + 4 * Fraction(1, 6) * Fraction(4, 6) ** 3
    assert sum(hits.values()) == 1
    cohesion = _table(odds, "Carnutes Warband's cohesion")
    assert sum(cohesion.values()) == 1
    assert cohesion["Carnutes Warband loses 0 VBU"] > hits["0 hits"]  # a pass costs nothing
    spec = shooting.shot_roll(state, state.unit("romans3"), state.unit("gauls2"))
    assert odds.rolls == (spec.describe(),)


def test_shot_refused_out_of_range() -> None:
    state = detach(at("shoot", romans5=(10, 5, 0), gauls2=(10, 11, 180)))
    found = RULES.odds(state, OddsQuery("shoot", "romans5", "gauls2"))
    assert found == Refused("JAVELIN cannot shoot at 8H (Long)")


def test_charge_odds_read_both_rolls_and_add_up() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180)))
    odds = RULES.odds(state, OddsQuery("charge", "gauls2", "romans2"))
    assert isinstance(odds, Odds)
    result = _table(odds, "Result")
    assert set(result) <= {"Carnutes Warband wins", "a drawn melee (fought again)",
                           "Legio IX wins"}  # fmt: skip
    assert sum(result.values()) == 1
    gauls, romans = state.unit("gauls2"), state.unit("romans2")
    specs = [
        melee_dice.melee_roll(state, gauls, romans, melee_dice.Fight(charging=True)),
        melee_dice.melee_roll(state, romans, gauls, melee_dice.Fight(receiving=True)),
    ]
    assert odds.rolls == tuple(s.describe() for s in specs)
    assert chances.NO_REACTION in odds.notes


def test_more_dice_win_more_often() -> None:
    state = detach(at("charge", romans1=(10, 5, 0), gauls3=(10, 6.0, 180)))
    odds = RULES.odds(state, OddsQuery("charge", "romans1", "gauls3"))
    assert isinstance(odds, Odds)
    result = _table(odds, "Result")
    assert result["Legio X wins"] > Fraction(1, 2) > result.get("Gallic Skirmishers wins", 0)


def test_melee_odds_need_a_melee() -> None:
    state = detach(at("charge", romans2=(10, 5, 0), gauls2=(10, 6.0, 180)))
    found = RULES.odds(state, OddsQuery("melee", "gauls2", "romans2"))
    assert found == Refused("Carnutes Warband is not in melee with Legio IX")
    state = status(state, "gauls2", melee_with=["romans2"])
    odds = RULES.odds(state, OddsQuery("melee", "gauls2", "romans2"))
    assert isinstance(odds, Odds) and "impetus bonus" not in " ".join(odds.rolls)
    assert MELEE_WITH.of(state.unit("gauls2")) == ["romans2"]


def test_discipline_test_odds() -> None:
    state = detach(at("move", gauls3=(10, 15, 180)))  # VBU 3, C: passes on 1-2
    odds = RULES.odds(state, OddsQuery("test", "gauls3", None, {"option": "rally"}))
    assert isinstance(odds, Odds)
    assert _table(odds, "Discipline test") == {"passes": Fraction(1, 3), "fails": Fraction(2, 3)}
    assert odds.rolls == ("D6 at or under 2 (3 current VBU -1 discipline C)",)
    found = RULES.odds(state, OddsQuery("test", "gauls3", None, {"option": "dance"}))
    assert isinstance(found, Refused)
