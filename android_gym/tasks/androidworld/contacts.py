"""AndroidWorld's Contacts task `ContactsAddContact` ("Create a new contact for {name}. Their number is {number}.").

AndroidWorld draws a random name and a random ten-digit number with a +1 prefix, and checks the contacts provider for
that name and number. Here the name is one of the sim's people (first and last names as common as AndroidWorld's), the
number drawn as AndroidWorld draws it, and the check is the World template `add_contact`'s: exactly one contact
added, with that name and those digits, no e-mail, nothing removed or changed, while a namesake of each half of the
name sits in Contacts already.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.sim.apps.contacts import format_number
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.world.base import Params
from android_gym.tasks.world.people_expert import NAMES
from android_gym.tasks.world.people_tasks import AddContactTemplate


def random_number(rng: random.Random) -> str:
    """A phone number as AndroidWorld draws one: "+1" and ten random digits.

    >>> random_number(random.Random(0))
    '+16604876475'
    """
    return "+1" + "".join(str(rng.randrange(10)) for _ in range(10))


class ContactsAddContact(AndroidWorldTemplate):
    """Create a contact {name} with number {number}: exactly that contact added, nothing else changed."""

    name, split_key = "ContactsAddContact", "name"
    goal_template = "Create a new contact for {name}. Their number is {number}."
    like = AddContactTemplate()
    max_steps = 16  # the expert takes 10 steps without an e-mail to type (`like` budgets for one)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A name and a number."""
        return {"name": pick(rng, NAMES), "number": random_number(rng)}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The name and the number as the phone shows it (the +1 country code is the phone's own), in the phrasing
        without an e-mail."""  # noqa: D205, D209
        return {"name": params["name"], "number": format_number(params["number"]), "phrasing": 0}


TEMPLATES = (ContactsAddContact(),)
