"""Every situational input of a ruleset's computations is set by play or is a GM ruling.

The scan (``modifier_scan``) reads every ruleset's source for yes/no parameters with a default,
keys read from a ``**facts`` mapping and status keys the ruleset reads; each must be passed or
written by some production code, or be listed in the package's ``GM_RULINGS`` (its ident,
``function.name`` or ``status.key``, mapped to the README section that tells the GM how to
rule it: ``"README.md#Heading"``).
"""

from __future__ import annotations

import ast
import importlib
import textwrap
from collections.abc import Mapping
from pathlib import Path

import pytest

from rules_core import registry
from tests.rules_core import modifier_scan as scan

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("tree_of_battles", "hail_caesar", "pike_and_shot", "heroic_age", "skirmish", "impetus")


@pytest.fixture(scope="module")
def production() -> scan.Index:
    return scan.Index.of(scan.parse_tree(ROOT, ("rules_core", "bot", "cogs")))


def rulings(ruleset: str) -> Mapping[str, str]:
    """A ruleset's declared GM rulings (ident -> README section)."""
    package = importlib.import_module(f"rules_core.rulesets.{ruleset}")
    found = getattr(package, "GM_RULINGS", {})
    assert isinstance(found, Mapping)
    return found


def offenders(index: scan.Index, ruleset: str) -> list[str]:
    """The idents of a ruleset's inputs that nothing sets and no ruling covers."""
    found = registry.get(ruleset)
    schema, rules = found.roster_schema, found.rules
    fields = [f.name for f in (*schema.unit_fields, *schema.army_fields)]
    keys = [d.key for d in rules.statuses] if rules is not None else None
    missing = scan.unset(index, f"rules_core.rulesets.{ruleset}", fields, keys)
    return sorted({i.ident for i in missing} - set(rulings(ruleset)))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_situational_input_is_set_by_play_or_a_gm_ruling(
    production: scan.Index, ruleset: str
) -> None:
    left = offenders(production, ruleset)
    assert not left, (
        f"{ruleset}: nothing sets {left}: derive them from the state in play, or declare each "
        "in the package's GM_RULINGS with the README section telling the GM how"
    )


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_gm_ruling_names_a_readme_section_that_exists(ruleset: str) -> None:
    folder = ROOT / "rules_core" / "rulesets" / ruleset
    for ident, where in rulings(ruleset).items():
        name, _, heading = where.partition("#")
        readme = folder / name
        assert readme.is_file() and heading, f"{ruleset}: {ident} -> {where}"
        headings = [ln.lstrip("#").strip() for ln in readme.read_text().splitlines()]
        assert heading in headings, f"{ruleset}: {ident}: no section {heading!r} in {name}"


# -- the scan itself, on tiny synthetic packages ----------------------------------------------


def _sources(**modules: str) -> scan.Index:
    """An index of synthetic modules (name -> source)."""
    return scan.Index.of(
        [scan.Source(m, ast.parse(textwrap.dedent(code))) for m, code in modules.items()]
    )


SHOOTING = """
    from rules_core.status import Flag
    BEHIND_WALL = Flag("behind_wall", "behind a wall")
    def dice(unit, fortified: bool = False, *, reaction: bool = False, **facts):
        n = 2 - int(fortified) - int(reaction) - int(BEHIND_WALL.of(unit))
        return n - int(facts.get("indirect") is True) - int(facts.get("evaders") is True)
    def fire_back(unit):
        return dice(unit, reaction=True, evaders=unit.light)
"""


def test_the_scan_names_every_input_nothing_sets() -> None:
    sources = _sources(**{"pkg.shooting": SHOOTING})
    found = {i.ident for i in scan.unset(sources, "pkg")}
    assert found == {"dice.fortified", "dice.indirect", "status.behind_wall"}


def test_a_call_passing_only_the_default_sets_nothing() -> None:
    caller = """
        from pkg import shooting
        def volley(unit):
            return shooting.dice(unit, fortified=False, indirect=False)
    """
    sources = _sources(**{"pkg.shooting": SHOOTING, "pkg.volley": caller})
    assert {"dice.fortified", "dice.indirect"} <= {i.ident for i in scan.unset(sources, "pkg")}


def test_calls_from_state_forwarded_facts_and_status_writes_set_the_inputs() -> None:
    caller = """
        from pkg import shooting
        from pkg.shooting import BEHIND_WALL
        def volley(ctx, unit, **facts):
            ctx.set_status(unit.id, "wall", **{BEHIND_WALL.key: unit.y > 3})
            return shooting.dice(unit, unit.walled, **facts)
        def arc(ctx, unit):
            return volley(ctx, unit, indirect=unit.far)
    """
    sources = _sources(**{"pkg.shooting": SHOOTING, "pkg.volley": caller})
    assert scan.unset(sources, "pkg") == []


def test_a_same_named_function_of_another_module_does_not_set_it() -> None:
    other = """
        def dice(unit, *, fortified: bool = False):
            return 1
        def use(unit):
            return dice(unit, fortified=unit.walled)
    """
    sources = _sources(**{"pkg.shooting": SHOOTING, "pkg.other": other})
    found = {(i.module, i.ident) for i in scan.unset(sources, "pkg")}
    assert ("pkg.shooting", "dice.fortified") in found
    assert ("pkg.other", "dice.fortified") not in found


def test_a_gm_ruling_excuses_an_input_nothing_sets(
    monkeypatch: pytest.MonkeyPatch, production: scan.Index
) -> None:
    # Without the Movement step nothing sets pike and shot's "Defending linear obstacle": the
    # scan names it, and a declared ruling then excuses it.
    setter = "rules_core.rulesets.pike_and_shot.movement"
    kept = scan.Index.of([s for s in production.sources if s.module != setter])
    ident = "status.defending_obstacle"
    assert ident in offenders(kept, "pike_and_shot")
    assert ident not in offenders(production, "pike_and_shot")
    package = importlib.import_module("rules_core.rulesets.pike_and_shot")
    monkeypatch.setattr(package, "GM_RULINGS", {ident: "README.md#x"}, raising=False)
    assert ident not in offenders(kept, "pike_and_shot")
