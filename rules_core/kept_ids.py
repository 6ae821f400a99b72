"""Lookups by id of a state's leaders, groups and sides, kept per tuple and carried forward.

A battle state is frozen; a change makes a new tuple with one item swapped. An ``Index`` of
a tuple answers "which item has this id" and "where is it" without a scan, and the index of
a tuple made by swapping one item is made from its parent's (the slots are the same ids).
Indexes are kept by the tuple's identity (holding the tuple, so the id is not reused while
kept): a state copied with another field changed finds its tuples' indexes.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class HasId(Protocol):
    """Anything with an id: a leader, a group, a side."""

    @property
    def id(self) -> str:
        """Its id."""


Item = TypeVar("Item", bound=HasId)


@dataclass(eq=False)
class Index(Generic[Item]):
    """Each item's slot by id (None if an id is there twice) and the first item of each id."""

    items: tuple[Item, ...]
    slots: dict[str, int] | None
    by_id: dict[str, Item]

    def swapped(self, new: Item) -> Index[Item] | None:
        """The index of these items with ``new`` in the slot of its id; None if an id is there
        twice (the caller swaps by scanning); KeyError if the id is not here."""
        if self.slots is None:
            return None
        slot = self.slots.get(new.id)
        if slot is None:
            raise KeyError(f"no {type(new).__name__.lower()} {new.id!r}")
        items = (*self.items[:slot], new, *self.items[slot + 1 :])
        return keep(Index(items, self.slots, {**self.by_id, new.id: new}))


_KEPT: OrderedDict[int, Index[HasId]] = OrderedDict()
_SIZE = 96
_LOCK = threading.Lock()


def index_of(items: tuple[Item, ...]) -> Index[Item]:
    """The index of a tuple: kept, or made from every item."""
    with _LOCK:
        found = _KEPT.get(id(items))
    if found is not None and found.items is items:
        return found  # type: ignore[return-value]  # kept by this very tuple
    by_id: dict[str, Item] = {}
    for item in items:
        by_id.setdefault(item.id, item)
    slots = {item.id: slot for slot, item in enumerate(items)}
    return keep(Index(items, slots if len(slots) == len(items) else None, by_id))


def keep(index: Index[Item]) -> Index[Item]:
    """Remember an index, forgetting the oldest beyond the size."""
    with _LOCK:
        _KEPT[id(index.items)] = index  # type: ignore[assignment]
        _KEPT.move_to_end(id(index.items))
        while len(_KEPT) > _SIZE:
            _KEPT.popitem(last=False)
    return index
