"""What a search may spend: the `Budget` a caller hands the hint engine and the solver.

The engine reads no clock. A hint that depended on how fast the machine happened to be
could not be tested or reproduced, so the searches take a budget from their caller and
only ask it questions:

* `nodes`: how many search nodes to plan for. The searches divide it among their move
  orders (depth-first search) or levels (beam search);
* `counted`: whether `nodes` is the whole limit (the search counts its own nodes and
  stops there: the same answer on every machine), or only an estimate that divides the
  work while `exhausted()` has the last word;
* `exhausted()`: whether the budget is spent (asked between pieces of work and every
  few dozen nodes, whether `counted` or not). A counted budget answers False (its nodes
  are the limit) or raises `SearchStopped`: its owner's safety stop, which ends the
  search with no answer rather than with a weaker one;
* `left()`: how much is left, in the budget's own unit, for pacing: the beam narrows
  when what is left buys fewer expansions at the rate seen so far.

`NodeBudget` here is the deterministic one (tests, benchmarks, par tables that must not
depend on the machine). The server's hints use a counted budget too, sized to the time
budget (`app.grip.service.clock.WorkBudget`): a hint's quality must not depend on how
busy the machine is, so only the safety stop reads a clock. Par and the
solver keep a clock budget (`ClockBudget`), made where a clock may be read.
"""

from __future__ import annotations

from typing import Protocol


class SearchStopped(Exception):
    """A counted budget's owner stopped the search (its safety stop): no answer."""


class Budget(Protocol):
    """See the module docstring."""

    @property
    def nodes(self) -> int: ...

    @property
    def counted(self) -> bool: ...

    def exhausted(self) -> bool: ...

    def left(self) -> float: ...


class NodeBudget:
    """A budget of `nodes` search nodes and nothing else: the searches count them, so it
    is never `exhausted()` in between and the answer depends only on the position."""

    counted = True

    def __init__(self, nodes: int) -> None:
        self.nodes = max(1, nodes)

    def exhausted(self) -> bool:
        return False

    def left(self) -> float:
        return float(self.nodes)
