"""A ruleset without default orders is spared the engine's look at every actor's default."""

from __future__ import annotations

from rules_core import engine
from rules_core.orders import Order
from rules_core.rulesets.impetus.rules import ImpetusRules
from rules_core.rulesets.skirmish.rules import SkirmishRules
from rules_core.rulesets.skirmish.sample import sample_battle
from rules_core.state import BattleState


def test_only_a_ruleset_or_instance_with_a_default_hook_gives_defaults() -> None:
    assert not engine.gives_defaults(ImpetusRules())
    assert engine.gives_defaults(SkirmishRules())
    hooked = ImpetusRules()
    hooked.default_order = lambda state, actor: None  # type: ignore[method-assign]
    assert engine.gives_defaults(hooked)


def test_a_default_hook_set_on_the_instance_is_still_followed() -> None:
    rules = SkirmishRules()
    state = engine.begin(rules, sample_battle())
    asked: list[str] = []

    def hook(at: BattleState, actor: str) -> Order | None:
        asked.append(actor)
        return None

    rules.default_order = hook  # type: ignore[method-assign, assignment]
    assert engine._defaults(rules, state, []) == []
    assert asked, "the instance's hook was never asked"
