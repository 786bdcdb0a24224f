"""The legal actions a session keeps (`app.grip.service.legal`): built once per state,
built again for any other state, and always what a fresh list would be."""

from __future__ import annotations

import random

from app.grip.rules import GripGame
from app.grip.service.legal import LegalActions, legal_json


def test_kept_while_the_state_is_the_same_and_fresh_for_another():
    game = GripGame.new(31, 3)
    legal = LegalActions()
    first = legal.of(game.state)
    assert legal.of(game.state) is first  # asked again (a look, a hint): not rebuilt
    rng = random.Random(2)
    for step in range(80):
        if game.state.is_over():
            break
        if step % 7 == 6 and game.can_undo:
            game.undo()
        elif step % 11 == 10 and game.can_redo:
            game.redo()
        else:
            game.apply(rng.choice(game.state.legal_actions(swaps=rng.random() < 0.1)))
        assert legal.of(game.state) == legal_json(game.state)
        assert legal_json(game.state) == [a.to_json() for a in game.state.legal_actions()]
