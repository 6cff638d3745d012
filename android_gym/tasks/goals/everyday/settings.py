"""Everyday phrasings of the settings tasks (issue 49), mapped onto the templates that check them.

"Turn on dark mode", "Turn off wifi" and the other switches, and "Turn off notifications for YouTube", are read by the
AitW-style families of `rules` (toggle_setting's and app_notifications' templates check them). This module reads the
rest: the brightness and the font size one way or the other, the phone on silent, the screen timeout on its own
(`TimeoutThemeTemplate` without a theme), the wallpaper (any other, or a named one) and the storage page.

>>> read_timeout("five minutes"), read_timeout("half a minute"), read_timeout("1 min")
('5 minutes', '30 seconds', '1 minute')
"""

from __future__ import annotations

from typing import Any

from android_gym.sim.apps.settings import TIMEOUTS, WALLPAPERS
from android_gym.tasks.app_settings import (
    BrightnessTemplate,
    FontSizeTemplate,
    SilentTemplate,
    StorageTemplate,
    WallpaperTemplate,
)
from android_gym.tasks.goals.rule import Rule, Slots, rule
from android_gym.tasks.goals.slots import Names, Parsed, UnknownValue
from android_gym.tasks.goals.when import DURATION_WORDS, NUMBER_WORDS, parse_duration
from android_gym.tasks.world.settings_tasks import TimeoutThemeTemplate

_TIMEOUT_SECONDS = {parse_duration(t): t for t in TIMEOUTS}
"""Settings' screen timeout choices by their length in seconds."""


def read_timeout(text: str) -> str:
    """The screen timeout choice `text` names, as Settings lists it.

    Raises:
        UnknownValue: `text` is not a length of time, or Settings offers no such choice.
    """
    seconds = parse_duration(text)
    if seconds not in _TIMEOUT_SECONDS:
        raise UnknownValue(f"the simulated phone's screen timeout offers no {text!r} (its choices: "
                           f"{', '.join(TIMEOUTS)})")
    return _TIMEOUT_SECONDS[seconds]


def _wallpaper(slots: Slots) -> dict[str, Any]:
    """A named wallpaper, else any other than the start (the first wallpaper, or the second when the first is named)."""
    named = slots.get("wallpaper", "")
    return {"start": WALLPAPERS[1] if named == WALLPAPERS[0] else WALLPAPERS[0], "wallpaper": named}


_READERS = {
    "timeout": Parsed("screen timeout", read_timeout, tuple(sorted(DURATION_WORDS | NUMBER_WORDS))),
    "wallpaper": Names("wallpaper", {w: w for w in WALLPAPERS}),
}
_SCREEN = "[the|my] [screen|phone|display]"

RULES: tuple[Rule, ...] = (
    rule("brightness", BrightnessTemplate(), (
        f"(turn|put|bring) {_SCREEN} brightness down",
        f"(turn|bring) down {_SCREEN} brightness",
        f"(lower|decrease|reduce|dim) {_SCREEN} brightness [a bit|a little]",
        f"(make|set) {_SCREEN} brightness lower",
        f"(make|set) {_SCREEN} (dimmer|less bright) [a bit|a little]",  # not "darker": that may mean dark theme
        "dim the screen [a bit|a little]",
    ), lambda s: {"direction": "down", "start": 70}),
    rule("brightness", BrightnessTemplate(), (
        f"(turn|put|bring) {_SCREEN} brightness up",
        f"(turn|bring) up {_SCREEN} brightness",
        f"(raise|increase|boost) {_SCREEN} brightness [a bit|a little]",
        f"(make|set) {_SCREEN} brightness higher",
        f"(make|set) {_SCREEN} brighter [a bit|a little]",
    ), lambda s: {"direction": "up", "start": 40}),
    rule("font_size", FontSizeTemplate(), (
        "make [the] (font|text|font size|text size|letters) (bigger|larger) [on the screen]",
        "(increase|enlarge) [the] (font|text) [size]",
        "(set|change) [the] (font|text) size to (bigger|larger)",
    ), lambda s: {"direction": "bigger", "start": "Default"}),
    rule("font_size", FontSizeTemplate(), (
        "make [the] (font|text|font size|text size|letters) smaller [on the screen]",
        "(decrease|reduce|shrink) [the] (font|text) [size]",
        "(set|change) [the] (font|text) size to smaller",
    ), lambda s: {"direction": "smaller", "start": "Default"}),
    rule("silent", SilentTemplate(), (  # the ringer muted: ring and notification volumes at 0 (the template's check)
        "put [the|my] phone on (silent|mute|silent mode)",
        "(set|switch|turn) [the|my] phone to (silent|mute|silent mode)",
        "(silence|mute) [the|my] (phone|ringer)",
        "(turn on|switch on|enable) silent mode",
        "make [the|my] phone silent",
    ), lambda s: {"ring": 70, "notification": 60}),
    rule("screen_timeout", TimeoutThemeTemplate(), (
        "(set|change) [the|my] (screen timeout|screen time out|display timeout|sleep timeout) to {timeout}",
        "(make|have|let) the screen (turn off|sleep|time out|go off|lock) after {timeout} [of inactivity]",
        "(set|change) [the] time before the screen turns off to {timeout}",
    ), lambda s: {"timeout": s["timeout"]}, readers=_READERS),
    rule("wallpaper", WallpaperTemplate(), (
        "change [the|my] [phone|home screen] (wallpaper|background)",
        "(set|pick|choose|use) a (new|different) [phone|home screen] (wallpaper|background)",
        "change [the|my] [phone|home screen] (wallpaper|background) to [the] {wallpaper} [wallpaper|one]",
        "(set|make) [the|my] [phone|home screen] (wallpaper|background) [to] [the] {wallpaper} [wallpaper|one]",
        "use [the] {wallpaper} [wallpaper] as [my|the] (wallpaper|background)",
    ), _wallpaper, readers=_READERS),
    rule("storage", StorageTemplate(), (
        "(check|see|show me|find out|tell me) how much (storage|space|storage space|memory) (is left|is free|"
        "is available|i have left|i have|remains|is used) [on [my|the] phone]",
        "how much (storage|space|storage space) (is left|is free|is available|do i have [left]|remains) "
        "[on [my|the] phone]",
        "(check|show me|open) [my|the] [phone|phones] (storage|storage space|free space) [settings|usage]",
    ), lambda s: {"dark": False, "large": False}),
)
"""The settings lines the AitW-style families do not read."""
