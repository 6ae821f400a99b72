"""The registry of rulesets: each ruleset registers itself once under its id."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_core.roster import Field, RosterSchema


@dataclass(frozen=True)
class Ruleset:
    """What the bot needs to know of a ruleset: its identity, measure and roster schema."""

    id: str
    name: str
    measure: str
    roster_schema: RosterSchema
    aliases: tuple[str, ...] = field(default=())


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset to the registry; its id and aliases must be new."""
    for key in (ruleset.id, *ruleset.aliases):
        if key in _REGISTRY:
            raise ValueError(f"ruleset id or alias {key!r} is already registered")
    _REGISTRY[ruleset.id] = ruleset
    for alias in ruleset.aliases:
        _REGISTRY[alias] = ruleset
    return ruleset


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id or alias; KeyError if there is none."""
    return _REGISTRY[ruleset_id]


def all_rulesets() -> list[Ruleset]:
    """Every registered ruleset once, in registration order."""
    unique: dict[str, Ruleset] = {}
    for ruleset in _REGISTRY.values():
        unique.setdefault(ruleset.id, ruleset)
    return list(unique.values())


GRADES = ("A", "B", "C", "D")
_NAME = Field("name", str, required=True)
_STANDS = Field("stands", int, minimum=1, maximum=50)

# Minimal roster schemas until each ruleset's own package lands: named units plus the
# one field the sheet grades them by. A ruleset package replaces these with its profile.
register(
    Ruleset(
        "tree_of_battles",
        "The Tree of Battles",
        "SF",
        RosterSchema((_NAME, Field("type"), Field("grade", choices=GRADES), _STANDS)),
        aliases=("tob",),
    )
)
register(
    Ruleset(
        "pike_and_shot",
        "Pike and Shot (brigade level)",
        "inch",
        RosterSchema(
            (_NAME, Field("type"), Field("quality", choices=("raw", "trained", "veteran")))
        ),
    )
)
register(
    Ruleset(
        "hail_caesar",
        "Hail Caesar",
        "inch",
        RosterSchema(
            (
                _NAME,
                Field("type"),
                Field("size", choices=("large", "standard", "small", "tiny")),
            )
        ),
        aliases=("hc",),
    )
)
register(
    Ruleset(
        "impetus",
        "Impetus 2",
        "H",
        RosterSchema(
            (
                _NAME,
                Field(
                    "type",
                    choices=(
                        "FP",
                        "FL",
                        "S",
                        "T",
                        "CP1",
                        "CP2",
                        "CM",
                        "CL",
                        "CGP",
                        "CGL",
                        "CF",
                        "EL",
                        "W",
                        "ART",
                    ),
                ),
            )
        ),
    )
)
register(
    Ruleset(
        "heroic_age",
        "Heroic Age (Dark-Age warbands)",
        "inch",
        RosterSchema((_NAME, Field("type"), Field("grade", choices=GRADES), _STANDS)),
    )
)
