"""The VLC app (org.videolan.vlc): a local video player over the phone's video files, with playlists.

Screens: "videos" (the Video tab: every video of the library by file name, its length, a More actions button) and
"playlists" (the Playlists tab: each playlist and its count of videos), which the bottom tabs switch between;
"playlist" (args {"id"}: its videos in order; Rename and Delete in its More options), "player" (args {"path"}: the
video, its current frame's text, the position, Play/Pause and 10-second jumps), and the app's pop-ups over the
screen below: "menu" (args {"kind": "video"|"playlist", "path" or "id"}), "add" (args {"path", "error"}: Add to
playlist: the playlists to tap, and a new playlist's name in fields[NEW_RID] with Create), "rename" (args {"id",
"error"}; the name in fields[NAME_RID], with Clear text) and "delete" (args {"id"}).

Time runs with agent steps: one step is one second of playback (`SECONDS_PER_STEP`), while the player is in front
and not paused; the frame on screen is the one at the position (its text in the UI tree and the screenshot). At the
end of the video the player closes, as VLC's does. The library and its seeding are in `vlc_state`.
"""

from __future__ import annotations

from typing import Any

from android_gym.errors import ConfigError
from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert, name_refusal, popup_menu
from android_gym.sim.apps.markor import base
from android_gym.sim.apps.vlc_state import VlcInitial, VlcState, seeded_library
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "org.videolan.vlc"
SECONDS_PER_STEP = 1
LIST_RID = f"{PACKAGE}:id/media_list"
TITLE_RID = f"{PACKAGE}:id/ml_item_title"
TIME_RID = f"{PACKAGE}:id/ml_item_time"
MORE_RID = f"{PACKAGE}:id/item_more"
FRAME_RID = f"{PACKAGE}:id/player_overlay_text"
POSITION_RID = f"{PACKAGE}:id/player_overlay_time"
LENGTH_RID = f"{PACKAGE}:id/player_overlay_length"
PLAYER_TITLE_RID = f"{PACKAGE}:id/player_overlay_title"
NEW_RID = f"{PACKAGE}:id/dialog_playlist_name"
NAME_RID = f"{PACKAGE}:id/rename_input"
PLAYLIST_ROW_RID = f"{PACKAGE}:id/dialog_playlist_item"
TABS = (("Video", "videos"), ("Playlists", "playlists"))
TABS_TOP = CONTENT_BOTTOM - 180
ROW_H = 180
MENUS = {"video": ("Play", "Add to playlist"), "playlist": ("Rename", "Delete")}


def clock(seconds: int) -> str:
    """A length or position as VLC shows it.

    >>> clock(7), clock(83), clock(3725)
    ('0:07', '1:23', '1:02:05')
    """
    h, rest = divmod(seconds, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


def frame_at(frames: list[dict[str, Any]], position_s: int) -> str:
    """The text of the frame shown at `position_s` (the last frame's past the end).

    >>> frame_at([{"text": "a", "seconds": 8}, {"text": "b", "seconds": 8}], 8)
    'b'
    """
    for f in frames:
        if position_s < f["seconds"]:
            return f["text"]
        position_s -= f["seconds"]
    return frames[-1]["text"]


def count_label(n: int) -> str:
    """A playlist's size as the Playlists tab shows it ("1 video", "3 videos")."""
    return f"{n} video" if n == 1 else f"{n} videos"


class VlcApp(App):
    """VLC: the video library, the player (frames, pause, 10-second jumps), playlists (create, add, rename, delete)."""

    package = PACKAGE
    label = "VLC"
    icon = "vlc"
    aliases = ("vlc app", "vlc player", "vlc media player")
    state_schema = VlcState
    initial_model = VlcInitial

    def reset(self) -> None:
        """The episode's seeded library and playlists; nothing playing, nothing edited."""
        self.videos, playlists = seeded_library(self.phone.seed)
        self.playlists: dict[int, dict[str, Any]] = dict(enumerate(playlists))
        self.next_id = len(self.playlists)  # ids are never reused: a deleted playlist's screen cannot come back
        self.playing: dict[str, Any] | None = None  # {"path", "position_s", "paused"}
        self.watched: list[str] = []
        self.edits: list[dict[str, str]] = []

    def set_up(self, initial: VlcInitial) -> None:
        """Clear, remove the absent videos and playlists, add the videos, then the playlists.

        Raises:
            ConfigError: a playlist lists a video the library does not hold.
        """
        if initial.clear:
            self.videos, self.playlists = {}, {}
        gone = set(initial.absent)
        self.videos = {p: v for p, v in self.videos.items() if p not in gone}
        self.playlists = {i: {"name": pl["name"], "videos": [p for p in pl["videos"] if p not in gone]}
                          for i, pl in self.playlists.items() if pl["name"] not in gone}
        for video in initial.videos:
            self.videos[video.path] = {"frames": [f.to_data() for f in video.frames]}
        for spec in initial.playlists:
            missing = [p for p in spec.videos if p not in self.videos]
            if missing:
                raise ConfigError(f"VLC: `playlists` {spec.name!r} lists {missing[0]!r}, which is not a video of "
                                  "the library: add it under `videos`")
            self.playlists[self.next_id] = {"name": spec.name, "videos": list(spec.videos)}
            self.next_id += 1

    def home(self) -> Screen:
        """The Video tab."""
        return Screen(PACKAGE, "videos")

    # -- the model ----------------------------------------------------------------------------------------------------
    def listing(self) -> list[str]:
        """The videos' paths as the Video tab lists them: by file name (then path)."""
        return sorted(self.videos, key=lambda p: (base(p).lower(), p))

    def duration(self, path: str) -> int:
        """Video `path`'s length in seconds."""
        return sum(f["seconds"] for f in self.videos[path]["frames"])

    def state(self) -> VlcState:
        """The library, the playlists, the player and the episode's edits (see `VlcState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        opened = next((s.args["id"] for s in reversed(mine) if s.name == "playlist"), None)
        p = self._live()
        return {"videos": [{"path": path, "name": base(path), "duration_s": self.duration(path),
                            "frames": [dict(f) for f in self.videos[path]["frames"]]} for path in self.listing()],
                "playlists": [{"name": pl["name"], "videos": list(pl["videos"])} for pl in self.playlists.values()],
                "playing": None if p is None else {
                    "path": p["path"], "position_s": p["position_s"], "paused": p["paused"],
                    "text": frame_at(self.videos[p["path"]]["frames"], p["position_s"])},
                "screen": front.name if front else None,
                "open_playlist": self.playlists[opened]["name"] if opened in self.playlists else None,
                "watched": list(self.watched), "edits": [dict(e) for e in self.edits]}

    def _live(self) -> dict[str, Any] | None:
        """The playback, while its player is on the stack (launching VLC afresh drops the player, and it with it)."""
        p = self.playing
        if p is None or not any(s.name == "player" and s.args["path"] == p["path"]
                                for s in self.phone.screens(PACKAGE)):
            return None
        return p

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or a pop-up over the (inert) page below it."""
        pages = {"videos": self._videos, "playlists": self._playlists, "playlist": self._playlist,
                 "player": self._player}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        under = inert(pages[below.name](below), below.scroll)
        overlay = {"menu": self._menu, "add": self._add, "rename": self._rename, "delete": self._delete}
        return [*under, overlay[screen.name](screen)]

    def _tabs(self, current: str) -> View:
        w = WIDTH // len(TABS)
        return View(LINEAR, (0, TABS_TOP, WIDTH, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/navigation", package=PACKAGE,
                    style="tabbar", children=[
                        View(TEXT_VIEW, (i * w, TABS_TOP, (i + 1) * w, CONTENT_BOTTOM), text=label, desc=label,
                             package=PACKAGE, clickable=True, focusable=True, selected=page == current,
                             on_tap=("tab", page), style="tab", icon="play" if page == "videos" else "library")
                        for i, (label, page) in enumerate(TABS)])

    def _video_row(self, y: int, path: str, more: bool = True) -> View:
        name = base(path)
        kids = [View(IMAGE_BUTTON, (WIDTH - 150, y + 30, WIDTH - 30, y + 150), desc=f"More actions {name}",
                     rid=MORE_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("menu", "video", path),
                     icon="more")] if more else []
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), package=PACKAGE, clickable=True, focusable=True,
                    on_tap=("play", path), style="row", children=[
                        View(IMAGE_VIEW, (MARGIN, y + 30, MARGIN + 200, y + 150), package=PACKAGE, icon="play",
                             style="video"),
                        View(TEXT_VIEW, (MARGIN + 240, y + 20, WIDTH - 160, y + 105), text=name, rid=TITLE_RID,
                             package=PACKAGE, style="row_title"),
                        View(TEXT_VIEW, (MARGIN + 240, y + 105, WIDTH - 160, y + 165),
                             text=f"{clock(self.duration(path))} \u00b7 {path.rpartition('/')[0] or 'Internal'}",
                             rid=TIME_RID, package=PACKAGE, style="row_summary"), *kids])

    def _videos(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        paths = self.listing()
        # only the rows in view (and the last, which sets how far the list scrolls): the phone clips the rest anyway,
        # and AndroidWorld's tasks list up to 26 videos, built at every step
        first = screen.scroll // ROW_H
        shown = {*range(first, first + (TABS_TOP - top) // ROW_H + 2), len(paths) - 1}
        rows = [self._video_row(top + k * ROW_H, p) for k, p in enumerate(paths) if k in shown]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="No video found",
                         package=PACKAGE, style="hint")]
        return [toolbar("Video", PACKAGE, PACKAGE, has_back=False),
                scroll_list(top, TABS_TOP, PACKAGE, rows, rid=LIST_RID), self._tabs("videos")]

    def _playlists(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = []
        for k, (i, pl) in enumerate(self.playlists.items()):
            y = top + k * ROW_H
            rows.append(View(LINEAR, (0, y, WIDTH, y + ROW_H), package=PACKAGE, clickable=True, focusable=True,
                             on_tap=("open", i), style="row", children=[
                                 View(IMAGE_VIEW, (MARGIN, y + 30, MARGIN + 120, y + 150), package=PACKAGE,
                                      icon="library"),
                                 View(TEXT_VIEW, (MARGIN + 160, y + 20, WIDTH - MARGIN, y + 105), text=pl["name"],
                                      rid=TITLE_RID, package=PACKAGE, style="row_title"),
                                 View(TEXT_VIEW, (MARGIN + 160, y + 105, WIDTH - MARGIN, y + 165),
                                      text=count_label(len(pl["videos"])), rid=TIME_RID, package=PACKAGE,
                                      style="row_summary")]))
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="No playlists",
                         package=PACKAGE, style="hint")]
        return [toolbar("Playlists", PACKAGE, PACKAGE, has_back=False),
                scroll_list(top, TABS_TOP, PACKAGE, rows, rid=LIST_RID), self._tabs("playlists")]

    def _playlist(self, screen: Screen) -> list[View]:
        i, top = screen.args["id"], CONTENT_TOP + TOOLBAR_H
        pl = self.playlists[i]
        rows = [self._video_row(top + k * ROW_H, p, more=False) for k, p in enumerate(pl["videos"])]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="This playlist is empty",
                         package=PACKAGE, style="hint")]
        more = View(IMAGE_BUTTON, (WIDTH - TOOLBAR_H, CONTENT_TOP, WIDTH, CONTENT_TOP + TOOLBAR_H),
                    desc="More options", package=PACKAGE, clickable=True, focusable=True,
                    on_tap=("menu", "playlist", i), icon="more")
        return [toolbar(pl["name"], PACKAGE, PACKAGE), more, scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows,
                                                                         rid=LIST_RID)]

    def _player(self, screen: Screen) -> list[View]:
        path = screen.args["path"]
        p = self._live()
        position = p["position_s"] if p else 0
        text = frame_at(self.videos[path]["frames"], position)
        surface = View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/player_surface",
                       package=PACKAGE, style="video", children=[
                           View(TEXT_VIEW, (MARGIN, 1000, WIDTH - MARGIN, 1200), text=text, rid=FRAME_RID,
                                package=PACKAGE, style="answer")])
        y0, y1 = CONTENT_BOTTOM - 330, CONTENT_BOTTOM - 90
        paused = p is None or p["paused"]

        def button(x: int, desc: str, event: tuple, icon: str) -> View:
            return View(IMAGE_BUTTON, (x - 110, y0, x + 110, y1), desc=desc, package=PACKAGE, clickable=True,
                        focusable=True, on_tap=event, icon=icon)

        return [surface,
                View(IMAGE_BUTTON, (0, CONTENT_TOP, TOOLBAR_H, CONTENT_TOP + TOOLBAR_H), desc="Navigate up",
                     package=PACKAGE, clickable=True, focusable=True, on_tap=NavKey("back"), icon="back"),
                View(TEXT_VIEW, (TOOLBAR_H, CONTENT_TOP, WIDTH - MARGIN, CONTENT_TOP + TOOLBAR_H), text=base(path),
                     rid=PLAYER_TITLE_RID, package=PACKAGE, style="title"),
                View(TEXT_VIEW, (MARGIN, y0 - 120, 360, y0 - 30), text=clock(position), rid=POSITION_RID,
                     package=PACKAGE, style="secondary"),
                View(TEXT_VIEW, (WIDTH - 360, y0 - 120, WIDTH - MARGIN, y0 - 30), text=clock(self.duration(path)),
                     rid=LENGTH_RID, package=PACKAGE, style="secondary"),
                button(WIDTH // 2 - 300, "Rewind 10 seconds", ("jump", -10), "history"),
                button(WIDTH // 2, "Play" if paused else "Pause", ("pause",), "play" if paused else "pause"),
                button(WIDTH // 2 + 300, "Forward 10 seconds", ("jump", 10), "forward")]

    def _menu(self, screen: Screen) -> View:
        kind = screen.args["kind"]
        target = screen.args["path"] if kind == "video" else screen.args["id"]
        return popup_menu(PACKAGE, [(label, ("item", label, target)) for label in MENUS[kind]], ("cancel",))

    def _add(self, screen: Screen) -> View:
        y = dialog_body_top(400)
        body = []
        for k, (i, pl) in enumerate(self.playlists.items()):
            body.append(View(TEXT_VIEW, (150, y, WIDTH - 150, y + 120), text=pl["name"], rid=PLAYLIST_ROW_RID,
                             package=PACKAGE, clickable=True, focusable=True, on_tap=("add_to", i), style="row"))
            y += 120 + (10 if k < len(self.playlists) - 1 else 30)
        body.append(text_field((150, y, WIDTH - 150, y + 144), NEW_RID, screen.fields.get(NEW_RID, ""),
                               "New playlist", screen.focus == NEW_RID, PACKAGE))
        if screen.args["error"]:
            body.append(View(TEXT_VIEW, (150, y + 150, WIDTH - 150, y + 220), text=screen.args["error"],
                             rid=f"{PACKAGE}:id/dialog_error", package=PACKAGE, style="hint"))
        return app_dialog(PACKAGE, "Add to playlist", body, [
            ("Cancel", ("cancel",), True), ("Create", ("create",), bool(screen.fields.get(NEW_RID, "").strip()))],
            top=400)

    def _rename(self, screen: Screen) -> View:
        y = dialog_body_top(560)
        body = [text_field((150, y, WIDTH - 270, y + 144), NAME_RID, screen.fields.get(NAME_RID, ""), "Name",
                           screen.focus == NAME_RID, PACKAGE),
                View(IMAGE_BUTTON, (WIDTH - 260, y + 12, WIDTH - 150, y + 132), desc="Clear text", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("clear",), icon="close")]
        if screen.args["error"]:
            body.append(View(TEXT_VIEW, (150, y + 150, WIDTH - 150, y + 220), text=screen.args["error"],
                             rid=f"{PACKAGE}:id/dialog_error", package=PACKAGE, style="hint"))
        return app_dialog(PACKAGE, "Rename", body, [("Cancel", ("cancel",), True), ("OK", ("ok",), True)])

    def _delete(self, screen: Screen) -> View:
        name = self.playlists[screen.args["id"]]["name"]
        return app_dialog(PACKAGE, "Delete playlist?", [], [("Cancel", ("cancel",), True),
                                                            ("Delete", ("ok",), True)],
                          message=f"\u201c{name}\u201d will be deleted.")

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Tabs, rows, the menus, the player's controls and the dialogs."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case _, ("tab", page):
                return page != screen.name and self.phone.replace(Screen(PACKAGE, page))
            case _, ("play", path):
                return self._play(path)
            case _, ("menu", kind, target):
                key = "path" if kind == "video" else "id"
                return self.phone.push(Screen(PACKAGE, "menu", {"kind": kind, key: target}))
            case "playlists", ("open", i):
                return self.phone.push(Screen(PACKAGE, "playlist", {"id": i}))
            case "menu", ("item", label, target):
                return self._menu_item(label, target)
            case "player", ("pause",):
                if self.playing is None:
                    return self._play(screen.args["path"], replace=True)
                self.playing["paused"] = not self.playing["paused"]
                return True
            case "player", ("jump", seconds) if self.playing is not None:
                return self._seek(self.playing["position_s"] + seconds)
            case "add", ("add_to", i):
                return self._add_to(i, screen.args["path"])
            case "add", ("create",):
                return self._create(screen)
            case "rename", ("clear",):
                screen.fields[NAME_RID], screen.focus, screen.args["error"] = "", NAME_RID, ""
                return True
            case "rename", ("ok",):
                return self._rename_ok(screen)
            case "delete", ("ok",):
                i = screen.args["id"]
                self.edits.append({"op": "delete", "playlist": self.playlists.pop(i)["name"]})
                self.phone.pop()
                return self.phone.pop()
        return False

    def _play(self, path: str, replace: bool = False) -> bool:
        """Open `path` in the player from its start."""
        self.playing = {"path": path, "position_s": 0, "paused": False}
        self.watched.append(path)
        player = Screen(PACKAGE, "player", {"path": path})
        return self.phone.replace(player) if replace else self.phone.push(player)

    def _seek(self, position_s: int) -> bool:
        """Jump to `position_s` (from 0); past the end the video ends and the player closes."""
        if self.playing is None:
            return False
        if position_s >= self.duration(self.playing["path"]):
            return self._close_player()
        self.playing["position_s"] = max(0, position_s)
        return True

    def _close_player(self) -> bool:
        self.playing = None
        return self.phone.pop() if self.phone.top.name == "player" else True

    def _menu_item(self, label: str, target: Any) -> bool:
        self.phone.pop()
        if label == "Play":
            return self._play(target)
        if label == "Add to playlist":
            return self.phone.push(Screen(PACKAGE, "add", {"path": target, "error": ""}))
        if label == "Rename":
            return self.phone.push(Screen(PACKAGE, "rename", {"id": target, "error": ""},
                                          {NAME_RID: self.playlists[target]["name"]}))
        return self.phone.push(Screen(PACKAGE, "delete", {"id": target}))

    def _add_to(self, i: int, path: str) -> bool:
        pl = self.playlists[i]
        pl["videos"].append(path)
        self.edits.append({"op": "add", "playlist": pl["name"], "video": path})
        return self.phone.pop()

    def _create(self, screen: Screen) -> bool:
        name = screen.fields.get(NEW_RID, "").strip()
        if not name:
            return False
        if any(pl["name"] == name for pl in self.playlists.values()):
            screen.args["error"] = "A playlist with this name already exists"
            return True
        self.playlists[self.next_id] = {"name": name, "videos": []}
        self.next_id += 1
        self.edits.append({"op": "create", "playlist": name})
        return self._add_to(self.next_id - 1, screen.args["path"])

    def _rename_ok(self, screen: Screen) -> bool:
        i, name = screen.args["id"], screen.fields.get(NAME_RID, "").strip()
        old = self.playlists[i]["name"]
        if name == old:
            return self.phone.pop()
        if error := name_refusal(name, (pl["name"] for pl in self.playlists.values()), "playlist"):
            screen.args["error"] = error
            return True
        self.playlists[i]["name"] = name
        self.edits.append({"op": "rename", "playlist": old, "to": name})
        return self.phone.pop()

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in a name field is Create or OK."""
        if screen.name == "add" and rid == NEW_RID:
            return self._create(screen)
        if screen.name == "rename" and rid == NAME_RID:
            return self._rename_ok(screen)
        return False

    def on_back(self, screen: Screen) -> bool:
        """BACK from the player stops the video before the player closes."""
        if screen.name == "player":
            self.playing = None
        return False

    def on_tick(self) -> bool:
        """Playback advances while the player is in front and not paused; at the end the player closes."""
        p = self.playing = self._live()
        if p is None or p["paused"] or self.phone.top.package != PACKAGE or self.phone.top.name != "player":
            return False
        return self._seek(p["position_s"] + SECONDS_PER_STEP)
