"""Shell commands other ADB clients send to tell what runs and what is installed (Appium's adb helpers: `pidof`,
`ps -A`, `cmd package resolve-activity`, `settings list`; uiautomator2: `ps`, `date +%s`), answered as a phone does."""  # noqa: D205, D209

from __future__ import annotations

import re
import time

import pytest

from android_gym.sim.adb.target import SimTarget

SETTINGS = "com.android.settings"


@pytest.fixture
def target() -> SimTarget:
    """A phone with Settings open over the launcher."""
    t = SimTarget("sim-0", perturbations="none")
    assert t.run(f"monkey -p {SETTINGS} 1").code == 0
    return t


def test_ps_and_pidof_agree_on_what_runs(target: SimTarget) -> None:
    table = target.run("ps -A").out.decode().splitlines()
    assert table[0].split() == ["USER", "PID", "PPID", "VSZ", "RSS", "WCHAN", "ADDR", "S", "NAME"]
    rows = {line.split()[-1]: line.split() for line in table[1:]}
    assert {"init", "system_server", SETTINGS, "com.google.android.apps.nexuslauncher"} <= set(rows)
    assert rows[SETTINGS][0].startswith("u0_a") and rows["system_server"][1] == "540"
    pid = target.run(f"pidof {SETTINGS}")
    assert pid.code == 0 and pid.out.decode().strip() == rows[SETTINGS][1]
    assert target.run("pidof com.android.chrome").code == 1  # not running: no output, status 1
    assert target.run("am force-stop com.android.settings").code == 0
    assert target.run(f"pidof {SETTINGS}").code == 1
    assert [line.split()[-1] for line in target.run("ps").out.decode().splitlines()[1:]] == ["sh", "ps"]


def test_resolve_activity_names_what_am_start_opens(target: SimTarget) -> None:
    lines = target.run("cmd package resolve-activity --brief com.android.chrome").out.decode().splitlines()
    assert lines[0].startswith("priority=") and re.fullmatch(r"com\.android\.chrome/\.\w+", lines[1])
    assert target.run(f"am start -n {lines[1]}").code == 0 and target.phone.foreground == "com.android.chrome"
    assert target.run("cmd package resolve-activity --brief com.example.none").out == b"No activity found\n"
    assert target.run("cmd package list packages chrome").out == target.run("pm list packages chrome").out


def test_settings_list_date_and_uname(target: SimTarget) -> None:
    assert target.run("settings put global stay_on_while_plugged_in 3").code == 0
    listed = dict(line.split("=", 1) for line in target.run("settings list global").out.decode().splitlines())
    assert listed["stay_on_while_plugged_in"] == "3" and listed["wifi_on"] == "1"
    assert abs(int(target.run("date +%s").out) - time.time()) < 5
    assert target.run("uname -m").out == b"x86_64\n" and target.run("uname").out == b"Linux\n"
    assert target.run("uname -z").code == 1
