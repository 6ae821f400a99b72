"""A ruleset written from scratch in a temporary folder plays through the services and the map.

The package below is all a new ruleset needs: nothing outside it is edited, and the registry
finds it through ``AIDE_RULESETS``. If adding a ruleset ever needs an edit elsewhere, this
test is the one that fails.
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.errors import InvalidInput
from bot.rendering.render import render_map
from bot.rendering.scene import build_scene
from bot.services import Services
from bot.services.campaigns import Place
from bot.services.play import OrderInput
from rules_core import registry
from tests.conftest import ALICE, BOB, GM

PACKAGE = "toy_war"
FILES = {
    "__init__.py": '''
        """Toy War: a throwaway ruleset the tests write to prove a package is all it takes."""

        from rules_core.registry import Ruleset
        from rules_core.roster import Field, RosterSchema
        from rules_core.rulesets.toy_war.rules import ToyRules

        SCHEMA = RosterSchema((Field("name", str, required=True), Field("type")))
        RULESET = Ruleset("toy_war", "Toy War", "inch", SCHEMA, rules=ToyRules(), listed=False)
    ''',
    "status.py": '''
        """Toy War's one status: a unit that has advanced is brave."""

        from rules_core.status import Badge, Flag, sheet

        BRAVE = Flag("brave", "brave", Badge("tag", "BRAVE", "good"))
        STATUS = sheet(BRAVE)
    ''',
    "rules.py": '''
        """Toy War: deploy on the flanks, then every turn each side advances its units."""

        from rules_core.orders import Order, OrderKind, Param, Preview, point_param
        from rules_core.plugin import Parameter, Rules
        from rules_core.rulesets.toy_war.status import STATUS
        from rules_core.steps import Actors, SequenceOfPlay, Step
        from rules_core.toolkit import checked_orders, turn_limit_outcome

        SEQUENCE = SequenceOfPlay(
            (
                Step("deploy", "Deployment", Actors.BOTH, "deploy", None, ("place",)),
                Step("advance", "Advance", Actors.BOTH, "advance", None, ("advance", "hold")),
            ),
            first="advance",
            setup="deploy",
        )
        ARMIES = (
            {"name": "Red Band", "units": [{"name": "Red Pikes", "type": "foot"}]},
            {"name": "Blue Band", "units": [{"name": "Blue Axes", "type": "foot"}]},
        )


        class ToyRules(Rules):
            sequence = SEQUENCE
            order_kinds = (
                OrderKind("place", "Deploy", params=(Param("at", "point"),)),
                OrderKind("advance", "Advance", params=(Param("to", "point"),)),
                OrderKind("hold", "Hold"),
            )
            parameters = (Parameter("max_turns", 3, "turns before a draw"),)
            statuses = STATUS

            def deployment_zone(self, state, side):
                """Each side deploys along its own flank, 10 inches deep."""
                width, depth = state.battlefield.width, state.battlefield.depth
                low = 0.0 if side == state.sides[0].id else width - 10
                return ((low, 0.0), (low + 10, 0.0), (low + 10, depth), (low, depth))

            def preview(self, state, order):
                return Preview(order, f"{order.kind}s")

            def sample_armies(self):
                return ARMIES

            def resolve_deploy(self, ctx):
                for order in checked_orders(ctx, ("place",)):
                    unit = ctx.state.unit(order.actor)
                    ctx.move(unit.id, [(unit.x, unit.y), point_param(order, "at")], unit.facing)

            def resolve_advance(self, ctx):
                for order in checked_orders(ctx, ("advance",)):
                    unit = ctx.state.unit(order.actor)
                    ctx.move(unit.id, [(unit.x, unit.y), point_param(order, "to")], unit.facing)
                    ctx.set_status(unit.id, "it advanced", brave=True)

            def outcome(self, state):
                return super().outcome(state) or turn_limit_outcome(self, state)
    ''',
}


@pytest.fixture
def toy_war(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The package written to a temporary folder and named in ``AIDE_RULESETS``; forgotten after."""
    import rules_core.rulesets as package

    folder = tmp_path / "rulesets"
    (folder / PACKAGE).mkdir(parents=True)
    for name, text in FILES.items():
        (folder / PACKAGE / name).write_text(textwrap.dedent(text).lstrip())
    saved_path, saved_entries = list(package.__path__), dict(registry._REGISTRY)
    monkeypatch.setenv(registry.EXTRA_FOLDERS, str(folder))
    yield folder
    package.__path__[:] = saved_path
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved_entries)
    for module in [m for m in sys.modules if m.startswith(f"rules_core.rulesets.{PACKAGE}")]:
        del sys.modules[module]


async def test_a_ruleset_package_in_another_folder_is_found(toy_war: Path) -> None:
    found = registry.get(PACKAGE)
    assert found.name == "Toy War" and found.rules is not None
    assert PACKAGE not in [r.id for r in registry.all_rulesets()]  # unlisted, as it asks


async def test_a_new_ruleset_plays_through_the_services_and_the_map(
    toy_war: Path, services: Services, place: Place
) -> None:
    rules = registry.get(PACKAGE).rules
    assert rules is not None
    red, blue = rules.sample_armies()
    await services.campaigns.create(place, GM, "Toy campaign", PACKAGE)
    await services.campaigns.join(place, ALICE, "Red")
    await services.campaigns.join(place, BOB, "Blue")
    await services.armies.import_roster(place, ALICE, json.dumps(red).encode(), "red.json")
    await services.armies.import_roster(place, BOB, json.dumps(blue).encode(), "blue.json")
    await services.battles.create(place, GM, "Skirmish at the toy box", ["Red Band", "Blue Band"])

    # The ruleset's own zones decide: the default band along the south edge would refuse this.
    await services.battles.deploy(place, ALICE, "Red Pikes", "5,18", 90)
    with pytest.raises(
        InvalidInput, match=r"inside Blue's deployment zone \(x from 38 to 48 inch, the east edge\)"
    ):
        await services.battles.deploy(place, BOB, "Blue Axes", "5,30", 270)
    await services.battles.deploy(place, BOB, "Blue Axes", "43,18", 270)

    await services.play.start(place, GM)
    await services.play.confirm(place, ALICE)
    deployed = (await services.play.confirm(place, BOB)).report
    assert deployed is not None and deployed.battle.waiting_step == "Advance"

    order = await services.play.submit(place, ALICE, "advance", "Red Pikes", OrderInput(x=15, y=18))
    assert order.summary == "advances"
    await services.play.confirm(place, ALICE)
    advanced = (await services.play.confirm(place, BOB)).report
    assert advanced is not None
    state = advanced.battle.state
    pikes = next(unit for unit in state.units if unit.name == "Red Pikes")
    assert (pikes.x, pikes.y) == (15, 18) and pikes.status["brave"] is True

    scene = build_scene(state, (), None, None)
    assert pikes in scene.units
    drawn = render_map(state)
    assert drawn.startswith(b"\x89PNG") and drawn != render_map(state.without_unit(pikes.id))
