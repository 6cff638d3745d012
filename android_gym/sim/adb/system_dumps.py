"""`dumpsys` and the system programs device clients parse, shaped like an Android 14 emulator's replies.

`dumpsys display|power|battery|package|activity [recents]|input|telephony.registry|SurfaceFlinger` (plus `window`,
`alarm`, `input_method` from `dump.py`), `pm` (packages), `cmd connectivity|wifi`, `ifconfig` / `ip addr` for the
Wi-Fi address, and `logcat` / `log` over the phone's `logd.LogBuffer`.
Clients such as adbutils read these with regular expressions (`orientation=`, `mHoldingDisplaySuspendBlocker=`,
`versionName=`, `AC powered:`, `ACTIVITY pkg/.Act hex pid=`), so the lines they match are laid out as on a real
device (the `dumpsys display` head as in `../shared/fixtures/real/shell/dumpsys_display__airtest-issue796.txt`).

The power and battery state a real phone keeps outside its apps lives in a `DeviceState` per target.
"""

from __future__ import annotations

import dataclasses
import weakref
import zlib
from typing import TYPE_CHECKING

from android_gym.sim.adb import dump
from android_gym.sim.adb.coreutils import Out, err, ok
from android_gym.sim.adb.logd import LogcatUsageError, parse_logcat, write_log

if TYPE_CHECKING:
    from android_gym.sim.adb.program_target import ProgramTarget
    from android_gym.sim.admin import PhoneAdmin

DENSITY_DPI = 420
DISPLAY_UNIQUE_ID = "local:4619827259835644672"
"""The emulator's built-in display (`dumpsys SurfaceFlinger --display-id` lists it as display 0)."""
WIFI_IP = "10.0.2.16"
"""The emulator's Wi-Fi address (its user-mode network, 10.0.2.0/24)."""
INSTALL_TIME = "2024-01-15 09:30:00"
"""When the system image's apps were installed: the sim phone's first boot, before its 9:41 clock."""
SETTING_DEFAULTS = {("system", "screen_brightness_mode"): "0", ("system", "screen_off_timeout"): "60000",
                    ("global", "stay_on_while_plugged_in"): "0", ("global", "adb_enabled"): "1",
                    ("global", "development_settings_enabled"): "1", ("secure", "android_id"): "6d1e0a3b7c2f4e51",
                    ("global", "device_name"): "sdk_gphone64_x86_64", ("system", "user_rotation"): "0"}
"""Settings an Android 14 emulator has that the sim does not model (`settings get` prints them until `put`)."""
BATTERY_DEFAULTS = {"ac": 1, "usb": 0, "wireless": 0, "dock": 0, "status": 2, "level": 100, "present": 1,
                    "counter": 10000, "temp": 250, "voltage": 5000}
"""An emulator's battery: on AC, charging (status 2), full, 25.0 degrees C, 5000 mV (`dumpsys battery set` keys)."""


@dataclasses.dataclass
class DeviceState:
    """What a phone keeps outside its apps: the screen's power, and `dumpsys battery set` overrides.

    Attributes:
        is_screen_on: whether the display is on (KEYCODE_POWER toggles it, SLEEP/WAKEUP set it).
        battery: the battery's fields by `dumpsys battery set` key (`BATTERY_DEFAULTS`' keys; temp in 0.1 C).
    """

    is_screen_on: bool = True
    battery: dict[str, int] = dataclasses.field(default_factory=lambda: dict(BATTERY_DEFAULTS))


_STATES: weakref.WeakKeyDictionary[object, DeviceState] = weakref.WeakKeyDictionary()


def device_state(t: ProgramTarget) -> DeviceState:
    """The `DeviceState` of target `t` (created on first use: screen on, battery full on AC)."""
    state = _STATES.get(t)
    if state is None:
        state = _STATES[t] = DeviceState()
    return state


def _hex(*parts: object) -> str:
    return format(zlib.crc32("/".join(map(str, parts)).encode()), "08x")[:7]


def pid_of(package: str) -> int:
    """The stable process id the sim gives `package`'s process (above the system server's)."""
    return 2000 + zlib.crc32(package.encode()) % 8000


def uid_of(package: str) -> int:
    """The stable app uid of `package` (u0a10xxx)."""
    return 10100 + zlib.crc32(package.encode()) % 200


# -- display and power -------------------------------------------------------------------------------------------------
def dumpsys_display(phone: PhoneAdmin, is_screen_on: bool) -> str:
    """`dumpsys display`: the viewport line (orientation, deviceWidth/Height), display states, the built-in device."""
    w, h, state = phone.width, phone.height, "ON" if is_screen_on else "OFF"
    brightness = round(int(phone.system["brightness"]) / 100, 8)
    frame = f"Rect(0, 0 - {w}, {h})"
    return (
        "DISPLAY MANAGER (dumpsys display)\n  mOnlyCode=false\n  mSafeMode=false\n  mPendingTraversal=false\n"
        f"  mViewports=[DisplayViewport{{type=INTERNAL, valid=true, isActive=true, displayId=0, "
        f"uniqueId='{DISPLAY_UNIQUE_ID}', physicalPort=0, orientation=0, logicalFrame={frame}, "
        f"physicalFrame={frame}, deviceWidth={w}, deviceHeight={h}}}]\n"
        "  mDefaultDisplayDefaultColorMode=0\n  mWifiDisplayScanRequestCount=0\n"
        f"  mStableDisplaySize=Point({w}, {h})\n"
        "  mMinimumBrightnessCurve=[(0.0, 0.0), (2000.0, 50.0), (4000.0, 90.0)]\n\n"
        f"Display States: size=1\n  Display Id=0\n  Display State={state}\n  Display Brightness={brightness}\n\n"
        "Display Adapters: size=4\n  LocalDisplayAdapter\n  VirtualDisplayAdapter\n  OverlayDisplayAdapter\n"
        "    mCurrentOverlaySetting=\n    mOverlays: size=0\n  WifiDisplayAdapter\n\n"
        f'Display Devices: size=1\n  DisplayDeviceInfo{{"Built-in Screen": uniqueId="{DISPLAY_UNIQUE_ID}", '
        f"{w} x {h}, modeId 1, renderFrameRate 60.0, defaultModeId 1, density {DENSITY_DPI}, "
        f"{DENSITY_DPI}.0 x {DENSITY_DPI}.0 dpi, touch INTERNAL, rotation 0, type INTERNAL, state {state}, "
        "FLAG_ALLOWED_TO_BE_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT, FLAG_SECURE, installOrientation 0}\n\n"
        f"Logical Displays: size=1\n  Display 0:\n    mDisplayId=0\n    mLayerStack=0\n"
        f'    mOverrideDisplayInfo=DisplayInfo{{"Built-in Screen", displayId 0, real {w} x {h}, '
        f"largest app {h} x {h}, smallest app {w} x {w}, rotation 0, density {DENSITY_DPI} "
        f"({DENSITY_DPI}.0 x {DENSITY_DPI}.0) dpi, state {state}}}\n"
    )


def dumpsys_power(phone: PhoneAdmin, is_screen_on: bool, battery: dict[str, int]) -> str:
    """`dumpsys power`: wakefulness, `mHoldingDisplaySuspendBlocker` (true while the screen is on), battery."""
    on = "true" if is_screen_on else "false"
    return (
        "POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n"
        f"  mWakefulness={'Awake' if is_screen_on else 'Asleep'}\n  mWakefulnessChanging=false\n"
        f"  mIsPowered={'true' if battery['ac'] or battery['usb'] else 'false'}\n"
        f"  mPlugType={1 if battery['ac'] else 2 if battery['usb'] else 0}\n  mBatteryLevel={battery['level']}\n"
        "  mStayOn=false\n  mProximityPositive=false\n  mBootCompleted=true\n  mSystemReady=true\n"
        f"  mInteractive={on}\n  mHoldingWakeLockSuspendBlocker=false\n  mHoldingDisplaySuspendBlocker={on}\n"
        f"  mLowPowerModeEnabled={'true' if phone.system['battery_saver'] else 'false'}\n\n"
        f"Display Power: state={'ON' if is_screen_on else 'OFF'}\n"
    )


def dumpsys_battery(battery: dict[str, int]) -> str:
    """`dumpsys battery`: "Current Battery Service state:" and its "  key: value" lines (temperature in 0.1 C)."""
    def flag(key: str) -> str:
        return "true" if battery[key] else "false"

    return ("Current Battery Service state:\n"
            f"  AC powered: {flag('ac')}\n  USB powered: {flag('usb')}\n  Wireless powered: {flag('wireless')}\n"
            f"  Dock powered: {flag('dock')}\n  Max charging current: 0\n  Max charging voltage: 0\n"
            f"  Charge counter: {battery['counter']}\n  status: {battery['status']}\n  health: 2\n"
            f"  present: {flag('present')}\n  level: {battery['level']}\n  scale: 100\n"
            f"  voltage: {battery['voltage']}\n  temperature: {battery['temp']}\n  technology: Li-ion\n"
            "  Charging state: 1\n  Charging policy: 0\n  Capacity level: -1\n")


def _battery_command(battery: dict[str, int], args: list[str]) -> Out:
    """`dumpsys battery set KEY VALUE | unplug | reset` (prints nothing, as on Android)."""
    match args:
        case ["set", key, value] if key in BATTERY_DEFAULTS and value.lstrip("-").isdigit():
            battery[key] = int(value)
        case ["unplug"]:
            battery.update(ac=0, usb=0, wireless=0, dock=0)
        case ["reset"]:
            battery.update(BATTERY_DEFAULTS)
        case _:
            return err("Battery service (battery) commands:\n  set [-f] [ac|usb|wireless|status|level|temp|present|"
                       "counter|invalid] <value>\n  unplug [-f]\n  reset [-f]", 255)
    return ok()


# -- packages and activities -------------------------------------------------------------------------------------------
def apk_path(package: str) -> str:
    """Where `pm path` finds `package`'s APK."""
    return f"/data/app/{package}/base.apk"


def version_of(package: str) -> tuple[str, int]:
    """(versionName, versionCode) of an installed sim app: Android's own apps carry the platform's 14 / 34."""
    if package.startswith("com.android."):
        return "14", 34
    crc = zlib.crc32(package.encode())
    return f"{1 + crc % 9}.{crc // 9 % 40}.{crc // 360 % 100}", 100_000 + crc % 900_000


def dumpsys_package(phone: PhoneAdmin, package: str) -> str:
    """`dumpsys package PKG`: the "Package [PKG]" block with version, flags, install times and signatures."""
    if package not in phone.packages():
        return f"Unable to find package: {package}\n"
    name, code = version_of(package)
    uid = uid_of(package)
    return (
        f"Packages:\n  Package [{package}] ({_hex('pkg', package)}):\n    appId={uid}\n"
        f"    pkg=Package{{{_hex('p', package)} {package}}}\n    codePath={apk_path(package).rsplit('/', 1)[0]}\n"
        f"    versionCode={code} minSdk=34 targetSdk=34\n    versionName={name}\n"
        "    flags=[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]\n"
        "    pkgFlags=[ SYSTEM HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]\n"
        f"    timeStamp={INSTALL_TIME}\n    lastUpdateTime={INSTALL_TIME}\n    installerPackageName=null\n"
        f"    signatures=PackageSignatures{{{_hex('sig', package)} version:3, signatures:[{_hex('cert')}], "
        "past signatures:[]}\n"
        "    User 0: ceDataInode=0 installed=true hidden=false suspended=false distractionFlags=0 stopped=false "
        "notLaunched=false enabled=0 instant=false virtual=false\n"
        f"      installReason=0\n      firstInstallTime={INSTALL_TIME}\n      uninstallReason=0\n"
    )


def _list_packages(t: ProgramTarget, args: list[str]) -> Out:
    """`pm list packages [-f] [-d|-e] [-s|-3] [-i] [-u] [--user N] [FILTER]`: every sim app is a system app."""
    flags = {a for a in args if a.startswith("-")}
    words = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "--user")]
    packages = sorted(p for p in t.phone.packages() if not words or words[0] in p)
    if "-3" in flags or "-d" in flags:
        packages = []  # no third-party apps, none disabled
    lines = [f"package:{apk_path(p)}={p}" if "-f" in flags else f"package:{p}" for p in packages]
    return ok("".join(line + ("  installer=null" if "-i" in flags else "") + "\n" for line in lines))


def package_service(t: ProgramTarget, args: list[str]) -> Out:
    """`cmd package list packages ...` (as `pm list packages`) and `cmd package resolve-activity --brief PKG` (the
    launcher activity: the app's first screen)."""  # noqa: D205, D209
    if args[:2] == ["list", "packages"]:
        return _list_packages(t, args[2:])
    if args[:1] == ["resolve-activity"] and args[-1:] and not args[-1].startswith("-"):
        package = args[-1]
        if package not in t.phone.packages():
            return ok("No activity found\n")
        activity = dump.activity_name(package, t.phone.home_screen(package))
        return ok(f"priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\n{activity}\n")
    return err("cmd package: usage: list packages [FILTER] | resolve-activity --brief PACKAGE", 255)


def cmd_pm(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`pm list packages`, `path`, `clear` (a fresh app, closed), `grant`/`revoke`, `uninstall` and `install`.

    The sim's apps come with its system image, so `pm uninstall` refuses them as Android refuses a system app
    without `--user`; `pm install` cannot parse an APK, so it fails the way a bad APK does.
    """
    sub, args = (argv[1] if len(argv) > 1 else ""), argv[2:]
    package = args[-1] if args else ""
    match sub:
        case "list" if args[:1] == ["packages"]:
            return _list_packages(t, args[1:])
        case "path" if args:
            return ok(f"package:{apk_path(package)}\n") if package in t.phone.packages() else err("", 1)
        case "clear" if args:
            if package not in t.phone.packages():
                return err("Failed", 255)
            t.phone.clear_data(package)
            return ok("Success\n")
        case "grant" | "revoke" if len(args) == 2:  # every sim app holds what it asks for: accepted, nothing changes
            if args[0] not in t.phone.packages():
                return err(f"Exception occurred while executing '{sub}':\njava.lang.IllegalArgumentException: "
                           f"Unknown package: {args[0]}", 255)
            return ok()
        case "uninstall" if args:
            return err("Failure [DELETE_FAILED_INTERNAL_ERROR]")
        case "install" if args:
            if package not in t.files:
                return err(f"Error: Can't open file: {package}\n\nException occurred while executing 'install':",
                           1)
            return err("Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl1.tmp/base.apk: "
                       "Failed to load asset path /data/app/vmdl1.tmp/base.apk]")
    return err("usage: pm list packages | path | clear | grant | revoke | uninstall | install ...")


def _record(phone: PhoneAdmin) -> str:
    package, activity = dump.activity_of(phone).split("/")
    return f"ActivityRecord{{{_hex('a', package, activity)} u0 {package}/{activity} t{100 + len(phone.activities())}}}"


def dumpsys_activity(phone: PhoneAdmin, section: str) -> str:
    """`dumpsys activity activities` (the resumed activity record) or `dumpsys activity top` (ACTIVITY lines)."""
    package, activity = dump.activity_of(phone).split("/")
    task = 100 + len(phone.activities())
    if section == "top":
        return (f"TASK {uid_of(package)}:{package} id={task} userId=0\n"
                f"  ACTIVITY {package}/{activity} {_hex('t', package, activity)} pid={pid_of(package)}\n"
                f"    Local Activity {_hex('l', package)} State:\n      mResumed=true mStopped=false "
                "mFinished=false\n")
    record = _record(phone)
    return ("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n"
            "Display #0 (activities from top to bottom):\n"
            f"  * Task{{{_hex('task', task)} #{task} type=standard A={uid_of(package)}:{package} U=0 visible=true "
            f"visibleRequested=true mode=fullscreen translucent=false sz={len(_screens(phone, package)) or 1}}}\n"
            f"    * Hist  #0: {record}\n      packageName={package} processName={package}\n\n"
            f"  ResumedActivity: {record}\n\n  mFocusedApp={record}\n  topResumedActivity={record}\n")


def task_ids(phone: PhoneAdmin) -> dict[str, int]:
    """Each app in the back stack as a task, by package (the front one as `dumpsys activity` numbers it)."""
    stack = phone.activities()
    packages = list(dict.fromkeys(package for package, _ in stack))
    return {package: (100 + len(stack) if package == phone.foreground else 2 + i)
            for i, package in enumerate(packages)}


def _screens(phone: PhoneAdmin, package: str) -> list[str]:
    """The names of app `package`'s screens in the back stack, oldest first."""
    return [name for p, name in phone.activities() if p == package]


def am_stack_list(phone: PhoneAdmin) -> str:
    """`am stack list`: a stack per task, bottom first; the front one `visible=true`, with its top activity."""
    w, h = phone.width, phone.height
    blocks = []
    for package, task in task_ids(phone).items():
        screens = _screens(phone, package)
        base, top = (dump.activity_name(package, name) for name in (screens[0], screens[-1]))
        component = top.replace("/.", f"/{package}.")
        blocks.append(f"Stack id={task} bounds=[0,0][{w},{h}] displayId=0 userId=0\n"
                      f"  taskId={task}: {base} bounds=[0,0][{w},{h}] userId=0 "
                      f"visible={str(package == phone.foreground).lower()} topActivity=ComponentInfo{{{component}}}\n")
    return "\n".join(blocks)


def dumpsys_recents(phone: PhoneAdmin) -> str:
    """`dumpsys activity recents` laid out as Android 14's: the apps' tasks, newest first (the home task is none)."""
    lines = ["ACTIVITY MANAGER RECENT TASKS (dumpsys activity recents)", "mRecentsUid=10068",
             f"mRecentsComponent=ComponentInfo{{{phone.launcher_package}/com.android.quickstep.RecentsActivity}}",
             "mFreezeTaskListReordering=false", "mFreezeTaskListReorderingPendingTimeout=false", "  Recent tasks:"]
    apps = [(p, task) for p, task in task_ids(phone).items() if p != phone.launcher_package]
    for n, (package, task) in enumerate(reversed(apps)):
        uid = uid_of(package)
        lines += [f"  * Recent #{n}: Task{{{_hex('task', task)} #{task} type=standard A={uid}:{package}}}",
                  f"    userId=0 effectiveUid=u0a{uid - 10000} mCallingUid=2000 mUserSetupComplete=true "
                  "mCallingPackage=com.android.shell mCallingFeatureId=null",
                  f"    affinity={uid}:{package}",
                  f"    mActivityComponent={dump.activity_name(package, _screens(phone, package)[0])}",
                  f"    taskId={task} rootTaskId={task}"]
    return "\n".join(lines) + "\n"


def dumpsys_telephony(phone: PhoneAdmin) -> str:
    """`dumpsys telephony.registry`: `mCallState` 2 (off-hook) while an app holds a call, else 0 (idle)."""
    in_call = phone.in_call()
    return (f"last known state:\n  Phone Id=0\n  mCallState={2 if in_call else 0}\n  mRingingCallState=0\n"
            f"  mForegroundCallState={1 if in_call else 0}\n  mCallIncomingNumber=\n  mDataConnectionState=2\n"
            "  mDataActivity=0\n")


# -- the programs ------------------------------------------------------------------------------------------------------
def cmd_dumpsys(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`dumpsys SERVICE [args]` for the services clients parse; others "Can't find service" as on Android."""
    service, args = (argv[1] if len(argv) > 1 else ""), argv[2:]
    state = device_state(t)
    match service:
        case "window":
            return ok(dump.dumpsys_window(t.phone, args[0] if args else ""))
        case "alarm":
            return ok(dump.dumpsys_alarm(t.phone))
        case "input_method":
            return ok(f"  mCurInputMethodId={t.settings.get(('secure', 'default_input_method'))}\n")
        case "display":
            return ok(dumpsys_display(t.phone, state.is_screen_on))
        case "power":
            return ok(dumpsys_power(t.phone, state.is_screen_on, state.battery))
        case "battery":
            return _battery_command(state.battery, args) if args else ok(dumpsys_battery(state.battery))
        case "package" if args:
            return ok(dumpsys_package(t.phone, args[-1]))
        case "activity" if args[:1] == ["recents"]:
            return ok(dumpsys_recents(t.phone))
        case "activity":
            return ok(dumpsys_activity(t.phone, args[0] if args else "activities"))
        case "telephony.registry":
            return ok(dumpsys_telephony(t.phone))
        case "input":
            return ok(dumpsys_input(t.phone))
        case "SurfaceFlinger" if "--display-id" in args:
            return ok('Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL displayName="EMU_display_0"\n')
    return err(f"Can't find service: {service}", 0)


def dumpsys_input(phone: PhoneAdmin) -> str:
    """`dumpsys input`: the touchscreen's mapper with its orientation (the lines AndroidEnv and others parse)."""
    w, h = phone.width, phone.height
    return ("INPUT MANAGER (dumpsys input)\n\nInput Manager State:\n  Interactive: true\n\nEvent Hub State:\n"
            "  BuiltInKeyboardId: -2\n  Devices:\n    -1: Virtual\n      Classes: KEYBOARD | ALPHAKEY\n"
            "    2: virtio_input_multi_touch_1\n      Classes: TOUCH | TOUCH_MT\n\nInput Reader State:\n"
            "  Device 2: virtio_input_multi_touch_1\n    Sources: TOUCHSCREEN\n"
            "    Touch Input Mapper (mode - DIRECT):\n"
            f"      Viewport INTERNAL: displayId=0, uniqueId={DISPLAY_UNIQUE_ID}, port=0, orientation=0, "
            f"logicalFrame=[0, 0, {w}, {h}], physicalFrame=[0, 0, {w}, {h}], deviceSize=[{w}, {h}]\n"
            f"      RawSurfaceWidth: {w}px\n      RawSurfaceHeight: {h}px\n      SurfaceOrientation: 0\n"
            "      InputDeviceOrientation: 0\n")


def _is_online(t: ProgramTarget) -> bool:
    return bool(t.phone.system["wifi"]) and not t.phone.system["airplane_mode"]


def switch_setting(t: ProgramTarget, key: str, on: bool) -> Out:
    """Turn the phone's system setting `key` (a `DEFAULT_SYSTEM` flag) on or off, as `svc` and `cmd` do."""
    t.phone.set_system(key, on)
    return ok()


def radio_service(t: ProgramTarget, argv: list[str]) -> Out:
    """`cmd connectivity airplane-mode [enable|disable]` and `cmd wifi set-wifi-enabled enabled|disabled | status`."""
    match argv[1:]:
        case ["connectivity", "airplane-mode"]:
            return ok("enabled\n" if t.phone.system["airplane_mode"] else "disabled\n")
        case ["connectivity", "airplane-mode", ("enable" | "disable") as verb]:
            return switch_setting(t, "airplane_mode", verb == "enable")
        case ["wifi", "set-wifi-enabled", ("enabled" | "disabled") as verb]:
            return switch_setting(t, "wifi", verb == "enabled")
        case ["wifi", "status"]:
            return ok(f"Wifi is {'enabled' if t.phone.system['wifi'] else 'disabled'}\n")
    return err("usage: cmd connectivity airplane-mode [enable|disable] | cmd wifi set-wifi-enabled "
               "enabled|disabled | status", 255)


def cmd_ifconfig(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`ifconfig IFACE`: toybox's layout; wlan0 has its address only while Wi-Fi is on and airplane mode off."""
    iface = argv[1] if len(argv) > 1 else "wlan0"
    if iface != "wlan0":
        return err(f"ifconfig: {iface}: No such device")
    addr = f"          inet addr:{WIFI_IP}  Bcast:10.0.2.255  Mask:255.255.255.0 \n" if _is_online(t) else ""
    return ok("wlan0     Link encap:Ethernet  HWaddr 02:15:b2:00:00:00  Driver mac80211_hwsim\n" + addr +
              "          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n")


def cmd_ip(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`ip addr show [dev] IFACE` (wlan0 only, as `ifconfig`)."""
    iface = argv[-1] if len(argv) > 3 else "wlan0"
    if len(argv) < 2 or argv[1] not in ("addr", "address", "a"):
        return err("Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }", 255)
    if iface != "wlan0":
        return err(f'Device "{iface}" does not exist.')
    addr = (f"    inet {WIFI_IP}/24 brd 10.0.2.255 scope global wlan0\n       valid_lft forever preferred_lft "
            "forever\n") if _is_online(t) else ""
    return ok("14: wlan0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000\n"
              "    link/ether 02:15:b2:00:00:00 brd ff:ff:ff:ff:ff:ff\n" + addr)


def cmd_logcat(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`logcat [options] [TAG:P ...]` run as a plain command (in a pipe, or under `exec-out`): what is kept, then it
    ends. A following logcat on its own is streamed by the ADB front instead (`logd.follow_argv`)."""  # noqa: D205, D209
    t.observe()
    try:
        request = parse_logcat(argv[1:])
    except LogcatUsageError as e:
        return err(str(e), 255)
    return ok(t.logd.dump(request))


def cmd_log(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`log [-p priority] [-t tag] message`: one line into the phone's log."""
    message, status = write_log(t.logd, argv)
    return err(message, status) if status else ok()


SYSTEM_PROGRAMS = {"dumpsys": cmd_dumpsys, "pm": cmd_pm, "ifconfig": cmd_ifconfig, "ip": cmd_ip, "logcat": cmd_logcat,
                   "log": cmd_log}
"""Name -> program."""
