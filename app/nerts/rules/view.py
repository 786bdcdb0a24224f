"""What a Nerts seat's layout shows: to its player and, at an open table, to everyone.

Only face-up cards are named: the Nerts pile's top (N1, N8), every work-pile card (N6),
and the waste cards a draw lays open (three under draw three, one under draw one, H2).
The Nerts pile's face-down cards, the stock and the covered waste are counts. Why a
separate module: the room sends this to browsers, so it must be obvious from one small
function that no hidden card leaves the server.
"""

from __future__ import annotations

from typing import Any

from app.nerts.rules.layout import NertsSeat
from app.nerts.rules.options import NertsOptions

__all__ = ["seat_view"]


def seat_view(seat: int, st: NertsSeat, options: NertsOptions, on_foundations: int, absent: bool) -> dict[str, Any]:
    shown = st.waste[-options.draw :] if st.waste else ()
    return {
        "seat": seat,
        "nerts_top": None if not st.nerts else str(st.nerts[-1]),
        "nerts_count": len(st.nerts),
        "work": [[str(c) for c in p] for p in st.work],
        "stock": len(st.stock),
        "waste": [str(c) for c in shown],
        "waste_count": len(st.waste),
        "on_foundations": on_foundations,
        "absent": absent,
    }
