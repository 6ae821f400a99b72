"""The retained cards of the god pack: the Seven's re-roll and the Five's skilled archer.

A Five or a Seven drawn at Invoke the Gods stays in the side's hand until it is played. Every
phase that throws dice offers them to the Seven (``reroll``) and the Leadership step plays the
Five (``play_five``); they sit below the gods, leadership and personal combat so that each of
those reads the hand without importing the others.
"""

from __future__ import annotations

from rules_core.cards import Card
from rules_core.context import Context
from rules_core.decisions import Decision, Option
from rules_core.dice import AVD_FACES, Roll
from rules_core.events import Event, log_length
from rules_core.state import BattleState

DECK = "gods"
SEVEN = "seven"
SEVEN_WORDS = {"keep": "keep the Seven", "use": "play the Seven to re-roll these dice"}
COUNTS_KEPT = 4  # steps' event lists whose count is kept (a step at a time is resolved)
# id of a step's event list -> (the list, events counted so far, those not silent)
_COUNTED: dict[int, tuple[list[Event], int, int]] = {}


def log_count(events: list[Event]) -> int:
    """``log_length(events)`` of a step's event list, which only ever grows (``Context.emit``
    appends): counted on from where the last call stopped, not afresh, since every set of
    dice thrown asks it and a big battle's step logs thousands of events."""
    kept = _COUNTED.get(id(events))
    seen, count = (0, 0) if kept is None or len(events) < kept[1] else kept[1:]
    count += log_length(events[seen:])
    if kept is None and len(_COUNTED) >= COUNTS_KEPT:
        _COUNTED.clear()
    _COUNTED[id(events)] = (events, len(events), count)  # the list held, its id stays its own
    return count


def held(state: BattleState, side: str, rank: str) -> list[str]:
    """The codes of the cards of ``rank`` a side keeps back in its hand of the god pack."""
    deck = next((d for d in state.decks if d.id == DECK), None)
    if deck is None:
        return []
    return [code for code in deck.hand(side) if code != "?" and Card.from_code(code).rank == rank]


def average(roll: Roll) -> float:
    """What a roll's dice score on average (a pool: its expected successes)."""
    kind = roll.dice[0].kind
    faces = AVD_FACES if kind == "AvD" else tuple(range(1, int(kind[1:]) + 1))
    n = len(roll.dice)
    bonus = sum(m.value for m in roll.modifiers)
    if roll.mode == "pool" and roll.target is not None:
        return n * sum(1 for f in faces if f >= roll.target) / len(faces) + bonus
    if roll.mode == "max":
        return max(faces) + bonus  # never below the highest: play it when it is not the top
    return n * sum(faces) / len(faces) + bonus


def reroll(ctx: Context, side: str, description: str, result: Roll) -> Roll:
    """The Seven: a side holding one may play it to re-roll a set of dice it threw (all the
    dice of ``result``). Asked privately (topic ``seven``); returns the roll to use."""
    sevens = held(ctx.state, side, "7")
    if not sevens or any(die.rerolled for die in result.dice):
        return result
    mean = round(average(result), 2)
    count = log_count(ctx.events)
    asked = Decision(
        f"seven:{side}:{count}:{result.total}:{mean}",
        f"Fortune smiles: play your Seven to re-roll {description}? ({result.describe()})",
        tuple(Option(k, v) for k, v in SEVEN_WORDS.items()),
        "keep",
        side,
        topic=SEVEN,
        private=True,
        deadline_hours=ctx.number("seven_hours"),
    )
    if ctx.ask(asked) != "use":
        return result
    cards = ctx.cards(DECK)
    cards.play(side, sevens[0])
    cards.discard(None, sevens[0])
    return ctx.dice.reroll(result, range(len(result.dice)), f"{result.label} (the Seven)")


def play_five(ctx: Context, side: str, unit_id: str) -> bool:
    """The Five: the side plays it face up and one of its units has a skilled archer (one
    stand's dice doubled in the missile exchange). False if it holds no Five."""
    fives = held(ctx.state, side, "5")
    if not fives or unit_id not in {u.id for u in ctx.state.units_of(side)}:
        return False
    cards = ctx.cards(DECK)
    cards.play(side, fives[0])
    cards.discard(None, fives[0])
    ctx.set_status(
        unit_id, f"Skilled archer revealed ({Card.from_code(fives[0])})", skilled_archer=True
    )
    return True
