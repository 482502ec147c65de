"""A tiny seeded random generator whose whole state is one integer.

The game state carries this integer, so a saved game resumes its dice rolls, bag draws and shuffles
exactly where they stopped, and the JSON stays small (Python's Mersenne Twister state is 2.5 KB).
"""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1


def next_u64(seed: int) -> tuple[int, int]:
    """SplitMix64: return (new_seed, random 64-bit value)."""
    seed = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = seed
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return seed, z ^ (z >> 31)


def below(seed: int, n: int) -> tuple[int, int]:
    """Return (new_seed, an integer in range(n)). The tiny modulo bias is irrelevant for n <= 100."""
    # next_u64, written out: every die drawn asks twice
    seed = (seed + 0x9E3779B97F4A7C15) & _MASK
    z = ((seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return seed, (z ^ (z >> 31)) % n


def shuffle(seed: int, items: list) -> int:
    """Fisher-Yates shuffle in place; return the new seed."""
    for i in range(len(items) - 1, 0, -1):
        # below(seed, i + 1), written out: every new game shuffles a few hundred items
        seed = (seed + 0x9E3779B97F4A7C15) & _MASK
        z = ((seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return seed
