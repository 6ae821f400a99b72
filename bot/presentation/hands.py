"""``/battle hand``: a reader's cards, privately; cards are written as ``7♠`` (code ``7S``)."""

from __future__ import annotations

from bot.services.hands import DeckView, HandView, Holding
from rules_core.cards import Card


def card_words(codes: tuple[str, ...]) -> str:
    """Cards as players read them, with their codes for ``/order``: ``7♠ (7S), Q♥ (QH)``."""
    return ", ".join(f"{Card.from_code(code)} (`{code}`)" for code in codes) or "none"


def holding_line(holding: Holding) -> str:
    """One owner's cards, or (someone else's) how many they hold."""
    if not holding.seen:
        kept = f", {holding.retained_size} kept back" if holding.retained_size else ""
        return f"**{holding.owner}** holds {holding.hand_size} cards{kept}."
    kept = f"; kept back: {card_words(holding.retained)}" if holding.retained else ""
    return f"**{holding.owner}**: {card_words(holding.hand)}{kept}."


def deck_text(deck: DeckView) -> str:
    """One deck: the reader's cards first, the others' sizes, then the table."""
    lines = [f"__Deck `{deck.deck}`__"]
    lines += [holding_line(h) for h in deck.holdings]
    lines.append(f"Face up: {card_words(deck.face_up)}.")
    lines.append(f"Discarded: {card_words(deck.discards)}.")
    lines.append(f"{deck.pile_size} cards left to draw.")
    return "\n".join(lines)


def hand_text(view: HandView) -> str:
    """The whole private reply of ``/battle hand``."""
    if not view.decks:
        return f"**{view.battle_name}** is played without cards."
    who = "every hand (GM)" if view.gm else "your cards" if view.has_side else "the table"
    head = f"🂠 **{view.battle_name}**: {who}."
    if not view.gm and not view.has_side:
        head += " You have no side here, so no hand of your own."
    return "\n\n".join([head, *(deck_text(d) for d in view.decks)])[:2000]
