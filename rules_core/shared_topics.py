"""Recurring questions that read the same in several rulesets, declared once for them to include.

As ``shared_status`` does for status keys: a ruleset's ``topics.py`` re-exports the ones it asks
(the heroic age and skirmish both ask who goes first, and whether to follow up).
"""

from __future__ import annotations

from rules_core.standing import Topic

INITIATIVE = "initiative"
FOLLOW_UP = "follow_up"
INITIATIVE_WORDS = {"first": "go first", "second": "go second"}
FOLLOW_WORDS = {"follow_up": "follow up", "halt": "halt"}

# The winner of the initiative chooses to go first or second.
GO_FIRST = Topic.of(INITIATIVE, "go first or second after winning the initiative", INITIATIVE_WORDS)
