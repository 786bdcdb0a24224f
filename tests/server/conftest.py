import pytest

from tests.support.live_server import LiveServer

# Deal used by every room of the shared test server: seat 0 and seat 1 both hold the
# 2 of clubs face up, and seat 0 the ace of clubs (found by searching DemonRound.deal).
RACE_SEED = 288


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    srv = LiveServer(
        tmp_path_factory.mktemp("server"),
        test_seed=RACE_SEED,
        countdown_s=0.2,
        rate_per_s=400,
        rate_burst=400,
        send_queue=1024,
        reconnect_grace_s=60,
    )
    with srv:
        yield srv
