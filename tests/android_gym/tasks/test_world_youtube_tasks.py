"""Tests of the World suite's YouTube templates beyond the contract: each loses to its near miss (the twin video
answered, liked, saved or subscribed to; another channel's title, another person, the runner-up emailed), answers
accept a figure with or without its unit, the checks refuse extra changes, and a video's own title finds its list."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import youtube
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world import youtube_tasks as T
from android_gym.tasks.world.messaging_expert import namesake
from android_gym.testing import template_checks as checks
from android_gym.testing.rollout import run_episode
from android_gym.testing.template_checks import playing

VIEWS, CHANNEL, LENGTH, LIKE, LATER, SUBSCRIBE, TEXT, MAIL = T.TEMPLATES


@cache
def device() -> SimDevice:
    """One unperturbed phone for the module (each test resets it)."""
    return SimDevice("none")


def twin(p: dict) -> str:
    """The twin video's title."""
    return p["twin"]


def next_channel(p: dict) -> str:
    """Another channel than the task's."""
    return T.CHANNELS[(T.CHANNELS.index(p["channel"]) + 1) % len(T.CHANNELS)]


@pytest.mark.parametrize(("template", "near_misses"), [
    (VIEWS, [playing(VIEWS, title=twin)]),
    (CHANNEL, [playing(CHANNEL, title=twin)]),
    (LENGTH, [playing(LENGTH, title=twin)]),
    (LIKE, [playing(LIKE, title=twin)]),
    (LATER, [playing(LATER, title=twin)]),
    (SUBSCRIBE, [playing(SUBSCRIBE, title=twin)]),
    (TEXT, [playing(TEXT, channel=next_channel), playing(TEXT, person="Dana Whitfield")]),
    (MAIL, [playing(MAIL, title=twin), playing(MAIL, person=lambda p: namesake(p["person"]))]),
], ids=lambda x: x.name if isinstance(x, TaskTemplate) else "")
def test_near_misses_lose(template: TaskTemplate, near_misses: list) -> None:
    checks.check_near_misses(template, device(), near_misses)


def test_the_expert_wins_an_answer_and_an_edit() -> None:
    for template in (VIEWS, LATER):
        assert run_episode(template.tasks("test")[0], seed=2, device=device()).success


def test_answers_accept_units_and_refuse_other_figures() -> None:
    p = VIEWS.values("train")[0]
    assert VIEWS.answer_matches(p, "1.2M views", "1.2M") and VIEWS.answer_matches(p, "1.2 million", "1.2M")
    assert not VIEWS.answer_matches(p, "12M", "1.2M") and not VIEWS.answer_matches(p, "1.2K", "1.2M")
    assert LENGTH.answer_matches(p, "12:05 minutes", "12:05") and not LENGTH.answer_matches(p, "12:50", "12:05")
    assert CHANNEL.answer_matches(p, "maker lab", "Maker Lab") and not CHANNEL.answer_matches(p, "Maker", "Maker Lab")


def yt(**fields: Any) -> dict[str, Any]:
    """A device state whose YouTube reports `fields`, nothing else done."""
    base = {"page": None, "query": None, "loading": False, "playing": None, "subscriptions": [], "liked": [],
            "watch_later": [], "watched": []}
    return {"apps": {youtube.PACKAGE: {**base, **fields}}}


def test_the_checks_refuse_extra_changes() -> None:
    p = LIKE.values("test")[0]
    title, channel = p["title"], LIKE.video(p)["channel"]
    assert LIKE.check(p, yt(liked=[title])) and not LIKE.check(p, yt(liked=[title], watch_later=[title]))
    assert not LIKE.check(p, yt(liked=[title, p["twin"]]))
    assert LATER.check(p, yt(watch_later=[title])) and not LATER.check(p, yt(watch_later=[title], liked=[title]))
    s = SUBSCRIBE.values("test")[0]
    channel = SUBSCRIBE.video(s)["channel"]
    assert SUBSCRIBE.check(s, yt(subscriptions=[channel]))
    assert not SUBSCRIBE.check(s, yt(subscriptions=[channel, "NASA"]))
    assert VIEWS.answer(p, yt(liked=[title])) is None  # an answer read after changing YouTube is none


def test_searching_a_videos_title_lists_its_topic() -> None:
    video = youtube.videos("origami")[4]
    again = youtube.videos(video["title"].upper().replace("|", " "))
    assert [v["title"] for v in again] == [v["title"] for v in youtube.videos("origami")]
