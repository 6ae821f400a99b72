"""An order's parameters from what a player typed: each parameter under its own name.

A slash command has typed slots (a target unit, a leader, a group, x and y, a path, a number,
two choices, a text); each parameter of the order kind takes the slot of its kind in the order
declared (the first choice ``option``, the second ``option2``). A parameter given by name in
``OrderInput.named`` wins over the slots. Names of units, leaders and groups resolve to ids;
a name two of them share is refused with the candidates listed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.errors import InvalidInput, NotFound
from bot.services.names import name_key
from bot.services.numbers import check_finite
from rules_core import far
from rules_core.orders import AS_FAR_AS_POSSIBLE, OrderKind, Param
from rules_core.state import BattleState, Group, Leader, Side, Unit

SLOT_OF = {
    "unit": "target",
    "leader": "leader",
    "group": "group",
    "path": "path",
    "number": "number",
    "text": "text",
}
NUMBER = r"-?\d+(?:\.\d+)?"
TAGGED = re.compile(r"^.*\(([^()]+)\)$")
FAR_REFUSED = (
    "`as_far_as_possible` is for a move to a point, along a path or by a distance, or a charge; "
    "a {title} order has nothing to go along: give it without `as_far_as_possible`."
)
POINT = re.compile(rf"^\(?\s*({NUMBER})\s*[, ]\s*({NUMBER})\s*\)?$")


@dataclass(frozen=True)
class OrderInput:
    """What a player typed for an order: the command's typed slots, and parameters by name."""

    target: str | None = None
    x: float | None = None
    y: float | None = None
    number: float | None = None
    option: str | None = None
    option2: str | None = None
    leader: str | None = None
    group: str | None = None
    path: str | None = None
    text: str | None = None
    named: Mapping[str, str] = field(default_factory=dict)
    as_far_as_possible: bool = False  # cut to what the rules allow (``rules_core.far``)


def params_for(kind: OrderKind, given: OrderInput, state: BattleState) -> dict[str, Any]:
    """The order kind's named parameters from the input; a required one missing is refused."""
    check_finite(x=given.x, y=given.y, number=given.number)
    _no_unknown_names(kind, given.named)
    params: dict[str, Any] = {}
    choices = 0
    if given.text is None and not any(p.kind == "choice" for p in kind.params):
        given = replace(given, text=given.option)  # a text typed in ``option``, as before
    for param in kind.params:
        if param.name in given.named:
            value = parse(param, given.named[param.name], state)
        else:
            value = _from_slot(param, given, state, choices)
        choices += param.kind == "choice"
        if value is not None:
            params[param.name] = value
        elif param.required:
            raise InvalidInput(f"A {kind.title.lower()} order needs {asking(param, choices)}.")
    if given.as_far_as_possible:
        if not far.applies(kind):
            raise InvalidInput(FAR_REFUSED.format(title=kind.title.lower()))
        params[AS_FAR_AS_POSSIBLE] = True
    return params


def _no_unknown_names(kind: OrderKind, named: Mapping[str, str]) -> None:
    """A parameter given by a name the order kind does not have is refused, naming those it
    has (the war table's page sends parameters by name; a slash command by typed slots)."""
    unknown = sorted(set(named) - {param.name for param in kind.params})
    if unknown:
        takes = ", ".join(f"`{param.name}`" for param in kind.params) or "no parameters"
        given = ", ".join(f"`{name}`" for name in unknown)
        raise InvalidInput(
            f"A {kind.title.lower()} order has no parameter {given}; it takes {takes}."
        )


def _from_slot(param: Param, given: OrderInput, state: BattleState, choices: int) -> Any:
    """A parameter's value from the command slot its kind takes."""
    if param.kind == "point":
        return None if given.x is None or given.y is None else [given.x, given.y]
    if param.kind == "choice":
        raw = given.option if choices == 0 else given.option2
    elif param.kind == "leader" and given.leader is None:
        raw = given.target  # older commands name a leader in ``target``
    else:
        raw = getattr(given, SLOT_OF[param.kind])
    if raw is None:
        return None
    return raw if isinstance(raw, float | int) else parse(param, str(raw), state)


def parse(param: Param, raw: str, state: BattleState) -> Any:
    """One typed value in the parameter's kind: an id, a point, a path, a number or text."""
    text = raw.strip()
    if param.kind in ("unit", "leader", "group"):
        return resolve(state.actors(param.kind), param.kind, text).id
    if param.kind == "point":
        return list(parse_point(text, param.name))
    if param.kind == "path":
        tidy = re.sub(r"\s*,\s*", ",", text.replace("(", " ").replace(")", " "))
        return [list(parse_point(part, param.name)) for part in tidy.split()]
    if param.kind == "number":
        try:
            number = float(text)
        except ValueError:
            raise InvalidInput(f"`{param.name}` must be a number, not `{text}`.") from None
        check_finite(**{param.name: number})
        return number
    if param.kind == "choice" and text not in param.choices:
        shown = ", ".join(param.choices)
        raise InvalidInput(f"`{text}` is not a {param.name}; choose one of {shown}.")
    return text


def parse_point(text: str, name: str) -> tuple[float, float]:
    """A point typed as ``x,y``."""
    found = POINT.match(text.strip())
    if found is None:
        raise InvalidInput(f"`{name}` takes points as `x,y` (a path: `x,y x,y …`), not `{text}`.")
    point = (float(found[1]), float(found[2]))
    check_finite(**{f"{name} x": point[0], f"{name} y": point[1]})
    return point


def resolve(
    actors: Sequence[Unit | Leader | Group | Side],
    what: str,
    ref: str,
    sides: Sequence[str] | None = None,
) -> Unit | Leader | Group | Side:
    """The one unit, leader, group or side an id or name means; a shared name is refused."""
    key = name_key(ref)
    tagged = TAGGED.match(key)  # "Red Pikes (b1)", as autocomplete offers a shared name
    mine = [a for a in actors if sides is None or side_of(a) in sides]
    if tagged and any(a.id.casefold() == tagged[1] for a in mine):
        key = tagged[1]
    by_id = [a for a in mine if a.id.casefold() == key]
    found = by_id or [a for a in mine if name_key(a.name) == key]
    if len(found) == 1:
        return found[0]
    if found:
        shown = ", ".join(f"`{a.id}` ({a.name}, {side_of(a)})" for a in found)
        raise InvalidInput(f"**{ref}** names several {what}s; give one by id: {shown}.")
    whose = "" if sides is None else " of yours"
    where = "on the table" if what == "unit" else "in this battle"
    raise NotFound(f"There is no {what}{whose} called **{ref}** {where}{one_of(mine)}.")


def one_of(actors: Sequence[Unit | Leader | Group | Side], most: int = 12) -> str:
    """``; one of: **A**, **B**`` naming what there is (or that names are offered as one
    types, when there are many), for a refusal of a name that is not there."""
    names = sorted({a.name for a in actors}, key=str.casefold)
    if not names:
        return ""
    if len(names) > most:
        return f"; one of {len(names)}, offered as you type"
    return "; one of: " + ", ".join(f"**{n}**" for n in names)


def side_of(actor: Unit | Leader | Group | Side) -> str:
    """The side a unit, leader or group belongs to, or the side itself."""
    return actor.id if isinstance(actor, Side) else actor.side


def asking(param: Param, choices: int) -> str:
    """How to give a missing parameter, in the command's terms."""
    slot = "option2" if param.kind == "choice" and choices > 1 else "option"
    return {
        "point": "a destination: give `x` and `y`",
        "unit": f"a `target` unit for {param.name}",
        "leader": f"a `leader` for {param.name}",
        "group": f"a `group` for {param.name}",
        "path": f"a `path` for {param.name} (`x,y x,y …`)",
        "number": f"a number for {param.name}",
        "text": f"a `text` for {param.name}",
    }.get(param.kind, f"an `{slot}` for {param.name}")
