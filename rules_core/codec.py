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
    kind = type(value)
    found = _ENCODERS.get(kind)
    if found is None:
        found = _ENCODERS[kind] = _encoder(kind)
    return found(value)


def decode(kind: Any, data: Any) -> Any:
    """The value of type ``kind`` that ``encode`` turned into ``data``."""
    return _decoder_of(kind)(data)


def _decoder_of(kind: Any) -> Coder:
    """The decoder of an annotation, made once (hashing an annotation is slow: decoders hold
    their parts' decoders rather than looking them up per value)."""
    try:
        found = _DECODERS.get(kind)
    except TypeError:  # an unhashable annotation: worked out each time
        return _decoder(kind)
    if found is None:
        found = _DECODERS[kind] = _decoder(kind)
    return found


# Each type's encoder and each annotation's decoder is worked out once (a big battle's state
# has thousands of values: asking ``get_origin`` and ``fields`` for each was most of the work).
Coder = typing.Callable[[Any], Any]
_ENCODERS: dict[type, Coder] = {}
_DECODERS: dict[Any, Coder] = {}


def _same(value: Any) -> Any:
    return value


def _encoder(kind: type) -> Coder:
    """How ``encode`` turns a value of this type into JSON-ready data."""
    if dataclasses.is_dataclass(kind):
        if not issubclass(kind, Serialisable) and hasattr(kind, "to_dict"):
            return lambda value: value.to_dict()
        plan = [
            (f.name, bool(f.metadata.get(OMIT_DEFAULT)), f.default)
            for f in dataclasses.fields(kind)
        ]

        def dataclass_encoder(value: Any) -> Any:
            found = {}
            for name, omit, default in plan:
                item = getattr(value, name)
                if omit and item == default:
                    continue
                found[name] = encode(item)
            return found

        return dataclass_encoder
    if issubclass(kind, tuple | list):
        return lambda value: [encode(item) for item in value]
    if issubclass(kind, Mapping):
        return lambda value: {str(key): encode(item) for key, item in value.items()}
    return _same


def _decoder(kind: Any) -> Coder:
    """How ``decode`` rebuilds a value of this annotation from JSON-ready data."""
    origin = get_origin(kind)
    if origin in (Union, types.UnionType):
        return _union_decoder(get_args(kind))
    if origin is tuple:
        args = get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            each = _decoder_of(args[0])
            return lambda data: tuple([each(item) for item in data])
        parts = [_decoder_of(arg) for arg in args]
        return lambda data: tuple([one(item) for one, item in zip(parts, data, strict=True)])
    if origin in (dict, Mapping, typing.Mapping):
        value = _decoder_of(get_args(kind)[1])
        return lambda data: {key: value(item) for key, item in data.items()}
    if origin is list:
        each = _decoder_of(get_args(kind)[0])
        return lambda data: [each(item) for item in data]
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _dataclass_decoder(kind)
    if kind is float:
        return lambda data: float(data) if isinstance(data, int) else data
    return _same


def _union_decoder(options: tuple[Any, ...]) -> Coder:
    concrete = [option for option in options if option is not type(None)]
    if len(concrete) != 1:
        return _same  # a JSON union such as Json: the data is already in its final form
    only = _decoder_of(concrete[0])
    return lambda data: None if data is None else only(data)


def _dataclass_decoder(kind: type) -> Coder:
    if not issubclass(kind, Serialisable) and hasattr(kind, "from_dict"):
        return lambda data: kind.from_dict(data)
    plan: list[tuple[str, Coder]] | None = None

    def dataclass_decoder(data: Any) -> Any:
        nonlocal plan
        if plan is None:  # on first use: a class may refer to itself or to one defined later
            hints = _hints(kind)
            plan = [(f.name, _decoder_of(hints[f.name])) for f in dataclasses.fields(kind)]
        values = {name: part(data[name]) for name, part in plan if name in data}
        return kind(**values)

    return dataclass_decoder


@cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)
