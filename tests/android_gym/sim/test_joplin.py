"""Tests of the Joplin app of the simulated phone: the list's order, the sidebar, new notes and to-dos, the note's
checkbox and checklist, moving, deleting, editing and Joplin's save on BACK, search, back, XML, seeding, the episode
RNG and initial conditions."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.errors import ConfigError
from android_gym.sim.apps import DEFAULT_APPS
from android_gym.sim.apps import joplin as J
from android_gym.sim.apps.joplin_data import checklist, seeded_notes
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.expert import find
from android_gym.ui import parse_uiautomator_xml

KNOWN = [{"title": "Pack list", "body": "Bring:\n- [ ] tent\n- [x] stove", "folder": "Trips"},
         {"title": "Book ferry", "folder": "Trips", "is_todo": True},
         {"title": "Old receipt", "folder": "Trips", "is_todo": True, "todo_completed": True},
         {"title": "Pay rent", "body": "Due on the 1st.", "folder": "Money", "is_todo": True},
         {"title": "Savings", "body": "Put 200 aside.", "folder": "Money"}]


def make_phone(seed: int = 0, initial: dict | None = None) -> SimPhone:
    """A reset phone with no perturbations."""
    phone = SimPhone(PerturbationConfig.preset("none"), apps=DEFAULT_APPS)
    phone.reset(seed, initial)
    return phone


def known_phone() -> SimPhone:
    """Joplin open on All notes, holding only the known notes (Savings the newest)."""
    phone = make_phone(initial={J.PACKAGE: {"clear": True, "notes": KNOWN}})
    phone.launch("Joplin")
    return phone


def press(phone: SimPhone, **criteria: object) -> bool:
    """Tap the centre of the first element matching `criteria`; fail if there is none."""
    element = find(phone.elements(), **criteria)
    assert element is not None, f"no element {criteria} on {phone.top.package}/{phone.top.name}"
    return phone.tap(*element.center)


def jop(phone: SimPhone) -> dict:
    """Joplin's state."""
    return phone.state()["apps"][J.PACKAGE]


def titles(phone: SimPhone) -> list[str]:
    """The note titles on screen, top to bottom."""
    return [e.text for e in phone.elements() if e.rid == J.ROW_TITLE_RID]


def note(phone: SimPhone, title: str) -> dict:
    """The note called `title`."""
    return next(n for n in jop(phone)["notes"] if n["title"] == title)


def test_lists_show_open_todos_first_and_the_sidebar_picks_a_notebook():
    """All notes: open to-dos, then newest first; a notebook from the sidebar shows its notes; All notes again."""
    phone = known_phone()
    assert titles(phone) == ["Pay rent", "Book ferry", "Savings", "Old receipt", "Pack list"]
    press(phone, desc=J.SIDEBAR_DESC)
    assert [e.text for e in phone.elements() if e.rid == J.FOLDER_RID] == ["All notes", "Trips", "Money"]
    press(phone, text="Trips")
    assert titles(phone) == ["Book ferry", "Old receipt", "Pack list"] and jop(phone)["folder"] == "Trips"
    checks = [e.checked for e in phone.elements() if e.rid == J.ROW_CHECK_RID]
    assert checks == [False, True]
    press(phone, desc=J.SIDEBAR_DESC)
    press(phone, text="All notes")
    assert jop(phone)["folder"] is None and len(titles(phone)) == 5 and jop(phone)["edits"] == []


def test_a_new_todo_is_written_saved_and_listed_in_its_notebook():
    """Add, New to-do, title, ENTER, body, Save: the note is shown, then listed first in its notebook."""
    phone = known_phone()
    press(phone, desc=J.SIDEBAR_DESC)
    press(phone, text="Money")
    press(phone, desc=J.FAB_DESC)
    press(phone, text="New to-do")
    assert phone.top.focus == J.TITLE_INPUT_RID and jop(phone)["screen"] == "edit"
    phone.type_text("Call the bank")
    phone.key("enter")
    phone.type_text("Ask about the fee")
    press(phone, desc="Save")
    state = jop(phone)
    new = note(phone, "Call the bank")
    assert state["screen"] == "note" and state["open"] == new["id"]
    assert new == {"id": new["id"], "title": "Call the bank", "body": "Ask about the fee", "folder": "Money",
                   "is_todo": True, "todo_completed": False}
    assert state["edits"] == [{"id": new["id"], "title": "Call the bank", "action": "created"}]
    phone.key("back")
    assert titles(phone)[0] == "Call the bank"


def test_the_todo_checkbox_and_checklist_items_tick():
    """On a to-do's screen the Done box completes it (list order follows); a checklist item edits the markdown."""
    phone = known_phone()
    press(phone, text="Book ferry")
    press(phone, desc="Done")
    assert note(phone, "Book ferry")["todo_completed"] and jop(phone)["edits"][-1]["action"] == "completed"
    phone.key("back")
    assert titles(phone)[:2] == ["Pay rent", "Book ferry"]  # done now, but the newest update
    press(phone, text="Pack list")
    assert [(e.text, e.checked) for e in phone.elements() if e.rid == J.ITEM_RID] == [("tent", False),
                                                                                        ("stove", True)]
    press(phone, text="tent")
    assert checklist(note(phone, "Pack list")["body"]) == [("tent", True), ("stove", True)]
    assert jop(phone)["edits"][-1] == {"id": note(phone, "Pack list")["id"], "title": "Pack list", "action": "edited"}


def test_the_list_checkbox_reopens_a_done_todo():
    """A to-do's box in the list ticks it without opening the note."""
    phone = known_phone()
    box = [e for e in phone.elements() if e.rid == J.ROW_CHECK_RID][-1]  # Old receipt's, done
    phone.tap(*box.center)
    assert not note(phone, "Old receipt")["todo_completed"] and jop(phone)["screen"] == "notes"
    assert [e["action"] for e in jop(phone)["edits"]] == ["reopened"]


def test_move_picks_a_notebook_and_cancel_changes_nothing():
    """The notebook chip opens the notebooks; Cancel keeps the note; a pick moves it once."""
    phone = known_phone()
    press(phone, text="Savings")
    press(phone, rid=J.NOTEBOOK_RID)
    assert jop(phone)["screen"] == "move"
    press(phone, text="Cancel")
    assert note(phone, "Savings")["folder"] == "Money" and jop(phone)["edits"] == []
    press(phone, rid=J.NOTEBOOK_RID)
    press(phone, text="Trips")
    assert note(phone, "Savings")["folder"] == "Trips" and jop(phone)["screen"] == "note"
    assert [e["action"] for e in jop(phone)["edits"]] == ["moved"]


def test_delete_asks_and_returns_to_the_list_and_convert_flips_the_kind():
    """More options: Convert to to-do; Delete asks (Cancel keeps it), OK deletes and shows the list."""
    phone = known_phone()
    press(phone, text="Savings")
    press(phone, desc="More options")
    press(phone, text="Convert to to-do")
    assert note(phone, "Savings")["is_todo"]
    press(phone, desc="More options")
    press(phone, text="Delete")
    press(phone, text="Cancel")
    assert jop(phone)["screen"] == "note"
    press(phone, desc="More options")
    press(phone, text="Delete")
    press(phone, text="OK")
    state = jop(phone)
    assert state["screen"] == "notes" and "Savings" not in titles(phone)
    assert [e["action"] for e in state["edits"]] == ["converted", "deleted"]


def test_edit_saves_on_back_and_an_empty_new_note_is_dropped():
    """Joplin saves as one types: BACK from the editor keeps the change; an untouched new note leaves nothing."""
    phone = known_phone()
    press(phone, text="Savings")
    press(phone, desc="Edit")
    press(phone, rid=J.BODY_INPUT_RID)
    phone.type_text(" Monthly.")
    phone.key("back")  # the keyboard
    phone.key("back")  # the editor, saved
    assert note(phone, "Savings")["body"] == "Put 200 aside. Monthly." and jop(phone)["screen"] == "note"
    phone.key("back")
    press(phone, desc=J.FAB_DESC)
    press(phone, text="New note")
    phone.key("back")
    phone.key("back")
    assert jop(phone)["screen"] == "notes" and len(jop(phone)["notes"]) == 5
    assert [e["action"] for e in jop(phone)["edits"]] == ["edited"]


def test_search_filters_titles_and_bodies_as_one_types():
    """The query matches titles and bodies, case ignored; a result opens its note; BACK walks out."""
    phone = known_phone()
    press(phone, desc=J.SEARCH_DESC)
    phone.type_text("RENT")
    assert titles(phone) == ["Pay rent"] and jop(phone)["query"] == "RENT"
    phone.type_text("x")
    assert titles(phone) == [] and "No results" in [e.text for e in phone.elements()]
    for _ in "RENTx":
        phone.key("delete")
    phone.type_text("200")
    press(phone, text="Savings")
    assert jop(phone)["open"] == note(phone, "Savings")["id"] == jop(phone)["last_opened"]
    screens = []
    for _ in range(3):
        phone.key("back")
        screens.append(jop(phone)["screen"])
    assert screens == ["search", "notes", None]


def test_xml_parses_and_lists_what_the_screen_shows():
    """The uiautomator dump of the note screen parses to the phone's own elements."""
    phone = known_phone()
    press(phone, text="Pack list")
    parsed = parse_uiautomator_xml(phone.xml())
    assert [(e.cls, e.bounds, e.label, e.rid) for e in parsed] == [(e.cls, e.bounds, e.label, e.rid)
                                                                   for e in phone.elements()]
    assert {"Bring:", "tent", "Trips"} <= {e.label for e in parsed}


def test_a_long_list_scrolls_to_its_last_note():
    """Sixty notes: the last is off screen, a few swipes bring it up."""
    notes = [{"title": f"Note {k:02d}", "folder": "Bulk"} for k in range(60)]
    phone = make_phone(initial={J.PACKAGE: {"clear": True, "notes": notes}})
    phone.launch("Joplin")
    assert "Note 00" not in titles(phone) and titles(phone)[0] == "Note 59"
    for _ in range(12):
        phone.swipe(540, 1700, 540, 500)
    assert "Note 00" in titles(phone)


def test_the_phone_starts_with_seeded_notebooks_and_notes():
    """The same seed gives the same notes, other seeds others; every note's notebook is listed."""
    def state(seed: int) -> dict:
        return make_phone(seed).state()["apps"][J.PACKAGE]

    assert state(3) == state(3)
    assert len({repr(state(s)["notes"]) for s in range(6)}) == 6
    for s in range(4):
        folders, notes = seeded_notes(s)
        assert 4 <= len(folders) <= 7 and {n["folder"] for n in notes} == set(folders)
        assert all(n["is_todo"] for n in notes if n["folder"] == "Tasks" or n["todo_completed"])


def test_the_app_leaves_the_episode_rng_alone():
    """Using Joplin draws nothing from the episode's generator."""
    mine, plain = known_phone(), make_phone(initial={J.PACKAGE: {"clear": True, "notes": KNOWN}})
    press(mine, text="Book ferry")
    press(mine, desc="Done")
    mine.state()
    assert mine.rng.bit_generator.state == plain.rng.bit_generator.state


@pytest.mark.parametrize("initial, field", [({"notebooks": []}, "notebooks"),
                                            ({"notes": [{"title": "x"}]}, "folder"),
                                            ({"notes": [{"title": " ", "folder": "A"}]}, "title"),
                                            ({"notes": [{"title": "x", "folder": ""}]}, "folder"),
                                            ({"notes": [{"title": "x", "folder": "A", "todo_completed": True}]},
                                             "todo_completed"),
                                            ({"notes": [{"title": "x", "folder": "A", "tags": ["a"]}]}, "tags"),
                                            ({"folders": [""]}, "folders")])
def test_apply_refuses_bad_initial_conditions_naming_the_field(initial: dict, field: str):
    """Unknown keys, a note without a notebook, a blank title, a done note that is no to-do, a blank notebook."""
    with pytest.raises(ConfigError, match=field):
        make_phone(initial={J.PACKAGE: initial})


def test_apply_sets_notes_and_is_not_a_change():
    """Absent seeded notes go, added notes and notebooks are listed, and nothing counts as an edit."""
    _, seeded = seeded_notes(2)
    phone = make_phone(2, {J.PACKAGE: {"absent": [seeded[0]["title"]], "folders": ["Empty"], "notes": KNOWN[:1]}})
    state = jop(phone)
    notes = [n["title"] for n in state["notes"] if not n["is_todo"] or n["todo_completed"]]  # below the open to-dos
    assert seeded[0]["title"] not in [n["title"] for n in state["notes"]] and notes[0] == "Pack list"
    assert {"Empty", "Trips"} <= set(state["folders"]) and state["edits"] == []
