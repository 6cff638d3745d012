"""Tests of AndroidWorld's clipboard tasks on the suite (`SystemCopyToClipboard`, `MarkorCreateNoteFromClipboard`,
`SimpleSmsSendClipboardContent`): what wins (the expert's copy or paste, in any app where the goal names none) and
which near misses lose (a word copied instead of the text, a retyped text with a slip, a paste made twice, another
number)."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import contacts as K
from android_gym.sim.apps import markor
from android_gym.sim.apps import messages as M
from android_gym.tasks.androidworld import clipboard as CB
from android_gym.tasks.androidworld import sms
from android_gym.tasks.base import Task
from android_gym.tasks.expert import find, home, tap
from android_gym.tasks.world.clipboard_expert import long_press

COPY, NOTE, TEXT = CB.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def started(task: Task, seed: int = 3) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def act(phone: SimDevice, action: Action) -> None:
    """One agent step."""
    phone.perform(action)
    phone.tick()


def play(task: Task, phone: SimDevice, steps: int = 30) -> None:
    """The expert's steps until the task's check holds; fail if it never does."""
    for _ in range(steps):
        if task.check(phone.state()):
            return
        act(phone, task.template.expert(task.params, phone.ui_elements(), phone.state()))
    raise AssertionError(f"{task} not won in {steps} steps")


def test_copy_wins_from_any_app_and_a_word_or_a_slip_loses() -> None:
    """The text copied whole wins (here, then on the home screen); its last word alone, or a slip, loses."""
    task = COPY.tasks("test")[0]
    content = task.params["clipboard_content"]
    phone = started(task)
    assert phone.state()["clipboard"]["text"] == "" and not task.check(phone.state())
    play(task, phone)
    act(phone, home())
    assert task.check(phone.state())  # the goal names no app
    phone.phone.set_clipboard(f" {content}\n")
    assert task.check(phone.state())  # outer blank space aside
    phone.phone.set_clipboard(content[:-1])
    assert not task.check(phone.state())
    phone = started(task)  # the near miss: a long press selects the last word, Copy copies only it
    for _ in range(6):
        if phone.state()["screen"]["fields"].get(K.SEARCH_RID) == content:
            break
        act(phone, COPY.expert(task.params, phone.ui_elements(), phone.state()))
    act(phone, long_press(find(phone.ui_elements(), rid=K.SEARCH_RID)))
    act(phone, tap(find(phone.ui_elements(), text="Copy")))
    assert phone.state()["clipboard"]["text"] == content.split()[-1] and not task.check(phone.state())


def test_a_note_from_the_clipboard_wins_once_pasted_and_saved_and_a_double_paste_loses() -> None:
    """The note holding the pasted text wins; pasted twice, or saved under another name, it loses."""
    task = NOTE.tasks("train")[0]
    name, content = task.params["file_name"], task.params["file_content"]
    phone = started(task)
    assert name not in state_of(phone.state(), markor.MarkorState)["files"]
    play(task, phone)
    assert state_of(phone.state(), markor.MarkorState)["files"][name] == content
    phone = started(task)
    while state_of(phone.state(), markor.MarkorState)["open"] is None:
        act(phone, NOTE.expert(task.params, phone.ui_elements(), phone.state()))
    for typed in (" ", ""):  # Paste, a space, Paste again at the cursor: the text twice
        act(phone, long_press(find(phone.ui_elements(), rid=markor.EDITOR_RID)))
        act(phone, tap(find(phone.ui_elements(), text="Paste")))
        if typed:
            act(phone, Action.type(typed))
    act(phone, tap(find(phone.ui_elements(), desc="Save")))
    assert state_of(phone.state(), markor.MarkorState)["files"][name] == f"{content} {content}"
    assert not task.check(phone.state())
    other = NOTE.tasks("train")[1]
    assert not NOTE.check({**other.params, "file_content": content}, phone.state())  # another note's name


def test_the_clipboard_texted_to_the_number_wins_and_another_number_or_a_slip_loses() -> None:
    """Pasted and sent to the number: wins; the same paste to another number, or a retyped slip, loses."""
    task = TEXT.tasks("test")[0]
    number, message = task.params["number"], task.params["message"]
    phone = started(task)
    assert phone.state()["clipboard"]["text"] == message and not task.check(phone.state())
    play(task, phone)
    assert state_of(phone.state(), M.MessagesState)["sent"][0]["text"] == message
    wrong = number[:-1] + str((int(number[-1]) + 1) % 10)
    phone = started(task)
    play(Task(TEXT, {**task.params, "number": wrong}), phone)
    assert not task.check(phone.state())
    phone = started(task)
    for _ in range(30):
        if state_of(phone.state(), M.MessagesState)["sent"]:
            break
        act(phone, sms.text_number(number, message.rsplit(" ", 1)[0], phone.ui_elements(), phone.state()))
    assert not task.check(phone.state())
