"""A standing instruction's answer to a private question stays private (``parley``)."""

from __future__ import annotations

from rules_core import engine
from rules_core.cards import CONCEALED
from rules_core.decisions import Answer
from rules_core.engine import Resolution
from rules_core.plugin import Rules
from rules_core.render import Renderer
from rules_core.secrets import view_record
from rules_core.standing import STANDING_REASON
from tests.rules_core.test_secrets import BLUE, SEED, new_battle, record_of


def test_a_standing_answer_to_a_private_question_conceals_its_reason(parley: Rules) -> None:
    first = new_battle(parley)
    result = engine.settle(parley, SEED, Resolution(first, (), ()))
    while result.state.pending is None:
        result = result.then(engine.run(parley, SEED, result.state, []))
    why = f"{STANDING_REASON}: swap it for a draw (keep or swap)"
    while result.state.pending is not None:
        decision = result.state.pending.decision
        choice, reason = ("swap", why) if decision.who == "red" else ("keep", "")
        given = Answer(decision.id, choice, decision.who, reason)
        result = result.then(engine.answer(parley, SEED, result.state, given))
    public = Renderer.for_state(first).lines(result.events)
    assert "Red answered" in public and not any(STANDING_REASON in line for line in public)
    shown = view_record(record_of(first, result, reveal=False), BLUE, open_step=False)
    answers = [e["answer"] for e in shown["entries"] if e.get("answer")]
    red = [a for a in answers if a["by"] == "red"]
    assert red and all(a["choice"] == CONCEALED and "swap" not in a["reason"] for a in red)
