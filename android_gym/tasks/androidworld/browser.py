"""AndroidWorld's browser tasks `BrowserDraw`, `BrowserMaze` and `BrowserMultiply`: a local page "task.html" in
Download, opened from the file manager with Chrome, then played.

AndroidWorld draws one parameter, `browser_task_seed` (0..2**32-1), writes the page with it into Download, clears
Chrome's data, and wins when Chrome is in front and some element of the screen reads "Success!". Its goals are a
preamble ("Open the file task.html in Downloads in the file manager; when prompted open it with Chrome.") and the
page's task. Here the seed is drawn the same way and the page (`android_gym.sim.web.local`: a maze, the numbers to
multiply, the colours to draw with) is built from it; the World templates of `html_tasks` play and check an
instance: their check is that the task's page shows "Success!" in Chrome in front, which it does only when the X is
on the goal, the submitted product is right, or every target colour is in the drawing when Submit was pressed.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.tasks.androidworld.base import AndroidWorldTemplate
from android_gym.tasks.world.base import Params
from android_gym.tasks.world.html_tasks import ColorsTemplate, MazeTemplate, MultiplyTemplate

PREAMBLE = "Open the file task.html in Downloads in the file manager; when prompted open it with Chrome."


class _BrowserTask(AndroidWorldTemplate):
    """A page of a seed drawn in 0..2**32-1, played and checked by the World template of its kind."""

    split_key = "browser_task_seed"

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """AndroidWorld's `browser_task_seed`."""
        return {"browser_task_seed": rng.randint(0, 2**32 - 1)}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The page of that seed."""
        seed = params["browser_task_seed"]
        return {"seed": seed, "key": str(seed), "phrasing": 0}


class BrowserDraw(_BrowserTask):
    """Draw with the page's three colours and submit."""

    name = "BrowserDraw"
    goal_template = PREAMBLE + " Then create a drawing using the three colors shown at the top and hit submit."
    like = ColorsTemplate()


class BrowserMaze(_BrowserTask):
    """Walk the maze's X to the bottom-right cell."""

    name = "BrowserMaze"
    goal_template = PREAMBLE + " Then navigate the X to the bottom-right cell, by using the direction buttons."
    like = MazeTemplate()


class BrowserMultiply(_BrowserTask):
    """Click five times, remember the numbers, submit their product."""

    name = "BrowserMultiply"
    goal_template = (PREAMBLE + " Then click the button 5 times, remember the numbers displayed, and enter their "
                     "product in the form.")
    like = MultiplyTemplate()


TEMPLATES = (BrowserDraw(), BrowserMaze(), BrowserMultiply())
