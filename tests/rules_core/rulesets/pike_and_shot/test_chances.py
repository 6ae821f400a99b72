"""The odds of a shot, a melee and the tests, exact, from the rolls the Combat step makes."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from rules_core.odds import Odds, OddsQuery, Refused
from rules_core.rulesets.pike_and_shot.sample import sample_battle
from rules_core.state import BattleState
from tests.rules_core.rulesets.pike_and_shot.helpers import RULES, at, status

FOOT, ENEMY_FOOT = "royalists4", "parliament3"


def _table(odds: Odds | Refused | None, index: int) -> dict[str, Fraction]:
    assert isinstance(odds, Odds)
    return {c.label: c.chance for c in odds.tables[index].chances}


def _shot() -> BattleState:
    return at("combat", **{FOOT: (20.0, 20.0, 0.0), ENEMY_FOOT: (20.0, 24.5, 180.0)})


def test_shot_unsaved_hits_and_results() -> None:
    # 2 dice hitting on 4+ against 2 saving dice saving on 4+.
    odds = RULES.odds(_shot(), OddsQuery("shoot", FOOT, ENEMY_FOOT))
    assert _table(odds, 0) == {
        "0 hits": Fraction(11, 16),
        "1 hit": Fraction(1, 4),
        "2 hits": Fraction(1, 16),
    }
    assert _table(odds, 1) == {
        "0 hits: no effect": Fraction(11, 16),
        "1 hit: disordered": Fraction(1, 4),
        "2 hits: disrupted": Fraction(1, 16),
    }
    assert isinstance(odds, Odds) and odds.rolls[0].startswith("Shooting: Gerard's Foot")


def test_shot_against_a_disordered_target_counts_its_save_penalty() -> None:
    # 2 hit dice; 1 saving die (disordered -1).
    odds = RULES.odds(
        status(_shot(), ENEMY_FOOT, cohesion="disordered"), OddsQuery("shoot", FOOT, ENEMY_FOOT)
    )
    assert _table(odds, 0) == {
        "0 hits": Fraction(1, 2),
        "1 hit": Fraction(3, 8),
        "2 hits": Fraction(1, 8),
    }
    assert _table(odds, 1)["2 hits: disrupted recoil"] == Fraction(1, 8)
    assert isinstance(odds, Odds) and "Unit is disordered | - 1 saving die" in odds.rolls[1]


def test_shot_out_of_range_is_refused() -> None:
    far = at("combat", **{FOOT: (20.0, 20.0, 0.0), ENEMY_FOOT: (20.0, 30.0, 180.0)})
    odds = RULES.odds(far, OddsQuery("shoot", FOOT, ENEMY_FOOT))
    assert isinstance(odds, Refused) and 'range is 3"' in odds.reason


def test_melee_of_equals_is_even() -> None:
    state = at("combat", **{FOOT: (20.0, 20.0, 0.0), ENEMY_FOOT: (20.0, 22.0, 180.0)})
    result = _table(RULES.odds(state, OddsQuery("melee", FOOT)), 1)
    assert sum(result.values()) == 1
    assert result["you win: recoil"] == result["you lose: recoil"]
    assert result["you win: rout"] == result["you lose: rout"]
    assert result["stand-off"] == Fraction(11, 16) ** 2 + Fraction(1, 4) ** 2 + Fraction(1, 16) ** 2


def test_melee_not_in_contact_is_refused() -> None:
    odds = RULES.odds(_shot(), OddsQuery("melee", FOOT))
    assert isinstance(odds, Refused)


def test_disorder_test_odds() -> None:
    # Essex's Foot alone: trained +1, Hold +1, no enemy within 24" +1, disordered -1 = +2:
    # passes on 2 or more.
    state = status(
        at("reform", **{ENEMY_FOOT: (20.0, 40.0, 180.0)}), ENEMY_FOOT, cohesion="disordered"
    )
    result = _table(RULES.odds(state, OddsQuery("test", ENEMY_FOOT)), 0)
    assert result == {"3- fail": Fraction(1, 6), "4+ pass": Fraction(5, 6)}


def test_pursuit_test_odds() -> None:
    # Gerard's Foot after Essex's: infantry brigade +3, Attack -1, clear path -1 = +1:
    # pursues on 1 or 2.
    state = at("combat", **{FOOT: (20.0, 20.0, 0.0), ENEMY_FOOT: (20.0, 30.0, 180.0)})
    query = OddsQuery("test", FOOT, ENEMY_FOOT, {"option": "pursuit"})
    result = _table(RULES.odds(state, query), 0)
    assert result == {"3- pursue": Fraction(1, 3), "4+ stay": Fraction(2, 3)}


def test_fatigue_and_general_will_odds() -> None:
    # Essex's Foot alone in the centre: trained, sound infantry brigade -1, Hold -1, no sound
    # enemy within 24" -1, the army commander attached to the wing -1: d6 - 4 never reaches 8.
    state = at("fatigue", **{ENEMY_FOOT: (20.0, 40.0, 180.0)})
    state = replace(
        state,
        units=(
            *state.units,
            *(u for u in sample_battle().units if u.id in ("parliament1", "parliament2")),
        ),
    )
    result = _table(
        RULES.odds(state, OddsQuery("test", ENEMY_FOOT, None, {"option": "fatigue"})), 0
    )
    assert result == {"7- unaffected": Fraction(1)}
    # 3 routed brigades of 8 (row 3, column 5-10: 3): a good resolve on 1-3.
    for unit_id in ("parliament1", "parliament2"):
        state = status(state, unit_id, cohesion="routed")
    odds = RULES.odds(state, OddsQuery("test", ENEMY_FOOT, None, {"option": "general_will"}))
    assert _table(odds, 0) == {"resolve good": Fraction(1, 2), "resolve fails": Fraction(1, 2)}
