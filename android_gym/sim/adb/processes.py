"""The phone's processes as toybox shows them: `ps`, `pidof`, `uname`.

Running: init, zygote64, the system server, the IME, and one process per app in the back stack (the launcher always),
each app's pid and uid the ones `dumpsys` gives it (`system_dumps.pid_of`, `uid_of`). Clients read these to tell
whether an app is running (Appium's `pidof`/`ps -A`, uiautomator2's `app_list_running`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from android_gym.sim.adb.coreutils import Out, err, ok
from android_gym.sim.adb.logd import SYSTEM_SERVER_PID
from android_gym.sim.adb.system_dumps import pid_of, uid_of

if TYPE_CHECKING:
    from android_gym.sim.adb.program_target import ProgramTarget

SYSTEM = (("root", 1, 0, "init"), ("root", 350, 1, "zygote64"), ("system", SYSTEM_SERVER_PID, 350, "system_server"),
          ("u0_a120", 1200, 350, "com.google.android.inputmethod.latin"))
"""(user, pid, parent pid, name) of the processes every booted phone runs."""
UNAME = {"-s": "Linux", "-n": "localhost", "-r": "6.1.23-android14-4-00257-g7e35917775b8-ab9964412",
         "-v": "#1 SMP PREEMPT Mon Apr 17 20:50:58 UTC 2023", "-m": "x86_64", "-o": "Toybox"}


def running(t: ProgramTarget) -> list[tuple[str, int, int, str]]:
    """(user, pid, parent pid, name) of every process: the system's, then the apps in the back stack."""
    apps = dict.fromkeys(package for package, _ in t.phone.activities())
    return [*SYSTEM, *((f"u0_a{uid_of(p) - 10000}", pid_of(p), 350, p) for p in apps)]


def cmd_ps(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`ps -A` (every process) or `ps` (this shell's: sh and ps), toybox's default columns."""
    rows = running(t) if {"-A", "-e"} & set(argv) else []
    rows += [("shell", 4100, 4099, "sh"), ("shell", 4101, 4100, "ps")]
    lines = ["USER            PID   PPID        VSZ    RSS WCHAN            ADDR S NAME"]
    lines += [f"{user:<12}{pid:>7}{ppid:>7}{12_400_000 + pid:>11}{48_000 + pid % 997 * 64:>7} 0                   0 S "
              f"{name}" for user, pid, ppid, name in rows]
    return ok("\n".join(lines) + "\n")


def cmd_pidof(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`pidof NAME...`: the pids of the named processes on one line; exit 1 when none runs."""
    pids = [str(pid) for name in argv[1:] for _, pid, _, running_name in running(t) if running_name == name]
    return ok(" ".join(pids) + "\n") if pids else (b"", b"", 1)


def cmd_uname(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`uname [-a|-s|-n|-r|-v|-m|-o]` of an x86_64 Android 14 emulator kernel."""
    flags = argv[1:] or ["-s"]
    if unknown := [f for f in flags if f != "-a" and f not in UNAME]:
        return err(f"uname: Unknown option '{unknown[0]}'")
    keys = list(UNAME) if "-a" in flags else [f for f in UNAME if f in flags]
    return ok(" ".join(UNAME[k] for k in keys) + "\n")


PROCESS_PROGRAMS = {"ps": cmd_ps, "pidof": cmd_pidof, "uname": cmd_uname}
"""Name -> program."""
