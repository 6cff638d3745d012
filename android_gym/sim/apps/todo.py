"""The Tasks app (Tasks.org): to-do lists, smart filters, a task editor with a due-date picker and priorities.

Tasks are drawn per episode from `stable_seed("tasks", phone.seed)` (never from the episode RNG), with due dates
around the sim's today (`calendar.TODAY`, so Tasks and Calendar agree on the date). A task is a dict `TaskState`;
tasks read the app's state as `TasksState` and set initial conditions as `TasksInitial` (issue 48).

Screens: "list" (args {"view": a list or filter name}), "drawer" (the list switcher), "menu" (More options),
"clear" (confirm Delete completed), "edit" (args {"list", "index": the task's index or None for a new one, "due",
"priority"}; the title in fields[TITLE_RID]), "date" (the due-date picker over the editor: args {"year", "month",
"selected"}) and "delete" (confirm deleting the edited task). BACK from the editor saves, as Tasks.org does.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from pydantic import field_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import App, Screen, stable_seed
from android_gym.sim.app_dialogs import app_dialog, dialog_body_top, inert, month_grid
from android_gym.sim.app_state import closed
from android_gym.sim.apps.calendar import TODAY
from android_gym.sim.events import AppEvent, NavKey
from android_gym.sim.layout import (
    BUTTON,
    CONTENT_BOTTOM,
    CONTENT_TOP,
    FRAME,
    IMAGE_BUTTON,
    LINEAR,
    MARGIN,
    TEXT_VIEW,
    TOOLBAR_H,
    VIEW,
    WIDTH,
    scroll_list,
    text_field,
)
from android_gym.sim.view import View

PACKAGE = "org.tasks"
LISTS = ("Inbox", "Work", "Shopping", "Personal")
FILTERS = ("My Tasks", "Today", "Tomorrow")
PRIORITIES = ("high", "medium", "low", "none")
TITLE_RID = f"{PACKAGE}:id/title"
DUE_RID = f"{PACKAGE}:id/due_date"
CHECK_RID = f"{PACKAGE}:id/completeBox"
DRAWER_ITEM_RID = f"{PACKAGE}:id/text"
FAB_DESC = "Add task"
DRAWER_DESC = "Open navigation drawer"
DATE = datetime.date(*TODAY[:3])
ROW_H = 200
POOL = {
    "Inbox": ("Call the plumber", "Renew passport", "Book dentist appointment", "Pay electricity bill",
              "Return library books", "Water the plants"),
    "Work": ("Send weekly report", "Prepare slides for Monday", "Review pull request", "Email the client",
             "Update the roadmap", "Schedule team lunch"),
    "Shopping": ("Buy milk", "Buy batteries", "Buy birthday card", "Buy coffee beans", "Buy dish soap",
                 "Buy light bulbs"),
    "Personal": ("Go for a run", "Call grandma", "Plan the weekend trip", "Clean the garage", "Read 20 pages",
                 "Practice guitar"),
}


def iso(days: int) -> str:
    """The date `days` after the sim's today, as "YYYY-MM-DD".

    >>> iso(0), iso(1)
    ('2026-06-10', '2026-06-11')
    """
    return str(DATE + datetime.timedelta(days=days))


def due_label(due: str | None) -> str:
    """A due date as the list shows it.

    >>> due_label("2026-06-11"), due_label("2026-06-12"), due_label(None)
    ('Tomorrow', 'Fri, Jun 12', 'No date')
    """
    if due is None:
        return "No date"
    d = datetime.date.fromisoformat(due)
    names = {0: "Today", 1: "Tomorrow", -1: "Yesterday"}
    return names.get((d - DATE).days) or f"{d:%a}, {d:%b} {d.day}" + ("" if d.year == DATE.year else f", {d.year}")


def seeded_lists(seed: int) -> dict[str, list[dict[str, Any]]]:
    """Episode `seed`'s lists: 2-5 tasks each, due from 3 days ago to 2 weeks ahead (a quarter undated)."""
    rng = np.random.default_rng(stable_seed("tasks", seed))
    out: dict[str, list[dict[str, Any]]] = {}
    for name in LISTS:
        titles = rng.permutation(len(POOL[name]))[:int(rng.integers(2, 6))]
        out[name] = [{"title": POOL[name][int(i)],
                      "due": None if rng.random() < 0.25 else iso(int(rng.integers(-3, 15))),
                      "priority": PRIORITIES[int(rng.integers(4))], "completed": bool(rng.random() < 0.25)}
                     for i in titles]
    return out


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Priority = Literal["high", "medium", "low", "none"]
TasksScreen = Literal["list", "drawer", "menu", "clear", "edit", "date", "delete"]


@closed
class TaskState(TypedDict):
    """A task: its title, its "YYYY-MM-DD" due date (None: undated), its priority, whether it is done."""

    title: str
    due: str | None
    priority: Priority
    completed: bool


@closed
class ShownTask(TypedDict):
    """A row of the list or filter shown: the task's list, title, due date and whether it is done."""

    list: str
    title: str
    due: str | None
    completed: bool


@closed
class TaskDraft(TypedDict):
    """The open editor: the task's list and index there (None: a new task), its title as typed, due date, priority."""

    list: str
    index: int | None
    title: str
    due: str | None
    priority: Priority


@closed
class TaskEdit(TypedDict):
    """One edit of the episode's log: what was done to the task of that title in that list."""

    op: Literal["add", "update", "complete", "uncomplete", "delete"]
    list: str
    title: str


@closed
class TasksState(TypedDict):
    """What the Tasks app reports (`TodoApp.state`).

    Attributes:
        lists: every list's tasks in order, by list name.
        view: the list or filter shown (kept while Tasks is closed).
        screen: the front Tasks screen's name, None when Tasks has no screen on the stack.
        shown: the tasks the view lists, in its order (`TodoApp.shown`).
        editing: the open editor's task, None without an editor.
        edits: the episode's edits in order.
    """

    lists: dict[str, list[TaskState]]
    view: str
    screen: TasksScreen | None
    shown: list[ShownTask]
    editing: TaskDraft | None
    edits: list[TaskEdit]


class TaskSpec(ConfigModel):
    """A task a list starts with.

    Attributes:
        title: its title.
        due: its due date, "YYYY-MM-DD" (None: undated).
        priority: high, medium, low or none.
        completed: whether it is done.
    """

    title: str
    due: str | None = None
    priority: Priority = "none"
    completed: bool = False

    @field_validator("due")
    @classmethod
    def _iso_date(cls, due: str | None) -> str | None:
        try:
            if due is None or str(datetime.date.fromisoformat(due)) == due:
                return due
        except ValueError:
            pass
        raise FieldError("due", 'a "YYYY-MM-DD" date or None', due)


class NewTask(TaskSpec):
    """A task added to a list (created when no list has that name).

    Attributes:
        list: the list it goes in (not a filter).
    """

    list: str

    @field_validator("list")
    @classmethod
    def _not_a_filter(cls, name: str) -> str:
        if name in FILTERS:
            raise FieldError("list", f"a list, not a filter ({', '.join(FILTERS)})", name)
        return name


class TasksInitial(ConfigModel):
    """The initial conditions a Tasks task may set, applied in this order.

    Attributes:
        absent: titles removed from every list.
        lists: lists whose tasks are replaced by these (a list not there is created), by list name (not a filter).
        tasks: tasks appended to their lists.
    """

    absent: tuple[str, ...] = ()
    lists: dict[str, tuple[TaskSpec, ...]] = {}
    tasks: tuple[NewTask, ...] = ()

    @field_validator("lists", mode="before")
    @classmethod
    def _tasks_as_tuples(cls, lists: Any) -> Any:
        # JSON and YAML give each list's tasks as a list, which strict mode refuses for a tuple, and ConfigModel
        # turns lists into tuples only outside mappings
        if isinstance(lists, Mapping):
            return {name: tuple(tasks) if isinstance(tasks, list) else tasks for name, tasks in lists.items()}
        return lists

    @field_validator("lists")
    @classmethod
    def _no_filter_names(cls, lists: dict[str, tuple[TaskSpec, ...]]) -> dict[str, tuple[TaskSpec, ...]]:
        filters = sorted(set(lists) & set(FILTERS))
        if filters:
            raise FieldError("lists", f"lists, none named like a filter ({', '.join(FILTERS)})", filters)
        return lists


def _task(spec: TaskSpec) -> dict[str, Any]:
    """A task of the app's lists from its initial-conditions spec."""
    return {"title": spec.title, "due": spec.due, "priority": spec.priority, "completed": spec.completed}


class TodoApp(App):
    """Tasks.org: lists and filters of tasks, check them off, add and edit them, delete completed ones."""

    package = PACKAGE
    label = "Tasks"
    icon = "tasks"
    aliases = ("to-do", "todo", "to do list", "tasks.org")
    state_schema = TasksState
    initial_model = TasksInitial

    def reset(self) -> None:
        """The episode's seeded lists, showing My Tasks."""
        self.lists = seeded_lists(self.phone.seed)
        self.view = "My Tasks"
        self.edits: list[dict[str, str]] = []

    def set_up(self, initial: TasksInitial) -> None:
        """Remove the tasks titled as `initial.absent` says from every list, replace (or create) `initial.lists`, then
        append `initial.tasks` to their lists (creating those not there)."""  # noqa: D205, D209
        gone = set(initial.absent)
        self.lists = {name: [t for t in tasks if t["title"] not in gone] for name, tasks in self.lists.items()}
        for name, tasks in initial.lists.items():
            self.lists[name] = [_task(t) for t in tasks]
        for spec in initial.tasks:
            self.lists.setdefault(spec.list, []).append(_task(spec))

    def home(self) -> Screen:
        """The list or filter shown last."""
        return Screen(PACKAGE, "list", {"view": self.view})

    def shown(self, view: str) -> list[tuple[str, int]]:
        """(list, index) of the tasks `view` lists, in order: open ones by due date (undated last), then done."""
        due = {"Today": iso(0), "Tomorrow": iso(1)}.get(view)
        picked = [(name, i) for name, tasks in self.lists.items() for i, t in enumerate(tasks)
                  if view == name or view == "My Tasks" or (due is not None and t["due"] == due)]

        def key(item: tuple[str, int]) -> tuple:
            t = self.lists[item[0]][item[1]]
            return t["completed"], t["due"] is None, t["due"] or "", PRIORITIES.index(t["priority"]), t["title"]

        return sorted(picked, key=key)

    def state(self) -> TasksState:
        """The lists, the episode's edits and where Tasks is (see `TasksState`)."""
        mine = self.phone.screens(PACKAGE)
        editor = next((s for s in reversed(mine) if s.name == "edit"), None)
        editing = None if editor is None else {
            "list": editor.args["list"], "index": editor.args["index"], "title": editor.fields.get(TITLE_RID, ""),
            "due": editor.args["due"], "priority": editor.args["priority"]}
        return {"lists": {name: [dict(t) for t in tasks] for name, tasks in self.lists.items()}, "view": self.view,
                "screen": mine[-1].name if mine else None,
                "shown": [{"list": n, "title": self.lists[n][i]["title"], "due": self.lists[n][i]["due"],
                           "completed": self.lists[n][i]["completed"]} for n, i in self.shown(self.view)],
                "editing": editing, "edits": [dict(e) for e in self.edits]}

    # -- views --------------------------------------------------------------------------------------------------------
    def build(self, screen: Screen) -> list[View]:
        """A list, the editor, or the drawer, a menu, the date picker or a dialog over the (inert) screen below."""
        if screen.name in ("list", "edit"):
            return self._list(screen) if screen.name == "list" else self._editor(screen)
        below = self.phone.screens(PACKAGE)[-2]
        under = inert(self._list(below) if below.name == "list" else self._editor(below), below.scroll)
        overlay = {"drawer": self._drawer, "menu": self._menu, "date": self._picker}.get(screen.name, self._confirm)
        return [*under, overlay(screen)]

    def _bar(self, title: str, left: tuple[str, str, Any], actions: list[tuple[str, str, tuple]]) -> list[View]:
        """The app bar: a leading button (desc, icon, event), the title, trailing action buttons."""
        b = (0, CONTENT_TOP, WIDTH, CONTENT_TOP + TOOLBAR_H)
        kids = [View(IMAGE_BUTTON, (0, b[1], TOOLBAR_H, b[3]), desc=left[0], package=PACKAGE, clickable=True,
                     focusable=True, on_tap=left[2], icon=left[1]),
                View(TEXT_VIEW, (TOOLBAR_H, b[1], WIDTH - TOOLBAR_H * len(actions), b[3]), text=title,
                     rid=f"{PACKAGE}:id/toolbar_title", package=PACKAGE, style="title")]
        kids += [View(IMAGE_BUTTON, (WIDTH - (i + 1) * TOOLBAR_H, b[1], WIDTH - i * TOOLBAR_H, b[3]), desc=desc,
                      package=PACKAGE, clickable=True, focusable=True, on_tap=event, icon=icon)
                 for i, (desc, icon, event) in enumerate(actions)]
        return [View(FRAME, b, rid=f"{PACKAGE}:id/toolbar", package=PACKAGE, style="toolbar", children=kids)]

    def _list(self, screen: Screen) -> list[View]:
        view = screen.args["view"]
        top = CONTENT_TOP + TOOLBAR_H
        rows = [self._row(top + k * ROW_H, name, i, view not in self.lists)
                for k, (name, i) in enumerate(self.shown(view))]
        if rows:  # room to scroll the last row clear of the FAB
            rows.append(View(VIEW, (0, rows[-1].bounds[3], WIDTH, rows[-1].bounds[3] + 320), package=PACKAGE))
        else:
            rows = [View(TEXT_VIEW, (MARGIN, top + 300, WIDTH - MARGIN, top + 420), text="No tasks",
                         package=PACKAGE, style="hint")]
        fab = View(IMAGE_BUTTON, (WIDTH - 260, CONTENT_BOTTOM - 260, WIDTH - 40, CONTENT_BOTTOM - 40), desc=FAB_DESC,
                   rid=f"{PACKAGE}:id/fab", package=PACKAGE, clickable=True, focusable=True, on_tap=("fab",),
                   style="fab", icon="add")
        return [*self._bar(view, (DRAWER_DESC, "menu", ("drawer",)), [("More options", "more", ("more",))]),
                scroll_list(top, CONTENT_BOTTOM, PACKAGE, rows, rid=f"{PACKAGE}:id/recycler_view"), fab]

    def _row(self, y: int, name: str, i: int, with_list: bool) -> View:
        t = self.lists[name][i]
        summary = " \u00b7 ".join([*([name] if with_list else []), due_label(t["due"]),
                                   *([f"{t['priority'].title()} priority"] if t["priority"] != "none" else []),
                                   *(["Completed"] if t["completed"] else [])])
        return View(LINEAR, (0, y, WIDTH, y + ROW_H), rid=f"{PACKAGE}:id/row", package=PACKAGE, clickable=True,
                    focusable=True, on_tap=("edit", name, i), style="row", children=[
                        View("android.widget.CheckBox", (MARGIN - 10, y + 40, MARGIN + 110, y + 160),
                             desc=f"Complete {t['title']}", rid=CHECK_RID, package=PACKAGE, clickable=True,
                             focusable=True, checkable=True, checked=t["completed"], on_tap=("toggle", name, i),
                             style="checkbox"),
                        View(TEXT_VIEW, (MARGIN + 150, y + 30, WIDTH - MARGIN, y + 115), text=t["title"],
                             rid=TITLE_RID, package=PACKAGE, style="row_title"),
                        View(TEXT_VIEW, (MARGIN + 150, y + 115, WIDTH - MARGIN, y + 180), text=summary, rid=DUE_RID,
                             package=PACKAGE, style="row_summary")])

    def _drawer(self, screen: Screen) -> View:
        y = CONTENT_TOP + 40
        kids = [View(TEXT_VIEW, (MARGIN, y, 780, y + 120), text="Tasks", package=PACKAGE, style="title")]
        y += 140
        for section, names in (("Filters", FILTERS), ("Lists", tuple(self.lists))):
            kids.append(View(TEXT_VIEW, (MARGIN, y, 780, y + 90), text=section, package=PACKAGE, style="section"))
            y += 100
            for name in names:
                count = sum(not self.lists[n][i]["completed"] for n, i in self.shown(name))
                kids += [View(TEXT_VIEW, (0, y, 820, y + 150), text=name, rid=DRAWER_ITEM_RID, package=PACKAGE,
                              clickable=True, focusable=True, selected=name == self.view, on_tap=("view", name),
                              style="row"),
                         View(TEXT_VIEW, (680, y + 35, 790, y + 115), text=str(count), package=PACKAGE,
                              rid=f"{PACKAGE}:id/count", style="secondary")]
                y += 150
        panel = View(FRAME, (0, CONTENT_TOP, 840, CONTENT_BOTTOM), rid=f"{PACKAGE}:id/navigation_view",
                     package=PACKAGE, clickable=True, style="toolbar", children=kids)  # only the scrim closes it
        return View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), package=PACKAGE, clickable=True,
                    on_tap=("cancel",), style="scrim", children=[panel])

    def _menu(self, screen: Screen) -> View:
        item = View(TEXT_VIEW, (560, CONTENT_TOP + 40, WIDTH - 60, CONTENT_TOP + 190), text="Delete completed",
                    rid="android:id/title", package=PACKAGE, clickable=True, focusable=True, on_tap=("clear",),
                    style="row")
        card = View(FRAME, (540, CONTENT_TOP + 20, WIDTH - 40, CONTENT_TOP + 210), package=PACKAGE, clickable=True,
                    style="dialog", children=[item])
        return View(FRAME, (0, CONTENT_TOP, WIDTH, CONTENT_BOTTOM), package=PACKAGE, clickable=True,
                    on_tap=("cancel",), children=[card])

    def _confirm(self, screen: Screen) -> View:
        if screen.name == "clear":
            n = sum(self.lists[name][i]["completed"] for name, i in self.shown(self.view))
            return app_dialog(PACKAGE, "Delete completed tasks?", [], [("Cancel", ("cancel",), True),
                                                                       ("Delete", ("ok",), True)],
                              message=f"{n} completed task{'' if n == 1 else 's'} in {self.view} will be deleted.")
        editor = self.phone.screens(PACKAGE)[-2]
        title = self.lists[editor.args["list"]][editor.args["index"]]["title"]
        return app_dialog(PACKAGE, "Delete task?", [], [("Cancel", ("cancel",), True), ("Delete", ("ok",), True)],
                          message=f"\u201c{title}\u201d will be deleted.")

    def _editor(self, screen: Screen) -> list[View]:
        args = screen.args
        new = args["index"] is None
        actions = [("Save", "check", ("save",))] + ([] if new else [("Delete task", "delete", ("delete",))])
        top = CONTENT_TOP + TOOLBAR_H + 40
        views = [*self._bar("New task" if new else "Edit task", ("Navigate up", "back", NavKey("back")), actions),
                 text_field((MARGIN, top, WIDTH - MARGIN, top + 150), TITLE_RID, screen.fields.get(TITLE_RID, ""),
                            "Task name", screen.focus == TITLE_RID, PACKAGE)]
        y = top + 190
        views.append(View(LINEAR, (0, y, WIDTH, y + 170), package=PACKAGE, clickable=True, focusable=True,
                          on_tap=("due",), style="row", children=[
                              View(TEXT_VIEW, (MARGIN, y + 20, 500, y + 150), text="Due date", package=PACKAGE,
                                   style="row_title"),
                              View(TEXT_VIEW, (500, y + 20, WIDTH - MARGIN, y + 150), text=due_label(args["due"]),
                                   rid=DUE_RID, package=PACKAGE, style="row_summary")]))
        y += 200
        views.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 90), text="Priority", package=PACKAGE,
                          style="row_title"))
        y += 100
        views += [View(BUTTON, (MARGIN + k * 250, y, MARGIN + k * 250 + 230, y + 120), text=p.title(),
                       desc=f"{p.title()} priority", package=PACKAGE, clickable=True, focusable=True, checkable=True,
                       checked=args["priority"] == p, on_tap=("priority", p), style="chip")
                  for k, p in enumerate(PRIORITIES)]
        y += 160
        views.append(View(TEXT_VIEW, (MARGIN, y, WIDTH - MARGIN, y + 120), text=f"List: {args['list']}",
                          rid=f"{PACKAGE}:id/list_name", package=PACKAGE, style="row_title"))
        return views

    def _picker(self, screen: Screen) -> View:
        args = screen.args
        year, month = args["year"], args["month"]
        y = dialog_body_top(200)
        chips = [("Today", iso(0)), ("Tomorrow", iso(1)), ("Next week", iso(7)), ("No date", None)]
        body = [View(BUTTON, (130 + (k % 2) * 420, y + (k // 2) * 125, 530 + (k % 2) * 420, y + (k // 2) * 125 + 110),
                     text=label, package=PACKAGE, clickable=True, focusable=True, checkable=True,
                     checked=args["selected"] == day, on_tap=("pick", day), style="chip")
                for k, (label, day) in enumerate(chips)]
        body += month_grid(PACKAGE, year, month, args["selected"], "pick", y + 270)
        return app_dialog(PACKAGE, "Due date", body, [("Cancel", ("cancel",), True), ("OK", ("ok",), True)], top=200)

    # -- events -------------------------------------------------------------------------------------------------------
    def handle(self, event: AppEvent, screen: Screen) -> bool:
        """Rows, checkboxes, the drawer, menus, the editor, the picker and dialog buttons."""
        if event == ("cancel",):
            return self.phone.pop()
        match screen.name, event:
            case "list", ("drawer",):
                return self.phone.push(Screen(PACKAGE, "drawer"))
            case "list", ("more",):
                return self.phone.push(Screen(PACKAGE, "menu"))
            case "list", ("fab",):
                view = screen.args["view"]
                name = view if view in self.lists else "Inbox"
                due = {"Today": iso(0), "Tomorrow": iso(1)}.get(view)  # a filter's new task gets its date
                return self.phone.push(Screen(PACKAGE, "edit", {"list": name, "index": None, "due": due,
                                                                "priority": "none"}, {TITLE_RID: ""},
                                              focus=TITLE_RID))
            case "list", ("edit", name, i):
                t = self.lists[name][i]
                return self.phone.push(Screen(PACKAGE, "edit", {"list": name, "index": i, "due": t["due"],
                                                                "priority": t["priority"]}, {TITLE_RID: t["title"]}))
            case "list", ("toggle", name, i):
                t = self.lists[name][i]
                t["completed"] = not t["completed"]
                self.edits.append({"op": "complete" if t["completed"] else "uncomplete", "list": name,
                                   "title": t["title"]})
                return True
            case "drawer", ("view", name):
                self.view = name
                self.phone.pop()
                return self.phone.replace(Screen(PACKAGE, "list", {"view": name}))
            case "menu", ("clear",):
                return self.phone.replace(Screen(PACKAGE, "clear"))
            case "clear", ("ok",):
                self._clear_completed()
                return self.phone.pop()
        if screen.name == "edit":
            return self._editor_event(event, screen)
        if screen.name == "date":
            return self._picker_event(event, screen)
        if screen.name == "delete" and event == ("ok",):
            self.phone.pop()
            editor = self.phone.top
            name, i = editor.args["list"], editor.args["index"]
            self.edits.append({"op": "delete", "list": name, "title": self.lists[name].pop(i)["title"]})
            return self.phone.pop()
        return False

    def _clear_completed(self) -> None:
        doomed = {(n, i) for n, i in self.shown(self.view) if self.lists[n][i]["completed"]}
        for name, i in sorted(doomed, key=lambda d: (d[0], -d[1])):  # highest index first keeps the others valid
            self.edits.append({"op": "delete", "list": name, "title": self.lists[name].pop(i)["title"]})

    def _editor_event(self, event: AppEvent, screen: Screen) -> bool:
        args = screen.args
        match event:
            case ("due",):
                day = datetime.date.fromisoformat(args["due"]) if args["due"] else DATE
                return self.phone.push(Screen(PACKAGE, "date", {"year": day.year, "month": day.month,
                                                                "selected": args["due"]}))
            case ("priority", p):
                changed = args["priority"] != p
                args["priority"] = p
                return changed
            case ("save",):
                self._save(screen)
                return self.phone.pop()
            case ("delete",):
                return self.phone.push(Screen(PACKAGE, "delete"))
        return False

    def _picker_event(self, event: AppEvent, screen: Screen) -> bool:
        args = screen.args
        match event:
            case ("month", step):
                m = args["year"] * 12 + args["month"] - 1 + step
                args["year"], args["month"] = divmod(m, 12)
                args["month"] += 1
                return True
            case ("pick", day):
                args["selected"] = day
                if day is not None:
                    d = datetime.date.fromisoformat(day)
                    args["year"], args["month"] = d.year, d.month
                return True
            case ("ok",):
                self.phone.pop()
                self.phone.top.args["due"] = args["selected"]
                return True
        return False

    def _save(self, screen: Screen) -> None:
        """Write the editor's task; a new task without a title is dropped, as Tasks.org does."""
        args = screen.args
        title = screen.fields.get(TITLE_RID, "").strip()
        tasks = self.lists[args["list"]]
        old = tasks[args["index"]] if args["index"] is not None else None
        if not title:
            return
        task = {"title": title, "due": args["due"], "priority": args["priority"],
                "completed": old["completed"] if old else False}
        if old is None:
            tasks.append(task)
            self.edits.append({"op": "add", "list": args["list"], "title": title})
        elif task != old:
            tasks[args["index"]] = task
            self.edits.append({"op": "update", "list": args["list"], "title": title})

    def on_back(self, screen: Screen) -> bool:
        """BACK from the editor saves it before it closes."""
        if screen.name == "edit":
            self._save(screen)
        return False
