"""How orders read to the player who gives them."""

from __future__ import annotations

from bot.presentation.formatting import mentions, plain
from bot.services.ai_record import AnsweredByAi
from bot.services.ai_seat import AI_NAME, is_ai
from bot.services.intake import OrderView
from bot.services.order_book import BookedOrder, OrderBook
from bot.services.play import Confirmed
from bot.services.turn_defaults import TurnDefaults

RESOLVING = "Confirmed: every order is in, resolving."
RESOLVING_TURN = (
    "Done for the turn: every order is in, resolving; your remaining steps this turn resolve "
    "as soon as they come."
)


def preview_text(view: OrderView) -> str:
    """The private answer to an order: what it will do (planned for a later step: as the
    battle stands now; it is checked again when its step comes)."""
    notes = "".join(f"\n• {note}" for note in view.notes)
    if view.step:
        fallback = "you will be asked" if view.consult else "the default is used"
        return (
            f"🗓️ Planned for **{plain(view.step)}** — **{view.unit_name}**: {view.summary}{notes}\n"
            f"(as the battle stands now; checked again when its step comes — if it cannot be "
            f"carried out then, {fallback}. Secret until the step resolves.)"
        )
    return f"✅ **{view.unit_name}**: {view.summary}{notes}\n(secret until the step resolves)"


def planned_text(view: OrderView) -> str:
    """A planned order after ``/plan change``: as ``/order alternative``
    shows it when it has alternatives, else as ``/order`` does."""
    return alternative_text(view) if view.alternatives else preview_text(view)


def withdrawn_text(view: OrderView) -> str:
    """The private answer to withdrawing an order."""
    if view.step:
        step = plain(view.step)
        return f"Withdrawn: **{view.unit_name}**'s {view.kind} order planned for {step}."
    if view.remaining:
        return f"Withdrawn: **{view.unit_name}**'s {view.kind} order; {view.remaining} left."
    return f"Withdrawn: **{view.unit_name}** will follow its default."


def alternative_text(view: OrderView) -> str:
    """The private answer to ``/order alternative``: the planned order and what it tries in
    turn if it cannot be carried out, each alternative's verdict as the battle stands now."""
    tried = "".join(f"\n{n}. {said}" for n, said in enumerate(view.alternatives, start=1))
    last = "you will be asked" if view.consult else "the default is used"
    return (
        f"🗓️ Planned for **{plain(view.step)}** — **{view.unit_name}**: {view.summary}\n"
        f"If it cannot be carried out then, tried in turn:{tried}\n"
        f"(as the battle stands now; each is judged again when the step comes, and if none "
        f"can be carried out, {last}. Secret until the step resolves.)"
    )


NEXT_TURN_DONE = (
    "Your plan for the next turn stands too: when it opens, the steps you planned resolve "
    "without waiting for you (defaults for what you did not order). Until each step resolves "
    "you may still change it (`/order give`, `/order withdraw` with its `step`); `/orders "
    "mine` lists your plan."
)


def next_turn_text(text: str) -> str:
    """The answer to ``/order done next_turn:true``: the usual answer, then what happens when
    the next turn opens."""
    return f"{text}\n{NEXT_TURN_DONE}"


def waiting_text(confirmed: Confirmed) -> str:
    """The private answer to ``/order done`` while others have still to confirm (or when a
    deadline or a GM resolved the step first)."""
    if confirmed.turn and not confirmed.acting:
        return (
            "Done for the turn: each of your remaining steps this turn resolves as soon as it "
            "comes, with what you planned (defaults for the rest)."
        )
    if not confirmed.side_names:
        if confirmed.turn:
            return (
                "Done for the turn. The step has just been resolved, and so will be your "
                "remaining steps this turn; the result is in the channel."
            )
        return "Confirmed. The step has just been resolved; its result is in the channel."
    return (
        f"Confirmed. Still waiting for {', '.join(confirmed.side_names)} "
        f"({mentions(confirmed.waiting_for)})."
    )


def orders_text(views: list[OrderView]) -> str:
    """A player's orders for the step, one a line."""
    lines = []
    for v in views:
        where = f"{plain(v.step)} · " if v.step else ""
        ask = " (ask me if it cannot be done)" if v.consult else ""
        lines.append(f"{where}**{v.unit_name}** ({v.kind}): {v.summary}{ask}")
        lines += [f"  else {n}: {said}" for n, said in enumerate(v.alternatives, start=1)]
    text = "\n".join(lines)
    return text[:2000] or "You have given no orders for this step."


NO_STEP_RESOLVED = (
    "No step has resolved yet. Orders stay sealed until their step resolves; then "
    "`/orders all` shows every side's."
)


def _booked_line(order: BookedOrder) -> str:
    where = f"{plain(order.step)} · " if order.step else ""
    by = f"<@{order.user_id}>" if not is_ai(order.user_id) else AI_NAME
    why = f" (AI: {plain(order.reason)})" if order.reason else ""
    return (
        f"{where}{order.side_name} · **{order.actor_name}** ({order.kind}): {order.summary}"
        f"{why} — {by}"
    )


def _ai_answer_line(said: AnsweredByAi) -> str:
    return f"{said.side_name} · {plain(said.said)} (AI: {plain(said.reason)})"


def order_book_text(book: OrderBook) -> str:
    """Every side's orders: the open step's (sealed, for a GM) or the last resolved step's."""
    if not book.sealed and not book.step:
        return NO_STEP_RESOLVED
    if book.sealed:
        head = f"Orders given so far for **{plain(book.step)}** (sealed: only GMs see them):"
        none = "none yet (units without orders follow the default)"
    else:
        head = f"Orders of the last step resolved, **{plain(book.step)}**:"
        none = "none given (every unit followed the default)"
    if book.stopped:
        head = (
            f"Orders of **{plain(book.step)}**, which waits for an answer: only your side's "
            "(the others' show once it resolves):"
        )
        none = "none of your side's"
    lines = [head, *(_booked_line(o) for o in book.orders)] if book.orders else [head, none]
    if book.planned:
        lines += ["", "Planned for later steps of the turn:", *map(_booked_line, book.planned)]
    if book.ai_answers:
        lines += [
            "",
            "Answers by the AI general in this step:",
            *map(_ai_answer_line, book.ai_answers),
        ]
    text = "\n".join(lines)
    if len(text) > 2000:
        text = text[:1990].rsplit("\n", 1)[0] + "\n…"
    return text


NAMES_SHOWN = 6  # units named for one default; the rest are counted


def _defaults_words(defaults: tuple[tuple[str, str], ...]) -> str:
    """``First Cohort, Second Cohort holds``: the step's default orders, alike ones together."""
    grouped: dict[str, list[str]] = {}
    for name, words in defaults:
        grouped.setdefault(words, []).append(plain(name))
    parts = []
    for words, names in grouped.items():
        more = len(names) - NAMES_SHOWN
        shown = ", ".join(names[:NAMES_SHOWN]) + (f" and {more} more" if more > 0 else "")
        parts.append(f"{shown}: {words}")
    return "; ".join(parts) or "no orders: your units do nothing"


def turn_defaults_question(defaults: TurnDefaults) -> str:
    """The confirmation ``/order done turn:true`` asks when nothing is planned: what each of
    the player's remaining steps does by default."""
    sides = " and ".join(f"**{plain(name)}**" for name in defaults.side_names)
    body = "\n".join(
        f"• {plain(step.step)} — {_defaults_words(step.defaults)}" for step in defaults.steps
    )
    text = (
        f"You have planned nothing for the rest of this turn. Done for the turn, {sides} "
        f"follows the rules' defaults:\n{body}\n"
        "**Confirm** to pass the turn so; **Cancel**, then give orders (`step` to plan a later "
        "one), to do otherwise."
    )
    return text if len(text) <= 2000 else text[:1990] + "…"
