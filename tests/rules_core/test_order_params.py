"""Order parameters read through the typed accessors of ``Order``."""

from __future__ import annotations

import pytest

from rules_core.orders import Order, OrderParamError


def test_each_accessor_reads_its_type_and_its_default() -> None:
    order = Order("u1", "move", {"to": [1, 2.5], "facing": 90, "plan": "left hook"})
    assert order.point("to") == (1.0, 2.5)
    assert order.number("facing") == 90.0
    assert order.number("speed", 3.0) == 3.0
    assert order.text("plan") == "left hook"
    assert order.text("choice", "keep") == "keep"


@pytest.mark.parametrize(
    ("read", "wanted"),
    [
        (lambda o: o.number("plan"), "plan should be a number"),
        (lambda o: o.number("missing"), "missing should be a number"),
        (lambda o: o.number("flag"), "flag should be a number"),
        (lambda o: o.text("facing"), "facing should be text"),
        (lambda o: o.point("facing"), "facing should be a point"),
    ],
)
def test_a_wrong_type_is_a_clear_error(read: object, wanted: str) -> None:
    order = Order("u1", "move", {"facing": 90, "plan": "left hook", "flag": True})
    assert callable(read)
    with pytest.raises(OrderParamError, match=wanted):
        read(order)
