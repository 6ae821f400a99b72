"""Heroic age: every roll names its purpose; every shot, combat and personal combat its typed
result; questions keep their ids beside results logged as data only (#39)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from rules_core.cards import DeckState
from rules_core.context import Context
from rules_core.dice import Dice, Purpose, Roll
from rules_core.events import MeleeResolved, ShotResolved
from rules_core.render import Renderer
from rules_core.rulesets.heroic_age import duel, gods, missiles, tables
from tests.rules_core.rulesets.heroic_age.godsplay import battle, leader_named, run
from tests.rules_core.scripted import Played
from tests.rules_core.structured import check_results, scripted, seen, unexplained_rolls

DUELS = "gods-1:1:duels:0"
SILENT = ShotResolved("danes1", "", 1, True, "", False, "saxons1", "danes1", 1, "hit_effects")


@pytest.fixture(scope="module")
def played() -> Played:
    return scripted("heroic_age")


def test_every_shot_and_combat_has_its_typed_result(played: Played) -> None:
    counted = check_results(played.result.events)
    assert counted.shots and counted.melees
    events = seen(played.result.events)
    shots = [e for e in events if isinstance(e, ShotResolved)]
    assert all(not e.test and (e.next == missiles.HIT_EFFECTS) == (e.hits > 0) for e in shots)
    combats = [e for e in events if isinstance(e, MeleeResolved)]
    for e in combats:
        band = tables.COMBAT_RESULTS.lookup(e.score)
        assert (e.row, e.next) == (band.row, band.result)
        (_, hits), (_, theirs) = e.hits  # this side's first, then the other side's
        assert e.score == hits - theirs and (e.winner is None) == (hits == theirs)
        scores = dict(e.hits)
        assert e.winner is None or (e.loser is not None and scores[e.winner] > scores[e.loser])
    assert any(e.winner is not None for e in combats)


def test_a_personal_combat_has_its_typed_result() -> None:
    state = battle("duels")
    guthrum, alfred = leader_named(state, "Guthrum"), leader_named(state, "King Alfred")
    done = run(
        lambda ctx: duel.challenge(ctx, guthrum, alfred),
        state,
        lambda d: "accept" if d.id.startswith("duel:challenge") else None,
        key=DUELS,
    )
    assert unexplained_rolls(done.ctx.events) == []  # the dice-offs for the advantage
    (result,) = [e for e in done.ctx.events if isinstance(e, MeleeResolved)]
    assert {unit for unit, _ in result.hits} == {guthrum, alfred}
    killed = {ld.id for ld in state.leaders} - {ld.id for ld in done.state.leaders}
    assert result.next == (duel.KILLED if killed else duel.HONOUR_SATISFIED)
    if len(killed) == 1:
        assert result.loser in killed and result.winner == ({guthrum, alfred} - killed).pop()


@pytest.mark.parametrize(("wounds", "winner"), [((1, 3), "Guthrum"), ((2, 1), None)])
def test_a_settled_personal_combat_names_its_winner(
    wounds: tuple[int, int], winner: str | None
) -> None:
    state = battle("duels")
    guthrum = duel.Fighter.of(state.leader(leader_named(state, "Guthrum")))
    alfred = duel.Fighter.of(state.leader(leader_named(state, "King Alfred")))
    given = {guthrum.leader: wounds[0], alfred.leader: wounds[1]}
    done = run(lambda ctx: duel.settle(ctx, guthrum, alfred, given), state, key=DUELS)
    (result,) = [e for e in done.ctx.events if isinstance(e, MeleeResolved)]
    assert result.hits == ((guthrum.leader, wounds[1]), (alfred.leader, wounds[0]))
    if winner is None:
        assert result.winner is None and result.next == duel.HONOUR_SATISFIED
        line = Renderer({guthrum.leader: "Guthrum"}).line(result)
        assert line == "Personal combat for Guthrum: 0 → No kills: honour is satisfied."
    else:
        assert (result.winner, result.loser) == (guthrum.leader, alfred.leader)
        assert result.next == duel.KILLED and not result.test  # no line: his fate says it


def _first_question(fn: Callable[[Context], object], key: str, *, after_silent: bool) -> str:
    state = battle("duels").with_deck(DeckState(gods.DECK, (), hands={"saxons": ("7C",)}))

    def step(ctx: Context) -> object:
        if after_silent:
            ctx.emit(SILENT)
        return fn(ctx)

    return run(step, state, key=key).asked[0].id


def _roll() -> Roll:
    return Dice(random.Random(3)).roll("Combat: test", 2, purpose=Purpose("saxons1", "combat"))


@pytest.mark.parametrize(
    "fn",
    [
        lambda ctx: gods.reroll(ctx, "saxons", "the test dice", _roll()),
        lambda ctx: duel.challenge(
            ctx, leader_named(ctx.state, "Guthrum"), leader_named(ctx.state, "King Alfred")
        ),
    ],
    ids=["the Seven", "a challenge"],
)
def test_a_result_logged_as_data_only_leaves_question_ids_as_they_were(
    fn: Callable[[Context], object],
) -> None:
    # answers in a record are keyed by question id: a new silent event must not change one
    assert _first_question(fn, DUELS, after_silent=True) == _first_question(
        fn, DUELS, after_silent=False
    )
