"""Joplin's world and typed seam: the notebooks and notes a fresh phone holds (`seeded_notes`, drawn from `POOL`), a
note's markdown read (`checklist`), the state tasks read (`JoplinState`) and the initial conditions they set
(`JoplinInitial`); `joplin` re-exports them beside the app.

A note is {"title", "body", "folder", "is_todo", "todo_completed"}; its body is markdown, where a line "- [ ] item" is
an open checklist item and "- [x] item" a ticked one (Joplin's viewer draws both as checkboxes). The pool's notebooks
are the twelve AndroidWorld fills Joplin from; the notes in them are our own.
"""  # noqa: D205

from __future__ import annotations

import re
from typing import Any, Literal, Self

import numpy as np
from pydantic import ValidationInfo, field_validator, model_validator
from typing_extensions import TypedDict

from android_gym.config_model import ConfigModel, FieldError
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import closed, refuse_blank

POOL: dict[str, tuple[tuple[str, str], ...]] = {
    "Recipes": (
        ("Lentil Soup", "Ingredients:\n- 1 cup red lentils\n- 1 onion\n- 2 carrots\n- 4 cups stock\n\n"
                        "Simmer everything for 25 minutes, then blend half of it."),
        ("Lemon Bars", "Ingredients:\n- 1 cup flour\n- 1/2 cup butter\n- 2 lemons\n- 3 eggs\n\n"
                       "Bake the base for 15 minutes, pour the lemon filling over and bake 20 more."),
        ("Green Curry", "Ingredients:\n- 2 tablespoons curry paste\n- 1 can coconut milk\n- 1 zucchini\n\n"
                        "Fry the paste, add the milk and the vegetables, cook 10 minutes."),
    ),
    "Tasks": (
        ("Renew library card", "Bring a proof of address to the front desk."),
        ("Fix the bike brakes", "- [ ] Buy brake pads\n- [ ] Adjust the cable\n- [ ] Test ride"),
        ("Sort the photo backup", "Move last year's phone photos to the external drive."),
    ),
    "Meeting Notes": (
        ("Design Review", "Notes:\n- Walked through the new onboarding screens\n- Agreed on the colour palette\n"
                          "- 6 people joined"),
        ("Vendor Call", "Notes:\n- Discussed delivery delays\n- New contract draft due Friday\n"
                        "- 3 people joined"),
        ("Retro Sprint 14", "Went well: fewer bugs. To improve: shorter standups.\n- 8 people joined"),
    ),
    "Personal": (
        ("Birthday Gift Ideas", "- [ ] Pottery class voucher\n- [ ] Hiking boots\n- [ ] Board game"),
        ("Books to Read", "- [x] The Overstory\n- [ ] Piranesi\n- [ ] Klara and the Sun"),
        ("Weekend Plans", "Saturday: farmers market, then the lake. Sunday: brunch with Ana."),
    ),
    "Work": (
        ("Quarterly Goals", "1. Ship the billing revamp\n2. Hire two engineers\n3. Cut support backlog by 30%"),
        ("Onboarding Checklist", "- [x] Laptop set up\n- [ ] Meet the team\n- [ ] Read the handbook"),
        ("Release Notes Draft", "Version 4.2 brings offline mode and a faster search."),
    ),
    "School": (
        ("Chemistry Lab Report", "Titration of acetic acid: average volume 12.4 ml."),
        ("Essay Outline", "Intro, three arguments on urban gardens, counter-argument, conclusion."),
        ("Exam Timetable", "Maths on the 14th, history on the 16th, biology on the 19th."),
    ),
    "Home": (
        ("Paint Colours", "Living room: sage green. Hallway: warm white. Kitchen: pale blue."),
        ("Garden Chores", "- [ ] Prune the roses\n- [ ] Mow the lawn\n- [x] Clean the gutters"),
        ("Wi-Fi Setup", "Network: Maple House\nRouter is in the hall cupboard."),
    ),
    "Projects": (
        ("Bird Feeder Build", "- [ ] Cut the cedar boards\n- [ ] Drill drainage holes\n- [ ] Mount on the post"),
        ("Podcast Launch", "Record three episodes before launch. Cover art by Leo."),
        ("Website Redesign", "New landing page, dark mode, faster image loading."),
    ),
    "Ideas": (
        ("App Idea: Plant Tracker", "Reminds you when to water each plant, with photos of growth."),
        ("Short Story Seeds", "A lighthouse keeper who collects lost letters."),
        ("Gift Shop Concept", "Local crafts only, a workshop space in the back."),
    ),
    "Health": (
        ("Running Plan", "Mon 5 km easy, Wed intervals, Sat 10 km long run."),
        ("Allergy Notes", "Avoid pollen on dry windy days; keep antihistamines in the bag."),
        ("Stretching Routine", "- [ ] Hamstrings\n- [ ] Hip flexors\n- [ ] Shoulders"),
    ),
    "Travel": (
        ("Lisbon Trip", "Tram 28, Belem tower, pasteis de nata at the old bakery."),
        ("Packing for Iceland", "- [ ] Rain jacket\n- [ ] Wool socks\n- [ ] Power bank"),
        ("Train Tickets", "Booked the 8:15 to Edinburgh, coach C, seat 42."),
    ),
    "Finance": (
        ("Monthly Budget", "Rent 1200, groceries 400, transport 90, savings 300."),
        ("Tax Documents", "- [ ] Payslips\n- [ ] Bank statements\n- [ ] Donation receipts"),
        ("Savings Goal", "Emergency fund: 6 months of expenses by December."),
    ),
}
"""Notebook -> (title, body) of the notes drawn into it."""
FOLDERS = tuple(POOL)
CHECK_ITEM = re.compile(r"^\s*[-*] \[( |x|X)\] (.*)$")


def checklist(body: str) -> list[tuple[str, bool]]:
    r"""The checklist items of a markdown body, in order: (text, ticked).

    >>> checklist("Shopping:\n- [ ] milk\n- [x] eggs\nnot an item")
    [('milk', False), ('eggs', True)]
    """
    return [(m.group(2), m.group(1) != " ") for m in map(CHECK_ITEM.match, body.split("\n")) if m]


def seeded_notes(seed: int) -> tuple[list[str], list[dict[str, Any]]]:
    """Episode `seed`'s notebooks (4-7 of `FOLDERS`, in the order drawn) and their notes (2-3 each, oldest first); a
    note of "Tasks" is a to-do, others are one a fifth of the time; a to-do is done a third of the time."""  # noqa: D205, D209
    rng = np.random.default_rng(stable_seed("joplin", seed))
    folders = [FOLDERS[int(i)] for i in rng.permutation(len(FOLDERS))[:int(rng.integers(4, 8))]]
    notes = []
    for folder in folders:
        pool = POOL[folder]
        for i in rng.permutation(len(pool))[:int(rng.integers(2, 4))]:
            title, body = pool[int(i)]
            todo = folder == "Tasks" or rng.random() < 0.2
            notes.append({"title": title, "body": body, "folder": folder, "is_todo": bool(todo),
                          "todo_completed": bool(todo and rng.random() < 1 / 3)})
    order = rng.permutation(len(notes))
    return folders, [notes[int(i)] for i in order]


# -- the typed seam: the state tasks read, the initial conditions they set --------------------------------------------
Page = Literal["notes", "sidebar", "search", "note", "edit", "move", "delete"]
EditAction = Literal["created", "edited", "moved", "completed", "reopened", "converted", "deleted"]


@closed
class NoteState(TypedDict):
    """A note: its id (fixed for the episode), title, markdown body, notebook, and whether it is a to-do and done."""

    id: int
    title: str
    body: str
    folder: str
    is_todo: bool
    todo_completed: bool


@closed
class EditState(TypedDict):
    """A change of the episode: the note's id, its title after the change, and what was done."""

    id: int
    title: str
    action: EditAction


@closed
class JoplinState(TypedDict):
    """What Joplin reports (`JoplinApp.state`).

    Attributes:
        folders: the notebooks, as the sidebar lists them (by name).
        notes: every note, in "All notes" order (open to-dos first, then the most recently updated).
        screen: the front Joplin screen's name, None when the app has none on the stack.
        folder: the notebook the notes list shows (None: "All notes").
        open: the id of the note whose screen is in front (or under its menu, dialog or editor), or None.
        query: the search text while the search screen is in front, else None.
        last_opened: the id of the last note opened this episode, or None.
        edits: the episode's changes, in order ("edited": title or body saved changed; "converted": note <-> to-do;
            "completed"/"reopened": the to-do's checkbox).
    """

    folders: list[str]
    notes: list[NoteState]
    screen: Page | None
    folder: str | None
    open: int | None
    query: str | None
    last_opened: int | None
    edits: list[EditState]


class NoteSpec(ConfigModel):
    """A note a task puts on the phone (its notebook is created when missing).

    Attributes:
        title: its title (not blank).
        body: its markdown body.
        folder: its notebook (not blank).
        is_todo: whether it is a to-do.
        todo_completed: whether the to-do is done (only a to-do may be).
    """

    title: str
    body: str = ""
    folder: str
    is_todo: bool = False
    todo_completed: bool = False

    @field_validator("title", "folder")
    @classmethod
    def _not_blank(cls, value: str, info: ValidationInfo) -> str:
        return refuse_blank(str(info.field_name), value)

    @model_validator(mode="after")
    def _done_todo(self) -> Self:
        if self.todo_completed and not self.is_todo:
            raise FieldError("todo_completed", "False for a note that is not a to-do (is_todo False)", True)
        return self


class JoplinInitial(ConfigModel):
    """The initial conditions a Joplin task may set, applied in this order; they are the set-up, not changes.

    Attributes:
        clear: whether the seeded notebooks and notes go (AndroidWorld empties Joplin's database first).
        absent: titles of seeded notes removed.
        folders: notebooks added (empty unless notes go in them).
        notes: notes added, newest last (they are listed above the seeded ones).
    """

    clear: bool = False
    absent: tuple[str, ...] = ()
    folders: tuple[str, ...] = ()
    notes: tuple[NoteSpec, ...] = ()

    @field_validator("folders")
    @classmethod
    def _named(cls, folders: tuple[str, ...]) -> tuple[str, ...]:
        for name in folders:
            if not name.strip():
                raise FieldError("folders", "notebook names that are not blank", name)
        return folders
