"""Open questions as one reader may see them: a private question's words and options are its
side's (and the GMs'); everyone else learns only that it waits."""

from __future__ import annotations

from dataclasses import replace

from bot.errors import PermissionDenied
from bot.services.battle_state import Loaded
from bot.services.stages import DecisionView, decision_views
from rules_core.decisions import Decision

MASKED = "A private question for {}"  # what everyone else reads of a private question


def seen_questions(loaded: Loaded, user_id: int | None) -> list[Decision]:
    """The open questions whose words and options this user may see: every one that is not
    private, and a private one by its own side's players and the GMs (the bot sees all)."""
    pending = loaded.state.pending
    if pending is None:
        return []
    if user_id is None or loaded.is_gm(user_id):
        return list(pending.open)
    mine = set(loaded.side_of(user_id))
    return [d for d in pending.open if not d.private or d.who in mine]


def side_names(loaded: Loaded) -> dict[str, str]:
    """Each battle side's name by id."""
    return {s.side_id: s.name for s in loaded.battle.sides}


def questions_seen_by(loaded: Loaded, user_id: int | None) -> list[tuple[DecisionView, bool]]:
    """Every open question as the user may see it, and whether it is theirs to answer (their
    side's, or any for a GM). Another side's private question keeps only its public words and
    no options; refused when every open question is private to someone else."""
    gm = user_id is None or loaded.is_gm(user_id)
    mine = set() if user_id is None else set(loaded.side_of(user_id))
    seen = {d.id for d in seen_questions(loaded, user_id)}
    names = side_names(loaded)
    shown = []
    for view in decision_views(loaded):
        if view.decision_id not in seen:
            words = MASKED.format(names.get(view.side, view.side))
            shown.append((replace(view, question=words, options=()), False))
        else:
            shown.append((view, gm or view.side in mine))
    if shown and not any(ours for _, ours in shown) and all(v.private for v, _ in shown):
        sides = ", ".join(dict.fromkeys(f"**{names.get(v.side, v.side)}**" for v, _ in shown))
        raise PermissionDenied(
            f"The question waiting is private to {sides}: only its player (or a GM) "
            "sees and answers it."
        )
    return shown
