"""A watchdog that stops an emulator when the process that launched it is gone.

An emulator runs in a session of its own (so a Ctrl-C in the trainer's terminal does not reach it), and so it would
outlive a launcher killed outright (SIGKILL, an OOM kill, a Ray node lost), holding its ports and gigabytes of memory
until someone noticed (issue 47). `Emulator.launch` starts this watchdog beside each emulator:

    python -m android_gym.devices.emulator_keeper PID STARTED

with a pipe on its stdin whose only writing end the launcher holds. The kernel closes that end however the launcher
dies; at end of file the watchdog stops process PID (SIGTERM, then SIGKILL after `GRACE_S`) if it is still the
emulator that was launched (its start time is STARTED, so a reused pid is never touched), and exits. It also exits
on its own once the emulator has ended. It runs in its own session, so what kills the launcher's group spares it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

from android_gym.devices.emulator_discovery import process_start

GRACE_S = 10.0
POLL_S = 1.0
START_SLACK_S = 0.5  # /proc start times are in clock ticks from a boot time in whole seconds


def is_same_process(pid: int, started: float) -> bool:
    """Whether `pid` is alive and is the process that started at `started` (not a later one given its pid)."""
    now = process_start(pid)
    return now is not None and abs(now - started) <= START_SLACK_S


def stop(pid: int, started: float, grace_s: float = GRACE_S) -> None:
    """SIGTERM process `pid` if it is still the one started at `started`, SIGKILL it if it outlives `grace_s`."""
    for signum, wait_s in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 0.0)):
        if not is_same_process(pid, started):
            return
        try:
            os.kill(pid, signum)
        except OSError:
            return
        end = time.monotonic() + wait_s
        while time.monotonic() < end and is_same_process(pid, started):
            time.sleep(0.05)


def main(argv: list[str]) -> int:
    """`PID STARTED`: watch stdin and the emulator; see the module docstring."""
    try:
        pid, started = int(argv[0]), float(argv[1])
    except (IndexError, ValueError):
        print("usage: python -m android_gym.devices.emulator_keeper PID STARTED", file=sys.stderr)
        return 2
    owner_gone = threading.Event()

    def watch_stdin() -> None:
        try:
            while sys.stdin.buffer.read(4096):
                pass
        except OSError:
            pass
        owner_gone.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    while is_same_process(pid, started):
        if owner_gone.wait(POLL_S):
            stop(pid, started)
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
