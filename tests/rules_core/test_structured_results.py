"""Rolls carry a typed purpose and outcomes typed result events, rendered as the text was."""

from __future__ import annotations

import json
import random

import pytest

from rules_core.dice import Dice, Purpose, Roll
from rules_core.events import (
    MeleeResolved,
    ReactionResolved,
    ShotResolved,
    TestResolved,
    event_from_dict,
    event_to_dict,
)
from rules_core.odds import RollSpec
from rules_core.render import Renderer
from tests.rules_core.structured import RULESETS, scripted, unexplained_rolls

SHOOT = Purpose("archers", "shooting", against="knights", row="long range")


def test_a_roll_keeps_its_purpose_through_json_and_reads_as_before() -> None:
    plain = Dice(random.Random(5)).pool("Shooting", 4, 4)
    roll = Dice(random.Random(5)).pool("Shooting", 4, 4, purpose=SHOOT)
    assert roll.purpose == SHOOT and roll.describe() == plain.describe()
    data = json.loads(json.dumps(roll.to_dict()))
    assert data["purpose"] == {
        "roller": "archers",
        "for_what": "shooting",
        "against": "knights",
        "row": "long range",
    }
    assert Roll.from_dict(data) == roll


def test_a_roll_without_a_purpose_is_stored_as_before() -> None:
    roll = Dice(random.Random(5)).d6("Rally")
    assert "purpose" not in roll.to_dict()
    assert Roll.from_dict(roll.to_dict()).purpose is None
    partial = Purpose("u1", "rally").to_dict()
    assert partial == {"roller": "u1", "for_what": "rally"}


@pytest.mark.parametrize(
    "data", [{"roller": "u1"}, {"roller": 3, "for_what": "x"}, {"roller": "u", "for_what": ""}]
)
def test_a_malformed_purpose_is_refused(data: dict[str, object]) -> None:
    roll = Dice(random.Random(5)).d6("Rally").to_dict()
    with pytest.raises(ValueError):
        Roll.from_dict({**roll, "purpose": data})


def test_a_reroll_and_a_spec_keep_the_purpose() -> None:
    dice = Dice(random.Random(9))
    first = dice.two_d6("Order test", purpose=Purpose("leader", "order test"))
    assert dice.reroll(first, [0]).purpose == first.purpose
    other = Purpose("leader", "order test (re-roll)")
    assert dice.reroll(first, [1], purpose=other).purpose == other
    assert RollSpec("Shooting", 3, purpose=SHOOT).roll(dice).purpose == SHOOT


def test_typed_results_read_as_the_test_they_are_logged_as() -> None:
    r = Renderer({"a": "Archers", "k": "Knights"})
    base = TestResolved("k", "Shooting", 2, False, "2 hits", False)
    shot = ShotResolved("k", "Shooting", 2, False, "2 hits", False, "a", "k", 2, "cohesion")
    melee = MeleeResolved(
        "a", "Melee", 1, True, "won by 1", True, "a", "k", (("a", 1), ("k", 2)), "retreat"
    )
    react = ReactionResolved("k", "Reaction", 4, True, "evade", True, "k", "evade", "evaded")
    assert r.line(shot) == r.line(base)
    assert r.line(melee) == r.line(TestResolved("a", "Melee", 1, True, "won by 1"))
    assert r.line(react) == "Reaction for Knights: 4, passed (evade)"
    assert r.line(ReactionResolved("k", "", 0, False, "", False, "k", "evade", "evaded")) == ""
    for event in (shot, melee, react):
        assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_roll_of_a_scripted_battle_says_who_rolls_and_for_what(ruleset: str) -> None:
    assert unexplained_rolls(scripted(ruleset).result.events) == []
