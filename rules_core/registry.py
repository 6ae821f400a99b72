"""The registry of rulesets: each ruleset registers itself once under its id.

A ruleset package under ``rules_core/rulesets/<id>/`` exports ``RULESET``; the registry finds
the packages itself the first time it is asked (as the bot finds its cogs), and a package's
entry replaces the placeholder registered below for the same id.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules_core.roster import Field, RosterSchema

if TYPE_CHECKING:
    from rules_core.plugin import Rules


@dataclass(frozen=True)
class Ruleset:
    """What the bot needs to know of a ruleset: its identity, measure and roster schema."""

    id: str
    name: str
    measure: str
    roster_schema: RosterSchema
    aliases: tuple[str, ...] = field(default=())
    rules: Rules | None = field(default=None, compare=False)
    listed: bool = True  # False for rulesets only tests use, such as ``skirmish``


_REGISTRY: dict[str, Ruleset] = {}
_PLACEHOLDERS: set[str] = set()
_discovered = False


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset to the registry; its id and aliases must be new (or a placeholder's)."""
    replacing = ruleset.id in _PLACEHOLDERS
    if replacing:
        _drop_aliases(ruleset.id)
    for key in (ruleset.id, *ruleset.aliases):
        if key in _REGISTRY and not (replacing and key == ruleset.id):
            raise ValueError(f"ruleset id or alias {key!r} is already registered")
    _PLACEHOLDERS.discard(ruleset.id)
    _REGISTRY[ruleset.id] = ruleset  # a replaced placeholder keeps its place in the order
    for alias in ruleset.aliases:
        _REGISTRY[alias] = ruleset
    return ruleset


def _drop_aliases(ruleset_id: str) -> None:
    for key in [k for k, found in _REGISTRY.items() if found.id == ruleset_id and k != ruleset_id]:
        del _REGISTRY[key]


def _placeholder(ruleset: Ruleset) -> None:
    register(ruleset)
    _PLACEHOLDERS.add(ruleset.id)


def discover() -> None:
    """Import every package in ``rules_core.rulesets`` and register its ``RULESET``."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    import rules_core.rulesets as package

    for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        found = getattr(importlib.import_module(module.name), "RULESET", None)
        if isinstance(found, Ruleset) and _REGISTRY.get(found.id) is not found:
            register(found)


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id or alias; KeyError if there is none."""
    discover()
    return _REGISTRY[ruleset_id]


def all_rulesets(include_unlisted: bool = False) -> list[Ruleset]:
    """Every registered ruleset once, in registration order (test-only ones on request)."""
    discover()
    unique: dict[str, Ruleset] = {}
    for ruleset in _REGISTRY.values():
        if ruleset.listed or include_unlisted:
            unique.setdefault(ruleset.id, ruleset)
    return list(unique.values())


GRADES = ("A", "B", "C", "D")
_NAME = Field("name", str, required=True)
_STANDS = Field("stands", int, minimum=1, maximum=50)

# Minimal roster schemas until each ruleset's own package lands: named units plus the
# one field the sheet grades them by. A ruleset package replaces these with its profile.
_placeholder(
    Ruleset(
        "tree_of_battles",
        "The Tree of Battles",
        "SF",
        RosterSchema((_NAME, Field("type"), Field("grade", choices=GRADES), _STANDS)),
        aliases=("tob",),
    )
)
_placeholder(
    Ruleset(
        "pike_and_shot",
        "Pike and Shot (brigade level)",
        "inch",
        RosterSchema(
            (_NAME, Field("type"), Field("quality", choices=("raw", "trained", "veteran")))
        ),
    )
)
_placeholder(
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
_placeholder(
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
_placeholder(
    Ruleset(
        "heroic_age",
        "Heroic Age (Dark-Age warbands)",
        "inch",
        RosterSchema((_NAME, Field("type"), Field("grade", choices=GRADES), _STANDS)),
    )
)
