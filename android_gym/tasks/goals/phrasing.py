"""Phrasings: how a family of goals may be worded, written as text with optional parts, alternatives and slots.

    "what's the weather [like] (in|for) {city}"

* words match themselves, compared after `text.words` (so "what's" is "whats", and punctuation does not count);
* `(a|b c)` is one of the alternatives, each a sequence of words and groups; `[a|b c]` is one of them or nothing;
* `{name}` is a slot: one or more words, read afterwards by the slot's reader (`slots.py`).

A phrasing compiles to one regular expression over the line's words joined by single spaces. Its specificity, the
number of line words matched by the phrasing's own words rather than by slots, decides between two phrasings that
both match: "Go to {site}, search for {query}, and select the first entry" beats "Go to {site}, search for {query}"
on a line that says both.

>>> p = Phrasing("what's the weather [like] (in|for) {city}")
>>> p.match(["whats", "the", "weather", "like", "in", "new", "york"])
{'city': 'new york'}
>>> p.match(["whats", "the", "weather"]) is None
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from android_gym.tasks.goals.text import words

_TOKEN = re.compile(r"\[|\]|\(|\)|\||\{\w+\}|[^\s\[\]()|{}]+")


class PhrasingError(ValueError):
    """A phrasing that does not compile (unbalanced brackets, an empty alternative, a repeated slot)."""


@dataclass(frozen=True)
class Phrasing:
    """One wording of a goal family; `match(words)` returns the slots' texts, or None.

    A slot inside an optional part that the line leaves out is absent from the result.
    """

    text: str
    slots: tuple[str, ...] = field(init=False)
    literals: frozenset[str] = field(init=False)
    _regex: re.Pattern[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        tokens = _TOKEN.findall(self.text)
        slots: list[str] = []
        literals: set[str] = set()
        pattern, rest = _sequence(tokens, slots, literals, self.text)
        if rest:
            raise PhrasingError(f"phrasing {self.text!r}: unexpected {rest[0]!r}")
        if len(set(slots)) != len(slots):
            raise PhrasingError(f"phrasing {self.text!r} names a slot twice")
        object.__setattr__(self, "slots", tuple(slots))
        object.__setattr__(self, "literals", frozenset(literals))
        object.__setattr__(self, "_regex", re.compile(f"^{pattern}$"))

    def match(self, line_words: list[str]) -> dict[str, str] | None:
        """The text of each slot when the whole line is this phrasing, else None."""
        m = self._regex.match(" " + " ".join(line_words))
        return None if m is None else {k: v.strip() for k, v in m.groupdict().items() if v is not None}

    @staticmethod
    def specificity(line_words: list[str], slots: dict[str, str]) -> int:
        """Line words matched by the phrasing's own words (not by its slots)."""
        return len(line_words) - sum(len(v.split()) for v in slots.values())


def _sequence(tokens: list[str], slots: list[str], literals: set[str], text: str) -> tuple[str, list[str]]:
    """Compile tokens up to a closing bracket or '|'; every item carries its leading space."""
    parts = []
    while tokens and tokens[0] not in ("]", ")", "|"):
        token, tokens = tokens[0], tokens[1:]
        if token in ("[", "("):
            closer = "]" if token == "[" else ")"
            options = []
            while True:
                inner, tokens = _sequence(tokens, slots, literals, text)
                if not inner:
                    raise PhrasingError(f"phrasing {text!r}: an empty alternative")
                options.append(inner)
                if not tokens or tokens[0] not in ("|", closer):
                    raise PhrasingError(f"phrasing {text!r}: {token!r} without its {closer!r}")
                end, tokens = tokens[0], tokens[1:]
                if end == closer:
                    break
            parts.append(f"(?:{'|'.join(options)}){'?' if token == '[' else ''}")
        elif token.startswith("{"):
            name = token[1:-1]
            slots.append(name)
            parts.append(f" (?P<{name}>.+?)")
        else:
            for word in words(token):
                literals.add(word)
                parts.append(" " + re.escape(word))
    return "".join(parts), tokens
