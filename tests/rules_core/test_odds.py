"""Exact distributions: every roll shape against an exhaustive enumeration of its dice."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_core.dice import Dice, Modifier, faces_of
from rules_core.odds import Dist, OddsQuery, RollSpec, bands
from rules_core.orders import Order
from rules_core.plugin import Rules
from rules_core.tables import Band, ScoreTable
from tests.rules_core.dealing import tally

SPECS = [
    RollSpec("one D6", 1),
    RollSpec("2D6 -3", 2, modifiers=(Modifier(-3, "tired"),)),
    RollSpec("AvD +1", 1, "AvD", modifiers=(Modifier(1, "grade"),)),
    RollSpec("2 AvD", 2, "AvD"),
    RollSpec("pool", 4, mode="pool", target=5),
    RollSpec("pool -1", 3, mode="pool", target=3, modifiers=(Modifier(-1, "obscured"),)),
    RollSpec("pool +2", 2, mode="pool", target=6, modifiers=(Modifier(2, "charged"),)),
    RollSpec("max", 3, mode="max", modifiers=(Modifier(1, "road"),)),
    RollSpec("max AvD", 2, "AvD", mode="max"),
    RollSpec("keep", 4, keep=3),
    RollSpec("keep lowest", 3, keep=1, keep_lowest=True),
    RollSpec("more dice", 2, dice_modifiers=(Modifier(1, "charging"),)),
    RollSpec("fewer dice", 2, mode="pool", target=4, dice_modifiers=(Modifier(-3, "rough"),)),
    RollSpec("D10", 2, "D10"),
]


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.label)
def test_distribution_matches_every_face_rolled(spec: RollSpec) -> None:
    found = tally([faces_of(spec.kind)] * spec.dice, lambda rng: spec.roll(Dice(rng)).total)
    assert dict(spec.distribution().items()) == found


def test_dist_arithmetic_is_exact() -> None:
    two = Dist.die() + Dist.die()
    assert two.chance(7) == Fraction(1, 6)
    assert (two - two).chance(0) == Fraction(146, 1296)
    assert Dist.die().times(3) == Dist.die() + Dist.die() + Dist.die()
    hits = Dist.binomial(3, Fraction(1, 2))
    saved = hits.then(lambda h: Dist.binomial(h, Fraction(1, 3)) if h else Dist.certain(0))
    assert saved == Dist.binomial(3, Fraction(1, 6))  # each hit saved: a half times a third
    with pytest.raises(ValueError, match="add up to 1"):
        Dist({1: Fraction(1, 2)})


def test_bands_name_each_row_of_a_table_with_its_scores() -> None:
    table = ScoreTable("t", (Band(None, 2, "low"), Band(3, 5, "middle"), Band(6, None, "high")))
    found = bands(RollSpec("d", 1).distribution(), table)
    assert found == [
        ("2- low", Fraction(1, 3)),
        ("3-5 middle", Fraction(1, 2)),
        ("6+ high", Fraction(1, 6)),
    ]


def test_a_query_is_read_off_an_order() -> None:
    query = OddsQuery.of_order(Order("r1", "shoot", {"target": "b2", "option": "extreme_range"}))
    assert (query.kind, query.unit, query.target, query.option) == (
        "shoot",
        "r1",
        "b2",
        "extreme_range",
    )


def test_a_ruleset_gives_no_odds_by_default() -> None:
    assert Rules.odds(object.__new__(Rules), None, OddsQuery("test", "x")) is None  # type: ignore[arg-type]


@pytest.mark.parametrize("ruleset", ["tree_of_battles", "hail_caesar", "skirmish", "heroic_age"])
def test_each_ruleset_refuses_what_does_not_arise_and_ignores_what_it_has_no_odds_for(
    ruleset: str,
) -> None:
    from rules_core import registry
    from rules_core.odds import Refused

    rules = registry.get(ruleset).rules
    assert rules is not None
    state = rules.sample_battle()
    assert state is not None
    mine = state.units_of(state.sides[0].id)[0]
    theirs = state.units_of(state.sides[1].id)[0]
    apart = rules.odds(state, OddsQuery("melee", mine.id, theirs.id))
    assert isinstance(apart, Refused) and "not in contact" in apart.reason
    friend = rules.odds(state, OddsQuery("charge", mine.id, state.units_of(mine.side)[1].id))
    assert isinstance(friend, Refused) and "friendly" in friend.reason
    nobody = rules.odds(state, OddsQuery("charge", mine.id, None))
    assert isinstance(nobody, Refused) and "target" in nobody.reason
    assert rules.odds(state, OddsQuery("move", mine.id)) is None
