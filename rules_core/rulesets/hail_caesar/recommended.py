"""The standing instructions an experienced Hail Caesar player would set (``/standing
recommended``): for each question topic, the choices in order of preference."""

from __future__ import annotations

from rules_core.standing import Recommended

RECOMMENDED = (
    Recommended(
        "reroll",
        ("reroll", "keep"),
        "use the army commander's re-roll on a failed order: a division that stands idle loses "
        "more than the re-roll is worth",
    ),
    Recommended(
        "hold_or_retreat",
        ("retreat", "hold_disordered"),
        "a shaken unit retreats in good order rather than stand disordered under fire",
        "shaken",
    ),
    Recommended(
        "hold_or_retreat",
        ("hold_disordered", "retreat"),
        "otherwise hold the ground: disorder passes at the end of the turn",
    ),
)
