"""How a refused order reads: why, then what its player may do instead."""

from __future__ import annotations

from bot.errors import RefusedOrder, Way


def _either(names: tuple[str, ...], code: str = "") -> str:
    """``a``, ``a or b``, ``a, b or c`` (each as ``code:name`` in a code span if asked)."""
    shown = [f"`{code}:{name}`" if code else name for name in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" or {shown[-1]}"


def way_text(way: Way) -> str:
    """One way forward as a sentence."""
    if way.kind == "step":
        steps = _either(way.names, "step")
        return f"The same order is taken later this turn: give it again with {steps}."
    if way.kind == "later":
        steps = _either(way.names)
        return f"It is given in the {steps} step: give it then, or plan it ahead with `step:`."
    if way.kind == "distance":
        most = f'{round(way.distance, 1):g}"'
        return (
            f"Try a shorter move: it has at most {most} of movement; or give it again with"
            " `as_far_as_possible:true` to go as far as the rules allow."
        )
    if way.kind == "targets":
        return f"Targets it can reach now: {', '.join(way.names)}."
    if way.kind == "actors":
        return f"The same order may be given to {_either(way.names)}."
    if way.kind == "kinds":
        return f"Orders it can take now (`/order give kind:…`): {', '.join(way.names)}."
    return f"To make it possible: {way.words}."


def refused_text(error: RefusedOrder) -> str:
    """The private answer to a refused order: the rules' reason (and the note on planned
    orders if it was planned ahead), then each way forward."""
    ways = "".join(f"\n➡️ {way_text(way)}" for way in error.ways)
    return f"{error.message}{ways}"
