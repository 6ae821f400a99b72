"""Every ruleset's log words a melee from the winner's side (#33 item 5).

Each ruleset's sample battle is played with its seeded dice (the golden battle); the first
melee it decides is read: the line naming the result names the winner as winner with the
scores the dice gave, and no line of any decided melee says its winner was beaten or lost.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rules_core.events import Event, MeleeFought, MeleeResolved, StepBegan
from rules_core.render import Renderer
from tests.rendering.demo_steps import PLAYS
from tests.rules_core.scripted import Played

LOSER_WORDS = ("beaten", "lost the melee", "lost the combat", "loses the melee")


# The first decided melee of each golden battle: winner, loser, and the line that says so.
FIRST: dict[str, tuple[str, str, str]] = {
    "skirmish": (
        "Red Horse",
        "Blue Riders",
        "Blue Riders is destroyed: beaten in melee by Red Horse, 2 hits to 1",
    ),
    "hail_caesar": (
        "Noble Horse",
        "Numidians",
        "Break test: Numidians (lost the combat): 2D6 (2, 1) -2 lost by 2 = 1",
    ),
    "heroic_age": (
        "Ubba's Hird",
        "Somerset Fyrd",
        "Combat result (charge combat: 6 hits to 2) for The Danes: 4 → 2-4: +2/4 Success: "
        "Raise one aggression level, pursue/follow-up",
    ),
    "impetus": (
        "Noble Cavalry",
        "Gallic Horse",
        "melee result for Noble Cavalry: 1 → Noble Cavalry lost 0 VBU, Gallic Horse lost 1 VBU: "
        "Noble Cavalry wins",
    ),
    "pike_and_shot": (
        "Wilmot's Horse",
        "Ramsay's Horse",
        "Melee result (Wilmot's Horse 1 unsaved hits, Ramsay's Horse 0) for Wilmot's Horse: "
        "1 → 1: Scores differ by one hit = Recoil.",
    ),
    "tree_of_battles": (
        "Genoese Crossbowmen",
        "Camoys' Rearward",
        "Combat result against Camoys' Rearward (difference) for Genoese Crossbowmen: 3 → "
        "2-4: +2/4 Success. 1 DP",
    ),
}


def decided(events: Sequence[Event]) -> list[tuple[MeleeResolved, list[Event]]]:
    """Each decided melee with the events after it, up to the next fight or step."""
    found: list[tuple[MeleeResolved, list[Event]]] = []
    for index, event in enumerate(events):
        if not (isinstance(event, MeleeResolved) and event.winner and event.loser):
            continue
        after = []
        for later in events[index + 1 :]:
            if isinstance(later, MeleeFought | StepBegan):
                break
            after.append(later)
        found.append((event, [event, *after]))
    return found


@pytest.mark.parametrize("ruleset", sorted(PLAYS))
def test_a_decided_melee_names_its_winner_as_winner(ruleset: str) -> None:
    played = PLAYS[ruleset]()
    assert isinstance(played, Played)
    r = Renderer.for_state(played.first)
    melees = decided(played.result.events)
    assert melees, f"the {ruleset} golden battle decides no melee"
    first, _ = melees[0]
    winner, loser, line = FIRST[ruleset]
    assert (r.name(first.winner or ""), r.name(first.loser or "")) == (winner, loser)
    whole = [line for e in played.result.events if (line := r.line(e))]
    assert line in whole
    for melee, events in melees:
        won, lost = r.name(melee.winner or ""), r.name(melee.loser or "")
        for said in filter(None, map(r.line, events)):
            subject = said.split(":")[0].split(" (")[0]
            wrong = subject.startswith(won) and any(w in said for w in LOSER_WORDS)
            assert not wrong, f"{won} won, yet: {said}"
            assert f"beaten in melee by {lost}" not in said, said
