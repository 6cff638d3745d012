"""Tests of the Camera and Photos templates of the world suite: splits, phrasings, experts under perturbations, no
task solved at reset, and near misses (another photo, camera, album or mode) that must not succeed."""  # noqa: D205, D209

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from android_gym.actions import Action
from android_gym.devices.sim import SimDevice
from android_gym.sim.apps import with_apps
from android_gym.sim.apps.camera import CameraApp
from android_gym.sim.apps.gallery import IMAGE_RID, GalleryApp
from android_gym.sim.apps.gallery_media import describe
from android_gym.tasks.base import Task
from android_gym.tasks.expert import back, find, tap
from android_gym.tasks.world import media_expert
from android_gym.tasks.world import media_tasks as media
from android_gym.testing.rollout import run_episode
from android_gym.ui import UIElement

APPS = with_apps(CameraApp, GalleryApp)
Policy = Callable[[Sequence[UIElement], Mapping[str, Any]], Action]
BY_NAME = {t.name: t for t in media.TEMPLATES}


def device(level: str = "none") -> SimDevice:
    """A simulated phone with the Camera and Photos apps."""
    return SimDevice(level, apps=APPS)


def test_the_module_has_enough_templates_of_each_kind() -> None:
    """At least seven templates, with cross-app and information-retrieval ones, all in the world suite."""
    assert len(media.TEMPLATES) >= 7 and all(t.suite == "world" for t in media.TEMPLATES)
    assert len(BY_NAME) == len(media.TEMPLATES)
    assert {"photo_to_favorites", "selfie_to_album", "photos_to_new_album", "show_photo"} <= set(BY_NAME)


# -- near misses -------------------------------------------------------------------------------------------------------
def fails(task: Task, policy: Policy) -> bool:
    """Whether `policy` plays `task` for its whole budget without the check ever holding."""
    return not run_episode(task, seed=2, policy=policy, device=device()).success


def expert_of(name: str, params: Mapping[str, Any]) -> Policy:
    """Template `name`'s expert for other parameters."""
    return lambda elements, state: BY_NAME[name].expert(params, elements, state)


def test_camera_near_misses_fail() -> None:
    """A back photo is no selfie, a Photo-mode selfie is no portrait selfie, a video from the other camera or a photo
    is no video, and a selfie is no "photo"."""  # noqa: D205, D209
    selfie = Task(BY_NAME["take_selfie"], {"portrait": False, "variant": 1})
    portrait = Task(BY_NAME["take_selfie"], {"portrait": True, "variant": 1})
    video = Task(BY_NAME["record_video"], {"facing": "back", "variant": 2})
    photo = Task(BY_NAME["take_photo"], {"count": 1, "variant": 1})
    assert fails(selfie, expert_of("take_photo", {"count": 1, "variant": 1}))
    assert fails(portrait, expert_of("take_selfie", {"portrait": False, "variant": 1}))
    assert fails(video, expert_of("record_video", {"facing": "front", "variant": 2}))
    assert fails(video, expert_of("take_photo", {"count": 1, "variant": 2}))
    assert fails(photo, expert_of("take_selfie", {"portrait": False, "variant": 1}))


def test_an_extra_photo_spoils_a_counted_goal() -> None:
    """Two photos when one was asked: the check fails once the second is taken."""
    task = Task(BY_NAME["take_photo"], {"count": 1, "variant": 0})
    phone = device()
    assert run_episode(task, seed=4, device=phone).success
    shutter = find(phone.ui_elements(), desc="Take photo")
    phone.perform(tap(shutter))
    assert len(phone.state()["apps"][media_expert.CAMERA]["captures"]) == 2 and not task.check(phone.state())


def test_cross_app_near_misses_fail() -> None:
    """A selfie starred instead of a back photo; the selfie filed in the "<album> 2025" album; the two photos put in
    the near-miss album instead of a new one."""  # noqa: D205, D209
    favourite = Task(BY_NAME["photo_to_favorites"], {"phrasing": 0, "variant": 1})
    template = BY_NAME["photo_to_favorites"]

    def starred_selfie(elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        if not state["apps"][media_expert.CAMERA]["captures"]:
            return media_expert.shoot("Photo", "front", elements, state)
        return template.expert({}, elements, state)

    assert fails(favourite, starred_selfie)
    album = Task(BY_NAME["selfie_to_album"], {"album": "Picnic", "variant": 2})
    assert fails(album, expert_of("selfie_to_album", {"album": "Picnic 2025", "variant": 2}))
    new = Task(BY_NAME["photos_to_new_album"], {"album": "Camping", "variant": 1})
    assert fails(new, expert_of("photos_to_new_album", {"album": "Camping 2025", "variant": 1}))


@pytest.mark.parametrize("name", ["favorite_photo", "show_photo", "add_photo_to_album", "restore_photo"])
def test_the_same_day_near_miss_photo_does_not_solve(name: str) -> None:
    """Acting on the other photo of the asked day (same minute, another hour) leaves the task unsolved."""
    template = BY_NAME[name]
    task = template.tasks("train")[5]
    target, near = template.day(task.params)[:2]
    hour = int(near["date"][11:13])
    assert target["date"][:10] == near["date"][:10] and hour != task.params["hour"]
    phone = device()
    episode = run_episode(task, seed=3, policy=expert_of(name, {**task.params, "hour": hour}), device=phone)
    assert not episode.success
    state = phone.state()["apps"][media_expert.PHOTOS]
    assert state["open"] == near["name"] or near["name"] in state["changed"]


def test_album_and_day_near_misses_fail() -> None:
    """An album of part of the day, or under the near-miss name, is not the asked album; starring one photo of the
    day is not starring them all; trashing the older photo is not deleting the latest."""  # noqa: D205, D209
    create = BY_NAME["create_album"]
    task = create.tasks("train")[3]
    day = [(it["name"], it["date"]) for it in create.initial(task.params)[media_expert.PHOTOS]["items"]]
    assert fails(task, lambda e, s: media_expert.new_album(task.params["album"], day[:-1], e, s))
    assert fails(task, lambda e, s: media_expert.new_album(f"{task.params['album']} 2025", day, e, s))
    every = BY_NAME["favorite_day"].tasks("train")[2]
    assert fails(every, expert_of("favorite_photo", every.params))
    latest = Task(BY_NAME["delete_latest_photo"], {"hour": 9, "minute": 5, "video_newer": True, "phrasing": 0})
    assert fails(latest, expert_of("delete_latest_photo", {**latest.params, "hour": 8}))


def test_an_extra_edit_spoils_a_solved_photos_task() -> None:
    """Starring a second photo after the asked one makes the check fail (only the asked items may change)."""
    task = BY_NAME["favorite_photo"].tasks("test")[0]
    phone = device()
    assert run_episode(task, seed=6, device=phone).success
    phone.perform(back())
    asked = describe({"kind": "photo", "date": BY_NAME["favorite_photo"].date(task.params)})
    other = next(e for e in phone.ui_elements() if e.rid == IMAGE_RID and e.desc != asked)
    phone.perform(tap(other))
    star = find(phone.ui_elements(), desc="Add to favorites") or find(phone.ui_elements(),
                                                                    desc="Remove from favorites")
    phone.perform(tap(star))
    assert not task.check(phone.state())
