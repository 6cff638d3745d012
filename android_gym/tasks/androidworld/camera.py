"""AndroidWorld's Camera tasks: `CameraTakePhoto` ("Take one photo.") and `CameraTakeVideo` ("Take one video.").

AndroidWorld draws no parameters for them and counts the new files in the photo or video folder (exactly one). Here
an instance is how the camera starts (its mode, the camera it faces, whether it asks for permission first: the World
templates' `variant`), and the check reads the camera's captures: exactly one, finished, of that kind, from either
camera and in any mode (the goal names neither), and no other capture (a photo besides the video fails, as a second
file in AndroidWorld's folder does). The World templates' experts play them (with the back camera).
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.sim.app_state import state_of
from android_gym.sim.apps import camera
from android_gym.tasks.androidworld.base import AndroidWorldTemplate
from android_gym.tasks.world.base import Params, State
from android_gym.tasks.world.media_tasks import RecordVideoTemplate, TakePhotoTemplate

STARTS = 60
"""Camera starts drawn from (the World templates' `variant`: mode, facing and permission follow from it)."""


class CameraTakePhoto(AndroidWorldTemplate):
    """Take one photo: one photo from the back camera, whatever mode and camera the app starts in."""

    name, goal_template, split_key = "CameraTakePhoto", "Take one photo.", "variant"
    like = TakePhotoTemplate()
    max_steps = 10  # the expert takes 3-5 steps for one photo (`like` budgets for up to three)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """How the camera starts (AndroidWorld's task has no parameters)."""
        return {"variant": rng.randrange(STARTS)}

    def world_params(self, params: Params) -> dict[str, Any]:
        """One photo, the camera started as drawn."""
        return {"count": 1, "variant": params["variant"]}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one photo taken, with either camera."""
        return one_capture(state, "photo")


class CameraTakeVideo(AndroidWorldTemplate):
    """Take one video: one finished video from the back camera, whatever mode and camera the app starts in."""

    name, goal_template, split_key = "CameraTakeVideo", "Take one video.", "variant"
    like = RecordVideoTemplate()

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """How the camera starts (AndroidWorld's task has no parameters)."""
        return {"variant": rng.randrange(STARTS)}

    def world_params(self, params: Params) -> dict[str, Any]:
        """A back-camera video, the camera started as drawn."""
        return {"facing": "back", "variant": params["variant"]}

    def check(self, params: Params, state: State) -> bool:
        """Exactly one video recorded and stopped, with either camera."""
        return one_capture(state, "video")


def one_capture(state: State, kind: str) -> bool:
    """Exactly one capture this episode, a finished `kind` (any camera, any mode)."""
    cam = state_of(state, camera.CameraState)
    return len(cam["captures"]) == 1 and cam["captures"][0]["kind"] == kind and not cam["recording"]


TEMPLATES = (CameraTakePhoto(), CameraTakeVideo())
