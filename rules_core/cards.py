"""Playing cards and card decks kept in the battle state.

A ``DeckState`` lives in ``BattleState.decks``: its draw pile is a sorted set of card codes
(never a future order), with the discards, the cards face up on the table, and hands and
retained piles keyed by owner (a side id, or a leader's or unit's id). A resolver works a deck
through ``Context.cards(deck_id)``; a draw picks a card from the step's random stream at draw
time and is logged as a ``CardDrawn`` event, which the battle record keeps like a dice roll.
"""

from __future__ import annotations

import random
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


class Deck:
    """A shuffled deck: drawn cards go to the discards unless retained by a player.

    ``draw`` on an empty deck raises EmptyDeckError, unless ``auto_reshuffle`` is set, in
    which case the discards are reshuffled into the deck first. Retained cards stay out of
    the deck until released (to the discards). The rng's own state is not part of
    ``to_dict``; store it separately if later shuffles must be reproduced.
    """

    def __init__(
        self, rng: random.Random, *, jokers: bool = True, auto_reshuffle: bool = False
    ) -> None:
        if not isinstance(rng, random.Random):
            raise TypeError("Deck needs a random.Random instance")
        self._rng = rng
        self.jokers = jokers
        self.auto_reshuffle = auto_reshuffle
        self._cards = list(full_deck(jokers))
        self._discards: list[Card] = []
        self._retained: list[Card] = []
        rng.shuffle(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    @property
    def remaining(self) -> int:
        """How many cards are left to draw."""
        return len(self._cards)

    @property
    def remaining_cards(self) -> tuple[Card, ...]:
        """The cards left to draw, in drawing order."""
        return tuple(self._cards)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The drawn cards not retained, in the order they were discarded."""
        return tuple(self._discards)

    @property
    def retained(self) -> tuple[Card, ...]:
        """The drawn cards players keep in hand, in the order they were retained."""
        return tuple(self._retained)

    def draw(self, *, retain: bool = False) -> Card:
        """Draw the top card, without replacement; it is discarded unless ``retain``."""
        if not self._cards:
            if not self.auto_reshuffle:
                raise EmptyDeckError("the deck is empty: reshuffle the discards to draw again")
            if not self._discards:
                raise EmptyDeckError("the deck is empty and there are no discards to reshuffle")
            self.reshuffle()
        card = self._cards.pop(0)
        (self._retained if retain else self._discards).append(card)
        return card

    def draw_many(self, n: int) -> list[Card]:
        """Draw ``n`` cards in turn, each as ``draw`` would."""
        if n < 0:
            raise ValueError(f"cannot draw a negative number of cards ({n})")
        return [self.draw() for _ in range(n)]

    def reshuffle(self) -> None:
        """Return the discards to the deck and shuffle it; retained cards stay out."""
        self._cards.extend(self._discards)
        self._discards.clear()
        self._rng.shuffle(self._cards)

    def retain(self, card: Card) -> None:
        """Move a discarded card into a player's hand so reshuffles leave it out."""
        if card not in self._discards:
            raise ValueError(f"{card} is not among the discards, so it cannot be retained")
        self._discards.remove(card)
        self._retained.append(card)

    def release(self, card: Card) -> None:
        """Return a retained card to the discards."""
        if card not in self._retained:
            raise ValueError(f"{card} is not retained, so it cannot be released")
        self._retained.remove(card)
        self._discards.append(card)

    def to_dict(self) -> dict[str, object]:
        """A JSON-compatible dict of the whole deck state, remaining order included."""
        return {
            "jokers": self.jokers,
            "auto_reshuffle": self.auto_reshuffle,
            "remaining": [card.code for card in self._cards],
            "discards": [card.code for card in self._discards],
            "retained": [card.code for card in self._retained],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object], rng: random.Random) -> Deck:
        """Restore a deck from ``to_dict`` output, shuffling later with ``rng``."""
        if not isinstance(rng, random.Random):
            raise TypeError("Deck needs a random.Random instance")
        jokers, auto = data.get("jokers"), data.get("auto_reshuffle")
        if not isinstance(jokers, bool) or not isinstance(auto, bool):
            raise ValueError("deck record: 'jokers' and 'auto_reshuffle' must be true or false")
        piles = [_cards(data.get(key), key) for key in ("remaining", "discards", "retained")]
        every = [card for pile in piles for card in pile]
        if sorted(every, key=_order) != sorted(full_deck(jokers), key=_order):
            raise ValueError("deck record: the cards are not exactly one full deck")
        deck = cls.__new__(cls)
        deck._rng, deck.jokers, deck.auto_reshuffle = rng, jokers, auto
        deck._cards, deck._discards, deck._retained = piles
        return deck


def _cards(codes: object, key: str) -> list[Card]:
    if not isinstance(codes, list) or not all(isinstance(code, str) for code in codes):
        raise ValueError(f"deck record: {key!r} must be a list of card codes")
    return [Card.from_code(code) for code in codes]


def _order(card: Card) -> tuple[int, int, int]:
    suit = SUITS.index(card.suit) if card.suit is not None else len(SUITS)
    return suit, card.value, card.joker_number
