"""Tables, order parameters and the text renderer."""

from __future__ import annotations

import pytest

from rules_core.decisions import Decision, Option
from rules_core.dice import Dice
from rules_core.events import (
    BattleEnded,
    DecisionAnswered,
    DecisionRequested,
    DiceRolled,
    LeaderHit,
    StatusChanged,
    TestResolved,
    UnitMoved,
)
from rules_core.orders import Order, OrderKind, Param
from rules_core.render import Renderer
from rules_core.seeding import stream
from rules_core.tables import Band, GridTable, ScoreTable

# The Tree of Battles control test, row for row as on the sheet.
CONTROL = ScoreTable(
    "Control test",
    (
        Band(None, 1, "retire_or_halt", "retire if testing for shooting, otherwise halt"),
        Band(2, 2, "halt", "D grade retire if shot at by artillery; otherwise halt"),
        Band(3, 4, "as_player_wishes", "act as player wishes"),
        Band(5, 5, "advance", "chivalrous charge nearest A grade; D grade advance"),
        Band(6, None, "charge", "chivalrous charge at max speed"),
    ),
)


@pytest.mark.parametrize(
    ("score", "result", "row"),
    [(-1, "retire_or_halt", "1-"), (1, "retire_or_halt", "1-"), (2, "halt", "2"),
     (3, "as_player_wishes", "3-4"), (4, "as_player_wishes", "3-4"), (5, "advance", "5"),
     (8, "charge", "6+")],
)  # fmt: skip
def test_every_row_of_a_score_table(score: int, result: str, row: str) -> None:
    band = CONTROL.lookup(score)
    assert (band.result, band.scores) == (result, row)


def test_grid_tables_and_their_checks() -> None:
    ranges = GridTable("Shooting", ("maximum", "effective", "close"), {"Archers": (6, None, 2)})
    assert ranges.lookup("Archers", "close") == 2
    with pytest.raises(KeyError):
        ranges.lookup("Archers", "extreme")
    with pytest.raises(ValueError, match="has 2 cells"):
        GridTable("Bad", ("a", "b", "c"), {"row": (1, 2)})
    with pytest.raises(KeyError):
        ScoreTable("Gap", (Band(1, 2, "x"),)).lookup(3)


def test_order_parameters_are_checked() -> None:
    shoot = OrderKind(
        "shoot",
        "Shoot",
        params=(Param("target", "unit"), Param("volley", "choice", False, ("one", "two"))),
    )
    assert shoot.problems(Order("a", "shoot", {"target": "b"})) == []
    assert shoot.problems(Order("a", "shoot", {})) == ["target is required"]
    assert shoot.problems(Order("a", "shoot", {"target": "b", "volley": "three", "x": 1})) == [
        "unknown parameter 'x'",
        "volley must be one of one, two",
    ]
    move = OrderKind("move", "Move", params=(Param("to", "point"), Param("dice", "number")))
    assert move.problems(Order("a", "move", {"to": [1, "x"], "dice": True})) == [
        "to must be a point [x, y]",
        "dice must be a number",
    ]


def test_the_renderer_writes_the_lines_players_read() -> None:
    r = Renderer({"u1": "Billmen", "red": "York", "l1": "Earl"}, " SF")
    roll = Dice(stream(b"s", "k")).d6("Control test")
    decision = Decision(
        "resp",
        "Stand or evade?",
        (Option("stand", "stand"), Option("evade", "evade")),
        "stand",
        "gm",
    )
    lines = r.lines(
        [
            UnitMoved("u1", ((0, 0), (0, 2.5)), 2.5, 90.4, ("enters rough ground",)),
            TestResolved("u1", "Control test", 3, True, "3-4: act as player wishes"),
            StatusChanged("u1", "dps", 1, 2, "moving in difficult terrain"),
            LeaderHit("l1", "-2 CPs", "risk to leader"),
            DecisionRequested(decision),
            DiceRolled(roll),
            BattleEnded("red", "the enemy army broke"),
            BattleEnded(None, "turn limit"),
        ]
    )
    assert lines[:5] == [
        "Billmen moves 2.5 SF to (0, 2.5) facing 90°; enters rough ground",
        "Control test for Billmen: 3, passed (3-4: act as player wishes)",
        "Billmen: dps 1 → 2 (moving in difficult terrain)",
        "Earl is hit: -2 CPs (risk to leader)",
        "the GM must decide: Stand or evade? [stand, evade; default stand]",
    ]
    assert lines[5] == roll.describe()
    assert lines[6:] == [
        "York wins the battle: the enemy army broke.",
        "The battle ends in a draw: turn limit.",
    ]


def test_negative_bands_are_printed_in_words() -> None:
    assert Band(-4, -2, "x").scores == "-4 to -2"
    assert Band(None, -7, "x").scores == "-7 or less"
    assert Band(-1, None, "x").scores == "-1 or more"
    assert Band(-1, 1, "x").scores == "-1 to 1"
    assert (Band(3, 4, "x").scores, Band(None, 1, "x").scores) == ("3-4", "1-")


def test_status_lines_are_words_and_bookkeeping_is_left_out() -> None:
    from rules_core.rulesets.hail_caesar.sample import sample_battle as hail_caesar_battle

    state = hail_caesar_battle()
    r = Renderer.for_state(state)
    first = state.units[0]
    assert r.lines(
        [
            StatusChanged(first.id, "charged", None, True, "charged"),
            StatusChanged(first.id, "charged", True, False, "the charge is spent"),
            StatusChanged(first.id, "fought", None, True, "after the round"),
            StatusChanged(first.id, "disordered", None, True, "gives ground"),
            StatusChanged(first.id, "disordered", True, False, "rallied"),
            StatusChanged(first.id, "casualties", None, 2, "shot"),
            DecisionAnswered("reroll:rom_legate:g3:4", "reroll", "rom"),
        ]
    ) == [
        f"{first.name}: charged this turn",
        f"{first.name}: disordered (gives ground)",
        f"{first.name}: no longer disordered (rallied)",
        f"{first.name}: casualties 0 → 2 (shot)",
        "Legio IX chose reroll",
    ]


def test_a_table_looked_up_says_neither_passed_nor_failed() -> None:
    r = Renderer({"a": "Archers"})
    looked_up = TestResolved("a", "Combat result", -1, False, "-1 to 1: inconclusive", False)
    tested = TestResolved("a", "Rally test", 4, True, "4+: rallies")
    assert r.line(looked_up) == "Combat result for Archers: -1 → -1 to 1: inconclusive"
    assert r.line(tested) == "Rally test for Archers: 4, passed (4+: rallies)"


def test_a_field_no_declaration_words_is_still_plain() -> None:
    r = Renderer({"k": "King", "g3": "Slingers", "w": "Warbands"})
    assert r.lines(
        [
            StatusChanged("k", "attached_to", None, "g3", "joins"),
            StatusChanged("k", "attached_to", "g3", None, "leaves"),
            StatusChanged("w", "broken", False, True, "two units lost"),
            StatusChanged("k", "points", 3, 1, "-2 CPs"),
            DecisionAnswered("response:r3", "follow_up", "w"),
        ]
    ) == [
        "King: attached to Slingers (joins)",
        "King: no longer attached to Slingers (leaves)",
        "Warbands: broken (two units lost)",
        "King: points 3 → 1 (-2 CPs)",
        "Warbands chose follow up",
    ]
