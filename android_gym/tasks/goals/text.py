"""Goal text as the parser reads it: lower-case words, and the spacing slips of hand-written task lists repaired.

Task lists such as AitW's were typed by people: "What's the weather like inToronto?", "Set an alarmfor 5pm",
"Searchfor good French restaurants", "How much does a3 bedroom apartment rent for". `words` makes a line comparable
with a phrasing; `repair` splits a word that is unknown but is two known words glued together.

>>> words("What's the weather like inToronto?")
['whats', 'the', 'weather', 'like', 'intoronto']
>>> repair(words("Set an alarmfor 5pm"), {"set", "an", "alarm", "for"})
(['set', 'an', 'alarm', 'for', '5pm'], ['alarmfor -> alarm for'])
"""

from __future__ import annotations

import re
from collections.abc import Collection

MAX_GOAL_CHARS = 500
"""Longer lines are not goals (the longest AitW goal has ~110 characters); the parser reports them uncovered."""

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'", "\u201c": '"', "\u201d": '"'})
_INNER_APOSTROPHE = re.compile(r"(?<=\w)'(?=\w)")
_SEPARATORS = re.compile(r"[^\w.\-&+:]+")  # what separates words; keeps ebay.com, usb-c, at&t, power+, 7:30
_EDGE = re.compile(r"^[.\-:]+|[.\-:]+$")  # a word's trailing full stop, colon or leading dash is punctuation


def words(text: str) -> list[str]:
    """The lower-case words of `text`.

    Apostrophes inside words are dropped ("what's" -> "whats"), quotes and punctuation are spaces, and '.', '-',
    '&', '+' and ':' are kept inside words.

    >>> words("Go to ebay.com, search for 'usb-c to usb-b', and select the first entry.")
    ['go', 'to', 'ebay.com', 'search', 'for', 'usb-c', 'to', 'usb-b', 'and', 'select', 'the', 'first', 'entry']
    """
    text = _INNER_APOSTROPHE.sub("", text.translate(_APOSTROPHES).lower())
    out = []
    for word in _SEPARATORS.split(text):
        word = _EDGE.sub("", word)
        if word:
            out.append(word)
    return out


_NUMBER = re.compile(r"\d+(?::\d\d)?(?:am|pm)?")  # 5, 5pm, 7:30, 7:30am: whole words, not glued ones


def _known(word: str, vocabulary: Collection[str]) -> bool:
    return word in vocabulary or _NUMBER.fullmatch(word) is not None


def _part(word: str, vocabulary: Collection[str]) -> bool:
    """A known word that may be half of a glued pair (of one letter, only "a" and "i": no "download s")."""
    return _known(word, vocabulary) and (len(word) > 1 or word in "ai" or word.isdigit())


def repair(tokens: list[str], vocabulary: Collection[str]) -> tuple[list[str], list[str]]:
    """Split each word that is not in `vocabulary` but is two words of it (or a word and a number) glued together.

    Returns:
        The repaired words and one note per split ("alarmfor -> alarm for"). Of several possible splits the one
        with the longest shorter part wins ("intoronto" is "in toronto", not "into ronto" even if both were known).

    >>> repair(["a3", "bedroom"], {"a", "bedroom"})
    (['a', '3', 'bedroom'], ['a3 -> a 3'])
    """
    out: list[str] = []
    notes: list[str] = []
    for word in tokens:
        if _known(word, vocabulary) or len(word) < 2:
            out.append(word)
            continue
        splits = [(word[:i], word[i:]) for i in range(1, len(word))
                  if _part(word[:i], vocabulary) and _part(word[i:], vocabulary)]
        if not splits:
            out.append(word)
            continue
        left, right = max(splits, key=lambda s: min(len(s[0]), len(s[1])))
        out += [left, right]
        notes.append(f"{word} -> {left} {right}")
    return out, notes
