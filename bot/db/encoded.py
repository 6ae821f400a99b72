"""JSON data kept with the text it is stored as (#38): a battle's state is encoded once, before
its write transaction opens, not again by the driver inside it while the write lock is held."""

from __future__ import annotations

import json
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


def deserialized(text: str) -> Any:
    """A JSON column's value; a large object keeps its text (a battle's state is compared
    with the last one decoded without encoding it again)."""
    value = json.loads(text)
    if type(value) is dict and len(text) >= READ_KEPT_FROM:
        return Read(value, text)
    return value


def text_of(data: Any) -> str:
    """The JSON text of ``data``: kept if it was read or encoded here, else ``json.dumps``."""
    if isinstance(data, Encoded):
        return data.text
    return json.dumps(data)
