"""Demon & Devil's Grip: a self-hostable card-game server.

Packages, with dependency arrows pointing one way only:
api -> rooms -> engine, and api/rooms -> protocol.
"""

__version__ = "0.1.0"
