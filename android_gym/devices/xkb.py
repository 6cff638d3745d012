"""XKB keysyms, the keys of the emulator's gRPC `KeyboardEvent` on Linux hosts, and the Android keycodes they stand for.

One table for both ends of the gRPC path: `EmulatorGrpc` sends `KEYSYM_BY_KEYCODE[keycode]`; the simulated emulator
reads every keysym of `KEYCODE_BY_KEYSYM` (those plus the aliases other clients send) and types the character of a
printable one (`keysym_text`).

>>> hex(KEYSYM_BY_KEYCODE[KEYCODE_BACK]), KEYCODE_BY_KEYSYM[0x1008FF26] == KEYCODE_BACK
('0xff1b', True)
"""

from __future__ import annotations

KEYCODE_HOME, KEYCODE_BACK, KEYCODE_TAB, KEYCODE_ENTER, KEYCODE_DEL = 3, 4, 61, 66, 67
KEYSYM_BY_KEYCODE = {KEYCODE_BACK: 0xFF1B, KEYCODE_HOME: 0xFF50, KEYCODE_ENTER: 0xFF0D, KEYCODE_DEL: 0xFF08,
                     KEYCODE_TAB: 0xFF09}
"""Android keycode -> the keysym we send: BACK Escape (as AndroidEnv users send), HOME Home, ENTER Return, DEL
BackSpace, TAB Tab. Other keys have none here: send them over ADB."""
KEYCODE_BY_KEYSYM = {**{keysym: keycode for keycode, keysym in KEYSYM_BY_KEYCODE.items()},
                     0xFF8D: KEYCODE_ENTER, 0xFFFF: KEYCODE_DEL, 0x1008FF26: KEYCODE_BACK, 0x1008FF18: KEYCODE_HOME}
"""Keysym -> Android keycode, ours and the aliases: KP_Enter, Delete, XF86Back, XF86HomePage."""


def keysym_text(keysym: int) -> str | None:
    """The character a printable keysym types (Latin-1 keysyms are the character; 0x01000000 + code point).

    >>> keysym_text(0x61), keysym_text(0x20), keysym_text(0x010020AC), keysym_text(0xFF0D)
    ('a', ' ', '€', None)
    """
    if 0x20 <= keysym <= 0x7E or 0xA0 <= keysym <= 0xFF:
        return chr(keysym)
    if 0x01000100 <= keysym <= 0x0110FFFF:
        return chr(keysym - 0x01000000)
    return None
