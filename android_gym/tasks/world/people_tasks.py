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

The cast, the shared checks and the expert steps live in `people_expert`; the Phone-only templates (call back a
missed call, dial a number) in `phone_tasks`, which `TEMPLATES` lists with the Contacts templates here.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.apps import contacts, dialer
from android_gym.sim.apps.contacts import digits, same_name, same_person, split_name
from android_gym.sim.apps.people import namesakes
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import back, find, obstacle, tap, wait
from android_gym.tasks.world.base import Params, WorldTemplate
from android_gym.tasks.world.people_expert import (
    DOMAINS,
    NAMES,
    Elements,
    State,
    cast,
    contacts_state,
    edit_fields,
    first_missed,
    numbers,
    one_changed,
    only_calls_to,
    to_card,
    to_phone_tab,
    visible,
)
from android_gym.tasks.world.phone_tasks import CallBackMissedTemplate, DialNumberTemplate


# -- templates ---------------------------------------------------------------------------------------------------------
class PersonTemplate(WorldTemplate):
    """A task about one person of `NAMES`: split by name, phrased by a hash of it, with the `cast` on the phone."""

    suite = "world"
    phrasings: ClassVar[tuple[str, ...]]
    split_key = "name"
    target_present: ClassVar[bool] = True
    """Whether the target is among the contacts at the start (False for tasks that add it)."""

    def grid(self) -> list[dict[str, Any]]:
        """Every name, with a phrasing chosen by the name."""
        return [{"name": n, "phrasing": stable_seed(self.name, n) % len(self.phrasings)} for n in NAMES]

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
        return only_calls_to(state, self.facts(params)["number"])

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
        c = contacts_state(state)
        return state.get("foreground") == contacts.PACKAGE and c["shown"] == params["name"]

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
        now = one_changed(state, params["name"])
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
        c = contacts_state(state)
        return c["removed"] == [params["name"]] and not c["added"] and not c["changed"]

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
        now = one_changed(state, params["name"])
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
        # the k-th of 100..999 without the old tail (as indexing that list would pick, without building it per goal)
        skipped = int(old[-3:]) if old[-3:].isdigit() and 100 <= int(old[-3:]) <= 999 else None
        tail = 100 + int(rng.integers(900 - (skipped is not None)))
        return f"{old[:-3]}{tail + (skipped is not None and tail >= skipped):03d}"

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
        c = contacts_state(state)
        target = self.people(params)[0]
        email = target["email"] if self.with_email[params.get("phrasing", 0)] else ""
        added = c["added"]
        return (len(added) == 1 and not c["removed"] and not c["changed"]
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
            return tap(fab) if fab is not None and visible(fab, state) else back()
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
        c = contacts_state(state)
        target = self.people(params)[0]
        added = c["added"]
        return (len(added) == 1 and not c["removed"] and not c["changed"]
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


TEMPLATES: tuple[TaskTemplate, ...] = (
    CallContactTemplate(), DialNumberTemplate(), AddContactTemplate(), EditNumberTemplate(), AddEmailTemplate(),
    DeleteContactTemplate(), FavouriteContactTemplate(), ContactInfoTemplate(), CallBackMissedTemplate(),
    SaveMissedCallerTemplate(),
)
"""The Contacts and Phone templates of the world suite."""
