"""World-suite tasks over Contacts and Phone: call, dial, add, edit, delete, star and look up contacts, call back and
save missed callers.

The seeded contacts differ per episode, so every task puts the people it names on the phone itself (`initial`): the
target with a name, number and e-mail fixed by the parameters, and near misses (the same first name, the same last
name) where picking the wrong person is the likely mistake. Task names come from their own name lists and task numbers
from their own area codes, so they never collide with the seeded contacts or call log.

Checks read the apps' state only: the calls placed (Phone's "calls"), and what changed in Contacts since the task's
set-up ("added", "removed", "changed"), so an extra or missing edit fails. Splits hash the target's name (or the
number, or the variant) with `split_of`.

Step budgets are about 1.5 times the expert's typical length without perturbations, plus 3 (measured over 80 seeds
under the "hard" perturbations, the longest expert run fits every budget). Everyday goals (issue 49) give values as
optional parameters ("number", "new", "email", "caller"); a one-word name ("Tom") has no near misses, and the seeded
contacts of that first name leave the phone (`people.namesakes`).
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import contacts, dialer
from android_gym.sim.apps.contacts import digits, same_name, same_person, split_name
from android_gym.sim.apps.people import is_full_name, namesakes
from android_gym.sim.keyboard import KEYBOARD_TOP
from android_gym.tasks.apps import into_app, swipe_down
from android_gym.tasks.base import TaskTemplate, split_of
from android_gym.tasks.expert import app_state, back, find, obstacle, tap, wait
from android_gym.ui import UIElement

State = Mapping[str, Any]
Elements = Sequence[UIElement]
Params = Mapping[str, Any]

FIRST = ("Ana", "Bruno", "Celia", "Dmitri", "Esther", "Felix", "Gina", "Hugo", "Ines", "Jonas", "Keira", "Leon",
         "Mira", "Nico", "Oscar", "Paula", "Rosa", "Stefan", "Tara", "Vera")
LAST = ("Alvarez", "Baker", "Costa", "Dubois", "Ellis", "Fox", "Gomez", "Hughes", "Jensen", "Klein", "Lopez",
        "Moreau", "Novak", "Ortiz", "Price", "Reyes")
AREAS = ("650", "303", "718", "404", "305", "202", "503", "602")
"""Area codes of task numbers (the seeded contacts and unknown callers use others)."""
DOMAINS = ("gmail.com", "outlook.com", "proton.me", "yahoo.com")
NAMES = [f"{f} {last}" for f in FIRST for last in LAST]


def _number(rng: np.random.Generator) -> str:
    return f"({AREAS[int(rng.integers(len(AREAS)))]}) 555-{int(rng.integers(100, 1000)):04d}"


def numbers(kind: str, name: str, count: int = 5) -> list[str]:
    """`count` distinct task numbers fixed by (`kind`, `name`)."""
    rng = np.random.default_rng(stable_seed("people_tasks", kind, name))
    out: list[str] = []
    while len(out) < count:
        n = _number(rng)
        if n not in out:
            out.append(n)
    return out


def cast(kind: str, name: str) -> list[dict[str, Any]]:
    """The people a task about `name` puts on the phone: the target, then someone with the same first name and
    someone with the same last name, with the first three of `numbers(kind, name)`; a name that is not a first and
    a last name (`is_full_name`: "Tom", "Mom", "Dr. Alvarez") has no near misses, only the target.

    >>> [p["name"] for p in cast("x", "Ana Costa")][0], [p["email"] for p in cast("x", "Dr. Alvarez")]
    ('Ana Costa', ['dr.alvarez@example.com'])
    """  # noqa: D205
    if not is_full_name(name):
        local = ".".join(w.strip(".") for w in name.lower().split())
        return [{"name": name, "phone": numbers(kind, name)[0], "email": f"{local}@example.com"}]
    rng = np.random.default_rng(stable_seed("people_tasks:names", kind, name))
    first, last = name.split()
    other_last = [n for n in LAST if n != last][int(rng.integers(len(LAST) - 1))]
    other_first = [n for n in FIRST if n != first][int(rng.integers(len(FIRST) - 1))]
    return [{"name": who, "phone": num, "email": f"{who.lower().replace(' ', '.')}@example.com"}
            for who, num in zip((name, f"{first} {other_last}", f"{other_first} {last}"), numbers(kind, name),
                                strict=False)]


def _contacts(state: State) -> dict[str, Any]:
    return app_state(state, contacts.PACKAGE)


def _only_calls_to(state: State, number: str) -> bool:
    """At least one call placed this episode, and every one to `number`."""
    calls = app_state(state, dialer.PACKAGE).get("calls", [])
    return bool(calls) and all(digits(c["number"]) == digits(number) for c in calls)


def _one_changed(state: State, name: str) -> dict[str, Any] | None:
    """The contact `name` when it is the only change in Contacts (nothing added or removed), else None."""
    c = _contacts(state)
    if c.get("added") or c.get("removed") or c.get("changed") != [name]:
        return None
    return next((p for p in c["contacts"] if p["name"] == name), None)


# -- expert steps ------------------------------------------------------------------------------------------------------
def _visible(e: UIElement, state: State) -> bool:
    """Whether a tap on `e` reaches it (the soft keyboard covers the bottom of the screen while it is up)."""
    return not state.get("keyboard") or e.center[1] < KEYBOARD_TOP


def fill(elements: Elements, state: State, rid: str, text: str) -> Action:
    """One step towards field `rid` holding `text` (which it does not yet): focus it, delete wrong text, type."""
    screen = state["screen"]
    current = screen["fields"].get(rid, "")
    if screen["focus"] != rid:
        field = find(elements, rid=rid)
        return tap(field) if field is not None and _visible(field, state) else back()
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
    if row is not None and _visible(row, state):
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


# -- templates ---------------------------------------------------------------------------------------------------------
class PersonTemplate(TaskTemplate):
    """A task about one person of `NAMES`: split by name, phrased by a hash of it, with the `cast` on the phone."""

    suite = "world"
    phrasings: ClassVar[tuple[str, ...]]
    target_present: ClassVar[bool] = True
    """Whether the target is among the contacts at the start (False for tasks that add it)."""

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every name of the split, with a phrasing chosen by the name."""
        return [{"name": n, "phrasing": stable_seed(self.name, n) % len(self.phrasings)} for n in NAMES
                if split_of(n) == split]

    def people(self, params: Params) -> list[dict[str, Any]]:
        """The target and its two near misses (`cast`); the optional parameter "number" is the target's number."""
        out = cast(self.name, params["name"])
        out[0] = {**out[0], "phone": str(params["number"])} if "number" in params else out[0]
        return out

    def facts(self, params: Params) -> dict[str, str]:
        """What the goal says: the name, and the template's own details (numbers, e-mail)."""
        target = self.people(params)[0]
        return {"name": target["name"], "number": target["phone"], "email": target["email"]}

    def goal(self, params: Params) -> str:
        """The instruction, in the phrasing of the parameters."""
        return self.phrasings[params["phrasing"]].format(**self.facts(params))

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The cast in Contacts (without the target when the task adds it); the same-last-name one is starred. A
        target with one name that seeds draw ("Tom") takes the seeded contacts of that first name off (`namesakes`)."""  # noqa: D205, D209
        target, *near = self.people(params)
        add = [*([target] if self.target_present else []), *near[:-1], *[{**p, "starred": True} for p in near[-1:]]]
        gone = namesakes(params["name"])
        return {contacts.PACKAGE: {"contacts": {"add": add, **({"remove": gone} if gone else {})}}}


class CallContactTemplate(PersonTemplate):
    """Call {name}: a call placed to their number and to no one else (from their card in Contacts)."""

    name, max_steps = "call_contact", 11
    apps = (contacts.PACKAGE, dialer.PACKAGE,)
    phrasings = ("Call {name}", "Give {name} a call", "Phone {name}", "Ring {name}")

    def check(self, params: Params, state: State) -> bool:
        """Every call placed this episode went to the target's number."""
        return _only_calls_to(state, self.facts(params)["number"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the contact, open the card, tap Call."""
        step = obstacle(elements, state) or to_card(params["name"], elements, state)
        if step is not None:
            return step
        call = find(elements, rid=f"{contacts.PACKAGE}:id/verb_call")
        return tap(call) if call is not None else wait()


class ContactInfoTemplate(PersonTemplate):
    """Show {name}'s contact details (their card in Contacts in front; `contact_number_answer` asks for the number)."""

    name, max_steps = "contact_info", 9
    apps = (contacts.PACKAGE,)
    phrasings = ("Open {name}'s contact card", "Show me {name}'s email address",
                 "Look up {name}'s contact details", "Find {name}'s number in my contacts")

    def check(self, params: Params, state: State) -> bool:
        """Contacts in front on the target's card (not a near miss's)."""
        c = _contacts(state)
        return state.get("foreground") == contacts.PACKAGE and c.get("shown") == params["name"]

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Search the contact and open the card."""
        return obstacle(elements, state) or to_card(params["name"], elements, state) or wait()


class FavouriteContactTemplate(PersonTemplate):
    """Add {name} to favourites: their star on, nothing else changed."""

    name, max_steps = "favourite_contact", 11
    apps = (contacts.PACKAGE,)
    phrasings = ("Add {name} to my favourites", "Star {name} in my contacts", "Make {name} a favourite contact")

    def check(self, params: Params, state: State) -> bool:
        """The target is starred and is the only contact that changed, with its number and e-mail intact."""
        target = self.people(params)[0]
        now = _one_changed(state, params["name"])
        return now is not None and now == {**target, "starred": True}

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the card and tap the star."""
        step = obstacle(elements, state) or to_card(params["name"], elements, state)
        if step is not None:
            return step
        star = find(elements, rid=contacts.STAR_RID)
        return tap(star) if star is not None and not star.checked else wait()


class DeleteContactTemplate(PersonTemplate):
    """Delete {name}: that contact gone, every other one as it was."""

    name, max_steps = "delete_contact", 15
    apps = (contacts.PACKAGE,)
    phrasings = ("Delete {name} from my contacts", "Remove the contact {name}",
                 "I don't need {name}'s contact any more, delete it")

    def check(self, params: Params, state: State) -> bool:
        """The target was removed and nothing else was added, removed or changed."""
        c = _contacts(state)
        return c.get("removed") == [params["name"]] and not c.get("added") and not c.get("changed")

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the card, More options > Delete, confirm Delete."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        screen = state["screen"]
        if state["foreground"] == contacts.PACKAGE and screen["args"].get("name") == params["name"]:
            if screen["name"] == "menu":
                return tap(find(elements, text="Delete")) if find(elements, text="Delete") else wait()
            if screen["name"] == "confirm":
                button = find(elements, text="Delete", rid="android:id/button1")
                return tap(button) if button is not None else wait()
        step = to_card(params["name"], elements, state)
        if step is not None:
            return step
        more = find(elements, desc="More options")
        return tap(more) if more is not None else wait()


class _EditTemplate(PersonTemplate):
    """Change one detail of {name}'s contact in the editor (subclasses name the field and the new value)."""

    field_rid: ClassVar[str]

    def new_value(self, params: Params) -> str:
        """The detail as the goal asks for it."""
        raise NotImplementedError

    def matches(self, params: Params, contact: Mapping[str, Any]) -> bool:
        """Whether `contact` holds the new detail and every other detail as it was."""
        raise NotImplementedError

    def check(self, params: Params, state: State) -> bool:
        """The target is the only contact that changed, and it changed as asked."""
        now = _one_changed(state, params["name"])
        return now is not None and self.matches(params, now)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the card, Edit, replace the field's text, Save."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        screen = state["screen"]
        if (state["foreground"] == contacts.PACKAGE and screen["name"] == "editor"
                and screen["args"]["name"] == params["name"] and not screen["args"]["discard"]):
            return edit_fields(elements, state, {self.field_rid: self.new_value(params)})
        step = to_card(params["name"], elements, state)
        if step is not None:
            return step
        edit = find(elements, desc="Edit contact")
        return tap(edit) if edit is not None else wait()


class EditNumberTemplate(_EditTemplate):
    """Change {name}'s number to {new}: the new number saved, the e-mail and every other contact untouched."""

    name, max_steps = "edit_contact_number", 20
    apps = (contacts.PACKAGE,)
    field_rid = contacts.PHONE_RID
    phrasings = ("Change {name}'s phone number to {new}", "Update the phone number of {name} to {new}",
                 "{name} has a new number, {new}. Update the contact.")

    def people(self, params: Params) -> list[dict[str, Any]]:
        """The cast; with the optional parameter "new", the old number is it with other last three digits."""
        out, new = super().people(params), str(params.get("new", ""))
        if new:
            out[0] = {**out[0], "phone": new[:-3] + ("000" if new[-3:] != "000" else "111")}
        return out

    def new_value(self, params: Params) -> str:
        """The old number with its last three digits redrawn (so editing it means deleting a few), or "new"."""
        if "new" in params:
            return str(params["new"])
        old = self.people(params)[0]["phone"]
        rng = np.random.default_rng(stable_seed("edit_contact_number:new", params["name"]))
        tail = [n for n in range(100, 1000) if f"{n:03d}" != old[-3:]]
        return f"{old[:-3]}{tail[int(rng.integers(len(tail)))]:03d}"

    def facts(self, params: Params) -> dict[str, str]:
        """The name and the new number."""
        return {"name": params["name"], "new": self.new_value(params)}

    def matches(self, params: Params, contact: Mapping[str, Any]) -> bool:
        """The new number (digit by digit), the old e-mail, not starred."""
        target = self.people(params)[0]
        return (digits(contact["phone"]) == digits(self.new_value(params)) and contact["email"] == target["email"]
                and not contact["starred"])


class AddEmailTemplate(_EditTemplate):
    """Add the e-mail {email} to {name}'s contact (which has none): that address saved, the number untouched."""

    name, max_steps = "add_contact_email", 16
    apps = (contacts.PACKAGE,)
    field_rid = contacts.EMAIL_RID
    phrasings = ("Add the email address {email} to {name}'s contact", "{name}'s email is {email}, save it",
                 "Save {email} as the email of my contact {name}")

    def people(self, params: Params) -> list[dict[str, Any]]:
        """The cast without e-mails (so the near misses' cards look like the target's)."""
        return [{**p, "email": ""} for p in cast(self.name, params["name"])]

    def new_value(self, params: Params) -> str:
        """A personal address: first name, last initial, a domain chosen by the name; or the parameter "email"."""
        if "email" in params:
            return str(params["email"]).lower()
        first, last = params["name"].lower().split()
        return f"{first}{last[0]}@{DOMAINS[stable_seed('email', params['name']) % len(DOMAINS)]}"

    def facts(self, params: Params) -> dict[str, str]:
        """The name and the address."""
        return {"name": params["name"], "email": self.new_value(params)}

    def matches(self, params: Params, contact: Mapping[str, Any]) -> bool:
        """The address (case ignored), the old number, not starred."""
        return (contact["email"].lower() == self.new_value(params) and not contact["starred"]
                and contact["phone"] == self.people(params)[0]["phone"])


class AddContactTemplate(PersonTemplate):
    """Add a contact {name} with number {number} (and e-mail {email}): exactly that contact added."""

    name, max_steps = "add_contact", 20
    apps = (contacts.PACKAGE,)
    target_present = False
    phrasings = ("Add a new contact: {name}, phone number {number}", "Save {name} in my contacts with the number "
                 "{number}", "Create a contact named {name} with phone {number}",
                 "Add a new contact: {name}, phone number {number}, email {email}",
                 "Create a contact for {name}: phone {number}, email {email}")
    with_email = (False, False, False, True, True)

    def check(self, params: Params, state: State) -> bool:
        """One contact added, with the name (case and spacing ignored), the number (digits) and the e-mail asked
        for (none when the goal names none); nothing removed or changed."""  # noqa: D205, D209
        c = _contacts(state)
        target = self.people(params)[0]
        email = target["email"] if self.with_email[params.get("phrasing", 0)] else ""
        added = c.get("added", [])
        return (len(added) == 1 and not c.get("removed") and not c.get("changed")
                and same_person(added[0]["name"], target["name"]) and digits(added[0]["phone"]) ==
                digits(target["phone"]) and added[0]["email"].lower() == email)

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Create contact, fill First name, Last name, Phone (and Email), Save."""
        step = into_app("Contacts", contacts.PACKAGE, elements, state)
        if step is not None:
            return step
        screen = state["screen"]
        target = self.people(params)[0]
        if screen["name"] == "editor" and screen["args"]["name"] is None and not screen["args"]["discard"]:
            first, last = split_name(target["name"])
            email = target["email"] if self.with_email[params.get("phrasing", 0)] else ""
            return edit_fields(elements, state, {contacts.FIRST_RID: first, contacts.LAST_RID: last,
                                                 contacts.PHONE_RID: target["phone"], contacts.EMAIL_RID: email})
        if screen["name"] == "list":
            fab = find(elements, rid=contacts.FAB_RID)
            return tap(fab) if fab is not None and _visible(fab, state) else back()
        if screen["name"] == "editor" and screen["args"]["discard"]:
            return tap(find(elements, text="Discard")) if find(elements, text="Discard") else back()
        return back()


class SaveMissedCallerTemplate(PersonTemplate):
    """Save the number of the last missed call as a new contact {name} (Phone's call details, then Contacts)."""

    name, max_steps = "save_missed_caller", 17
    apps = (contacts.PACKAGE, dialer.PACKAGE,)
    target_present = False
    phrasings = ("Save the number of my last missed call as a new contact named {name}",
                 "Add whoever I just missed a call from to my contacts as {name}",
                 "Create a contact called {name} for the most recent missed call's number")

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """A missed call from the target's (unknown) number, under a newer answered call from another unknown
        number and over an older missed one from a third; the near misses of the name in Contacts."""  # noqa: D205, D209
        target, newer, older = self.people(params)
        calls = [{"number": newer["phone"], "kind": "incoming", "ago_min": 4},
                 {"number": target["phone"], "kind": "missed", "ago_min": 11},
                 {"number": older["phone"], "kind": "missed", "ago_min": 23}]
        spare = numbers(self.name, params["name"])[3:]  # the near misses of the name, saved with other numbers
        near = [{**p, "phone": n} for p, n in zip((newer, older), spare, strict=True)]
        return {contacts.PACKAGE: {"contacts": {"add": near}}, dialer.PACKAGE: {"calls": calls}}

    def check(self, params: Params, state: State) -> bool:
        """One contact added: the name, with the missed caller's number; nothing else changed."""
        c = _contacts(state)
        target = self.people(params)[0]
        added = c.get("added", [])
        return (len(added) == 1 and not c.get("removed") and not c.get("changed")
                and same_name(added[0]["name"], target["name"]) and digits(added[0]["phone"]) ==
                digits(target["phone"]))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Recents > the newest missed call > Create new contact; in Contacts' editor type the name, Save."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        screen = state["screen"]
        target = self.people(params)[0]
        if state["foreground"] == contacts.PACKAGE and screen["name"] == "editor" and screen["args"]["name"] is None:
            if screen["args"]["discard"]:
                return tap(find(elements, text="Keep editing")) if find(elements, text="Keep editing") else back()
            first, last = target["name"].split()
            return edit_fields(elements, state, {contacts.FIRST_RID: first, contacts.LAST_RID: last})
        if state["foreground"] == dialer.PACKAGE and screen["name"] == "call_details":
            if digits(screen["args"]["number"]) != digits(target["phone"]):
                return back()
            create = find(elements, text="Create new contact")
            return tap(create) if create is not None else wait()
        step = to_phone_tab("Recents", elements, state)
        if step is not None:
            return step
        row = first_missed(elements)
        return tap(row) if row is not None else wait()


class CallBackMissedTemplate(TaskTemplate):
    """Call back the most recent missed call (with the optional parameter "caller": "any", the newest incoming or
    missed call): a call to that number only (a contact's or an unknown number)."""  # noqa: D205, D209

    name, suite, max_steps = "call_back_missed", "world", 8
    apps = (dialer.PACKAGE,)
    phrasings = ("Call back the most recent missed call", "Return my last missed call",
                 "I just missed a call. Call them back.")
    VARIANTS = 120

    def values(self, split: str) -> list[dict[str, Any]]:
        """Every variant of the split (the caller, a contact or not, and the calls around it vary by variant)."""
        return [{"variant": v, "phrasing": v % len(self.phrasings)} for v in range(self.VARIANTS)
                if split_of(f"call_back_missed:{v}") == split]

    def goal(self, params: Params) -> str:
        """The instruction."""
        return self.phrasings[params["phrasing"]]

    def _calls(self, params: Params) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(the people, the calls): the target's missed call under 0-2 newer answered or outgoing calls and over an
        older missed one; the target is a contact in odd variants (with a same-first-name near miss)."""  # noqa: D205, D209
        v = params["variant"]
        name = NAMES[stable_seed("call_back_missed", v) % len(NAMES)]
        target, same_first, other = cast(self.name, name)
        rng = np.random.default_rng(stable_seed("call_back_missed:calls", v))
        newer = [{"number": n, "kind": k, "ago_min": 2 + 3 * i}
                 for i, (n, k) in enumerate([(same_first["phone"], "incoming"), (other["phone"], "outgoing")]
                                            [:int(rng.integers(3))])]
        calls = [*newer, {"number": target["phone"], "kind": "missed", "ago_min": 9},
                 {"number": other["phone"] if v % 2 else same_first["phone"], "kind": "missed", "ago_min": 17}]
        people = [target, same_first] if v % 2 else [same_first]
        return people, calls

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The calls in Phone's log, the people in Contacts."""
        people, calls = self._calls(params)
        return {contacts.PACKAGE: {"contacts": {"add": people}}, dialer.PACKAGE: {"calls": calls}}

    @staticmethod
    def kinds(params: Params) -> tuple[str, ...]:
        """The kinds of call the goal calls back."""
        return ("incoming", "missed") if params.get("caller") == "any" else ("missed",)

    def check(self, params: Params, state: State) -> bool:
        """Every call placed went to the newest missed call's number (or the newest caller's, `kinds`)."""
        _, calls = self._calls(params)
        return _only_calls_to(state, next(c["number"] for c in calls if c["kind"] in self.kinds(params)))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Phone > Recents > the call button of the first row marked missed (or of a caller, `kinds`)."""
        step = obstacle(elements, state)
        if step is not None:
            return step
        if state["foreground"] == dialer.PACKAGE and state["screen"]["name"] == "call":
            return wait()
        step = to_phone_tab("Recents", elements, state)
        if step is not None:
            return step
        row = first_missed(elements, self.kinds(params))
        if row is None:
            return wait()
        who = row.desc.split(", ")[1]
        button = find(elements, rid=dialer.CALL_BUTTON_RID, desc=f"Call {who}")
        return tap(button) if button is not None else wait()


class DialNumberTemplate(TaskTemplate):
    """Dial {number} on the keypad and call it: a call to that number and no other."""

    name, suite, max_steps = "dial_number", "world", 23
    apps = (dialer.PACKAGE,)
    phrasings = ("Dial {number} and call it", "Call {number}", "Make a phone call to {dashed}",
                 "Use the dial pad to call {plain}")
    COUNT = 300

    def values(self, split: str) -> list[dict[str, Any]]:
        """`COUNT` distinct task numbers, split by number."""
        rng = np.random.default_rng(stable_seed("dial_number"))
        numbers: list[str] = []
        while len(numbers) < self.COUNT:
            n = _number(rng)
            if n not in numbers:
                numbers.append(n)
        return [{"number": n, "phrasing": i % len(self.phrasings)} for i, n in enumerate(numbers)
                if split_of(n) == split]

    def goal(self, params: Params) -> str:
        """The instruction, with the number written as the phrasing writes it."""
        d = digits(params["number"])
        return self.phrasings[params["phrasing"]].format(number=params["number"], dashed=f"{d[:3]}-{d[3:6]}-{d[6:]}",
                                                         plain=d)

    def check(self, params: Params, state: State) -> bool:
        """Every call placed went to the number."""
        return _only_calls_to(state, params["number"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Phone > key pad > the digits one by one (backspace over a wrong one) > dial."""
        step = obstacle(elements, state) or into_app("Phone", dialer.PACKAGE, elements, state)
        if step is not None:
            return step
        screen = state["screen"]
        if screen["name"] == "keypad":
            typed, want = screen["args"]["digits"], digits(params["number"])
            if typed == want:
                target = find(elements, rid=dialer.DIAL_RID)
            elif want.startswith(typed):
                target = find(elements, rid=dialer.KEY_RIDS[want[len(typed)]])
            else:
                target = find(elements, rid=dialer.DELETE_RID)
            return tap(target) if target is not None else wait()
        if screen["name"] == "call":
            return wait()
        if screen["name"] in ("favourites", "recents", "contacts"):
            pad = find(elements, rid=dialer.KEYPAD_FAB_RID)
            return tap(pad) if pad is not None else wait()
        return back()


TEMPLATES: tuple[TaskTemplate, ...] = (
    CallContactTemplate(), DialNumberTemplate(), AddContactTemplate(), EditNumberTemplate(), AddEmailTemplate(),
    DeleteContactTemplate(), FavouriteContactTemplate(), ContactInfoTemplate(), CallBackMissedTemplate(),
    SaveMissedCallerTemplate(),
)
"""The Contacts and Phone templates of the world suite."""
