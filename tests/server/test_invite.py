"""The invite link's address (app/server/invite.py): never a loopback link when a better one
is known, and the start-up lines that say what to share."""

from __future__ import annotations

import pytest

from app.config import Settings
from app.server.invite import invite_for, is_loopback_host, lan_addresses, startup_lines

LAN = ["192.168.1.23"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "game.localhost"])
def test_loopback_hosts(host):
    assert is_loopback_host(host)


@pytest.mark.parametrize("host", ["192.168.1.23", "cards.example", "10.0.0.5", "fe80::1", ""])
def test_other_hosts(host):
    assert not is_loopback_host(host)


def test_public_url_wins_over_everything():
    got = invite_for(
        "http://127.0.0.1:8000", public_url="https://cards.example/", listen_host="127.0.0.1", port=8000, lan=LAN
    )
    assert (got.base, got.loopback_only) == ("https://cards.example", False)


def test_a_page_opened_at_a_network_address_shares_that_address():
    got = invite_for("http://192.168.1.23:8000", public_url=None, listen_host="0.0.0.0", port=8000, lan=LAN)
    assert (got.base, got.loopback_only) == ("http://192.168.1.23:8000", False)


def test_a_loopback_page_on_a_server_listening_everywhere_shares_the_lan_address():
    got = invite_for("http://localhost:8000", public_url=None, listen_host="0.0.0.0", port=8000, lan=LAN)
    assert (got.base, got.loopback_only, got.listening_on_network) == ("http://192.168.1.23:8000", False, True)


def test_a_loopback_only_server_says_its_link_is_loopback_only():
    got = invite_for("http://127.0.0.1:8000", public_url=None, listen_host="127.0.0.1", port=8000, lan=LAN)
    assert (got.base, got.loopback_only, got.listening_on_network) == ("http://127.0.0.1:8000", True, False)
    assert got.to_json()["lan"] == LAN


def test_startup_lines_on_loopback_say_how_to_open_up():
    text = "\n".join(startup_lines(public_url=None, listen_host="127.0.0.1", port=8000, lan=LAN))
    assert "http://127.0.0.1:8000" in text
    assert "make run HOST=0.0.0.0" in text and "http://192.168.1.23:8000" in text


def test_startup_lines_listening_everywhere_give_the_address_to_share():
    text = "\n".join(startup_lines(public_url=None, listen_host="0.0.0.0", port=8080, lan=LAN))
    assert "Friends on your network can join at http://192.168.1.23:8080" in text
    assert "HOST=0.0.0.0" not in text


def test_startup_lines_with_a_public_url():
    text = "\n".join(startup_lines(public_url="https://cards.example", listen_host="0.0.0.0", port=8000, lan=LAN))
    assert "https://cards.example" in text


def test_lan_addresses_are_never_loopback():
    for address in lan_addresses():
        assert not is_loopback_host(address)


def test_the_invite_endpoint_of_a_loopback_server_says_so(server):
    import httpx

    answer = httpx.get(server.base + "/api/invite").json()
    assert answer["base"] == server.base
    assert answer["loopback_only"] is True and answer["listening_on_network"] is False


def test_the_invite_endpoint_uses_the_public_url(tmp_path):
    import httpx

    from tests.support.live_server import LiveServer

    with LiveServer(tmp_path, public_url="https://cards.example.org") as srv:
        answer = httpx.get(srv.base + "/api/invite").json()
    assert answer["base"] == "https://cards.example.org" and answer["loopback_only"] is False


def test_a_bad_public_url_stops_the_server_with_a_clear_message(tmp_path):
    import subprocess
    import sys

    from tests.support.live_server import ROOT, LiveServer

    env = LiveServer(tmp_path, public_url="cards.example.org/path").env()
    done = subprocess.run([sys.executable, "-m", "app"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("error: DEMON_PUBLIC_URL: ")


def test_in_the_docker_image_the_container_address_is_not_offered(tmp_path):
    """The image sets DEMON_SHARE_LAN_ADDRESS=false: a container's own address would send
    friends nowhere, so a loopback page keeps its loopback link and the warning."""
    import httpx

    from tests.support.live_server import LiveServer

    with LiveServer(tmp_path, host="0.0.0.0", share_lan_address="false") as srv:
        answer = httpx.get(srv.base + "/api/invite").json()
    assert answer == {"base": srv.base, "loopback_only": True, "listening_on_network": True, "lan": []}


def test_the_server_prints_what_to_share_at_start(tmp_path):
    """`python -m app` on the loopback says how to open up; a bad setting is one line."""
    import subprocess
    import sys

    from tests.support.live_server import ROOT, LiveServer

    srv = LiveServer(tmp_path)
    srv.start(timeout=90)
    srv.stop()
    log = srv.log()
    assert f"open http://127.0.0.1:{srv.port} in your browser" in log
    assert "make run HOST=0.0.0.0" in log
    env = LiveServer(tmp_path, public_url="not a url").env()
    done = subprocess.run([sys.executable, "-m", "app"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("error: DEMON_PUBLIC_URL: ") and "Traceback" not in done.stderr


def test_startup_lines_name_the_published_address_when_compose_passes_it():
    text = "\n".join(startup_lines(public_url=None, listen_host="0.0.0.0", port=8000, lan=[], published="8080"))
    assert "open http://localhost:8080 in your browser" in text and "8000" not in text
    text = "\n".join(
        startup_lines(public_url=None, listen_host="0.0.0.0", port=8000, lan=[], published="127.0.0.1:9000")
    )
    assert "open http://127.0.0.1:9000 in your browser" in text


def test_a_published_address_without_a_port_is_not_named_and_does_not_stop_the_server(tmp_path):
    """`PUBLISH_PORT=127.0.0.1:` lets Docker choose the port (docker/smoke.sh does): the
    server starts, and its line says the address cannot be seen from inside."""
    Settings(published="127.0.0.1:", data_dir=tmp_path)
    lines = startup_lines(
        public_url=None, listen_host="0.0.0.0", port=8000, lan=[], published="127.0.0.1:", in_container=True
    )
    assert "cannot be seen from here" in "\n".join(lines)


def test_startup_lines_in_a_container_say_the_address_cannot_be_known():
    text = "\n".join(startup_lines(public_url=None, listen_host="0.0.0.0", port=8000, lan=[], in_container=True))
    assert "cannot be seen from here" in text and "open http://127.0.0.1:8000" not in text
