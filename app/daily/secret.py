"""The server's daily secret: the key that makes the daily race's deal unguessable.

Without a secret the day's seed would be a function of the date alone, and anyone with the
source could deal tomorrow's race in a practice room (DEMON_TEST_SEED) and learn it by
heart. With it, the seed is an HMAC of the date (app/daily/race.py) that only the server
can compute.

Where it comes from, in order:

* `DEMON_DAILY_SECRET` (at least 16 characters): what a deployment of several processes
  must set, the same on each, so that they all deal the same race; a server with
  `DEMON_PEERS` and no secret refuses to start (`DailySecretMissing`);
* otherwise (one process), a random secret made on first start and kept in the data
  directory (`daily-secret`, readable by its owner only), so a restart deals the same day
  again.

Changing the secret changes the deal of the day (and of every day): do it between days.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["SECRET_FILE", "DailySecretMissing", "daily_secret"]

SECRET_FILE = "daily-secret"


class DailySecretMissing(RuntimeError):
    """Several processes, and no shared secret: each would deal its own daily race."""


def daily_secret(configured: str, data_dir: Path, *, clustered: bool) -> bytes:
    """The daily secret for this server (see the module's docstring): `configured` is
    DEMON_DAILY_SECRET, `clustered` whether DEMON_PEERS names other processes."""
    if configured:
        return configured.encode()
    if clustered:
        raise DailySecretMissing(
            "DEMON_PEERS is set but DEMON_DAILY_SECRET is not: every process of a deployment must be given the "
            "same DEMON_DAILY_SECRET (e.g. `python -c 'import secrets; print(secrets.token_hex(32))'`), or each "
            "would deal a daily race of its own."
        )
    return _kept(data_dir / SECRET_FILE)


def _kept(path: Path) -> bytes:
    """The secret kept at `path`, made (atomically, mode 0600) when there is none yet."""
    try:
        text = path.read_text().strip()
        if len(text) >= 32:
            return text.encode()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    fresh = secrets.token_hex(32)
    tmp = path.with_name(f".{path.name}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(fresh + "\n")
    try:
        os.link(tmp, path)  # fails if another process made it first: theirs is kept
    except FileExistsError:
        pass
    finally:
        tmp.unlink()
    kept = path.read_text().strip()
    if len(kept) < 32:
        raise DailySecretMissing(f"{path} does not hold a daily secret (64 hex digits): delete it to make a new one.")
    return kept.encode()
