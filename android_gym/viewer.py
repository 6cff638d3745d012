"""Frames a person can read (`android-gym play`'s GIF and strip).

Each screen gets the goal above it, the action taken on it drawn where it happened, and the action's text and
outcome below.

A tap is a ring at the touch point, a swipe an arrow from touch to lift, a long press a filled ring; key, type and
status actions are named in the caption only. The last frame says how the episode ended.
"""

from __future__ import annotations

import textwrap

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from android_gym.actions import Action, ActionType

MARK = (235, 40, 40)
"""The colour of touch marks and arrows (a red that reads on light and dark screens)."""
BAND = (24, 24, 28)
"""The background of the goal and caption bands."""


def annotate(frame: np.ndarray, goal: str, caption: str, action: Action | None = None) -> Image.Image:
    """`frame` (H x W x 3 uint8) with `goal` in a band above, `caption` in a band below, and `action` drawn on it.

    >>> shot = annotate(np.zeros((200, 100, 3), np.uint8), "Open Settings", "step 1: tap", Action.tap(0.5, 0.5))
    >>> shot.width, shot.height > 200, bool((np.asarray(shot) == MARK).all(-1).any())  # bands added, the tap marked
    (100, True, True)
    """
    screen = Image.fromarray(np.asarray(frame, np.uint8)).convert("RGB")
    width = screen.width
    size = max(10, width // 28)
    font = _font(size)
    if action is not None:
        _draw_action(ImageDraw.Draw(screen), action, screen.size, size)
    chars = max(12, int(width / (size * 0.55)))
    top = textwrap.wrap(f"Goal: {goal}", chars)[:3] or [""]
    bottom = textwrap.wrap(caption, chars)[:2] or [""]
    line = int(size * 1.3)
    out = Image.new("RGB", (width, screen.height + line * (len(top) + len(bottom)) + 12), BAND)
    draw = ImageDraw.Draw(out)
    for i, text in enumerate(top):
        draw.text((4, 3 + i * line), text, fill=(255, 255, 255), font=font)
    y_screen = line * len(top) + 6
    out.paste(screen, (0, y_screen))
    for i, text in enumerate(bottom):
        draw.text((4, y_screen + screen.height + 3 + i * line), text, fill=(255, 220, 120), font=font)
    return out


def describe(action: Action) -> str:
    """A caption for `action`: what a person would say it did.

    >>> describe(Action.tap(0.5, 0.25)), describe(Action.type("usb cable")), describe(Action.key(ActionType.PRESS_BACK))
    ('tap at (0.50, 0.25)', "type 'usb cable'", 'press Back')
    """
    kind, text = action.action_type, action.text
    if not action.is_parsed:
        return f"unparsable output: {action.parse_error}"
    where = f"element {action.element}" if action.element >= 0 else f"({action.touch[0]:.2f}, {action.touch[1]:.2f})"
    match kind:
        case ActionType.DUAL_POINT if action.element >= 0 or action.is_tap:
            return f"tap at {where}"
        case ActionType.DUAL_POINT:
            return f"swipe {where} -> ({action.lift[0]:.2f}, {action.lift[1]:.2f})"
        case ActionType.LONG_PRESS:
            return f"long press at {where}"
        case ActionType.TYPE:
            return f"type {text!r}"
        case ActionType.OPEN_APP:
            return f"open app {text!r}"
        case ActionType.STATUS_TASK_COMPLETE:
            return f"declare done{f' with answer {text!r}' if text else ''}"
        case ActionType.STATUS_TASK_IMPOSSIBLE:
            return "declare impossible"
        case ActionType.WAIT:
            return "wait"
        case _:
            return f"press {kind.name.removeprefix('PRESS_').replace('_', ' ').capitalize()}"


def _draw_action(draw: ImageDraw.ImageDraw, action: Action, size: tuple[int, int], unit: int) -> None:
    if action.touch[0] < 0 or action.action_type not in (ActionType.DUAL_POINT, ActionType.LONG_PRESS):
        return
    w, h = size
    x0, y0 = action.touch[0] * w, action.touch[1] * h
    r = max(6, unit)
    if action.action_type == ActionType.LONG_PRESS:
        draw.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), fill=MARK)
        return
    if action.is_tap:
        draw.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), outline=MARK, width=max(2, r // 3))
        return
    x1, y1 = action.lift[0] * w, action.lift[1] * h
    draw.line((x0, y0, x1, y1), fill=MARK, width=max(3, r // 2))
    angle = np.arctan2(y1 - y0, x1 - x0)
    for side in (-1, 1):  # the arrow head at the lift point
        a = angle + np.pi - side * 0.45
        draw.line((x1, y1, x1 + 2 * r * np.cos(a), y1 + 2 * r * np.sin(a)), fill=MARK, width=max(3, r // 2))
    draw.ellipse((x0 - r / 2, y0 - r / 2, x0 + r / 2, y0 + r / 2), fill=MARK)


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    try:
        return ImageFont.load_default(size=size)  # Pillow's own scalable font (with FreeType)
    except (TypeError, OSError, ImportError):  # an older Pillow or no FreeType: the fixed bitmap font
        return ImageFont.load_default()
