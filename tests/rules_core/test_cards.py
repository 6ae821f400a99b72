"""Cards: the Card codes, and a deck kept in the battle state worked through ``ctx.cards``."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules_core.cards import Card, DeckState, Draw, EmptyDeckError, full_deck, sort_codes
from rules_core.context import Context
from rules_core.decisions import GM
from rules_core.events import CardDrawn, CardMoved, Event, Private
from rules_core.plugin import Rules
from rules_core.secrets import Viewer, view, visible_events
from rules_core.seeding import stream
from rules_core.state import BattleState, Leader, Side

SEED = bytes.fromhex("ca4d" * 16)


def test_card_strings_and_values() -> None:
    assert str(Card("Q", "spades")) == "Q♠"
    assert str(Card("10", "hearts")) == "10♥"
    assert str(Card("Joker", None, 1)) == "Joker"
    assert Card("A", "clubs").value == 14 and Card("2", "diamonds").value == 2
    assert Card("Joker", None, 2).is_joker
    for card in full_deck():
        assert Card.from_code(card.code) == card
    with pytest.raises(ValueError):
        Card("1", "spades")
    with pytest.raises(ValueError):
        Card("Q", None)
    with pytest.raises(ValueError):
        Card("Joker", "spades", 1)
    with pytest.raises(ValueError):
        Card.from_code("ZZ")


def test_a_full_deck_has_54_distinct_cards_and_52_without_jokers() -> None:
    assert len({card.code for card in full_deck()}) == 54
    assert sum(card.is_joker for card in full_deck()) == 2
    assert len(full_deck(jokers=False)) == 52
    codes = [card.code for card in full_deck()]
    assert sort_codes(list(reversed(codes))) == tuple(codes)


@pytest.fixture
def ctx(parley: Rules) -> Iterator[Context]:
    """A context on an empty parley table (red, blue, and a red general), no deck yet."""
    state = parley.new_battle(
        "cards-1", "parley", 48, 36, (Side("red", "Red"), Side("blue", "Blue"))
    )
    general = Leader("red_general", "General Red", "red", None, 1.0, 1.0)
    state = BattleState.from_dict({**state.to_dict(), "leaders": [general.to_dict()]})
    yield Context(parley, state, (), (), stream(SEED, "cards-1:1:play:0"))


def drawn(events: list[Event]) -> list[Draw]:
    found = []
    for event in events:
        inner = event.event if isinstance(event, Private) else event
        if isinstance(inner, CardDrawn):
            found.append(inner.draw)
    return found


def test_a_new_deck_is_a_sorted_pile(ctx: Context) -> None:
    cards = ctx.cards("d")
    cards.create(jokers=False)
    deck = ctx.state.deck("d")
    assert deck == DeckState("d", tuple(card.code for card in full_deck(jokers=False)))
    assert cards.remaining == 52
    with pytest.raises(ValueError, match="exists already"):
        cards.create()


def test_dealing_draws_privately_from_the_steps_stream(
    ctx: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    def forbidden(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the module-level random functions must not be used")

    for name in ("random", "randint", "choice", "randrange", "shuffle", "sample"):
        monkeypatch.setattr(random, name, forbidden)
    cards = ctx.cards("d")
    cards.create()
    hand = cards.deal("red", 4)
    assert cards.hand("red") == hand and len(set(hand)) == 4 and cards.remaining == 50
    assert not set(hand) & set(ctx.state.deck("d").pile)
    expected = list(sort_codes([card.code for card in full_deck()]))
    rng = stream(SEED, "cards-1:1:play:0")
    picked = []
    for _ in range(4):
        picked.append(expected.pop(rng.randrange(len(expected))))
    assert tuple(picked) == hand, "each draw picks from the sorted pile at draw time"
    events = ctx.events
    assert all(isinstance(e, Private) and e.audience == "red" for e in events)
    assert drawn(events) == [Draw("d", "red", code) for code in hand]
    assert visible_events(events, Viewer.of_side("blue")) == tuple(
        CardDrawn(Draw("d", "red", "")) for _ in hand
    )


def test_play_discard_retain_and_shuffle(ctx: Context) -> None:
    cards = ctx.cards("d")
    cards.create(jokers=False)
    first, second, third = cards.deal("blue", 3)
    ctx.events.clear()
    cards.play("blue", first)
    cards.discard("blue", second)
    cards.retain("blue", third)
    deck = ctx.state.deck("d")
    assert (deck.face_up, deck.discards, deck.kept("blue"), deck.hand("blue")) == (
        (first,), (second,), (third,), ()
    )  # fmt: skip
    assert ctx.events[:2] == [
        CardMoved("d", "blue", "play", first),
        CardMoved("d", "blue", "discard", second),
    ]
    assert ctx.events[2] == Private(
        "blue", CardMoved("d", "blue", "retain", third), CardMoved("d", "blue", "retain")
    )
    cards.discard(None, first)
    cards.shuffle()
    deck = ctx.state.deck("d")
    assert deck.discards == () and deck.face_up == () and len(deck.pile) == 51
    assert deck.pile == sort_codes(deck.pile)
    assert sorted(deck.every_card()) == sorted(card.code for card in full_deck(jokers=False))
    with pytest.raises(ValueError, match="holds no"):
        cards.play("blue", third)
    with pytest.raises(ValueError, match="not face up"):
        cards.discard(None, third)


def test_a_face_up_draw_is_public_and_an_empty_pile_refuses(ctx: Context) -> None:
    ctx.state = ctx.state.with_deck(DeckState("d", ("2S", "3S")))
    cards = ctx.cards("d")
    card = cards.draw()
    assert ctx.events == [CardDrawn(Draw("d", None, card))]
    cards.draw("red")
    with pytest.raises(EmptyDeckError, match="empty"):
        cards.draw("red")
    with pytest.raises(KeyError, match="no side"):
        cards.draw("nobody")


def test_a_leader_holds_cards_seen_by_its_side(ctx: Context) -> None:
    cards = ctx.cards("d")
    cards.create()
    held = cards.deal("red_general", 2)
    assert {e.audience for e in ctx.events if isinstance(e, Private)} == {"red"}
    red = view(ctx.state, Viewer.of_side("red")).deck("d")
    blue = view(ctx.state, Viewer.of_side("blue")).deck("d")
    assert red.hand("red_general") == held
    assert blue.hand("red_general") == ("?", "?")
    assert view(ctx.state, Viewer.game_master()).deck("d").hand("red_general") == held
    assert ctx.state.side_of("red_general") == "red" and ctx.state.side_of(GM) == GM


def test_a_deck_round_trips_in_the_state(ctx: Context) -> None:
    cards = ctx.cards("d")
    cards.create()
    cards.deal("red", 2)
    cards.retain("red", cards.hand("red")[0])
    data = json.loads(json.dumps(ctx.state.to_dict()))
    assert BattleState.from_dict(data) == ctx.state
    assert data["decks"][0]["retained"] == {"red": list(ctx.state.deck("d").kept("red"))}
