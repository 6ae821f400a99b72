"""The skirmish ruleset's hints to the AI general (#36): its kinds' usual names; a fight is
won or lost ("wins", "loses")."""

from rules_core.general_hints import GeneralHints

HINTS = GeneralHints(win_words=("wins",), lose_words=("loses",))
