"""How the browser tests and the page benchmarks start Chromium: one list of flags.

At every start Chromium's background services (updates, sync, safe browsing) reach for
Google's hosts; on a machine without that network they fail many at a time and slow
the page under test, so they are switched off. `--no-sandbox` because CI runs as root.
"""

from __future__ import annotations

DEBIAN_CHROMIUM = "/usr/bin/chromium"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
