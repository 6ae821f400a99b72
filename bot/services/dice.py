"""Ad-hoc dice rolls for `/roll`."""

from __future__ import annotations

import random

from bot.errors import InvalidInput
from rules_core.dice import Dice, Roll
from rules_core.dice_expr import DiceExpressionError, roll_expression


class DiceService:
    """Rolls typed expressions with one injected random generator."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self._dice = Dice(rng if rng is not None else random.Random())

    def roll(self, expression: str, label: str = "Roll") -> Roll:
        """Roll an expression such as ``2d6`` or ``6d6>=4``; malformed ones raise InvalidInput."""
        try:
            return roll_expression(self._dice, expression, label)
        except DiceExpressionError as error:
            raise InvalidInput(f"Cannot roll `{expression}`: {error}") from None
