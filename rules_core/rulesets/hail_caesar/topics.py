"""The questions Hail Caesar asks again and again, for standing instructions."""

from __future__ import annotations

from rules_core.rulesets.hail_caesar.profiles import MOUNTED
from rules_core.rulesets.hail_caesar.status import CASUALTIES, SHAKEN
from rules_core.standing import Condition, Topic, when_other, when_unit
from rules_core.state import Unit

REROLL = "reroll"
HOLD_OR_RETREAT = "hold_or_retreat"
SIGHT = "sight"
BROKEN_ADVANCE = "broken_advance"
FORBID, ALLOW = "forbid", "allow"  # the GM's rulings on it, and its parameter's values

REROLL_WORDS = {"reroll": "re-roll the order dice", "keep": "keep the result"}
HOLD_WORDS = {"hold_disordered": "hold your ground disordered", "retreat": "retreat in good order"}
SIGHT_WORDS = {"blocked": "it cannot see", "clear": "it can see"}
BROKEN_ADVANCE_WORDS = {
    FORBID: "it may not advance: it stays where it is",
    ALLOW: "it advances on its initiative",
}


def _hurt(unit: Unit) -> bool:
    return CASUALTIES.of(unit) > 0


TOPICS = (
    Topic.of(REROLL, "the army commander's re-roll of a failed order test", REROLL_WORDS),
    Topic.of(
        HOLD_OR_RETREAT,
        "hold disordered or retreat after a break test from shooting",
        HOLD_WORDS,
        (
            Condition("shaken", "if the unit is shaken", when_unit(SHAKEN.of)),
            Condition(
                "casualties",
                "if the unit has casualties",
                when_unit(lambda x: CASUALTIES.of(x) > 0),
            ),
            Condition(
                "by_mounted", "if the shooters are mounted", when_other(lambda x: x.type in MOUNTED)
            ),
        ),
    ),
    Topic.of(SIGHT, "whether a shooter sees its target (the GM rules)", SIGHT_WORDS, gm=True),
    Topic.of(
        BROKEN_ADVANCE,
        "whether a broken division's unit may advance on its initiative (the GM rules)",
        BROKEN_ADVANCE_WORDS,
        gm=True,
    ),
)
