"""Heroic-age odds against every face the resolvers can roll: the charge test and the charge
combat it leads to (with its refight), a round of combat with a leader's automatic hit, the
missile exchange halved against a retinue, the control test with an A grade's choice."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from dataclasses import replace
from fractions import Fraction

import pytest

from rules_core.context import Context
from rules_core.dice import faces_of
from rules_core.events import DiceRolled, TestResolved
from rules_core.odds import Odds, OddsQuery, Refused, band_label
from rules_core.orders import Order
from rules_core.rulesets.heroic_age import charges, combat, missiles, movement, tables
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.chances import SEPARATED
from rules_core.state import BattleState
from tests.rules_core.dealing import Dealt, Exhausted, explore, table, tally
from tests.rules_core.rulesets.heroic_age.helpers import RULES, at, status

CONTACT = 2.0  # two ranks of 1" stands: centres 2" apart are front to front


def small(state: BattleState, **stands: int) -> BattleState:
    """Units of grade D with few stands (one die a stand: a small tree of dice)."""
    for key, n in stands.items():
        state = state.with_unit(replace(state.unit(key), quality="D", stands=n))
    return state


def results(ctx: Context, side: str) -> list[int]:
    """The differences in hits of each combat round the side fought, in order."""
    return [
        e.score
        for e in ctx.events
        if isinstance(e, TestResolved) and e.subject == side and e.test.startswith("Combat result")
    ]


def label(difference: int) -> str:
    return band_label(tables.COMBAT_RESULTS.lookup(difference))


def final(rounds: list[int]) -> str:
    """The combat's outcome once refought: the last round's row, or separated."""
    if len(rounds) == tables.INCONCLUSIVE_ROUNDS and all(
        tables.COMBAT_RESULTS.lookup(d).result == "inconclusive" for d in rounds
    ):
        return SEPARATED
    return label(rounds[-1])


def given(found: dict[Hashable, Fraction], pick: int) -> dict[str, Fraction]:
    """The distribution of one part of the outcomes (rounds that were fought), normalised."""
    kept: dict[str, Fraction] = {}
    for outcome, chance in found.items():
        assert isinstance(outcome, tuple)
        if outcome[pick] is None:
            continue
        key = str(outcome[pick])
        kept[key] = kept.get(key, Fraction(0)) + chance
    total = sum(kept.values())
    return {k: v / total for k, v in kept.items()}


class Coarse(random.Random):
    """Deals a prefix of faces, then stops to branch on the next die: the first ``pooled``
    D6 over 1, 5 and 6 only (a combat die hits on 5-6 or 6, so 2-4 fall as 1 does), later
    dice over every face."""

    def __init__(self, prefix: tuple[int, ...], pooled: int) -> None:
        super().__init__(0)
        self.prefix, self.pooled, self.at = prefix, pooled, 0

    def randint(self, a: int, b: int) -> int:
        if self.at == len(self.prefix):
            raise Exhausted(POOL_FACES if self.at < self.pooled else tuple(range(a, b + 1)))
        self.at += 1
        return self.prefix[self.at - 1]


POOL_FACES = (1, 5, 6)
POOL_WEIGHTS = {1: Fraction(4, 6), 5: Fraction(1, 6), 6: Fraction(1, 6)}


def explore_pools(
    run: Callable[[random.Random], Hashable], pooled: int
) -> dict[Hashable, Fraction]:
    """Every sequence of faces the resolver can roll (``explore``), the first ``pooled``
    dice as hits on 5, on 6, or misses (weighted 4, 1, 1 in 6)."""
    found: dict[Hashable, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        try:
            outcome = run(Coarse(prefix, pooled))
        except Exhausted as more:
            for face in more.faces:
                share = POOL_WEIGHTS[face] if len(prefix) < pooled else Fraction(1, len(more.faces))
                stack.append(((*prefix, face), weight * share))
            continue
        found[outcome] = found.get(outcome, Fraction(0)) + weight
    return found


def test_charge_odds_match_the_charge_test_and_the_combat_it_leads_to() -> None:
    """The charges step with a declared charge (1 D6: +1 Ready for Battle, -1 for 2 DPs, -1
    D grade), then the combat step on the table it leaves (the charge combat, 2 dice
    against 1, then its refight, 3 against 1): every die enumerated."""
    state = at("charges", saxons1=(10, 5, 0), danes2=(10, 5 + CONTACT + 1.5, 180))
    state = small(state, saxons1=2, danes2=1)
    state = status(state, "saxons1", aggression="ready for battle", dps=2)
    state = status(state, "danes2", aggression="present")
    odds = RULES.odds(state, OddsQuery("charge", "saxons1", "danes2"))
    assert isinstance(odds, Odds)
    a, b = state.unit("saxons1"), state.unit("danes2")
    declared = (Order(a.id, "charge", {"target": b.id}),)

    def charge(rng: Dealt) -> tuple[str, Context]:
        ctx = Context(RULES, state, declared, (), rng)
        charges.resolve(ctx, 2.0)
        test = next(
            e for e in ctx.events if isinstance(e, TestResolved) and e.test == "Charge test"
        )
        return band_label(tables.CHARGE_TEST.lookup(test.score)), ctx

    assert table(odds, "Charge test") == tally([faces_of("D6")], lambda rng: charge(rng)[0])
    _, home = charge(Dealt([6]))
    assert u.engaged_with(home.state, home.state.unit(a.id))

    def fight(rng: random.Random) -> tuple[str, str, str]:
        ctx = Context(RULES, home.state, (), (), rng)
        combat.resolve(ctx)
        mine, theirs = results(ctx, a.side), results(ctx, b.side)
        return label(mine[0]), label(theirs[0]), final(mine)

    found = explore_pools(fight, 3 + 4)
    assert table(odds, f"{a.name}'s result") == given(found, 0)
    assert table(odds, f"{b.name}'s result") == given(found, 1)
    assert table(odds, f"{a.name}'s result after any refight") == given(found, 2)
    assert any("+1 if Ready for Battle" in roll for roll in odds.rolls)


def test_melee_odds_match_every_die_of_a_round_with_a_leader_hit() -> None:
    """Alfred fights with the Hearthguard: an automatic hit; 1 die and the leader against 3
    dice (Blood Lust), each side's hits as the round counts them."""
    state = at("combat", saxons3=(10, 5, 0), danes2=(10, 5 + CONTACT, 180))
    state = small(state, saxons3=1, danes2=1)
    state = status(state, "saxons3", aggression="present")
    state = status(state, "danes2", aggression="blood lust")
    odds = RULES.odds(state, OddsQuery("melee", "saxons3", "danes2"))
    assert isinstance(odds, Odds)
    assert odds.title.startswith("Combat: ")
    first, second = combat.clusters(state)[0]
    a, b = state.unit("saxons3"), state.unit("danes2")

    def round_of(rng: random.Random) -> tuple[str, str]:
        ctx = Context(RULES, state, (), (), rng)
        mine, theirs = combat.side_hits(ctx, first, False), combat.side_hits(ctx, second, False)
        return label(mine - theirs), label(theirs - mine)

    found = explore_pools(round_of, 1 + 3)
    assert table(odds, f"{a.name}'s result") == given(found, 0)
    assert table(odds, f"{b.name}'s result") == given(found, 1)


@pytest.mark.parametrize(
    ("target", "stands"), [("danes2", 1), ("danes1", 2)], ids=["follower band", "retinue halved"]
)
def test_shot_odds_match_every_missile_die(target: str, stands: int) -> None:
    """2 D6 a stand, 6 hits: one stand at a band, two at a retinue (halved): 2 dice each."""
    state = at("missiles", saxons5=(10, 5, 0), **{target: (10, 7.5, 180)})
    state = state.with_unit(replace(state.unit("saxons5"), stands=stands))
    odds = RULES.odds(state, OddsQuery("shoot", "saxons5", target))
    order = Order("saxons5", "shoot", {"target": target})

    def volley(rng: random.Random) -> int:
        ctx = Context(RULES, state, (order,), (), rng)
        missiles.resolve(ctx)
        rolled = [e.roll for e in ctx.events if isinstance(e, DiceRolled)]
        (roll,) = [r for r in rolled if r.label.startswith("Missiles:")]
        assert len(roll.dice) == 2
        return roll.total  # Ubba's risk dice when his Hird is hit are enumerated too

    hits = explore(volley)
    assert table(odds, "Hits") == {f"{h} hit{'' if h == 1 else 's'}": p for h, p in hits.items()}


def test_a_shot_out_of_range_is_refused_with_the_reason() -> None:
    state = at("missiles", saxons5=(10, 5, 0), danes2=(10, 15, 180))
    found = RULES.odds(state, OddsQuery("shoot", "saxons5", "danes2"))
    assert isinstance(found, Refused) and 'range is 2"' in found.reason


@pytest.mark.parametrize(
    ("unit_id", "aggression", "option", "a_grade"),
    [
        ("saxons1", "present", "", 0),
        ("saxons1", "shaken", "", 0),
        ("saxons3", "blood lust", "-1", -1),
        ("saxons3", "ready for battle", "+1", 1),
    ],
    ids=["present", "shaken", "A grade minus in blood lust", "A grade plus"],
)
def test_control_test_odds_match_every_average_die(
    unit_id: str, aggression: str, option: str, a_grade: int
) -> None:
    state = status(at("movement", **{unit_id: (10, 5, 0)}), unit_id, aggression=aggression)
    odds = RULES.odds(state, OddsQuery("test", unit_id, None, {"option": option}))
    unit = state.unit(unit_id)
    order = Order(unit_id, "hold", {"a_grade": a_grade}) if a_grade else None

    def test(rng: random.Random) -> str:
        ctx = Context(RULES, state, (), (), rng)
        movement.control_test(ctx, unit, order)  # a Shaken unit's retire move rolls too
        score = next(e.score for e in ctx.events if isinstance(e, TestResolved))
        return band_label(tables.CONTROL_TEST.lookup(score))

    assert table(odds, "Result") == explore(test)


def test_a_control_test_option_only_for_an_a_grade() -> None:
    state = at("movement", saxons1=(10, 5, 0))
    wrong = RULES.odds(state, OddsQuery("test", "saxons1", None, {"option": "+1"}))
    assert isinstance(wrong, Refused) and "only an A grade" in wrong.reason
    odd = RULES.odds(state, OddsQuery("test", "saxons1", None, {"option": "sideways"}))
    assert isinstance(odd, Refused) and "+1 or -1" in odd.reason


def test_a_shaken_unit_may_not_charge_and_blood_lust_needs_no_test() -> None:
    state = at("charges", saxons1=(10, 5, 0), danes2=(10, 8.5, 180))
    shaken = status(state, "saxons1", aggression="shaken")
    found = RULES.odds(shaken, OddsQuery("charge", "saxons1", "danes2"))
    assert isinstance(found, Refused) and "Shaken" in found.reason
    wild = RULES.odds(
        status(state, "saxons1", aggression="blood lust"), OddsQuery("charge", "saxons1", "danes2")
    )
    assert table(wild, "Charge test") == {"Blood Lust: charges automatically": Fraction(1)}
