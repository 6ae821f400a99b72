"""Hail Caesar as the bot builds it: army lists' divisions and generals, the start, losses."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace

import pytest

from rules_core import engine
from rules_core.codec import Json
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.orders import Order
from rules_core.record import BattleRecord
from rules_core.render import Renderer
from rules_core.rulesets.hail_caesar import RULESET, demo, morale
from rules_core.rulesets.hail_caesar.forces import START_COUNTS
from rules_core.rulesets.hail_caesar.rules import HailCaesarRules
from rules_core.state import BattleState, Side, Unit
from rules_core.verify import verify

RULES = HailCaesarRules()
SEED = bytes.fromhex("c0de" * 16)


def armies() -> tuple[Mapping[str, Json], ...]:
    return RULES.sample_armies()


def bot_battle(rosters: tuple[Mapping[str, Json], ...] | None = None) -> BattleState:
    """A battle built as the bot builds one: new table, forces, units in a row in each zone."""
    rosters = rosters or armies()
    sides = (Side("a", "Legio IX"), Side("b", "Arverni"))
    state = RULES.new_battle("hc-bot", "hail_caesar", 48, 36, sides)
    groups, leaders, units = list(state.groups), list(state.leaders), list[Unit]()
    for side, roster in zip("ab", rosters, strict=True):
        more_groups, more_leaders = RULES.forces_from_roster(roster, side)
        groups += more_groups
        leaders += more_leaders
        zone = RULES.deployment_zone(state, side)
        assert zone is not None
        y = sum(p[1] for p in zone) / len(zone)
        entries = roster["units"]
        assert isinstance(entries, list)
        for index, entry in enumerate(entries, start=1):
            assert isinstance(entry, dict)
            unit = RULES.unit_from_roster(entry, f"{side}{index}", side, f"{side}_main")
            x = 48 * index / (len(entries) + 1)
            units.append(replace(unit, x=x, y=y, facing=0.0 if side == "a" else 180.0))
    return replace(state, groups=tuple(groups), leaders=tuple(leaders), units=tuple(units))


def test_the_sample_armies_come_from_the_package_and_fit_the_schema() -> None:
    romans, gauls = armies()
    assert romans["name"] == "Legio IX (sample)" and gauls["name"] == "Arverni (sample)"
    assert RULESET.roster_schema.validate(romans) == []
    assert RULESET.roster_schema.validate(gauls) == []


def test_an_army_list_brings_prefixed_divisions_with_their_generals() -> None:
    groups, leaders = RULES.forces_from_roster(armies()[0], "a")
    assert [(g.id, g.name, g.side, g.kind, g.leader) for g in groups] == [
        ("a_rom_legio", "Legio", "a", "division", "a_rom_legate"),
        ("a_rom_equites", "Equites", "a", "division", "a_rom_praefect"),
    ]
    legate = leaders[0]
    assert (legate.id, legate.name, legate.group, legate.points) == (
        "a_rom_legate", "Legate Quintus", "a_rom_legio", 8,
    )  # fmt: skip
    assert legate.status == {"rank": "army"} and leaders[1].status == {"rank": "general"}
    horse: dict[str, Json] = {"name": "Gallic Horse", "type": "cavalry", "division": "rom_equites"}
    unit = RULES.unit_from_roster(horse, "a5", "a", "a_main")
    assert unit.group == "a_rom_equites"


def test_two_copies_of_one_list_do_not_clash() -> None:
    romans = armies()[0]
    a_groups, a_leaders = RULES.forces_from_roster(romans, "a")
    b_groups, b_leaders = RULES.forces_from_roster(romans, "b")
    assert not {g.id for g in a_groups} & {g.id for g in b_groups}
    assert not {ld.id for ld in a_leaders} & {ld.id for ld in b_leaders}


def test_a_list_without_generals_or_with_odd_entries_still_gives_its_divisions() -> None:
    roster: dict[str, Json] = {
        "name": "Levy",
        "leaders": [{"name": "Nameless"}, "junk", {"id": "x"}],
        "units": [{"name": "Spears", "division": "left"}, {"name": "Bows"}],
    }
    groups, leaders = RULES.forces_from_roster(roster, "b")
    assert [(g.id, g.leader) for g in groups] == [("b_left", None)]
    assert [(ld.id, ld.group, ld.points) for ld in leaders] == [("b_general1", None, 0)]
    assert RULES.forces_from_roster({"name": "Empty", "units": []}, "a") == ((), ())
    bows = RULES.unit_from_roster({"name": "Bows"}, "b2", "b", "b_main")
    assert bows.group == "b_main"


def test_prepare_posts_generals_behind_their_divisions_and_counts_units() -> None:
    state = engine.begin(RULES, bot_battle())
    first = state.unit("a1")
    legate = state.leader("a_rom_legate")
    assert (legate.x, legate.y) == (round(first.x, 2), first.y - first.depth / 2 - 1)
    king = state.leader("b_gau_king")
    assert king.y == state.unit("b1").y + state.unit("b1").depth / 2 + 1
    counts = state.side("a").status[START_COUNTS]
    assert counts == {"a_rom_legio": 4, "a_rom_equites": 2}
    assert engine.begin(RULES, state).leaders == state.leaders  # placed generals stay put


def test_a_unit_taken_off_by_other_means_still_counts_against_its_division() -> None:
    state = engine.begin(RULES, bot_battle())
    gone = state.without_unit("a5")
    assert morale.division_counts(gone, "a", "a_rom_equites") == (1, 2)
    assert morale.divisions_of(gone, "a") == ["a_rom_legio", "a_rom_equites"]


def play_out(state: BattleState, limit: int = 3000) -> Resolution:
    """Play with the demo policy, generals' orders included, to the end."""
    result = Resolution(state, (), ())
    for _ in range(limit):
        now = result.state
        if now.outcome is not None:
            return result
        if now.pending is not None:
            decision = now.pending.decision
            reply = Answer(decision.id, demo.answer(now), decision.who)
            result = result.then(engine.answer(RULES, SEED, now, reply))
            continue
        sides = engine.waiting(RULES, now).sides
        orders = [o for side in sides for o in demo.orders_for(RULES, now, side)]
        result = result.then(engine.run(RULES, SEED, now, orders))
    raise AssertionError("the battle did not end")


@pytest.fixture(scope="module")
def played() -> tuple[BattleState, Resolution]:
    first = engine.begin(RULES, bot_battle())
    return first, play_out(first)


def test_a_battle_built_the_bots_way_plays_to_an_end_and_verifies(
    played: tuple[BattleState, Resolution],
) -> None:
    first, result = played
    assert result.state.outcome is not None
    lines = Renderer.for_state(first).lines(result.events)
    assert any("Order test: Legate Quintus, General Advance" in line for line in lines)
    assert any(line.startswith("Order test (Leadership 8)") for line in lines)
    kept = BattleRecord.start(first, SEED).extended(result.entries)
    report = verify(json.loads(json.dumps(kept.revealed(SEED).to_dict())))
    assert report.ok, report.problem


def test_the_demo_orders_the_general_advance_in_the_first_turn() -> None:
    state = engine.run(RULES, SEED, engine.begin(RULES, bot_battle()), []).state
    assert state.cursor.step == "army"
    divisions = [s.id for s in RULES.subjects("divisions", state)]
    assert divisions == ["a_rom_legio", "a_rom_equites"]
    assert RULES.demo_orders(state, "a") == [Order("a_rom_legate", "general_advance")]
    assert RULES.demo_orders(state, "b") == []


def test_carry_over_loses_broken_units_and_notes_survivors_casualties() -> None:
    entry: dict[str, Json] = {"name": "First Cohort", "type": "heavy_infantry", "casualties": 2}
    unit = RULES.unit_from_roster(entry, "a1", "a", "a_main")
    assert RULES.carry_over(entry, None) == {**entry, "status": "destroyed"}
    assert RULES.carry_over(entry, unit.with_status(casualties=4))["casualties"] == 4
    assert RULES.carry_over(entry, unit) == {"name": "First Cohort", "type": "heavy_infantry"}
    assert RULES.unit_from_roster(entry, "a1", "a", "a_main").status["casualties"] == 0
