"""Answers kept per state (``kept.py``) are the answers worked out afresh: the same nearest
enemy, contacts, targets and touching edges, and never a stale one once something moved."""

from __future__ import annotations

import random
from dataclasses import replace

from rules_core import toolkit
from rules_core.big_battles import big_battle
from rules_core.geometry import Footprint, contact_edge
from rules_core.rulesets.pike_and_shot import combat, kept
from rules_core.state import BattleState, Unit
from tests.rules_core.rulesets.pike_and_shot.helpers import RULES, at, status


def _id(unit: Unit | None) -> str | None:
    return None if unit is None else unit.id


def _moved(state: BattleState, key: str, x: float, y: float) -> BattleState:
    return state.with_unit(replace(state.unit(key), x=x, y=y))


def test_the_nearest_enemy_is_toolkits_for_every_unit_of_a_big_battle() -> None:
    state = big_battle(RULES, 120)
    for unit in state.units_on_table:
        assert kept.nearest_enemy(state, unit) == toolkit.nearest_enemy(state, unit), unit.id


def test_the_nearest_enemy_is_measured_edge_to_edge_not_by_its_box() -> None:
    # parliament3 turned 45 degrees: its box comes nearer (3.4") than parliament1's (5"), its
    # base does not (6.1")
    state = at(
        "movement", royalists4=(30, 20, 0), parliament3=(37, 27, 45), parliament1=(30, 27, 180)
    )
    unit = state.unit("royalists4")
    assert _id(toolkit.nearest_enemy(state, unit)) == "parliament1"
    assert _id(kept.nearest_enemy(state, unit)) == "parliament1"


def test_the_nearest_enemy_tie_goes_to_the_first_in_roster_order() -> None:
    # parliament1 comes before parliament3 in the roster; both stand 10" off, one each side
    state = at(
        "movement", royalists4=(30, 20, 0), parliament3=(30, 32, 180), parliament1=(30, 8, 0)
    )
    unit = state.unit("royalists4")
    assert toolkit.gap(unit, state.unit("parliament1")) == toolkit.gap(
        unit, state.unit("parliament3")
    )
    assert kept.nearest_enemy(state, unit) == toolkit.nearest_enemy(state, unit)
    assert _id(kept.nearest_enemy(state, unit)) == "parliament1"


def test_the_nearest_enemy_changes_when_an_enemy_moves_nearer() -> None:
    state = at(
        "movement", royalists4=(30, 20, 0), parliament3=(30, 32, 180), parliament1=(60, 8, 0)
    )
    assert _id(kept.nearest_enemy(state, state.unit("royalists4"))) == "parliament3"
    later = _moved(state, "parliament1", 30, 15)
    assert _id(kept.nearest_enemy(later, later.unit("royalists4"))) == "parliament1"


def test_contacts_are_kept_across_a_status_change_and_refreshed_by_a_move() -> None:
    state = at(
        "combat", royalists4=(30, 20, 0), parliament3=(30, 22, 180), parliament1=(50, 20, 270)
    )
    unit = state.unit("royalists4")
    assert [e.id for e in kept.enemies_in_contact(state, unit)] == ["parliament3"]
    hit = status(state, "parliament3", hits=2)  # nothing moved: the same contact, the new unit
    found = kept.enemies_in_contact(hit, hit.unit("royalists4"))
    assert found == [hit.unit("parliament3")] and found[0].status["hits"] == 2
    apart = _moved(hit, "parliament3", 30, 40)  # it moved away: no contact any more
    assert kept.enemies_in_contact(apart, apart.unit("royalists4")) == []
    assert not kept.engaged(apart, apart.unit("royalists4"))
    back = _moved(apart, "parliament1", 34, 20)  # another came in on the flank
    touching = kept.enemies_in_contact(back, back.unit("royalists4"))
    assert touching == toolkit.enemies_in_contact(back, back.unit("royalists4"))
    assert [e.id for e in touching] == ["parliament1"]


def test_a_shooters_targets_follow_the_target_out_of_range() -> None:
    state = at("combat", royalists4=(30, 20, 0), parliament3=(30, 24.5, 180))
    shooter = state.unit("royalists4")
    assert [e.id for e in combat.targets(state, shooter)] == ["parliament3"]
    far = _moved(state, "parliament3", 30, 60)
    assert combat.targets(far, far.unit("royalists4")) == []


def test_the_touching_edge_is_geometrys_for_each_side_of_a_unit() -> None:
    state = at(
        "combat", royalists4=(30, 20, 0), parliament3=(30, 22, 180), parliament1=(34, 20, 270),
        parliament7=(30, 18, 0),
    )  # fmt: skip
    here = Footprint.of(state.unit("royalists4"))
    for key in ("parliament3", "parliament1", "parliament7"):
        there = Footprint.of(state.unit(key))
        assert kept.touching_edge(here, there) == contact_edge(here, there)
        assert kept.touching_edge(there, here) == contact_edge(there, here)


def test_contacts_carried_past_moves_are_the_ones_worked_out_afresh() -> None:
    # One unit at a time steps into contact with an enemy's front, or away; each step's contacts
    # are asked of every unit, kept (carried on from the layout before) and afresh.
    rng = random.Random(37)
    state = big_battle(RULES, 60)
    for _ in range(40):
        for unit in state.units_on_table:
            assert kept.enemies_in_contact(state, unit) == toolkit.enemies_in_contact(state, unit)
            assert combat.opponent(state, unit) == combat._opponent(state, unit), unit.id
        mover = rng.choice(state.units_on_table)
        enemies = state.enemies_of(mover.side, on_table=True)
        enemy = rng.choice(enemies)
        if rng.random() < 0.7:  # squarely against its front, facing it
            there = Footprint.of(enemy).at(enemy.depth / 2 + mover.depth / 2, 0.0)
            moved = replace(mover, x=there[0], y=there[1], facing=(enemy.facing + 180) % 360)
        else:
            moved = replace(mover, x=mover.x + rng.uniform(-6, 6), y=mover.y + rng.uniform(-6, 6))
        state = state.with_unit(moved)
    for unit in state.units_on_table:
        assert kept.enemies_in_contact(state, unit) == toolkit.enemies_in_contact(state, unit)
        assert combat.opponent(state, unit) == combat._opponent(state, unit), unit.id


def test_the_opponent_kept_past_a_status_change_is_the_new_states_unit() -> None:
    state = at("combat", royalists4=(30, 20, 0), parliament3=(30, 22, 180))
    assert _id(combat.opponent(state, state.unit("royalists4"))) == "parliament3"
    hit = status(state, "parliament3", hits=2)  # nothing moved: the same opponent, as it is now
    found = combat.opponent(hit, hit.unit("royalists4"))
    assert found is hit.unit("parliament3") and found.status["hits"] == 2
    apart = _moved(hit, "parliament3", 30, 40)
    assert combat.opponent(apart, apart.unit("royalists4")) is None
