"""Token buckets per key: Devil's Grip searches per game and per client address, and the
per-address budgets of docs/security.md (rooms, joins, games created, misses).

A search costs a worker hundreds of milliseconds; one client asking in a loop, or many
games from one address, must not take the workers from everyone else. Each key gets a
token bucket (`RateLimiter`, as for sockets). The table of buckets is bounded: past
`max_keys` the least recently used bucket is forgotten, so a flood of made-up keys costs
memory only up to that bound (a forgotten key starts again with a full bucket, which
is the price of the bound).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from app.support.rate import RateLimiter


class KeyedLimiter:
    def __init__(
        self, rate: float, burst: int, max_keys: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: OrderedDict[str, RateLimiter] = OrderedDict()

    def allow(self, key: str, cost: float = 1.0) -> bool:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = RateLimiter(self.rate, self.burst, self.clock)
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket.allow(cost)

    def exhausted(self, key: str) -> bool:
        """Whether `key` has no whole token left, without spending one (a key never seen
        has a full bucket)."""
        bucket = self._buckets.get(key)
        if bucket is None:
            return False
        tokens: float = min(bucket.burst, bucket.tokens + (self.clock() - bucket.last) * bucket.rate)
        return tokens < 1.0

    def retry_after(self, cost: float = 1.0) -> int:
        """Whole seconds until a request of `cost` is allowed (from empty), for a Retry-After header."""
        return max(1, math.ceil(cost / self.rate))
