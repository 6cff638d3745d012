"""Tests of the World suite's chained templates: merged set-ups, splits per part, experts under perturbations, and a
check that wants every part done (the first part alone, or the last part alone, is not enough)."""  # noqa: D205, D209

from __future__ import annotations

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.tasks.base import Task
from android_gym.tasks.world import chained_tasks as ct
from android_gym.tasks.world import messaging_tasks as msg
from android_gym.tasks.world import people_tasks as people
from android_gym.testing.rollout import run_episode


def test_merge_initial_merges_dicts_concatenates_lists_and_refuses_a_clash() -> None:
    a = {"com.a": {"contacts": {"add": [1]}}, "system": {"wifi": True}}
    b = {"com.a": {"contacts": {"add": [2]}}, "com.b": {"emails": [3]}, "system": {"wifi": True}}
    assert ct.merge_initial(a, b) == {"com.a": {"contacts": {"add": [1, 2]}}, "system": {"wifi": True},
                                      "com.b": {"emails": [3]}}
    with pytest.raises(ValueError, match="system.wifi"):
        ct.merge_initial(a, {"system": {"wifi": False}})


def test_a_chain_needs_two_or_three_parts_won_by_the_state() -> None:
    with pytest.raises(ValueError, match="2 or 3 parts"):
        ct.ChainedTemplate(people.AddContactTemplate())
    from android_gym.tasks.world.answer_tasks import ContactNumberAnswerTemplate

    with pytest.raises(ValueError, match="won by the state"):
        ct.ChainedTemplate(people.AddContactTemplate(), ContactNumberAnswerTemplate())


@pytest.mark.parametrize("template", ct.TEMPLATES, ids=lambda t: t.name)
def test_values_combine_the_parts_values_of_the_same_split(template: ct.ChainedTemplate) -> None:
    for split in ("train", "test"):
        values = template.values(split)
        assert 1 <= len(values) <= ct.PAIRS_PER_SPLIT
        for params in values:  # a part whose few goals all train lends them to test (issue 50), beside a test part
            pairs = list(zip(template.parts, params["parts"], strict=True))
            assert all(p in (part.values(split) or part.values("train")) for part, p in pairs)
            assert split == "train" or any(p in part.values("test") for part, p in pairs)
    goal = template.goal(template.values("train")[0])
    assert all(part.goal(p).rstrip(".") in goal for part, p in zip(template.parts, template.values("train")[0]["parts"],
                                                                    strict=True))
    assert template.tier == "hard" and len(template.apps) >= 2 and "cross-app" in template.tags


@pytest.mark.parametrize("level", ["default", "hard"])
@pytest.mark.parametrize("template", ct.TEMPLATES, ids=lambda t: t.name)
def test_expert_solves_train_and_test_under_perturbations(template: ct.ChainedTemplate, level: str) -> None:
    for seed, split in enumerate(("train", "test")):
        tasks = template.tasks(split)
        task = tasks[(seed * 13) % len(tasks)]
        assert run_episode(task, seed=seed + 21, perturbations=level).success, f"{task} seed {seed + 21}"


def test_the_first_part_alone_or_the_last_part_alone_does_not_win() -> None:
    chain = next(t for t in ct.TEMPLATES if t.name == "add_contact_then_send_text")
    task = chain.tasks("train")[0]
    first, last = (Task(part, p) for part, p in zip(chain.parts, task.params["parts"], strict=True))
    device = SimDevice("none")
    device.reset(3, task.initial)
    for _ in range(first.max_steps):  # the first part only
        device.perform(first.expert_action(device.ui_elements(), device.state()))
        device.tick()
        if first.check(device.state()):
            break
    assert first.check(device.state()) and not task.check(device.state())
    device.reset(3, task.initial)
    episode = run_episode(last, seed=3, device=device)  # the last part only, on its own set-up
    assert episode.success and not task.check(device.state())


def test_parts_run_on_one_phone_in_order() -> None:
    chain = next(t for t in ct.TEMPLATES if t.name == "add_contact_then_send_email")
    assert isinstance(chain.parts[0], people.AddContactTemplate) and isinstance(chain.parts[1], msg.SendEmailTemplate)
    episode = run_episode(chain.tasks("test")[0], seed=5)
    assert episode.success and episode.steps > 15
