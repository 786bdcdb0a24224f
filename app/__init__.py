"""Demon & Devil's Grip: a self-hostable card-game server.

Packages, with dependency arrows pointing one way only:
api -> rooms -> engine, and api/rooms -> protocol.
"""

# The one source of the version: pyproject.toml reads it, /health and CHANGELOG.md agree.
__version__ = "1.0.0"
