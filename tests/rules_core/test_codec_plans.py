"""The codec's per-type encoders and decoders (made once) read and write as before."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from rules_core.codec import OMIT_DEFAULT, Json, Serialisable, decode, encode


@dataclass(frozen=True)
class _Inner(Serialisable):
    x: float
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Outer(Serialisable):
    name: str
    inner: _Inner | None
    pairs: tuple[tuple[float, float], ...]
    fixed: tuple[int, str]
    by_key: dict[str, _Inner]
    listed: list[int]
    free: Json = None
    later: int = field(default=0, metadata={OMIT_DEFAULT: True})
    nested: _Outer | None = None  # a class that refers to itself


def test_a_nested_value_round_trips_with_ints_read_as_floats_where_floats_are_declared() -> None:
    value = _Outer(
        "a",
        _Inner(1.5, ("t",)),
        ((1.0, 2.0),),
        (3, "b"),
        {"k": _Inner(2.0)},
        [1, 2],
        {"any": [1, "x"]},
        nested=_Outer("b", None, (), (1, "c"), {}, []),
    )
    data = encode(value)
    assert "later" not in data  # left out while it holds its default
    assert decode(_Outer, data) == value
    data["pairs"] = [[1, 2]]
    data["inner"]["x"] = 3
    again = decode(_Outer, data)
    assert again.pairs == ((1.0, 2.0),) and isinstance(again.pairs[0][0], float)
    assert isinstance(again.inner.x, float)  # type: ignore[union-attr]
    assert decode(_Outer, {**data, "later": 4}).later == 4
    assert decode(_Outer, {**data, "inner": None}).inner is None


def test_a_fixed_tuple_of_the_wrong_length_is_refused() -> None:
    data = encode(_Outer("a", None, (), (1, "b"), {}, []))
    data["fixed"] = [1]
    with pytest.raises(ValueError):
        decode(_Outer, data)


def test_scalars_and_unions() -> None:
    assert decode(float, 3) == 3.0 and isinstance(decode(float, 3), float)
    assert decode(int | None, None) is None
    assert decode(int | str, "x") == "x"  # a union of several: the data as it is
    assert encode((1, [2, (3,)])) == [1, [2, [3]]]
    assert encode({1: (2,)}) == {"1": [2]}
