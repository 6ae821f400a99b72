"""Tree of Battles' hints to the AI general (#36): a march advances, a rally is the
``manoeuvre`` with ``option: rally``; a charge's result bands name a win as "victory" or
"success" and a loss as "set back", "defeat" or "rout"."""

from rules_core.general_hints import DEFAULT_ROLES, GeneralHints, Weights

HINTS = GeneralHints(
    roles={**DEFAULT_ROLES, "march": "advance", "restrain": "hold", "manoeuvre": "rally"},
    params={"manoeuvre": {"option": "rally"}},
    weights=Weights(charge=2.5, rally=0.2),
    win_words=("victory", "success"),
    lose_words=("set back", "defeat", "rout"),
)
