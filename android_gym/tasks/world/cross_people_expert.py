"""Helpers of the cross-app people and planning templates (`cross_people_tasks`, `cross_people_answer_tasks`): what
they text, list and ask (`TEXTS`, `LISTS`, `ASKS`), the people they seed in Contacts, the answer comparisons a
person's wording needs (a count as a digit or a word, a time with or without AM/PM), the checks they share, and the
expert steps that create a contact, look one up and call one.

People come from `messaging_expert.person` (a name fixes a number and an address; no seeded contact has their last
names), so Contacts, Messages, Gmail and Phone agree on who a task person is.
"""  # noqa: D205, D209

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import contacts as C
from android_gym.sim.apps import dialer as D
from android_gym.sim.apps import gmail as G
from android_gym.tasks.apps import into_app
from android_gym.tasks.base import answers_match
from android_gym.tasks.expert import back, find, tap, wait
from android_gym.tasks.world.base import Elements, State
from android_gym.tasks.world.messaging_expert import person
from android_gym.tasks.world.people_expert import edit_fields, to_card, visible

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_TIME = re.compile(r"^\s*(\d{1,2})(?:[:.h](\d{2}))?\s*([ap])?\.?\s*m?\.?\s*$")


# -- what the tasks say ---------------------------------------------------------------------------------------------
TEXTS = ("Happy birthday! Hope you have a great day", "Sorry I missed your call, what's up?",
         "Got your call, I'll ring you back tonight", "Call you after my meeting", "Saw your missed call, all good?",
         "I'm in a meeting, text me", "Driving now, will call back soon", "Happy birthday, let's celebrate soon!")
LISTS = {"Party guests": ("Mia", "Jonah", "Priya", "Tomas"), "Packing list": ("passport", "charger", "sunscreen"),
         "Grocery run": ("oat milk", "lemons", "basil", "rice"), "Book club picks": ("Circe", "Dune", "Educated"),
         "Camping gear": ("tent", "headlamp", "stove"), "Wedding gifts": ("toaster", "vase", "cookbook"),
         "Hardware store": ("hinges", "wood glue", "sandpaper"), "Recipe swap": ("lasagne", "pho", "tacos"),
         "Movie night": ("Arrival", "Coco", "Heat"), "Bake sale": ("brownies", "scones", "flapjacks"),
         "Garden plants": ("tomatoes", "mint", "lavender"), "Podcast guests": ("Lena", "Omar", "Grace"),
         "School supplies": ("glue sticks", "rulers", "crayons"), "Road trip stops": ("Reno", "Boise", "Moab")}
"""Markor notes that hold a list (their twin, "<name> (old)", holds the last item's replacement)."""
ASKS = ("Renew the parking permit", "Book the meeting room", "Order new printer ink", "Update the team roster",
        "Send the signed lease", "Pick up the dry cleaning", "Reserve a table for six", "Buy a birthday card",
        "Schedule the car service", "Return the library books", "Print the boarding passes", "Water the office plants")
"""What task people ask by email (the subject; a namesake's email asks for another of them)."""
FOLDERS = ("Errands", "Work inbox", "Follow-ups", "Admin")
CODE_PLACES = ("Garage", "Office", "Gym locker", "Storage unit", "Bike shed", "Studio", "Beach house", "Cabin",
               "Side gate", "Basement", "Workshop", "Boathouse", "Back door", "Lake house", "Loft", "Mailbox", "Attic",
               "Wine cellar", "Pool gate", "Greenhouse")
MEMO_NOTES = ("Emergency contacts", "Babysitter info", "Club committee", "Neighbours", "Trip contacts", "Suppliers")


def mail_body(subject: str) -> str:
    """The body of an email asking for `subject`."""
    return f"Hi! Could you take care of this: {subject.lower()}. Thanks a lot."


# -- people and answers --------------------------------------------------------------------------------------------
def in_contacts(*names: str, emails: bool = True) -> dict[str, Any]:
    """Contacts' initial changes adding the task people `names` (number, and address unless not `emails`)."""
    add = [{"name": p["name"], "phone": p["number"], "email": p["email"] if emails else ""} for p in map(person, names)]
    return {C.PACKAGE: {"contacts": {"add": add}}}


def contacts_untouched(state: State) -> bool:
    """Nothing added, removed or changed in Contacts."""
    c = state_of(state, C.ContactsState)
    return not (c["added"] or c["removed"] or c["changed"])


def contact(state: State, name: str) -> C.ContactEntry | None:
    """The contact `name` as Contacts holds it now, or None."""
    return next((p for p in state_of(state, C.ContactsState)["contacts"] if p["name"] == name), None)


def count_matches(given: str, truth: str) -> bool:
    """Whether `given` says the count `truth`: the digits or the word, alone or before a noun ("2 emails").

    >>> [count_matches(g, "2") for g in ("2", "Two", "2 emails", "two emails.", "3", "12", "")]
    [True, True, True, True, False, False, False]
    """
    first = re.findall(r"[0-9a-z]+", given.casefold())[:1]
    if not first:
        return False
    word = first[0]
    n = int(truth)
    return word == str(n) or (n < len(NUMBER_WORDS) and word == NUMBER_WORDS[n])


def time_matches(given: str, truth: str) -> bool:
    """Whether `given` says the time `truth` (24-hour "HH:MM"): "8:30 AM", "8:30am", "08:30", "8.30"; an afternoon
    time also as "14:30" or "2:30 pm" (a bare "2:30" is refused for it: it reads as the morning).

    >>> [time_matches(g, "08:30") for g in ("8:30 AM", "8:30am", "08:30", "8.30", "8:30 PM", "9:30")]
    [True, True, True, True, False, False]
    >>> [time_matches(g, "14:00") for g in ("2 PM", "2:00 p.m.", "14:00", "2:00")]
    [True, True, True, False]
    """  # noqa: D205
    m = _TIME.match(given.casefold())
    if m is None:
        return answers_match(given, truth)
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if m.group(3) is not None:
        if not 1 <= hour <= 12:
            return False
        hour = hour % 12 + (12 if m.group(3) == "p" else 0)
    h, mm = (int(p) for p in truth.split(":"))
    return (hour, minute) == (h, mm)


def sent_mail(state: State) -> list[G.Email]:
    """Gmail's sent mail."""
    return state_of(state, G.GmailState)["sent"]


def digits_in(text: str) -> str:
    """The digits of `text`, run together (how a number is found whatever its punctuation)."""
    return re.sub(r"\D", "", text)


def says_number(text: str, number: str, others: Iterable[str] = ()) -> bool:
    """Whether `text` holds phone number `number` (its digits, any punctuation) and none of `others`.

    >>> says_number("Her number: 718 555 0101", "(718) 555-0101", ["(718) 555-0202"])
    True
    """
    run = digits_in(text)
    return digits_in(number) in run and not any(digits_in(o) in run for o in others)


# -- expert steps ---------------------------------------------------------------------------------------------------
def new_contact(name: str, phone: str, elements: Elements, state: State) -> Action:
    """The next step to create contact `name` with `phone` (Contacts' FAB, First and Last name, Phone, Save)."""
    step = into_app("Contacts", C.PACKAGE, elements, state)
    if step is not None:
        return step
    screen = state["screen"]
    if screen["name"] == "editor" and screen["args"]["name"] is None:
        if screen["args"]["discard"]:
            keep = find(elements, text="Keep editing")
            return tap(keep) if keep is not None else back()
        first, last = C.split_name(name)
        return edit_fields(elements, state, {C.FIRST_RID: first, C.LAST_RID: last, C.PHONE_RID: phone})
    if screen["name"] == "list":
        fab = find(elements, rid=C.FAB_RID)
        return tap(fab) if fab is not None and visible(fab, state) else back()
    if screen["name"] == "editor" and screen["args"]["discard"]:
        discard = find(elements, text="Discard")
        return tap(discard) if discard is not None else back()
    return back()


def call_from_card(elements: Elements) -> Action:
    """On a contact's card: tap Call."""
    call = find(elements, rid=f"{C.PACKAGE}:id/verb_call")
    return tap(call) if call is not None else wait()


def on_recents(state: State) -> bool:
    """Whether Phone shows (or, left, last showed) its Recents tab."""
    return state_of(state, D.DialerState)["tab"] == "Recents"



def look_up(name: str, elements: Elements, state: State) -> Action | None:
    """The next step to `name`'s card in Contacts (None once it is in front); `looked_up` remembers it after."""
    return to_card(name, elements, state)


def looked_up(state: State, name: str) -> bool:
    """Whether `name`'s card was opened in Contacts this episode (Contacts' `opened`)."""
    return name in state_of(state, C.ContactsState)["opened"]
