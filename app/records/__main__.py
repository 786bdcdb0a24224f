"""Command-line tools for the engine.

    python -m app.records replay FILE          replay a record, print the final state
    python -m app.records deal SEED PLAYERS    print a Demon deal (every card, for checking)
    python -m app.records deal --game nerts SEED PLAYERS    the same for a Nerts deal

`replay` exits with status 1 and a message naming the action index when the record is
malformed or holds an illegal action.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from app.common.errors import InvalidRecord
from app.demon.rules.describe import describe
from app.demon.rules.round import DemonRound
from app.nerts.rules.describe import describe as nerts_describe
from app.nerts.rules.round import NertsRound
from app.records.records import load, replay


def _replay(path: str, out: TextIO, err: TextIO) -> int:
    try:
        record = load(path)
        state = replay(record)
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror or exc}", file=err)
        return 1
    except InvalidRecord as exc:
        where = f" at action index {exc.index}" if exc.index is not None else ""
        print(f"error: invalid record{where}: {exc}", file=err)
        return 1
    if record.get("game") == "demon":
        out.write(describe(state) + "\n")
        out.write(f"{len(record['actions'])} actions replayed\n")
    elif record.get("game") == "nerts":
        out.write(nerts_describe(state) + "\n")
        out.write(f"{len(record['actions'])} actions replayed\n")
    else:
        from app.grip.rules import describe as grip_describe  # lazily: separate module

        out.write(grip_describe(state) + "\n")
        out.write(f"{len(record['actions'])} actions replayed\n")
    return 0


def _deal(game: str, seed: int, players: int, out: TextIO, err: TextIO) -> int:
    try:
        if game == "nerts":
            out.write(nerts_describe(NertsRound.deal(seed, players)) + "\n")
        else:
            out.write(describe(DemonRound.deal(seed, players)) + "\n")
    except ValueError as exc:
        print(f"error: {exc}", file=err)
        return 1
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = argparse.ArgumentParser(
        prog="python -m app.records", description="Demon, Nerts and Devil's Grip engine tools"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_replay = sub.add_parser("replay", help="replay a game record and print the final state")
    p_replay.add_argument("file")
    p_deal = sub.add_parser("deal", help="print a deal with every card shown")
    p_deal.add_argument("--game", choices=("demon", "nerts"), default="demon")
    p_deal.add_argument("seed", type=int)
    p_deal.add_argument("players", type=int)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file, out, err)
    return _deal(args.game, args.seed, args.players, out, err)


if __name__ == "__main__":
    sys.exit(main())
