"""AndroidWorld's `MarkorDeleteNewestNote` ("Delete the newest note in Markor.").

AndroidWorld empties Markor's folder, then creates 2-6 random notes (`_generate_random_note`: a random file name with
".md" or ".txt", one sentence), moving the device clock by -500 to +500 minutes after each, so that the creation
order does not tell the newest. It reads the folder's files sorted by change time before and after: one file fewer,
and every file left with the name and change time it had, in the same order (so the one gone is the newest).

Here an instance is the start (the task has no parameters): the notes, their sentences and the clock moves, drawn as
AndroidWorld draws them. The times are rebased onto the sim: the clock at the end is the phone's, 9:41 on
2026-06-10, and each note keeps its distance from it (note k was made `sum(moves[k:])` minutes before the end; a
note may lie ahead of the clock, as on AndroidWorld's device). Draws whose notes share a minute are drawn again, so
that one note is the newest. The notebook starts with only these notes (`markor_edit.SEEDED` removed); Markor's rows
show each time to the minute and "Sort by" Date lists the newest first (`markor_times`). The check reads Markor's
notes, folders and modification times: exactly the newest gone, every other note there with its text and time
unchanged (an edit stamps it 9:41 and loses), no folder made. The expert opens the newest note's More options and
deletes it.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor
from android_gym.sim.apps import markor_times as T
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.markor import SENTENCES
from android_gym.tasks.androidworld.markor_edit import SEEDED, menu_step, on_menu, random_note
from android_gym.tasks.world.base import Elements, Params, State, press
from android_gym.tasks.world.notes_expert import MARKOR

SPAN_MIN = 500
"""AndroidWorld moves the clock by up to this many minutes, either way, after each note."""


def stamps(moves: tuple[int, ...]) -> list[str]:
    """The notes' modification times: note k made `sum(moves[k:])` minutes before the phone's clock (9:41 today).

    >>> stamps((30, -90, 600))
    ['2026-06-10 00:41', '2026-06-10 01:11', '2026-06-09 23:41']
    """
    out = []
    for k in range(len(moves)):
        age_min = sum(moves[k:]) - T.NOW_MIN  # minutes before today's midnight (negative: after it)
        days = -(-age_min // (24 * 60))  # whole days back to the note's day
        out.append(T.stamp(days, days * 24 * 60 - age_min))
    return out


class MarkorDeleteNewestNote(AndroidWorldTemplate):
    """Delete the newest of 2-6 random notes: exactly it gone, the others' names, texts and times unchanged."""

    name, split_key = "MarkorDeleteNewestNote", "start"
    goal_template = "Delete the newest note in Markor."
    apps, outcome = (MARKOR,), "state"
    max_steps = 10  # the expert takes 5 steps: open Markor (2), More options, Delete, Delete

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The start: 2-6 notes (distinct random names, a sentence each) and the clock's moves after each."""
        while True:
            count = rng.randint(2, 6)
            notes: list[str] = []
            texts, moves = [], []
            for _ in range(count):
                name = random_note(rng)
                notes.append(name)
                texts.append(pick(rng, SENTENCES))
                moves.append(rng.randint(-SPAN_MIN, SPAN_MIN))
            if len(set(notes)) == count and len(set(stamps(tuple(moves)))) == count:
                return {"notes": tuple(notes), "texts": tuple(texts), "moves": tuple(moves),
                        "start": ", ".join(notes)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """Only the drawn notes, at the root, with their texts and times."""
        times = dict(zip(params["notes"], stamps(params["moves"]), strict=True))
        return {MARKOR: {"absent": list(SEEDED), "files": dict(zip(params["notes"], params["texts"], strict=True)),
                         "times": times}}

    def newest(self, params: Params) -> str:
        """The note with the latest time."""
        times = dict(zip(params["notes"], stamps(params["moves"]), strict=True))
        return max(times, key=times.__getitem__)

    def check(self, params: Params, state: State) -> bool:
        """The notes are the drawn ones less the newest, each with its text and time; no folder."""
        m = state_of(state, markor.MarkorState)
        gone = self.newest(params)
        want = {n: (t, s) for n, t, s in zip(params["notes"], params["texts"], stamps(params["moves"]), strict=True)
                if n != gone}
        return not m["folders"] and {n: (m["files"][n], m["modified_at"][n]) for n in m["files"]} == want

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The newest note's More options, Delete, Delete."""
        newest = self.newest(params)
        if on_menu(newest, state, ("menu", "delete")):
            return press(elements, text="Delete", clickable=True)
        return menu_step(newest, elements, state)


TEMPLATES = (MarkorDeleteNewestNote(),)
