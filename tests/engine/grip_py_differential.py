"""The Python half of test_grip_js_differential.py: plays the seeded games through the
Python engine (`app.grip.rules`) exactly as grip_js_differential.mjs plays them through
static/grip/grip-rules.js. The two halves share nothing but this protocol, so each must
be read beside the other: the game plan, the chooser and the step record are the same
on both sides, line for line.

It is a script as well as a module, so the test can run it in worker processes beside
`node`:

    python tests/engine/grip_py_differential.py digest FIRST COUNT
        one line per game: "<game> <sha256 of its steps> <steps> <final score> <rating>"
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any, cast

import orjson

if __name__ == "__main__":  # run as a script: the repository's root holds `app`
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.common.errors import IllegalAction
from app.common.rng import SplitMix64, derive_seed
from app.grip.rules import GripState, grip_action_from_json, rating

PASSES = (1, 3, None)
DEAL_TAG = 0x4752495044  # "GRIPD": odd games deal from big 64-bit numbers
CHOOSER_TAG = 0x4752495043  # "GRIPC": the chooser's seed
LAYOUT_TAG = 0x475249504C  # "GRIPL": an end-game layout's seed
# Three kinds of game, by `(g // 3) % 30` (so each kind has all three pass limits):
# * END_GAME (23 in 30): a made-up position near the end of a deal (`end_game_layout`:
#   the 24 complete piles with a few cards taken off their tops and bottoms into the
#   stock and talon, in a random pass), played mostly by dealing, so that the stock runs
#   out, the passes are used up and rule 10 decides often, with few cards left outside,
#   where which card the talon can still show is what ends the deal;
# * BUILDER (6 in 30): a real deal, half its plays talon plays and moves, 12 plays;
# * DEALER (1 in 30): a real deal, mostly dealt, up to 120 plays: the stock runs out,
#   the talon refills cells, the later passes are played and rule 10 ends real deals.
# (The mix is what keeps the whole test under a minute on two cores.)
END_GAME = {"kind": "layout", "cap": 20, "build_slots": 6}
BUILDER = {"kind": "deal", "cap": 12, "build_slots": 10}
DEALER = {"kind": "deal", "cap": 120, "build_slots": 2}
RANKS = "A23456789TJQK"
SUITS = "SHDC"


def canon(value: object) -> bytes:
    """Canonical JSON (keys sorted, no spaces); the JS side's `canon` writes the same."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def game_plan(g: int) -> dict[str, Any]:
    """Game `g`: its kind and start (a deal number, or an end-game layout), pass limit,
    step cap and how often it builds."""
    slot = (g // 3) % 30
    style = DEALER if slot == 0 else BUILDER if slot <= 6 else END_GAME
    passes = PASSES[g % 3]
    plan: dict[str, Any] = {"passes": passes, **style}
    if style is END_GAME:
        plan["layout"] = end_game_layout(g, passes)
    else:
        plan["number"] = g if g % 2 == 0 else derive_seed(DEAL_TAG, g)
    return plan


def end_game_layout(g: int, passes: int | None) -> dict[str, Any]:
    """A position near the end of a deal, drawn from game `g`'s own generator (the JS
    side's `endGameLayout`, draw for draw): the 24 complete piles (two decks, each suit's
    2-5-8-J, 3-6-9-Q, 4-7-10-K) in shuffled cells; 1 to 12 times a card is taken off a
    random pile's top (two in three) or bottom into the cards outside, so that
    whole-pile moves and emptied cells happen too; then into each emptied cell, half of
    the time, the top part of a random pile of two or more cards; the cards outside
    shuffled and split at random into talon and stock; and a random pass of the limit."""
    rng = SplitMix64(derive_seed(LAYOUT_TAG, g))
    piles = [
        [RANKS[r - 1] + suit for r in (base, base + 3, base + 6, base + 9)]
        for _deck in range(2)
        for suit in SUITS
        for base in (2, 3, 4)
    ]
    rng.shuffle(piles)
    outside: list[str] = []
    for _ in range(1 + rng.below(12)):
        pile = piles[rng.below(24)]
        if pile:
            outside.append(pile.pop() if rng.below(3) else pile.pop(0))
    for cell in range(24):
        if not piles[cell] and rng.below(2):
            tall = [i for i in range(24) if len(piles[i]) >= 2]
            if tall:
                src = piles[tall[rng.below(len(tall))]]
                cut = 1 + rng.below(len(src) - 1)
                piles[cell], src[:] = src[cut:], src[:cut]
    rng.shuffle(outside)
    split = rng.below(len(outside) + 1)
    passes_used = 1 + rng.below(passes if passes is not None else 4)
    return {"grid": piles, "stock": outside[split:], "talon": outside[:split], "passes_used": passes_used}


def start_state(plan: dict[str, Any]) -> GripState:
    """Where game `plan` starts: its deal, or its end-game layout."""
    if "layout" in plan:
        lay = plan["layout"]
        return GripState.from_layout(lay["grid"], lay["stock"], lay["talon"], plan["passes"], lay["passes_used"])
    return GripState.deal(plan["number"], plan["passes"])


def _universe() -> list[dict]:
    """Every well-formed action but the end, sorted by canonical JSON: the probes."""
    cells = range(24)
    actions: list[dict] = [{"type": "deal"}, {"type": "redeal"}]
    actions += [{"type": "talon", "dst": c} for c in cells]
    for s in cells:
        for d in cells:
            if s != d:
                actions.append({"type": "swap", "a": s, "b": d})
                actions += [{"type": "move", "src": s, "dst": d, "count": n} for n in range(1, 5)]
    return [orjson.loads(text) for text in sorted(canon(a) for a in actions)]


PROBES = [grip_action_from_json(a) for a in _universe()]
END = grip_action_from_json({"type": "end"})
END_TEXT = canon({"type": "end"})

# The canonical text of each action object, remembered: a legal list is mostly the same
# few hundred actions. `a.to_json()` is what `grip_action_to_json` returns after a type
# check that would cost more than the rest of a step.
_TEXT: dict = {}


def action_text(action: Any) -> bytes:
    text = _TEXT.get(action)
    if text is None:
        text = _TEXT[action] = canon(action.to_json())
    return text


def sorted_legal(state: GripState) -> tuple[list[bytes], list]:
    """The legal actions' canonical texts, sorted, and the actions in the same order.
    (`map` and the index sort keep the per-action work out of the interpreter loop: this
    runs for a few hundred actions at every one of 600,000 steps.)"""
    actions = state.legal_actions()
    texts = list(map(_TEXT.get, actions))
    if None in texts:
        texts = [t if t is not None else action_text(a) for t, a in zip(texts, actions)]
    filled = cast("list[bytes]", texts)  # every None was replaced just above
    order = sorted(range(len(filled)), key=filled.__getitem__)
    return [filled[i] for i in order], [actions[i] for i in order]


def choose(rng: SplitMix64, legal: list, step: int, plan: dict[str, Any]) -> Any:
    """The chooser (the JS side's `choose`, draw for draw): a weighted pick from the
    legal list sorted by canonical JSON; now and then the player ends the deal."""
    if step >= plan["cap"]:
        return END
    roll = rng.below(1000)
    if roll < 2:
        return END
    # The pools are filtered only when asked for (most steps need one): the same picks
    # as the JS side's eager filtering.
    swaps = _Pool(legal, ("swap",))
    builds = _Pool(legal, ("talon", "move"))
    stock = _Pool(legal, ("deal", "redeal"))
    slot = roll % 20
    if slot == 0 and swaps.items:
        pool = swaps.items
    elif slot <= plan["build_slots"] and builds.items:
        pool = builds.items
    elif stock.items:
        pool = stock.items
    else:
        pool = builds.items or swaps.items
    return pool[rng.below(len(pool))] if pool else END


class _Pool:
    """The actions of some types, filtered on first use."""

    def __init__(self, legal: list, types: tuple[str, ...]) -> None:
        self._legal, self._types = legal, types

    @cached_property
    def items(self) -> list:
        return [a for a in self._legal if a.type in self._types]


def _probe(state: GripState, action: Any) -> bytes:
    try:
        new, _ = state.apply(action)
    except IllegalAction:
        return b"illegal"
    return b"ok " + canon(new.to_json())


def play(g: int, on_step: Callable[[dict], None]) -> dict:
    """Play game `g`, calling `on_step` with every step's record (bytes for the JSON
    texts); return the final {steps, score, rating}."""
    plan = game_plan(g)
    rng = SplitMix64(derive_seed(CHOOSER_TAG, g))
    state = start_state(plan)
    step = 0
    while True:
        legal, actions = sorted_legal(state)
        over = state.is_over()
        record: dict[str, Any] = {
            "step": step,
            "state": canon(state.to_json()),
            "legal": legal,
            "over": over,
            "score": state.score(),
        }
        if over:
            record["rating"] = rating(record["score"])
            on_step(record)
            return {"steps": step, "score": record["score"], "rating": record["rating"]}
        record["probe"] = _probe(state, PROBES[rng.below(len(PROBES))])
        chosen = choose(rng, actions, step, plan)
        record["chosen"] = END_TEXT if chosen is END else action_text(chosen)
        on_step(record)
        state, _ = state.apply(chosen)
        step += 1


def step_bytes(r: dict) -> bytes:
    """The bytes a step adds to its game's digest (the JS side's `stepText`)."""
    head = b"%d\n%s\n%s\n%d %d\n" % (r["step"], r["state"], b",".join(r["legal"]), r["over"], r["score"])
    if r["over"]:
        return head + b"end %s\n" % (r["rating"] or "null").encode()
    return head + r["probe"] + b"\n" + r["chosen"] + b"\n"


def digest_line(g: int) -> str:
    """`"<game> <sha256> <steps> <score> <rating>"`, as the node script prints it."""
    h = hashlib.sha256()
    try:
        end = play(g, lambda r: h.update(step_bytes(r)))
    except Exception as exc:  # reported as a mismatch; the trace then shows the step
        return f"{g} error 0 0 {exc!r}"
    return f"{g} {h.hexdigest()} {end['steps']} {end['score']} {end['rating'] or 'null'}"


def trace(g: int) -> list[dict]:
    """Every step of game `g` as JSON-ready dicts (texts decoded), for the report."""
    steps: list[dict] = []

    def keep(r: dict) -> None:
        steps.append(
            {k: (v.decode() if isinstance(v, bytes) else v) for k, v in r.items()}
            | {"legal": [t.decode() for t in r["legal"]]}
        )

    try:
        play(g, keep)
    except Exception as exc:  # reported at its step, like a JS failure
        steps.append({"error": repr(exc)})
    return steps


if __name__ == "__main__":
    mode, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    assert mode == "digest", "usage: grip_py_differential.py digest FIRST COUNT"
    sys.stdout.write("".join(digest_line(g) + "\n" for g in range(first, first + count)))
