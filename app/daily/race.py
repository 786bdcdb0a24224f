"""The daily race's deal and its fixed table.

Each UTC day has one Demon deal, the same for everyone on this server, played by one
person against `DAILY_BOTS` bots of the level they choose, in one round with a time
limit: the same seats, the same cards and the same time for all, so the scores of a day
compare. The seed is a keyed hash of the date: HMAC-SHA256 under the server's daily secret
(app/daily/secret.py), so nobody can compute a day's deal from the source and play it in
advance (a practice room with DEMON_TEST_SEED, or a copy of the engine); every process of
one deployment shares the secret, so they all deal the same one.

One counted attempt per person per day is the browser's word: the page sends a random
id it keeps (localStorage), and the server counts the first race that id starts. A
person with two browsers, or who clears their storage, can race twice: an honour system,
not an account (docs/daily.md).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

__all__ = ["DAILY_BOTS", "DAILY_PLAYERS", "daily_race_seed", "parse_day", "race_day"]

DAILY_BOTS = 3
DAILY_PLAYERS = DAILY_BOTS + 1  # the person sits at seat 0
_DAILY_RACE_TAG = b"demon-daily-race:"


def daily_race_seed(day: dt.date, secret: bytes) -> int:
    """The Demon deal seed of `day`'s race (1 .. 999,999,999, like the Devil's Grip daily):
    the date keyed by the server's `secret`, so the seed cannot be worked out without it."""
    mac = hmac.new(secret, _DAILY_RACE_TAG + day.isoformat().encode(), hashlib.sha256).digest()
    return 1 + int.from_bytes(mac[:8], "big") % 999_999_999


def race_day(now: dt.datetime | None = None) -> dt.date:
    """Today in UTC: the day everyone on the server shares, wherever they are."""
    return (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).date()


def parse_day(text: str) -> dt.date | None:
    """An ISO date (2026-12-03), or None for anything else."""
    try:
        return dt.date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        return None
