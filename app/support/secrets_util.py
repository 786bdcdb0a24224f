"""Seat tokens and room codes.

A seat token is an opaque secret handed out once (create/join) and never broadcast; the
room keeps only its SHA-256 and compares digests in constant time (boardgame.io and
Colyseus do the same), so a leaked database or log does not leak seats.
"""

from __future__ import annotations

import hashlib
import secrets

# No I, O (confused with 1, 0). 24 letters ** 7 = 4.6e9 codes: hard to guess, easy to read out.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 7


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def token_matches(token: str, token_hash: bytes) -> bool:
    return secrets.compare_digest(hash_token(token), token_hash)


def new_code(first_letters: str = "") -> str:
    """A room code; with `first_letters` (a process's shard, DEMON_SHARD), its first
    letter is one of them, so that a load balancer can tell which process owns it."""
    first = secrets.choice(first_letters or CODE_ALPHABET)
    return first + "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH - 1))


def new_grip_id(first_letters: str = "") -> str:
    """A Devil's Grip game id (12 URL-safe characters); with `first_letters`, the first
    is one of them, as for room codes."""
    game_id = secrets.token_urlsafe(9)
    return secrets.choice(first_letters) + game_id[1:] if first_letters else game_id


def normalise_code(text: str) -> str:
    """Codes are typed by people: accept lower case, spaces and dashes."""
    return "".join(ch for ch in text.upper() if ch.isalnum())
