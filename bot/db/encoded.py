"""JSON data kept with the text it is stored as (#38): a battle's state is encoded once, before
its write transaction opens, not again by the driver inside it while the write lock is held."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any


class Encoded(dict[str, Any]):
    """A JSON object and its text (``json.dumps`` of it): never changed in place."""

    __slots__ = ("text",)

    def __init__(self, data: dict[str, Any], text: str | None = None) -> None:
        super().__init__(data)
        self.text = json.dumps(data) if text is None else text


def serialized(value: Any) -> str:
    """A JSON column's text: an ``Encoded`` object's own, anything else ``json.dumps``'s."""
    if type(value) is Encoded:
        return value.text
    return json.dumps(value)


class Read(Encoded):
    """A large JSON object as read from the database, with the text it was read from (for
    comparing, never written back as it is: ``serialized`` encodes it anew)."""

    __slots__ = ()


READ_KEPT_FROM = 16_384  # characters: smaller objects are plain dicts


# Large objects read while a resolution is worked out (``bot.services.rehearsal``), by their
# text's length: its keeping write reads the same stored texts again with the write lock held,
# and is given these objects instead of decoding them again.
_READS: ContextVar[dict[int, list[Read]] | None] = ContextVar("aide_reads", default=None)


@contextmanager
def reads_kept() -> Iterator[None]:
    """Inside: a large object read twice (with an equal text) is decoded once."""
    token = _READS.set({})
    try:
        yield
    finally:
        _READS.reset(token)


def deserialized(stored: str | bytes) -> Any:
    """A JSON column's value; a large object keeps its text (a battle's state is compared
    with the last one decoded without encoding it again). ``psycopg`` gives bytes."""
    text = stored if isinstance(stored, str) else bytes(stored).decode()
    if len(text) < READ_KEPT_FROM:
        return json.loads(text)
    kept = _READS.get()
    if kept is None:
        return _read(text)
    same = kept.setdefault(len(text), [])
    for read in same:
        if read.text == text:
            return read
    value = _read(text)
    if type(value) is Read:
        same.append(value)
    return value


def _read(text: str) -> Any:
    value = json.loads(text)
    return Read(value, text) if type(value) is dict else value


def text_of(data: Any) -> str:
    """The JSON text of ``data``: kept if it was read or encoded here, else ``json.dumps``."""
    if isinstance(data, Encoded):
        return data.text
    return json.dumps(data)
