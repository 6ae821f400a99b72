"""The load of ``bench.scale``: battles set up through the services, simulated players and GMs.

Small battles are Hail Caesar's sample battle, each in a server of its own; big ones Tree of
Battles' sample armies ten times over (2 x 60 units, as ``bench.orders_mine``). A player
sends, over and over, on their small battles: an order, a status read, the order's
withdrawal, a standing instruction, a read of their orders. A GM forces a big battle's
step again and again (a resolution of 2 x 60 units). Every call is timed from outside, as a
command's service call, and filed under the phase that was on from its start to its end.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bench.orders_mine import set_up_big
from bot.demo import GM, PLAYERS, order_input
from bot.errors import UserError
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.order_params import OrderInput
from rules_core import registry
from rules_core.plugin import Rules
from rules_core.state import Group, Leader, Unit

SMALL, BIG = "hail_caesar", "tree_of_battles"
BIG_COPIES = 10  # each sample army ten times over: 2 x 60 units
SMALL_LINES = (6, 10.0)  # a line of six units 10" apart (frontages are at most 8")
STOP = "stop"


def small_place(index: int) -> Place:
    """Where the ``index``-th small battle is played (a server of its own)."""
    return Place(guild_id=10_000 + index, channel_id=20_000 + index)


def big_place(index: int) -> Place:
    """Where the ``index``-th big battle is played."""
    return Place(guild_id=30_000 + index, channel_id=40_000 + index)


def rules_of(ruleset: str) -> Rules:
    """A registered ruleset's rules."""
    rules = registry.get(ruleset).rules
    assert rules is not None
    return rules


async def set_up(services: Services, smalls: int, bigs: int, big_copies: int) -> None:
    """Every battle set up, deployed and begun."""
    for index in range(smalls):
        await set_up_big(services, rules_of(SMALL), 1, small_place(index), SMALL, SMALL_LINES)
        await services.play.start(small_place(index), GM)
        await services.gm.force(small_place(index), GM)  # past deployment: a side orders
    for index in range(bigs):
        await set_up_big(services, rules_of(BIG), big_copies, big_place(index), BIG)
        await services.play.start(big_place(index), GM)


@dataclass(frozen=True)
class Seat:
    """One player's side in a small battle and what they send there."""

    place: Place
    user: int
    order: tuple[str, str, OrderInput] | None  # kind, unit's name, its input
    standing: tuple[str, str] | None  # topic, choice


async def seats_of(services: Services, place: Place) -> list[Seat]:
    """Each player's seat in the battle at ``place``: the first of the demo's orders for
    their side now, and the first choice of the first standing topic."""
    rules = rules_of(SMALL)
    view = await services.battles.view(place)
    state = view.state
    actors: tuple[Unit | Leader | Group, ...] = (*state.units, *state.leaders, *state.groups)
    names = {a.id: a.name for a in actors}
    topics = await services.standing.topics(place)
    choices = await services.standing.choices(place, topics[0][0]) if topics else []
    standing = (topics[0][0], choices[0][0]) if choices else None
    seats = []
    for side in view.sides:
        orders = [o for o in rules.demo_orders(state, side.side_id) if o.actor in names]
        order = None
        if orders:
            first = orders[0]
            order = (first.kind, names[first.actor], order_input(rules, first))
        seats.append(Seat(place, side.owner_id, order, standing))
    return seats


@dataclass
class Samples:
    """Timed calls (ms) by phase and kind ("write" or "read"), and refusals counted."""

    phase: str = "idle"
    times: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    refused: int = 0
    done: int = 0

    def of(self, phase: str, kind: str) -> list[float]:
        """The times of one phase and kind."""
        return self.times.get((phase, kind), [])

    async def timed(self, kind: str, call: Awaitable[object]) -> None:
        """Await ``call`` and file its time under the phase on from its start to its end."""
        phase, began = self.phase, time.perf_counter()
        try:
            await call
        except UserError:  # still a command answered (its write rolled back)
            self.refused += 1
        took = (time.perf_counter() - began) * 1000
        self.done += 1
        if self.phase == phase:
            self.times.setdefault((phase, kind), []).append(took)


def seat_calls(services: Services, seat: Seat) -> list[tuple[str, Callable[[], Awaitable[object]]]]:
    """A player's round on one seat: (kind, call) in the order sent."""
    place, user = seat.place, seat.user
    calls: list[tuple[str, Callable[[], Awaitable[object]]]] = []
    if seat.order is not None:
        kind, unit, given = seat.order
        calls.append(("write", lambda: services.play.submit(place, user, kind, unit, given)))
    calls.append(("read", lambda: services.battles.view(place)))
    if seat.order is not None:
        unit = seat.order[1]
        calls.append(("write", lambda: services.play.withdraw(place, user, unit)))
    if seat.standing is not None:
        topic, choice = seat.standing
        calls.append(("write", lambda: services.standing.set(place, user, topic, choice)))
    calls.append(("read", lambda: services.play.mine(place, user)))
    return calls


async def player(
    services: Services,
    seats: list[Seat],
    samples: Samples,
    think_s: float,
    writes_only: bool = False,
) -> None:
    """Send each seat's round (its writes only, if so), again and again, until the phase is
    ``STOP``."""
    rounds = [
        [
            (kind, call)
            for kind, call in seat_calls(services, seat)
            if kind == "write" or not writes_only
        ]
        for seat in seats
    ]
    while rounds and samples.phase != STOP:  # no seats: nothing to send (and no busy loop)
        for calls in rounds:
            for kind, call in calls:
                if samples.phase == STOP:
                    return
                await samples.timed(kind, call())
                await asyncio.sleep(think_s)


async def players(services: Services, places: list[Place], count: int) -> list[list[Seat]]:
    """The seats of every small battle dealt to ``count`` players, round robin."""
    seats = [seat for place in places for seat in await seats_of(services, place)]
    return [seats[index::count] for index in range(count)]


async def force_once(services: Services, place: Place) -> float:
    """Force the big battle's open step (a GM); the wall ms it took (0 if it is over)."""
    began = time.perf_counter()
    try:
        await services.gm.force(place, GM)
    except UserError:  # over, or resolved meanwhile
        return 0.0
    return (time.perf_counter() - began) * 1000


async def keep_forcing(services: Services, place: Place, until: Callable[[], bool]) -> list[float]:
    """Force the big battle's steps one after another until ``until()``; their wall ms."""
    took = []
    while not until():
        ms = await force_once(services, place)
        if ms == 0.0:
            break
        took.append(ms)
    return took


__all__ = ["PLAYERS", "Samples", "Seat", "keep_forcing", "players", "set_up"]
