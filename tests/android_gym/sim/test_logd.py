"""The phone's log: logcat's options, formats and filters, the activity manager's lines, and a following logcat
streamed over the ADB front until the client hangs up."""  # noqa: D205, D209

from __future__ import annotations

import threading
import time

import adbutils
import pytest

from android_gym.sim.adb import AdbFront
from android_gym.sim.adb.logd import LogBuffer, LogcatUsageError, LogEntry, follow_argv, parse_logcat
from android_gym.sim.adb.target import SimTarget

ENTRY = LogEntry(1553110400.424, 5583, 5658, "D", "Tag", "reward: 1.0")


@pytest.mark.parametrize(("args", "line"), [
    (["-v", "epoch"], "         1553110400.424  5583  5658 D Tag     : reward: 1.0\n"),
    (["-v", "epoch", "-v", "usec"], "         1553110400.424000  5583  5658 D Tag     : reward: 1.0\n"),
    ([], "03-20 19:33:20.424  5583  5658 D Tag     : reward: 1.0\n"),
    (["-v", "year"], "2019-03-20 19:33:20.424  5583  5658 D Tag     : reward: 1.0\n"),
    (["-v", "brief"], "D/Tag     ( 5583): reward: 1.0\n"),
    (["-v", "tag"], "D/Tag     : reward: 1.0\n"),
    (["-v", "process"], "D( 5583) reward: 1.0  (Tag)\n"),
    (["-v", "raw"], "reward: 1.0\n"),
    (["-vtime"], "03-20 19:33:20.424 D/Tag     ( 5583): reward: 1.0\n"),
])
def test_formats_are_logcats_layouts(args: list[str], line: str) -> None:
    assert parse_logcat(args).line(ENTRY) == line


def test_androidenvs_logline_pattern_reads_the_epoch_format() -> None:
    """The regular expression AndroidEnv's LogcatThread applies to every line (copied from its contract)."""
    import re

    pattern = re.compile(r"^[ ]+(?P<timestamp>[0-9]+\.[0-9]+)[ ]+(?P<pid>[0-9]+)[ ]+(?P<tid>[0-9]+)[ ]+"
                         r"(?P<priority>.)[ ]+(?P<tag>[^:]*):[ ](?P<message>.*)$")
    match = pattern.match(parse_logcat(["-v", "epoch"]).line(ENTRY).rstrip("\n"))
    assert match is not None and match.group("message") == "reward: 1.0" and match.group("tag").strip() == "Tag"


@pytest.mark.parametrize(("specs", "passes"), [
    ([], [True, True, True]),
    (["-s"], [False, False, False]),
    (["Tag:W", "*:S"], [False, True, False]),
    (["Tag:V", "*:S"], [True, True, False]),
    (["*:E"], [False, True, False]),
    (["Other:I"], [True, True, True]),
    (["-s", "Other:I"], [False, False, True]),
])
def test_filter_specs_keep_a_tags_priority_and_above(specs: list[str], passes: list[bool]) -> None:
    entries = [LogEntry(0, 1, 1, "I", "Tag", "a"), LogEntry(0, 1, 1, "E", "Tag", "b"),
               LogEntry(0, 1, 1, "I", "Other", "c")]
    request = parse_logcat(specs)
    assert [request.passes(e) for e in entries] == passes


@pytest.mark.parametrize(("args", "message"), [
    (["-x"], "invalid option"), (["-v", "fancy"], "invalid parameter"), (["-b", "nope"], "unknown buffer"),
    (["Tag:Q"], "invalid filter"), (["-t", "0"], "not a positive count"), (["-m"], "requires an argument"),
])
def test_bad_command_lines_are_refused_with_logcats_message(args: list[str], message: str) -> None:
    with pytest.raises(LogcatUsageError, match=message):
        parse_logcat(args)


@pytest.mark.parametrize(("command", "follows"), [
    ("logcat", []), ("logcat -v epoch 'Tag:V' '*:S'", ["-v", "epoch", "Tag:V", "*:S"]),
    ("export ANDROID_LOG_TAGS=\"''\" ; exec logcat -v brief", ["-v", "brief"]),
    ("logcat -d", None), ("logcat -c", None), ("logcat -t 5", None), ("logcat | grep x", None),
    ("ls; logcat", None), ("logcat -x", None), ("echo logcat", None),
])
def test_only_a_lone_following_logcat_is_streamed(command: str, follows: list[str] | None) -> None:
    assert follow_argv(command) == follows


def test_the_activity_manager_logs_an_activity_that_comes_to_the_front_not_one_returned_to() -> None:
    logd = LogBuffer(clock=lambda: 0.0)
    logd.observe(("launcher/.HomeActivity",))
    logd.observe(("launcher/.HomeActivity", "settings/.MainActivity"))
    logd.observe(("launcher/.HomeActivity",))  # BACK: the launcher resumes, nothing starts
    logd.observe(("launcher/.HomeActivity",))
    messages = [e.message for e in logd.since(0)[0]]
    assert [m.split(" ")[0] for m in messages] == ["START", "Displayed", "START", "Displayed"]
    assert "cmp=settings/.MainActivity" in messages[2] and messages[3].startswith("Displayed settings/.MainActivity")


def test_shell_log_am_start_and_dumps_round_trip_through_the_phone() -> None:
    target = SimTarget("sim-0", perturbations="none")
    started = target.run("am start -W -n com.android.settings/.Settings")
    assert "Status: ok" in started.out.decode() and "Activity: com.android.settings/." in started.out.decode()
    assert target.run("log -p w -t AndroidRLTask 'reward: 0.5'").code == 0
    assert target.run("log").code == 1 and b"usage" in target.run("log").err
    out = target.run("logcat -d -v brief -s AndroidRLTask ActivityTaskManager:I").out.decode()
    assert "W/AndroidRLTask(" in out and "reward: 0.5" in out and "Displayed com.android.settings/" in out
    assert target.run("logcat -t 1 -v raw").out.decode() == "reward: 0.5\n"
    assert target.run("logcat -c").code == 0 and target.run("logcat -d").out == b""
    assert b"invalid option" in target.run("logcat -q -d").err
    assert "SurfaceOrientation: 0" in target.run("dumpsys input").out.decode()


def test_a_following_logcat_streams_new_lines_and_stops_when_the_client_hangs_up() -> None:
    with AdbFront(devices=1, perturbations="none") as front:
        device = adbutils.AdbClient("127.0.0.1", front.port).device("sim-0")
        target = front.target("sim-0")
        before = threading.active_count()
        stream = device.shell("logcat -v raw -s Game:I", stream=True)
        device.shell("log -t Game 'coin 1'")
        target.phone.launch("com.android.settings")  # a change the log learns of by polling the phone
        device.shell("log -t Game -p d 'debug, filtered out'")
        device.shell("log -t Game 'coin 2'")
        stream.conn.settimeout(5.0)
        received = b""
        while received.count(b"\n") < 2:
            received += stream.conn.recv(4096)
        assert received == b"coin 1\ncoin 2\n"
        stream.close()
        deadline = time.monotonic() + 5.0
        while threading.active_count() > before and time.monotonic() < deadline:
            time.sleep(0.05)
        assert threading.active_count() <= before  # the follower and its watcher ended with the connection
        assert "START u0" in device.shell("logcat -d -s ActivityTaskManager")


def test_logcat_m_stops_after_n_lines_even_while_following() -> None:
    with AdbFront(devices=1, perturbations="none") as front:
        device = adbutils.AdbClient("127.0.0.1", front.port).device("sim-0")
        device.shell("log -t A one; log -t A two; log -t A three")
        assert device.shell("logcat -v raw -s A -m 2", timeout=5.0) == "one\ntwo"
        assert device.shell("logcat -v raw -s A -T 1 -m 1", timeout=5.0) == "three"
