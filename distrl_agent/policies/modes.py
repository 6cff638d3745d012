"""The small policy's action vocabulary as plain enums: its modes (`Mode`) and where TYPE takes its text (`Source`).

They live apart from `factorised` (the distribution, which imports torch) so that the small policy's observation
reader (`episode_memory.read_with_memory`), which workers unpickle without torch, can name them.
"""

from __future__ import annotations

import enum


class Mode(enum.IntEnum):
    """What the small policy does this step; the integers index the mode head."""

    TAP = 0
    TYPE = 1
    BACK = 2
    HOME = 3
    ENTER = 4
    SCROLL_DOWN = 5  # the finger moves up: the content moves up and reveals what is below
    SCROLL_UP = 6
    WAIT = 7
    ANSWER = 8  # declare the task complete, answering with the chosen element's text
    IMPOSSIBLE = 9  # declare the task impossible


class Source(enum.IntEnum):
    """Where TYPE takes its text from (`copy_from_screen`); the integers index the source head."""

    GOAL = 0  # a span of goal words
    SCREEN = 1  # the text of an on-screen element (`element`)
    MEMORY = 2  # a text remembered from an earlier screen (`memory_slot`)
