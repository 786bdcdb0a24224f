"""Where the daily secret comes from (app/daily/secret.py): the setting; else one made on
first start and kept in the data directory (the same after a restart, readable by its
owner only); several processes without the setting refuse to start."""

from __future__ import annotations

import stat

import pytest

from app.config import Settings
from app.daily.secret import SECRET_FILE, DailySecretMissing, daily_secret
from app.server.app import create_app


def secret_of(settings: Settings) -> bytes:
    """What create_app asks of app/daily/secret.py."""
    return daily_secret(settings.daily_secret, settings.data_dir, clustered=bool(settings.peer_list))


def test_the_setting_is_the_secret(tmp_path):
    assert secret_of(Settings(data_dir=tmp_path, daily_secret="s" * 20)) == b"s" * 20
    assert not (tmp_path / SECRET_FILE).exists()
    with pytest.raises(ValueError):
        Settings(daily_secret="short")


def test_one_process_makes_its_secret_once_and_keeps_it(tmp_path):
    first = secret_of(Settings(data_dir=tmp_path))
    assert len(first) == 64 and secret_of(Settings(data_dir=tmp_path)) == first
    assert stat.S_IMODE((tmp_path / SECRET_FILE).stat().st_mode) == 0o600
    assert secret_of(Settings(data_dir=tmp_path / "other")) != first


def test_several_processes_must_be_given_one(tmp_path):
    peers = "http://a:8000,http://b:8000"
    with pytest.raises(DailySecretMissing, match="DEMON_DAILY_SECRET"):
        create_app(Settings(data_dir=tmp_path, peers=peers, grip_worker=False))
    assert secret_of(Settings(data_dir=tmp_path, peers=peers, daily_secret="x" * 32)) == b"x" * 32


def test_a_damaged_file_is_said_so(tmp_path):
    (tmp_path / SECRET_FILE).write_text("abc\n")
    with pytest.raises(DailySecretMissing, match="delete it"):
        secret_of(Settings(data_dir=tmp_path))
