"""AndroidWorld's Clock tasks: `ClockStopWatchRunning` ("Run the stopwatch."), `ClockStopWatchPausedVerify` ("Pause
the stopwatch.") and `ClockTimerEntry` ("Create a timer with {hours} hours, {minutes} minutes, and {seconds} seconds.
Do not start the timer.").

AndroidWorld clears the Clock's data before each task (the stopwatch reset and paused, no timers, the app on its
first tab) and reads the screen: the Clock in front showing Pause and Lap (the stopwatch runs), Start and the Stopwatch
tab (it is paused), or the timer keypad's "HHh MMm SSs" (the timer entered, not started). No task has a date, so
nothing is rebased onto the sim's calendar.

Here the checks read the Clock's state instead, as strictly: the Clock in front on the Stopwatch tab (or the Timer
tab's keypad, which shows while no timer exists), nothing over it, the stopwatch running or paused, or exactly the
drawn digits entered and no timer created. They also refuse an extra change: a lap taken or the stopwatch reset, an
alarm edited, a timer created, digits typed on the timer keypad, a world-clock city changed (the stopwatch's laps
stay as they started; a timer task leaves the stopwatch alone). The stopwatch tasks have no parameters, so an
instance is how the Clock starts: the tab it opens on and the stopwatch (reset, paused after some laps, or, for the
pause task, running): AndroidWorld's start (reset, paused) is one of them. The timer task's parameters are drawn as
AndroidWorld draws them, with the tab the Clock opens on. The World suite has no stopwatch template and its timer
template (`clock_labelled_timer`) starts a labelled timer, so these templates set their own starts, checks and experts
(the expert's steps are the World Clock templates': `clock_expert.to_tab`, the keypad as `clock_labelled_timer` types
it).
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import clock as C
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State, press
from android_gym.tasks.world.clock_expert import CLOCK, on_screen, to_tab

MAX_LAPS = 5
"""A drawn stopwatch start has taken 0 to `MAX_LAPS` laps."""


def start_name(tab: str, running: bool, laps: int) -> str:
    """A stopwatch start as one text (the split key).

    >>> start_name("Timer", False, 2)
    'Timer, paused, 2 laps'
    """
    return f"{tab}, {'running' if running else 'paused'}, {laps} lap{'' if laps == 1 else 's'}"


def entry_digits(hours: int, minutes: int, seconds: int) -> str:
    """The keypad digits ("hhmmss", no leading zeros) that enter the time: what the keypad's display then shows.

    >>> entry_digits(0, 5, 0), entry_digits(12, 0, 9), entry_digits(0, 0, 0)
    ('500', '120009', '')
    """
    return f"{hours:02d}{minutes:02d}{seconds:02d}".lstrip("0")


def rest_untouched(state: State) -> bool:
    """Whether the Clock's alarms, timers, timer keypad and world clock are as a fresh install has them."""
    c = state_of(state, C.ClockState)
    return not c["alarm_edits"] and not c["timers"] and not c["timer"]["digits"] and c["cities"] == list(C.WORLD)


class _StopwatchTemplate(AndroidWorldTemplate):
    """A stopwatch task: an instance is the Clock's start ({"tab", "running", "laps", "start"}); the check wants the
    Stopwatch tab in front, the stopwatch `running` or not, its laps as they started and nothing else changed."""  # noqa: D205, D209

    split_key = "start"
    apps, outcome = (CLOCK,), "state"
    running: bool
    """What the goal wants of the stopwatch."""
    running_starts: bool
    """Whether a start may have the stopwatch running already."""

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A tab, then whether the stopwatch runs (never for the run task), then its laps (AndroidWorld: none)."""
        tab = pick(rng, C.TABS)
        running = self.running_starts and rng.randrange(2) == 1
        laps = rng.randrange(MAX_LAPS + 1)
        return {"tab": tab, "running": running, "laps": laps, "start": start_name(tab, running, laps)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The Clock opening on the drawn tab, the stopwatch as drawn (the phone starts on the home screen)."""
        return {CLOCK: {"tab": params["tab"], "stopwatch_running": params["running"], "laps": params["laps"]}}

    def check(self, params: Params, state: State) -> bool:
        """The Clock in front on its Stopwatch tab, the stopwatch running (or paused) with its starting laps, nothing
        else in the Clock changed."""  # noqa: D205, D209
        watch = state_of(state, C.ClockState)["stopwatch"]
        return (on_screen("stopwatch", state) and watch["running"] == self.running and watch["laps"] == params["laps"]
                and rest_untouched(state))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the Clock's Stopwatch tab; Start (or Pause) unless it already runs (or is paused)."""
        step = to_tab("Stopwatch", elements, state)
        if step is not None:
            return step
        if state_of(state, C.ClockState)["stopwatch"]["running"] == self.running:
            return wait()
        return press(elements, text="Start" if self.running else "Pause")


class ClockStopWatchRunning(_StopwatchTemplate):
    """Run the stopwatch: from a stopwatch reset (AndroidWorld's start) or paused after some laps, Start it and leave
    it running on screen (no lap taken, no Reset)."""  # noqa: D205, D209

    name, goal_template = "ClockStopWatchRunning", "Run the stopwatch."
    running, running_starts = True, False
    max_steps = 6  # the expert takes 2-3 steps: open the Clock, the Stopwatch tab unless it opens there, Start


class ClockStopWatchPausedVerify(_StopwatchTemplate):
    """Pause the stopwatch: the Stopwatch tab in front with the stopwatch paused; AndroidWorld's start (reset, paused)
    only needs the tab, a running start (ours) needs Pause too. No lap taken, no Reset."""  # noqa: D205, D209

    name, goal_template = "ClockStopWatchPausedVerify", "Pause the stopwatch."
    running, running_starts = False, True
    max_steps = 6  # the expert takes 1-3 steps: open the Clock, the Stopwatch tab unless it opens there, Pause


class ClockTimerEntry(AndroidWorldTemplate):
    """Enter a timer of {hours} h {minutes} min {seconds} s on the keypad and leave it unstarted on screen."""

    name, split_key = "ClockTimerEntry", "entry"
    goal_template = ("Create a timer with {hours} hours, {minutes} minutes, and {seconds} seconds. Do not start the "
                     "timer.")
    apps, outcome = (CLOCK,), "state"
    max_steps = 13  # the expert takes 4-9 steps: open the Clock, the Timer tab unless it opens there, 1-6 keys

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """Hours 0-23, minutes 0-59, seconds 0-59 (uniform, as AndroidWorld draws them), then the tab the Clock opens
        on (AndroidWorld's opens on its first)."""  # noqa: D205, D209
        hours, minutes, seconds = rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59)
        return {"hours": hours, "minutes": minutes, "seconds": seconds, "tab": pick(rng, C.TABS),
                "entry": f"{hours:02d}h {minutes:02d}m {seconds:02d}s"}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """A fresh Clock opening on the drawn tab."""
        return {CLOCK: {"tab": params["tab"]}}

    def check(self, params: Params, state: State) -> bool:
        """The Clock in front on its Timer tab with no timer (so the keypad shows), the keypad holding exactly the
        time's digits, the stopwatch untouched and nothing else in the Clock changed."""  # noqa: D205, D209
        c = state_of(state, C.ClockState)
        want = entry_digits(params["hours"], params["minutes"], params["seconds"])
        return (on_screen("timer", state) and not c["timers"] and c["timer"]["digits"] == want
                and c["stopwatch"] == {"running": False, "laps": 0} and not c["alarm_edits"]
                and c["cities"] == list(C.WORLD))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The Timer tab; type the digits ("00" for two zeros), deleting any typed digit that does not lead to them."""
        step = to_tab("Timer", elements, state)
        if step is not None:
            return step
        want = entry_digits(params["hours"], params["minutes"], params["seconds"])
        have = state_of(state, C.ClockState)["timer"]["digits"]
        if have == want:
            return wait()
        if not want.startswith(have):
            return press(elements, desc="Delete")
        rest = want[len(have):]
        return press(elements, desc="00" if rest.startswith("00") else rest[0])


TEMPLATES = (ClockStopWatchPausedVerify(), ClockStopWatchRunning(), ClockTimerEntry())
