"""``/battle hand``: the cards one reader may see in the channel's battle.

A player sees the hands and retained piles of their side and of its leaders and units; of every
other owner only how many cards they hold. The cards face up and the discards are everyone's.
The GM sees every hand. Reading goes through the place, so an outsider of a closed campaign is
refused like any other reading command.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.services.base import Service
from bot.services.battle_state import load_battle
from bot.services.campaigns import Place
from rules_core.cards import DeckState
from rules_core.secrets import Viewer
from rules_core.state import BattleState


@dataclass(frozen=True)
class Holding:
    """One owner's cards in one deck: the codes when the reader may see them, else counts."""

    owner: str  # the owner's name as the table shows it
    hand: tuple[str, ...] = ()
    retained: tuple[str, ...] = ()
    hand_size: int = 0
    retained_size: int = 0
    seen: bool = True  # False: only the sizes are the reader's


@dataclass(frozen=True)
class DeckView:
    """One deck as a reader sees it."""

    deck: str
    face_up: tuple[str, ...]
    discards: tuple[str, ...]
    pile_size: int
    holdings: tuple[Holding, ...]  # the reader's own first


@dataclass(frozen=True)
class HandView:
    """Every deck of the battle as one reader sees it."""

    battle_name: str
    gm: bool
    has_side: bool
    decks: tuple[DeckView, ...]


class HandService(Service):
    """The cards of the channel's battle, as the reader may see them."""

    async def hand(self, place: Place) -> HandView:
        """The reader's cards (their side's and its leaders' and units'), the cards face up
        and discarded, and the others' hand sizes only; the GM sees all."""
        assert place.user_id is not None, "a hand is read by someone"
        async with self.db.read() as session:
            loaded = await load_battle(session, place)
            seat = loaded.seat(place.user_id)
            viewer = seat.viewer()
            decks = tuple(deck_view(loaded.state, deck, viewer) for deck in loaded.state.decks)
            return HandView(loaded.battle.name, seat.is_gm, bool(seat.sides), decks)


def deck_view(state: BattleState, deck: DeckState, viewer: Viewer) -> DeckView:
    """One deck as the viewer may see it: own holdings whole, the others' as sizes."""
    names = _names(state)
    owners = list(dict.fromkeys((*deck.hands, *deck.retained)))
    holdings = []
    for owner in owners:
        hand, kept = deck.hand(owner), deck.kept(owner)
        seen = viewer.may_see(state.side_of(owner))
        shown = (hand, kept) if seen else ((), ())
        holdings.append(Holding(names.get(owner, owner), *shown, len(hand), len(kept), seen))
    holdings.sort(key=lambda h: not h.seen)
    return DeckView(deck.id, deck.face_up, deck.discards, len(deck.pile), tuple(holdings))


def _names(state: BattleState) -> dict[str, str]:
    """The name of every side, group, leader and unit by id."""
    names = {side.id: side.name for side in state.sides}
    for items in (state.groups, state.leaders, state.units):
        names.update({item.id: item.name for item in items})
    return names
