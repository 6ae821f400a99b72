"""Contact is contact (#32 item 5): in every golden battle, after every step the engine
resolves and after every move within a step, no two units on the table overlap beyond the
core's touching tolerance. Units in melee meet front to front or front to flank; a base inside
another is a rules defect."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import pytest

from rules_core import engine
from rules_core.events import Event, Private, UnitDestroyed, UnitLeftTable, UnitMoved, UnitPlaced
from rules_core.geometry import EPSILON, TOUCH, Footprint, overlapping, penetration
from rules_core.plugin import Rules
from rules_core.state import BattleState, Unit
from tests.rules_core.rulesets.hail_caesar import script as hail_caesar
from tests.rules_core.rulesets.hail_caesar.test_battle import rules as hail_caesar_rules
from tests.rules_core.rulesets.heroic_age import script as heroic_age
from tests.rules_core.rulesets.heroic_age.test_battle import rules as heroic_age_rules
from tests.rules_core.rulesets.impetus import helpers as impetus
from tests.rules_core.rulesets.pike_and_shot import script as pike_and_shot
from tests.rules_core.rulesets.pike_and_shot.test_battle import rules as pike_and_shot_rules
from tests.rules_core.rulesets.skirmish import script as skirmish
from tests.rules_core.rulesets.skirmish.test_battle import rules as skirmish_rules
from tests.rules_core.rulesets.tree_of_battles import script as tree_of_battles
from tests.rules_core.rulesets.tree_of_battles.test_battle import rules as tree_of_battles_rules
from tests.rules_core.scripted import Played
from tests.rules_core.test_vanguard_battle import play as vanguard_play
from tools.sample_maps import sample_battles, under_way

# The golden battles, each as its test plays it (the same script, seed and turn limit).
BATTLES: dict[str, Callable[[], Played]] = {
    "hail_caesar": lambda: hail_caesar.play(hail_caesar_rules()),
    "heroic_age": lambda: heroic_age.play(heroic_age_rules()),
    "impetus": impetus.play,
    "pike_and_shot": lambda: pike_and_shot.play(pike_and_shot_rules()),
    "skirmish": lambda: skirmish.play(skirmish_rules()),
    "tree_of_battles": lambda: tree_of_battles.play(tree_of_battles_rules()),
}


@dataclass(frozen=True)
class Overlap:
    """Two units whose bases overlap at some moment: how deep, and where the battle was."""

    where: str
    first: str
    second: str
    depth: float


def overlaps(units: dict[str, Unit], where: str) -> Iterator[Overlap]:
    """Every pair of these units whose bases overlap deeper than ``TOUCH`` (as the core's one
    test of "on another unit", ``geometry.overlapping``, says: float noise on a touch of
    exactly ``TOUCH`` is a touch; the AI fuzzer's Tree of Battles seeds 8 and 13 met it)."""
    bases = [(u.id, Footprint.of(u)) for u in units.values()]
    for (a, one), (b, other) in itertools.combinations(bases, 2):
        depth = penetration(one, other)
        if depth > TOUCH + EPSILON:
            yield Overlap(where, a, b, round(depth, 3))


def on_table(state: BattleState) -> dict[str, Unit]:
    """The units on the table, by id."""
    return {u.id: u for u in state.units_on_table}


def _inner(event: Event) -> Event:
    while isinstance(event, Private):
        event = event.event
    return event


def moments(
    before: BattleState, start: dict[str, Unit], events: tuple[Event, ...]
) -> Iterator[dict[str, Unit]]:
    """The units on the table after each move, placement or loss a step's events record,
    from ``start`` (where they stood when these events began)."""
    units = dict(start)
    for event in map(_inner, events):
        if isinstance(event, UnitMoved) and event.unit in units:
            x, y = event.path[-1]
            units[event.unit] = replace(units[event.unit], x=x, y=y, facing=event.facing)
        elif isinstance(event, UnitPlaced):
            units[event.unit] = before.unit(event.unit).placed(event.at, event.facing)
        elif isinstance(event, UnitDestroyed | UnitLeftTable):
            units.pop(event.unit, None)
        else:
            continue
        yield dict(units)


def stepped(
    monkeypatch: pytest.MonkeyPatch, play: Callable[[], Played]
) -> tuple[list[Overlap], int]:
    """The battle played; each overlapping pair, as first found, in the state each step left
    (a step stopped at a question included) or after any move within the step; and how many
    moments were looked at."""
    found: dict[tuple[str, str], Overlap] = {}
    looked = [0]
    run_step = engine._run_step
    # A step stopped at a question keeps its start state; its moves so far are carried here
    # so that the events after the answer start from where those moves left the units.
    carried: list[dict[str, Unit]] = []

    def kept(*args: object, **kwargs: object) -> engine.Resolution:
        result = run_step(*args, **kwargs)  # type: ignore[arg-type]
        before = args[2]
        assert isinstance(before, BattleState)
        start = carried.pop() if carried and before.pending is not None else on_table(before)
        carried.clear()
        where = f"turn {before.cursor.turn} {before.cursor.step}"
        states = [start, *moments(before, start, result.events)]
        if result.state.pending is not None:
            carried.append(states[-1])
        for units in [*states, on_table(result.state)]:
            looked[0] += 1
            for overlap in overlaps(units, where):
                found.setdefault((overlap.first, overlap.second), overlap)
        return result

    monkeypatch.setattr(engine, "_run_step", kept)
    play()
    return list(found.values()), looked[0]


@pytest.mark.parametrize("ruleset", sorted(BATTLES))
def test_no_two_bases_overlap_after_any_step(monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    found, looked = stepped(monkeypatch, BATTLES[ruleset])
    assert looked > 100  # every step of the battle and every move in it was looked at
    assert found == []


def test_no_two_bases_overlap_in_the_vanguard_battle(
    monkeypatch: pytest.MonkeyPatch, vanguard: Rules
) -> None:
    found, looked = stepped(monkeypatch, lambda: vanguard_play(vanguard))
    assert looked > 20
    assert found == []


@pytest.mark.parametrize("ruleset", sorted(BATTLES))
def test_no_two_bases_overlap_on_the_sample_map(ruleset: str) -> None:
    # The step docs/maps shows (the demo's orders played by the engine): in Heroic Age,
    # Ubba's Bondi pursued 0.95" into Somerset Thegns, which its turned start overlapped.
    state = under_way(sample_battles()[ruleset]).state
    units = list(state.units_on_table)
    assert len(units) >= 4
    found = [
        f"{a.name} / {b.name}"
        for a, b in itertools.combinations(units, 2)
        if overlapping(Footprint.of(a), Footprint.of(b))
    ]
    assert found == []
