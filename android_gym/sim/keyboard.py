"""The soft keyboard: a Gboard-like view that appears over the bottom of the screen while a field is focused."""

from __future__ import annotations

from functools import lru_cache

from android_gym.sim.events import DeleteKey, EnterKey, NoopKey, PhoneEvent, TypeKey
from android_gym.sim.layout import CONTENT_BOTTOM, FRAME, KEYBOARD_H, WIDTH
from android_gym.sim.view import View

IME_PACKAGE = "com.google.android.inputmethod.latin"
ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
KEYBOARD_TOP = CONTENT_BOTTOM - KEYBOARD_H


@lru_cache(maxsize=1)
def keyboard_view() -> View:
    """The keyboard tree, computed once and shared (views are never mutated after they are built)."""
    key_h = KEYBOARD_H // 4
    keys: list[View] = []
    for r, row in enumerate(ROWS):
        key_w = WIDTH // 10
        left = (WIDTH - key_w * len(row)) // 2
        top = KEYBOARD_TOP + r * key_h
        for i, ch in enumerate(row):
            keys.append(_key((left + i * key_w, top, left + (i + 1) * key_w, top + key_h), ch, TypeKey(ch)))
    top = KEYBOARD_TOP + 3 * key_h
    # Delete sits right of the last letter of the third row ("m"), never over it.
    row3_right = (WIDTH + (WIDTH // 10) * len(ROWS[2])) // 2
    keys.append(_key((row3_right, KEYBOARD_TOP + 2 * key_h, WIDTH, KEYBOARD_TOP + 3 * key_h),
                     "Delete", DeleteKey(), icon="backspace"))
    keys.append(_key((0, top, WIDTH // 5, top + key_h), "Symbols", NoopKey()))
    keys.append(_key((WIDTH // 5, top, WIDTH * 7 // 10, top + key_h), "Space", TypeKey(" ")))
    keys.append(_key((WIDTH * 7 // 10, top, WIDTH * 17 // 20, top + key_h), ".", TypeKey(".")))
    keys.append(_key((WIDTH * 17 // 20, top, WIDTH, top + key_h), "Enter", EnterKey(), icon="enter"))
    return View(FRAME, (0, KEYBOARD_TOP, WIDTH, CONTENT_BOTTOM), rid=f"{IME_PACKAGE}:id/keyboard_holder",
                package=IME_PACKAGE, style="keyboard", children=keys)


def _key(bounds: tuple[int, int, int, int], desc: str, event: PhoneEvent, icon: str = "") -> View:
    return View(FRAME, bounds, desc=desc, package=IME_PACKAGE, clickable=True, on_tap=event, style="key", icon=icon,
                text=desc if len(desc) == 1 else "")

