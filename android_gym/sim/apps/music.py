"""The music app (YT Music): a library of songs and a player with play/pause.

The library is drawn per episode from `stable_seed(phone.seed)` (no episode RNG). Screens: "home" (the library) and
"player" (args {"song": a `library()` dict, "paused": bool}).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.apps.youtube.music"
PLAY_PAUSE_RID = f"{PACKAGE}:id/play_pause_button"
_ARTISTS = ("The Lanterns", "Mira Vale", "Northbound", "Juno Park", "Static Hearts", "Ola Brandt", "Coastline",
            "Velvet Avenue", "Kai Moreno", "The Paper Kites Club")
_SONGS = ("Golden Hour", "Midnight Drive", "Paper Planes", "Slow Burn", "Open Roads", "Glass Houses", "Summer Rain",
          "City Lights", "Echoes", "Wildflowers", "Low Tide", "Neon Skies")
ROW_H = 200


def library(seed: int) -> list[dict[str, Any]]:
    """The episode's songs: {"title", "artist", "length"}."""
    rng = np.random.default_rng(stable_seed("music", seed))
    picks = rng.permutation(len(_SONGS))[:8]
    return [{"title": _SONGS[int(i)], "artist": _ARTISTS[int(rng.integers(len(_ARTISTS)))],
             "length": f"{int(rng.integers(2, 6))}:{int(rng.integers(60)):02d}"} for i in picks]


class MusicApp(App):
    """YT Music: tap a song to play it."""

    package = PACKAGE
    label = "YT Music"
    icon = "music"
    aliases = ("music", "music app", "youtube music", "music player")

    def home(self) -> Screen:
        """The library."""
        return Screen(PACKAGE, "home")

    def build(self, screen: Screen) -> list[View]:
        """The library, or the player."""
        top = CONTENT_TOP + TOOLBAR_H
        if screen.name == "player":
            song, paused = screen.args["song"], screen.args["paused"]
            return [toolbar("Now playing", PACKAGE, PACKAGE),
                    View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 340), text=song["title"],
                         rid=f"{PACKAGE}:id/song_title", package=PACKAGE, style="title"),
                    View(TEXT_VIEW, (MARGIN, top + 340, WIDTH - MARGIN, top + 440), text=song["artist"],
                         package=PACKAGE),
                    View(IMAGE_BUTTON, (WIDTH // 2 - 100, top + 520, WIDTH // 2 + 100, top + 720),
                         desc="Play" if paused else "Pause", rid=PLAY_PAUSE_RID, package=PACKAGE, clickable=True,
                         focusable=True, on_tap=("pause",), icon="play" if paused else "pause")]
        rows = [View(LINEAR, (0, top + i * ROW_H, WIDTH, top + (i + 1) * ROW_H),
                     text=f"{s['title']} · {s['artist']} · {s['length']}", desc=f"Play {s['title']}",
                     package=PACKAGE, clickable=True, focusable=True, on_tap=("play", tuple(sorted(s.items()))),
                     style="row") for i, s in enumerate(library(self.phone.seed))]
        return [toolbar("Library", PACKAGE, PACKAGE, has_back=False),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/library")]

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Play a song; pause or resume it."""
        match event:
            case ("play", items):
                return self.phone.push(Screen(PACKAGE, "player", {"song": dict(items), "paused": False}))
            case ("pause",):
                screen.args["paused"] = not screen.args["paused"]
                return True
        return False

    def state(self) -> dict[str, Any]:
        """{"page": the front screen or None, "playing": the title of the song playing in front (not paused)}."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        playing = None
        if front is not None and front.name == "player" and not front.args["paused"]:
            playing = front.args["song"]["title"]
        return {"page": front.name if front else None, "playing": playing}
