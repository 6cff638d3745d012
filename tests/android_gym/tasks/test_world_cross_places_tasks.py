"""Tests of the World suite's cross-app templates from Markor notes into OsmAnd, VLC, Calendar and Audio Recorder
beyond the contract: the near misses that lose (the twin note's town, videos, appointment or recording; another
group, order, time or title) and answers written the ways a person writes them."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import recorder as RA
from android_gym.sim.apps import vlc as VA
from android_gym.sim.apps.gallery_prints import money
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.world import calendar_tasks as ct
from android_gym.tasks.world import cross_places_tasks as P
from android_gym.tasks.world import pictures_expert as pe
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import playing

BY_NAME = {t.name: t for t in P.TEMPLATES}
FAVORITE, GROUP, VIDEOS, EVENT, LENGTH, VIDEO_LENGTH, LARGEST, RECEIPTS = P.TEMPLATES


def answering(template: TaskTemplate, wrong: Callable[[dict[str, Any]], str]) -> Callable[[Task], Any]:
    """A near miss: the expert, declaring `wrong(params)` where it would declare the answer."""
    def make(task: Task) -> Any:
        def act(elements: Any, state: Any) -> Action:
            action = task.expert_action(elements, state)
            if action.action_type == ActionType.STATUS_TASK_COMPLETE:
                return Action(ActionType.STATUS_TASK_COMPLETE, text=wrong(dict(task.params)))
            return action
        return act
    make.__name__ = f"{template.name} answering the near miss"
    return make


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def other_group(p: dict[str, Any]) -> str:
    """A group other than the asked one."""
    return next(g for g in P.GROUPS if g != p["group"])


def as_(template: TaskTemplate) -> Callable[[Task], Any]:
    """A near miss: `template`'s expert (a subclass of the tested template that writes something else)."""
    def make(task: Task) -> Any:
        return Task(template, task.params, task.split).expert_action
    make.__name__ = type(template).__name__
    return make


class RunnerUp(P.LargestFileToNoteTemplate):
    """Notes the second largest file of the folder."""

    def text(self, params: Any) -> str:
        """The runner-up's name."""
        return params["runner_up"]


class WithSize(P.LargestFileToNoteTemplate):
    """Notes the name with its size."""

    def text(self, params: Any) -> str:
        """The name, then the size."""
        return f"{params['name']} ({params['size_kb']} kB)"


class OneTotal(P.ReceiptsSumToNoteTemplate):
    """Notes one receipt's total instead of the sum."""

    def text(self, params: Any) -> str:
        """The receipt's own total."""
        return pe.total_text(pe.receipt_of(params))


class CentOff(P.ReceiptsSumToNoteTemplate):
    """Notes the sum a cent off."""

    def text(self, params: Any) -> str:
        """The sum plus one cent."""
        return money(sum(self.totals(params)) + 1)


@pytest.mark.parametrize(("name", "near_misses"), [
    ("cross_largest_file_to_note", [as_(RunnerUp()), as_(WithSize()),
                                    playing(LARGEST, name=lambda p: p["runner_up"], note="other.md")]),
    ("cross_receipts_sum_to_note", [as_(OneTotal()), as_(CentOff())]),
    ("cross_note_town_favorite", [playing(FAVORITE, town=lambda p: p["twin"]), playing(FAVORITE, group=other_group)]),
    ("cross_note_videos_playlist", [playing(VIDEOS, videos=lambda p: p["twins"]),
                                    playing(VIDEOS, videos=lambda p: p["videos"][::-1])]),
    ("cross_note_to_event", [playing(EVENT, title=lambda p: p["twin_title"]),
                             playing(EVENT, start=lambda p: ct.later(p["start"], 30))]),
])
def test_state_near_misses_lose(name: str, near_misses: list) -> None:
    checks.check_near_misses(BY_NAME[name], device(), near_misses)


@pytest.mark.parametrize(("name", "wrong"), [
    ("cross_note_town_group", lambda p: p["twin_group"]),
    ("cross_note_recording_length", lambda p: RA.clock(p["twin_length"])),
    ("cross_note_video_length", lambda p: VA.clock(p["twin_length"])),
])
def test_answering_the_near_miss_loses(name: str, wrong: Any) -> None:
    checks.check_near_misses(BY_NAME[name], device(), [answering(BY_NAME[name], wrong)])


def test_recording_lengths_written_other_ways() -> None:
    """A recording's or video's length is taken as a clock or in words, and refused when another number of seconds
    or bare."""  # noqa: D205, D209
    params = LENGTH.tasks("train")[0].params
    assert all(LENGTH.answer_matches(params, given, "01:23") for given in ("1:23", "01:23", "1 min 23 s",
                                                                          "83 seconds", "1 minute and 23 seconds"))
    assert not any(LENGTH.answer_matches(params, given, "01:23") for given in ("1:32", "83", "01:24", "1 min"))
    video = VIDEO_LENGTH.tasks("test")[0].params
    assert VIDEO_LENGTH.answer_matches(video, "01:23", "1:23")
    assert not VIDEO_LENGTH.answer_matches(video, "1:22", "1:23")


class StemOnly(P.LargestFileToNoteTemplate):
    """Notes the name without its extension, in capitals."""

    def text(self, params: Any) -> str:
        """The name's stem, upper-cased."""
        return params["name"].rsplit(".", 1)[0].upper()


def test_a_file_name_may_leave_out_its_extension() -> None:
    """The note may hold the name without its extension, in any case."""
    task = LARGEST.tasks("train")[0]
    assert run_episode(task, seed=0, policy=as_(StemOnly())(task), device=device()).success


def test_the_group_answer_ignores_case_but_not_the_group() -> None:
    """The group answer is compared as `answers_match` does: case aside, another group refused."""
    params = GROUP.tasks("test")[0].params
    assert GROUP.answer_matches(params, params["group"].upper(), params["group"])
    assert not GROUP.answer_matches(params, params["twin_group"], params["group"])
