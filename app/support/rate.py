"""A token bucket, the one rate limit every layer uses: a socket's messages
(app/server/ws.py) and Devil's Grip's hint, par and solution requests
(app/grip/service/limits.py). It lives here, below both games, so neither game's server
side imports the other's to limit a flood.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class RateLimiter:
    """Token bucket: `rate` messages per second sustained, `burst` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.last = clock()

    def allow(self, cost: float = 1.0) -> bool:
        """Spend `cost` tokens if there are that many (a request that costs more than one
        unit, such as a practice room's bots); otherwise spend nothing."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False
