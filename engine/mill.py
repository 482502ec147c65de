"""The Mill: the 3x3 dice of a player board, the 12 Gear spaces between them, and its lines.

Gear spaces are numbered 0-5 for rows (row r, gap g between columns g and g+1 -> r*2+g)
and 6-11 for columns (column c, gap g between rows g and g+1 -> 6+c*2+g).
Lines are numbered like engine.vocabulary.MILL_LINES: rows 0-2, then columns 0-2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.state import PlayerState

LINE_DICE: list[tuple[int, int, int]] = [
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
]
LINE_GEARS: list[tuple[int, int]] = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11)]


def mill_key(
    p: PlayerState,
) -> tuple[tuple[str | None, ...], tuple[str | None, ...], tuple[str | None, ...], int]:
    """A player's Mill as hashable content (dice, Gear spaces, Program tiles, Steam level): the key
    under which scoring and the AI cache what they compute from a Mill."""
    return tuple(p.mill), tuple(p.gears), tuple(p.programs), p.steam


def gear_space_name(pos: int) -> str:
    if pos < 6:
        return f"row {pos // 2 + 1}, gap {pos % 2 + 1}"
    c, g = divmod(pos - 6, 2)
    return f"column {c + 1}, gap {g + 1}"


def gear_operator(gear: str) -> str:
    """'+' for Addition, '-' for Subtraction, 'x' for every Multiplier tile."""
    if gear == "add":
        return "+"
    if gear == "sub":
        return "-"
    return "x"


def evaluate(values: list[int], operators: list[str]) -> int:
    """Evaluate strictly left to right, as Babbage's machine does: 2 + 3 x 5 = 25."""
    total = values[0]
    for op, v in zip(operators, values[1:], strict=True):
        if op == "+":
            total += v
        elif op == "-":
            total -= v
        else:
            total *= v
    return total


def line_value(mill: list[str | None], gears: list[str | None], line: int) -> int | None:
    """The raw value of a complete line (3 dice and 2 gears), or None if it is not complete.

    A negative result counts as 0 (designed: the rules never show a line below zero).
    """
    dice = [mill[i] for i in LINE_DICE[line]]
    gear_tiles = [gears[i] for i in LINE_GEARS[line]]
    if None in dice or None in gear_tiles:
        return None
    values = [int(d[1]) for d in dice]  # type: ignore[index]
    return max(0, evaluate(values, [gear_operator(g) for g in gear_tiles]))  # type: ignore[arg-type]


def program_met(criteria: dict[str, Any], dice: list[str]) -> bool:
    """Whether the 3 dice of a line (in line order) meet a Program tile's criteria."""
    values = [int(d[1]) for d in dice]
    colours = [d[0] for d in dice]
    kind = criteria["kind"]
    if kind == "values_in":
        return all(v in criteria["values"] for v in values)
    if kind == "sum_at_least":
        return sum(values) >= criteria["n"]
    if kind == "sum_at_most":
        return sum(values) <= criteria["n"]
    if kind == "all_same_colour":
        return len(set(colours)) == 1
    if kind == "all_different_colours":
        return len(set(colours)) == 3
    if kind == "colour_count":
        return colours.count(criteria["colour"]) >= criteria["n"]
    if kind == "all_same_value":
        return len(set(values)) == 1
    if kind == "all_different_values":
        return len(set(values)) == 3
    if kind == "run":
        s = sorted(values)
        return s[1] == s[0] + 1 and s[2] == s[1] + 1
    if kind == "ascending":
        return values[0] < values[1] < values[2]
    if kind == "descending":
        return values[0] > values[1] > values[2]
    if kind == "all_even":
        return all(v % 2 == 0 for v in values)
    if kind == "all_odd":
        return all(v % 2 == 1 for v in values)
    raise ValueError(f"unknown Program criteria {kind!r}")
