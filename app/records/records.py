"""Records of every game: replay one, read one from a file, write one.

This sits above both games' rules (it dispatches on the header's `game`), which is why
it is its own package and not part of either game: a Demon record is
app/demon/rules/record.py's, a Devil's Grip record app/grip/rules/game.py's, and the
header both share is app/common/records.py's. Reading and writing files is the only I/O
on the rules' side and lives here, at its edge; `python -m app.records` is the
command-line tool (docs/records.md).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from app.common.records import check_header, parse
from app.demon.rules.record import replay_demon
from app.grip.rules import replay_record
from app.nerts.rules.record import replay_nerts

__all__ = ["load", "replay", "save"]


def replay(record: Mapping[str, Any]) -> Any:
    """Replay a record of any game and return the final state: a DemonRound, a
    NertsRound, or for Devil's Grip whatever `app.grip.rules.replay_record` returns."""
    game = check_header(record)
    if game == "demon":
        return replay_demon(record)
    if game == "nerts":
        return replay_nerts(record)
    return replay_record(record)


def load(path: str) -> dict[str, Any]:
    """Read a record from a JSON file (see `parse`; OSError if it cannot be read)."""
    with open(path, "rb") as fh:
        return parse(fh.read(), path)


def save(record: Mapping[str, Any], path: str) -> None:
    """Write a record to a JSON file (UTF-8)."""
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(record, fh, ensure_ascii=False)
        fh.write("\n")
