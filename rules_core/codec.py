"""A small dataclass codec: dataclasses to JSON-ready dicts and back, driven by type hints."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

T = TypeVar("T")

# Field metadata: a field added after states were saved is left out of the JSON while it holds
# its default, so an old state encodes exactly as before (and decodes to the default).
OMIT_DEFAULT = "omit_default"

# JSON values as stored in profiles, statuses and parameters.
Json = str | int | float | bool | None | list["Json"] | dict[str, "Json"]


def number_or(value: Json, default: float) -> float:
    """A JSON number as a float, or the default when it is missing, a bool or not a number."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return default


class Serialisable:
    """Mixin for dataclasses: ``to_dict`` and ``from_dict`` through the codec."""

    def to_dict(self) -> dict[str, Any]:
        """This object as a JSON-ready dict."""
        encoded = encode(self)
        assert isinstance(encoded, dict)
        return encoded

    @classmethod
    def from_dict(cls: type[T], data: Mapping[str, Any]) -> T:
        """Rebuild an object from ``to_dict`` output."""
        rebuilt: T = decode(cls, data)
        return rebuilt


def encode(value: object) -> Any:
    """A JSON-ready form of a dataclass, tuple, mapping or scalar."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if not isinstance(value, Serialisable) and hasattr(value, "to_dict"):
            return value.to_dict()
        return {
            f.name: encode(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not (f.metadata.get(OMIT_DEFAULT) and getattr(value, f.name) == f.default)
        }
    if isinstance(value, tuple | list):
        return [encode(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): encode(item) for key, item in value.items()}
    return value


def decode(kind: Any, data: Any) -> Any:
    """The value of type ``kind`` that ``encode`` turned into ``data``."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        return _decode_union(get_args(kind), data)
    if origin is tuple:
        return _decode_tuple(get_args(kind), data)
    if origin in (dict, Mapping, typing.Mapping):
        _, item_kind = get_args(kind)
        return {key: decode(item_kind, item) for key, item in data.items()}
    if origin is list:
        return [decode(get_args(kind)[0], item) for item in data]
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _decode_dataclass(kind, data)
    if kind is float and isinstance(data, int):
        return float(data)
    return data


def _decode_union(options: tuple[Any, ...], data: Any) -> Any:
    if data is None:
        return None
    concrete = [option for option in options if option is not type(None)]
    if len(concrete) == 1:
        return decode(concrete[0], data)
    return data  # a JSON union such as Json: the data is already in its final form


def _decode_tuple(args: tuple[Any, ...], data: Any) -> tuple[Any, ...]:
    if len(args) == 2 and args[1] is Ellipsis:
        return tuple(decode(args[0], item) for item in data)
    return tuple(decode(arg, item) for arg, item in zip(args, data, strict=True))


def _decode_dataclass(kind: type, data: Any) -> Any:
    if not issubclass(kind, Serialisable) and hasattr(kind, "from_dict"):
        return kind.from_dict(data)
    hints = _hints(kind)
    values = {
        f.name: decode(hints[f.name], data[f.name])
        for f in dataclasses.fields(kind)
        if f.name in data
    }
    return kind(**values)


@cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)
