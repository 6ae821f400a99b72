"""Voluntary and involuntary interpenetration, as the sheet lists them.

Voluntary (a friend passed through on a move):
1) S can be interpenetrated by, and interpenetrate, any.
2) ART, single units of T and non-impetuous FL can be interpenetrated by any, and can
   interpenetrate any non-impetuous foot.
3) Wagenburg (W) can be interpenetrated by any except EL and W, and can interpenetrate S, ART,
   single units of T and non-impetuous FL.
4) CL can be interpenetrated by, and interpenetrate, any mounted except EL.

Involuntary: a unit retreating passes through a friend if voluntary interpenetration allows it
or if it is T, CL or non-impetuous FL (placed behind the friend); others push the friend back
and disorder it (except W). A pursuit that may not pass stops on contact.
"""

from __future__ import annotations

from rules_core.rulesets.impetus.profiles import FOOT, MOUNTED, impetuous
from rules_core.rulesets.impetus.status import UNIT_GROUP
from rules_core.state import Unit


def _single(unit: Unit) -> bool:
    """Not formed in a group (``groups.mark`` keeps ``unit_group`` as play goes)."""
    return not UNIT_GROUP.of(unit)


def _open_order(unit: Unit) -> bool:
    """ART, a single unit of T or a non-impetuous FL (rule 2's passable units)."""
    return (
        unit.type == "ART"
        or (unit.type == "T" and _single(unit))
        or (unit.type == "FL" and not impetuous(unit))
    )


def voluntary(mover: Unit, friend: Unit) -> bool:
    """Whether ``mover`` may pass through ``friend`` on a move of its own."""
    if mover.type == "S" or friend.type == "S":
        return True  # rule 1
    if _open_order(friend):
        return True  # rule 2, interpenetrated by any
    if _open_order(mover) and friend.type in FOOT and not impetuous(friend):
        return True  # rule 2, interpenetrating non-impetuous foot
    if friend.type == "W":
        return mover.type not in ("EL", "W")  # rule 3
    if mover.type == "W":
        return False  # rule 3 lists only passable units (rules 1 and 2 above)
    pair = (mover.type, friend.type)
    mounted_pair = mover.type in MOUNTED and friend.type in MOUNTED
    return mounted_pair and "CL" in pair and "EL" not in pair  # rule 4


def retreat_through(retreating: Unit, friend: Unit) -> str:
    """What a retreat does to a friend in its way: ``pass`` (placed behind it), ``push`` (the
    friend is pushed back and disordered) or ``push_no_disorder`` (a W pushed back)."""
    if (
        voluntary(retreating, friend)
        or retreating.type in ("T", "CL")
        or (retreating.type == "FL" and not impetuous(retreating))
    ):
        return "pass"
    return "push_no_disorder" if friend.type == "W" else "push"


def pursuit_may_pass(pursuer: Unit, friend: Unit) -> bool:
    """A pursuit passes a friend only where voluntary interpenetration allows; else it stops."""
    return voluntary(pursuer, friend)
