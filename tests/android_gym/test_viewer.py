"""`android-gym play` and the viewer: frames show the goal, the action drawn where it happened, and its caption."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from android_gym.actions import Action, ActionType
from android_gym.cli import main
from android_gym.viewer import MARK, annotate, describe


def marked(image: Image.Image) -> np.ndarray:
    """The (y, x) of the pixels in the mark colour."""
    return np.argwhere((np.asarray(image.convert("RGB")) == MARK).all(-1))


def test_a_tap_is_a_ring_at_its_point_and_a_swipe_an_arrow_along_it() -> None:
    """The mark sits where the finger went: around the tap point, along the swipe from touch to lift."""
    screen = np.full((400, 200, 3), 255, np.uint8)
    tap = annotate(screen, "Open Settings", "step 1", Action.tap(0.25, 0.5))
    top = int(np.argmax((np.asarray(tap)[:, 0] == 255).all(-1)))  # the first row of the (white) screen
    ys, xs = marked(tap).T
    assert abs(xs.mean() - 50) < 2 and abs(ys.mean() - top - 200) < 2 and ys.max() - ys.min() < 40
    swipe = annotate(screen, "Scroll", "step 2", Action.swipe(0.5, 0.8, 0.5, 0.2))
    ys, xs = marked(swipe).T
    assert abs(np.median(xs) - 100) < 3 and ys.max() - ys.min() > 200  # a vertical arrow most of the screen long
    assert not marked(annotate(screen, "Go home", "step 3", Action.key(ActionType.PRESS_HOME))).size


@pytest.mark.parametrize(("action", "text"), [
    (Action.swipe(0.5, 0.8, 0.5, 0.2), "swipe (0.50, 0.80) -> (0.50, 0.20)"),
    (Action(ActionType.STATUS_TASK_COMPLETE, text="42"), "declare done with answer '42'"),
    (Action(ActionType.OPEN_APP, text="Clock"), "open app 'Clock'"),
    (Action.key(ActionType.WAIT), "wait"),
    (Action.invalid("no action found"), "unparsable output: no action found"),
])
def test_captions_say_what_the_action_did(action: Action, text: str) -> None:
    """Each kind of action gets words a reader understands."""
    assert describe(action) == text


def test_play_writes_an_annotated_gif_strip_and_log(tmp_path, capsys) -> None:
    """The expert's episode: every frame has the bands, a tap frame is marked, the log has each step."""
    out = tmp_path / "play"
    assert main(["play", "--env", "General-v0", "--agent", "expert", "--out", str(out), "--task", "0",
                 "--seed", "3", "--width", "180"]) == 0
    records = [json.loads(line) for line in (out / "actions.jsonl").read_text().splitlines()]
    gif = Image.open(out / "episode.gif")
    assert gif.n_frames == len(records) + 1 and gif.width == 180 and gif.height > 180 * 2400 / 1080
    gif.seek(0)
    assert marked(gif).size  # the first action (a tap on the launcher) is drawn on the first screen
    assert Image.open(out / "strip.png").height == gif.height
    assert "success" in capsys.readouterr().out
