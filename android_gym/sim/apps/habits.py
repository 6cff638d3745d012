"""Loop Habit Tracker (org.isoron.uhabits): the habit list with the last five days' check marks and each habit's
score, creating and editing habits (yes/no or measurable), checking days, a habit's page (score, streaks, total,
history by month), archiving, deleting and sorting.

Screens: "list" (the habits in the chosen order, archived ones hidden unless shown; per row the score ring, the
name and five day buttons, today leftmost: a tap toggles a yes/no day, or opens the number dialog of a measurable
one; the app bar holds Add habit, Sort and More options), "habit" (args {"id"}: the habit's page; Edit habit and
More options: Archive / Unarchive, Delete) and "form" (args {"id"}: None for a new habit; Name, Question, Unit and
Target for a measurable habit, the Frequency, Color and Reminder rows, Notes, Save in the app bar). Dialogs sit in
the screen's args ("dialog") over the screen below, as the real app's pop-ups do, and BACK closes them first.

The habits are drawn per episode from `stable_seed("habits", phone.seed)` (`habits_data.seeded_habits`): nothing is
done today at reset. Data, figures, formats and the typed seam are in `habits_data`.
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
from typing import Any

from android_gym.sim.app import App, Screen
from android_gym.sim.app_dialogs import alert_dialog, app_dialog, dialog_body_top, inert, popup_menu
from android_gym.sim.apps import habits_data as D
from android_gym.sim.apps.habits_data import PACKAGE, HabitsInitial, HabitsState
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

LIST_RID = f"{PACKAGE}:id/listView"
ROW_RID = f"{PACKAGE}:id/habitCard"
NAME_RID = f"{PACKAGE}:id/label"
SCORE_RID = f"{PACKAGE}:id/scoreRing"
CHECK_RID = f"{PACKAGE}:id/checkmarkButton"
DAY_RID, DATE_RID = f"{PACKAGE}:id/headerDay", f"{PACKAGE}:id/headerDate"
NAME_FIELD = f"{PACKAGE}:id/nameInput"
QUESTION_FIELD = f"{PACKAGE}:id/questionInput"
UNIT_FIELD = f"{PACKAGE}:id/unitInput"
TARGET_FIELD = f"{PACKAGE}:id/targetInput"
NOTES_FIELD = f"{PACKAGE}:id/notesInput"
FREQ_ROW, COLOR_ROW, REMINDER_ROW = (f"{PACKAGE}:id/{n}" for n in ("frequencyPicker", "colorPicker",
                                                                    "reminderTimePicker"))
FREQ_FIELD = f"{PACKAGE}:id/frequencyNumber"
TIME_FIELD = f"{PACKAGE}:id/reminderTime"
VALUE_FIELD = f"{PACKAGE}:id/numberValue"
ERROR_RID = f"{PACKAGE}:id/error"
STAT_RIDS = {k: f"{PACKAGE}:id/{k}" for k in ("score", "currentStreak", "bestStreak", "total", "target")}
MONTH_RID, MONTH_COUNT_RID = f"{PACKAGE}:id/historyMonth", f"{PACKAGE}:id/historyCount"
ADD_DESC, SORT_DESC, MORE_DESC, EDIT_DESC = "Add habit", "Sort", "More options", "Edit habit"
FREQ_CHOICES = ("Every day", "Every N days", "N times per week", "N times per month")
"""The frequency dialog's choices; the last three take the number N."""
ROW_H, DAY_W = 170, 100
DAYS_SHOWN = 5


def day_desc(habit: dict[str, Any], day: datetime.date) -> str:
    """A day button as TalkBack reads it: "Meditate, Wed Jun 10: done" or "Read, Tue Jun 9: 23 pages"."""
    value = habit["entries"].get(str(day), 0)
    when = f"{habit['name']}, {day:%a %b} {day.day}"
    if habit["kind"] == "measurable":
        return f"{when}: {value} {habit['unit']}".rstrip()
    return f"{when}: {'done' if value else 'not done'}"


def freq_choice(times: int, days: int) -> int:
    """Which of `FREQ_CHOICES` a frequency is."""
    if times == days == 1:
        return 0
    return 1 if times == 1 else 2 if days == 7 else 3


class HabitsApp(App):
    """Loop Habit Tracker: the habit list, a habit's page, the habit form and their dialogs."""

    package = PACKAGE
    label = "Loop Habit Tracker"
    icon = "habits"
    aliases = ("loop", "habits", "habit tracker", "loop habits")
    state_schema = HabitsState
    initial_model = HabitsInitial

    def reset(self) -> None:
        """The episode's seeded habits, sorted manually, archived ones hidden."""
        self.habits: dict[int, dict[str, Any]] = dict(enumerate(D.seeded_habits(self.phone.seed)))
        self.next_id = len(self.habits)
        self.sort, self.show_archived = "Manually", False
        self.new_ids: list[int] = []
        self.removed: list[str] = []
        self.edited: list[dict[str, Any]] = []
        self.archived: list[str] = []
        self.unarchived: list[str] = []
        self.changes: list[dict[str, Any]] = []
        self.last_opened: str | None = None

    def set_up(self, initial: HabitsInitial) -> None:
        """Clear the habits or remove the `absent` ones, then add the given ones."""
        gone = set(initial.absent)
        self.habits = {} if initial.clear else {i: h for i, h in self.habits.items() if h["name"] not in gone}
        for spec in initial.habits:
            self.habits[self.next_id] = {**spec.to_data(), "entries": dict(spec.entries)}
            self.next_id += 1

    def home(self) -> Screen:
        """The habit list."""
        return Screen(PACKAGE, "list")

    # -- the model ----------------------------------------------------------------------------------------------------
    def listing(self) -> list[int]:
        """The habits' ids as the list shows them: in the sort order, archived ones only when shown."""
        ids = [i for i in self.habits if self.show_archived or not self.habits[i]["archived"]]
        h = self.habits
        keys = {"By name": lambda i: h[i]["name"].casefold(), "By color": lambda i: D.COLORS.index(h[i]["color"]),
                "By score": lambda i: -D.score(h[i]), "By status": lambda i: -h[i]["entries"].get(str(D.DATE), 0)}
        return sorted(ids, key=keys[self.sort]) if self.sort in keys else ids

    def state(self) -> HabitsState:
        """The habits, the list's settings and what changed since set-up (see `HabitsState`)."""
        mine = self.phone.screens(PACKAGE)
        front = mine[-1] if mine else None
        opened = front.args.get("id") if front is not None else None
        return {"habits": [{**h, "entries": dict(h["entries"])} for h in self.habits.values()],
                "sort": self.sort, "show_archived": self.show_archived,
                "screen": front.name if front else None,
                "open": self.habits[opened]["name"] if opened in self.habits else None,
                "last_opened": self.last_opened, "added": [self.habits[i]["name"] for i in self.new_ids],
                "removed": list(self.removed),
                "edited": [{"habit": e["habit"], "changes": dict(e["changes"])} for e in self.edited],
                "archived": list(self.archived), "unarchived": list(self.unarchived),
                "entries": [dict(c) for c in self.changes]}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """The screen, with its dialog (if one is open) over an inert copy of it."""
        pages = {"list": self._list, "habit": self._habit, "form": self._form}
        views = pages[screen.name](screen)
        dialog = screen.args.get("dialog")
        if not dialog:
            return views
        return [*inert(views, screen.scroll), self._dialog(screen, dialog)]

    def _action(self, i: int, desc: str, icon: str, event: tuple, text: str = "") -> View:
        """App bar action button `i` from the right."""
        return View(BUTTON if text else IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, CONTENT_TOP,
                                                       WIDTH - i * TOOLBAR_H, CONTENT_TOP + TOOLBAR_H),
                    text=text, desc=desc, package=PACKAGE, clickable=True, focusable=True, on_tap=event, icon=icon,
                    style="text_button" if text else "")

    def _days(self) -> list[datetime.date]:
        return [D.DATE - datetime.timedelta(days=k) for k in range(DAYS_SHOWN)]

    def _list(self, screen: Screen) -> list[View]:
        top = CONTENT_TOP + TOOLBAR_H
        x0 = WIDTH - MARGIN - DAYS_SHOWN * DAY_W
        header = []
        for k, day in enumerate(self._days()):  # Android's narrow day names over the dates, as the real header
            x = x0 + k * DAY_W
            header += [View(TEXT_VIEW, (x, top, x + DAY_W, top + 50), text=f"{day:%a}"[:2].upper(), rid=DAY_RID,
                            desc=f"{day:%A}", package=PACKAGE, style="secondary"),
                       View(TEXT_VIEW, (x, top + 50, x + DAY_W, top + 100), text=str(day.day), rid=DATE_RID,
                            package=PACKAGE, style="secondary")]
        rows = [self._row(top + 100 + k * ROW_H, i) for k, i in enumerate(self.listing())]
        if not rows:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="You have no active habits",
                         package=PACKAGE, style="hint")]
        return [toolbar("Habits", PACKAGE, PACKAGE, has_back=False), self._action(2, ADD_DESC, "add", ("add",)),
                self._action(1, SORT_DESC, "sort", ("dialog", "sort")),
                self._action(0, MORE_DESC, "more", ("dialog", "menu")), *header,
                scroll_list(top + 100, CONTENT_BOTTOM, PACKAGE, rows, rid=LIST_RID)]

    def _row(self, y: int, i: int) -> View:
        h = self.habits[i]
        x0 = WIDTH - MARGIN - DAYS_SHOWN * DAY_W
        kids = [View(IMAGE_VIEW, (MARGIN, y + 45, MARGIN + 80, y + 125), desc=f"Score {D.score(h)}%", rid=SCORE_RID,
                     package=PACKAGE, icon="chart"),
                View(TEXT_VIEW, (MARGIN + 110, y, x0 - 10, y + ROW_H),
                     text=h["name"] + (" (archived)" if h["archived"] else ""), rid=NAME_RID, package=PACKAGE,
                     clickable=True, focusable=True, on_tap=("open", i), style="row_title")]
        for k, day in enumerate(self._days()):
            value = h["entries"].get(str(day), 0)
            text = str(value) if h["kind"] == "measurable" else "\u2713" if value else "\u00d7"
            kids.append(View(BUTTON, (x0 + k * DAY_W, y + 20, x0 + (k + 1) * DAY_W, y + ROW_H - 20), text=text,
                             desc=day_desc(h, day), rid=CHECK_RID, package=PACKAGE, clickable=True, focusable=True,
                             on_tap=("check", i, str(day)), style="text_button"))
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), rid=ROW_RID, package=PACKAGE, style="row", children=kids)

    def _stat(self, col: Column, label: str, value: str, key: str) -> None:
        col.text(label, height=60, style="secondary")
        col.text(value, height=90, style="time", rid=STAT_RIDS[key])

    def _habit(self, screen: Screen) -> list[View]:
        h = self.habits[screen.args["id"]]
        col = Column(CONTENT_TOP + TOOLBAR_H + 30, PACKAGE)
        if h["question"]:
            col.text(h["question"], height=90, rid=f"{PACKAGE}:id/questionLabel")
        remind = f" \u00b7 Reminder {D.reminder_label(h['reminder'])}" if h["reminder"] else ""
        col.text(D.frequency_label(h["times"], h["days"]) + remind, height=80, style="secondary",
                 rid=f"{PACKAGE}:id/frequencyLabel")
        if h["archived"]:
            col.text("Archived", height=70, style="secondary")
        if h["kind"] == "measurable":
            self._stat(col, "Target", f"{h['target']} {h['unit']} per day".replace("  ", " "), "target")
        self._stat(col, "Score", f"{D.score(h)}%", "score")
        streak, best = D.current_streak(h), D.best_streak(h)
        self._stat(col, "Current streak", f"{streak} day{'s' if streak != 1 else ''}", "currentStreak")
        self._stat(col, "Best streak", f"{best} day{'s' if best != 1 else ''}", "bestStreak")
        self._stat(col, "Total", str(D.total(h)), "total")
        col.gap(20)
        col.text("History", height=80, style="section")
        for back in range(4):
            year, month = D.DATE.year, D.DATE.month - back
            if month < 1:
                year, month = year - 1, month + 12
            y = col.y
            col.add(View(TEXT_VIEW, (MARGIN, y, WIDTH // 2, y + 80), text=f"{datetime.date(year, month, 1):%B %Y}",
                         rid=MONTH_RID, package=PACKAGE))
            col.add(View(TEXT_VIEW, (WIDTH // 2, y, WIDTH - MARGIN, y + 80), text=str(D.month_count(h, year, month)),
                         rid=MONTH_COUNT_RID, package=PACKAGE))
        if h["notes"]:
            col.text(h["notes"], height=120, rid=f"{PACKAGE}:id/notesLabel")
        return [toolbar(h["name"], PACKAGE, PACKAGE), self._action(1, EDIT_DESC, "edit", ("edit",)),
                self._action(0, MORE_DESC, "more", ("dialog", "menu")), *col.views]

    def _form(self, screen: Screen) -> list[View]:
        a, f = screen.args, screen.fields
        col = Column(CONTENT_TOP + TOOLBAR_H + 20, PACKAGE)
        boxes = [(NAME_FIELD, "Name"), (QUESTION_FIELD, "Question")]
        if a["kind"] == "measurable":
            boxes += [(UNIT_FIELD, "Unit"), (TARGET_FIELD, "Target")]
        for rid, hint in boxes:
            col.add(text_field((MARGIN, col.y, WIDTH - MARGIN, col.y + 130), rid, f.get(rid, ""), hint,
                               screen.focus == rid, PACKAGE))
            col.gap(20)
        for rid, label, value in ((FREQ_ROW, "Frequency", D.frequency_label(a["times"], a["days"])),
                                  (COLOR_ROW, "Color", a["color"]), (REMINDER_ROW, "Reminder",
                                                                     D.reminder_label(a["reminder"]))):
            y = col.y
            col.add(View(LINEAR, (0, y, WIDTH, y + 140), rid=rid, package=PACKAGE, clickable=True, focusable=True,
                         on_tap=("dialog", rid.rsplit("/", 1)[1]), style="row", children=[
                             View(TEXT_VIEW, (MARGIN, y, WIDTH // 2, y + 140), text=label, package=PACKAGE),
                             View(TEXT_VIEW, (WIDTH // 2, y, WIDTH - MARGIN, y + 140), text=value,
                                  package=PACKAGE, style="row_summary")]))
        col.add(text_field((MARGIN, col.y + 10, WIDTH - MARGIN, col.y + 140), NOTES_FIELD, f.get(NOTES_FIELD, ""),
                           "Notes", screen.focus == NOTES_FIELD, PACKAGE))
        if a.get("error"):
            col.text(a["error"], height=80, style="error", rid=ERROR_RID)
        title = "Create habit" if a["id"] is None else "Edit habit"
        return [toolbar(title, PACKAGE, PACKAGE), self._action(0, "Save", "", ("save",), text="Save"), *col.views]

    def _dialog(self, screen: Screen, dialog: str) -> View:
        a, close = screen.args, ("close",)
        match dialog:
            case "sort":
                return popup_menu(PACKAGE, [(s, ("sort", s)) for s in D.SORTS], close)
            case "menu" if screen.name == "list":
                label = "Hide archived" if self.show_archived else "Show archived"
                return popup_menu(PACKAGE, [(label, ("toggle_archived",))], close)
            case "menu":
                archived = self.habits[a["id"]]["archived"]
                return popup_menu(PACKAGE, [("Unarchive" if archived else "Archive", ("archive",)),
                                            ("Delete", ("dialog", "delete"))], close)
            case "delete":
                return alert_dialog(PACKAGE, "Delete habit?", "Deleting a habit removes its history for good.",
                                    [("Cancel", close), ("Yes", ("delete",))], close)
            case "kind":
                y = dialog_body_top(700)
                body = [View(TEXT_VIEW, (150, y + k * 170, WIDTH - 150, y + (k + 1) * 170 - 10), text=label,
                             desc=hint, package=PACKAGE, clickable=True, focusable=True, on_tap=("new", kind),
                             style="row")
                        for k, (label, hint, kind) in enumerate((
                            ("Yes or No", "e.g. Did you wake up early today?", "yes_no"),
                            ("Measurable", "e.g. How many miles did you run today?", "measurable")))]
                return app_dialog(PACKAGE, "Create habit", body, [("Cancel", close, True)], top=700)
            case "colorPicker":
                return popup_menu(PACKAGE, [(c, ("color", c)) for c in D.COLORS], close)
            case "frequencyPicker":
                y = dialog_body_top(400)
                body = [View(TEXT_VIEW, (150, y + k * 130, WIDTH - 150, y + (k + 1) * 130), text=label,
                             package=PACKAGE, clickable=True, focusable=True, checkable=True,
                             checked=a["freq_choice"] == k, on_tap=("freq_choice", k), style="row")
                        for k, label in enumerate(FREQ_CHOICES)]
                y += len(FREQ_CHOICES) * 130 + 20
                body.append(text_field((150, y, WIDTH - 150, y + 130), FREQ_FIELD, screen.fields.get(FREQ_FIELD, ""),
                                       "N", screen.focus == FREQ_FIELD, PACKAGE))
                return app_dialog(PACKAGE, "Frequency", body, [("Cancel", close, True), ("OK", ("freq_ok",), True)],
                                  top=400)
            case "reminderTimePicker":
                y = dialog_body_top(500)
                body = [text_field((150, y, WIDTH - 150, y + 130), TIME_FIELD, screen.fields.get(TIME_FIELD, ""),
                                   "Time (e.g. 7:30 AM)", screen.focus == TIME_FIELD, PACKAGE)]
                return app_dialog(PACKAGE, "Reminder", body, [("Clear", ("time_off",), True),
                                                              ("Cancel", close, True), ("OK", ("time_ok",), True)],
                                  top=500)
        h = self.habits[a["habit"]]  # the number dialog of a measurable day
        day = datetime.date.fromisoformat(a["day"])
        y = dialog_body_top(500)
        body = [text_field((150, y, WIDTH - 150, y + 130), VALUE_FIELD, screen.fields.get(VALUE_FIELD, ""),
                           h["unit"] or "Value", screen.focus == VALUE_FIELD, PACKAGE)]
        return app_dialog(PACKAGE, f"{h['name']}, {day:%a %b} {day.day}", body,
                          [("Cancel", close, True), ("OK", ("value_ok",), True)], top=500)

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Rows, day buttons, app bar actions, the form and every dialog."""
        a = screen.args
        match event:
            case ("close",):
                return self._close(screen)
            case ("dialog", name):
                a["dialog"] = name
                if name == "frequencyPicker":
                    a["freq_choice"] = freq_choice(a["times"], a["days"])
                    screen.fields[FREQ_FIELD] = "" if a["freq_choice"] == 0 else str(
                        a["days"] if a["freq_choice"] == 1 else a["times"])
                elif name == "reminderTimePicker":
                    screen.fields[TIME_FIELD], screen.focus = D.reminder_label(a["reminder"]).replace("Off", ""), (
                        TIME_FIELD)
                return True
            case ("sort", order):
                self.sort = order
                return self._close(screen)
            case ("toggle_archived",):
                self.show_archived = not self.show_archived
                return self._close(screen)
            case ("add",):
                a["dialog"] = "kind"
                return True
            case ("new", kind):
                self._close(screen)
                return self.phone.push(Screen(PACKAGE, "form", {"id": None, "kind": kind, "times": 1, "days": 1,
                                                                "color": "Teal", "reminder": ""}))
            case ("open", i):
                self.last_opened = self.habits[i]["name"]
                return self.phone.push(Screen(PACKAGE, "habit", {"id": i}))
            case ("check", i, day):
                return self._check(screen, i, day)
            case ("value_ok",):
                return self._value(screen)
            case ("edit",):
                return self._edit(a["id"])
            case ("archive",):
                return self._archive(screen)
            case ("delete",):
                self.removed.append(self.habits.pop(a["id"])["name"])
                self.new_ids = [i for i in self.new_ids if i in self.habits]
                return self.phone.pop()
            case ("color", color):
                a["color"] = color
                return self._close(screen)
            case ("freq_choice", k):
                a["freq_choice"] = k
                return True
            case ("freq_ok",):
                return self._frequency(screen)
            case ("time_ok",):
                when = D.parse_time(screen.fields.get(TIME_FIELD, ""))
                if when is None:
                    return False
                a["reminder"] = when
                return self._close(screen)
            case ("time_off",):
                a["reminder"] = ""
                return self._close(screen)
            case ("save",):
                return self._save(screen)
        return False

    def _close(self, screen: Screen) -> bool:
        screen.args.pop("dialog", None)
        screen.args.pop("freq_choice", None)
        screen.focus = None
        return True

    def _check(self, screen: Screen, i: int, day: str) -> bool:
        """Toggle a yes/no day; open the number dialog of a measurable one."""
        h = self.habits[i]
        if h["kind"] == "measurable":
            screen.args.update(dialog="value", habit=i, day=day)
            value = h["entries"].get(day, 0)
            screen.fields[VALUE_FIELD], screen.focus = str(value) if value else "", VALUE_FIELD
            return True
        self._set(h, day, 0 if h["entries"].get(day, 0) else 1)
        return True

    def _set(self, h: dict[str, Any], day: str, value: int) -> None:
        if value:
            h["entries"][day] = value
        else:
            h["entries"].pop(day, None)
        self.changes.append({"habit": h["name"], "day": day, "value": value})

    def _value(self, screen: Screen) -> bool:
        text = screen.fields.get(VALUE_FIELD, "").strip()
        if text and not text.isdigit():
            return False
        h = self.habits[screen.args["habit"]]
        if int(text or 0) != h["entries"].get(screen.args["day"], 0):
            self._set(h, screen.args["day"], int(text or 0))
        return self._close(screen)

    def _archive(self, screen: Screen) -> bool:
        h = self.habits[screen.args["id"]]
        h["archived"] = not h["archived"]
        (self.archived if h["archived"] else self.unarchived).append(h["name"])
        self._close(screen)
        return self.phone.pop()  # as the real app, back to the list

    def _frequency(self, screen: Screen) -> bool:
        a, text = screen.args, screen.fields.get(FREQ_FIELD, "").strip()
        k = a["freq_choice"]
        if k == 0:
            a["times"], a["days"] = 1, 1
        elif not text.isdigit() or int(text) < 1:
            return False
        else:
            n = int(text)
            a["times"], a["days"] = ((1, n), (n, 7), (n, 30))[k - 1]
        return self._close(screen)

    def _edit(self, i: int) -> bool:
        h = self.habits[i]
        fields = {NAME_FIELD: h["name"], QUESTION_FIELD: h["question"], NOTES_FIELD: h["notes"]}
        if h["kind"] == "measurable":
            fields |= {UNIT_FIELD: h["unit"], TARGET_FIELD: str(h["target"])}
        return self.phone.push(Screen(PACKAGE, "form", {"id": i, "kind": h["kind"], "times": h["times"],
                                                        "days": h["days"], "color": h["color"],
                                                        "reminder": h["reminder"]}, fields))

    def _save(self, screen: Screen) -> bool:
        """Save the form: refused with a message for a blank name or a measurable target that is no number."""
        a, f = screen.args, screen.fields
        values: dict[str, Any] = {"name": f.get(NAME_FIELD, "").strip(), "question": f.get(QUESTION_FIELD, "").strip(),
                                  "notes": f.get(NOTES_FIELD, "").strip(), "times": a["times"], "days": a["days"],
                                  "color": a["color"], "reminder": a["reminder"]}
        if a["kind"] == "measurable":
            target = f.get(TARGET_FIELD, "").strip()
            if not target.isdigit():
                a["error"] = "Target must be a number"
                return True
            values |= {"unit": f.get(UNIT_FIELD, "").strip(), "target": int(target)}
        if not values["name"]:
            a["error"] = "Name can't be empty"
            return True
        if a["id"] is None:
            self.habits[self.next_id] = D.habit(values.pop("name"), kind=a["kind"], **values)
            self.new_ids.append(self.next_id)
            self.next_id += 1
        else:
            h = self.habits[a["id"]]
            changes = {k: v for k, v in values.items() if h[k] != v}
            if changes:
                self.edited.append({"habit": h["name"], "changes": changes})
                if self.last_opened == h["name"]:
                    self.last_opened = values["name"]
                h.update(changes)
        return self.phone.pop()

    def on_back(self, screen: Screen) -> bool:
        """BACK closes an open dialog first."""
        return self._close(screen) if screen.args.get("dialog") else False

    def submit(self, screen: Screen, rid: str) -> bool:
        """ENTER in a dialog's field presses its OK; in the form it closes the keyboard."""
        events = {VALUE_FIELD: ("value_ok",), FREQ_FIELD: ("freq_ok",), TIME_FIELD: ("time_ok",)}
        if rid in events:
            return self.handle(events[rid], screen)
        screen.focus = None
        return True
