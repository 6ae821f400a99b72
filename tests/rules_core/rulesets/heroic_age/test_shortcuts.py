"""The heroic age's shortcuts (#37) answer exactly as the plain measures they stand in for:
the nearest enemy measured nearest box first, distances within a reach told from boxes, and
the Seven's question ids counting the step's events on from the last count."""

from __future__ import annotations

import random
from dataclasses import replace

from rules_core.events import Event, MeleeResolved, StatusChanged, log_length
from rules_core.rulesets.heroic_age import units as u
from rules_core.rulesets.heroic_age.retained import log_count
from rules_core.rulesets.heroic_age.sample import sample_battle
from rules_core.state import BattleState
from tests.rules_core.rulesets.heroic_age.helpers import at

FACINGS = (0.0, 30.0, 45.0, 90.0, 135.0, 180.0, 270.0, 333.0)


def _scattered(seed: int) -> BattleState:
    """The sample battle's units scattered (tilted bases, so boxes are looser than bases)."""
    draw = random.Random(seed)
    state = sample_battle()
    assert len(state.units) > 4 and state.leaders
    for unit in state.units:
        x, y = draw.uniform(0, 30), draw.uniform(0, 20)
        state = state.with_unit(replace(unit, x=x, y=y, facing=draw.choice(FACINGS)))
    return state


def test_nearest_enemy_is_the_first_of_the_nearest_by_gap() -> None:
    for seed in range(40):
        state = _scattered(seed)
        for unit in state.units:
            enemies = state.enemies_of(unit.side)
            plain = min(enemies, key=lambda e: u.gap(state, unit, e), default=None)
            assert u.nearest_enemy(state, unit) == plain, (seed, unit.id)


def test_nearest_enemy_of_two_at_the_same_gap_is_the_first() -> None:
    state = at("movement", saxons1=(10, 10, 0), danes2=(10, 16, 180), danes4=(10, 4, 0))
    first = next(x for x in state.units if x.id in ("danes2", "danes4"))
    assert u.gap(state, state.unit("saxons1"), state.unit("danes2")) == u.gap(
        state, state.unit("saxons1"), state.unit("danes4")
    )
    assert u.nearest_enemy(state, state.unit("saxons1")) == first


def test_within_a_reach_from_boxes_as_from_gaps() -> None:
    for seed in range(10):
        state = _scattered(seed)
        for a in state.units:
            for b in state.units:
                for reach in (0.0, 1.0, 2.0, 8.0):
                    plain = u.within(u.gap(state, a, b), reach)
                    assert u.gap_within(state, a, b, reach) == plain, (seed, a.id, b.id)
            for leader in state.leaders:
                for reach in (0.0, 2.0, 6.0):
                    plain = u.within(u.leader_gap(state, leader, a), reach)
                    assert u.leader_within(state, leader, a, reach) == plain


def test_log_count_follows_a_growing_list_as_log_length() -> None:
    loud: Event = StatusChanged("saxons1", "dps", 0, 1, "shot")
    quiet: Event = MeleeResolved("saxons", "", 1, False, "won")
    events: list[Event] = []
    other: list[Event] = [loud, loud]
    for batch in ((loud,), (quiet, quiet), (loud, quiet, loud), (), (quiet,), (loud,) * 5):
        events += batch
        assert log_count(events) == log_length(events)
        assert log_count(other) == 2  # another step's list keeps its own count
