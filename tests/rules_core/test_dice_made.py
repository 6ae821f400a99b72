"""Rolls made by ``Dice`` skip the record checks (they are consistent as made): every one is
still a record the checks accept, drawn face by face as ``Dice.face`` draws."""

from __future__ import annotations

import random

import pytest

from rules_core.dice import Dice, Modifier, Purpose, Roll

KINDS = ("D6", "AvD", "D10", "D3")


def _made(dice: Dice, rng: random.Random) -> Roll:
    """A roll of a random shape: every mode, keeping, dice modifiers, a purpose or none."""
    kind = rng.choice(KINDS)
    n = rng.randint(1, 6)
    mods = tuple(Modifier(rng.randint(-2, 2), rng.choice(["", "uphill"])) for _ in range(2))
    more = (Modifier(rng.randint(-1, 2), "charging"),) if rng.random() < 0.4 else ()
    purpose = Purpose("u1", "melee", "u2") if rng.random() < 0.5 else None
    shape = rng.choice(["sum", "max", "pool", "keep"])
    if shape == "pool" and kind in ("D6", "D10"):
        return dice.roll("Pool", n, kind, mode="pool", target=4, modifiers=mods, purpose=purpose)
    if shape == "max":
        return dice.roll("Fast", n, kind, mode="max", modifiers=mods, dice_modifiers=more)
    if shape == "keep":
        keep, low = rng.randint(1, n), rng.random() < 0.5
        return dice.roll("Best", n, kind, keep=keep, keep_lowest=low, modifiers=mods)
    return dice.roll("Sum", n, kind, modifiers=mods, dice_modifiers=more, purpose=purpose)


@pytest.mark.parametrize("seed", range(3))
def test_made_rolls_are_records_the_checks_accept(seed: int) -> None:
    rng, heard = random.Random(seed), []
    dice = Dice(random.Random(seed), heard.append)
    made = []
    for _ in range(300):
        roll = _made(dice, rng)
        if rng.random() < 0.3:
            roll = dice.reroll(roll, [0], purpose=Purpose("u3", "again"))
        made.append(roll)
        assert Roll.from_dict(roll.to_dict()) == roll  # rebuilt through every check
        assert all(type(die.previous) is tuple for die in roll.dice)
    assert heard[-1] is made[-1]


def test_dice_are_drawn_as_face_draws_them() -> None:
    rolled = Dice(random.Random(7)).roll("Test", 5, "AvD").faces
    one_by_one = Dice(random.Random(7))
    assert rolled == tuple(one_by_one.face("AvD") for _ in range(5))
    rolled = Dice(random.Random(8)).roll("Test", 4, "D10", keep=2).faces
    one_by_one = Dice(random.Random(8))
    assert rolled == tuple(one_by_one.face("D10") for _ in range(4))


def test_what_a_roll_is_given_is_still_checked() -> None:
    dice = Dice(random.Random(1))
    with pytest.raises(ValueError, match="Modifier records"):
        dice.roll("Test", 2, modifiers=(1,))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Modifier records"):
        dice.roll("Test", 2, dice_modifiers=("more",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Purpose record"):
        dice.roll("Test", 2, purpose="me")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="keep_lowest"):
        dice.roll("Test", 2, keep=1, keep_lowest=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Purpose record"):
        dice.reroll(dice.d6("Test"), [0], purpose="me")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="label"):
        dice.roll(" ", 2)
