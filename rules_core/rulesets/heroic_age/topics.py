"""The questions the heroic-age rules ask again and again, for standing instructions."""

from __future__ import annotations

from rules_core.rulesets.heroic_age.status import AGGRESSION, DPS, UNFORMED

# The questions it shares with other rulesets, re-exported for its rules.
from rules_core.shared_topics import FOLLOW_UP as FOLLOW_UP
from rules_core.shared_topics import FOLLOW_WORDS as FOLLOW_WORDS
from rules_core.shared_topics import GO_FIRST
from rules_core.shared_topics import INITIATIVE as INITIATIVE
from rules_core.shared_topics import INITIATIVE_WORDS as INITIATIVE_WORDS
from rules_core.standing import Condition, Topic, when_other, when_unit
from rules_core.state import Unit


def _blood_lust(unit: Unit) -> bool:
    return AGGRESSION.of(unit) == "blood lust"


def _tired(unit: Unit) -> bool:
    return DPS.of(unit) >= 2 or UNFORMED.of(unit)


TOPICS = (
    GO_FIRST,
    Topic.of(
        FOLLOW_UP,
        "follow up an opponent that fell back, or halt",
        FOLLOW_WORDS,
        (
            Condition("blood_lust", "if the unit is in blood lust", when_unit(_blood_lust)),
            Condition("tired", "if the unit is unformed or has 2+ DPs", when_unit(_tired)),
            Condition(
                "foe_retinue",
                "if the enemy is a retinue",
                when_other(lambda x: x.type == "retinue"),
            ),
        ),
    ),
)
