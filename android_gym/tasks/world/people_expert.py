"""The people the Contacts and Phone templates put on the phone, and the checks and expert steps they share
(`people_tasks`, `phone_tasks`, and the answer and infeasible tasks about contacts).

The cast: task names come from their own name lists (`FIRST`, `LAST`, `NAMES`) and task numbers from their own area
codes (`AREAS`, `task_number`, `numbers`), so they never collide with the seeded contacts or call log; `cast` gives
the target of a name and its near misses (the same first name, the same last name). The checks read the apps' state
only: the calls placed (`only_calls_to`) and what changed in Contacts (`contacts_state`, `one_changed`). Each step
function reads the UI elements and the sim's state and returns the next action towards a sub-goal: fill a field
(`fill`, `edit_fields`), reach a contact's card (`to_card`) or a Phone tab (`to_phone_tab`), find the newest missed
call's row (`first_missed`).
"""  # noqa: D205, D209

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import contacts, dialer
from android_gym.sim.apps.contacts import digits
from android_gym.sim.apps.people import is_full_name
from android_gym.sim.keyboard import KEYBOARD_TOP
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.expert import back, find, tap, wait
from android_gym.tasks.world.base import Elements, State
from android_gym.ui import UIElement

FIRST = ("Ana", "Bruno", "Celia", "Dmitri", "Esther", "Felix", "Gina", "Hugo", "Ines", "Jonas", "Keira", "Leon",
         "Mira", "Nico", "Oscar", "Paula", "Rosa", "Stefan", "Tara", "Vera")
LAST = ("Alvarez", "Baker", "Costa", "Dubois", "Ellis", "Fox", "Gomez", "Hughes", "Jensen", "Klein", "Lopez",
        "Moreau", "Novak", "Ortiz", "Price", "Reyes")
AREAS = ("650", "303", "718", "404", "305", "202", "503", "602")
"""Area codes of task numbers (the seeded contacts and unknown callers use others)."""
DOMAINS = ("gmail.com", "outlook.com", "proton.me", "yahoo.com")
NAMES = [f"{f} {last}" for f in FIRST for last in LAST]


def task_number(rng: np.random.Generator) -> str:
    """A task number drawn with `rng`: one of `AREAS`, then 555 and four digits ("(650) 555-0123")."""
    return f"({AREAS[int(rng.integers(len(AREAS)))]}) 555-{int(rng.integers(100, 1000)):04d}"


def numbers(kind: str, name: str, count: int = 5) -> list[str]:
    """`count` distinct task numbers fixed by (`kind`, `name`)."""
    return list(_numbers(kind, name, count))


@functools.lru_cache(maxsize=65536)
def _numbers(kind: str, name: str, count: int) -> tuple[str, ...]:
    # memoised: goals and checks ask for the same few hundred names again and again (splitting World's 24k instances
    # by goal text drew them 27k times, a second of every process's start)
    rng = np.random.default_rng(stable_seed("people_tasks", kind, name))
    out: list[str] = []
    while len(out) < count:
        n = task_number(rng)
        if n not in out:
            out.append(n)
    return tuple(out)


def cast(kind: str, name: str) -> list[dict[str, Any]]:
    """The people a task about `name` puts on the phone: the target, then someone with the same first name and
    someone with the same last name, with the first three of `numbers(kind, name)`; a name that is not a first and
    a last name (`is_full_name`: "Tom", "Mom", "Dr. Alvarez") has no near misses, only the target.

    >>> [p["name"] for p in cast("x", "Ana Costa")][0], [p["email"] for p in cast("x", "Dr. Alvarez")]
    ('Ana Costa', ['dr.alvarez@example.com'])
    """  # noqa: D205
    return [dict(person) for person in _cast(kind, name)]


@functools.lru_cache(maxsize=65536)
def _cast(kind: str, name: str) -> tuple[dict[str, Any], ...]:
    """`cast`, memoised (callers get copies of its dicts)."""
    if not is_full_name(name):
        local = ".".join(w.strip(".") for w in name.lower().split())
        return ({"name": name, "phone": numbers(kind, name)[0], "email": f"{local}@example.com"},)
    rng = np.random.default_rng(stable_seed("people_tasks:names", kind, name))
    first, last = name.split()
    other_last = [n for n in LAST if n != last][int(rng.integers(len(LAST) - 1))]
    other_first = [n for n in FIRST if n != first][int(rng.integers(len(FIRST) - 1))]
    return tuple({"name": who, "phone": num, "email": f"{who.lower().replace(' ', '.')}@example.com"}
                 for who, num in zip((name, f"{first} {other_last}", f"{other_first} {last}"), numbers(kind, name),
                                     strict=False))


def contacts_state(state: State) -> contacts.ContactsState:
    """Contacts' state in `state`."""
    return state_of(state, contacts.ContactsState)


def only_calls_to(state: State, number: str) -> bool:
    """At least one call placed this episode, and every one to `number`."""
    calls = state_of(state, dialer.DialerState)["calls"]
    return bool(calls) and all(digits(c["number"]) == digits(number) for c in calls)


def one_changed(state: State, name: str) -> contacts.ContactEntry | None:
    """The contact `name` when it is the only change in Contacts (nothing added or removed), else None."""
    c = contacts_state(state)
    if c["added"] or c["removed"] or c["changed"] != [name]:
        return None
    return next((p for p in c["contacts"] if p["name"] == name), None)


# -- expert steps ------------------------------------------------------------------------------------------------------
def visible(e: UIElement, state: State) -> bool:
    """Whether a tap on `e` reaches it (the soft keyboard covers the bottom of the screen while it is up)."""
    return not state.get("keyboard") or e.center[1] < KEYBOARD_TOP


def fill(elements: Elements, state: State, rid: str, text: str) -> Action:
    """One step towards field `rid` holding `text` (which it does not yet): focus it, delete wrong text, type."""
    screen = state["screen"]
    current = screen["fields"].get(rid, "")
    if screen["focus"] != rid:
        field = find(elements, rid=rid)
        return tap(field) if field is not None and visible(field, state) else back()
    if text.startswith(current):
        return Action.type(text[len(current):])
    delete = find(elements, desc="Delete")  # the keyboard's backspace
    return tap(delete) if delete is not None else back()


def edit_fields(elements: Elements, state: State, want: Mapping[str, str]) -> Action:
    """In the Contacts editor: fill the first field that differs from `want` (rid -> text), then Save."""
    fields = state["screen"]["fields"]
    for rid, text in want.items():
        if fields.get(rid, "") != text:
            return fill(elements, state, rid, text)
    save = find(elements, rid=contacts.SAVE_RID)
    return tap(save) if save is not None else wait()


def to_card(name: str, elements: Elements, state: State) -> Action | None:
    """The next step towards the card of contact `name` in Contacts (searched for by name); None once it is there."""
    step = into_app("Contacts", contacts.PACKAGE, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] == "details" and screen["args"]["name"] == name:
        return None
    if screen["name"] == "editor" and screen["args"]["discard"]:
        return tap(find(elements, text="Discard")) if find(elements, text="Discard") else back()
    if screen["name"] != "list":
        return back()
    row = find(elements, rid=contacts.ROW_RID, text=name)
    if row is not None and visible(row, state):
        return tap(row)
    if screen["fields"].get(contacts.SEARCH_RID, "") == name:
        return back()  # the row is under the keyboard: close it
    return fill(elements, state, contacts.SEARCH_RID, name)


def to_phone_tab(tab: str, elements: Elements, state: State) -> Action | None:
    """The next step towards Phone's `tab` (scrolled to the top); None once it is there."""
    step = into_app("Phone", dialer.PACKAGE, elements, state)
    if step is not None:
        return step
    screen = state["screen"]["name"]
    if screen == tab.lower():
        return swipe_down() if state["screen"]["scroll"] > 0 else None
    if screen in ("favourites", "recents", "contacts"):
        button = find(elements, text=tab, clickable=True)
        return tap(button) if button is not None else wait()
    return back()


def first_missed(elements: Elements, kinds: tuple[str, ...] = ("missed",)) -> UIElement | None:
    """The newest row in Recents of a call of one of `kinds` (rows are newest first): by default a missed call."""
    labels = tuple(f"{dialer.KIND_LABELS[k]}," for k in kinds)
    return next((e for e in elements if e.rid == dialer.ROW_RID and e.desc.startswith(labels)), None)
