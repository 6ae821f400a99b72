"""Personal combat as the sheet prints it (seed ``004_87382385134ce980``, "Personal Combat").

The refusal table, the hands dealt, the card comparisons and the consequences, each number
written once; ``duel.py`` reads them at the time of use.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_core.cards import Card
from rules_core.tables import Band, GridTable, ScoreTable

# "Challenge not accepted, leader who refused rolls a D6:"
REFUSED = ScoreTable(
    "Challenge not accepted",
    (
        Band(1, 3, "lose_lp", "Loose 1 LP."),
        Band(4, 5, "champion", "A champion accepts the challenge."),
        Band(6, 6, "no_effect", "No effect."),
    ),
)
REFUSAL_LPS = 1  # "1-3 Loose 1 LP."

# "Challenge accepted, deal out cards." Rows: who fights; columns: cards dealt, cards discarded.
SPECIAL_WEAPON = "Leader with special weapon"
LEADER_OR_HEROIC = "Each other leader or heroic champion"
CHAMPION = "Each other champion"
HANDS = GridTable(
    "Personal combat hands",
    ("cards", "discard"),
    {
        SPECIAL_WEAPON: (8, 3),  # "8 cards and discard 3"
        LEADER_OR_HEROIC: (7, 2),  # "7 cards and discard 2."
        CHAMPION: (6, 1),  # "6 cards and discard 1."
    },
)

CHALLENGE_LPS = 3  # "3 LPs: Issue or accept Challenge to personal combat."
HEROIC_CHAMPION_BONUS = 1  # "Dice off to determine advantage. +1 if heroic champion"
WOUNDS_TO_KILL = 3  # "3 wounds kills."
KILL_LPS = 1  # "Kill opponent: +1 LP, unless a champion fought or leader sustained 2 wounds."
KILL_AGGRESSION = 1  # "+1 Aggression Level all units in his contingent."
KILL_DPS = 1  # "1 DP on all units in opposing contingent."
TWO_WOUNDS = 2  # "If leader or his champion took 2 wounds, that leader's LPs are reduced by 1."
TWO_WOUNDS_LPS = 1
LOST_DPS = 1  # DP list: "1 DP if their leader lost personal combat"
WIN_AGGRESSION = 1  # Aggression levels: "+1 Win personal combat"
LEADER_KILLED_AGGRESSION = 1  # "-1 Leader killed (applies only to his contingent.)"
DOUBLE = 2  # both black: "if double opponent's card or better"

RED, BLACK = "red", "black"  # "Red = parry, Black = strike, Joker can be either"


def hand_row(*, leader: bool, special_weapon: bool, heroic: bool) -> str:
    """The row of ``HANDS`` a fighter reads: a leader with a special weapon, another leader
    or a heroic champion, or another champion."""
    if leader and special_weapon:
        return SPECIAL_WEAPON
    if leader or heroic:
        return LEADER_OR_HEROIC
    return CHAMPION


def colour(code: str, joker_as: str = "") -> str:
    """A card's colour in a duel: hearts and diamonds red (parry), clubs and spades black
    (strike); a Joker is what its player declares."""
    card = Card.from_code(code)
    if card.is_joker:
        if joker_as not in (RED, BLACK):
            raise ValueError("a Joker is played as red or black")
        return joker_as
    return RED if card.suit in ("hearts", "diamonds") else BLACK


def card_value(code: str, ace: int, joker: int) -> int:
    """A card's value in a comparison: 2-10, J 11, Q 12, K 13; the Ace and the Joker as the
    parameters ``duel_ace_value`` and ``duel_joker_value`` say (the sheet is silent)."""
    card = Card.from_code(code)
    if card.is_joker:
        return joker
    return ace if card.rank == "A" else card.value


@dataclass(frozen=True)
class Exchange:
    """What one pair of cards does: wounds to the side without and with advantage, who takes
    the advantage ("low", "high" or "dice": dice again), and the sheet's row."""

    wounds_first: int  # to the player who played first (had no advantage)
    wounds_second: int  # to the player who answered (had the advantage)
    advantage: str  # "first", "second" or "dice"
    row: str


BOTH_RED = "Both red: No result. Advantage goes to the highest card. If the same dice again."
BOTH_BLACK_DOUBLE = (
    "Both black: double opponent's card or better, inflict 1 wound and take advantage."
)
BOTH_BLACK_LESS = (
    "Both black: difference less, both take 1 wound. Advantage goes to the player with highest"
    " card. If the same dice again."
)
PARRIED = "Red and black: Red card same or higher the blow is parried. Take advantage."
STRUCK = "Red and black: Black card is higher a wound is inflicted. Take advantage."


def exchange(first: tuple[str, int], second: tuple[str, int]) -> Exchange:
    """The result of two cards, each (colour, value): ``first`` played face up by the player
    without advantage, ``second`` the answer of the player with it."""
    (c1, v1), (c2, v2) = first, second
    higher = "first" if v1 > v2 else "second" if v2 > v1 else "dice"
    if c1 == RED and c2 == RED:
        return Exchange(0, 0, higher, BOTH_RED)
    if c1 == BLACK and c2 == BLACK:
        if v1 >= DOUBLE * v2:
            return Exchange(0, 1, "first", BOTH_BLACK_DOUBLE)
        if v2 >= DOUBLE * v1:
            return Exchange(1, 0, "second", BOTH_BLACK_DOUBLE)
        return Exchange(1, 1, higher, BOTH_BLACK_LESS)
    red, black = (v1, v2) if c1 == RED else (v2, v1)
    red_player = "first" if c1 == RED else "second"
    black_player = "second" if red_player == "first" else "first"
    if red >= black:
        return Exchange(0, 0, red_player, PARRIED)
    struck = 1
    return Exchange(
        struck if red_player == "first" else 0,
        struck if red_player == "second" else 0,
        black_player,
        STRUCK,
    )
