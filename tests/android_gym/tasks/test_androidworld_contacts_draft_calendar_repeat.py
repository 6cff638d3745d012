"""Tests of AndroidWorld's `ContactsNewContactDraft` and `SimpleCalendarAddRepeatingEvent` on the suite: the filled,
unsaved new-contact form with its label wins while saving it, the default label or leaving the form loses; the
recurring event wins with its rule, while the same event not repeating, or repeating otherwise, loses."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import calendar as C
from android_gym.sim.apps import contacts as K
from android_gym.tasks.androidworld import calendar_repeat, contacts_draft
from android_gym.tasks.base import Task
from android_gym.tasks.expert import find, home, tap

(DRAFT,) = contacts_draft.TEMPLATES
(REPEAT,) = calendar_repeat.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def act(phone: SimDevice, action: Action) -> None:
    """One agent step."""
    phone.perform(action)
    phone.tick()


def play(task: Task, phone: SimDevice, steps: int = 40) -> None:
    """The expert's steps until the task's check holds; fail if it never does."""
    for _ in range(steps):
        if task.check(phone.state()):
            return
        act(phone, task.template.expert(task.params, phone.ui_elements(), phone.state()))
    raise AssertionError(f"{task} not won in {steps} steps")


def started(task: Task, seed: int = 4) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def test_the_draft_wins_unsaved_and_loses_saved_left_or_with_the_default_label() -> None:
    """Filled with the label: wins. Saved, or HOME: loses. The label left at Mobile (the rest right): loses."""
    task = DRAFT.tasks("test")[0]
    phone = started(task)
    assert not task.check(phone.state())
    play(task, phone)
    assert phone.state()["screen"]["args"]["phone_label"] == task.params["phone_label"]
    act(phone, tap(find(phone.ui_elements(), text="Save")))
    assert state_of(phone.state(), K.ContactsState)["added"] and not task.check(phone.state())
    phone = started(task)
    play(task, phone)
    act(phone, home())
    assert not task.check(phone.state())
    mobile = Task(DRAFT, {**task.params, "phone_label": "Mobile"})
    phone = started(task)
    play(task, phone)
    assert not DRAFT.check(mobile.params, phone.state())  # the form says the drawn label, not Mobile


def test_the_repeating_event_wins_with_its_rule_and_loses_without_or_with_another() -> None:
    """The expert's event wins; the same event made one-off, or repeating by the other rule, loses."""
    task = REPEAT.tasks("train")[0]
    rule = task.params["repeat_rule"]
    phone = started(task)
    assert not task.check(phone.state())
    play(task, phone)
    cal = state_of(phone.state(), C.CalendarState)
    assert [e["repeat"] for e in cal["events"] if e["id"] in cal["added"]] == [rule]
    for other in ("", "weekly" if rule == "daily" else "daily"):
        want = {**task.params["event"], "repeat": other}
        if not other:
            want.pop("repeat")
        phone = started(task)
        play(Task(REPEAT, {**task.params, "event": want}), phone)
        assert not task.check(phone.state()), other
