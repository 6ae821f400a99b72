"""Playing cards and card decks kept in the battle state.

A ``DeckState`` lives in ``BattleState.decks``: its draw pile is a sorted set of card codes
(never a future order), with the discards, the cards face up on the table, and hands and
retained piles keyed by owner (a side id, or a leader's or unit's id). A resolver works a deck
through ``Context.cards(deck_id)``; a draw picks a card from the step's random stream at draw
time and is logged as a ``CardDrawn`` event, which the battle record keeps like a dice roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_core.codec import Serialisable

SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKER = "Joker"
_SUIT_CODES = {suit[0].upper(): suit for suit in SUITS}


class EmptyDeckError(LookupError):
    """Raised when drawing from an empty deck that cannot (or may not) be reshuffled."""


@dataclass(frozen=True)
class Card:
    """A playing card: rank 2..10, J, Q, K, A with a suit, or a Joker (numbered 1 or 2)."""

    rank: str
    suit: str | None = None
    joker_number: int = 0

    def __post_init__(self) -> None:
        if self.rank == JOKER:
            if self.suit is not None or self.joker_number not in (1, 2):
                raise ValueError("a Joker has no suit and is numbered 1 or 2")
        elif self.rank not in RANKS or self.suit not in SUITS or self.joker_number != 0:
            raise ValueError(f"not a playing card: rank {self.rank!r}, suit {self.suit!r}")

    @property
    def is_joker(self) -> bool:
        """Whether this card is a Joker."""
        return self.rank == JOKER

    @property
    def value(self) -> int:
        """The rank as a number: 2..10, J 11, Q 12, K 13, A 14; a Joker is 0."""
        return 0 if self.is_joker else RANKS.index(self.rank) + 2

    @property
    def code(self) -> str:
        """A short ASCII code for storage, e.g. "QS", "10H" or "JOKER1"."""
        if self.suit is None:
            return f"JOKER{self.joker_number}"
        return f"{self.rank}{self.suit[0].upper()}"

    @classmethod
    def from_code(cls, code: str) -> Card:
        """The card with this ``code``; ValueError if there is none."""
        if not isinstance(code, str):
            raise ValueError(f"a card code must be text, got {code!r}")
        if code in ("JOKER1", "JOKER2"):
            return cls(JOKER, None, int(code[-1]))
        rank, suit = code[:-1], _SUIT_CODES.get(code[-1:])
        if rank not in RANKS or suit is None:
            raise ValueError(f"not a card code: {code!r}")
        return cls(rank, suit)

    def __str__(self) -> str:
        return JOKER if self.suit is None else f"{self.rank}{SUIT_SYMBOLS[self.suit]}"


CONCEALED = "?"  # a card code a viewer may not see (``rules_core.secrets.view``)


@dataclass(frozen=True)
class DeckState(Serialisable):
    """One deck as the battle keeps it; every card is in exactly one place."""

    id: str
    pile: tuple[str, ...] = ()  # the cards to draw, sorted: the order is drawn at draw time
    discards: tuple[str, ...] = ()
    face_up: tuple[str, ...] = ()  # played or drawn face up, seen by everyone
    hands: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    retained: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def hand(self, owner: str) -> tuple[str, ...]:
        """The codes of one owner's hand (empty if they hold none)."""
        return tuple(self.hands.get(owner, ()))

    def kept(self, owner: str) -> tuple[str, ...]:
        """The codes of one owner's retained pile."""
        return tuple(self.retained.get(owner, ()))

    def every_card(self) -> tuple[str, ...]:
        """Every card code of the deck wherever it is (concealed ones as ``CONCEALED``)."""
        held = [code for pile in (*self.hands.values(), *self.retained.values()) for code in pile]
        return (*self.pile, *self.discards, *self.face_up, *held)


@dataclass(frozen=True)
class Draw(Serialisable):
    """One card drawn: the deck, who drew it (None: turned face up) and its code ("" where
    the viewer may not see it)."""

    deck: str
    owner: str | None
    card: str


def sort_codes(codes: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Card codes in deck order (suit, rank, Jokers last); a pile is kept this way."""
    return tuple(sorted(codes, key=lambda code: _order(Card.from_code(code))))


def full_deck(jokers: bool = True) -> tuple[Card, ...]:
    """Every card of a deck in a fixed order: 52 cards, then two Jokers if ``jokers``."""
    cards = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)
    return (*cards, Card(JOKER, None, 1), Card(JOKER, None, 2)) if jokers else cards


def _order(card: Card) -> tuple[int, int, int]:
    suit = SUITS.index(card.suit) if card.suit is not None else len(SUITS)
    return suit, card.value, card.joker_number
