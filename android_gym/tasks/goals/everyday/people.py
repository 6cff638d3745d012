"""Everyday phrasings of the people tasks (issue 49), mapped onto the World suite's Contacts and Phone templates.

"Add a contact named Priya Shah with the number 555 0134", "Change Maria Gomez's phone number to 555-0177", "Call
mom", "Dial 555-0123": the values are the line's own (a name, a number, an address); the task puts on the phone the
people the line needs there (the contact it calls, edits or deletes), and a person named by one first name ("Tom")
is the only contact of that first name (`people.namesakes`). The readers of names, numbers and addresses live here
and are shared with `messages`.

    >>> CONTACT.read("dr. alvarez"), OWNER.read("maria gomezs"), NUMBER.read("650-555-0199")
    ('Dr. Alvarez', 'Maria Gomez', '(650) 555-0199')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from android_gym.sim.apps import people as sim_people
from android_gym.sim.apps.contacts import digits, format_number
from android_gym.tasks.goals.rule import Rule, Slots, rule
from android_gym.tasks.goals.slots import UnknownValue
from android_gym.tasks.goals.text import words
from android_gym.tasks.world import messaging_expert, people_expert
from android_gym.tasks.world.answer_tasks import ContactEmailAnswerTemplate, ContactNumberAnswerTemplate
from android_gym.tasks.world.people_tasks import (
    AddContactTemplate,
    AddEmailTemplate,
    CallContactTemplate,
    DeleteContactTemplate,
    EditNumberTemplate,
)
from android_gym.tasks.world.phone_tasks import CallBackMissedTemplate, DialNumberTemplate

GIVEN_NAMES = frozenset(n.lower() for n in (
    *sim_people.FIRST_NAMES, *people_expert.FIRST, "Adam", "Alex", "Alice", "Amy", "Andrew", "Anna", "Beth",
    "Chris", "Claire", "Dan", "Daniel", "Diana", "Emily", "Eric", "Frank", "George", "Helen", "Jack", "Jake",
    "James", "Jamie", "Jane", "Jason", "Jen", "Jenny", "Jess", "Jessica", "Joe", "John", "Jordan", "Josh", "Kate",
    "Kevin", "Kim", "Lily", "Lisa", "Lucy", "Luis", "Marco", "Maria", "Mark", "Matt", "Max", "Megan", "Mia",
    "Michael", "Mike", "Nick", "Nina", "Paul", "Peter", "Rob", "Ryan", "Sam", "Sara", "Sarah", "Sean", "Steve",
    "Susan", "Taylor", "Tim", "Tony"))
"""First names a contact may have: the sim's and the tasks' own, and common ones people write."""
SURNAMES = frozenset(n.lower() for n in (
    *sim_people.LAST_NAMES, *people_expert.LAST, *messaging_expert.LAST_NAMES, "Adams", "Allen", "Bell", "Campbell",
    "Carter", "Clark", "Cooper", "Davis", "Edwards", "Green", "Hall", "Harris", "Hill", "Jones", "Khan", "King",
    "Lewis", "Miller", "Mitchell", "Moore", "Morgan", "Murphy", "Parker", "Perez", "Roberts", "Robinson", "Sanchez",
    "Scott", "Shah", "Smith", "Taylor", "Thomas", "Turner", "White", "Williams", "Wilson", "Wood", "Wright"))
"""Last names a contact may have."""
RELATIONS = {"mom": "Mom", "mum": "Mum", "mother": "Mom", "dad": "Dad", "father": "Dad", "grandma": "Grandma",
             "grandpa": "Grandpa"}
"""Family words people save contacts as, by the name the contact has."""
TITLES = {"dr": "Dr.", "doctor": "Dr.", "mr": "Mr.", "mrs": "Mrs.", "ms": "Ms.", "prof": "Prof."}


@dataclass(frozen=True)
class ContactName:
    """A person's name as a contact holds it: a family word ("mom" -> "Mom"), a first name, a first and a last name,
    or a title and a name ("dr alvarez" -> "Dr. Alvarez"); `possessive` reads "toms" (Tom's) as "Tom".

    Names are a closed set (`GIVEN_NAMES`, `SURNAMES`), so that "me", "the plumber" or a message's words are never a
    contact; with `new`, for a contact the line adds ("a contact named Hiroshi Tanaka"), where the phrasing itself
    marks the name, any one to three words of letters are a name too. No vocabulary for `text.repair`: a name glued
    to a word is rarer than a wrong split of another line.
    """  # noqa: D205

    possessive: bool = False
    new: bool = False

    def read(self, text: str) -> str:
        """The contact's display name."""
        parts = words(text)
        if parts[:1] == ["my"]:
            parts = parts[1:]
        tries = [parts]
        if self.possessive and parts and parts[-1].endswith("s"):
            tries.insert(0, [*parts[:-1], parts[-1][:-1]])
        for t in tries:
            name = _name(t)
            if name is not None:
                return name
        if self.new and 1 <= len(parts) <= 3 and all(re.fullmatch(r"[a-z][a-z'\-]+", p) for p in parts) and not (
                set(parts) & NOT_NAMES):
            return " ".join(p.title() for p in parts)
        raise UnknownValue(f"the simulated phone knows no contact {text!r}")

    def vocabulary(self) -> set[str]:
        """None (see the class docstring)."""
        return set()


def _name(parts: list[str]) -> str | None:
    if len(parts) == 1 and parts[0] in RELATIONS:
        return RELATIONS[parts[0]]
    if len(parts) == 1 and parts[0] in GIVEN_NAMES:
        return parts[0].title()
    if len(parts) == 2 and parts[0] in TITLES and (parts[1] in SURNAMES or parts[1] in GIVEN_NAMES):
        return f"{TITLES[parts[0]]} {parts[1].title()}"
    if len(parts) == 2 and parts[0] in GIVEN_NAMES and parts[1] in SURNAMES:
        return f"{parts[0].title()} {parts[1].title()}"
    return None


@dataclass(frozen=True)
class PhoneNumber:
    """A phone number in digits with spaces, dashes or brackets: 7 digits ("555 0134" -> "555-0134"), or 10 (or 1
    and 10) as the apps show them ("(650) 555-0199")."""  # noqa: D205, D209

    def read(self, text: str) -> str:
        """The number, written as the phone writes it."""
        t = text.strip()
        d = digits(t)
        if not re.fullmatch(r"\+?[\d\s\-().]+", t) or len(d) not in (7, 10, 11):
            raise UnknownValue(f"{text!r} is not a phone number (7 or 10 digits)")
        return f"{d[:3]}-{d[3:]}" if len(d) == 7 else format_number(d)

    def vocabulary(self) -> set[str]:
        """Numbers bring no words."""
        return set()


@dataclass(frozen=True)
class EmailAddress:
    """An e-mail address as `text.words` leaves it ("maria example.com": the "@" is a separator there)."""

    def read(self, text: str) -> str:
        """The address, lower case."""
        m = re.fullmatch(r"([a-z0-9._%+\-]+) ([a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,})", " ".join(words(text)))
        if m is None:
            raise UnknownValue(f"{text!r} is not an e-mail address")
        return f"{m[1]}@{m[2]}"

    def vocabulary(self) -> set[str]:
        """Addresses bring no words."""
        return set()


NOT_NAMES = frozenset({"me", "my", "him", "her", "them", "us", "it", "the", "a", "an", "this", "that", "someone",
                       "somebody", "contact", "number", "phone", "new"})
"""Words a new contact's name never holds (a phrasing's own words, pronouns)."""
CONTACT, OWNER, NUMBER, EMAIL = ContactName(), ContactName(possessive=True), PhoneNumber(), EmailAddress()
NEW_CONTACT = ContactName(new=True)
_READERS = {"name": CONTACT, "owner": OWNER, "number": NUMBER, "email": EMAIL}
CALLER_VARIANT = 1
"""The `call_back_missed` variant whose call log "the last number that called me" reads (any variant has one)."""


def _person(slots: Slots) -> dict[str, Any]:
    return {"name": slots.get("name") or slots["owner"], "phrasing": 0}


def _add(slots: Slots) -> dict[str, Any]:
    return {**_person(slots), "number": slots["number"]}


RULES: tuple[Rule, ...] = (
    rule("add_contact", AddContactTemplate(), (
        "(add|create|save|make) [a] [new] contact (named|called|for) {name} (with|at) [the] [phone] number {number}",
        "(add|create|save|make) [a] [new] contact (named|called|for) {name} (at|with|number|phone) {number}",
        "(add|save) {name} to [my] contacts (with|at) [the] [phone] number {number}",
        "save {owner} [phone] number [its|it is|as] {number}",
        "(save|add) [the] [phone] number {number} (as|for|under) {name}",
    ), _add, readers={**_READERS, "name": NEW_CONTACT}),
    rule("delete_contact", DeleteContactTemplate(), (
        "(delete|remove) [the] contact [named|called] {name}",
        "(delete|remove) {name} from [my] contacts",
    ), _person, readers=_READERS),
    rule("edit_contact", EditNumberTemplate(), (  # the old number is the new one with other last digits
        "(change|update) {owner} [phone] number to {number}",
        "(change|update) the [phone] number (of|for) {name} to {number}",
    ), lambda s: {**_person(s), "new": s["number"]}, readers=_READERS),
    rule("edit_contact", AddEmailTemplate(), (  # the contact has no address yet, so "add" is the whole edit
        "(add|save) {email} as {owner} email [address]",
        "(add|save) {email} (to|as the email of|as the email address of) [my contact] {name}",
    ), lambda s: {**_person(s), "email": s["email"]}, readers=_READERS),
    rule("contact_answer", ContactNumberAnswerTemplate(), (
        "(what is|whats|tell me) {owner} [phone] number",
        "what number do i have for {name}",
    ), _person, readers=_READERS),
    rule("contact_answer", ContactEmailAnswerTemplate(), (
        "(what is|whats|tell me) {owner} email [address]",
    ), _person, readers=_READERS),
    rule("call", CallContactTemplate(), (
        "(call|phone|ring) {name}",
        "give {name} a call",
        "make a [phone] call to {name}",
    ), _person, readers=_READERS),
    rule("call", DialNumberTemplate(), (
        "(dial|call) {number}",
        "make a [phone] call to {number}",
    ), lambda s: {"number": s["number"], "phrasing": 0}, readers=_READERS),
    rule("call", CallBackMissedTemplate(), (  # the newest incoming or missed call, whoever it was
        "call [back] the last (number|person) that called me",
        "call back the last (caller|person who called me|number that called me)",
        "return the last call [i got]",
    ), lambda s: {"variant": CALLER_VARIANT, "caller": "any", "phrasing": 0}),
    rule("call", CallBackMissedTemplate(), (
        "(call back|return) [my] [the] (last|latest|most recent) missed call",
    ), lambda s: {"variant": CALLER_VARIANT, "phrasing": 0}),
)
"""Contacts and Phone: add, delete, edit and look up contacts, call, dial and call back."""
