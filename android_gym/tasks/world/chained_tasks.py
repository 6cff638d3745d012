"""World-suite tasks that chain two others across apps ("Create a contact for Ana Costa: ... After that: Send an email
to ..."), as AndroidWorld's composite tasks and MobileWorld's long cross-app tasks do.

A `ChainedTemplate` joins two or three templates, each part in another app than the one before: its instances
combine their parameter values split by split (so test chains use test values of every part), its initial conditions
merge theirs, its check asks every part's check at once (a later part must not undo an earlier one), and its expert
plays the expert of the first part not yet done. Only templates won by the state chain: a declaration would end the
episode.
"""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from android_gym.actions import Action
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world import calendar_tasks as calendar
from android_gym.tasks.world import clock_tasks as clock
from android_gym.tasks.world import expenses_tasks as expenses
from android_gym.tasks.world import files_tasks as files
from android_gym.tasks.world import media_tasks as media
from android_gym.tasks.world import messaging_tasks as msg
from android_gym.tasks.world import notes_tasks as notes
from android_gym.tasks.world import people_tasks as people
from android_gym.tasks.world import phone_tasks as phone
from android_gym.tasks.world import photos_tasks as photos
from android_gym.tasks.world import places_tasks as places
from android_gym.tasks.world import recorder_tasks as recorder
from android_gym.tasks.world import settings_tasks as settings
from android_gym.tasks.world import todo_tasks as todo
from android_gym.tasks.world.base import Params
from android_gym.tasks.world.messaging_expert import Elements, State

JOINS = {
    2: ("{0}. After that: {1}", "Two things. First: {0}. Second: {1}", "{0}. Once that is done: {1}"),
    3: ("{0}. After that: {1}. Finally: {2}", "Three things. First: {0}. Second: {1}. Third: {2}",
        "{0}. Then: {1}. Then: {2}"),
}
"""How a chained goal joins its parts, by their number (each part keeps its own phrasing)."""
PAIRS_PER_SPLIT = 60
"""At most this many parameter combinations per split."""


def merge_initial(a: Mapping[str, Any], b: Mapping[str, Any], where: str = "") -> dict[str, Any]:
    """Two templates' initial conditions as one: dicts merge key by key, lists concatenate.

    >>> merge_initial({"p": {"add": [1]}}, {"p": {"add": [2]}, "q": {"x": 1}})
    {'p': {'add': [1, 2]}, 'q': {'x': 1}}

    Raises:
        ValueError: both set the same setting to different values.
    """
    out: dict[str, Any] = dict(a)
    for key, value in b.items():
        if key not in out:
            out[key] = value
        elif isinstance(out[key], Mapping) and isinstance(value, Mapping):
            out[key] = merge_initial(out[key], value, f"{where}{key}.")
        elif isinstance(out[key], list) and isinstance(value, list):
            out[key] = [*out[key], *value]
        elif out[key] != value:
            raise ValueError(f"both chained tasks set {where}{key}: {out[key]!r} and {value!r}")
    return out


class ChainedTemplate(TaskTemplate):
    """Do each part's task in turn on the same phone; every part's check must hold at the end."""

    suite = "world"

    def __init__(self, *parts: TaskTemplate) -> None:
        if len(parts) not in JOINS:
            raise ValueError(f"a chain has {' or '.join(map(str, JOINS))} parts, got {len(parts)}")
        if any(part.outcome != "state" for part in parts):
            raise ValueError(f"only templates won by the state chain: {[(p.name, p.outcome) for p in parts]}")
        self.parts = parts
        self.name = "_then_".join(part.name for part in parts)  # type: ignore[misc]  (per instance)
        # Each part's budget is 1.5x its expert's length plus 3; a chain counts that slack of 3 once and adds 2 steps
        # per switch of app (going home and opening the next part's app, which a part alone starts without).
        self.max_steps = sum(part.max_steps for part in parts) - (len(parts) - 1)  # type: ignore[misc]
        self.apps = tuple(dict.fromkeys(app for part in parts for app in part.apps))  # type: ignore[misc]

    def values(self, split: str) -> list[dict[str, Any]]:
        """Up to `PAIRS_PER_SPLIT` combinations of the parts' values of the split, spread over every list.

        A part with no test value (its few goals all train) lends its train values to the chain's test, while another
        part has test values: each test goal then holds a part's test goal, so no chain goal is in both splits.
        """
        lists = [part.values(split) for part in self.parts]
        if split == "test" and any(lists):
            lists = [values or part.values("train") for part, values in zip(self.parts, lists, strict=True)]
        if not all(lists):
            return []
        n = min(PAIRS_PER_SPLIT, max(map(len, lists)))
        return [{"parts": [values[(i * len(values) // n + 7 * i * k) % len(values)] for k, values in enumerate(lists)],
                 "join": i % len(JOINS[len(lists)])} for i in range(n)]

    def goal(self, params: Params) -> str:
        """The parts' goals, joined as `params["join"]` says."""
        goals = [part.goal(p).rstrip(".") for part, p in zip(self.parts, params["parts"], strict=True)]
        return JOINS[len(goals)][params["join"]].format(*goals)

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The parts' initial conditions, merged."""
        out: dict[str, Any] = {}
        for part, p in zip(self.parts, params["parts"], strict=True):
            out = merge_initial(out, part.initial(p))
        return out

    def check(self, params: Params, state: State) -> bool:
        """Every part's check holds."""
        return all(part.check(p, state) for part, p in zip(self.parts, params["parts"], strict=True))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The expert of the first part whose check does not hold yet (the last part's once all do)."""
        pairs = list(zip(self.parts, params["parts"], strict=True))
        part, p = next(((part, p) for part, p in pairs if not part.check(p, state)), pairs[-1])
        return part.expert(p, elements, state)


TEMPLATES = tuple(ChainedTemplate(*parts) for parts in (
    (people.AddContactTemplate(), msg.SendEmailTemplate()),
    (notes.CreateNoteTemplate(), msg.SendTextTemplate(), photos.FavoritePhotoTemplate()),
    (media.TakePhotoTemplate(), msg.ReplyEmailTemplate(), notes.CreateFolderTemplate()),
    (phone.DialNumberTemplate(), notes.AppendLineTemplate()),
    (photos.FavoritePhotoTemplate(), msg.DeleteConversationTemplate(), msg.ArchiveEmailTemplate()),
    (people.EditNumberTemplate(), msg.ArchiveEmailTemplate()),
    (media.RecordVideoTemplate(), notes.RenameNoteTemplate(), msg.ReplyEmailTemplate()),
    (photos.RestorePhotoTemplate(), people.FavouriteContactTemplate(), msg.MarkAllReadTemplate()),
    (msg.ReplyTextTemplate(), notes.CreateFolderTemplate(), msg.ArchiveEmailTemplate()),
    (photos.AddToAlbumTemplate(), people.AddEmailTemplate(), msg.MarkAllReadTemplate()),
    (people.DeleteContactTemplate(), notes.DeleteNoteTemplate(), msg.ReplyTextTemplate()),
    (media.TakeSelfieTemplate(), msg.SendTextTemplate(), notes.CreateFolderTemplate()),
    (people.CallContactTemplate(), msg.SendEmailTemplate(), notes.CreateFolderTemplate()),
    (photos.CreateAlbumTemplate(), msg.ReplyEmailTemplate()),
    (msg.TextEmailAddressTemplate(), notes.CreateNoteTemplate()),
    (msg.EmailLastTextTemplate(), photos.AddToAlbumTemplate()),
    (people.AddContactTemplate(), msg.SendTextTemplate()),
    (msg.SendEmailTemplate(), media.TakePhotoTemplate(), people.FavouriteContactTemplate()),
    (msg.DeleteConversationTemplate(), people.AddContactTemplate(), notes.RenameNoteTemplate()),
    (msg.ArchiveEmailTemplate(), phone.DialNumberTemplate()),
    (recorder.RecordNamedTemplate(), msg.SendTextTemplate()),
    (expenses.AddExpenseTemplate(), notes.CreateFolderTemplate()),
    (todo.AddTaskTemplate(), msg.SendTextTemplate()),
    (settings.FlightModeTemplate(), clock.AlarmLabelDaysTemplate()),
    (calendar.CreateEventTemplate(), msg.SendTextTemplate()),
    (files.RestoreTemplate(), notes.CreateNoteTemplate()),
    (places.SaveBestRatedTemplate(), clock.LabelledTimerTemplate()),
    (clock.AlarmLabelDaysTemplate(), msg.SendTextTemplate()),
    (settings.DenyCameraMicTemplate(), files.RenameFileTemplate()),
    (files.MoveTwoTemplate(), msg.SendEmailTemplate()),
    (calendar.CreatePlaceEventTemplate(), clock.ChangeAlarmTimeTemplate()),
    (places.SaveTwoPlacesTemplate(), notes.CreateNoteTemplate()),
    (settings.TimeoutThemeTemplate(), recorder.RecordNamedTemplate(), msg.SendTextTemplate()),
))
"""Chains of two or three apps' tasks (Tasks' one serves the held-out-apps split)."""
