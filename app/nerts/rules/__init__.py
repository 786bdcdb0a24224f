"""The Nerts rules engine (docs/numbered-rules.md, Nerts): pure, immutable, clock-free.

`round.NertsRound` is the entry point; it mirrors `app.demon.rules.round.DemonRound`
(`deal`, `start`, `legal_actions`, `apply`, `is_stuck`, `seat_view`, `to_json`) so that a
room can drive either game through one interface.
"""
