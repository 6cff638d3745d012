"""`android-gym-adb`: adb's command line over an ADB server (the sim's front here), with adb's output and exit status,
and a server started on demand and stopped by `kill-server`."""  # noqa: D205, D209

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from android_gym.devices.adb_cli import main
from android_gym.devices.emulator_console import PortAllocator
from android_gym.sim.adb import AdbFront


def adb(capfd: pytest.CaptureFixture[str], port: int, *args: str) -> tuple[int, str, str]:
    """Run the command line in this process: (exit status, stdout, stderr)."""
    code = main(["-P", str(port), *args])
    out, err = capfd.readouterr()
    return code, out, err


def test_devices_lists_the_servers_phones(front: AdbFront, capfd: pytest.CaptureFixture[str]) -> None:
    assert adb(capfd, front.port, "devices") == (0, "List of devices attached\nsim-0\tdevice\n\n", "")
    assert adb(capfd, front.port, "-d", "get-serialno") == (0, "sim-0\n", "")
    code, out, _ = adb(capfd, front.port, "devices", "-l")
    assert code == 0 and "model:android_gym_sim" in out and "transport_id:" in out


def test_shell_joins_words_streams_both_outputs_and_exits_with_the_remote_status(
        front: AdbFront, capfd: pytest.CaptureFixture[str]) -> None:
    assert adb(capfd, front.port, "shell", "echo", "a", "b") == (0, "a b\n", "")
    assert adb(capfd, front.port, "shell", "exit 3")[0] == 3
    code, out, err = adb(capfd, front.port, "-s", "sim-0", "shell", "cat", "/nope")
    assert code == 1 and out == "" and "No such file" in err
    assert adb(capfd, front.port, "shell", "getprop", "ro.build.version.sdk") == (0, "34\n", "")
    assert adb(capfd, front.port, "exec-out", "echo", "raw") == (0, "raw\n", "")


def test_device_selection_errors_name_the_problem(capfd: pytest.CaptureFixture[str]) -> None:
    with AdbFront(devices=2, perturbations="none") as front:
        code, _, err = adb(capfd, front.port, "shell", "true")
        assert code == 1 and "more than one device" in err
        code, _, err = adb(capfd, front.port, "-s", "sim-9", "shell", "true")
        assert code == 1 and "sim-9" in err and "not found" in err
        assert adb(capfd, front.port, "-s", "sim-1", "get-serialno") == (0, "sim-1\n", "")
        assert adb(capfd, front.port, "-s", "sim-1", "get-state") == (0, "device\n", "")
        code, _, err = adb(capfd, front.port, "-d", "get-serialno")  # -d: the only device that is no emulator
        assert code == 1 and "more than one usb" in err
        code, _, err = adb(capfd, front.port, "-e", "get-serialno")
        assert code == 1 and "no emulator found" in err


def test_push_pull_round_trip_and_a_missing_remote_is_refused(front: AdbFront, capfd: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    (local := tmp_path / "notes.txt").write_text("hello phone\n")
    code, out, _ = adb(capfd, front.port, "push", str(local), "/sdcard/")
    assert code == 0 and "1 file pushed" in out
    assert adb(capfd, front.port, "shell", "cat", "/sdcard/notes.txt") == (0, "hello phone\n", "")
    code, out, _ = adb(capfd, front.port, "pull", "/sdcard/notes.txt", str(tmp_path / "back.txt"))
    assert code == 0 and (tmp_path / "back.txt").read_text() == "hello phone\n"
    code, _, err = adb(capfd, front.port, "pull", "/sdcard/absent.txt", str(tmp_path))
    assert code == 1 and "failed to stat remote object '/sdcard/absent.txt'" in err
    code, _, err = adb(capfd, front.port, "push", str(tmp_path / "absent"), "/sdcard/")
    assert code == 1 and "cannot stat" in err


def test_install_and_uninstall_report_the_package_managers_failure(front: AdbFront, capfd: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    (apk := tmp_path / "app.apk").write_bytes(b"not an apk")
    code, _, err = adb(capfd, front.port, "install", "-r", str(apk))
    assert code == 1 and "failed to install" in err and "INSTALL_PARSE_FAILED_NOT_APK" in err
    code, _, err = adb(capfd, front.port, "uninstall", "com.android.settings")
    assert code == 1 and "failed to uninstall com.android.settings" in err


def test_logcat_sends_adbs_command_line_and_reads_the_phones_log(front: AdbFront,
                                                                  capfd: pytest.CaptureFixture[str]) -> None:
    assert adb(capfd, front.port, "shell", "log", "-t", "Game", "'score: 7'")[0] == 0
    assert adb(capfd, front.port, "logcat", "-d", "-v", "raw", "Game:I", "*:S") == (0, "score: 7\n", "")
    history = front.target("sim-0").history
    assert history[-2:] == [["export", "ANDROID_LOG_TAGS=''"], ["exec", "logcat", "-d", "-v", "raw", "Game:I", "*:S"]]
    code, _, err = adb(capfd, front.port, "logcat", "-v", "fancy")
    assert code == 255 and "invalid parameter" in err


def test_a_missing_server_is_started_like_adbs_daemon_and_kill_server_stops_it(
        capfd: pytest.CaptureFixture[str]) -> None:
    port = PortAllocator.allocate()
    try:
        code, out, err = adb(capfd, port, "devices")
        assert code == 0 and out == "List of devices attached\n\n"
        assert f"* daemon not running; starting now at tcp:{port}" in err and "started successfully" in err
        assert adb(capfd, port, "devices") == (0, "List of devices attached\n\n", "")  # the same server, running
        assert adb(capfd, port, "kill-server") == (0, "", "")
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=5.0).close()
        assert adb(capfd, port, "kill-server") == (0, "", "")  # nothing to stop: fine, as adb
    finally:
        main(["-P", str(port), "kill-server"])
        PortAllocator.release(port)


def test_no_server_is_started_for_a_remote_address(capfd: pytest.CaptureFixture[str]) -> None:
    code, _, err = adb(capfd, 9, "-H", "192.0.2.1", "devices")  # TEST-NET-1: nothing answers
    assert code == 1 and "cannot connect to daemon at tcp:192.0.2.1:9" in err and "starting now" not in err


@pytest.mark.parametrize(("args", "message"), [
    (["frobnicate"], "unknown command frobnicate"), (["-P", "http"], "-P must be"),
    (["-Z", "devices"], "unknown option -Z"), (["-s"], "needs a value"), (["shell"], "interactive shells"),
    (["push", "one"], "push requires"),
])
def test_bad_command_lines_exit_1_naming_the_problem(front: AdbFront, capfd: pytest.CaptureFixture[str],
                                                     args: list[str], message: str) -> None:
    code, _, err = adb(capfd, front.port, *args)
    assert code == 1 and message in err and err.startswith("adb: error: ")


@pytest.mark.parametrize("args", [["--help"], ["-h"], ["help"], ["-P", "5037", "help"]])
def test_help_prints_adbs_usage_and_exits_0_without_a_server(capfd: pytest.CaptureFixture[str],
                                                             args: list[str]) -> None:
    """As adb: the version lines, then the global options and every command this adb has; nothing is started."""
    assert main(args) == 0
    out = capfd.readouterr().out
    assert out.startswith("Android Debug Bridge version 1.0.41\n") and "global options:" in out
    from android_gym.devices.adb_cli import COMMANDS

    assert all(f" {name}" in out for name in COMMANDS if name != "wait-for-any-device"), out


def test_no_command_prints_the_usage_to_stderr_and_exits_1(capfd: pytest.CaptureFixture[str]) -> None:
    """`adb` alone: the usage on stderr, status 1 (adb's own behaviour); `--version` is `version`."""
    assert main([]) == 1
    captured = capfd.readouterr()
    assert not captured.out and "global options:" in captured.err
    assert main(["--version"]) == 0 and capfd.readouterr().out.startswith("Android Debug Bridge version")


def test_the_installed_command_runs() -> None:
    script = Path(sys.executable).parent / "android-gym-adb"
    done = subprocess.run([str(script), "version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("Android Debug Bridge version 1.0.41")


def test_server_log_is_in_a_private_folder_and_a_planted_link_is_refused(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: the log was <tmp>/android-gym-adb.<uid>.log, appended through a planted link; after: a 0700 folder of
    our own, and a link at the log's name stops the start (naming it) while its target stays untouched."""  # noqa: D205, D209
    import os
    import tempfile

    from android_gym.devices import adb_cli
    from android_gym.errors import DeviceError

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    folder = tmp_path / f"android-gym-{os.getuid()}"
    assert adb_cli.log_path() == folder / "adb.log"
    assert folder.stat().st_mode & 0o777 == 0o700
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (folder / "adb.log").symlink_to(victim)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(DeviceError, match="symbolic link"):
        adb_cli.ensure_server(adb_cli.Options(port=port))
    assert victim.read_text() == "precious\n"
    assert not adb_cli.server_running(adb_cli.Options(port=port))
