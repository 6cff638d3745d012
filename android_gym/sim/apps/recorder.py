"""The Audio Recorder app (com.dimowner.audiorecorder): record clips, list them, play, rename and delete them.

Time runs with the phone's agent steps: one step is one second of recording or playback (`SECONDS_PER_STEP`, as the
Camera's video timer and the Phone's call timer count). A recording goes on while the app is in the background (the
real app records from a foreground service) until Stop; pausing freezes its timer.

The records are drawn per episode from `stable_seed("recorder", phone.seed)` (never from the episode RNG): 3-8 clips
with names, durations, formats and dates before the sim's today. A record is {"name", "duration_s", "format",
"sample_rate", "date": "YYYY-MM-DD"}; a new one is called "Record-<n>" (n one past the highest number ever used), or
the naming dialog opens after Stop when "Rename recording after stop" is on.

Screens: "main" (the recorder), "records" (the list, newest first), "record" (args {"id"}: one record with play and
pause, Rename and Delete), "rename" (args {"id", "error"}: the app's name dialog, over "record" or, after Stop, over
"main"; the name in fields[NAME_RID]), "delete" (args {"id"}: "Delete this record?"), "settings" and "choice" (args
{"key": "format"|"sample_rate"}: a setting's options over the settings).
"""

from __future__ import annotations

import datetime
from typing import Any, Literal, get_args

import numpy as np
from pydantic import Field, field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert, name_refusal
from android_gym.sim.app_state import closed, iso_day, refuse_blank
from android_gym.sim.apps.calendar import TODAY
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    CONTENT_BOTTOM,
    CONTENT_TOP,
    IMAGE_BUTTON,
    IMAGE_VIEW,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    WIDTH,
    Column,
    scroll_list,
    text_field,
    toolbar,
)
from android_gym.sim.view import View

PACKAGE = "com.dimowner.audiorecorder"
SECONDS_PER_STEP = 1
Format = Literal["m4a", "wav", "3gp"]
SampleRate = Literal[8000, 16000, 22050, 32000, 44100, 48000]
FORMATS: tuple[Format, ...] = get_args(Format)
SAMPLE_RATES: tuple[SampleRate, ...] = get_args(SampleRate)
"""Sample rates offered, in Hz."""
DEFAULT_SETTINGS = {"format": "m4a", "sample_rate": 44100, "ask_name": False, "keep_screen_on": False}
RECORD_RID = f"{PACKAGE}:id/btn_record"
PAUSE_RID = f"{PACKAGE}:id/btn_record_pause"
TIMER_RID = f"{PACKAGE}:id/txt_progress"
STATUS_RID = f"{PACKAGE}:id/txt_name"
LIST_RID = f"{PACKAGE}:id/recycler_view"
ROW_RID = f"{PACKAGE}:id/list_item"
NAME_RID = f"{PACKAGE}:id/list_item_name"
DURATION_RID = f"{PACKAGE}:id/list_item_duration"
DATE_RID = f"{PACKAGE}:id/list_item_date"
TITLE_RID = f"{PACKAGE}:id/txt_record_name"
LENGTH_RID = f"{PACKAGE}:id/txt_duration"
PLAY_RID = f"{PACKAGE}:id/btn_play"
INPUT_RID = f"{PACKAGE}:id/input_name"
DATE = datetime.date(*TODAY[:3])
ROW_H = 200
POOL = ("Lecture notes", "Band practice", "Interview with Sam", "Voice memo", "Team meeting", "Guitar riff",
        "Bird song", "Podcast intro", "Shopping list", "Dream journal", "Piano lesson", "Birthday song",
        "Call notes", "Speech draft", "Rain sounds", "Kids singing")
SETTING_LABELS = {"format": "Recording format", "sample_rate": "Sample rate"}


def clock(seconds: int) -> str:
    """A duration as the app shows it.

    >>> clock(7), clock(83), clock(3725)
    ('00:07', '01:23', '62:05')
    """
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def rate_label(hz: int) -> str:
    """A sample rate as the settings show it.

    >>> rate_label(44100), rate_label(16000)
    ('44.1 kHz', '16 kHz')
    """
    return f"{hz / 1000:g} kHz"


def date_label(day: str) -> str:
    """A record's date as the list shows it ("Jun 8, 2026")."""
    d = datetime.date.fromisoformat(day)
    return f"{d:%b} {d.day}, {d.year}"


def seeded_records(seed: int) -> list[dict[str, Any]]:
    """Episode `seed`'s records, oldest first: 3-8 clips of 4 s to 15 min, a third of them named "Record-<n>"."""
    rng = np.random.default_rng(stable_seed("recorder", seed))
    count = int(rng.integers(3, 9))
    names = iter(rng.permutation(len(POOL)))
    ages = sorted((int(a) for a in rng.choice(90, size=count, replace=False)), reverse=True)
    out = []
    for k, age in enumerate(ages):
        name = f"Record-{k + 1}" if rng.random() < 0.33 else POOL[int(next(names))]
        out.append({"name": name, "duration_s": int(rng.integers(4, 900)), "format": FORMATS[int(rng.integers(3))],
                    "sample_rate": SAMPLE_RATES[int(rng.integers(2, 6))],
                    "date": str(DATE - datetime.timedelta(days=age + 1))})
    return out


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Page = Literal["main", "records", "record", "rename", "delete", "settings", "choice"]


@closed
class RecordState(TypedDict):
    """A record: its name, length in seconds, format, sample rate in Hz and date ("YYYY-MM-DD")."""

    name: str
    duration_s: int
    format: Format
    sample_rate: SampleRate
    date: str


@closed
class RecordingState(TypedDict):
    """The recording under way: seconds recorded so far, and whether it is paused."""

    elapsed_s: int
    paused: bool


@closed
class PlayingState(TypedDict):
    """The record playing and its position in seconds."""

    name: str
    position_s: int


@closed
class SettingsState(TypedDict):
    """Settings: new records' format and sample rate (Hz), the naming dialog after Stop, the screen kept on."""

    format: Format
    sample_rate: SampleRate
    ask_name: bool
    keep_screen_on: bool


Renaming = closed(TypedDict("Renaming", {"from": str, "to": str}))  # "from" is a keyword: no class syntax
Renaming.__doc__ = """A rename of the episode: the record's name before and after."""


@closed
class RecorderState(TypedDict):
    """What Audio Recorder reports (`RecorderApp.state`).

    Attributes:
        records: every record, newest first (as the list shows them).
        recording: the recording under way, or None.
        playing: the record playing, or None.
        settings: the recorder's settings.
        screen: the front recorder screen's name, None when the app has none on the stack.
        open: the name of the record whose screen is in front (or under its dialog), or None.
        naming: the name in the open rename dialog, or None.
        last_opened: the last record opened from the list this episode, or None.
        added: the current names of the records recorded this episode.
        removed: the names of the records deleted this episode.
        renamed: the episode's renames, in order.
    """

    records: list[RecordState]
    recording: RecordingState | None
    playing: PlayingState | None
    settings: SettingsState
    screen: Page | None
    open: str | None
    naming: str | None
    last_opened: str | None
    added: list[str]
    removed: list[str]
    renamed: list[Renaming]


class RecordSpec(ConfigModel):
    """A record a task puts on the phone.

    Attributes:
        name: its name (not blank).
        duration_s: its length in seconds.
        format: its format.
        sample_rate: its sample rate in Hz.
        date: the day it was recorded ("YYYY-MM-DD"; default the sim's today).
    """

    name: str
    duration_s: int = Field(ge=0)
    format: Format = "m4a"
    sample_rate: SampleRate = 44100
    date: str = str(DATE)

    @field_validator("name")
    @classmethod
    def _not_blank(cls, name: str) -> str:
        return refuse_blank("name", name)

    @field_validator("date")
    @classmethod
    def _iso_day(cls, date: str) -> str:
        return iso_day("date", date)


class SettingsSpec(ConfigModel):
    """The recorder's settings at the start (each left out keeps its default).

    Attributes:
        format: the format of new records.
        sample_rate: their sample rate in Hz.
        ask_name: whether the naming dialog opens after Stop.
        keep_screen_on: whether the screen stays on while recording.
    """

    format: Format = DEFAULT_SETTINGS["format"]
    sample_rate: SampleRate = DEFAULT_SETTINGS["sample_rate"]
    ask_name: bool = DEFAULT_SETTINGS["ask_name"]
    keep_screen_on: bool = DEFAULT_SETTINGS["keep_screen_on"]


class RecorderInitial(ConfigModel):
    """The initial conditions an Audio Recorder task may set, applied in this order; they are the set-up, not
    changes (nothing counts as added or removed).

    Attributes:
        absent: names of seeded records removed.
        records: records added (listed by date among the seeded ones).
        settings: the recorder's settings (each left out keeps its default).
    """  # noqa: D205

    absent: tuple[str, ...] = ()
    records: tuple[RecordSpec, ...] = ()
    settings: SettingsSpec = SettingsSpec()


class RecorderApp(App):
    """Audio Recorder: record (pause, resume, stop), browse the records, play, rename, delete; settings."""

    package = PACKAGE
    label = "Audio Recorder"
    icon = "recorder"
    aliases = ("Recorder", "Voice recorder", "Sound recorder", "audiorecorder")
    state_schema = RecorderState
    initial_model = RecorderInitial

    def reset(self) -> None:
        """The episode's seeded records, default settings, nothing recording or playing."""
        self.records: dict[int, dict[str, Any]] = dict(enumerate(seeded_records(self.phone.seed)))
        self.next_id = len(self.records)  # ids are never reused, so a deleted record's screen cannot come back
        self.new_ids: list[int] = []
        self.settings = dict(DEFAULT_SETTINGS)
        self.recording: dict[str, Any] | None = None  # {"start": step, "paused_at": step or None, "paused_s"}
        self.playing: dict[str, int] | None = None  # {"id", "position_s"}
        self.removed: list[str] = []
        self.renamed: list[dict[str, str]] = []
        self.last_opened: str | None = None
        self.last_saved: int | None = None

    def set_up(self, initial: RecorderInitial) -> None:
        """Remove the `absent` records, add the given ones, set the settings."""
        gone = set(initial.absent)
        self.records = {i: r for i, r in self.records.items() if r["name"] not in gone}
        for spec in initial.records:
            self.records[self.next_id] = spec.to_data()
            self.next_id += 1
        self.settings = initial.settings.to_data()

    def home(self) -> Screen:
        """The recorder."""
        return Screen(PACKAGE, "main")

    # -- the model ----------------------------------------------------------------------------------------------------
    def elapsed(self) -> int:
        """Seconds recorded so far (0 when not recording)."""
        r = self.recording
        if r is None:
            return 0
        now = r["paused_at"] if r["paused_at"] is not None else self.phone.steps
        return (now - r["start"] - r["paused_s"]) * SECONDS_PER_STEP

    def listing(self) -> list[int]:
        """The records' ids as the list shows them: newest first."""
        return sorted(self.records, key=lambda i: (self.records[i]["date"], i), reverse=True)

    def _default_name(self) -> str:
        used = [int(r["name"][7:]) for r in self.records.values()
                if r["name"].startswith("Record-") and r["name"][7:].isdigit()]
        return f"Record-{max(used, default=0) + 1}"

    def _stop(self) -> int:
        """End the recording and save it under the default name; returns its id."""
        rec = {"name": self._default_name(), "duration_s": self.elapsed(), "format": self.settings["format"],
               "sample_rate": self.settings["sample_rate"], "date": str(DATE)}
        new, self.next_id = self.next_id, self.next_id + 1
        self.records[new] = rec
        self.new_ids.append(new)
        self.recording, self.last_saved = None, new
        return new

    def state(self) -> RecorderState:
        """The records, the recorder and what changed since set-up (see `RecorderState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        opened = next((s.args["id"] for s in reversed(mine) if s.name == "record"), None)
        return {"records": [dict(self.records[i]) for i in self.listing()],
                "recording": None if self.recording is None else {"elapsed_s": self.elapsed(),
                                                                  "paused": self.recording["paused_at"] is not None},
                "playing": None if self.playing is None else {"name": self.records[self.playing["id"]]["name"],
                                                              "position_s": self.playing["position_s"]},
                "settings": dict(self.settings), "screen": front.name if front else None,
                "open": self.records[opened]["name"] if opened in self.records else None,
                "naming": front.fields.get(INPUT_RID, "") if front and front.name == "rename" else None,
                "last_opened": self.last_opened, "added": [self.records[i]["name"] for i in self.new_ids],
                "removed": list(self.removed), "renamed": [dict(r) for r in self.renamed]}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or a dialog over the (inert) page below it."""
        pages = {"main": self._main, "records": self._list, "record": self._record, "settings": self._settings}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        under = inert(pages[below.name](below), below.scroll)
        overlay = {"rename": self._rename, "delete": self._delete}.get(screen.name, self._choice)
        return [*under, overlay(screen)]

    def _action(self, i: int, desc: str, icon: str, event: tuple, rid: str = "") -> View:
        """Toolbar action button `i` from the right."""
        return View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, CONTENT_TOP, WIDTH - i * TOOLBAR_H,
                                   CONTENT_TOP + TOOLBAR_H), desc=desc, rid=rid, package=PACKAGE, clickable=True,
                    focusable=True, on_tap=event, icon=icon)

    def _main(self, screen: Screen) -> list[View]:
        rec, top = self.recording, CONTENT_TOP + TOOLBAR_H
        if rec is not None:
            status = "Recording paused" if rec["paused_at"] is not None else "Recording\u2026"
        elif self.last_saved in self.records:
            status = self.records[self.last_saved]["name"]
        else:
            status = "Tap the button to record"
        seconds = self.elapsed() if rec is not None else (
            self.records[self.last_saved]["duration_s"] if self.last_saved in self.records else 0)
        views = [toolbar("Audio Recorder", PACKAGE, PACKAGE, has_back=False),
                 self._action(1, "Records", "library", ("records",), f"{PACKAGE}:id/btn_records_list"),
                 self._action(0, "Settings", "settings", ("settings",), f"{PACKAGE}:id/btn_settings"),
                 View(TEXT_VIEW, (MARGIN, top + 200, WIDTH - MARGIN, top + 300), text=status, rid=STATUS_RID,
                      package=PACKAGE, style="section"),
                 View(TEXT_VIEW, (MARGIN, top + 340, WIDTH - MARGIN, top + 560), text=clock(seconds), rid=TIMER_RID,
                      package=PACKAGE, style="display"),
                 View(TEXT_VIEW, (MARGIN, top + 600, WIDTH - MARGIN, top + 680),
                      text=f"{self.settings['format']} \u00b7 {rate_label(self.settings['sample_rate'])}",
                      rid=f"{PACKAGE}:id/txt_record_info", package=PACKAGE, style="secondary")]
        y0, y1 = CONTENT_BOTTOM - 440, CONTENT_BOTTOM - 180
        views.append(View(IMAGE_BUTTON, (WIDTH // 2 - 130, y0, WIDTH // 2 + 130, y1),
                          desc="Stop recording" if rec is not None else "Record", rid=RECORD_RID, package=PACKAGE,
                          clickable=True, focusable=True, on_tap=("record",), style="fab",
                          icon="stop" if rec is not None else "mic"))
        if rec is not None:
            paused = rec["paused_at"] is not None
            views.append(View(IMAGE_BUTTON, (120, y0 + 60, 300, y1 - 60),
                              desc="Resume recording" if paused else "Pause recording", rid=PAUSE_RID,
                              package=PACKAGE, clickable=True, focusable=True, on_tap=("pause",),
                              icon="mic" if paused else "pause"))
        return views

    def _list(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = [self._row(top + k * ROW_H, i) for k, i in enumerate(self.listing())]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="No records",
                         package=PACKAGE, style="hint")]
        return [toolbar("Records", PACKAGE, PACKAGE), scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=LIST_RID)]

    def _row(self, y: int, i: int) -> View:
        r = self.records[i]
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), rid=ROW_RID, package=PACKAGE, clickable=True, focusable=True,
                    on_tap=("open", i), style="row", children=[
                        View(IMAGE_VIEW, (MARGIN, y + 50, MARGIN + 100, y + 150), package=PACKAGE, icon="mic"),
                        View(TEXT_VIEW, (MARGIN + 140, y + 30, WIDTH - 260, y + 115), text=r["name"], rid=NAME_RID,
                             package=PACKAGE, style="row_title"),
                        View(TEXT_VIEW, (WIDTH - 240, y + 30, WIDTH - MARGIN, y + 115), text=clock(r["duration_s"]),
                             rid=DURATION_RID, package=PACKAGE, style="row_summary"),
                        View(TEXT_VIEW, (MARGIN + 140, y + 115, WIDTH - MARGIN, y + 180),
                             text=f"{date_label(r['date'])} \u00b7 {r['format']} \u00b7 {rate_label(r['sample_rate'])}",
                             rid=DATE_RID, package=PACKAGE, style="row_summary")])

    def _record(self, screen: Screen) -> list[View]:
        i, top = screen.args["id"], CONTENT_TOP + TOOLBAR_H
        r = self.records[i]
        playing = self.playing is not None and self.playing["id"] == i
        position = self.playing["position_s"] if playing else 0
        col = Column(top + 80, PACKAGE)
        col.text(r["name"], height=130, style="section", rid=TITLE_RID)
        col.text(clock(r["duration_s"]), height=110, style="time", rid=LENGTH_RID)
        col.text(f"{date_label(r['date'])} \u00b7 {r['format']} \u00b7 {rate_label(r['sample_rate'])}", height=90,
                 style="secondary", rid=f"{PACKAGE}:id/txt_record_info")
        col.gap(60)
        col.text(f"{clock(position)} / {clock(r['duration_s'])}", height=90, style="secondary",
                 rid=f"{PACKAGE}:id/txt_progress")
        y0, y1 = CONTENT_BOTTOM - 420, CONTENT_BOTTOM - 180
        play = View(IMAGE_BUTTON, (WIDTH // 2 - 120, y0, WIDTH // 2 + 120, y1), desc="Pause" if playing else "Play",
                    rid=PLAY_RID, package=PACKAGE, clickable=True, focusable=True, on_tap=("play", i), style="fab",
                    icon="pause" if playing else "play")
        return [toolbar(r["name"], PACKAGE, PACKAGE), self._action(1, "Rename", "edit", ("rename", i)),
                self._action(0, "Delete", "delete", ("delete", i)), *col.views, play]

    def _settings(self, screen: Screen) -> list[View]:
        col = Column(CONTENT_TOP + TOOLBAR_H + 20, PACKAGE, left=0, right=WIDTH)
        for key, value in (("format", self.settings["format"]),
                           ("sample_rate", rate_label(self.settings["sample_rate"]))):
            b = (0, col.y, WIDTH, col.y + 200)
            col.add(View(LINEAR, b, package=PACKAGE, clickable=True, focusable=True, on_tap=("choose", key),
                         style="row", children=[
                             View(TEXT_VIEW, (MARGIN, b[1] + 25, WIDTH - MARGIN, b[1] + 110),
                                  text=SETTING_LABELS[key], package=PACKAGE, style="row_title"),
                             View(TEXT_VIEW, (MARGIN, b[1] + 110, WIDTH - MARGIN, b[1] + 180), text=value,
                                  rid=f"{PACKAGE}:id/setting_{key}", package=PACKAGE, style="row_summary")]))
        col.left, col.right = MARGIN, WIDTH - MARGIN
        col.switch("Rename recording after stop", self.settings["ask_name"], ("toggle", "ask_name"),
                   rid=f"{PACKAGE}:id/swc_ask_name")
        col.switch("Keep screen on", self.settings["keep_screen_on"], ("toggle", "keep_screen_on"),
                   rid=f"{PACKAGE}:id/swc_keep_screen")
        return [toolbar("Settings", PACKAGE, PACKAGE), *col.views]

    def _rename(self, screen: Screen) -> View:
        y = dialog_body_top(560)
        body = [text_field((150, y, WIDTH - 270, y + 144), INPUT_RID, screen.fields.get(INPUT_RID, ""), "Name",
                           screen.focus == INPUT_RID, PACKAGE),
                View(IMAGE_BUTTON, (WIDTH - 260, y + 12, WIDTH - 150, y + 132), desc="Clear text", package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("clear",), icon="close")]
        if screen.args["error"]:
            body.append(View(TEXT_VIEW, (150, y + 150, WIDTH - 150, y + 220), text=screen.args["error"],
                             rid=f"{PACKAGE}:id/txt_error", package=PACKAGE, style="hint"))
        title = "Record name" if self.phone.screens(PACKAGE)[-2].name == "main" else "Rename"
        return app_dialog(PACKAGE, title, body, [("Cancel", ("cancel",), True), ("OK", ("ok",), True)])

    def _delete(self, screen: Screen) -> View:
        name = self.records[screen.args["id"]]["name"]
        return app_dialog(PACKAGE, "Delete this record?", [], [("Cancel", ("cancel",), True),
                                                              ("Delete", ("ok",), True)],
                          message=f"\u201c{name}\u201d will be deleted.")

    def _choice(self, screen: Screen) -> View:
        key = screen.args["key"]
        options = FORMATS if key == "format" else SAMPLE_RATES
        y = dialog_body_top(400)
        rows = [View("android.widget.RadioButton", (150, y + k * 130, WIDTH - 150, y + (k + 1) * 130),
                     text=o if key == "format" else rate_label(o), package=PACKAGE, clickable=True, focusable=True,
                     checkable=True, checked=self.settings[key] == o, on_tap=("pick", key, o), style="radio")
                for k, o in enumerate(options)]
        return app_dialog(PACKAGE, SETTING_LABELS[key], rows, [("Cancel", ("cancel",), True)], top=400)

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """The record and pause buttons, the toolbar, rows, play, the dialogs and the settings."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case "main", ("record",):
                return self._record_button()
            case "main", ("pause",) if self.recording is not None:
                r = self.recording
                if r["paused_at"] is None:
                    r["paused_at"] = self.phone.steps
                else:
                    r["paused_s"] += self.phone.steps - r["paused_at"]
                    r["paused_at"] = None
                return True
            case "main", ("records",):
                return self.phone.push(Screen(PACKAGE, "records"))
            case "main", ("settings",):
                return self.phone.push(Screen(PACKAGE, "settings"))
            case "records", ("open", i):
                self.last_opened = self.records[i]["name"]
                return self.phone.push(Screen(PACKAGE, "record", {"id": i}))
            case "record", ("play", i):
                playing = self.playing is not None and self.playing["id"] == i
                self.playing = None if playing else {"id": i, "position_s": 0}
                return True
            case "record", ("rename", i):
                return self.phone.push(Screen(PACKAGE, "rename", {"id": i, "error": ""},
                                              {INPUT_RID: self.records[i]["name"]}))
            case "record", ("delete", i):
                return self.phone.push(Screen(PACKAGE, "delete", {"id": i}))
            case "settings", ("choose", key):
                return self.phone.push(Screen(PACKAGE, "choice", {"key": key}))
            case "settings", ("toggle", key):
                self.settings[key] = not self.settings[key]
                return True
            case "choice", ("pick", key, value):
                self.settings[key] = value
                return self.phone.pop()
            case "rename", ("clear",):
                screen.fields[INPUT_RID], screen.focus, screen.args["error"] = "", INPUT_RID, ""
                return True
            case "rename", ("ok",):
                return self._rename_ok(screen)
            case "delete", ("ok",):
                return self._delete_ok(screen.args["id"])
        return False

    def _record_button(self) -> bool:
        """Start a recording, or stop and save it (opening the naming dialog when the setting asks for it)."""
        if self.recording is None:
            self.playing = None
            self.recording = {"start": self.phone.steps, "paused_at": None, "paused_s": 0}
            return True
        new = self._stop()
        if self.settings["ask_name"]:
            return self.phone.push(Screen(PACKAGE, "rename", {"id": new, "error": ""},
                                          {INPUT_RID: self.records[new]["name"]}, focus=INPUT_RID))
        return True

    def _rename_ok(self, screen: Screen) -> bool:
        i, name = screen.args["id"], screen.fields.get(INPUT_RID, "").strip()
        old = self.records[i]["name"]
        if name == old:
            return self.phone.pop()
        if error := name_refusal(name, (r["name"] for r in self.records.values()), "record"):
            screen.args["error"] = error
            return True
        self.records[i]["name"] = name
        self.renamed.append({"from": old, "to": name})
        if self.last_opened == old:
            self.last_opened = name
        return self.phone.pop()

    def _delete_ok(self, i: int) -> bool:
        """Delete record `i` and go back to the list (its screen closes with it)."""
        self.removed.append(self.records.pop(i)["name"])
        if self.playing is not None and self.playing["id"] == i:
            self.playing = None
        if i in self.new_ids:
            self.new_ids.remove(i)
        self.phone.pop()
        return self.phone.pop()

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in the name dialog is OK."""
        return self._rename_ok(screen) if rid == INPUT_RID and screen.name == "rename" else False

    def on_back(self, screen: Screen) -> bool:
        """BACK from a record's screen stops its playback before the screen closes."""
        if screen.name == "record" and self.playing is not None and self.playing["id"] == screen.args["id"]:
            self.playing = None
        return False

    def on_tick(self) -> bool:
        """The recording timer counts steps (also in the background); playback advances and ends at the clip's end."""
        changed = self.recording is not None and self.recording["paused_at"] is None
        if self.playing is not None:
            p = self.playing
            p["position_s"] += SECONDS_PER_STEP
            if p["position_s"] >= self.records[p["id"]]["duration_s"]:
                self.playing = None
            changed = True
        return changed

