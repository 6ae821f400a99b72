"""Who sees what: a battle's state, events and record as one viewer may see them.

A ``Viewer`` is a side, the game master or the public. ``view`` takes out of a state what the
viewer may not see: other sides' hidden state; other owners' hands and retained cards (kept as
as many ``CONCEALED`` codes, so their count shows); the draw pile's cards (with the discards and
one's own hand they would give the others' hands away; its size shows); the orders of a step
stopped at a question, except the viewer's own, and the sealed parameters of others' orders
(a battle plan) in a record; and the words and options of a private question
asked of someone else. ``visible_events`` turns each ``Private`` event into its public form for
everyone outside its audience. ``view_record`` does the same for a battle record read
mid-battle; a record whose seed is revealed is shown whole.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules_core.cards import CONCEALED, DeckState
from rules_core.decisions import GM, Decision, Option, Pending
from rules_core.events import Event, Private
from rules_core.standing import STANDING_REASON, by_standing
from rules_core.state import BattleState


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a side (``side``), the game master (``gm``) or the public (neither)."""

    side: str | None = None
    gm: bool = False

    @classmethod
    def of_side(cls, side_id: str) -> Viewer:
        """A player of one side."""
        return cls(side=side_id)

    @classmethod
    def game_master(cls) -> Viewer:
        """The game master, who sees everything."""
        return cls(gm=True)

    @classmethod
    def public(cls) -> Viewer:
        """Anyone watching: sees only what is public."""
        return cls()

    def may_see(self, audience: str | None) -> bool:
        """Whether this viewer is in an audience (a side id or ``GM``; the GM sees all)."""
        if self.gm:
            return True
        return audience is not None and audience != GM and audience == self.side


def public_question(decision: Decision) -> str:
    """The words everyone else sees for a private question."""
    return f"A private question for {decision.who}"


def view(state: BattleState, viewer: Viewer) -> BattleState:
    """The state with everything the viewer may not see removed."""
    if viewer.gm:
        return state
    hidden = {holder: dict(kept) for holder, kept in state.hidden.items() if viewer.may_see(holder)}
    decks = tuple(_deck_view(state, deck, viewer) for deck in state.decks)
    pending = None if state.pending is None else _pending_view(state, state.pending, viewer)
    return replace(state, hidden=hidden, decks=decks, pending=pending)


def _deck_view(state: BattleState, deck: DeckState, viewer: Viewer) -> DeckState:
    """A deck with the pile and the hands and retained piles of others concealed."""

    def seen(piles: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        return {
            owner: tuple(codes) if viewer.may_see(state.side_of(owner)) else _conceal(codes)
            for owner, codes in piles.items()
        }

    return replace(
        deck, pile=_conceal(deck.pile), hands=seen(deck.hands), retained=seen(deck.retained)
    )


def _conceal(codes: Iterable[str]) -> tuple[str, ...]:
    return tuple(CONCEALED for _ in codes)


def _pending_view(state: BattleState, pending: Pending, viewer: Viewer) -> Pending:
    """A stopped step with only the viewer's own orders and answers, private questions masked."""
    orders = tuple(o for o in pending.orders if viewer.may_see(state.side_of(o.actor)))
    answers = tuple(a for a in pending.answers if viewer.may_see(a.by))
    others = tuple(_decision_view(d, viewer) for d in pending.others)
    return replace(
        pending,
        decision=_decision_view(pending.decision, viewer),
        orders=orders,
        answers=answers,
        others=others,
    )


def _decision_view(decision: Decision, viewer: Viewer) -> Decision:
    """A question as the viewer sees it: a private one for someone else is masked."""
    if not decision.private or viewer.may_see(decision.who):
        return decision
    return masked_decision(decision)


def masked_decision(decision: Decision) -> Decision:
    """The public form of a private question: its id and who answers it, nothing more."""
    masked = Option(CONCEALED, CONCEALED)
    return Decision(
        decision.id, public_question(decision), (masked,), CONCEALED, decision.who, private=True
    )


def visible_events(events: Iterable[Event], viewer: Viewer) -> tuple[Event, ...]:
    """The events as the viewer sees them: a private event outside its audience becomes its
    public form, or is left out when it has none."""
    shown: list[Event] = []
    for event in events:
        seen = _visible(event, viewer)
        if seen is not None:
            shown.append(seen)
    return tuple(shown)


def _visible(event: Event | None, viewer: Viewer) -> Event | None:
    while isinstance(event, Private):
        event = event.event if viewer.may_see(event.audience) else event.public
    return event


def view_record(
    record: Mapping[str, Any],
    viewer: Viewer,
    *,
    open_step: bool,
    sealed: Mapping[str, Collection[str]] = {},
) -> dict[str, Any]:
    """A battle record (as JSON data) as the viewer may read it before the end.

    The first state and every state an edit left go through ``view``; draws and answers
    private to others lose their card and choice; other sides' orders keep their ``sealed``
    parameters ({order kind: names}, ``Rules.sealed_params``) concealed; when ``open_step``
    (the battle is stopped at a question) the entries of that step keep only the viewer's own
    orders. A record with its seed revealed, or read by the GM, comes back whole.
    """
    shown = copy.deepcopy(dict(record))
    if viewer.gm or shown.get("seed") is not None:
        return shown
    states = [BattleState.from_dict(shown["initial_state"])]
    shown["initial_state"] = view(states[0], viewer).to_dict()
    entries = [dict(entry) for entry in shown.get("entries", ())]
    for entry in entries:
        if entry.get("action") == "edit" and entry.get("state") is not None:
            states.append(BattleState.from_dict(entry["state"]))
            entry["state"] = view(states[-1], viewer).to_dict()
    sides = _sides(states)
    for entry in entries:
        entry["draws"] = [_draw_view(draw, viewer, sides) for draw in entry.get("draws", ())]
        if "orders" in entry:
            entry["orders"] = [_order_view(o, viewer, sides, sealed) for o in entry["orders"]]
        given = entry.get("answer")
        audience = entry.get("audience")
        if given is not None and audience and not viewer.may_see(audience):
            reason = str(given.get("reason", ""))  # a standing instruction's names the choice
            hidden = STANDING_REASON if by_standing(reason) else reason
            entry["answer"] = {**given, "choice": CONCEALED, "reason": hidden}
    if open_step:
        for entry in _open_step(entries):
            entry["orders"] = [
                order
                for order in entry.get("orders", ())
                if viewer.may_see(sides.get(str(order.get("actor"))))
            ]
    shown["entries"] = entries
    return shown


def _sides(states: Iterable[BattleState]) -> dict[str, str]:
    """The side of every actor and card owner found in any of the states."""
    found: dict[str, str] = {GM: GM}
    for state in states:
        found.update({side.id: side.id for side in state.sides})
        for items in (state.units, state.leaders, state.groups):
            found.update({item.id: item.side for item in items})
    return found


def _draw_view(draw: Any, viewer: Viewer, sides: Mapping[str, str]) -> Any:
    """A recorded draw, with its card hidden from anyone but its owner's side."""
    owner = draw.get("owner") if isinstance(draw, Mapping) else None
    if owner is None or viewer.may_see(sides.get(str(owner))):
        return draw
    return {**draw, "card": ""}


def _order_view(
    order: Any, viewer: Viewer, sides: Mapping[str, str], sealed: Mapping[str, Collection[str]]
) -> Any:
    """A recorded order, with its sealed parameters concealed from other sides."""
    names = sealed.get(str(order.get("kind"))) if isinstance(order, Mapping) else None
    if not names or viewer.may_see(sides.get(str(order.get("actor")))):
        return order
    params = order.get("params") or {}
    return {**order, "params": {k: CONCEALED if k in names else v for k, v in params.items()}}


def _open_step(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The entries of the step still open: the last "resolve" and the answers after it."""
    starts = [i for i, entry in enumerate(entries) if entry.get("action") == "resolve"]
    if not starts:
        return []
    return [
        entry for entry in entries[starts[-1] :] if entry.get("action") in ("resolve", "answer")
    ]
