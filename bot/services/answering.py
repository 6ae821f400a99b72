"""Answering a pending question: which open question an answer is for, who answers it (its
side's player, or a GM), and the typed answer checked against it."""

from __future__ import annotations

from bot.errors import Conflict, InvalidInput, PermissionDenied
from bot.services.battle_state import Loaded, users_for
from rules_core.decisions import GM, Decision, Pending


def question_for(
    loaded: Loaded, pending: Pending, user_id: int, decision_id: str | None, typed: str
) -> Decision:
    """The open question an answer is for: the one named, or the only one the user may answer
    (preferring one the typed answer fits); several left to choose among are refused."""
    if decision_id is not None:
        found = pending.asked(decision_id)
        if found is None:
            raise Conflict("That question has already been answered.")
        return found
    mine = [d for d in pending.open if _answers_for(loaded, user_id, d.who)] or (
        list(pending.open) if loaded.is_gm(user_id) else []
    )
    if not mine:
        loaded.require_not_handed_away(user_id)
        raise PermissionDenied("This question is not yours to answer.")
    fitting = [d for d in mine if _fits(d, typed)]
    if len(mine) > 1 and len(fitting) != 1:
        shown = ", ".join(f"`{d.id}`" for d in mine)
        raise InvalidInput(f"Several questions are open; name the one you answer: {shown}.")
    return fitting[0] if fitting else mine[0]


def _fits(decision: Decision, typed: str) -> bool:
    """Whether a typed answer answers a question."""
    try:
        typed_answer(decision, typed)
    except InvalidInput:
        return False
    return True


def others_open(before: Pending, after: Pending | None) -> bool:
    """Whether an answer left others of the same questions still open (the step waits on)."""
    if after is None:
        return False
    earlier = {d.id for d in before.open}
    return all(d.id in earlier for d in after.open) and len(after.open) < len(before.open)


def _answers_for(loaded: Loaded, user_id: int, side: str) -> bool:
    """Whether a player answers a side's questions: any of its players, or, on a side whose
    groups are assigned, those the step waits on (the question is addressed to them alone)."""
    if side not in loaded.side_of(user_id):
        return False
    row = loaded.side_row(side)
    return row is None or not row.commanders or user_id in users_for(loaded, [side])


def answerer(loaded: Loaded, user_id: int, who: str) -> str:
    """Who answers: the side asked (its player this step), or the GM (for any side); anyone
    else is refused."""
    if _answers_for(loaded, user_id, who):
        return who
    if loaded.is_gm(user_id):
        return GM
    loaded.require_not_handed_away(user_id)
    raise PermissionDenied("This question is not yours to answer.")


def typed_answer(decision: Decision, typed: str) -> str:
    """The answer a player typed, checked: an option by its id or label, or a typed value."""
    text = typed.strip()
    if decision.chosen:
        key = text.casefold()
        found = [o.id for o in decision.options if key in (o.id.casefold(), o.label.casefold())]
        if len(found) == 1:
            return found[0]
    problem = decision.problem(text)
    if problem is not None:
        raise InvalidInput(f"{_answer_hint(decision, text)}")
    return text


def _answer_hint(decision: Decision, text: str) -> str:
    """Why a typed answer does not fit, and what would."""
    if decision.chosen:
        return f"`{text}` is not one of the answers; `/answer` offers them as you type."
    if decision.answer == "point":
        return f"`{text}` is not a point: answer `x,y`."
    low, high = (0, 360) if decision.answer == "facing" else (decision.low, decision.high)
    span = "" if low is None or high is None else f" from {low:g} to {high:g}"
    return f"`{text}` is not an answer: give a number{span}."
