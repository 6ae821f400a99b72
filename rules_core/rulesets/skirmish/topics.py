"""The questions the skirmish rules ask again and again, for standing instructions."""

from __future__ import annotations

from rules_core.rulesets.skirmish.status import DISORDERED, WOUNDS

# The questions it shares with other rulesets, re-exported for its rules.
from rules_core.shared_topics import FOLLOW_UP as FOLLOW_UP
from rules_core.shared_topics import FOLLOW_WORDS as FOLLOW_WORDS
from rules_core.shared_topics import GO_FIRST
from rules_core.shared_topics import INITIATIVE as INITIATIVE
from rules_core.shared_topics import INITIATIVE_WORDS as INITIATIVE_WORDS
from rules_core.standing import Condition, Topic, when_other, when_unit
from rules_core.state import Unit

CHARGE_RESPONSE = "charge_response"

CHARGED_WORDS = {"stand": "stand", "evade": "evade"}


def _mounted(unit: Unit) -> bool:
    return unit.type == "cavalry"


def _wounded(unit: Unit) -> bool:
    return WOUNDS.of(unit) > 0


# Asked of both a charged unit and one whose enemy falls back.
WOUNDED = Condition("wounded", "if the unit is wounded", when_unit(_wounded))

TOPICS = (
    GO_FIRST,
    Topic.of(
        CHARGE_RESPONSE,
        "stand or evade when charged",
        CHARGED_WORDS,
        (
            Condition("by_mounted", "if charged by cavalry", when_other(_mounted)),
            Condition("by_foot", "if charged by foot", when_other(lambda x: not _mounted(x))),
            WOUNDED,
            Condition("disordered", "if the unit is disordered", when_unit(DISORDERED.of)),
        ),
    ),
    Topic.of(
        FOLLOW_UP,
        "follow up or halt when the enemy falls back",
        FOLLOW_WORDS,
        (
            WOUNDED,
            Condition("foe_mounted", "if the enemy is cavalry", when_other(_mounted)),
        ),
    ),
)
