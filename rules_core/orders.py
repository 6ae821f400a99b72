"""Orders: one model for every ruleset (who, what kind, parameters) and the verdict on one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules_core.codec import Json, Serialisable

PARAM_KINDS = ("unit", "leader", "group", "point", "path", "number", "choice", "text")
ACTOR_KINDS = ("unit", "leader", "group", "side")  # who gives an order of a kind
# A parameter any order may carry: go as far as the rules allow (``rules_core.far``).
AS_FAR_AS_POSSIBLE = "as_far_as_possible"


@dataclass(frozen=True)
class Order(Serialisable):
    """An instruction to one unit, leader, group or side: an action kind and its parameters."""

    actor: str
    kind: str
    params: Mapping[str, Json] = field(default_factory=dict)

    def number(self, name: str, default: float | None = None) -> float:
        """A number parameter (``default`` when it is missing); OrderParamError if not a number."""
        value = self.params.get(name)
        if value is None and default is not None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OrderParamError(self, name, "a number", value)
        return float(value)

    def text(self, name: str, default: str = "") -> str:
        """A text, id or choice parameter (``default`` when it is missing); OrderParamError if
        it is not text."""
        value = self.params.get(name)
        if value is None:
            return default
        if not isinstance(value, str):
            raise OrderParamError(self, name, "text", value)
        return value

    def point(self, name: str) -> tuple[float, float]:
        """A point parameter as ``(x, y)``; OrderParamError if missing or not a point."""
        value = self.params.get(name)
        if not isinstance(value, list | tuple) or not _is_point(value):
            raise OrderParamError(self, name, "a point [x, y]", value)
        x, y = value
        assert isinstance(x, int | float) and isinstance(y, int | float)
        return (float(x), float(y))


class OrderParamError(TypeError):
    """An order parameter read as the wrong type: the order was not checked against its kind."""

    def __init__(self, order: Order, name: str, wanted: str, value: Json) -> None:
        super().__init__(
            f"order {order.kind!r} of {order.actor!r}: {name} should be {wanted}, not {value!r}"
        )


@dataclass(frozen=True)
class Param(Serialisable):
    """One parameter an order kind takes: a unit, leader or group id, a point, a path of
    points, a number, a choice or free text. A ``sealed`` one (a written battle plan) stays
    with its side and the GM in a record read before the battle ends (``secrets``)."""

    name: str
    kind: str
    required: bool = True
    choices: tuple[str, ...] = ()
    sealed: bool = False

    def __post_init__(self) -> None:
        if self.kind not in PARAM_KINDS:
            raise ValueError(f"unknown parameter kind {self.kind!r}")

    def problem(self, value: Json) -> str | None:
        """Why ``value`` does not fit this parameter, or None if it does."""
        if self.kind in ("unit", "leader", "group", "text"):
            return None if isinstance(value, str) and value else f"{self.name} must be an id"
        if self.kind == "number":
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            return None if ok else f"{self.name} must be a number"
        if self.kind == "point":
            return None if _is_point(value) else f"{self.name} must be a point [x, y]"
        if self.kind == "path":
            ok = isinstance(value, list | tuple) and bool(value) and all(map(_is_point, value))
            return None if ok else f"{self.name} must be a path of points [[x, y], ...]"
        if value in self.choices:
            return None
        return f"{self.name} must be one of {', '.join(self.choices)}"


@dataclass(frozen=True)
class OrderKind(Serialisable):
    """An action a ruleset allows: its id, what it is called, who gives it and how often.

    ``actor`` is one of ``ACTOR_KINDS``. An order of a kind that ``combines`` joins the actor's
    other combining orders of the step, in the order given, up to ``limit`` of this kind; any
    other order replaces the actor's earlier orders of the step.
    """

    id: str
    title: str
    actor: str = "unit"
    params: tuple[Param, ...] = ()
    combines: bool = False
    limit: int = 1

    def __post_init__(self) -> None:
        if self.actor not in ACTOR_KINDS:
            raise ValueError(f"unknown actor kind {self.actor!r}")
        if self.limit < 1:
            raise ValueError(f"{self.id}: limit must be at least 1")

    def problems(self, order: Order) -> list[str]:
        """Missing, unknown or malformed parameters of an order of this kind."""
        known = {param.name for param in self.params}
        found = [f"unknown parameter {name!r}" for name in order.params if name not in known]
        for param in self.params:
            if param.name not in order.params:
                if param.required:
                    found.append(f"{param.name} is required")
                continue
            problem = param.problem(order.params[param.name])
            if problem:
                found.append(problem)
        return found


# A point to go to and, optionally, the facing there: the parameters of placing or sending a unit.
TO_AND_FACING = (Param("to", "point"), Param("facing", "number", False))
# The order kinds several rulesets declare alike, named once.
PLACE = OrderKind("place", "Deploy", params=TO_AND_FACING)
SHOOT = OrderKind("shoot", "Shoot", params=(Param("target", "unit"),))


@dataclass(frozen=True)
class Preview(Serialisable):
    """What a legal order will do, in words a player reads before the deadline."""

    order: Order
    summary: str
    notes: tuple[str, ...] = ()

    @property
    def legal(self) -> bool:
        """Always True: a preview is the verdict on a legal order."""
        return True


# The kinds of way forward a refusal may offer: the step that takes the order, a shorter
# distance, other targets, other order kinds, others who may be given it, or what would
# make the order legal.
INSTEAD_KINDS = ("step", "distance", "targets", "kinds", "actors", "condition")


@dataclass(frozen=True)
class Instead(Serialisable):
    """A way forward for a refused order: ``names`` are step ids (``step``), unit ids
    (``targets``), order kind ids (``kinds``) or ids of the actors who may be given the same
    order (``actors``); ``distance`` is how far it may go
    (``distance``); ``words`` say what would make it legal (``condition``)."""

    kind: str
    names: tuple[str, ...] = ()
    distance: float = 0.0
    words: str = ""

    def __post_init__(self) -> None:
        if self.kind not in INSTEAD_KINDS:
            raise ValueError(f"unknown way forward {self.kind!r}")


def another_step(*steps: str) -> Instead:
    """The order is taken in these steps (ids of the sequence of play)."""
    return Instead("step", tuple(steps))


def shorter(distance: float) -> Instead:
    """The order may go at most this far."""
    return Instead("distance", distance=distance)


def other_targets(*units: str) -> Instead:
    """The order may be given against these units instead."""
    return Instead("targets", tuple(units))


def other_kinds(*kinds: str) -> Instead:
    """The actor may be given orders of these kinds now."""
    return Instead("kinds", tuple(kinds))


def other_actors(*actors: str) -> Instead:
    """The same order may be given to these actors (of its kind's actor kind) instead."""
    return Instead("actors", tuple(actors))


def condition(words: str) -> Instead:
    """What would make the order legal, in words."""
    return Instead("condition", words=words)


@dataclass(frozen=True)
class Illegal(Serialisable):
    """Why an order cannot be carried out, and what the player may do instead (``instead``:
    left empty where the ruleset knows nothing better; see ``ways.way_forward``)."""

    order: Order
    reason: str
    # Not compared: a refusal is the same refusal whatever way forward it offers.
    instead: tuple[Instead, ...] = field(default=(), compare=False)

    @property
    def legal(self) -> bool:
        """Always False: the order is refused."""
        return False


Verdict = Preview | Illegal


def joined(
    kinds: Mapping[str, OrderKind], earlier: Sequence[Order], order: Order
) -> tuple[tuple[Order, ...], str | None]:
    """An actor's orders for a step once ``order`` is given after ``earlier`` (its own so far),
    or the earlier ones unchanged and why the new one may not join them."""
    kind = kinds[order.kind]
    if not kind.combines:
        return (order,), None
    kept = tuple(o for o in earlier if kinds[o.kind].combines)
    if sum(o.kind == order.kind for o in kept) >= kind.limit:
        return tuple(earlier), f"at most {kind.limit} {kind.title.lower()} order(s) per step"
    return (*kept, order), None


def point_param(order: Order, name: str) -> tuple[float, float]:
    """A point parameter of an already-checked order as a tuple."""
    value = order.params[name]
    assert isinstance(value, list | tuple) and _is_point(value)
    x, y = value
    assert isinstance(x, int | float) and isinstance(y, int | float)
    return (float(x), float(y))


def path_param(order: Order, name: str) -> tuple[tuple[float, float], ...]:
    """A path parameter of an already-checked order as a tuple of points."""
    value = order.params[name]
    assert isinstance(value, list | tuple)
    return tuple(point_param(Order(order.actor, order.kind, {name: p}), name) for p in value)


def as_point(value: Json) -> tuple[float, float]:
    """A JSON point ``[x, y]`` as a tuple; TypeError when it is not one."""
    if not isinstance(value, list | tuple) or not _is_point(value):
        raise TypeError(f"not a point [x, y]: {value!r}")
    x, y = value
    assert isinstance(x, int | float) and isinstance(y, int | float)
    return (float(x), float(y))


def _is_point(value: object) -> bool:
    if not isinstance(value, list | tuple) or len(value) != 2:
        return False
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
