"""What the ADB front prints for a simulated phone, in the shape of real Android output.

`dumpsys window` / `dumpsys alarm` / `getprop` texts laid out like the captures in `../shared/fixtures/real/shell`
(`uiautomator dump` is `SimPhone.xml`, shaped like a real phone's by `sim.device_dump`).
"""

from __future__ import annotations

import datetime as dt
import zlib

from android_gym.sim.admin import PhoneAdmin

SIM_EPOCH = dt.datetime(2024, 1, 15, 9, 41, tzinfo=dt.UTC)
"""The simulated phone's wall clock (its status bar shows 9:41); alarm times are computed from it."""


def _hex_id(*parts: object) -> str:
    return format(zlib.crc32("/".join(map(str, parts)).encode()), "x")[:7]


def activity_name(package: str, screen: str) -> str:
    """A screen as an activity, "package/.NameActivity" (the sim names every activity after its screen)."""
    return f"{package}/.{screen.replace('_', ' ').title().replace(' ', '')}Activity"


def activity_of(phone: PhoneAdmin) -> str:
    """The front activity as "package/.NameActivity"."""
    return activity_name(phone.foreground, phone.top.name)


def dumpsys_window(phone: PhoneAdmin, section: str = "") -> str:
    """`dumpsys window [windows|displays]` with the lines tools grep for (`mCurrentFocus`, `mFocusedApp`, `cur=`,
    `mCurrentRotation`)."""  # noqa: D205, D209
    w, h = phone.width, phone.height
    if section == "displays":
        return ("WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n  Display: mDisplayId=0\n"
                f"    init={w}x{h} 420dpi cur={w}x{h} app={w}x{h - 126} rng={w}x{w - 63}-{h}x{h - 63}\n"
                "    deferred=false layoutNeeded=false\n  DisplayRotation\n    mCurrentRotation=ROTATION_0 "
                "mLastOrientation=-1\n")
    package, act = activity_of(phone).split("/")
    task = 100 + len(phone.activities())
    window = f"Window{{{_hex_id('w', package, act)} u0 {package}/{package}{act}}}"
    lines = ["WINDOW MANAGER WINDOWS (dumpsys window windows)",
             f"  Window #0 {window}:",
             f"    mDisplayId=0 rootTaskId={task} mSession=Session{{{_hex_id('s', package)} 1234:u0a10100}}",
             f"    mOwnerUid=10100 showForAllUsers=false package={package} appop=NONE",
             f"  mCurrentFocus={window}",
             f"  mFocusedApp=ActivityRecord{{{_hex_id('a', package, act)} u0 {package}/{act} t{task}}}",
             "  mCurrentRotation=ROTATION_0 mLastOrientation=-1"]  # the sim's phone stays in portrait
    return "\n".join(lines) + "\n"


def dumpsys_alarm(phone: PhoneAdmin) -> str:
    """`dumpsys alarm` batches holding the alarms apps have set to ring, timed from `SIM_EPOCH`."""
    alarms = phone.scheduled_alarms()
    lines = [f"Pending alarm batches: {len(alarms)}"]
    for i, a in enumerate(alarms):
        when = SIM_EPOCH.replace(hour=a.hour, minute=a.minute)
        if when <= SIM_EPOCH:
            when += dt.timedelta(days=1)
        ms = int(when.timestamp() * 1000)
        lines += [f"Batch{{{_hex_id('b', i)} num=1 start={ms} end={ms}}}:",
                  f"    RTC_WAKEUP #0: Alarm{{{_hex_id('al', i)} type 0 when {ms} {a.package}}}",
                  f"      tag=*walarm*:com.android.deskclock.ALARM_ALERT label={a.label}",
                  f"      type=0 when={when:%Y-%m-%d %H:%M:%S}.000 window=0 repeatInterval=0 count=0 flags=0x3"]
    return "\n".join(lines) + "\n"


def getprop_listing(props: dict[str, str]) -> str:
    """`getprop` without arguments: every property as "[key]: [value]", sorted."""
    return "".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items()))
