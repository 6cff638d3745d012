"""Tests of the World suite's Loop Habit Tracker templates beyond the contract: answers accept the number with or
without its unit and refuse others, the best-score task has one clear leader, and each template loses to its near
miss (the twin habit answered, checked, archived, renamed...; another day, number, frequency or time)."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import habits_data as D
from android_gym.sim.perturbations import PerturbationConfig
from android_gym.sim.phone import SimPhone
from android_gym.tasks.base import Task, TaskTemplate
from android_gym.tasks.world import habits_tasks as T
from android_gym.tasks.world.habits_expert import figures, twin_habits
from android_gym.testing import template_checks as checks
from android_gym.testing.template_checks import playing

(STREAK, BEST, TOTAL, SCORE, MONTH, VALUE, LEADER, CREATE, CHECK, ENTER, ARCHIVE, UNARCHIVE, DELETE, RENAME,
 REMINDER) = T.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def saying(text: Any) -> Any:
    """A near miss for an answer: declare `text(params)` at once."""
    def make(task: Task) -> Any:
        return lambda elements, state: Action(ActionType.STATUS_TASK_COMPLETE, text=text(task.params))
    make.__name__ = "saying"
    return make


def twin(p: dict) -> str:
    """The twin habit's name."""
    return p["twin"]


@pytest.mark.parametrize(("template", "near_misses"), [
    (STREAK, [playing(STREAK, name=twin)]),
    (BEST, [playing(BEST, name=twin)]),
    (TOTAL, [playing(TOTAL, name=twin)]),
    (SCORE, [playing(SCORE, name=twin)]),
    (MONTH, [playing(MONTH, name=twin)]),
    (VALUE, [playing(VALUE, name=twin)]),
    (LEADER, [saying(lambda p: p["others"][0]), saying(lambda p: p["others"][2])]),
    (CREATE, [playing(CREATE, days=lambda p: p["days"] + 1), playing(CREATE, reminder="05:00"),
              playing(CREATE, name=lambda p: p["name"] + " x")]),
    (CHECK, [playing(CHECK, name=twin), playing(CHECK, day=lambda p: "today" if p["day"] == "yesterday"
                                                else "yesterday")]),
    (ENTER, [playing(ENTER, name=twin), playing(ENTER, value=lambda p: p["value"] + 1)]),
    (ARCHIVE, [playing(ARCHIVE, name=twin)]),
    (UNARCHIVE, [playing(UNARCHIVE, name=twin)]),
    (DELETE, [playing(DELETE, name=twin)]),
    (RENAME, [playing(RENAME, name=twin), playing(RENAME, new=lambda p: p["new"] + "s")]),
    (REMINDER, [playing(REMINDER, name=twin), playing(REMINDER, new="05:00")]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


@pytest.mark.parametrize(("template", "given", "truth", "ok"), [
    (STREAK, "5", "5", True), (STREAK, "5 days", "5", True), (STREAK, "5 Days in a row", "5", True),
    (STREAK, "15 days", "5", False), (STREAK, "5 weeks", "5", False), (STREAK, "4", "5", False),
    (SCORE, "72%", "72", True), (SCORE, "72 percent", "72", True), (SCORE, "27%", "72", False),
    (TOTAL, "31 times", "31", True), (TOTAL, "3 1", "31", False),
])
def test_answers_accept_the_number_with_or_without_its_unit(template: TaskTemplate, given: str, truth: str,
                                                           ok: bool) -> None:
    assert template.answer_matches({}, given, truth) is ok


def test_a_measurable_answer_takes_the_habits_own_unit() -> None:
    """"23 pages" for a habit counted in pages; the unit of another habit does not pass."""
    params = {"unit": "pages"}
    assert VALUE.answer_matches(params, "23 pages", "23") and VALUE.answer_matches(params, "23", "23")
    assert not VALUE.answer_matches(params, "23 laps", "23")


def test_the_best_score_task_has_one_clear_leader() -> None:
    """Over the whole grid the leader's score is above every other habit's."""
    for params in LEADER.grid():
        habits = [D.habit(**h) for h in LEADER.initial(params)[D.PACKAGE]["habits"]]
        best = max(habits, key=D.score)
        assert best["name"] == params["name"] and sorted(map(D.score, habits))[-2] < D.score(best), params


def test_a_changed_habit_has_no_answer() -> None:
    """Once a day was checked the answer is None, so an agent cannot change the figure and then report it."""
    phone = SimPhone(PerturbationConfig.preset("none"))
    task = STREAK.tasks("train")[0]
    phone.reset(0, task.initial)
    assert STREAK.answer(task.params, phone.state()) is not None
    phone.launch("loop")
    phone.tap(*next(e for e in phone.elements() if e.desc.startswith(f"{task.params['name']}, ")).center)
    assert STREAK.answer(task.params, phone.state()) is None


def test_twins_differ_in_every_figure_asked() -> None:
    """The twin's streaks, total, score and month counts all differ from the habit's (answering it loses)."""
    for params in STREAK.grid()[:6] + VALUE.grid()[:6]:
        mine, other = twin_habits(params)["habits"]
        assert all(a != b for a, b in zip(figures(mine), figures(other), strict=True)), params["name"]


@pytest.mark.parametrize("stray", ["frequencyPicker", "colorPicker", "reminderTimePicker"])
def test_the_edit_expert_closes_a_dialog_of_a_field_it_leaves_alone(stray: str) -> None:
    """A stray tap (a warm start's noisy step) opens another field's dialog on the form: the expert closes it and
    finishes, instead of failing on a field its edit does not set."""  # noqa: D205, D209
    from android_gym.sim.apps import habits as H
    from android_gym.testing.rollout import run_episode

    row = {"frequencyPicker": H.FREQ_ROW, "colorPicker": H.COLOR_ROW, "reminderTimePicker": H.REMINDER_ROW}[stray]
    task = RENAME.tasks("train")[0]
    on_form = lambda s: s["screen"]["name"] == "form" and not s["screen"]["args"].get("dialog")  # noqa: E731
    act, slips = checks.slipping(task, on_form, row)
    episode = run_episode(task, 0, act, device())
    assert slips and episode.success
    assert any(a.action_type == ActionType.PRESS_BACK for a, _ in episode.log)
