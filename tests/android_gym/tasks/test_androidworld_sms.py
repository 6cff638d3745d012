"""Tests of AndroidWorld's Simple SMS Messenger tasks on the suite: the phone's start (no seeded conversation, the
texts in AndroidWorld's order) and the checks played through Messages: the message to the goal's number wins (typed
with or without "+1"); another number, other words, a second text or leaving Messages loses, and `SimpleSmsResend`
wants the earlier text again (in any app), not the question it got."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import messages as M
from android_gym.tasks.androidworld import sms
from android_gym.tasks.base import Task
from android_gym.tasks.expert import home

SEND, REPLY, RECENT, RESEND, ADDRESS = sms.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def started(task: Task, seed: int = 2) -> SimDevice:
    """The phone reset to the task's start."""
    phone = device()
    phone.reset(seed, task.initial)
    return phone


def text(phone: SimDevice, number: str, message: str) -> None:
    """Text `message` to `number` through Messages (a bare number typed into "To" when there is no conversation)."""
    before = len(state_of(phone.state(), M.MessagesState)["sent"])
    for _ in range(30):
        if len(state_of(phone.state(), M.MessagesState)["sent"]) > before:
            return
        phone.perform(sms.text_number(number, message, phone.ui_elements(), phone.state()))
        phone.tick()
    raise AssertionError("the text was not sent")


def threads(phone: SimDevice) -> list[dict[str, Any]]:
    """Messages' conversations, newest first."""
    return state_of(phone.state(), M.MessagesState)["threads"]


def test_send_wins_with_or_without_the_country_code_and_loses_to_a_near_miss() -> None:
    task = SEND.tasks("test")[0]
    number, message = task.params["number"], task.params["message"]
    phone = started(task)
    assert threads(phone) == [] and not task.check(phone.state())
    text(phone, number[2:], message.upper())  # Simple SMS adds "+1"; AndroidWorld's match ignores case
    assert task.check(phone.state())
    text(phone, number, message)  # a second text: one change too many
    assert not task.check(phone.state())
    for wrong_number, wrong_message in [(number[:-1] + str((int(number[-1]) + 1) % 10), message),
                                        (number, message.rstrip(".!") + " please.")]:
        phone = started(task)
        text(phone, wrong_number, wrong_message)
        assert not task.check(phone.state())


def test_send_loses_once_messages_is_left() -> None:
    """AndroidWorld reads the front app: the right text, then HOME, loses."""
    task = SEND.tasks("train")[0]
    phone = started(task)
    text(phone, task.params["number"], task.params["message"])
    assert task.check(phone.state())
    phone.perform(home())
    phone.tick()
    assert not task.check(phone.state())


def test_reply_starts_with_the_texts_in_order_and_only_the_number_wins() -> None:
    task = next(t for t in REPLY.tasks("train") if len(t.params["texts"]) >= 3)
    phone = started(task)
    newest_first = [t["number"] for t in threads(phone)]
    assert newest_first == [m["number"] for m in reversed(task.params["texts"])]
    assert task.params["number"] in newest_first
    other = next(n for n in newest_first if n != task.params["number"])
    text(phone, other, task.params["message"])
    assert not task.check(phone.state())
    phone = started(task)
    text(phone, task.params["number"], task.params["message"])
    assert task.check(phone.state())


def test_reply_most_recent_wins_only_in_the_newest_conversation() -> None:
    task = next(t for t in RECENT.tasks("test") if len(t.params["texts"]) >= 2)
    phone = started(task)
    newest, second = threads(phone)[0]["number"], threads(phone)[1]["number"]
    assert newest == task.params["number"]
    text(phone, second, task.params["message"])
    assert not task.check(phone.state())
    phone = started(task)
    text(phone, newest, task.params["message"])
    assert task.check(phone.state())


def test_resend_wants_the_earlier_text_again_in_any_app() -> None:
    task = RESEND.tasks("train")[0]
    phone = started(task)
    (thread,) = threads(phone)
    assert thread["messages"][0] == {"from_me": True, "text": task.params["message"]}
    text(phone, task.params["number"], sms.GLITCH)  # answering the question is not resending
    assert not task.check(phone.state())
    phone = started(task)
    text(phone, task.params["number"], task.params["message"])
    phone.perform(home())
    phone.tick()
    assert task.check(phone.state())  # AndroidWorld's resend check reads the sent table only
    text(phone, task.params["number"], task.params["message"])
    assert not task.check(phone.state())  # two more texts, not one


def test_received_address_goes_to_name1_not_back_to_name2() -> None:
    task = ADDRESS.tasks("test")[0]
    p = task.params
    phone = started(task)
    (thread,) = threads(phone)
    assert (thread["name"], thread["messages"][-1]["text"]) == (p["name2"], p["message"])
    text(phone, p["number2"], p["message"])
    assert not task.check(phone.state())
    phone = started(task)
    text(phone, p["number"], p["message"])
    assert task.check(phone.state())


@pytest.mark.parametrize("template", sms.TEMPLATES, ids=lambda t: t.name)
def test_numbers_and_messages_are_drawn_as_androidworld_draws_them(template: sms.AndroidWorldTemplate) -> None:
    values = template.values("train") + template.values("test")
    for p in values:
        assert p["number"].startswith("+1") and len(p["number"]) == 12 and p["number"][1:].isdigit()
        assert p["message"] in (sms.ADDRESSES if template is ADDRESS else sms.MESSAGES)
    if template is RECENT:
        assert {len(p["texts"]) for p in values} == set(range(1, 7))
        assert all(m["text"] != p["message"] for p in values for m in p["texts"])
    if template is REPLY:
        assert {len(p["texts"]) for p in values} <= set(range(2, 7))
        assert all(sum(m["number"] == p["number"] for m in p["texts"]) == 1 for p in values)
