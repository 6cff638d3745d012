"""World-suite tasks on local HTML pages opened in Chrome from Files (issue 48): walk a maze to its goal, multiply
the numbers a page shows, draw with a page's three colours, and answer how many walls the maze has.

Each task puts "Download/task.html" in Files and tells Chrome what it holds (`html_expert.page_initial`): the page
kind and a seed drawn as AndroidWorld draws it (0..2**32-1). The three page tasks are won as AndroidWorld's are: the
page shows "Success!" in Chrome in front (`won`); a maze left short of its goal, a wrong product or a colour missing
from the drawing does not show it. The answer is the number of the maze's wall cells (the page tells each cell's
kind). Splits hold out seeds.
"""  # noqa: D205, D209

from __future__ import annotations

from typing import Any

from android_gym.actions import Action, ActionType
from android_gym.sim.app import stable_seed
from android_gym.sim.web import local as L
from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State, WorldTemplate
from android_gym.tasks.world.html_expert import (
    CHROME,
    FILES,
    colors_step,
    maze_step,
    multiply_step,
    open_page,
    page_initial,
    won,
)

OPEN = "Open task.html from the Download folder in Files, with Chrome"


class PageTemplate(WorldTemplate):
    """A task on the local page of kind `kind`: one instance per seed, split on the seed."""

    split_key = "key"
    apps = (FILES, CHROME)
    kind = "maze"
    seeds = 32

    def grid(self) -> list[dict[str, Any]]:
        """`seeds` seeds of 0..2**32-1, phrasings rotating."""
        out = []
        for k in range(self.seeds):
            seed = stable_seed("world-html", self.kind, k)
            out.append({"seed": seed, "key": str(seed), "phrasing": k})
        return out

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The task's file in Download, holding the page of the seed."""
        return page_initial(self.kind, params["seed"])

    def check(self, params: Params, state: State) -> bool:
        """The page shows "Success!" in Chrome in front."""
        return won(state)


class MazeTemplate(PageTemplate):
    """Walk the page's maze to its goal with the direction buttons."""

    name, max_steps = "html_maze", 19
    phrasings = (OPEN + ", then move the X to the bottom-right cell of the maze using the direction buttons",
                 "Solve the maze in task.html (in Download; open it in Chrome from Files): get the X to the green "
                 "bottom-right cell",
                 "In Files, open Download/task.html with Chrome and steer the X through the maze to its goal")

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the page; move along the shortest way."""
        return open_page(elements, state) or maze_step(elements, state)


class MultiplyTemplate(PageTemplate):
    """Click the page's button five times, remember its numbers, submit their product."""

    name, max_steps, kind = "html_multiply", 22, "multiply"
    phrasings = (OPEN + ". Click its button 5 times, remember the numbers it shows and enter their product in the "
                 "form",
                 "Open task.html (Download folder) in Chrome via Files, note the five numbers its button reveals and "
                 "submit their product",
                 "Use Files to open Download/task.html in Chrome; multiply the numbers the page shows as you click "
                 "and submit the result")

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the page; click through the numbers; type the product; Submit."""
        return open_page(elements, state) or multiply_step(elements, state)


class ColorsTemplate(PageTemplate):
    """Draw on the page's canvas with each of its three target colours and submit."""

    name, max_steps, kind = "html_colors", 21, "colors"
    phrasings = (OPEN + ", then make a drawing using the three colours shown at the top and hit Submit",
                 "Open task.html from Download in Chrome (through Files), draw with each of the page's three target "
                 "colours and submit",
                 "In Chrome, via Files' Download folder, open task.html: use all three colours at the top in a "
                 "drawing, then press Submit")

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the page; for each target colour its palette button and a stroke; Submit."""
        return open_page(elements, state) or colors_step(elements, state)


class MazeWallsTemplate(PageTemplate):
    """How many wall cells has the page's maze? Answered from the maze's cells."""

    name, max_steps = "html_maze_walls", 12
    outcome = "answer"
    phrasings = ("Open task.html from Download in Chrome (via Files): how many wall cells does its maze have?",
                 "Look at the maze in Download/task.html (open it with Chrome from Files). How many of its cells "
                 "are walls?",
                 "In the maze page task.html (Download folder, open with Chrome), count the black wall cells")

    def answer(self, params: Params, state: State) -> str | None:
        """The number of walls of the seed's maze."""
        return str(sum(row.count("#") for row in L.maze(params["seed"])))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """Open the page; count the cells that say they are walls."""
        step = open_page(elements, state)
        if step is not None:
            return step
        walls = [e for e in elements if e.desc.endswith(": wall")]
        return Action(ActionType.STATUS_TASK_COMPLETE, text=str(len(walls))) if walls else wait()


TEMPLATES: tuple[TaskTemplate, ...] = (MazeTemplate(), MultiplyTemplate(), ColorsTemplate(), MazeWallsTemplate())
"""The local HTML page templates of the world suite."""
