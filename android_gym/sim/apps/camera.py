"""The Camera app (Pixel Camera): a viewfinder with a shutter, Portrait / Photo / Video modes, front and back cameras.

A photo, or a video once its recording stops, is saved to the Photos app's media store
(`gallery.GalleryApp.add_capture`, when Photos is installed) and kept in this app's list of the episode's captures.
The thumbnail of the last capture opens it in Photos' viewer (BACK returns here). On first open the system asks for
the camera permission, unless the episode starts with it granted.

Per-episode starting conditions (the permission, the last used mode and camera, the flash) come from
`stable_seed("camera", phone.seed)`, never from the episode RNG. Capture times are the phone's clock on the simulated
today (`calendar.TODAY`), with the seconds counted in agent steps. One screen: "viewfinder".
"""

from __future__ import annotations

from typing import Any, Literal, get_args

import numpy as np
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_state import closed
from android_gym.sim.apps import gallery
from android_gym.sim.apps.gallery_media import TODAY_DAY, stamp
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    HEIGHT,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    TEXT_VIEW,
    VIEW,
    WIDTH,
)
from android_gym.sim.view import View

PACKAGE = "com.google.android.GoogleCamera"
PERMISSION_PACKAGE = "com.google.android.permissioncontroller"
Mode = Literal["Portrait", "Photo", "Video"]
Facing = Literal["back", "front"]
FlashMode = Literal["off", "auto", "on"]
Permission = Literal["granted", "ask", "denied"]
MODES: tuple[Mode, ...] = get_args(Mode)
FACINGS: tuple[Facing, ...] = get_args(Facing)
FLASH: tuple[FlashMode, ...] = get_args(FlashMode)
PERMISSIONS: tuple[Permission, ...] = get_args(Permission)
SHUTTER_RID = f"{PACKAGE}:id/shutter_button"
THUMBNAIL_RID = f"{PACKAGE}:id/thumbnail_button"
PREVIEW_BOTTOM = 1830
MARGIN_X = 60
ALLOW = ("While using the app", "Only this time", "Deny")
"""The prompt's buttons (Android 11's wording: a "Don't allow" here would be taken for a pop-up's dismiss button)."""
_ALLOW_RIDS = ("permission_allow_foreground_only_button", "permission_allow_one_time_button",
               "permission_deny_button")


def shutter_desc(mode: str, recording: bool) -> str:
    """The shutter button's content-desc in `mode`.

    >>> shutter_desc("Portrait", False), shutter_desc("Video", False), shutter_desc("Video", True)
    ('Take photo', 'Start recording', 'Stop recording')
    """
    if mode != "Video":
        return "Take photo"
    return "Stop recording" if recording else "Start recording"


def switch_desc(facing: str) -> str:
    """The switch-camera button's content-desc while the `facing` camera is on."""
    return "Switch to back camera" if facing == "front" else "Switch to front camera"


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
@closed
class Capture(TypedDict):
    """A photo or video taken this episode: its file name, kind, camera, mode and date ("2026-06-10 09:41")."""

    name: str
    kind: Literal["photo", "video"]
    facing: Facing
    mode: Mode
    date: str


@closed
class CameraState(TypedDict):
    """What the Camera app reports (`CameraApp.state`).

    Attributes:
        captures: the episode's captures, oldest first (a video once its recording stops).
        mode: the shooting mode; facing: the camera on; flash: the flash setting.
        recording: whether a video is being recorded.
        permission: the camera permission ("ask": the system's prompt shows on the next open).
        open: whether the viewfinder is in front.
    """

    captures: list[Capture]
    mode: Mode
    facing: Facing
    flash: FlashMode
    recording: bool
    permission: Permission
    open: bool


class CameraInitial(ConfigModel):
    """The initial conditions a Camera task may set; each left out keeps the episode's seeded start.

    Attributes:
        mode: the mode the viewfinder opens in.
        facing: the camera on.
        flash: the flash setting.
        permission: the camera permission ("ask": the prompt shows on first open).
    """

    mode: Mode | None = None
    facing: Facing | None = None
    flash: FlashMode | None = None
    permission: Permission | None = None


class CameraApp(App):
    """Pixel Camera: shoot photos (Photo or Portrait mode) and videos (Video mode) with either camera."""

    package = PACKAGE
    label = "Camera"
    icon = "camera"
    aliases = ("pixel camera", "google camera")
    state_schema = CameraState
    initial_model = CameraInitial

    def reset(self) -> None:
        """No captures; the permission, mode, camera and flash the episode starts with."""
        rng = np.random.default_rng(stable_seed("camera", self.phone.seed))
        self.permission = "ask" if rng.random() < 0.5 else "granted"
        self.mode = MODES[int(rng.choice(3, p=[0.2, 0.6, 0.2]))]
        self.facing = "front" if rng.random() < 0.25 else "back"
        self.flash = FLASH[int(rng.integers(3))]
        self.captures: list[dict[str, Any]] = []
        self.recording: dict[str, Any] | None = None

    def set_up(self, initial: CameraInitial) -> None:
        """The mode, camera, flash and permission the task gives, over the seeded ones."""
        self.mode = initial.mode or self.mode
        self.facing = initial.facing or self.facing
        self.flash = initial.flash or self.flash
        self.permission = initial.permission or self.permission

    def home(self) -> Screen:
        """The viewfinder."""
        return Screen(PACKAGE, "viewfinder")

    def state(self) -> CameraState:
        """The captures and the camera's settings (see `CameraState`)."""
        return {"captures": [dict(c) for c in self.captures], "mode": self.mode, "facing": self.facing,
                "flash": self.flash, "recording": self.recording is not None, "permission": self.permission,
                "open": self.phone.top.package == PACKAGE}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The viewfinder with its controls, under the permission prompt while the permission is asked for."""
        kids = [self._preview(), *self._top_bar()]
        if self.recording is None:
            kids += self._modes()
        kids += self._controls()
        views = [View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/activity_root",
                      package=PACKAGE, style="video", children=kids)]
        if self.permission == "ask":
            views.append(self._prompt())
        return views

    def _preview(self) -> View:
        kids = []
        if self.permission == "denied":
            kids = [View(TEXT_VIEW, (80, 800, WIDTH - 80, 960), package=PACKAGE,
                         text="Camera needs permission to take photos and videos"),
                    View(BUTTON, (WIDTH // 2 - 250, 1000, WIDTH // 2 + 250, 1150), text="Allow access",
                         package=PACKAGE, clickable=True, focusable=True, on_tap=("ask",), style="button")]
        elif self.recording is not None:
            seconds = self.phone.steps - self.recording["start"]
            kids = [View(TEXT_VIEW, (WIDTH // 2 - 150, 280, WIDTH // 2 + 150, 360), package=PACKAGE,
                         text=f"{seconds // 60:02d}:{seconds % 60:02d}", desc="Recording",
                         rid=f"{PACKAGE}:id/video_timer")]
        return View(VIEW, (0, CONTENT_TOP + 160, WIDTH, PREVIEW_BOTTOM), rid=f"{PACKAGE}:id/preview",
                    package=PACKAGE, children=kids)

    def _top_bar(self) -> list[View]:
        if self.recording is not None:
            return []
        return [View(IMAGE_BUTTON, (MARGIN_X, CONTENT_TOP + 20, MARGIN_X + 140, CONTENT_TOP + 140),
                     desc=f"Flash {self.flash}", rid=f"{PACKAGE}:id/flash_button", package=PACKAGE, clickable=True,
                     focusable=True, on_tap=("flash",), icon="flash")]

    def _modes(self) -> list[View]:
        w = 300
        x0 = (WIDTH - w * len(MODES)) // 2
        return [View(TEXT_VIEW, (x0 + i * w, PREVIEW_BOTTOM + 20, x0 + (i + 1) * w, PREVIEW_BOTTOM + 140), text=m,
                     rid=f"{PACKAGE}:id/mode_switcher_item", package=PACKAGE, clickable=True, focusable=True,
                     selected=m == self.mode, on_tap=("mode", m), style="tab") for i, m in enumerate(MODES)]

    def _controls(self) -> list[View]:
        y0, y1 = CONTENT_BOTTOM - 250, CONTENT_BOTTOM - 30
        ready = self.permission == "granted"
        recording = self.recording is not None
        views = [View(IMAGE_BUTTON, (WIDTH // 2 - 110, y0, WIDTH // 2 + 110, y1),
                      desc=shutter_desc(self.mode, recording), rid=SHUTTER_RID, package=PACKAGE, clickable=True,
                      focusable=True, enabled=ready, on_tap=("shutter",), style="fab",
                      icon="stop" if recording else "play" if self.mode == "Video" else "camera")]
        if not recording:
            views.append(View(IMAGE_BUTTON, (WIDTH - 250, y0 + 30, WIDTH - 90, y1 - 30),
                              desc=switch_desc(self.facing), rid=f"{PACKAGE}:id/camera_switch_button",
                              package=PACKAGE, clickable=True, focusable=True, on_tap=("switch",), icon="rotate"))
            if self.captures:
                last = self.captures[-1]
                views.append(View(IMAGE_VIEW, (90, y0 + 30, 250, y1 - 30), rid=THUMBNAIL_RID, package=PACKAGE,
                                  desc=f"View last {last['kind']}", clickable=True, focusable=True,
                                  on_tap=("thumbnail",), style="image"))
        return views

    def _prompt(self) -> View:
        """The system's runtime-permission dialog (Android 11 wording and button ids)."""
        top, pkg = 760, PERMISSION_PACKAGE
        kids = [View(TEXT_VIEW, (150, top + 140, WIDTH - 150, top + 360), package=pkg,
                     text="Allow Camera to take pictures and record video?",
                     rid="com.android.permissioncontroller:id/permission_message", style="dialog_title")]
        for i, (label, rid) in enumerate(zip(ALLOW, _ALLOW_RIDS, strict=True)):
            y = top + 400 + i * 150
            kids.append(View(BUTTON, (130, y, WIDTH - 130, y + 130), text=label, package=pkg,
                             rid=f"com.android.permissioncontroller:id/{rid}", clickable=True, focusable=True,
                             on_tap=("permission", i < 2), style="outlined_button"))
        box = View(FRAME, (90, top, WIDTH - 90, top + 900), rid="com.android.permissioncontroller:id/grant_dialog",
                   package=pkg, clickable=True, style="dialog", children=kids)
        return View(FRAME, (0, 0, WIDTH, HEIGHT), package=pkg, clickable=True, on_tap=("scrim",), style="scrim",
                    children=[box])

    # -- events -------------------------------------------------------------------------------------------------------
    def on_back(self, screen: Screen) -> bool:
        """BACK on the permission prompt denies it; while recording it stops and saves the video, then leaves."""
        if self.permission == "ask":
            self.permission = "denied"
            return True
        if self.recording is not None:
            self._save("video", self.recording["facing"], "Video")
        return False

    def on_tick(self) -> bool:
        """The recording timer counts steps; leaving the app (HOME, another app) stops and saves the recording."""
        if self.recording is None:
            return False
        if self.phone.top.package != PACKAGE:
            self._save("video", self.recording["facing"], "Video")
        return True

    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """The prompt's buttons, the shutter, mode and camera switches, flash, and the thumbnail."""
        match event:
            case ("permission", allowed):
                self.permission = "granted" if allowed else "denied"
                return True
            case ("ask",):
                self.permission = "ask"
                return True
            case ("shutter",) if self.permission == "granted":
                return self._shutter()
            case ("mode", mode) if mode != self.mode and self.recording is None:
                self.mode = mode
                return True
            case ("switch",) if self.recording is None:
                self.facing = "front" if self.facing == "back" else "back"
                return True
            case ("flash",):
                self.flash = FLASH[(FLASH.index(self.flash) + 1) % len(FLASH)]
                return True
            case ("thumbnail",) if self.captures:
                return self._open_last()
        return False

    def _shutter(self) -> bool:
        if self.mode != "Video":
            self._save("photo", self.facing, self.mode)
        elif self.recording is None:
            self.recording = {"facing": self.facing, "start": self.phone.steps}
        else:
            self._save("video", self.recording["facing"], "Video")
        return True

    def _save(self, kind: str, facing: str, mode: str) -> None:
        """Add a capture (ending any recording) and hand it to Photos."""
        hour, minute = (int(p) for p in self.phone.system["clock"].split(":"))
        date = stamp(TODAY_DAY, hour, minute)
        second, millis = min(59, self.phone.steps), (137 * (len(self.captures) + 1)) % 1000
        stem = f"PXL_{date[:10].replace('-', '')}_{hour:02d}{minute:02d}{second:02d}{millis:03d}"
        name = stem + (".mp4" if kind == "video" else ".PORTRAIT.jpg" if mode == "Portrait" else ".jpg")
        self.captures.append({"name": name, "kind": kind, "facing": facing, "mode": mode, "date": date})
        self.recording = None
        photos = self._photos()
        if photos is not None:
            photos.add_capture(name, kind, date)

    def _photos(self) -> gallery.GalleryApp | None:
        """The installed Photos app, when it is the real one (a bare phone may have none)."""
        for app in self.phone.installed():
            if isinstance(app, gallery.GalleryApp):
                return app
        return None

    def _open_last(self) -> bool:
        photos = self._photos()
        name = self.captures[-1]["name"]
        if photos is None or photos.find(name) is None:
            return False
        return self.phone.push(Screen(gallery.PACKAGE, "photo", {"item": name, "sheet": None}))

