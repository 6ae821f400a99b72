"""The registry of rulesets: each ruleset registers itself once under its id.

A ruleset package under ``rules_core/rulesets/<id>/`` exports ``RULESET``; the registry finds
the packages itself the first time it is asked (as the bot finds its cogs). Packages kept
elsewhere are found too when their folder is named in the ``AIDE_RULESETS`` environment
variable (folders separated by ``os.pathsep``): the folder joins ``rules_core.rulesets``, so
such a package imports as ``rules_core.rulesets.<id>`` like the ones shipped here.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import rules_core.rulesets as package  # only the package: its rulesets are imported below
from rules_core.roster import RosterSchema

if TYPE_CHECKING:
    from rules_core.plugin import Rules

EXTRA_FOLDERS = "AIDE_RULESETS"  # environment variable: more folders of ruleset packages


@dataclass(frozen=True)
class Ruleset:
    """What the bot needs to know of a ruleset: its identity, measure and roster schema."""

    id: str
    name: str
    measure: str
    roster_schema: RosterSchema
    aliases: tuple[str, ...] = field(default=())
    rules: Rules | None = field(default=None, compare=False)  # None: no battles yet
    listed: bool = True  # False for rulesets only tests use
    position: int = 100  # where it stands in lists, lowest first (then in the order found)


_REGISTRY: dict[str, Ruleset] = {}
_scanned: tuple[str, ...] | None = None  # the folders searched so far


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset to the registry; its id and aliases must be new."""
    for key in (ruleset.id, *ruleset.aliases):
        if key in _REGISTRY:
            raise ValueError(f"ruleset id or alias {key!r} is already registered")
    for key in (ruleset.id, *ruleset.aliases):
        _REGISTRY[key] = ruleset
    return ruleset


def discover() -> None:
    """Import every package in ``rules_core.rulesets`` and register its ``RULESET``.

    Searches again only when the folders to search have changed (``AIDE_RULESETS`` set).
    """
    global _scanned
    for folder in os.environ.get(EXTRA_FOLDERS, "").split(os.pathsep):
        if folder and folder not in package.__path__:
            package.__path__.append(folder)
    folders = tuple(package.__path__)
    if folders == _scanned:
        return
    _scanned = folders
    for module in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        found = getattr(importlib.import_module(module.name), "RULESET", None)
        if isinstance(found, Ruleset) and _REGISTRY.get(found.id) is not found:
            register(found)


def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id or alias; KeyError if there is none."""
    discover()
    return _REGISTRY[ruleset_id]


def all_rulesets(include_unlisted: bool = False) -> list[Ruleset]:
    """Every registered ruleset once, by position (test-only ones on request)."""
    discover()
    unique: dict[str, Ruleset] = {}
    for ruleset in _REGISTRY.values():
        if ruleset.listed or include_unlisted:
            unique.setdefault(ruleset.id, ruleset)
    return sorted(unique.values(), key=lambda ruleset: ruleset.position)
