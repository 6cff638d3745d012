"""AndroidWorld's Simple Draw Pro task `SimpleDrawProCreateDrawing` ("Create a new drawing in Simple Draw Pro. Name it
{file_name}. Save it in the Pictures folder within the sdk_gphone_x86_64 storage area.").

AndroidWorld draws the name as one of 8 placeholder words, "_", a random file name (an adjective and a noun with one
affix: `markor.random_file_name`, its 2023 dates rebased onto the 287 days before the sim's 2026-06-10) and one of
".png", ".svg", ".jpg"; it clears the device's storage, and wins when a file of exactly that name is in Pictures
(the drawing's content is never read). Simple Draw Pro's Save as dialog takes the name without its extension and
a format that adds it, so the win is the stem typed and the format picked, in Pictures: a name with the extension
typed into it ("x.png.png"), another format, or another folder loses, as on AndroidWorld.

Here storage holds no image at the start either (`seeded: False`); the check reads the app's files: the one at
"Pictures/{file_name}". AndroidWorld leaves the folder the dialog opens on to what the app last saved to; here it is
drawn per instance (Pictures for half of them, else Download, Documents or DCIM), so the folder may need picking.
"""  # noqa: D205, D209

from __future__ import annotations

import random
from typing import Any

from android_gym.actions import Action
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.markor import random_file_name
from android_gym.tasks.expert import wait
from android_gym.tasks.world.base import Elements, Params, State
from android_gym.tasks.world.draw_expert import DRAW, draw_state, file_at, save_drawing, stroke, to_canvas

WORDS = ("lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit")
"""AndroidWorld's placeholder words, one of which starts every name."""
EXTENSIONS = (".png", ".svg", ".jpg")
STARTS = ("Pictures", "Pictures", "Pictures", "Download", "Documents", "DCIM")
"""The folders the Save dialog may open on (Pictures for half of the instances)."""


class SimpleDrawProCreateDrawing(AndroidWorldTemplate):
    """Save a drawing as Pictures/{file_name}: the stem typed, the format picked, the folder Pictures."""

    name, split_key = "SimpleDrawProCreateDrawing", "file_name"
    goal_template = ("Create a new drawing in Simple Draw Pro. Name it {file_name}. Save it in the Pictures folder "
                     "within the sdk_gphone_x86_64 storage area.")
    apps = (DRAW,)
    max_steps = 17  # the expert takes 8-11 steps (two more when the dialog opens on another folder; one more to find
    # the app in a 32-app drawer)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A word, "_", a random file name, an extension (AndroidWorld's); the dialog's folder (not AndroidWorld's)."""
        return {"file_name": f"{pick(rng, WORDS)}_{random_file_name(rng)}{pick(rng, EXTENSIONS)}",
                "start": pick(rng, STARTS)}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No image in storage (AndroidWorld clears it); the dialog opens on the instance's folder."""
        return {DRAW: {"seeded": False, "folder": params["start"]}}

    def check(self, params: Params, state: State) -> bool:
        """An image named exactly {file_name} is in Pictures."""
        return file_at(state, f"Pictures/{params['file_name']}") is not None

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """A stroke on the canvas, Save: Pictures, the format, the stem, OK."""
        if file_at(state, f"Pictures/{params['file_name']}") is not None:
            return wait()
        if not draw_state(state)["canvas"]:
            return to_canvas(elements, state) or stroke(elements)
        return save_drawing(params["file_name"], "Pictures", elements, state)


TEMPLATES = (SimpleDrawProCreateDrawing(),)
