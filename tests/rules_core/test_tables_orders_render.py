"""Tables, order parameters and the text renderer."""

from __future__ import annotations

import pytest

from rules_core.decisions import Decision, Option
from rules_core.dice import Dice
from rules_core.events import (
    BattleEnded,
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
