"""The people a phone knows: the contacts an episode starts with, drawn from its seed, shared by the apps that name
people (Contacts, Phone, Messages, Email).

The draw uses `stable_seed("people", seed)`, never the episode's RNG, so building the list consumes no randomness and
the same seed gives the same people in every process. The Contacts app owns the live list (`ContactsApp.people`, which
the user edits); the other apps read it through `contacts_of(phone)`.
"""  # noqa: D205, D209

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from android_gym.sim.app import PhoneServices, stable_seed

CONTACTS_PACKAGE = "com.google.android.contacts"
FIRST_NAMES = ("Aisha", "Ben", "Carlos", "Chloe", "David", "Elena", "Emma", "Farid", "Grace", "Hannah", "Hiro",
               "Isabel", "Jamal", "Julia", "Kenji", "Laura", "Liam", "Maya", "Mohammed", "Nadia", "Noah", "Olivia",
               "Omar", "Priya", "Quinn", "Rachel", "Ravi", "Sofia", "Tom", "Uma", "Victor", "Wei", "Yara", "Zoe")
LAST_NAMES = ("Anderson", "Brown", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Haddad", "Ito", "Johnson", "Kim",
              "Lee", "Martin", "Nguyen", "Okafor", "Patel", "Rossi", "Schmidt", "Silva", "Tanaka", "Walker", "Young")
CONTACTS_PER_EPISODE = 12


@dataclass(frozen=True)
class Person:
    """A contact: full name, phone number as the dialer shows it ("(415) 555-0123"), and e-mail address."""

    name: str
    phone: str
    email: str

    @property
    def first(self) -> str:
        """The first name."""
        return self.name.split()[0]


def people(seed: int, count: int = CONTACTS_PER_EPISODE) -> list[Person]:
    """The contacts episode `seed` starts with: `count` people with distinct names and numbers, sorted by name (a new
    list each call: the Contacts app edits its own)."""  # noqa: D205, D209
    return list(_drawn(seed, count))


@lru_cache(maxsize=64)  # four apps read the same draw at every reset
def _drawn(seed: int, count: int) -> tuple[Person, ...]:
    rng = np.random.default_rng(stable_seed("people", seed))
    names: list[str] = []
    while len(names) < count:
        name = f"{FIRST_NAMES[int(rng.integers(len(FIRST_NAMES)))]} {LAST_NAMES[int(rng.integers(len(LAST_NAMES)))]}"
        if name not in names and name.split()[0] not in {n.split()[0] for n in names}:  # first names are unique too
            names.append(name)
    numbers = rng.choice(np.arange(100, 1000), size=count, replace=False)
    areas = ("415", "212", "312", "617", "206", "512")
    out = [Person(name, f"({areas[int(rng.integers(len(areas)))]}) 555-{int(n):04d}",
                  f"{name.lower().replace(' ', '.')}@example.com") for name, n in zip(names, numbers, strict=True)]
    return tuple(sorted(out, key=lambda p: p.name))


def is_full_name(name: str) -> bool:
    """Whether `name` is a first and a last name ("Ana Costa"), not one name ("Mom") or a title ("Dr. Alvarez").

    >>> is_full_name("Ana Costa"), is_full_name("Tom"), is_full_name("Dr. Alvarez")
    (True, False, False)
    """
    return len(name.split()) == 2 and "." not in name


def namesakes(name: str) -> list[str]:
    """Every name a seed may give a contact whose first name is the one name `name` ("Tom": "Tom Anderson", ...):
    what a task about "Tom" takes off the phone, so that the name means one person. Empty for a full name or a
    first name no seed draws.

    >>> len(namesakes("Tom")) == len(LAST_NAMES), namesakes("Mom"), namesakes("Ana Costa")
    (True, [], [])
    """  # noqa: D205
    if len(name.split()) != 1 or name not in FIRST_NAMES:
        return []
    return [f"{name} {last}" for last in LAST_NAMES]


def contacts_of(phone: PhoneServices) -> list[Person]:
    """The phone's contacts as they are now: the Contacts app's live list, or the episode's draw without that app."""
    for app in phone.installed():
        if app.package == CONTACTS_PACKAGE and hasattr(app, "people"):
            return list(app.people)
    return people(phone.seed)
