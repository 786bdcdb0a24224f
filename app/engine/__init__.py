"""Pure rules for Demon and Devil's Grip: no I/O, no asyncio, no clock, no global random.

Everything a room server or a replay tool needs is importable from here.
"""

from app.engine.cards import Card, CardError, format_cards, parse_cards, standard_deck
from app.engine.rng import SplitMix64, derive_seed

__all__ = [
    "Card",
    "CardError",
    "SplitMix64",
    "derive_seed",
    "format_cards",
    "parse_cards",
    "standard_deck",
]
