"""AndroidWorld's tasks on the simulated phone (issue 48): the `androidworld` suite (`gym.make(
"android_gym/AndroidWorld-v0")`), one template per AndroidWorld task, named, phrased and parameterised as AndroidWorld
has it (`base.AndroidWorldTemplate`); `catalogue.ANDROIDWORLD_TASKS` names all 116, and docs/ANDROIDWORLD.md maps each
one to the simulator."""  # noqa: D205, D209

from __future__ import annotations

from android_gym.tasks.androidworld import camera, contacts
from android_gym.tasks.base import TaskTemplate

ANDROIDWORLD_TEMPLATES: tuple[TaskTemplate, ...] = (*camera.TEMPLATES, *contacts.TEMPLATES)
"""The suite, in AndroidWorld's registry order within each app."""
