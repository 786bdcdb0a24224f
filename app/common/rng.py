"""A small, fully specified random generator for deals.

Why not `random.shuffle`? Python does not promise that `random` produces the same
sequence across versions, and a deal number must give the same cards on every machine
forever (players share deal numbers; records replay from seeds). So we use SplitMix64
(Steele, Lea & Flood, 2014; the generator Java's SplittableRandom uses): a 64-bit state
advanced by a fixed odd constant and mixed by two multiply-xorshift rounds. It is a few
lines of integer arithmetic that any language can reproduce exactly.

`below(n)` draws an unbiased integer in [0, n) by rejection (no modulo bias), and
`shuffle` is the classic Fisher–Yates: for i from the last index down to 1, swap item i
with item `below(i + 1)`.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

_MASK64 = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


class SplitMix64:
    """Deterministic 64-bit generator; the state is a plain int so it can be stored."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next_u64(self) -> int:
        self.state = (self.state + _GOLDEN_GAMMA) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), by rejecting the top sliver that would bias it."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def derive_seed(*parts: int) -> int:
    """Combine integers (a deal number, a seat, a round) into one 64-bit seed.

    Each part is folded in through one SplitMix64 step so that nearby inputs
    (seat 0 and seat 1) give unrelated decks.
    """
    acc = 0
    for part in parts:
        acc = SplitMix64(acc ^ (part & _MASK64)).next_u64()
    return acc
