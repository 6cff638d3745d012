"""AndroidWorld's `ContactsNewContactDraft` ("Go to the new contact screen and enter the following details: First
Name: {first}, Last Name: {last}, Phone: {phone}, Phone Label: {phone_label}. Do NOT hit save.").

AndroidWorld draws a first and a last name from two lists of ten, a "ddd-ddd-dddd" number and the label "Home" or
"Work" (never "Mobile", the label a new number starts with), and reads the screen afterwards: a field hinted "First
name" whose text fuzzy-matches the first name, one hinted "Last name" likewise, one hinted "Phone" with the number's
digits, and the label shown as "<label> Phone" (or just under the number). Here the name lists are ours, of the same
size; the Contacts editor's Phone field has its label spinner ("Mobile" until picked). The check reads the phone's
front screen: Contacts' new-contact editor in front, its First name and Last name exactly the names (outer spaces
aside), its Phone the number's digits, its label the one asked, and no contact saved.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import contacts as K
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.expert import fill
from android_gym.tasks.world.base import Elements, Params, State, into_app, press

FIRST = ("Maya", "Omar", "Lucia", "Tobias", "Nia", "Felix", "Rosa", "Kenji", "Amara", "Pavel")
LAST = ("Moreno", "Becker", "Okafor", "Lindqvist", "Patel", "Romano", "Chen", "Duval", "Novak", "Sato")
LABELS = ("Home", "Work")
"""The labels AndroidWorld draws (not "Mobile": its check could not tell it from the one a new number has)."""


class ContactsNewContactDraft(AndroidWorldTemplate):
    """Fill the new-contact form with {first} {last}, {phone} labelled {phone_label}, and leave it unsaved."""

    name, split_key, max_steps = "ContactsNewContactDraft", "phone", 18
    goal_template = ("Go to the new contact screen and enter the following details: First Name: {first}, Last Name: "
                     "{last}, Phone: {phone}, Phone Label: {phone_label}. Do NOT hit save.")
    apps = (K.PACKAGE,)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A first and a last name, a "ddd-ddd-dddd" number, Home or Work."""
        phone = f"{rng.randint(100, 999)}-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}"
        return {"first": pick(rng, FIRST), "last": pick(rng, LAST), "phone": phone, "phone_label": pick(rng, LABELS)}

    def check(self, params: Params, state: State) -> bool:
        """The new-contact editor in front holding the names, the number's digits and the label; nothing saved."""
        screen, fields = state["screen"], state["screen"]["fields"]
        return (state["foreground"] == K.PACKAGE and screen["name"] == "editor" and screen["args"]["name"] is None
                and fields.get(K.FIRST_RID, "").strip() == params["first"]
                and fields.get(K.LAST_RID, "").strip() == params["last"]
                and K.digits(fields.get(K.PHONE_RID, "")) == K.digits(params["phone"])
                and screen["args"]["phone_label"] == params["phone_label"]
                and not state_of(state, K.ContactsState)["added"])

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """"Create contact", type the names and the number, pick the label from its menu."""
        step = into_app("Contacts", K.PACKAGE, elements, state)
        if step is not None:
            return step
        screen = state["screen"]
        if screen["name"] != "editor":
            return press(elements, desc="Create contact") if screen["name"] == "list" else press(
                elements, desc="Navigate up")
        if screen["args"]["labels"]:
            return press(elements, text=params["phone_label"], rid="android:id/text1")
        for rid, value in ((K.FIRST_RID, params["first"]), (K.LAST_RID, params["last"]), (K.PHONE_RID,
                                                                                           params["phone"])):
            step = fill(elements, state, rid, value)
            if step is not None:
                return step
        return press(elements, rid=K.LABEL_RID)


TEMPLATES = (ContactsNewContactDraft(),)
