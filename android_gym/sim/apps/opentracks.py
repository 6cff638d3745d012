"""The OpenTracks sports tracker (de.dennisguse.opentracks): record tracks, list them, read a track's statistics,
edit its name, activity type and description, delete it, and the statistics aggregated per activity type.

Time runs with the phone's agent steps: one step is one second of recording (`opentracks_data.RECORDING_M_PER_S`
metres of it), also in the background (the real app records from a foreground service) until Stop, which saves the
track as "Track <n>" (n one past the highest such number) starting at the phone's time, and opens its details.

The tracks are drawn per episode from `stable_seed("opentracks", phone.seed)` (never the episode RNG): 5-10 over the
40 days before today (`opentracks_data.seeded_tracks`). Screens: "tracks" (the list, newest first: name, activity
type, start, distance and total time; "Aggregated statistics" in the app bar, the record FAB), "track" (args {"id"}:
the track's statistics; Edit and Delete in the app bar), "edit" (args {"id"}: Name, Activity type and Description
fields, Cancel and Save), "delete" (args {"id"}: "Delete track?" over the track), "recording" (the timer, the
distance, Stop) and "statistics" (per activity type: tracks, distance, time). Data, formats and the typed seam are in
`opentracks_data`.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import alert_dialog, inert
from android_gym.sim.apps.opentracks_data import (
    DATE,
    NOW,
    PACKAGE,
    RECORDING_M_PER_S,
    OpenTracksInitial,
    OpenTracksState,
    distance_label,
    seeded_tracks,
    speed_label,
    start_label,
    time_label,
)
from android_gym.sim.events import AppEvent
from android_gym.sim.layout import (
    BUTTON,
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

LIST_RID = f"{PACKAGE}:id/track_list"
ROW_RID = f"{PACKAGE}:id/list_item"
NAME_RID = f"{PACKAGE}:id/list_item_name"
CATEGORY_RID = f"{PACKAGE}:id/list_item_category"
START_RID = f"{PACKAGE}:id/list_item_date_time"
DISTANCE_RID = f"{PACKAGE}:id/list_item_distance"
TIME_RID = f"{PACKAGE}:id/list_item_total_time"
FAB_RID = f"{PACKAGE}:id/track_list_fab_action"
TITLE_RID = f"{PACKAGE}:id/track_detail_name"
DETAIL_CATEGORY_RID = f"{PACKAGE}:id/track_detail_activity_type"
DETAIL_DISTANCE_RID = f"{PACKAGE}:id/stats_distance_value"
DETAIL_TIME_RID = f"{PACKAGE}:id/stats_total_time_value"
NAME_FIELD = f"{PACKAGE}:id/fields_name"
CATEGORY_FIELD = f"{PACKAGE}:id/activity_type"
DESCRIPTION_FIELD = f"{PACKAGE}:id/fields_description"
FIELDS = (NAME_FIELD, CATEGORY_FIELD, DESCRIPTION_FIELD)
"""The edit form's fields, top to bottom (ENTER moves to the next)."""
REC_TIME_RID = f"{PACKAGE}:id/stats_recording_total_time"
REC_DISTANCE_RID = f"{PACKAGE}:id/stats_recording_distance"
FAB_DESC, SHOW_DESC, STOP_DESC = "Start recording", "Show recording", "Stop recording"
STATS_DESC = "Aggregated statistics"
ROW_H = 230


def clear_rid(field: str) -> str:
    """The resource-id of the "Clear text" end icon of the edit form's field `field`."""
    return f"{field}_clear"


class OpenTracksApp(App):
    """OpenTracks: the track list, a track's statistics, edit, delete, recording, aggregated statistics."""

    package = PACKAGE
    label = "OpenTracks"
    icon = "tracks"
    aliases = ("open tracks sports tracker", "activity tracker", "open tracks", "sports tracker")
    state_schema = OpenTracksState
    initial_model = OpenTracksInitial

    def reset(self) -> None:
        """The episode's seeded tracks, nothing recording."""
        self.tracks: dict[int, dict[str, Any]] = dict(enumerate(seeded_tracks(self.phone.seed)))
        self.next_id = len(self.tracks)  # ids are never reused, so a deleted track's screen cannot come back
        self.new_ids: list[int] = []
        self.recording: int | None = None  # the step it started at
        self.removed: list[str] = []
        self.edited: list[dict[str, str]] = []
        self.last_opened: str | None = None

    def set_up(self, initial: OpenTracksInitial) -> None:
        """Clear the tracks or remove the `absent` ones, then add the given ones."""
        gone = set(initial.absent)
        self.tracks = {} if initial.clear else {i: t for i, t in self.tracks.items() if t["name"] not in gone}
        for spec in initial.tracks:
            self.tracks[self.next_id] = spec.to_data()
            self.next_id += 1

    def home(self) -> Screen:
        """The track list."""
        return Screen(PACKAGE, "tracks")

    # -- the model ----------------------------------------------------------------------------------------------------
    def elapsed(self) -> int:
        """Seconds recorded so far (0 when not recording)."""
        return 0 if self.recording is None else self.phone.steps - self.recording

    def listing(self) -> list[int]:
        """The tracks' ids as the list shows them: newest start first."""
        return sorted(self.tracks, key=lambda i: (self.tracks[i]["date"], self.tracks[i]["start"], i), reverse=True)

    def _default_name(self) -> str:
        used = [int(t["name"][6:]) for t in self.tracks.values()
                if t["name"].startswith("Track ") and t["name"][6:].isdigit()]
        return f"Track {max(used, default=0) + 1}"

    def state(self) -> OpenTracksState:
        """The tracks, the recording and what changed since set-up (see `OpenTracksState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        opened = front.args.get("id") if front is not None else None
        seconds = self.elapsed()
        return {"tracks": [dict(self.tracks[i]) for i in self.listing()],
                "recording": None if self.recording is None else {"elapsed_s": seconds,
                                                                  "distance_m": seconds * RECORDING_M_PER_S},
                "screen": front.name if front else None,
                "open": self.tracks[opened]["name"] if opened in self.tracks else None,
                "last_opened": self.last_opened, "added": [self.tracks[i]["name"] for i in self.new_ids],
                "removed": list(self.removed), "edited": [dict(e) for e in self.edited]}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A page, or the delete dialog over the (inert) track below it."""
        pages = {"tracks": self._list, "track": self._track, "edit": self._edit, "recording": self._recording,
                 "statistics": self._statistics}
        if screen.name in pages:
            return pages[screen.name](screen)
        below = self.phone.screens(PACKAGE)[-2]
        name = self.tracks[screen.args["id"]]["name"]
        return [*inert(pages[below.name](below), below.scroll),
                alert_dialog(PACKAGE, "Delete track?", f"Are you sure you want to delete \u201c{name}\u201d?",
                             [("Cancel", ("cancel",)), ("OK", ("ok",))], ("cancel",))]

    def _action(self, i: int, desc: str, icon: str, event: tuple) -> View:
        """App bar action button `i` from the right."""
        return View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, CONTENT_TOP, WIDTH - i * TOOLBAR_H,
                                   CONTENT_TOP + TOOLBAR_H), desc=desc, package=PACKAGE, clickable=True,
                    focusable=True, on_tap=event, icon=icon)

    def _list(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        rows = [self._row(top + k * ROW_H, i) for k, i in enumerate(self.listing())]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420),
                         text="Start recording to create your first track", package=PACKAGE, style="hint")]
        fab = View(IMAGE_BUTTON, (WIDTH - 260, CONTENT_BOTTOM - 260, WIDTH - 60, CONTENT_BOTTOM - 60),
                   desc=SHOW_DESC if self.recording is not None else FAB_DESC, rid=FAB_RID, package=PACKAGE,
                   clickable=True, focusable=True, on_tap=("fab",), style="fab",
                   icon="stop" if self.recording is not None else "record")
        return [toolbar("OpenTracks", PACKAGE, PACKAGE, has_back=False),
                self._action(0, STATS_DESC, "chart", ("statistics",)),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=LIST_RID), fab]

    def _row(self, y: int, i: int) -> View:
        t = self.tracks[i]
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), rid=ROW_RID, package=PACKAGE, clickable=True, focusable=True,
                    on_tap=("open", i), style="row", children=[
                        View(IMAGE_VIEW, (MARGIN, y + 60, MARGIN + 100, y + 160), desc=t["category"] or "unknown",
                             package=PACKAGE, icon="activity"),
                        View(TEXT_VIEW, (MARGIN + 140, y + 20, WIDTH - 300, y + 100), text=t["name"], rid=NAME_RID,
                             package=PACKAGE, style="row_title"),
                        View(TEXT_VIEW, (WIDTH - 280, y + 20, WIDTH - MARGIN, y + 100),
                             text=distance_label(t["distance_m"]), rid=DISTANCE_RID, package=PACKAGE,
                             style="row_summary"),
                        View(TEXT_VIEW, (MARGIN + 140, y + 100, WIDTH - 300, y + 160), text=t["category"],
                             rid=CATEGORY_RID, package=PACKAGE, style="row_summary"),
                        View(TEXT_VIEW, (WIDTH - 280, y + 100, WIDTH - MARGIN, y + 160),
                             text=time_label(t["duration_s"]), rid=TIME_RID, package=PACKAGE, style="row_summary"),
                        View(TEXT_VIEW, (MARGIN + 140, y + 160, WIDTH - MARGIN, y + 220),
                             text=start_label(t["date"], t["start"]), rid=START_RID, package=PACKAGE,
                             style="row_summary")])

    def _stat(self, col: Column, label: str, value: str, rid: str = "") -> None:
        """A statistic: its label over its value."""
        col.text(label, height=70, style="secondary")
        col.text(value, height=100, style="time", rid=rid)

    def _track(self, screen: Screen) -> list[View]:
        t = self.tracks[screen.args["id"]]
        col = Column(CONTENT_TOP + TOOLBAR_H + 40, PACKAGE)
        col.text(t["name"], height=120, style="section", rid=TITLE_RID)
        col.text(t["category"], height=90, style="secondary", rid=DETAIL_CATEGORY_RID)
        col.text(start_label(t["date"], t["start"]), height=90, style="secondary",
                 rid=f"{PACKAGE}:id/track_detail_date_time")
        col.gap(30)
        self._stat(col, "Distance", distance_label(t["distance_m"]), DETAIL_DISTANCE_RID)
        self._stat(col, "Total time", time_label(t["duration_s"]), DETAIL_TIME_RID)
        self._stat(col, "Average speed", speed_label(t["distance_m"], t["duration_s"]),
                   f"{PACKAGE}:id/stats_average_speed_value")
        self._stat(col, "Elevation gain / loss", f"{t['elevation_gain_m']} m / {t['elevation_loss_m']} m",
                   f"{PACKAGE}:id/stats_elevation_value")
        if t["description"]:
            col.text(t["description"], height=160, rid=f"{PACKAGE}:id/track_detail_description")
        return [toolbar(t["name"], PACKAGE, PACKAGE), self._action(1, "Edit", "edit", ("edit", screen.args["id"])),
                self._action(0, "Delete", "delete", ("delete", screen.args["id"])), *col.views]

    def _edit(self, screen: Screen) -> list[View]:
        col = Column(CONTENT_TOP + TOOLBAR_H + 40, PACKAGE)
        for rid, hint in zip(FIELDS, ("Name", "Activity type", "Description"), strict=True):
            col.text(hint, height=70, style="secondary")
            y = col.y
            col.add(text_field((MARGIN, y, WIDTH - 170, y + 144), rid, screen.fields.get(rid, ""), hint,
                               screen.focus == rid, PACKAGE))
            col.add(View(IMAGE_BUTTON, (WIDTH - 160, y + 12, WIDTH - MARGIN, y + 132), desc="Clear text",
                         rid=clear_rid(rid), package=PACKAGE, clickable=True, focusable=True, on_tap=("clear", rid),
                         icon="close"))
            col.gap(20)
        y = col.y + 20
        buttons = [View(BUTTON, (WIDTH - 620, y, WIDTH - 340, y + 130), text="Cancel", rid=f"{PACKAGE}:id/cancel",
                        package=PACKAGE, clickable=True, focusable=True, on_tap=("cancel",), style="text_button"),
                   View(BUTTON, (WIDTH - 320, y, WIDTH - MARGIN, y + 130), text="Save", rid=f"{PACKAGE}:id/save",
                        package=PACKAGE, clickable=True, focusable=True, on_tap=("save",), style="button")]
        return [toolbar("Edit track", PACKAGE, PACKAGE), *col.views, *buttons]

    def _recording(self, screen: Screen) -> list[View]:
        seconds = self.elapsed()
        col = Column(CONTENT_TOP + TOOLBAR_H + 200, PACKAGE)
        self._stat(col, "Total time", time_label(seconds), REC_TIME_RID)
        col.gap(40)
        self._stat(col, "Distance", distance_label(seconds * RECORDING_M_PER_S), REC_DISTANCE_RID)
        y0, y1 = CONTENT_BOTTOM - 420, CONTENT_BOTTOM - 180
        stop = View(IMAGE_BUTTON, (WIDTH // 2 - 120, y0, WIDTH // 2 + 120, y1), desc=STOP_DESC,
                    rid=f"{PACKAGE}:id/track_recording_fab_action", package=PACKAGE, clickable=True, focusable=True,
                    on_tap=("stop",), style="fab", icon="stop")
        return [toolbar("Recording", PACKAGE, PACKAGE), *col.views, stop]

    def _statistics(self, screen: Screen) -> list[View]:
        totals: dict[str, list[int]] = {}
        for t in self.tracks.values():
            row = totals.setdefault(t["category"] or "unknown", [0, 0, 0])
            row[0], row[1], row[2] = row[0] + 1, row[1] + t["distance_m"], row[2] + t["duration_s"]
        top = CONTENT_TOP + TOOLBAR_H
        rows = []
        for k, (category, (count, metres, seconds)) in enumerate(sorted(totals.items())):
            y = top + k * 260
            rows.append(View(LINEAR, (0, y, WIDTH, y + 260), package=PACKAGE, style="row", children=[
                View(TEXT_VIEW, (MARGIN, y + 20, WIDTH - MARGIN, y + 100), text=category,
                     rid=f"{PACKAGE}:id/aggregated_stats_type_label", package=PACKAGE, style="row_title"),
                View(TEXT_VIEW, (MARGIN, y + 100, WIDTH - MARGIN, y + 170),
                     text=f"{count} track{'s' if count != 1 else ''} \u00b7 {distance_label(metres)}",
                     rid=f"{PACKAGE}:id/aggregated_stats_distance", package=PACKAGE, style="row_summary"),
                View(TEXT_VIEW, (MARGIN, y + 170, WIDTH - MARGIN, y + 240), text=time_label(seconds),
                     rid=f"{PACKAGE}:id/aggregated_stats_time", package=PACKAGE, style="row_summary")]))
        return [toolbar("Aggregated statistics", PACKAGE, PACKAGE),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/aggregated_stats_list")]

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """The FAB, rows, the app bar actions, the edit form, the delete dialog, Stop."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case "tracks", ("fab",):
                if self.recording is None:
                    self.recording = self.phone.steps
                return self.phone.push(Screen(PACKAGE, "recording"))
            case "tracks", ("statistics",):
                return self.phone.push(Screen(PACKAGE, "statistics"))
            case "tracks", ("open", i):
                self.last_opened = self.tracks[i]["name"]
                return self.phone.push(Screen(PACKAGE, "track", {"id": i}))
            case "track", ("edit", i):
                t = self.tracks[i]
                return self.phone.push(Screen(PACKAGE, "edit", {"id": i}, {
                    NAME_FIELD: t["name"], CATEGORY_FIELD: t["category"], DESCRIPTION_FIELD: t["description"]}))
            case "track", ("delete", i):
                return self.phone.push(Screen(PACKAGE, "delete", {"id": i}))
            case "delete", ("ok",):
                return self._delete(screen.args["id"])
            case "edit", ("clear", rid):
                screen.fields[rid], screen.focus = "", rid
                return True
            case "edit", ("save",):
                return self._save(screen)
            case "recording", ("stop",):
                return self._stop()
        return False

    def _stop(self) -> bool:
        """Save the recording as a new track starting at the phone's time, and show its details."""
        seconds = self.elapsed()
        clock = self.phone.system.get("clock", NOW)
        start = (datetime.datetime.combine(DATE, datetime.time(*map(int, clock.split(":"))))
                 - datetime.timedelta(seconds=seconds))
        new, self.next_id = self.next_id, self.next_id + 1
        self.tracks[new] = {"name": self._default_name(), "category": "", "description": "",
                            "date": str(start.date()), "start": f"{start:%H:%M}", "duration_s": seconds,
                            "distance_m": seconds * RECORDING_M_PER_S, "elevation_gain_m": 0, "elevation_loss_m": 0}
        self.new_ids.append(new)
        self.recording = None
        return self.phone.replace(Screen(PACKAGE, "track", {"id": new}))

    def _save(self, screen: Screen) -> bool:
        """Save the form (a blank name keeps the old one, as the real app does) and go back to the track."""
        t = self.tracks[screen.args["id"]]
        name = screen.fields.get(NAME_FIELD, "").strip() or t["name"]
        category = screen.fields.get(CATEGORY_FIELD, "").strip()
        description = screen.fields.get(DESCRIPTION_FIELD, "").strip()
        if (name, category, description) != (t["name"], t["category"], t["description"]):
            self.edited.append({"track": t["name"], "name": name, "category": category, "description": description})
            if self.last_opened == t["name"]:
                self.last_opened = name
            t.update(name=name, category=category, description=description)
        return self.phone.pop()

    def _delete(self, i: int) -> bool:
        """Delete track `i` and go back to the list (its screen closes with it)."""
        self.removed.append(self.tracks.pop(i)["name"])
        if i in self.new_ids:
            self.new_ids.remove(i)
        self.phone.pop()
        return self.phone.pop()

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in a one-line field of the form moves to the next field; in Description it closes the keyboard."""
        if screen.name == "edit" and rid in FIELDS[:-1]:
            screen.focus = FIELDS[FIELDS.index(rid) + 1]
            return True
        return False

    def on_tick(self) -> bool:
        """The recording's timer and distance count steps, also in the background."""
        return self.recording is not None
