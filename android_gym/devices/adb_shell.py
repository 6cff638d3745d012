"""Android shell knowledge shared by `AdbDevice` and the sim's ADB front: quoting, key codes, settings, output parsers.

Everything here is a pure function of strings or bytes, tested on real captured outputs
(`../shared/fixtures/real/shell`). The quoting rules are what keep model-generated text from ever running as a
command on the device: see `quote` and `plan_text_input`.
"""

from __future__ import annotations

import base64
import io
import re
import shlex
import struct
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PIL import Image, UnidentifiedImageError

from android_gym.errors import DeviceProtocolError

KEYCODES = {"back": 4, "home": 3, "enter": 66, "recents": 187, "wakeup": 224, "menu": 82, "delete": 67, "tab": 61}
"""Key names of the Device contract -> Android `KEYCODE_*` numbers (`input keyevent`)."""

KEYCODE_NAMES = {"KEYCODE_BACK": 4, "KEYCODE_HOME": 3, "KEYCODE_ENTER": 66, "KEYCODE_APP_SWITCH": 187,
                 "KEYCODE_WAKEUP": 224, "KEYCODE_MENU": 82, "KEYCODE_DEL": 67, "KEYCODE_TAB": 61}
"""`input keyevent` also takes these symbolic names."""

ADB_KEYBOARD_IME = "com.android.adbkeyboard/.AdbIME"
"""The ADBKeyBoard input method (github senzhk/ADBKeyBoard): types any Unicode text sent as a base64 broadcast."""

INPUT_TEXT_SAFE = frozenset(chr(c) for c in range(0x20, 0x7F))
"""Characters `input text` can type (its virtual key map is ASCII only; anything else makes it throw)."""


@dataclass(frozen=True)
class Setting:
    """One Android setting mirrored as a key of the device state's `system` dict (the sim's names).

    Attributes:
        key: the `state["system"]` key ("wifi").
        namespace: `settings` namespace ("global", "secure", "system").
        name: the Android setting ("wifi_on").
        encode: state value -> the string `settings put` writes.
        decode: the string `settings get` prints -> state value (None for "null", an unset key).
    """

    key: str
    namespace: str
    name: str
    encode: Callable[[object], str]
    decode: Callable[[str], object]


def _flag(on: str = "1", off: str = "0") -> tuple[Callable[[object], str], Callable[[str], object]]:
    return (lambda v: on if v else off), (lambda s: None if s == "null" else s.strip() not in ("0", off, ""))


_FONT_SCALES = {"Small": "0.85", "Default": "1.0", "Large": "1.15", "Largest": "1.3"}

SETTINGS: tuple[Setting, ...] = (
    Setting("wifi", "global", "wifi_on", *_flag()),
    Setting("bluetooth", "global", "bluetooth_on", *_flag()),
    Setting("airplane_mode", "global", "airplane_mode_on", *_flag()),
    Setting("battery_saver", "global", "low_power", *_flag()),
    Setting("do_not_disturb", "global", "zen_mode", *_flag()),
    Setting("location", "secure", "location_mode", *_flag("3", "0")),
    Setting("dark_theme", "secure", "ui_night_mode", lambda v: "2" if v else "1",
            lambda s: None if s == "null" else s.strip() == "2"),
    Setting("auto_rotate", "system", "accelerometer_rotation", *_flag()),
    Setting("brightness", "system", "screen_brightness", lambda v: str(round(int(v) * 255 / 100)),  # type: ignore[call-overload]
            lambda s: None if s == "null" else round(int(s) * 100 / 255)),
    Setting("font_size", "system", "font_scale", lambda v: _FONT_SCALES.get(str(v), "1.0"),
            lambda s: None if s == "null" else min(_FONT_SCALES, key=lambda k: abs(float(_FONT_SCALES[k]) - float(s)))),
)
"""The settings a task check may read on any device (Android's names, the sim's units)."""


def quote(arg: str) -> str:
    """Quote one argument for the device's `sh` so that it arrives as exactly one literal word.

    >>> print(quote("it's; reboot $(id)"))
    'it'"'"'s; reboot $(id)'
    """
    return shlex.quote(arg)


def input_text_commands(text: str) -> list[str]:
    """`input text` command lines that type `text` (printable ASCII only) literally.

    `input text` turns "%s" into a space, so spaces are sent as "%s" and a literal "%s" is split over two calls.
    Each argument is single-quoted, so `;`, `&&`, `$()`, backticks and quotes reach `input` as plain characters.

    >>> input_text_commands("50%s off; ok")
    ['input text 50%', "input text 's%soff;%sok'"]

    Raises:
        ValueError: `text` holds a character `input text` cannot type (use the ADB keyboard).
    """
    bad = sorted({c for c in text if c not in INPUT_TEXT_SAFE})
    if bad:
        raise ValueError(f"`input text` cannot type {bad!r}; install ADBKeyBoard ({ADB_KEYBOARD_IME})")
    chunks = text.split("%s")
    out = []
    for i, chunk in enumerate(chunks):
        piece = chunk.replace(" ", "%s") + ("%" if i < len(chunks) - 1 else "")
        if i > 0:
            piece = "s" + piece
        if piece:
            out.append("input text " + quote(piece))
    return out


def adb_keyboard_command(text: str) -> str:
    """The ADBKeyBoard broadcast that types `text` (any Unicode, newlines included); base64 needs no quoting.

    >>> adb_keyboard_command("a;b")
    'am broadcast -a ADB_INPUT_B64 --es msg YTti'
    """
    return "am broadcast -a ADB_INPUT_B64 --es msg " + base64.b64encode(text.encode("utf-8")).decode("ascii")


# -- parsers of real outputs -------------------------------------------------------------------------------------------
# ASCII digits, at most 6 (issue 20): int() of a 5,000-digit run raised ValueError, and `\d` matched other scripts.
_SIZE = re.compile(r"(Physical|Override) size:\s*([0-9]{1,6})x([0-9]{1,6})(?![0-9])")


def parse_wm_size(text: str) -> tuple[int, int]:
    r"""Screen (width, height) in pixels from `wm size`; an override size wins (it is what input and screenshots use).

    Both numbers are positive: a size with a zero (or more than 6 digits) is garbage and ignored, since the
    observation encoder divides by it.

    >>> parse_wm_size("Physical size: 1080x1920\nOverride size: 480x1024")
    (480, 1024)

    Raises:
        DeviceProtocolError: no positive size in the output.
    """
    sizes = {kind: (int(w), int(h)) for kind, w, h in _SIZE.findall(text) if int(w) > 0 and int(h) > 0}
    size = sizes.get("Override") or sizes.get("Physical")
    if size is None:
        raise DeviceProtocolError(f"`wm size` printed no size: {text[:120]!r}")
    return size


_FOCUS = re.compile(r"(mCurrentFocus|mFocusedApp)=(?:Window|ActivityRecord)\{\S+ \S+ ([\w.]+)/([\w.$]+)")


def parse_focus(text: str) -> tuple[str, str] | None:
    """(package, activity) in front, from `dumpsys window` (or its `grep mCurrentFocus|mFocusedApp` lines).

    The last non-null `mCurrentFocus` wins (multi-display devices list several), then `mFocusedApp`; None when
    neither names an app (Android 13+ may print no `mCurrentFocus` at all).

    >>> parse_focus("  mCurrentFocus=Window{2cf u0 com.android.settings/com.android.settings.Settings}")
    ('com.android.settings', 'com.android.settings.Settings')
    """
    found: dict[str, tuple[str, str]] = {}
    for kind, package, activity in _FOCUS.findall(text):
        found[kind] = (package, activity)
    return found.get("mCurrentFocus") or found.get("mFocusedApp")


_PROP = re.compile(r"^\s*\[([^\]]+)\]: \[(.*)\]\s*$", re.M)


def parse_getprop(text: str) -> dict[str, str]:
    r"""Every `[key]: [value]` line of `getprop` (any indentation).

    >>> parse_getprop("  [ro.build.type]: [userdebug]\n[sys.boot_completed]: [1]")
    {'ro.build.type': 'userdebug', 'sys.boot_completed': '1'}
    """
    return dict(_PROP.findall(text))


# `when` in ASCII digits, at most 20 (a uint64 of ms; issue 20: int() of a 5,000-digit run raised ValueError).
_ALARM = re.compile(r"^\s*(RTC_WAKEUP|RTC|ELAPSED_WAKEUP|ELAPSED) #\d+: Alarm\{\S+ type (\d+) when ([0-9]{1,20}) "
                    r"([\w.]+)\}", re.M)


def parse_alarms(text: str) -> list[dict[str, object]]:
    r"""Pending alarms from `dumpsys alarm`: type, package, `when` (ms; wall clock for RTC types) and tag.

    Never raises: lines that are not alarms (a `when` of more than 20 digits included) are skipped.

    >>> parse_alarms("    RTC_WAKEUP #0: Alarm{bc6 type 0 when 1609719708402 com.x}\n      tag=*walarm*:com.x/.R")
    [{'type': 'RTC_WAKEUP', 'package': 'com.x', 'when_ms': 1609719708402, 'tag': '*walarm*:com.x/.R'}]
    """
    out: list[dict[str, object]] = []
    matches = list(_ALARM.finditer(text))
    for k, m in enumerate(matches):
        block = text[m.end(): matches[k + 1].start() if k + 1 < len(matches) else len(text)]
        tag = re.search(r"^\s*tag=(\S+)", block, re.M)
        out.append({"type": m.group(1), "package": m.group(4), "when_ms": int(m.group(3)),
                    "tag": tag.group(1) if tag else ""})
    return out


def parse_settings_value(text: str) -> str | None:
    r"""`settings get` output: the value, or None for "null" (an unset key).

    >>> parse_settings_value("1"), parse_settings_value("null\n")
    ('1', None)
    """
    value = text.strip()
    return None if value == "null" else value


# -- screenshots -------------------------------------------------------------------------------------------------------
_RAW_FORMATS = {1: ("RGBX", 4), 2: ("RGBX", 4), 3: ("RGB", 3), 5: ("BGRX", 4)}
"""`screencap` raw pixel formats (Android's PixelFormat ids: RGBA_8888, RGBX_8888, RGB_888, BGRA_8888) as PIL raw
modes that drop the alpha byte while decoding."""


def decode_raw_screencap(data: bytes) -> np.ndarray:
    """Decode `screencap` (no `-p`) output into uint8 RGB (H, W, 3).

    The header is width, height, format as little-endian uint32, plus a colour-space word on Android 9+ (16 bytes
    in all); which one is inferred from the length. Anything that does not add up is garbage, never a black image.

    Raises:
        DeviceProtocolError: truncated, oversized, or an unknown pixel format.
    """
    if len(data) < 12:
        raise DeviceProtocolError(f"raw screenshot is {len(data)} bytes, shorter than its 12-byte header")
    w, h, fmt = (int.from_bytes(data[i:i + 4], "little") for i in (0, 4, 8))
    if fmt not in _RAW_FORMATS or not (0 < w <= 16384 and 0 < h <= 16384):
        raise DeviceProtocolError(f"raw screenshot header is garbage (width {w}, height {h}, format {fmt})")
    mode, bpp = _RAW_FORMATS[fmt]
    body = w * h * bpp
    for header in (16, 12):
        if len(data) == header + body:  # PIL converts in C, 3-4x faster than slicing off alpha with numpy
            return np.asarray(Image.frombytes("RGB", (w, h), memoryview(data)[header:], "raw", mode))
    raise DeviceProtocolError(f"raw screenshot of {w}x{h} format {fmt} needs {body} pixel bytes after the header, "
                              f"got {len(data)} bytes in all (truncated or garbage)")


_MAX_PNG_PIXELS = 1 << 26  # 8192 x 8192, 8x a 4K screen; below PIL's decompression-bomb warning (89 M pixels)


def decode_png(data: bytes, serial: str = "the device") -> np.ndarray:
    """Decode `screencap -p` output into uint8 RGB (H, W, 3).

    Only PNG is read (PIL would also open GIF, BMP, TIFF, ... and each plugin fails its own way), and a header
    declaring more than 16384 pixels a side or `_MAX_PNG_PIXELS` in all is refused before any pixel is decoded
    (issue 20: a 60-byte PNG declaring 20000x20000 raised PIL's DecompressionBombError, and one declaring 11000x11000
    made PIL allocate 360 MB).

    Raises:
        DeviceProtocolError: not a PNG, a truncated or corrupt one (adbutils would give a black image or a bare
            OSError), or an oversized one.
    """
    # The declared size is checked from the header before PIL opens the file: PIL warns (DecompressionBombWarning)
    # at open time for sizes between its limit and twice it, before any check of ours could refuse them.
    if data[12:16] == b"IHDR" and len(data) >= 24:
        _check_png_size(*struct.unpack(">II", data[16:24]), serial)
    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as im:
            _check_png_size(im.width, im.height, serial)
            im.load()
            return np.asarray(im.convert("RGB"))
    # EOFError: PIL's PNG plugin ends a truncated APNG frame sequence with it.
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, Image.DecompressionBombError) as e:
        raise DeviceProtocolError(f"`screencap -p` on {serial} returned {len(data)} bytes that are not a complete "
                                  f"PNG ({e})") from e


def _check_png_size(width: int, height: int, serial: str) -> None:
    if not (0 < width <= 16384 and 0 < height <= 16384 and width * height <= _MAX_PNG_PIXELS):
        raise DeviceProtocolError(f"`screencap -p` on {serial} returned a PNG of {width}x{height} pixels; more than "
                                  f"16384 a side or {_MAX_PNG_PIXELS} in all is garbage")


def encode_raw_screencap(rgb: np.ndarray, colour_space: bool = True) -> bytes:
    """The bytes `screencap` writes for an RGB image (RGBA_8888, Android 9+ 16-byte header by default).

    >>> len(encode_raw_screencap(np.zeros((2, 3, 3), np.uint8)))
    40
    """
    h, w, _ = rgb.shape
    rgba = np.empty((h, w, 4), np.uint8)
    rgba[:, :, :3] = rgb
    rgba[:, :, 3] = 255
    header = w.to_bytes(4, "little") + h.to_bytes(4, "little") + (1).to_bytes(4, "little")
    if colour_space:
        header += (0).to_bytes(4, "little")
    return header + rgba.tobytes()


# -- apps and device state ---------------------------------------------------------------------------------------------
APP_PACKAGES: dict[str, tuple[str, ...]] = {
    "chrome": ("com.android.chrome",), "browser": ("com.android.chrome", "org.mozilla.firefox"),
    "settings": ("com.android.settings",), "clock": ("com.google.android.deskclock", "com.android.deskclock"),
    "alarm": ("com.google.android.deskclock", "com.android.deskclock"), "youtube": ("com.google.android.youtube",),
    "play store": ("com.android.vending",), "google play": ("com.android.vending",),
    "gmail": ("com.google.android.gm",),
    "maps": ("com.google.android.apps.maps",), "photos": ("com.google.android.apps.photos",),
    "camera": ("com.google.android.GoogleCamera", "com.android.camera2"),
    "phone": ("com.google.android.dialer", "com.android.dialer"),
    "messages": ("com.google.android.apps.messaging", "com.android.messaging"),
    "calendar": ("com.google.android.calendar", "com.android.calendar"),
    "contacts": ("com.google.android.contacts", "com.android.contacts"),
    "files": ("com.google.android.apps.nbu.files", "com.android.documentsui"),
}
"""App names agents say -> the packages that provide them (Pixel first, then AOSP)."""


def resolve_app(name: str, installed: set[str], extra: dict[str, str] | None = None) -> str | None:
    """The installed package an app name refers to: a package name, a known name, or a package ending in it.

    >>> resolve_app("YouTube", {"com.google.android.youtube", "com.android.settings"})
    'com.google.android.youtube'
    >>> resolve_app("com.android.settings", {"com.android.settings"}), resolve_app("Foo", {"com.android.settings"})
    ('com.android.settings', None)
    """
    key = " ".join(name.strip().lower().split())
    if name.strip() in installed:
        return name.strip()
    extra_lower = {k.lower(): v for k, v in (extra or {}).items()}
    for package in ((extra_lower[key],) if key in extra_lower else ()) + APP_PACKAGES.get(key, ()):
        if package in installed:
            return package
    squashed = key.replace(" ", "")
    matches = sorted(p for p in installed if squashed and p.lower().rsplit(".", 1)[-1].endswith(squashed))
    return matches[0] if matches else None


_SECTION = "@@android_gym@@"


def state_query(with_alarms: bool = False) -> str:
    """One shell command line that prints what `parse_state` reads (one round trip for the whole state)."""
    parts = ["dumpsys window | grep -E 'mCurrentFocus|mFocusedApp'"]
    parts += [f"settings get {s.namespace} {s.name}" for s in SETTINGS]
    if with_alarms:
        parts.append("dumpsys alarm")
    return f"; echo {_SECTION}; ".join(parts)


def parse_state(text: str, with_alarms: bool = False) -> dict[str, object]:
    """The device state a task check reads, from `state_query` output, with the sim's key names.

    Returns:
        {"foreground": package or None, "activity": "package/activity" or None, "system": {key: value or None},
        and "alarms" (a `parse_alarms` list) when asked}.

    A setting whose value cannot be decoded (garbage, a number too large for a float) reads as None.

    Raises:
        DeviceProtocolError: the output does not have one section per query.
    """
    sections = text.split(_SECTION + "\n")
    expected = 1 + len(SETTINGS) + with_alarms
    if len(sections) != expected:
        raise DeviceProtocolError(f"state query printed {len(sections)} sections, expected {expected}")
    focus = parse_focus(sections[0])
    system: dict[str, object] = {}
    for setting, raw in zip(SETTINGS, sections[1:1 + len(SETTINGS)], strict=True):
        value = parse_settings_value(raw)
        try:
            system[setting.key] = None if value is None else setting.decode(value)
        except (ValueError, OverflowError):  # garbage; OverflowError: a 400-digit brightness (issue 20)
            system[setting.key] = None
    state: dict[str, object] = {"foreground": focus[0] if focus else None,
                                "activity": "/".join(focus) if focus else None, "system": system}
    if with_alarms:
        state["alarms"] = parse_alarms(sections[-1])
    return state
