"""The god pack as the sheet prints it (seed ``004_87382385134ce980``, "The God Pack").

A deck of 52 cards and two Jokers. Each rank reads one row below; ``GOD_PACK`` is what
``gods.py`` looks a drawn card up in, so a changed row changes play. Cards marked ``*`` on the
sheet ("may be retained to play later") have ``retained=True``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.cards import RANKS, Card


@dataclass(frozen=True)
class GodCard:
    """One row of the god pack: what a drawn card does, in the sheet's words."""

    effect: str  # the id gods.py applies: none, bad_omen, skilled_archer, ...
    title: str
    text: str
    retained: bool = False  # "* may be retained to play later"


NO_IMPACT = GodCard("none", "No impact", "Number cards other than 3, 5 or 7: No impact")

GOD_PACK: dict[str, GodCard] = {
    **{rank: NO_IMPACT for rank in ("2", "4", "6", "8", "9", "10")},
    "3": GodCard(
        "bad_omen",
        "A bad omen",
        "Three: A bad omen. One unit's aggression level, chosen by the opposing player,"
        " reduced by one.",
    ),
    "5": GodCard(
        "skilled_archer",
        "Skilled archer revealed",
        "Five: Skilled archer revealed. Double dice for one stand of choice in one missile"
        " exchange. *",
        retained=True,
    ),
    "7": GodCard(
        "fortune",
        "Fortune smiles",
        "Seven: Fortune smiles. The player may choose to re-roll one set of dice thrown. *",
        retained=True,
    ),
    "J": GodCard(
        "hard_drinking",
        "Too much hard drinking",
        "Jack: The effects of too much hard drinking the night before begins to tell, all"
        " retinues gain 1 DP",
    ),
    "Q": GodCard(
        "beautiful_woman",
        "A beautiful woman",
        "Queen: Beautiful woman inspires the men. Increase aggression level of one retinue of"
        " choice.",
    ),
    "K": GodCard(
        "new_hero",
        "A new hero revealed",
        "King: A new hero revealed and immediately challenges an enemy leader to personal combat.",
    ),
    "A": GodCard(
        "favoured",
        "Favoured by the Gods",
        "Ace: A leader is seen to be favoured by the Gods raising one leader's LPs by 1. Chosen"
        " by affected player.",
    ),
    "JOKER1": GodCard(
        "heavy_rain",
        "Heavy rain",
        "First Joker: Heavy rain makes ground soggy. DPs for fatigue on die rolls of 4-6, this"
        " and following turn.",
    ),
    "JOKER2": GodCard(
        "terror",
        "Terror",
        "Second Joker: A major natural event causes terror. Every unit in both armies drops 1"
        " Aggression Level.",
    ),
}
assert set(GOD_PACK) == {*RANKS, "JOKER1", "JOKER2"}

# The numbers in the card texts, each written once.
BAD_OMEN_LEVELS = 1  # Three: "reduced by one"
SKILLED_ARCHER_DICE = 2  # Five: "Double dice" (the stand's dice multiplied by this)
DRINKING_DPS = 1  # Jack: "all retinues gain 1 DP"
WOMAN_LEVELS = 1  # Queen: "Increase aggression level" (by one)
FAVOURED_LPS = 1  # Ace: "raising one leader's LPs by 1"
RAIN_TURNS = 2  # First Joker: "this and following turn"
RAIN_FATIGUE_FROM = 4  # First Joker: "DPs for fatigue on die rolls of 4-6"
TERROR_LEVELS = 1  # Second Joker: "drops 1 Aggression Level"
HOLY_PERSON_LPS = 1  # Invoke the Gods: "may use 1 LP to cancel the card"


def god_card(code: str) -> GodCard:
    """The row of the god pack a card code reads (``"7H"`` -> Fortune smiles)."""
    card = Card.from_code(code)
    return GOD_PACK[card.code if card.is_joker else card.rank]
