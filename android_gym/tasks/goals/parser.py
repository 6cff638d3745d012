"""The goal parser: a plain goal line becomes a family, a template and its parameters, or the reason it cannot.

    >>> parse_goal("What's the weather like inToronto?").params
    {'city': 'toronto'}
    >>> parse_goal("Teleport me to Mars").reason
    'no phrasing of any family matches'

How a line is read: its words (`text.words`) are matched against every phrasing of every family (`rules.RULES`,
the everyday families of `everyday/` among them). A match whose slots all read (the rule's own readers, else
`slots.READERS`) is a candidate, and the most specific candidate wins (ties: the first rule); a fallback rule (a plain
web search) counts only when no other rule reads the line. A search question
must also be answerable: the search engine must answer its template's query with the card its check wants.
Families the sim cannot check yet (`rules.GAPS`) never make a task: a line they read is uncovered, with the missing
piece as the reason. When no phrasing matches the line as written, words glued together by a missing space are split
(`text.repair`) and the line is tried once more. A line no candidate fits is `Uncovered`, with the reason of a gap
or of the most specific near miss ("weather: the simulated phone knows no place 'atlantis'"), or of no match at all.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from android_gym.sim.web.content import answer
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.goals.phrasing import Phrasing
from android_gym.tasks.goals.rule import Rule
from android_gym.tasks.goals.rules import GAPS, RULES
from android_gym.tasks.goals.slots import READERS, UnknownValue, vocabulary
from android_gym.tasks.goals.text import MAX_GOAL_CHARS, repair, words
from android_gym.tasks.web import SearchQuestion


@dataclass(frozen=True)
class GoalMatch:
    """A parsed goal.

    Attributes:
        line: the goal as written.
        family: the goal family ("weather", "shop", ...).
        template: the template whose check and expert the task uses.
        params: that template's parameters.
        notes: what the parser did beyond reading: words it split, other families the line also read as.
    """

    line: str
    family: str
    template: TaskTemplate
    params: dict[str, Any]
    notes: tuple[str, ...] = ()

    @property
    def is_ambiguous(self) -> bool:
        """Whether the line also read as another family (the most specific reading won)."""
        return any(n.startswith("also reads as") for n in self.notes)


@dataclass(frozen=True)
class Uncovered:
    """A line the parser cannot turn into a checkable task, and why."""

    line: str
    reason: str
    family: str | None = None
    """The family of the nearest miss (a phrasing matched but a slot named something unknown), else None."""


@dataclass(frozen=True)
class _Candidate:
    specificity: int
    order: int
    rule: Rule
    params: dict[str, Any]


_GAP_RANK = 1_000  # a gap's reason outranks any near miss of a family the sim has


@functools.cache
def known_words() -> frozenset[str]:
    """Every word of every phrasing and slot reader: what `text.repair` may split a glued word into."""
    own = {w for r in RULES for reader in r.readers.values() for w in reader.vocabulary()}
    return frozenset(vocabulary(w for r in (*RULES, *GAPS) for p in r.phrasings for w in p.literals) | own)


def parse_goal(line: str) -> GoalMatch | Uncovered:
    """Read one goal line (see the module docstring); never raises on any text."""
    if len(line) > MAX_GOAL_CHARS:
        return Uncovered(line, f"{len(line):,} characters: longer than any goal ({MAX_GOAL_CHARS})")
    tokens = words(line)
    if not tokens:
        return Uncovered(line, "no words")
    found, misses = _read(tokens)
    notes: list[str] = []
    if not found:
        repaired, splits = repair(tokens, known_words())
        if splits:
            found, more = _read(repaired)
            misses = more or misses
            notes = [f"split {s}" for s in splits]
    if not found:
        if misses:
            _, family, reason = max(misses, key=lambda m: m[0])
            return Uncovered(line, f"{family}: {reason}", family)
        return Uncovered(line, "no phrasing of any family matches")
    if any(not c.rule.fallback for c in found):
        found = [c for c in found if not c.rule.fallback]
    found.sort(key=lambda c: (-c.specificity, c.order))
    best = found[0]
    others = sorted({c.rule.family for c in found if c.rule.family != best.rule.family})
    notes += [f"also reads as {family}" for family in others]
    return GoalMatch(line, best.rule.family, best.rule.template, best.params, tuple(notes))


def _read(tokens: list[str]) -> tuple[list[_Candidate], list[tuple[int, str, str]]]:
    """Every rule whose phrasing matches `tokens` with readable slots, and the near misses.

    A near miss is (rank, family, reason): a phrasing matched but a slot named something unknown, or a gap matched.
    """
    found: list[_Candidate] = []
    misses: list[tuple[int, str, str]] = []
    for order, rule in enumerate((*RULES, *GAPS)):
        for phrasing in rule.phrasings:
            texts = phrasing.match(tokens)
            if texts is None:
                continue
            specificity = Phrasing.specificity(tokens, texts)
            if rule.gap is not None:  # a family the sim lacks: the best reason a line can get
                misses.append((_GAP_RANK + specificity, rule.family, rule.gap))
                continue
            try:
                values = {name: rule.readers.get(name, READERS.get(name)).read(text)  # type: ignore[union-attr]
                          for name, text in texts.items()}  # every slot has a reader: `rule.rule` checks
                params = rule.build(values)
                _check_answerable(rule.template, params)
            except UnknownValue as e:
                misses.append((specificity, rule.family, str(e)))
                continue
            found.append(_Candidate(specificity, order, rule, params))
    return found, misses


def _check_answerable(template: TaskTemplate, params: dict[str, Any]) -> None:
    """Raise `UnknownValue` unless the search engine answers a search question's query with the card it checks.

    A place or product the engine reads differently (a known product inside a longer name) would be unsolvable.
    """
    if not isinstance(template, SearchQuestion):
        return
    query = template.query(params)
    card = answer(query)
    want = (template.kind, template.subject(params), template.detail(params))
    if card is None or (card.kind, card.subject, card.detail) != want:
        got = "no card" if card is None else f"a {card.kind} card about {card.subject!r}"
        raise UnknownValue(f"the search engine answers {query!r} with {got}, not the {want[0]} card the check wants")
