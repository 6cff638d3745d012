"""The phone's log: logcat's options, formats and filters, the activity manager's lines, and a following logcat
streamed over the ADB front until the client hangs up."""  # noqa: D205, D209

from __future__ import annotations

import gc
import threading
import time

import adbutils
import pytest

from android_gym.heap import cached_entries
from android_gym.sim.adb import AdbFront
from android_gym.sim.adb.logd import (
    BUFFER_BYTES,
    MAX_PAYLOAD_BYTES,
    LogBuffer,
    LogcatUsageError,
    LogEntry,
    entry_bytes,
    follow_argv,
    parse_logcat,
)
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


def test_the_ring_keeps_the_newest_lines_within_its_byte_budget_as_logd_prunes() -> None:
    """A phone serving a day of requests holds a bounded log: the oldest lines go first, by bytes, not by count."""
    logd = LogBuffer(clock=lambda: 0.0, budget_bytes=1_000)
    lines = [f"line {i}" + "x" * (i % 7) for i in range(200)]
    for line in lines:
        logd.write("I", "Tag", line)
    kept = [e.message for e in logd.since(0)[0]]
    fits = max(k for k in range(1, len(lines)) if sum(entry_bytes("Tag", m) for m in lines[len(lines) - k:]) <= 1_000)
    assert kept == lines[-fits:] and 0 < fits < len(lines)  # every line that fits, the newest, and no more
    assert logd.nbytes == sum(entry_bytes("Tag", m) for m in kept) <= 1_000
    logd.clear()
    assert logd.nbytes == 0 and logd.since(0)[0] == []
    logd.write("I", "Tag", "y" * 5_000)  # alone over the budget: kept (a logcat must show the newest line)
    assert len(logd.since(0)[0]) == 1


def test_a_line_longer_than_logds_payload_is_cut_on_a_character_boundary() -> None:
    logd = LogBuffer(clock=lambda: 0.0)
    logd.write("I", "Tag", "é" * 10_000 + "\nshort")
    long, short = logd.since(0)[0]
    payload = 1 + len(b"Tag") + 1 + len(long.message.encode()) + 1
    assert MAX_PAYLOAD_BYTES - 2 < payload <= MAX_PAYLOAD_BYTES and set(long.message) == {"é"}
    assert short.message == "short"


def test_the_rings_of_live_phones_are_counted_as_bounded_caches_in_the_heap_log() -> None:
    """The soak benchmark tells a filling store from a leak by this count (issue 20)."""
    gc.collect()
    gc.disable()  # other tests' dead phones must not leave the count mid-test
    try:
        before = cached_entries()
        logd = LogBuffer(clock=lambda: 0.0)
        logd.write("I", "Tag", "a\nb\nc")
        assert before is not None and cached_entries() == before + 3
        for i in range(BUFFER_BYTES // entry_bytes("Tag", "line 0000") + 100):
            logd.write("I", "Tag", f"line {i:04d}")
        assert cached_entries() == before + BUFFER_BYTES // entry_bytes("Tag", "line 0000")
    finally:
        gc.enable()


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
