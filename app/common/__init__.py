"""What the rules of both games share: cards, the deal's random numbers, typed errors,
events and checks. Pure like the rules above it: no I/O, no asyncio, no clock, no global
random. Each game's own rules are `app.demon.rules` and `app.grip.rules`.
"""

from app.common.cards import Card, CardError, format_cards, parse_cards, standard_deck
from app.common.rng import SplitMix64, derive_seed

__all__ = [
    "Card",
    "CardError",
    "SplitMix64",
    "derive_seed",
    "format_cards",
    "parse_cards",
    "standard_deck",
]
