"""Room codes and Devil's Grip ids carry their process's shard letter (DEMON_SHARD), the
one thing a load balancer reads to route a room to its process (docs/self-hosting.md)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from app.config import Settings
from app.support.secrets_util import CODE_ALPHABET, CODE_LENGTH, new_code, new_grip_id


def test_codes_start_with_a_shard_letter_and_keep_their_form():
    codes = [new_code("BK") for _ in range(400)]
    assert {c[0] for c in codes} == {"B", "K"}
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert len({c[1:] for c in codes}) > 390  # the rest stays random


def test_without_a_shard_a_code_may_start_with_any_letter():
    assert {new_code()[0] for _ in range(2000)} == set(CODE_ALPHABET)


def test_grip_ids_start_with_a_shard_letter_and_keep_their_length():
    ids = [new_grip_id("C") for _ in range(200)]
    assert all(i[0] == "C" and len(i) == 12 for i in ids)
    assert len(set(ids)) == 200
    assert len({new_grip_id()[0] for _ in range(2000)}) > 30  # unsharded: any URL-safe character


@pytest.mark.parametrize("shard", ["I", "O", "a", "A1", "A-B"])
def test_a_shard_outside_the_code_alphabet_is_refused(shard):
    with pytest.raises(ValidationError):
        Settings(shard=shard)


def test_peers_are_a_list_of_base_urls():
    assert Settings(peers=" http://a:8000/, http://b:8000 ,").peer_list == ["http://a:8000", "http://b:8000"]
