"""What the cross-app templates over files, media, money and places (`cross_media_tasks`) share: how an answer or a
note may write an amount, a distance or a duration (`amount_of`, `km_of`, `minutes_of`), the ingredient a recipe
alone uses (`UNIQUE`), and the expert steps to read a Markor note and to write a new one.

Notes a task seeds name what to carry ("Song stuck in my head: Low Tide"); an expert, like an agent, opens the note
before it acts on what it says (`read_note`: Markor's `last_opened`), then reads the other app from the state.
"""  # noqa: D205, D209

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor
from android_gym.tasks.world.base import Elements, State
from android_gym.tasks.world.notes_expert import markor_create, markor_item, markor_write
from android_gym.tasks.world.recipes_tasks import KNOWN, PAIRS

NOTES = ("carry_over.md", "quick_notes.md", "todo_today.md", "jotted.md", "remember.md", "inbox.md", "scratch.md",
         "for_later.md", "daily_log.md", "weekend.md", "errands.md", "reminders.md")
"""Names of the notes tasks seed or ask for (each task takes its own and its twin's from here)."""
_AMOUNT = re.compile(r"(?:usd\s*)?\$?\s*(\d{1,3}(?:,\d{3})*|\d+)(\.\d{1,2})?\s*(?:\$|usd|dollars?)?")
_KM = re.compile(r"(\d+(?:\.\d+)?)\s*(?:km|kms|kilometers?|kilometres?)?")
_SECONDS = re.compile(r"(\d+)\s*(minutes?|mins|min|m|seconds?|secs|sec|s)\b")
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(hours?|hrs|hr|h|minutes?|mins|min|m)\b")


def _bare(text: str) -> str:
    """`text` case-folded, without outer spaces nor a final period."""
    return text.strip().rstrip(".").strip().casefold()


def amount_of(text: str) -> Decimal | None:
    """The dollar amount `text` writes alone ("$16.41", "16.41", "16.41 dollars", "USD 16.41"), else None.

    >>> amount_of("$16.41"), amount_of("16.41 dollars."), amount_of("16.4"), amount_of("$16.41 and $2")
    (Decimal('16.41'), Decimal('16.41'), Decimal('16.4'), None)
    """
    m = _AMOUNT.fullmatch(_bare(text))
    if m is None:
        return None
    try:
        return Decimal(m.group(1).replace(",", "") + (m.group(2) or ""))
    except InvalidOperation:  # pragma: no cover (the pattern admits digits only)
        return None


def km_of(text: str) -> Decimal | None:
    """The distance in kilometres `text` writes alone ("7.52 km", "7.52", "7.52 kilometres"), else None.

    >>> km_of("7.52 km"), km_of("7.52"), km_of("7.52 miles")
    (Decimal('7.52'), Decimal('7.52'), None)
    """
    m = _KM.fullmatch(_bare(text))
    return Decimal(m.group(1)) if m is not None else None


def minutes_of(text: str) -> Decimal | None:
    """The duration in minutes `text` writes alone in hours and minutes ("1 h 30 min", "1 hour 30 minutes",
    "90 min", "1.5 hours"), else None.

    >>> minutes_of("1 h 30 min"), minutes_of("1 hour and 30 minutes"), minutes_of("90 mins"), minutes_of("90")
    (Decimal('90'), Decimal('90'), Decimal('90'), None)
    """  # noqa: D205
    text = re.sub(r"\band\b|,", " ", _bare(text))
    parts = _PART.findall(text)
    if not parts or _PART.sub("", text).strip():
        return None
    return sum((Decimal(n) * (60 if unit.startswith("h") else 1) for n, unit in parts), Decimal(0))


def seconds_of(text: str) -> int | None:
    """The duration in seconds `text` writes alone as a clock ("01:23", "1:23") or in words ("1 min 23 s",
    "83 seconds"), else None.

    >>> seconds_of("01:23"), seconds_of("1:23"), seconds_of("1 minute 23 seconds"), seconds_of("83 s"), seconds_of("83")
    (83, 83, 83, 83, None)
    """  # noqa: D205
    text = re.sub(r"\band\b|,", " ", _bare(text))
    clock = re.fullmatch(r"(\d+):([0-5]\d)", text)
    if clock is not None:
        return 60 * int(clock.group(1)) + int(clock.group(2))
    parts = _SECONDS.findall(text)
    if not parts or _SECONDS.sub("", text).strip():
        return None
    return sum(int(n) * (60 if unit.startswith("m") else 1) for n, unit in parts)


def same_number(parse, given: str, truth: str) -> bool:  # noqa: ANN001 (one of the parsers above)
    """Whether `given` and `truth` write the same number as `parse` reads them (neither unreadable)."""
    a, b = parse(given), parse(truth)
    return a is not None and b is not None and a == b


def _core(ingredient: str) -> str:
    """An ingredient without its quantity ("30 g pine nuts" -> "pine nuts")."""
    words = ingredient.split()
    while words and (words[0][0].isdigit() or words[0] in ("g", "kg", "ml", "l", "tbsp", "tsp", "cans", "can",
                                                          "slices", "cloves")):
        words = words[1:]
    return " ".join(words).casefold()


def _unique(title: str) -> str | None:
    """The first ingredient (without quantity) of recipe `title` that no other known recipe mentions."""
    others = [_core(i) for t, spec in KNOWN.items() if t != title for i in spec["ingredients"]]
    for ingredient in KNOWN[title]["ingredients"]:
        core = _core(ingredient)
        if len(core) > 3 and not any(core in o or o in core for o in others):
            return core
    return None


UNIQUE: dict[str, str] = {t: u for (a, _), (b, _) in PAIRS for t in (a, b) if (u := _unique(t)) is not None}
"""Task recipe titles with an ingredient no other recipe uses (what a shopper might have noted)."""


# -- expert steps ------------------------------------------------------------------------------------------------------
def read_note(path: str, elements: Elements, state: State) -> Action | None:
    """The next step to Markor's note `path` opened (None once it was the last opened)."""
    if state_of(state, markor.MarkorState)["last_opened"] == path:
        return None
    return markor_item(path, elements, state)


def new_note(path: str, text: str, elements: Elements, state: State) -> Action:
    """The next step to a new note `path` in Markor's root holding `text`: create it, then type and save."""
    if path in state_of(state, markor.MarkorState)["files"]:
        return markor_write(path, text, elements, state)
    return markor_create("", path, "Markdown", elements, state)
