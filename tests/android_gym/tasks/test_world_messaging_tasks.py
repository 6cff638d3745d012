"""Tests of the Messages and Gmail templates of the world suite: splits, goals, experts under perturbations, the
reset guard, and near misses (the wrong person, the wrong email, part of the job) that must not count."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import gmail as G
from android_gym.sim.apps import messages as M
from android_gym.sim.apps import with_apps
from android_gym.tasks.base import Task
from android_gym.tasks.expert import wait
from android_gym.tasks.world import messaging_expert as E
from android_gym.tasks.world import messaging_tasks as T
from android_gym.testing.rollout import ActionSource, run_episode
from android_gym.testing.template_checks import sample

APPS = with_apps(M.MessagesApp, G.GmailApp)
BY_NAME = {t.name: t for t in T.TEMPLATES}


def until_done(other: Task) -> ActionSource:
    """`other`'s expert, which then waits (an expert never stops by itself: its episode ends on success)."""
    def act(elements: Any, state: Mapping[str, Any]) -> Action:
        return wait() if other.check(state) else other.expert_action(elements, state)
    return act


def test_the_suite_has_the_asked_shape() -> None:
    """At least 7 templates in the world suite, names unique, two or more spanning both apps."""
    names = [t.name for t in T.TEMPLATES]
    assert len(names) >= 7 and len(set(names)) == len(names) and {t.suite for t in T.TEMPLATES} == {"world"}
    both = [t for t in T.TEMPLATES if all(pkg in t.initial(t.values("train")[0]) for pkg in (M.PACKAGE, G.PACKAGE))]
    assert len(both) >= 2


def test_the_expert_needs_ten_or_more_steps_on_several_templates() -> None:
    """Several templates are long (10+ expert steps without perturbations); budgets are about 1.5x plus 3."""
    long = 0
    for template in T.TEMPLATES:
        steps = [run_episode(task, seed=1, device=SimDevice("none", apps=APPS)).steps
                 for task in template.tasks("train")[:6]]  # every variant of the first keys
        assert template.max_steps >= 1.5 * max(steps) + 2, template.name
        long += max(steps) >= 10
    assert long >= 3


NEAR_MISSES: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "send_text": lambda p: {**p, "name": E.namesake(p["name"]), "existing": True},
    "text_two_people": lambda p: {**p, "other": E.namesake(p["other"])},
    "reply_text": lambda p: {**p, "name": E.namesake(p["name"])},
    "delete_conversation": lambda p: {**p, "name": E.namesake(p["name"])},
    "read_last_text": lambda p: {**p, "name": E.namesake(p["name"])},
    "send_email": lambda p: {**p, "to": E.namesake(p["to"])},
    "reply_email": lambda p: {**p, "sender": E.namesake(p["sender"])},
    "forward_email": lambda p: {**p, "subject": p["twin"]},
    "archive_email": lambda p: {**p, "subject": p["twin"]},
    "read_email": lambda p: {**p, "sender": E.namesake(p["sender"])},
    "text_email_address": lambda p: {**p, "other": E.namesake(p["other"])},
    "email_last_text": lambda p: {**p, "to": E.namesake(p["to"])},
}
"""Per template, the parameters of a near miss that the task's own set-up holds (a namesake, the twin subject)."""


@pytest.mark.parametrize("name", sorted(NEAR_MISSES))
def test_a_near_miss_does_not_solve(name: str) -> None:
    """Solving the near miss (with the task's own distractors) meets the near miss's check, never the task's."""
    template = BY_NAME[name]
    for seed, task in enumerate(sample(template, "train", 2) + sample(template, "test", 1)):
        wrong = Task(template, NEAR_MISSES[name](task.params), task.split)
        device = SimDevice("none", apps=APPS)
        episode = run_episode(task, seed=seed, device=device, policy=until_done(wrong))
        assert not episode.success and wrong.check(device.state()), f"{task} seed {seed}"


def test_part_of_the_job_does_not_solve() -> None:
    """Reading one unread conversation does not mark all read; texting one of two people is not texting both; a
    second email, or a body with other words, spoils an email task."""  # noqa: D205, D209
    mark = T.MarkAllReadTemplate().tasks("train")[0]
    device = SimDevice("none", apps=APPS)
    one = Task(T.LastTextTemplate(), {"name": mark.params["senders"][0], "phrasing": 0})
    assert not run_episode(mark, seed=0, device=device, policy=until_done(one)).success
    assert one.check(device.state())

    two = T.TextTwoTemplate().tasks("train")[0]
    first = Task(T.SendTextTemplate(), {"name": two.params["name"], "text": two.params["text"], "phrasing": 0,
                                        "existing": True})
    device = SimDevice("none", apps=APPS)
    assert not run_episode(two, seed=0, device=device, policy=until_done(first)).success
    assert first.check(device.state())

    send = T.SendEmailTemplate().tasks("train")[0]
    other_body = Task(send.template, {**send.params, "body": "Something else entirely"})
    device = SimDevice("none", apps=APPS)
    assert not run_episode(send, seed=0, device=device, policy=until_done(other_body)).success
    state = device.state()
    assert other_body.check(state)
    twice = {**state, "apps": {**state["apps"], G.PACKAGE: {**state["apps"][G.PACKAGE], "sent": [
        {**state["apps"][G.PACKAGE]["sent"][0], "body": send.params["body"]}] * 2}}}
    assert not send.check(twice) and send.check({**twice, "apps": {**twice["apps"], G.PACKAGE: {
        **twice["apps"][G.PACKAGE], "sent": twice["apps"][G.PACKAGE]["sent"][:1]}}})


def test_words_and_people_helpers() -> None:
    """Punctuation and case do not matter; task people are fixed by name; a namesake shares only the first name."""
    assert E.words("Can we move dinner to 8?") == E.words("can we move dinner to 8")
    assert E.words("Dinner is ready.") != E.words("Dinner is not ready")
    assert E.person("Maya Novak") == E.person("Maya Novak") and E.person("Maya Novak") != E.person("Maya Weber")
    twin = E.namesake("Maya Novak")
    assert twin.split()[0] == "Maya" and twin != "Maya Novak"
