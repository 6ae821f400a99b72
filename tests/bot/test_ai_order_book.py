"""/orders all names the AI general's orders with their reasons (#36): a GM's sealed view of
the open step at once, everyone's once it has resolved."""

from __future__ import annotations

from bot.presentation.orders import order_book_text
from bot.services.ai_seat import AI_GENERAL
from bot.services.order_book import BookedOrder, OrderBook

AI_ORDER = BookedOrder(
    "Gaul", AI_GENERAL, "Arverni Warband", "charge", "charges First Cohort", "",
    "charged: 64 % to win, flank secure",
)  # fmt: skip
PLAYER_ORDER = BookedOrder("Rome", 1325796006297600008, "First Cohort", "hold", "holds")


def test_a_gm_reads_the_ai_s_reason_in_the_sealed_book() -> None:
    text = order_book_text(OrderBook("Turn 1 · Orders", True, (AI_ORDER, PLAYER_ORDER)))
    assert (
        "Gaul · **Arverni Warband** (charge): charges First Cohort "
        "(AI: charged: 64 % to win, flank secure) — the AI general"
    ) in text
    assert "First Cohort** (hold): holds — <@1325796006297600008>" in text


def test_everyone_reads_it_once_the_step_has_resolved() -> None:
    text = order_book_text(OrderBook("Turn 1 · Orders", False, (AI_ORDER,)))
    assert "(AI: charged: 64 % to win, flank secure) — the AI general" in text
