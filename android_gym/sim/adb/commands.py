"""The Android programs the ADB front's shell knows, with the real programs' output text.

`input`, `screencap`, `wm`, `uiautomator`, `am`, `monkey`, `settings`, `getprop`, `ime`, `svc`, `which`,
`cmd statusbar|connectivity|wifi`, `cmd android_gym` (the sim's control service); `dumpsys`, `pm`, `ifconfig`, `ip`
and `logcat` come from `system_dumps.py`, the rest of the coreutils from `coreutils.py`.

Each program is `(target, argv, stdin) -> (stdout, stderr, exit status)`, acting on the target's `SimPhone` the
way the real program acts on a phone, with the real program's output text. `programs(target)` binds them.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from android_gym.devices.adb_shell import ADB_KEYBOARD_IME, KEYCODE_NAMES, SETTINGS
from android_gym.errors import AndroidGymError
from android_gym.sim.adb import dump
from android_gym.sim.adb.coreutils import COREUTILS, Out, err, ok
from android_gym.sim.adb.intents import start_data_intent
from android_gym.sim.adb.logd import launch_millis
from android_gym.sim.adb.processes import PROCESS_PROGRAMS
from android_gym.sim.adb.system_dumps import (
    SETTING_DEFAULTS,
    SYSTEM_PROGRAMS,
    am_stack_list,
    device_state,
    package_service,
    radio_service,
    switch_setting,
    task_ids,
)
from android_gym.sim.app import ACTION_VIEW, END_CALL, Intent

if TYPE_CHECKING:
    from android_gym.sim.adb.program_target import ProgramTarget
    from android_gym.sim.adb.shell import Shell

PHONE_KEYS = {4: "back", 3: "home", 66: "enter", 67: "delete", 187: "recents"}
"""Android keycodes the phone acts on, by the name `SimPhone.key` takes (ADB's `input keyevent`, the gRPC keys)."""
KEYCODE_POWER, KEYCODE_SLEEP, KEYCODE_WAKEUP, KEYCODE_ENDCALL = 26, 223, 224, 6
_MORE_KEYCODES = {"VOLUME_UP": 24, "VOLUME_DOWN": 25, "VOLUME_MUTE": 164, "POWER": KEYCODE_POWER, "CAMERA": 27,
                  "SLEEP": KEYCODE_SLEEP, "WAKEUP": KEYCODE_WAKEUP, "SEARCH": 84, "ESCAPE": 111, "SPACE": 62,
                  "DPAD_UP": 19, "DPAD_DOWN": 20, "DPAD_LEFT": 21, "DPAD_RIGHT": 22, "DPAD_CENTER": 23,
                  "ENDCALL": KEYCODE_ENDCALL, "CALL": 5}
"""Keycodes beyond `KEYCODE_NAMES` that clients send by name (adbutils' volume keys, the screen switches)."""
_SOURCES = {"touchscreen", "touchpad", "keyboard", "mouse", "trackball", "stylus", "dpad", "gamepad", "joystick"}
_LONG_PRESS_MS = 500
TEXT_MAX_CHARS = 4096
"""Characters one `input text` or ADBKeyBoard broadcast may type (issue 43: typed text was unbounded). A real
`input text` types a key event per character (4,096 take minutes); agents type words and sentences."""
FIELD_MAX_CHARS = 16384
"""Characters a text field may hold after typing: every field's text is in each UI dump and screenshot, so repeated
typing must not grow them without end."""
UI_DUMP_MAX_BYTES = 4 << 20
"""Bytes of XML `uiautomator dump` writes at most (a full screen dumps ~100 kB); past it the dump fails, naming the
size, instead of handing a client megabytes to parse."""


def _ints(args: list[str], n: int) -> list[int] | None:
    try:
        return [int(float(a)) for a in args[:n]] if len(args) >= n else None
    except ValueError:
        return None


# -- input -------------------------------------------------------------------------------------------------------------
def android_input_text(text: str) -> str:
    """What `input text` types for its argument: "%s" becomes a space, exactly as Android's InputShellCommand does.

    >>> android_input_text("a%sb%%sc")
    'a b% c'
    """
    buf, i, escaped = list(text), 0, False
    while i < len(buf):
        if escaped:
            escaped = False
            if buf[i] == "s":
                buf[i] = " "
                i -= 1
                del buf[i]
        if buf[i] == "%":
            escaped = True
        i += 1
    return "".join(buf)


def typing_refusal(t: ProgramTarget, text: str) -> str:
    """Why typing `text` into the focused field is refused ("": it is not): past `TEXT_MAX_CHARS` or `FIELD_MAX_CHARS`.

    >>> from android_gym.sim.adb.target import SimTarget
    >>> typing_refusal(SimTarget("s", "none"), "x" * 5000)[:60]
    'Error: refused to type 5000 characters: `input text` types a'
    """
    if len(text) > TEXT_MAX_CHARS:
        return (f"Error: refused to type {len(text)} characters: `input text` types at most {TEXT_MAX_CHARS} at once "
                "on the simulated phone; split the text into several commands")
    field = t.phone.top.fields.get(t.phone.top.focus, "") if t.phone.top.focus is not None else ""
    if len(field) + len(text) > FIELD_MAX_CHARS:
        return (f"Error: refused to type {len(text)} characters: the focused field holds {len(field)} and takes at "
                f"most {FIELD_MAX_CHARS}; clear it first")
    return ""


def _type(t: ProgramTarget, text: str) -> None:
    """Type through the phone; a newline is the ENTER key, as the virtual key map sends it."""
    for k, line in enumerate(text.split("\n")):
        if k:
            t.phone.key("enter")
        if line:
            t.phone.type_text(line)


def cmd_input(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`input [source] tap|swipe|draganddrop|text|keyevent|press ...`."""
    args = argv[1:]
    if args and args[0] in _SOURCES:
        args = args[1:]
    if not args:
        return err("Usage: input [<source>] <command> [<arg>...]")
    verb, rest = args[0], args[1:]
    phone = t.phone
    try:
        if verb == "tap":
            xy = _ints(rest, 2)
            if xy is None:
                return err("Error: Invalid arguments for command: tap")
            if _on_screen(t, *xy):
                phone.tap(*xy)
        elif verb in ("swipe", "draganddrop"):
            pts = _ints(rest, 4)
            if pts is None:
                return err(f"Error: Invalid arguments for command: {verb}")
            duration = _ints(rest[4:], 1) or [300]
            if _on_screen(t, *pts[:2]) and _on_screen(t, *pts[2:]):
                still = abs(pts[2] - pts[0]) < 60 and abs(pts[3] - pts[1]) < 60
                if still and duration[0] >= _LONG_PRESS_MS:
                    phone.long_press(*pts[:2])
                else:
                    phone.swipe(*pts)
        elif verb == "text":
            if not rest:
                return err("Error: Invalid arguments for command: text")
            text = android_input_text(rest[0])
            bad = [c for c in text if not (" " <= c <= "~" or c in "\n\t")]
            if bad:
                return err("Exception occurred while executing 'text':\njava.lang.NullPointerException: Attempt to "
                            "get length of null array\n\tat com.android.server.input.InputShellCommand.sendText",
                            255)
            if refusal := typing_refusal(t, text):
                return err(refusal, 255)
            _type(t, text)
        elif verb == "keyevent":
            codes = [a for a in rest if not a.startswith("--")]
            for code in codes:
                number = keycode(code)
                if number is None:
                    return err(f"Error: Unknown keycode: {code}")
                _press(t, number)
        elif verb in ("press", "roll", "motionevent", "keycombination"):
            pass
        else:
            return err(f"Error: Unknown command: {verb}")
    except AndroidGymError as e:  # the phone refused (e.g. a launch it cannot do); a real device would just ignore it
        return err(f"Error: {e}")
    return ok()


def keycode(name: str) -> int | None:
    """The keycode `input keyevent` sends for `name`: a number, or a name with or without "KEYCODE_".

    >>> keycode("KEYCODE_HOME"), keycode("VOLUME_UP"), keycode("26"), keycode("NOPE")
    (3, 24, 26, None)
    """
    if name.isdigit():
        return int(name)
    symbol = name.upper().removeprefix("KEYCODE_")
    return KEYCODE_NAMES.get("KEYCODE_" + symbol, _MORE_KEYCODES.get(symbol))


def _press(t: ProgramTarget, number: int) -> None:
    """One key press: the phone acts on `PHONE_KEYS`; POWER, SLEEP and WAKEUP switch the screen; ENDCALL hangs up."""
    state = device_state(t)
    if number == KEYCODE_ENDCALL:
        t.phone.send_intent(Intent(END_CALL))
    elif number in (KEYCODE_POWER, KEYCODE_SLEEP, KEYCODE_WAKEUP):
        state.is_screen_on = number == KEYCODE_WAKEUP or (number == KEYCODE_POWER and not state.is_screen_on)
    elif number in PHONE_KEYS:
        t.phone.key(PHONE_KEYS[number])


def _on_screen(t: ProgramTarget, x: int, y: int) -> bool:
    return 0 <= x < t.phone.width and 0 <= y < t.phone.height  # off-screen events are injected into nothing


# -- screen ------------------------------------------------------------------------------------------------------------
def cmd_screencap(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`screencap [-p] [-d display] [file]`: raw RGBA (16-byte header) or PNG, to stdout or a file."""
    args = [a for a in argv[1:] if a not in ("-p", "-j")]
    if "-d" in args:
        i = args.index("-d")
        del args[i:i + 2]
    data = t.png() if "-p" in argv or (args and args[-1].endswith(".png")) else t.raw()
    if args:
        return _write_file(t, args[-1], data, b"", "screencap")
    return data, b"", 0


def cmd_wm(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`wm size` / `wm density` (read-only: the sim's panel is fixed)."""
    sub = argv[1] if len(argv) > 1 else ""
    if sub == "size":
        return ok(f"Physical size: {t.phone.width}x{t.phone.height}\n")
    if sub == "density":
        return ok("Physical density: 420\n")
    return err(f"Error: unknown command '{sub}'", 255) if sub else ok("usage: wm [size|density] ...\n")


def cmd_uiautomator(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`uiautomator dump [--compressed] [file]`; the default file is /sdcard/window_dump.xml."""
    args = [a for a in argv[1:] if not a.startswith("--")]
    if not args or args[0] != "dump":
        return err("Usage: uiautomator <subcommand> [options]\n  dump: creates an XML dump of current UI hierarchy")
    path = args[1] if len(args) > 1 else "/sdcard/window_dump.xml"
    xml = t.phone.xml().encode("utf-8")
    if len(xml) > UI_DUMP_MAX_BYTES:
        return err(f"ERROR: the UI hierarchy is {len(xml)} bytes, over the simulated uiautomator's limit of "
                   f"{UI_DUMP_MAX_BYTES} (issue 43); clear the text fields that grew", 1)
    message = f"UI hierchary dumped to: {path}\n".encode()  # sic: uiautomator's own spelling
    if path == "/dev/tty":
        return xml + message, b"", 0
    return _write_file(t, path, xml, message, "uiautomator")


def _write_file(t: ProgramTarget, path: str, data: bytes, message: bytes, program: str) -> Out:
    """Store a program's output file within the phone's storage quota (issue 43), else fail as on a full disk.

    Programs run under the target's lock (`SimTarget.run`), so the check and the write are one step.
    """
    if t.free_bytes(replacing=path) < len(data):
        return err(f"{program}: {path}: No space left on device (raise SimTarget(storage_quota_bytes=...) to "
                   "allow more)", 1)
    t.files[path] = data
    return message, b"", 0


# -- apps and intents --------------------------------------------------------------------------------------------------
def _installed(t: ProgramTarget, package: str) -> bool:
    return package in t.phone.packages()


def cmd_am(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`am start [-W] [-n pkg/.Act] ...`, `stack list`, `task lock ID`, `force-stop pkg`, `broadcast -a ACTION ...`."""
    sub, args = (argv[1] if len(argv) > 1 else ""), argv[2:]
    opts = _options(args)
    if sub == "start":
        component = opts.get("-n", "")
        package = component.split("/")[0] if component else opts.get("package", "")
        if not component and "-d" in opts:
            return start_data_intent(t, opts.get("-a", ACTION_VIEW), opts["-d"])
        if not package or not _installed(t, package):  # `am` reports on stderr and still exits 0
            return err(f"Error: Activity not started, unable to resolve Intent {{ cmp={component} }}", 0)
        t.phone.launch(package)
        started = f"Starting: Intent {{ cmp={component} }}\n"
        if "-W" not in args:
            return ok(started)
        millis = launch_millis(package)  # what `am start -W` waits for, as the log's `Displayed` line says
        return ok(f"{started}Status: ok\nLaunchState: COLD\nActivity: {dump.activity_of(t.phone)}\n"
                  f"TotalTime: {millis}\nWaitTime: {millis + 4}\nComplete\n")
    if sub == "stack" and args[:1] == ["list"]:
        return ok(am_stack_list(t.phone))
    if sub == "stack" and args[:1] == ["remove"]:  # a task swiped away in Overview
        closed = [p for p, task in task_ids(t.phone).items() if args[1:] == [str(task)]]
        if closed and t.phone.close_task(closed[0]):
            return ok()
        return err(f"Error: no removable task {args[1] if len(args) > 1 else ''}".rstrip(), 0)  # am exits 0 anyway
    if sub == "task" and args[:1] == ["lock"]:  # screen pinning: the sim pins nothing, but knows its tasks
        if len(args) == 2 and args[1].isdigit() and int(args[1]) in task_ids(t.phone).values():
            return ok()
        return err(f"Error: no task {args[1] if len(args) > 1 else ''}".rstrip(), 0)
    if sub == "force-stop":
        if args and t.phone.foreground == args[-1]:
            t.phone.go_home()
        return ok()
    if sub == "broadcast":
        action = opts.get("-a", "")
        extras = opts.get("extras", {})
        if action in ("ADB_INPUT_B64", "ADB_INPUT_TEXT") and _adb_keyboard_active(t):
            try:
                text = base64.b64decode(extras.get("msg", ""), validate=True).decode("utf-8") \
                    if action == "ADB_INPUT_B64" else extras.get("msg", "")
            except (binascii.Error, UnicodeDecodeError):
                text = ""
            if refusal := typing_refusal(t, text):
                return err(refusal.replace("`input text`", "ADBKeyBoard"), 255)
            if text:
                t.phone.type_text(text)  # the IME commits the text as is: newlines and Unicode included
        if action in ("clipper.get", "clipper.set"):  # the Clipper helper AndroidWorld reads the clipboard with
            if action == "clipper.set":
                t.phone.set_clipboard(extras.get("text", ""))
            data = t.phone.clipboard.text if action == "clipper.get" else "Text is copied into clipboard."
            return ok(f"Broadcasting: Intent {{ act={action} flg=0x400000 }}\nBroadcast completed: result=-1, "
                      f'data="{data}"\n')
        return ok(f"Broadcasting: Intent {{ act={action} flg=0x400000 (has extras) }}\nBroadcast completed: "
                   "result=0\n")
    return err(f"Error: unknown command '{sub}'" if sub else "usage: am [subcommand] [options]")


def _options(args: list[str]) -> dict:
    opts: dict = {"extras": {}}
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--es", "-e", "--ei", "--ez", "--el", "--ef", "--esa", "--eu") and i + 2 < len(args):
            opts["extras"][args[i + 1]] = args[i + 2]
            i += 3
        elif a in ("-n", "-a", "-c", "-d", "-t", "-f", "--user") and i + 1 < len(args):
            opts[a] = args[i + 1]
            i += 2
        else:
            if not a.startswith("-"):
                opts["package"] = a
            i += 1
    return opts


def _adb_keyboard_active(t: ProgramTarget) -> bool:
    return t.settings.get(("secure", "default_input_method")) == ADB_KEYBOARD_IME and ADB_KEYBOARD_IME in t.imes


def cmd_monkey(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`monkey -p <package> [-c category] <count>`: the usual way to launch an app without knowing its activity."""
    package = argv[argv.index("-p") + 1] if "-p" in argv and argv.index("-p") + 1 < len(argv) else ""
    if not package or not _installed(t, package):
        return err("** No activities found to run, monkey aborted.", 251)
    t.phone.launch(package)
    return ok(f"  bash arg: -p\n  bash arg: {package}\nEvents injected: 1\n## Network stats: elapsed time=12ms\n")


def cmd_ime(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`ime list -s`, `ime set ID`, `ime enable ID`."""
    if len(argv) > 1 and argv[1] == "list":
        return ok("".join(i + "\n" for i in t.imes))
    if len(argv) > 2 and argv[1] in ("set", "enable"):
        if argv[2] not in t.imes:
            return err(f"Unknown input method {argv[2]} cannot be selected for user #0")
        if argv[1] == "set":
            t.settings[("secure", "default_input_method")] = argv[2]
        return ok(f"Input method {argv[2]} selected for user #0\n")
    return err("usage: ime list|set|enable")


# -- settings and properties -------------------------------------------------------------------------------------------
_MAPPED = {(s.namespace, s.name): s for s in SETTINGS}


def cmd_settings(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`settings get|put|delete <namespace> <key> [value]`, `settings list <namespace>` (keys the sim models map onto
    `phone.system`)."""  # noqa: D205, D209
    if len(argv) == 3 and argv[1] == "list" and argv[2] in ("global", "secure", "system"):
        known = {key: value for (namespace, key), value in (*SETTING_DEFAULTS.items(), *t.settings.items())
                 if namespace == argv[2]}
        known |= {s.name: s.encode(t.phone.system[s.key]) for s in SETTINGS if s.namespace == argv[2]}
        return ok("".join(f"{key}={value}\n" for key, value in sorted(known.items())))
    if len(argv) < 4 or argv[1] not in ("get", "put", "delete") or argv[2] not in ("global", "secure", "system"):
        return err("usage:  settings [--user <USER_ID>] get namespace key\n        settings put namespace key value")
    verb, key = argv[1], (argv[2], argv[3])
    mapped = _MAPPED.get(key)
    if verb == "get":
        if mapped is not None:
            return ok(mapped.encode(t.phone.system[mapped.key]) + "\n")
        return ok(t.settings.get(key, SETTING_DEFAULTS.get(key, "null")) + "\n")
    if verb == "delete":
        t.settings.pop(key, None)
        return ok("Deleted 1 rows\n")
    if len(argv) < 5:
        return err("Error: put requires a value")
    if mapped is not None:
        t.phone.set_system(mapped.key, mapped.decode(argv[4]))
    else:
        t.settings[key] = argv[4]
    return ok()


def cmd_svc(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`svc wifi|bluetooth enable|disable`."""
    keys = {"wifi": "wifi", "bluetooth": "bluetooth"}
    if len(argv) < 3 or argv[1] not in keys or argv[2] not in ("enable", "disable"):
        return err("usage: svc wifi|bluetooth enable|disable")
    return switch_setting(t, keys[argv[1]], argv[2] == "enable")


def cmd_getprop(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`getprop [key]`."""
    if len(argv) > 1:
        return ok(t.props.get(argv[1], "") + "\n")
    return ok(dump.getprop_listing(t.props))


def cmd_setprop(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`setprop key value`."""
    if len(argv) != 3:
        return err("usage: setprop NAME VALUE")
    t.props[argv[1]] = argv[2]
    return ok()


def cmd_cmd(t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`cmd statusbar expand-notifications | expand-settings | collapse`, `cmd connectivity|wifi ...` (as on Android),
    and `cmd android_gym reset SEED B64JSON | tick | state`: the sim's control service (absent on real phones)."""  # noqa: D205, D209
    if len(argv) >= 2 and argv[1] in ("connectivity", "wifi"):
        return radio_service(t, argv)
    if len(argv) >= 2 and argv[1] == "statusbar":
        match argv[2:]:
            case ["expand-notifications"] | ["expand-settings"]:
                t.phone.open_shade()
                return ok()
            case ["collapse"]:
                t.phone.close_shade()
                return ok()
        return err("usage: cmd statusbar expand-notifications | expand-settings | collapse", 255)
    if len(argv) >= 2 and argv[1] == "package":
        return package_service(t, argv[2:])
    if len(argv) < 3 or argv[1] != "android_gym":
        return err(f"cmd: Can't find service: {argv[1] if len(argv) > 1 else ''}", 20)
    verb = argv[2]
    if verb == "state":
        state = t.phone.state()
        return ok(json.dumps({**state, "apps": dict(state["apps"])}, separators=(",", ":")) + "\n")
    if verb == "tick":
        t.phone.tick()
        return ok()
    if verb == "reset" and len(argv) >= 4 and re.fullmatch(r"-?\d+", argv[3]):
        try:
            initial = json.loads(base64.b64decode(argv[4]).decode("utf-8")) if len(argv) > 4 else None
            t.phone.reset(int(argv[3]), initial)
        except (ValueError, binascii.Error) as e:  # ConfigError is a ValueError
            return err(f"Error: {e}", 2)
        return ok()
    return err("usage: cmd android_gym reset SEED [B64JSON] | tick | state", 2)


def programs(t: ProgramTarget) -> dict[str, Callable[[Shell, list[str], bytes], Out]]:
    """Every program bound to `t`, by name."""
    table: dict[str, Callable[[ProgramTarget, list[str], bytes], Out]] = {
        "input": cmd_input, "screencap": cmd_screencap, "wm": cmd_wm, "uiautomator": cmd_uiautomator,
        "am": cmd_am, "monkey": cmd_monkey, "ime": cmd_ime, "settings": cmd_settings,
        "svc": cmd_svc, "getprop": cmd_getprop, "setprop": cmd_setprop, "cmd": cmd_cmd,
        **COREUTILS, **SYSTEM_PROGRAMS, **PROCESS_PROGRAMS,
    }
    table["which"] = partial(_which, frozenset(table) | {"which"})
    return {name: partial(_call, fn, t) for name, fn in table.items()}


SCREEN_READS = frozenset({"screencap", "uiautomator"})
"""Programs that read the screen: they wait for the phone to settle after its last input (`Settling`)."""
INPUTS = frozenset({"input", "monkey"})
"""Programs that act on the phone (as do `am start` and `am broadcast`): each starts a settle (`Settling`)."""


def _which(names: frozenset[str], t: ProgramTarget, argv: list[str], stdin: bytes) -> Out:
    """`which NAME...`: toybox's, over the programs this shell has (all in /system/bin)."""
    found = [f"/system/bin/{n}\n" for n in argv[1:] if n in names]
    return ok("".join(found))[:2] + (0 if argv[1:] and len(found) == len(argv) - 1 else 1,)


def _call(fn: Callable[[ProgramTarget, list[str], bytes], Out], t: ProgramTarget, shell: Shell, argv: list[str],
          stdin: bytes) -> Out:
    if argv[0] in SCREEN_READS:
        t.settling.wait_settled()
    out = fn(t, argv, stdin)
    if argv[0] in INPUTS or (argv[0] == "am" and argv[1:2] in (["start"], ["broadcast"])):
        t.settling.touched()
    return out
