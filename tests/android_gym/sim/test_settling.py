"""`Settling`, the device side of latency: inputs start a settle, screen reads wait for it, snapshot loads take a
reset delay; and the simulated phone's shell programs call it as a real phone would make a client wait."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.sim.adb.target import SimTarget
from android_gym.sim.emulator.console import Snapshots
from android_gym.sim.latency import LatencyConfig, Settling

STEP_S, RESET_S = 2.0, 30.0
CONSTANT = {"step_median_s": STEP_S, "reset_median_s": RESET_S}  # sigma 0: every draw is the median


class Clock:
    """A fake monotonic clock whose sleeps advance it, recording each."""

    def __init__(self) -> None:
        self.now, self.sleeps = 100.0, []

    def sleep(self, seconds: float) -> None:  # noqa: D102
        self.sleeps.append(seconds)
        self.now += seconds


def settling(clock: Clock, latency: object = CONSTANT) -> Settling:
    return Settling(latency, clock=lambda: clock.now, sleep=clock.sleep)


def test_an_input_makes_the_next_read_wait_out_one_step_delay_and_a_second_input_adds_nothing() -> None:
    clock = Clock()
    s = settling(clock)
    s.wait_settled()
    assert clock.sleeps == []  # nothing touched it: a read answers at once
    s.touched()
    clock.now += 0.5
    s.touched()  # the tap's second event, while settling
    s.wait_settled()
    s.wait_settled()
    assert clock.sleeps == [STEP_S - 0.5]
    clock.now += 10
    s.touched()
    s.wait_settled()
    assert clock.sleeps == [STEP_S - 0.5, STEP_S]


def test_a_snapshot_load_takes_one_reset_delay_and_leaves_the_phone_settled() -> None:
    clock = Clock()
    s = settling(clock)
    s.touched()
    s.load_snapshot()
    s.wait_settled()
    assert clock.sleeps == [RESET_S]


def test_off_never_waits_and_a_presets_draws_have_its_median_scaled() -> None:
    clock = Clock()
    s = settling(clock, "off")
    s.touched(), s.wait_settled(), s.load_snapshot()
    assert clock.sleeps == []
    s = settling(clock, LatencyConfig.coerce("emulator", 0.1))
    for _ in range(2001):
        s.touched()
        s.wait_settled()
    assert sorted(clock.sleeps)[1000] == pytest.approx(1.5 * 0.1, rel=0.1)  # the preset's 1.5 s median, scaled


@pytest.fixture
def target() -> tuple[SimTarget, Clock]:
    """A simulated phone whose settling runs on a fake clock."""
    t = SimTarget("emulator-5554", perturbations="none")
    clock = Clock()
    t.settling = settling(clock)
    return t, clock


@pytest.mark.parametrize("command", ["input tap 540 1200", "input keyevent KEYCODE_HOME", "input text hi",
                                     "monkey -p com.android.settings 1",
                                     "am start -n com.android.settings/.Settings",
                                     "am broadcast -a ADB_INPUT_TEXT --es msg hi"])
@pytest.mark.parametrize("read", ["uiautomator dump /dev/tty", "screencap -p", "screencap /sdcard/s.raw"])
def test_every_input_program_makes_every_screen_read_wait(target, command: str, read: str) -> None:
    t, clock = target
    t.run(command)
    t.run(read)
    assert clock.sleeps == [STEP_S], (command, read)


@pytest.mark.parametrize("command", ["getprop sys.boot_completed", "am stack list", "dumpsys window",
                                     "settings get secure default_input_method", "cat /proc/uptime"])
def test_queries_neither_wait_nor_start_a_settle(target, command: str) -> None:
    t, clock = target
    t.run(command)
    t.run("uiautomator dump /dev/tty")
    assert clock.sleeps == []
    t.run("input tap 540 1200")
    t.run(command)  # a query while settling answers at once
    assert clock.sleeps == []


def test_a_snapshot_load_through_the_console_store_takes_the_reset_delay(target) -> None:
    t, clock = target
    store = Snapshots()
    store.save(t, "clean")
    t.run("input tap 540 1200")
    store.load(t, "clean")
    t.run("screencap -p")
    assert clock.sleeps == [RESET_S]
