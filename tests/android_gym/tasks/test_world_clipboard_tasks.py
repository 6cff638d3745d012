"""Tests of the World suite's clipboard templates and its recurring event: each answer is what the clipboard says
(or whose number it holds, not the namesake's), a pasted text wins where a retyped slip, the namesake or a stale
clipboard loses, and the recurring event wins only with its rule."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.tasks.base import Task
from android_gym.tasks.world import clipboard_tasks as CT
from android_gym.tasks.world.messaging_expert import person, send_text, twins

READ, WHOSE, TEXT, NOTE, REPEAT = CT.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def started(task: Task, seed: int = 5) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def play(task: Task, phone: SimDevice, steps: int = 40) -> Action | None:
    """The expert's steps until its check holds (a state task) or it declares (an answer task: that action)."""
    for _ in range(steps):
        if task.template.outcome == "state" and task.template.check(task.params, phone.state()):
            return None
        action = task.template.expert(task.params, phone.ui_elements(), phone.state())
        if task.template.outcome == "answer" and action.text and action.action_type.name == "STATUS_TASK_COMPLETE":
            return action
        phone.perform(action)
        phone.tick()
    raise AssertionError(f"{task} not done in {steps} steps")


def test_the_clipboard_is_read_back_and_another_code_or_an_overwritten_clipboard_loses() -> None:
    """The expert's answer is the code; another code does not match; once copied over, nothing is the answer."""
    task = READ.tasks("train")[-1]  # its few goals all train (issue 50): the last instance
    phone = started(task)
    said = play(task, phone)
    assert said is not None and said.text == task.params["text"] and task.check(phone.state(), said)
    other = next(c for c in CT.CODES if c != task.params["text"])
    assert not task.check(phone.state(), Action(said.action_type, text=other))
    phone.phone.set_clipboard(other)
    assert READ.answer(task.params, phone.state()) is None


def test_whose_number_is_the_contacts_name_not_the_namesakes() -> None:
    """The number pasted into search leaves one row: the person, whose name wins; the namesake's loses."""
    task = WHOSE.tasks("train")[0]
    phone = started(task)
    said = play(task, phone)
    assert said is not None and said.text == task.params["name"] and task.check(phone.state(), said)
    namesake = twins(task.params["name"])[0]
    assert not task.check(phone.state(), Action(said.action_type, text=namesake))


def test_the_pasted_text_wins_and_a_slip_or_the_namesake_loses() -> None:
    """Pasted to the person: wins. A word short, or pasted to the namesake: loses."""
    task = TEXT.tasks("train")[0]
    phone = started(task)
    play(task, phone)
    assert task.check(phone.state())
    phone = started(task)
    for _ in range(20):
        if task.check(phone.state()) or phone.state()["apps"]["com.google.android.apps.messaging"]["sent"]:
            break
        phone.perform(send_text(person(task.params["name"]), task.params["text"].rsplit(" ", 1)[0],
                                phone.ui_elements(), phone.state()))
        phone.tick()
    assert not task.check(phone.state())
    phone = started(task)
    play(Task(TEXT, {**task.params, "name": twins(task.params["name"])[0]}), phone)
    assert not task.check(phone.state())


def test_a_note_carried_by_copy_and_paste_wins_and_a_retyped_one_leaves_the_clipboard_stale() -> None:
    """Copied and pasted: wins (the clipboard holds the note). Typed into the text instead: the clipboard is stale."""
    task = NOTE.tasks("test")[0]
    phone = started(task)
    play(task, phone)
    assert task.check(phone.state()) and phone.state()["clipboard"]["text"] == task.params["text"]
    phone = started(task)
    for _ in range(20):
        if phone.state()["apps"]["com.google.android.apps.messaging"]["sent"]:
            break
        phone.perform(send_text(person(task.params["name"]), task.params["text"], phone.ui_elements(), phone.state()))
        phone.tick()
    assert phone.state()["clipboard"]["text"] == CT.STALE and not task.check(phone.state())


def test_the_recurring_event_wins_with_its_rule_only() -> None:
    """The expert's event repeats by the rule and wins; the same event by another rule loses."""
    task = REPEAT.tasks("train")[0]
    phone = started(task)
    play(task, phone)
    assert task.check(phone.state())
    other = next(r for r in CT.RULES if r != task.params["rule"])
    phone = started(task)
    play(Task(REPEAT, {**task.params, "rule": other}), phone)
    assert not task.check(phone.state())
