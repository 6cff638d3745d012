"""Tests of the Markor and Tasks apps of the simulated phone: screens, state, dialogs, back, XML, pixels, seeding."""

from __future__ import annotations

import numpy as np
import pytest

from android_gym.devices.sim import SimDevice
from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS, markor, todo, with_apps
from android_gym.sim.apps.markor import MarkorApp
from android_gym.sim.apps.todo import TodoApp
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

APPS = with_apps(MarkorApp, TodoApp)
NOTES = {"Work/plan.md": "# Plan\n- ship it", "ideas.md": "Ideas", "Work/Deep/old.txt": "old"}
TASKS = [{"list": "Work", "title": "Ship the release", "due": todo.iso(2), "priority": "high"},
         {"list": "Work", "title": "Write notes", "due": todo.iso(1)},
         {"list": "Work", "title": "Archive logs", "due": todo.iso(0), "completed": True},
         {"list": "Shopping", "title": "Buy tape", "completed": True}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with both apps installed and no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=APPS)
    phone.reset(seed, initial)
    return phone


def notes_phone() -> SimPhone:
    """Markor open on a notebook with known notes (only the known ones, so positions are fixed)."""
    seeded = markor.notebook(0)
    phone = make_phone(initial={markor.PACKAGE: {"absent": sorted(seeded[0] | set(seeded[1])), "files": NOTES}})
    phone.launch("Markor")
    return phone


def tasks_phone() -> SimPhone:
    """Tasks open on My Tasks, holding only the known tasks."""
    phone = make_phone(initial={todo.PACKAGE: {"lists": {name: [] for name in todo.LISTS}, "tasks": TASKS}})
    phone.launch("Tasks")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def labels(phone: SimPhone) -> list[str]:
    """Every element label on screen."""
    return [e.label for e in phone.elements()]


def mk(phone: SimPhone) -> dict:
    """Markor's state."""
    return phone.state()["apps"][markor.PACKAGE]


def tk(phone: SimPhone) -> dict:
    """Tasks' state."""
    return phone.state()["apps"][todo.PACKAGE]


# -- Markor ------------------------------------------------------------------------------------------------------------
def test_markor_lists_folders_first_and_walks_folders_with_back():
    """The root lists folders then notes; a folder opens with its breadcrumb; Navigate up and BACK go up a level."""
    phone = notes_phone()
    titles = [e.text for e in phone.elements() if e.rid == markor.TITLE_RID]
    assert titles == ["Work", "ideas.md"] and "Notebook" in labels(phone)
    assert find(phone.elements(), desc="Navigate up") is None  # the root has no up button
    press(phone, rid=markor.TITLE_RID, text="Work")
    press(phone, rid=markor.TITLE_RID, text="Deep")
    assert mk(phone)["folder"] == "Work/Deep" and "Notebook / Work / Deep" in labels(phone)
    press(phone, desc="Navigate up")
    assert mk(phone)["folder"] == "Work" and [e.text for e in phone.elements() if e.rid == markor.TITLE_RID] == [
        "Deep", "plan.md"]
    phone.key("back")
    phone.key("back")
    assert phone.foreground != markor.PACKAGE and mk(phone)["screen"] is None


def test_markor_new_note_opens_the_editor_and_back_saves_it():
    """FAB, a name, ENTER: the note exists (".md" added) and opens in the editor; typed text is saved on BACK."""
    phone = notes_phone()
    press(phone, desc=markor.FAB_DESC)
    assert phone.top.name == "create" and phone.keyboard_up
    phone.type_text("groceries")
    phone.key("enter")
    state = mk(phone)
    assert state["open"] == {"path": "groceries.md", "mode": "edit", "text": "", "saved": True}
    assert phone.top.focus == markor.EDITOR_RID
    phone.type_text("milk")
    phone.key("enter")  # a line break in the editor (the keyboard closes in the sim)
    press(phone, rid=markor.EDITOR_RID)
    phone.type_text("eggs")
    assert mk(phone)["open"]["saved"] is False and mk(phone)["files"]["groceries.md"] == ""
    phone.key("back")  # the keyboard
    phone.key("back")  # leaves and saves, as Markor does
    state = mk(phone)
    assert state["files"]["groceries.md"] == "milk\neggs" and state["screen"] == "browser"
    assert state["edits"] == [{"op": "create", "path": "groceries.md"}, {"op": "save", "path": "groceries.md"}]
    assert state["modified"]["groceries.md"] == "2026-06-10"


def test_markor_create_dialog_refuses_a_taken_name_and_makes_folders():
    """A taken name shows an error and creates nothing; the Folder type makes a folder; a tap outside cancels."""
    phone = notes_phone()
    press(phone, desc=markor.FAB_DESC)
    phone.type_text("ideas.md")
    press(phone, text="OK")
    assert phone.top.name == "create" and "A file or folder with this name already exists" in labels(phone)
    assert mk(phone)["edits"] == []
    press(phone, text="Folder", clickable=True)
    phone.type_text(" 2")
    press(phone, text="OK")
    assert "ideas.md 2" in mk(phone)["folders"] and phone.top.name == "browser"
    press(phone, desc=markor.FAB_DESC)
    phone.key("back")  # the keyboard first
    assert phone.top.name == "create" and not phone.keyboard_up
    phone.tap(540, 2000)  # the scrim below the dialog
    assert phone.top.name == "browser" and len(mk(phone)["edits"]) == 1


def test_markor_more_options_rename_move_and_delete():
    """Rename (Clear text, type, OK), Move (pick a folder; Move is disabled until then) and Delete (confirm)."""
    phone = notes_phone()
    press(phone, desc="More options for ideas.md")
    assert {"Rename", "Move", "Delete"} <= set(labels(phone))
    press(phone, text="Rename")
    assert phone.top.fields[markor.NAME_RID] == "ideas.md"
    press(phone, desc="Clear text")
    assert phone.keyboard_up and phone.top.fields[markor.NAME_RID] == ""
    phone.type_text("brainstorm.md")
    press(phone, text="OK")
    assert "brainstorm.md" in mk(phone)["files"] and "ideas.md" not in mk(phone)["files"]
    press(phone, desc="More options for brainstorm.md")
    press(phone, text="Move")
    assert not find(phone.elements(), text="Move", clickable=True).enabled
    assert not press(phone, text="Move", clickable=True) and phone.top.name == "move"
    assert not phone.tap(540, 500)  # the dialog's box keeps the touch; only the scrim around it cancels
    press(phone, text="Notebook / Work / Deep")
    press(phone, text="Move", clickable=True)
    assert mk(phone)["files"]["Work/Deep/brainstorm.md"] == "Ideas"
    press(phone, desc="More options for Work")
    press(phone, text="Delete")
    assert "Delete Work?" in labels(phone)
    press(phone, text="Cancel")
    assert "Work" in mk(phone)["folders"]
    press(phone, desc="More options for Work")
    press(phone, text="Delete")
    press(phone, text="Delete", clickable=True)
    state = mk(phone)
    assert state["files"] == {} and state["folders"] == []
    assert [e["op"] for e in state["edits"]] == ["rename", "move", "delete"]
    assert state["edits"][1] == {"op": "move", "path": "brainstorm.md", "to": "Work/Deep/brainstorm.md"}


def test_markor_preview_shows_the_text_and_save_writes_it():
    """Save writes the editor's text; Preview saves and shows the text read-only; Edit goes back to the editor."""
    phone = notes_phone()
    press(phone, rid=markor.TITLE_RID, text="ideas.md")
    assert mk(phone)["last_opened"] == "ideas.md" and find(phone.elements(), rid=markor.EDITOR_RID).text == "Ideas"
    press(phone, rid=markor.EDITOR_RID)
    phone.type_text(" and more")
    press(phone, desc="Save")
    assert mk(phone)["files"]["ideas.md"] == "Ideas and more"
    phone.type_text("!")
    press(phone, desc="Preview")
    assert mk(phone)["open"]["mode"] == "view" and mk(phone)["files"]["ideas.md"] == "Ideas and more!"
    assert find(phone.elements(), rid=markor.VIEWER_RID).text == "Ideas and more!" and not phone.keyboard_up
    assert find(phone.elements(), rid=markor.EDITOR_RID) is None
    press(phone, desc="Edit")
    assert find(phone.elements(), rid=markor.EDITOR_RID).text == "Ideas and more!"


def test_markor_search_finds_notes_in_every_folder_and_back_ends_it():
    """Search lists matching names from every folder with where they are; BACK closes the keyboard, then search."""
    phone = notes_phone()
    press(phone, desc="Search")
    phone.type_text("o")
    titles = [e.text for e in phone.elements() if e.rid == markor.TITLE_RID]
    assert titles == ["Work", "old.txt"] and mk(phone)["query"] == "o"
    assert any("in Notebook / Work / Deep" in e.text for e in phone.elements() if e.rid == markor.SUMMARY_RID)
    phone.type_text("ld")
    press(phone, rid=markor.TITLE_RID, text="old.txt")
    assert mk(phone)["open"]["path"] == "Work/Deep/old.txt" and not phone.keyboard_up
    phone.key("back")
    assert mk(phone)["query"] == "old" and phone.keyboard_up  # back on the results, the search field focused
    phone.key("back")
    phone.key("back")
    assert phone.top.name == "browser" and mk(phone)["query"] is None and not phone.keyboard_up
    assert [e.text for e in phone.elements() if e.rid == markor.TITLE_RID] == ["Work", "ideas.md"]


def test_markor_long_folder_scrolls():
    """A folder longer than the screen scrolls, and the last row can be scrolled clear of the FAB."""
    files = {f"note_{i:02d}.md": str(i) for i in range(14)}
    phone = make_phone(initial={markor.PACKAGE: {"files": files}})
    phone.launch("Markor")
    assert find(phone.elements(), text="note_13.md") is None
    assert phone.swipe(540, 1900, 540, 300) and phone.swipe(540, 1900, 540, 300)
    more = find(phone.elements(), desc="More options for note_13.md")
    fab = find(phone.elements(), desc=markor.FAB_DESC)
    assert more is not None and more.bounds[3] <= fab.bounds[1]


# -- Tasks -------------------------------------------------------------------------------------------------------------
def test_tasks_lists_sort_by_due_date_and_the_drawer_switches_views():
    """Open tasks by due date then the completed ones; the drawer picks lists and filters and Tasks remembers it."""
    phone = tasks_phone()
    press(phone, desc=todo.DRAWER_DESC)
    assert phone.top.name == "drawer" and {"My Tasks", "Today", "Tomorrow", "Inbox", "Work"} <= set(labels(phone))
    press(phone, rid=todo.DRAWER_ITEM_RID, text="Work")
    assert [t["title"] for t in tk(phone)["shown"]] == ["Write notes", "Ship the release", "Archive logs"]
    assert "Tomorrow" in labels(phone) and "Today \u00b7 Completed" in labels(phone)
    assert find(phone.elements(), desc="Complete Archive logs").checked
    press(phone, desc=todo.DRAWER_DESC)
    press(phone, rid=todo.DRAWER_ITEM_RID, text="Tomorrow")
    assert tk(phone)["shown"] == [{"list": "Work", "title": "Write notes", "due": todo.iso(1), "completed": False}]
    phone.go_home()
    phone.launch("Tasks")
    assert tk(phone)["view"] == "Tomorrow" and phone.top.args["view"] == "Tomorrow"
    press(phone, desc=todo.DRAWER_DESC)
    phone.key("back")
    assert phone.top.name == "list"


def test_tasks_checkbox_completes_and_reopens():
    """The row's checkbox completes a task (logged) and a second tap reopens it."""
    phone = tasks_phone()
    press(phone, desc="Complete Write notes")
    assert tk(phone)["lists"]["Work"][1]["completed"] is True
    press(phone, desc="Complete Write notes")
    assert tk(phone)["lists"]["Work"][1]["completed"] is False
    assert [e["op"] for e in tk(phone)["edits"]] == ["complete", "uncomplete"]


def test_tasks_new_task_with_a_date_from_next_month_and_a_priority():
    """Add task in a list: title, the picker pages to July, OK, a priority chip, Save; the task lands in that list."""
    phone = tasks_phone()
    press(phone, desc=todo.DRAWER_DESC)
    press(phone, rid=todo.DRAWER_ITEM_RID, text="Shopping")
    press(phone, desc=todo.FAB_DESC)
    assert phone.top.name == "edit" and phone.keyboard_up and "List: Shopping" in labels(phone)
    phone.type_text("Buy glue")
    press(phone, text="Due date")
    assert "June 2026" in labels(phone)
    press(phone, desc="Next month")
    press(phone, desc="Sunday, July 5, 2026")
    press(phone, text="OK")
    assert tk(phone)["editing"]["due"] == "2026-07-05" and "Sun, Jul 5" in labels(phone)
    press(phone, desc="Low priority")
    press(phone, desc="Save")
    assert tk(phone)["lists"]["Shopping"][-1] == {"title": "Buy glue", "due": "2026-07-05", "priority": "low",
                                                   "completed": False}
    assert tk(phone)["edits"] == [{"op": "add", "list": "Shopping", "title": "Buy glue"}]


def test_tasks_picker_cancel_keeps_the_date_and_back_saves_edits():
    """Cancel in the picker keeps the old date; BACK from the editor saves; an empty new task is dropped."""
    phone = tasks_phone()
    press(phone, rid=todo.TITLE_RID, text="Ship the release")
    press(phone, text="Due date")
    press(phone, text="Tomorrow")
    press(phone, text="Cancel")
    assert tk(phone)["editing"]["due"] == todo.iso(2)
    press(phone, desc="Medium priority")
    phone.key("back")
    assert tk(phone)["lists"]["Work"][0]["priority"] == "medium" and tk(phone)["edits"][-1]["op"] == "update"
    press(phone, desc=todo.FAB_DESC)
    phone.key("back")
    phone.key("back")
    assert phone.top.name == "list" and sum(map(len, tk(phone)["lists"].values())) == 4


def test_tasks_delete_task_asks_first():
    """Delete task asks; Cancel keeps it, Delete removes it and closes the editor."""
    phone = tasks_phone()
    press(phone, rid=todo.TITLE_RID, text="Write notes")
    press(phone, desc="Delete task")
    assert "Delete task?" in labels(phone)
    press(phone, text="Cancel")
    assert phone.top.name == "edit"
    press(phone, desc="Delete task")
    press(phone, text="Delete")
    assert phone.top.name == "list" and [t["title"] for t in tk(phone)["lists"]["Work"]] == ["Ship the release",
                                                                                               "Archive logs"]


def test_tasks_delete_completed_only_touches_the_view():
    """In a list, Delete completed removes that list's completed tasks; in My Tasks, every list's."""
    phone = tasks_phone()
    press(phone, desc=todo.DRAWER_DESC)
    press(phone, rid=todo.DRAWER_ITEM_RID, text="Work")
    press(phone, desc="More options")
    press(phone, text="Delete completed")
    assert "1 completed task in Work will be deleted." in labels(phone)
    press(phone, text="Delete")
    lists = tk(phone)["lists"]
    assert [t["title"] for t in lists["Work"]] == ["Ship the release", "Write notes"]
    assert lists["Shopping"] == [{"title": "Buy tape", "due": None, "priority": "none", "completed": True}]
    press(phone, desc=todo.DRAWER_DESC)
    press(phone, rid=todo.DRAWER_ITEM_RID, text="My Tasks")
    press(phone, desc="More options")
    press(phone, text="Delete completed")
    press(phone, text="Delete")
    assert not any(t["completed"] for ts in tk(phone)["lists"].values() for t in ts)


def test_tasks_new_task_in_a_filter_takes_its_date():
    """Add task from the Today filter files an Inbox task due today."""
    phone = tasks_phone()
    press(phone, desc=todo.DRAWER_DESC)
    press(phone, rid=todo.DRAWER_ITEM_RID, text="Today")
    press(phone, desc=todo.FAB_DESC)
    phone.type_text("Call back")
    press(phone, desc="Save")
    assert tk(phone)["lists"]["Inbox"][-1]["due"] == todo.iso(0)
    assert {"list": "Inbox", "title": "Call back", "due": todo.iso(0), "completed": False} in tk(phone)["shown"]


# -- both apps ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, package", [("notes", markor.PACKAGE), ("Markor", markor.PACKAGE),
                                           ("to-do", todo.PACKAGE), ("Tasks", todo.PACKAGE)])
def test_apps_open_by_label_and_alias(name, package):
    """Labels and aliases find the apps; the launcher's drawer shows their icons."""
    assert make_phone().find_app(name).package == package


@pytest.mark.parametrize("steps", [("Markor",), ("Markor", "fab"), ("Markor", "more"), ("Tasks",),
                                   ("Tasks", "drawer"), ("Tasks", "edit"), ("Tasks", "edit", "date")])
def test_xml_parses_and_lists_what_the_screen_shows(steps):
    """Every screen's XML parses into the same elements the phone reports, with its key texts."""
    phone = notes_phone() if steps[0] == "Markor" else tasks_phone()
    actions = {"fab": {"desc": markor.FAB_DESC}, "more": {"desc": "More options for ideas.md"},
               "drawer": {"desc": todo.DRAWER_DESC}, "edit": {"text": "Write notes"}, "date": {"text": "Due date"}}
    for step in steps[1:]:
        press(phone, **actions[step])
    parsed = parse_uiautomator_xml(phone.xml())
    assert [(e.cls, e.bounds, e.label, e.rid) for e in parsed] == [(e.cls, e.bounds, e.label, e.rid)
                                                                   for e in phone.elements()]
    expected = {"Markor": "ideas.md", "fab": "Create a new file or folder", "more": "Rename", "Tasks": "My Tasks",
                "drawer": "Tomorrow", "edit": "Priority", "date": "Next month"}[steps[-1]]
    assert expected in [e.label for e in parsed]


def test_pixels_are_drawn_where_the_views_are():
    """A note row's title, the FAB and a checked task box are drawn (not blank), and a dialog dims the list."""
    device = SimDevice("none", apps=APPS)
    device.reset(0, {markor.PACKAGE: {"files": NOTES},
                     todo.PACKAGE: {"lists": {name: [] for name in todo.LISTS}, "tasks": TASKS}})
    device.phone.launch("Markor")

    def region(view_bounds: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = view_bounds
        return np.asarray(device.screenshot())[y0:y1, x0:x1].reshape(-1, 3).astype(int)

    title = find(device.ui_elements(), rid=markor.TITLE_RID).bounds  # the first row, above any dialog
    fab = find(device.ui_elements(), desc=markor.FAB_DESC).bounds
    assert region(title).std() > 20 and region(fab)[:, 2].mean() > region(fab)[:, 0].mean() + 60  # text; blue FAB
    before = region(title).mean()
    device.phone.tap(*find(device.ui_elements(), desc=markor.FAB_DESC).center)
    assert region(title).mean() < before - 40  # the scrim behind the dialog
    device.phone.launch("Tasks")
    box = find(device.ui_elements(), desc="Complete Archive logs")
    assert box.checked and region(box.bounds)[:, 2].mean() > region(box.bounds)[:, 0].mean() + 30  # ticked box


def test_initial_data_is_seeded():
    """The same seed gives the same notebook and lists; other seeds give others."""
    def data(seed: int) -> tuple:
        state = make_phone(seed).state()["apps"]
        return state[markor.PACKAGE]["files"], state[markor.PACKAGE]["folders"], state[todo.PACKAGE]["lists"]

    assert data(5) == data(5)
    assert len({repr(data(s)) for s in range(6)}) == 6
    modified = make_phone(5).state()["apps"][markor.PACKAGE]["modified"]
    assert len(set(modified.values())) > 3


def test_the_apps_leave_the_episode_rng_alone():
    """A phone with both apps draws the same episode randomness as one with the default apps, even after use."""
    mine, plain = make_phone(9), SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    plain.reset(9)
    mine.launch("Markor")
    press(mine, desc=markor.FAB_DESC)
    mine.launch("Tasks")
    press(mine, desc=todo.DRAWER_DESC)
    mine.state()
    # the generator's whole state: a bounded integer draw uses half a word and keeps the rest buffered, so one
    # extra draw can leave the next random() equal
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state
    assert mine.rng.random() == plain.rng.random()


@pytest.mark.parametrize("initial", [{markor.PACKAGE: {"notes": {}}}, {markor.PACKAGE: {"files": {"/abs.md": ""}}},
                                     {todo.PACKAGE: {"items": []}}, {todo.PACKAGE: {"tasks": [{"title": "x"}]}},
                                     {todo.PACKAGE: {"lists": {"Today": []}}},
                                     {todo.PACKAGE: {"tasks": [{"list": "Work", "title": "x", "priority": "urgent"}]}}])
def test_apply_refuses_unknown_keys_and_bad_items(initial):
    """Unknown keys, absolute paths, a task without a list, a list named like a filter, bad priorities."""
    with pytest.raises(ConfigError):
        make_phone(initial=initial)


def test_apply_puts_and_removes_items():
    """Initial conditions add notes (with their folders) and tasks, and remove named ones."""
    tasks = {"absent": ["Buy milk"], "tasks": [{"list": "Errands", "title": "Post"}]}
    phone = make_phone(initial={markor.PACKAGE: {"files": {"A/B/c.md": "c"}}, todo.PACKAGE: tasks})
    state = phone.state()["apps"]
    assert {"A", "A/B"} <= set(state[markor.PACKAGE]["folders"]) and state[markor.PACKAGE]["files"]["A/B/c.md"] == "c"
    assert state[todo.PACKAGE]["lists"]["Errands"] == [{"title": "Post", "due": None, "priority": "none",
                                                        "completed": False}]
    assert not any(t["title"] == "Buy milk" for ts in state[todo.PACKAGE]["lists"].values() for t in ts)
