"""Tests of the emulator discovery files: where the gRPC token is written, and which files a client trusts."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from android_gym.devices.emulator_discovery import advertise, discovery_dir, find_grpc_token, read_discovery
from android_gym.errors import ConfigError


@pytest.mark.parametrize("env, platform, expected", [
    ({"XDG_RUNTIME_DIR": "/run/user/7", "HOME": "/home/u"}, "linux", "/run/user/7/avd/running"),
    ({"HOME": "/home/u"}, "darwin", "/home/u/Library/Caches/TemporaryItems/avd/running"),
    ({"LOCALAPPDATA": "C:/Users/u/AppData/Local", "HOME": "C:/Users/u"}, "win32",
     "C:/Users/u/AppData/Local/Temp/avd/running"),
])
def test_the_directory_is_where_the_emulator_writes_it(env: dict[str, str], platform: str, expected: str) -> None:
    assert discovery_dir(env, platform=platform).as_posix() == expected


def test_without_a_runtime_dir_it_falls_back_to_the_emulators_user_directory(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Path, "is_dir", lambda self: False)  # no /run/user/<uid> either
    assert discovery_dir({"HOME": str(tmp_path)}, platform="linux") == tmp_path / ".android" / "avd" / "running"
    assert discovery_dir({"HOME": "/h", "ANDROID_EMULATOR_HOME": str(tmp_path)}, platform="linux") == \
        tmp_path / "avd" / "running"


def test_advertise_writes_an_owner_only_file_in_an_owner_only_directory(tmp_path: Path) -> None:
    path = advertise(tmp_path / "avd" / "running", {"grpc.port": "8554", "grpc.token": "t0k"})
    assert path.name == f"pid_{os.getpid()}.ini" and path.read_text() == "grpc.port=8554\ngrpc.token=t0k\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert find_grpc_token(8554, path.parent) == "t0k" and find_grpc_token(8556, path.parent) is None


def test_advertise_closes_an_open_directory_of_ours_and_refuses_another_users(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    running = tmp_path / "running"
    running.mkdir(mode=0o777)
    os.chmod(running, 0o777)
    advertise(running, {"grpc.port": "1"})
    assert stat.S_IMODE(running.stat().st_mode) == 0o700  # others could have swapped the file: closed
    monkeypatch.setattr(os, "getuid", lambda: running.stat().st_uid + 1)  # as seen by another user
    with pytest.raises(ConfigError, match="belongs to uid"):
        advertise(running, {"grpc.port": "1"})


def test_advertise_replaces_a_stale_file_and_never_follows_a_link(tmp_path: Path) -> None:
    running, target = tmp_path / "running", tmp_path / "elsewhere"
    running.mkdir(mode=0o700)
    (running / f"pid_{os.getpid()}.ini").symlink_to(target)
    path = advertise(running, {"grpc.token": "new"})
    assert not path.is_symlink() and not target.exists() and "grpc.token=new" in path.read_text()


def test_a_client_trusts_only_this_users_plain_files_of_live_processes(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    running = tmp_path / "running"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    advertise(running, {"grpc.port": "9001", "grpc.token": "dead"}, pid=dead.pid)
    (tmp_path / "real.ini").write_text("grpc.port=9002\ngrpc.token=linked\n")
    (running / "pid_1.ini").symlink_to(tmp_path / "real.ini")  # pid 1 is alive, but this is a link
    live = advertise(running, {"grpc.port": "9003", "grpc.token": "live"})
    assert [find_grpc_token(p, running) for p in (9001, 9002, 9003)] == [None, None, "live"]
    monkeypatch.setattr(os, "getuid", lambda: live.stat().st_uid + 1)  # someone else's file
    assert read_discovery(live) is None and find_grpc_token(9003, running) is None


def test_a_file_older_than_its_pids_process_is_stale_and_advertise_removes_it(tmp_path: Path) -> None:
    # An emulator killed outright leaves its file; when its pid comes round again the file looks alive, with a dead
    # emulator's token for a port another emulator may serve now (the UNAUTHENTICATED failures of session 32).
    running = tmp_path / "running"
    reused = advertise(running, {"grpc.port": "9004", "grpc.token": "dead emulator's"}, pid=1)  # pid 1: alive
    os.utime(reused, (1.0, 1.0))  # written long before pid 1's process started
    assert read_discovery(reused) is None and find_grpc_token(9004, running) is None
    newer = advertise(running, {"grpc.port": "9005", "grpc.token": "live"})
    assert not reused.exists() and newer.exists()  # a fresh advertisement clears the stale file of ours
    assert find_grpc_token(9005, running) == "live"


def test_of_two_live_files_for_one_port_the_newer_names_its_token(tmp_path: Path) -> None:
    running = tmp_path / "running"
    older = advertise(running, {"grpc.port": "9006", "grpc.token": "older"}, pid=1)
    advertise(running, {"grpc.port": "9006", "grpc.token": "newer"})
    os.utime(older, (older.stat().st_mtime - 5,) * 2)
    assert find_grpc_token(9006, running) == "newer"
