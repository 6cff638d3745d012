"""Everyday phrasings of the notes (Markor) and to-do (Tasks) goals (issue 49), mapped onto the World suite's templates.

"Create a note called Groceries with milk, eggs and bread", "Rename the note Draft to Final draft", "Remind me to
water the plants tomorrow", "Add three tasks: laundry, dishes and vacuum". A line's names and texts reach a rule in
lower case and without punctuation (`text.words`), so the rules hand the templates "loose" parameters: the task names
its notes and tasks in sentence case ("Groceries.md", "Water the plants") and the checks compare names without case
or extension and free text by its words (`notes_expert.folded_words`). A note or task the line refers to (the note to
delete, the task to complete) is put on the phone by the task, as the templates' own tasks do; a line that names no
list puts a new task in any list, and completes or deletes the one task of that title.

    >>> from android_gym.tasks.goals import parse_goal
    >>> parse_goal("Rename the note Draft to Final draft").params["new"]
    'Final draft.md'
    >>> parse_goal("Remind me to water the plants tomorrow").params["days"]
    1
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from android_gym.sim.apps import todo
from android_gym.tasks.goals.rule import Rule, Slots, rule
from android_gym.tasks.goals.slots import UnknownValue
from android_gym.tasks.goals.text import words
from android_gym.tasks.goals.when import NUMBER_WORDS, parse_clock, parse_date, parse_number
from android_gym.tasks.world.notes_expert import note_about, stem
from android_gym.tasks.world.notes_tasks import (
    AppendLineTemplate,
    CreateNoteTemplate,
    DeleteNoteTemplate,
    OpenNoteTemplate,
    RenameNoteTemplate,
)
from android_gym.tasks.world.todo_everyday_tasks import AddTasksTemplate, DeleteTaskTemplate
from android_gym.tasks.world.todo_tasks import AddTaskTemplate, CompleteTaskTemplate, day_phrase

_LEADING = ("the", "a", "an", "my")


@dataclass(frozen=True)
class Words:
    """Free words naming something (a note, a task, a recipe): a leading article dropped, then `case` applied.

    >>> Words("note name").read("the old ideas")
    'Old ideas'
    """

    kind: str
    case: Callable[[str], str] = str.capitalize

    def read(self, text: str) -> str:
        """The words in the case the phone shows them.

        Raises:
            UnknownValue: no words (an article alone).
        """
        found = words(text)
        if found and found[0] in _LEADING and len(found) > 1:
            found = found[1:]
        if not found:
            raise UnknownValue(f"an empty {self.kind}")
        return self.case(" ".join(found))

    def vocabulary(self) -> set[str]:
        """Free words bring no words of their own."""
        return set()


@dataclass(frozen=True)
class Dated:
    """Free words that may end with a date ("water the plants tomorrow"): (the words as `Words` reads them, the date
    or None). The longest ending that `when.parse_date` reads is the date; "at" and a time of day before it are refused
    (`app`, the app that keeps the thing, sets dates only).

    >>> Dated("task", "Tasks app").read("water the plants next friday")
    ('Water the plants', datetime.date(2026, 6, 19))
    """  # noqa: D205

    kind: str
    app: str
    case: Callable[[str], str] = str.capitalize

    def read(self, text: str) -> tuple[str, datetime.date | None]:
        """(words, date).

        Raises:
            UnknownValue: no words before the date, or a time of day the app cannot hold.
        """
        found = words(text)
        date, cut = None, len(found)
        for k in range(1, min(4, len(found) - 1) + 1):
            try:
                date, cut = parse_date(" ".join(found[-k:])), len(found) - k
            except (ValueError, OverflowError):  # not a date (UnknownValue), or one past the calendar's end
                continue
        if "at" in found[:cut]:
            at = len(found[:cut]) - found[:cut][::-1].index("at") - 1
            try:
                parse_clock(" ".join(found[at + 1:cut]))
            except ValueError:  # UnknownValue: "at" is part of the words ("look at the car")
                pass
            else:
                raise UnknownValue(f"{text!r} names a time of day; the simulated phone's {self.app} keeps dates only")
        return Words(self.kind, self.case).read(" ".join(found[:cut])), date

    def vocabulary(self) -> set[str]:
        """The date words."""
        return {"today", "tomorrow", "yesterday", "next", "on"}


@dataclass(frozen=True)
class Count:
    """A small count in digits or words ("three"), from 2 to `most`."""

    kind: str
    most: int = 6

    def read(self, text: str) -> int:
        """The count.

        Raises:
            UnknownValue: not a whole number from 2 to `most`.
        """
        n = parse_number(text)
        if n != int(n) or not 2 <= n <= self.most:
            raise UnknownValue(f"{text!r}: say how many {self.kind} (2 to {self.most})")
        return int(n)

    def vocabulary(self) -> set[str]:
        """The number words."""
        return set(NUMBER_WORDS)


# -- Markor ------------------------------------------------------------------------------------------------------------
_NOTE = {"note": Words("note name"), "new": Words("new note name"), "text": Words("note text", str),
         "topic": Words("note topic", str)}


def _file(name: str) -> str:
    """A note's file name, with Markor's default extension (the loose checks accept any: "notes.txt" names the note
    "Notes" in whatever format)."""  # noqa: D205, D209
    return f"{stem(name)}.md"


def _note(slots: Slots) -> dict[str, Any]:
    """A named note in the notebook's root, its text when the line gives one."""
    return {"name": _file(slots["note"]), "folder": "", "where": "", "text": slots.get("text", ""), "phrasing": 0,
            "loose": True}


_MARKOR_RULES: tuple[Rule, ...] = (
    rule("notes", CreateNoteTemplate(), (
        "(create|make|write|add|start) [a|an] [new] note (called|named|titled) {note} (with|saying|that says|"
        "containing|listing) {text}",
        "(create|make|write|add|start) [a|an] [new] note (with|saying|that says|containing|listing) {text} "
        "(called|named|titled) {note}",
    ), _note, readers=_NOTE),
    rule("notes", CreateNoteTemplate(), (  # no name: any new note holding the text will do
        "(make|take|create|write|add|jot down) [a|an] [new] note [saying|that says|to say|of|that] {text}",
        "(note down|jot down|write down) {text} [in a note|in a new note]",
    ), lambda s: {**_note({**s, "note": ""}), "name": None}, readers=_NOTE),
    rule("notes", DeleteNoteTemplate(), (
        "(delete|remove|trash|get rid of) [the|my] note (called|named|titled) {note}",
        "(delete|remove|trash|get rid of) [the|my] {note} note",
    ), _note, readers=_NOTE),
    rule("notes", AppendLineTemplate(), (
        "(add|append|put|write) {text} (to|in|into|at the end of) [my|the] {note} note",
        "(add|append|put|write) {text} (to|in|into|at the end of) [my|the] note (called|named|titled) {note}",
    ), _note, readers=_NOTE),
    rule("notes", RenameNoteTemplate(), (
        "rename [the|my] note [called|named|titled] {note} (to|as) {new}",
        "rename [the|my] {note} note (to|as) {new}",
        "change the name of [the|my] note [called|named] {note} to {new}",
    ), lambda s: {**_note(s), "new": _file(s["new"])}, readers=_NOTE),
    rule("notes", OpenNoteTemplate(), (
        "(open|show me|find|pull up) [my|the] (note|notes) (about|on|for) [the|my] {topic}",
        "(open|show me|pull up) [my|the] {topic} note",
    ), lambda s: note_about(s["topic"]), readers=_NOTE),
)


# -- Tasks -------------------------------------------------------------------------------------------------------------
def _home_list(title: str) -> str:
    """The list a task of that title lives in: its seeded list (Tasks.org's pool), else the Inbox."""
    return next((name for name, titles in todo.POOL.items() if title in titles), "Inbox")


def _add(slots: Slots) -> dict[str, Any]:
    """A new task in any list, due on the line's date (any date when it names none), any priority."""
    title, date = slots["task"]
    days = None if date is None else (date - todo.DATE).days
    if days is not None and days < 0:
        raise UnknownValue(f"{date:%A, %B} {date.day} has passed: a to-do is due today or later")
    return {"title": title, "list": None, "days": days, "day": "" if days is None else day_phrase(days),
            "priority": None, "phrasing": 0}


def _one(slots: Slots) -> dict[str, Any]:
    """The one task of that title on the phone, in its list."""
    title = slots["task"]
    return {"title": title, "list": _home_list(title), "near": False, "days": 4, "day": day_phrase(4),
            "priority": "medium", "phrasing": 0}


def _several(slots: Slots) -> dict[str, Any]:
    """`count` new tasks: the items split at "and" (and, when that gives too few, one a word: the commas are gone)."""
    n, found = slots["count"], words(slots["items"])
    parts = [p.split() for p in " ".join(found).split(" and ")]
    bare = [w for w in found if w != "and"]
    if len(parts) != n and len(bare) == n:
        parts = [[w] for w in bare]
    if len(parts) != n or not all(parts):
        raise UnknownValue(f"{slots['items']!r} does not read as {n} tasks (the line's commas are not kept)")
    titles = [" ".join(p).capitalize() for p in parts]
    if len({t.casefold() for t in titles}) != n:
        raise UnknownValue(f"{slots['items']!r} names a task twice")
    return {"title": titles[0], "titles": titles, "said": ", ".join(titles), "list": None, "phrasing": 0}


_LIST = "(to-do|todo|to do|task|tasks|reminders|reminder)"
_TASK = {"task": Dated("task", "Tasks app"), "items": Words("tasks", str), "count": Count("tasks")}
_TITLE = {"task": Words("task title")}

_TASKS_RULES: tuple[Rule, ...] = (
    rule("todo", AddTaskTemplate(), (
        f"(add|put|write) {{task}} (to|on|in) [my|the] {_LIST} list",
        f"(add|create|make) [a|an] [new] {_LIST} [called|named|titled|to] {{task}}",
        "remind me to {task}",
    ), _add, readers=_TASK),
    rule("todo", AddTasksTemplate(), (
        f"(add|create|make|put) {{count}} (tasks|to-dos|todos|items|reminders) [to|on|in] [my|the] [{_LIST} list] "
        "[called|named] {items}",
    ), _several, readers=_TASK),
    rule("todo", CompleteTaskTemplate(), (
        "(mark|set) [the|my] [task|to-do|todo] {task} as (done|complete|completed|finished)",
        "(check off|tick off|complete|finish) [the|my] (task|to-do|todo) {task}",
        "(check|tick) {task} off [my|the] [to-do|todo|task] [list]",
    ), _one, readers=_TITLE),
    rule("todo", DeleteTaskTemplate(), (
        "(delete|remove) [the|my] (task|to-do|todo|reminder) [called|named|titled] {task}",
        f"(delete|remove) {{task}} from [my|the] {_LIST} list",
    ), _one, readers=_TITLE),
)

RULES: tuple[Rule, ...] = (*_MARKOR_RULES, *_TASKS_RULES)
"""The notes and to-do families: Markor's notes, Tasks' to-dos."""
