"""Order kinds for every player action of the sheet (leader actions: ``leadership.ORDER_KINDS``)."""

from __future__ import annotations

from rules_core.orders import OrderKind, Param

YES_NO = ("no", "yes")
A_GRADE = ("none", "plus", "minus")  # "+/- 1 optional if A Grade" on a control test
MANOEUVRE_OPTIONS = (
    "change_direction", "about_face", "side_step", "embark", "form_up",
)  # fmt: skip

UNIT_ORDER_KINDS = (
    OrderKind("place", "Deploy", params=(Param("to", "point"), Param("facing", "number", False))),
    OrderKind(
        "move",
        "Move (1 AvD, + optional D6) towards a point",
        params=(
            Param("to", "point"),
            Param("extra_d6", "choice", False, YES_NO),  # declared before the roll
            Param("stop_short", "choice", False, YES_NO),  # declared before the roll
            Param("a_grade", "choice", False, A_GRADE),  # an A grade's +/-1 on a control test
        ),
    ),
    OrderKind(
        "manoeuvre",
        "Manoeuvre",
        params=(
            Param("option", "choice", True, MANOEUVRE_OPTIONS),
            Param("to", "point", False),
            Param("facing", "number", False),
            Param("a_grade", "choice", False, A_GRADE),
        ),
    ),
    OrderKind("rest", "Rest and reform (stay stationary to remove a DP)"),
    OrderKind("shoot", "Shoot", params=(Param("target", "unit"),)),
    OrderKind("charge", "Declare a charge", params=(Param("target", "unit"),)),
    OrderKind("hold", "Hold"),
)
