"""`python -m app`: run the server with the settings from the environment.

Two more commands, for the self-hoster (docs/self-hosting.md, "Watching and backing up"):

    python -m app backup DIR       a consistent copy of the database into DIR, while the
                                   server runs (app/ops/backup.py)
    python -m app restore FILE     check a copy and put it in place (the server stopped)

Both read the database from DEMON_DATA_DIR, or from `--data-dir`.

One uvicorn worker: a room lives in exactly one process (docs/architecture.md). Frames over
the limit are refused by the WebSocket layer itself (close 1009), and permessage-deflate
is off (compression costs CPU per message and opens compression side channels).

uvicorn runs its h11 HTTP protocol and websockets-sansio protocol wrapped by the
connection guard (`app/server/guard.py`): a deadline for each request, caps on connections
overall and per address, refusals logged once per interval. X-Forwarded-For is believed
from `DEMON_TRUSTED_PROXIES` only, walked from the right (docs/security.md). The event
loop is uvloop's where it is installed, else asyncio's; `DEMON_LOOP` chooses
(app/server/loop/choice.py).
"""

from __future__ import annotations

import signal
from types import FrameType


def _stopped(signum: int, frame: FrameType | None) -> None:
    """SIGTERM's handler, from the first moment to the last.

    Before uvicorn runs (the imports, opening the database, building the app: a second or
    more on a loaded machine) a stop asked for ends the process here, with status 0, as
    Docker and systemd expect; the default action would end it with 143 (a `stop` in the
    first seconds after a start did). Under uvicorn, its own handler takes over; once it
    has shut down gracefully on a SIGTERM (every socket closed with 1012, the rooms saved,
    the Devil's Grip worker stopped), it raises the signal again for the handler that was
    there before it, this one: a stop asked for and done is a success. (The default
    action went unseen while the server was PID 1 of its container, since the kernel
    ignores that signal for PID 1, and showed once compose ran an init.)"""
    raise SystemExit(0)


# Installed before the imports below, which take most of the start-up.
signal.signal(signal.SIGTERM, _stopped)

import argparse  # noqa: E402
import logging  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from pydantic import ValidationError  # noqa: E402

from app.config import Settings  # noqa: E402
from app.ops.backup import BackupError, backup, restore  # noqa: E402


def _settings() -> Settings:
    """The settings, or a short message naming the bad variable instead of a traceback."""
    try:
        return Settings()
    except ValidationError as err:
        for problem in err.errors():
            name = "DEMON_" + "_".join(str(part) for part in problem["loc"]).upper()
            print(f"error: {name}: {problem['msg']}", file=sys.stderr)
        raise SystemExit(2) from None


def _arguments(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m app", description="Run the server (no command), or back up or restore its database."
    )
    commands = parser.add_subparsers(dest="command")
    make = commands.add_parser("backup", help="copy the database into DIR while the server runs")
    make.add_argument("dir", type=Path, help="directory for the copy (created if missing)")
    put = commands.add_parser("restore", help="check a copy and put it in place (stop the server first)")
    put.add_argument("file", type=Path, help="a copy made by `backup`")
    for command in (make, put):
        command.add_argument(
            "--data-dir",
            type=Path,
            default=None,
            help="the server's data directory (default: DEMON_DATA_DIR, else ./data)",
        )
    return parser.parse_args(argv)


def _backup_or_restore(args: argparse.Namespace) -> None:
    data_dir = args.data_dir or _settings().data_dir
    try:
        if args.command == "backup":
            print(backup(data_dir, args.dir))
        else:
            database, kept = restore(args.file, data_dir)
            print(
                f"restored {args.file} as {database}" + (f"; the replaced database is kept as {kept}" if kept else "")
            )
    except BackupError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(1) from None


def main(argv: list[str] | None = None) -> None:
    args = _arguments(sys.argv[1:] if argv is None else argv)
    if args.command is not None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a copy cut short is no success
        _backup_or_restore(args)
        return
    serve()


def serve() -> None:
    # Imported here: `backup` and `restore` need none of the server, and a backup run
    # from cron should not pay for loading it.
    import uvicorn

    from app.server.app import create_app
    from app.server.guard import (
        ConnectionGuard,
        QuietAccept,
        QuietHealth,
        QuietRefusals,
        effective_max_connections,
        protocols,
    )
    from app.server.invite import lan_addresses, startup_lines
    from app.server.loop.choice import LoopUnavailable, choose, startup_line
    from app.storage.store import StoreError
    from app.support.native import status

    settings = _settings()
    try:
        loop = choose(settings.loop)
    except LoopUnavailable as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    as_json = settings.log_format == "json"

    def say(line: str) -> None:
        if as_json:  # every line of the output one JSON object (app/ops/jsonlog.py)
            logging.getLogger("demon.start").info(line)
        else:
            print(line, flush=True)

    try:
        # The loop's line comes from the running loop, once uvicorn has started it.
        app = create_app(settings, on_loop=lambda name: say(startup_line(name, loop.why)))
    except StoreError as err:
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from err
    guard = ConnectionGuard(settings, max_connections=effective_max_connections(settings.max_connections))
    http_protocol, ws_protocol = protocols(guard)
    quiet = QuietAccept(settings.refusal_log_interval_s)
    logging.getLogger("asyncio").addFilter(quiet)
    logging.getLogger("uvicorn.error").addFilter(quiet)
    logging.getLogger("uvicorn.access").addFilter(QuietRefusals(settings.refusal_log_interval_s))
    logging.getLogger("uvicorn.access").addFilter(QuietHealth())
    lan = lan_addresses() if settings.share_lan_address else []
    # The last line says whether Demon's hot path runs compiled (mypyc) or as Python; the
    # event loop's line follows once it runs (`on_loop` above).
    for line in [
        *startup_lines(
            public_url=settings.public_url,
            listen_host=settings.host,
            port=settings.port,
            lan=lan,
            published=settings.published,
            in_container=any(Path(p).exists() for p in ("/.dockerenv", "/run/.containerenv")),
        ),
        status(),
    ]:
        say(line)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        http=http_protocol,
        ws=ws_protocol,
        ws_max_size=settings.max_frame_bytes,
        ws_per_message_deflate=False,
        # uvloop or asyncio's own, as DEMON_LOOP and what is installed decide
        # (app/server/loop/choice.py); uvicorn's "auto" would not let a self-hoster choose.
        loop=loop.name,
        # X-Forwarded-For is read by the app itself, walked from the right
        # (app/server/guard.py `ForwardedFor`); uvicorn's reading would believe the
        # left-most entry, the client's own, for DEMON_TRUSTED_PROXIES="*".
        proxy_headers=False,
        log_level=settings.log_level,
        timeout_graceful_shutdown=3,
        # JSON: uvicorn's own lines go to the root logger's JSON handler (create_app)
        # instead of the text handlers uvicorn would install.
        log_config=None if as_json else uvicorn.config.LOGGING_CONFIG,
    )


if __name__ == "__main__":
    main()
