"""Tests for rules_core.dice and rules_core.dice_expr (cards: test_cards.py)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_core.dice import AVD_FACES, Dice, Die, Modifier, Roll, keep_flags
from rules_core.dice_expr import (
    DiceExpression,
    DiceExpressionError,
    parse_expression,
    roll_expression,
)

SEED = 20240601


def d6_faces(rng: random.Random, n: int) -> list[int]:
    """The D6 faces a Dice on a same-seeded rng should produce."""
    return [rng.randint(1, 6) for _ in range(n)]


def avd_faces(rng: random.Random, n: int) -> list[int]:
    """The AvD faces a Dice on a same-seeded rng should produce."""
    return [rng.choice(AVD_FACES) for _ in range(n)]


def make_pair(seed: int = SEED) -> tuple[Dice, random.Random]:
    """A Dice and a parallel rng with the same seed."""
    return Dice(random.Random(seed)), random.Random(seed)


# --- kinds of dice -----------------------------------------------------------------------


def test_avd_faces_and_frequencies() -> None:
    dice = Dice(random.Random(SEED))
    faces = [face for _ in range(600) for face in dice.avd("AvD test", 100).faces]
    counts = Counter(faces)
    assert len(faces) == 60_000
    assert set(counts) == {2, 3, 4, 5}
    for face, share in ((2, 1 / 6), (3, 1 / 3), (4, 1 / 3), (5, 1 / 6)):
        assert abs(counts[face] / len(faces) - share) < 0.01, (face, counts)
    assert 1.8 < counts[3] / counts[2] < 2.2
    assert 1.8 < counts[4] / counts[5] < 2.2


def test_avd_matches_parallel_rng() -> None:
    dice, ref = make_pair()
    roll = dice.avd("Move", 3)
    expected = avd_faces(ref, 3)
    assert list(roll.faces) == expected
    assert roll.total == sum(expected)
    assert roll.expression == "3AvD"
    assert all(die.kind == "AvD" for die in roll.dice)
    assert dice.avd("Move").expression == "AvD"


def test_d6_range_covers_all_faces() -> None:
    dice = Dice(random.Random(SEED))
    faces = [dice.d6("Range").total for _ in range(6000)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_d6_with_modifiers() -> None:
    dice, ref = make_pair()
    mods = (Modifier(1, "chivalrous"), Modifier(-1, "D grade"), Modifier(2, "general"))
    roll = dice.d6("Control test", mods)
    (face,) = d6_faces(ref, 1)
    assert roll.faces == (face,)
    assert roll.total == face + 2
    assert roll.modifiers == mods
    assert roll.expression == "D6"
    assert roll.label == "Control test"
    assert roll.target is None and roll.successes is None


def test_nd6_and_two_d6() -> None:
    dice, ref = make_pair()
    five = dice.nd6("Artillery", 5)
    two = dice.two_d6("Morale", [Modifier(-2, "shaken")])
    assert list(five.faces) == d6_faces(ref, 5)
    assert five.total == sum(five.faces) and five.expression == "5D6"
    assert list(two.faces) == d6_faces(ref, 2)
    assert two.total == sum(two.faces) - 2 and two.expression == "2D6"


@pytest.mark.parametrize("kind", ["D6", "AvD"])
def test_max_dice_takes_highest(kind: str) -> None:
    for seed in range(50):
        dice, ref = make_pair(seed)
        roll = dice.max_dice("Fast move", 3, kind, [Modifier(1, "road")])
        expected = d6_faces(ref, 3) if kind == "D6" else avd_faces(ref, 3)
        assert list(roll.faces) == expected
        assert roll.total == max(expected) + 1
        assert roll.mode == "max" and roll.expression == f"3{kind} max"
        assert all(die.kept for die in roll.dice)


def test_pool_counts_successes() -> None:
    for seed in range(50):
        dice, ref = make_pair(seed)
        roll = dice.pool("Shooting", 6, 4)
        faces = d6_faces(ref, 6)
        hits = sum(1 for face in faces if face >= 4)
        assert list(roll.faces) == faces
        assert roll.successes == hits and roll.total == hits
        assert roll.target == 4 and roll.expression == "6D6>=4"


def test_pool_modifiers_adjust_total_not_below_zero() -> None:
    dice = Dice(random.Random(SEED))
    roll = dice.pool("Shooting", 3, 6, [Modifier(-5, "cover")])
    assert roll.successes is not None and roll.successes <= 3
    assert roll.total == 0
    bonus = dice.pool("Shooting", 3, 1, [Modifier(1, "elite")])
    assert bonus.successes == 3 and bonus.total == 4


def test_keep_highest_drops_lowest_with_record() -> None:
    for seed in range(50):
        dice, ref = make_pair(seed)
        roll = dice.keep_highest("Move", 4, 3)
        faces = d6_faces(ref, 4)
        assert list(roll.faces) == faces
        assert len(roll.dice) == 4
        assert sorted(roll.kept_faces) == sorted(faces)[1:]
        dropped = [die for die in roll.dice if not die.kept]
        assert len(dropped) == 1 and dropped[0].face == min(faces)
        assert roll.total == sum(sorted(faces)[1:])
        assert roll.expression == "4D6kh3" and roll.keep == 3


def test_keep_lowest_drops_highest() -> None:
    for seed in range(50):
        dice, ref = make_pair(seed)
        roll = dice.keep_lowest("Disadvantage", 3, 1, [Modifier(1)])
        faces = d6_faces(ref, 3)
        assert roll.kept_faces == (min(faces),)
        assert roll.total == min(faces) + 1
        assert roll.expression == "3D6kl1" and roll.keep_lowest


def test_keep_flags_ties_keep_earlier_dice() -> None:
    assert keep_flags([3, 4, 3], 2) == (True, True, False)
    assert keep_flags([3, 4, 3], 2, lowest=True) == (True, False, True)
    assert keep_flags([1, 2], None) == (True, True)


# --- re-rolls ----------------------------------------------------------------------------


def test_reroll_changes_only_chosen_dice_and_keeps_history() -> None:
    dice, ref = make_pair()
    original = dice.nd6("Charge", 5, [Modifier(1, "impetus")])
    first = d6_faces(ref, 5)
    rerolled = dice.reroll(original, [3, 1])
    new = d6_faces(ref, 2)  # re-rolled in index order: 1 then 3
    expected = list(first)
    expected[1], expected[3] = new
    assert list(rerolled.faces) == expected
    assert rerolled.dice[1].previous == (first[1],) and rerolled.dice[1].rerolled
    assert rerolled.dice[3].previous == (first[3],)
    for i in (0, 2, 4):
        assert rerolled.dice[i] == original.dice[i] and not rerolled.dice[i].rerolled
    assert rerolled.total == sum(expected) + 1
    assert rerolled.label == "Charge" and rerolled.modifiers == original.modifiers
    assert list(original.faces) == first  # the original record is untouched


def test_reroll_twice_and_new_label() -> None:
    dice, ref = make_pair()
    roll = dice.d6("Rally")
    again = dice.reroll(dice.reroll(roll, [0]), [0], label="Rally (re-roll)")
    faces = d6_faces(ref, 3)
    assert again.dice[0].previous == (faces[0], faces[1])
    assert again.faces == (faces[2],)
    assert again.label == "Rally (re-roll)"


def test_reroll_recomputes_keep_and_pool() -> None:
    for seed in range(30):
        dice, ref = make_pair(seed)
        kh = dice.reroll(dice.keep_highest("Move", 4, 3), [0])
        pool = dice.reroll(dice.pool("Shooting", 4, 5), [0, 1, 2, 3])
        faces = d6_faces(ref, 4)
        faces[0] = d6_faces(ref, 1)[0]
        assert kh.total == sum(sorted(faces)[1:])
        assert sorted(kh.kept_faces) == sorted(faces)[1:]
        d6_faces(ref, 4)  # the pool's first faces, all re-rolled below
        pool_faces = d6_faces(ref, 4)
        assert list(pool.faces) == pool_faces
        assert pool.successes == sum(1 for face in pool_faces if face >= 5)


@pytest.mark.parametrize(
    ("indexes", "message"),
    [([], "at least one"), ([2], "between 0 and 1"), ([-1], "between 0 and 1"), ([0, 0], "once")],
)
def test_reroll_rejects_bad_indexes(indexes: list[int], message: str) -> None:
    dice = Dice(random.Random(SEED))
    roll = dice.two_d6("Test")
    with pytest.raises(ValueError, match=message):
        dice.reroll(roll, indexes)


# --- argument checks ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda d: d.nd6("Test", 0), "between 1 and 100"),
        (lambda d: d.nd6("Test", 101), "between 1 and 100"),
        (lambda d: d.avd("Test", -1), "between 1 and 100"),
        (lambda d: d.pool("Test", 6, 7), "target must be between 1 and 6"),
        (lambda d: d.pool("Test", 6, 0), "target must be between 1 and 6"),
        (lambda d: d.keep_highest("Test", 3, 4), "keep between 1 and 3"),
        (lambda d: d.keep_lowest("Test", 3, 0), "keep between 1 and 3"),
        (lambda d: d.max_dice("Test", 2, "D20"), "D6 or AvD"),
        (lambda d: d.d6(""), "label"),
        (lambda d: d.d6("   "), "label"),
        (lambda d: d.roll("Test", 2, "D1"), "unknown die kind"),
        (lambda d: d.roll("Test", 2, mode="pool"), "target is required"),
        (lambda d: d.roll("Test", 2, mode="best"), "mode must be one of"),
    ],
)
def test_invalid_arguments_raise_value_error(call: object, message: str) -> None:
    dice = Dice(random.Random(SEED))
    with pytest.raises(ValueError, match=message):
        call(dice)  # type: ignore[operator]


def test_invalid_arguments_do_not_consume_randomness() -> None:
    dice, ref = make_pair()
    with pytest.raises(ValueError):
        dice.keep_highest("Test", 3, 4)
    assert dice.d6("After").faces == tuple(d6_faces(ref, 1))


def test_dice_needs_a_random_instance() -> None:
    with pytest.raises(TypeError):
        Dice(random)  # type: ignore[arg-type]


def test_never_uses_global_random(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("the global random module was used")

    names = ["random", "randint", "choice", "choices", "randrange", "shuffle", "sample"]
    for name in [*names, "uniform", "getrandbits", "seed"]:
        monkeypatch.setattr(random, name, forbidden)
    dice = Dice(random.Random(SEED))
    rolls = [
        dice.d6("a"),
        dice.nd6("b", 3),
        dice.two_d6("c"),
        dice.avd("d", 2),
        dice.max_dice("e", 2),
        dice.max_dice("f", 2, "AvD"),
        dice.pool("g", 6, 4),
        dice.keep_highest("h", 4, 3),
        dice.keep_lowest("i", 4, 1),
        roll_expression(dice, "d20+3"),
    ]
    rolls.append(dice.reroll(rolls[2], [0]))
    assert all(isinstance(roll, Roll) for roll in rolls)


# --- describe ----------------------------------------------------------------------------


def d6s(*faces: int) -> tuple[Die, ...]:
    """Kept D6 records with these faces."""
    return tuple(Die("D6", face) for face in faces)


def test_describe_plain_with_modifiers() -> None:
    mods = (Modifier(1, "chivalrous"), Modifier(-1, "D grade"))
    roll = Roll("Control test", "D6", d6s(3), mods, total=3)
    assert roll.describe() == "Control test: D6 (3) +1 chivalrous -1 D grade = 3"


def test_describe_pool() -> None:
    roll = Roll("Shooting", "6D6>=4", d6s(1, 4, 2, 6, 5, 3), (), 3, 4, 3, "pool")
    assert roll.describe() == "Shooting: 6D6>=4 (1, **4**, 2, **6**, **5**, 3) = 3 successes"
    one = Roll("Shooting", "2D6>=5", d6s(5, 2), (), 1, 5, 1, "pool")
    assert one.describe() == "Shooting: 2D6>=5 (**5**, 2) = 1 success"


def test_describe_keep_highest() -> None:
    dice = (*d6s(4, 4, 6), Die("D6", 3, kept=False))
    roll = Roll("Move", "4D6kh3", dice, (), 14, keep=3)
    assert roll.describe() == "Move: 4D6kh3 (4, 4, 6, ~~3~~) = 14"


def test_describe_keep_lowest_with_plain_modifier() -> None:
    dice = (Die("D6", 5, kept=False), Die("D6", 2))
    roll = Roll("Luck", "2D6kl1", dice, (Modifier(1),), 3, keep=1, keep_lowest=True)
    assert roll.describe() == "Luck: 2D6kl1 (~~5~~, 2) +1 = 3"


def test_describe_reroll() -> None:
    dice = (Die("D6", 5, previous=(2,)), Die("D6", 4), Die("D6", 6, previous=(1, 3)))
    roll = Roll("Rally", "3D6", dice, (), 15)
    assert roll.describe() == "Rally: 3D6 (~~2~~→5, 4, ~~1~~→~~3~~→6) = 15"


def test_describe_max_and_avd() -> None:
    dice = (Die("AvD", 3), Die("AvD", 5))
    fast = Roll("Fast move", "2AvD max", dice, (Modifier(-1, "rough"),), 4, mode="max")
    assert fast.describe() == "Fast move: 2AvD max (3, 5) -1 rough = 4"
    avd = Roll("Move", "3AvD", (Die("AvD", 2), Die("AvD", 4), Die("AvD", 4)), (), 10)
    assert avd.describe() == "Move: 3AvD (2, 4, 4) = 10"


def test_describe_of_real_roll_mentions_everything() -> None:
    dice, ref = make_pair()
    roll = dice.pool("Shooting", 3, 4, [Modifier(1, "elite")])
    faces = d6_faces(ref, 3)
    shown = ", ".join(f"**{face}**" if face >= 4 else str(face) for face in faces)
    hits = sum(1 for face in faces if face >= 4) + 1
    noun = "success" if hits == 1 else "successes"
    assert roll.describe() == f"Shooting: 3D6>=4 ({shown}) +1 elite = {hits} {noun}"


# --- records -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"total": 4}, "do not match"),
        ({"dice": (Die("D6", 3, kept=False),)}, "kept dice"),
        ({"label": ""}, "label"),
        ({"dice": ()}, "at least one Die"),
        ({"mode": "pool"}, "target is required"),
        ({"target": 3}, "target is required"),
        ({"keep": 2}, "keep must be between 1 and 1"),
    ],
)
def test_roll_rejects_inconsistent_records(kwargs: dict[str, object], message: str) -> None:
    fields: dict[str, object] = {"label": "Test", "expression": "D6", "dice": d6s(3), "total": 3}
    fields.update(kwargs)
    with pytest.raises(ValueError, match=message):
        Roll(**fields)  # type: ignore[arg-type]


def test_die_rejects_impossible_faces() -> None:
    with pytest.raises(ValueError, match="not a face"):
        Die("D6", 7)
    with pytest.raises(ValueError, match="not a face"):
        Die("AvD", 1)
    with pytest.raises(ValueError, match="not a face"):
        Die("D6", 3, previous=(0,))
    with pytest.raises(ValueError, match="unknown die kind"):
        Die("D101", 3)


def test_modifier_needs_integer() -> None:
    with pytest.raises(ValueError, match="integer"):
        Modifier(1.5, "half")  # type: ignore[arg-type]
    assert Modifier(0, "none").describe() == "+0 none"


@st.composite
def rolls(draw: st.DrawFn) -> Roll:
    """Rolls of every kind made by a seeded Dice, sometimes re-rolled."""
    dice = Dice(random.Random(draw(st.integers(0, 2**32))))
    n = draw(st.integers(1, 8))
    label = draw(st.text(min_size=1).filter(str.strip))
    mods = draw(st.lists(st.builds(Modifier, st.integers(-9, 9), st.text(max_size=10))))
    kind = draw(st.sampled_from(["d6", "avd", "max", "pool", "kh", "kl", "expr"]))
    keep = draw(st.integers(1, n))
    roll = {
        "d6": lambda: dice.nd6(label, n, mods),
        "avd": lambda: dice.avd(label, n, mods),
        "max": lambda: dice.max_dice(label, n, draw(st.sampled_from(["D6", "AvD"])), mods),
        "pool": lambda: dice.pool(label, n, draw(st.integers(1, 6)), mods),
        "kh": lambda: dice.keep_highest(label, n, keep, mods),
        "kl": lambda: dice.keep_lowest(label, n, keep, mods),
        "expr": lambda: roll_expression(dice, f"{n}d20kh{keep}+3", label),
    }[kind]()
    indexes = draw(st.sets(st.integers(0, n - 1), max_size=n))
    return dice.reroll(roll, sorted(indexes)) if indexes else roll


@settings(max_examples=200)
@given(rolls())
def test_roll_round_trips_through_json(roll: Roll) -> None:
    data = json.loads(json.dumps(roll.to_dict()))
    restored = Roll.from_dict(data)
    assert restored == roll
    assert restored.describe() == roll.describe()


def test_from_dict_detects_tampering() -> None:
    roll = Dice(random.Random(SEED)).pool("Shooting", 6, 4)
    data = roll.to_dict()
    data["total"] = 7
    with pytest.raises(ValueError, match="do not match"):
        Roll.from_dict(data)
    dice_list = roll.to_dict()["dice"]
    assert isinstance(dice_list, list)
    dice_list[0]["face"] = 9
    with pytest.raises(ValueError, match="not a face"):
        Roll.from_dict({**roll.to_dict(), "dice": dice_list})
    with pytest.raises(ValueError, match="'label'"):
        Roll.from_dict({k: v for k, v in roll.to_dict().items() if k != "label"})
    with pytest.raises(ValueError, match="'total'"):
        Roll.from_dict({**roll.to_dict(), "total": True})


# --- expressions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected", "canonical"),
    [
        ("2d6", DiceExpression(2, "D6"), "2D6"),
        ("d6+1", DiceExpression(1, "D6", modifiers=(1,)), "D6+1"),
        ("3avd", DiceExpression(3, "AvD"), "3AvD"),
        ("6d6>=4", DiceExpression(6, "D6", target=4), "6D6>=4"),
        ("4d6kh3", DiceExpression(4, "D6", keep=3), "4D6kh3"),
        ("d20", DiceExpression(1, "D20"), "D20"),
        ("2d6-1", DiceExpression(2, "D6", modifiers=(-1,)), "2D6-1"),
        ("2d6-1+2", DiceExpression(2, "D6", modifiers=(-1, 2)), "2D6-1+2"),
        (" 4 D6 KL 2 ", DiceExpression(4, "D6", keep=2, keep_lowest=True), "4D6kl2"),
        ("3AVD>=4+1", DiceExpression(3, "AvD", target=4, modifiers=(1,)), "3AvD>=4+1"),
    ],
)
def test_parse_examples(text: str, expected: DiceExpression, canonical: str) -> None:
    parsed = parse_expression(text)
    assert parsed == expected
    assert parsed.text == canonical
    assert parse_expression(canonical) == parsed


def test_roll_expression_examples_match_parallel_rng() -> None:
    dice, ref = make_pair()
    two = roll_expression(dice, "2d6")
    assert list(two.faces) == d6_faces(ref, 2) and two.total == sum(two.faces)
    plus = roll_expression(dice, "d6+1", "Test")
    assert list(plus.faces) == d6_faces(ref, 1) and plus.total == plus.faces[0] + 1
    assert plus.label == "Test" and plus.modifiers == (Modifier(1),)
    avd = roll_expression(dice, "3avd")
    assert list(avd.faces) == avd_faces(ref, 3) and avd.total == sum(avd.faces)
    pool = roll_expression(dice, "6d6>=4")
    faces = d6_faces(ref, 6)
    assert list(pool.faces) == faces and pool.successes == sum(f >= 4 for f in faces)
    kh = roll_expression(dice, "4d6kh3")
    faces = d6_faces(ref, 4)
    assert list(kh.faces) == faces and kh.total == sum(sorted(faces)[1:])
    d20 = roll_expression(dice, "d20")
    assert d20.faces == (ref.randint(1, 20),) and d20.dice[0].kind == "D20"
    minus = roll_expression(dice, "2d6-1")
    assert list(minus.faces) == d6_faces(ref, 2) and minus.total == sum(minus.faces) - 1
    assert minus.describe() == f"Roll: 2D6 ({minus.faces[0]}, {minus.faces[1]}) -1 = {minus.total}"


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("", ["empty", "2d6"]),
        ("   ", ["empty"]),
        ("abc", ["expected a die", "position 1"]),
        ("101d6", ["at most 100 dice"]),
        ("0d6", ["at least 1 die"]),
        ("4d6kh5", ["cannot keep 5", "out of 4"]),
        ("4d6kh0", ["keep at least 1"]),
        ("6d6>=7", ["target 7", "out of range", "1 to 6"]),
        ("3avd>=6", ["target 6", "1 to 5"]),
        ("d6+", ["expected a number after '+'", "position 4"]),
        ("2d", ["number of sides", "position 3"]),
        ("d1", ["2 to 100 sides", "'d1'"]),
        ("d101", ["2 to 100 sides"]),
        ("d6+1001", ["too large", "1000"]),
        ("d6-5000", ["too large"]),
        ("d6x", ["position 3", "found 'x'"]),
        ("4d6kh", ["how many dice to keep"]),
        ("6d6>=", ["a target after '>='"]),
        ("12345678901d6", ["number too long"]),
        ("d6" + "+1" * 150, ["too long"]),
    ],
)
def test_bad_expressions_explain_why(text: str, fragments: list[str]) -> None:
    with pytest.raises(DiceExpressionError) as caught:
        parse_expression(text)
    for fragment in fragments:
        assert fragment in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_roll_expression_needs_label() -> None:
    with pytest.raises(ValueError, match="label"):
        roll_expression(Dice(random.Random(SEED)), "d6", " ")


@given(st.text())
def test_any_text_parses_or_raises_expression_error(text: str) -> None:
    try:
        parsed = parse_expression(text)
    except DiceExpressionError as error:
        assert str(error)  # a reason is always given
    else:
        assert isinstance(parsed, DiceExpression)


@settings(max_examples=300)
@given(st.text(alphabet="0123456789dDaAvVkKhHlL>=+- ²", max_size=20))
def test_dice_like_text_parses_and_rolls_or_raises_expression_error(text: str) -> None:
    try:
        expression = parse_expression(text)
    except DiceExpressionError:
        return
    roll = expression.roll(Dice(random.Random(len(text))))
    assert len(roll.dice) == expression.count
    assert parse_expression(expression.text) == expression


def test_every_roll_and_reroll_is_handed_to_the_listener() -> None:
    heard: list[Roll] = []
    dice = Dice(random.Random(3), heard.append)
    first = dice.two_d6("Order test")
    pool = dice.pool("Shooting", 4, 4)
    again = dice.reroll(pool, [0])
    assert heard == [first, pool, again]
