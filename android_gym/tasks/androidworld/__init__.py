"""AndroidWorld's tasks on the simulated phone (issue 48): the `androidworld` suite (`gym.make(
"android_gym/AndroidWorld-v0")`), one template per AndroidWorld task, named, phrased and parameterised as AndroidWorld
has it (`base.AndroidWorldTemplate`); `catalogue.ANDROIDWORLD_TASKS` names all 116, and docs/ANDROIDWORLD.md maps each
one to the simulator."""  # noqa: D205, D209

from __future__ import annotations

from android_gym.tasks.androidworld import (
    audio_recorder,
    browser,
    calendar,
    calendar_events,
    calendar_questions,
    calendar_questions2,
    calendar_repeat,
    camera,
    clipboard,
    clock,
    contacts,
    contacts_draft,
    expenses,
    files,
    joplin,
    markor,
    markor_edit,
    markor_newest,
    open_app,
    opentracks,
    osmand,
    pictures,
    recipes,
    recipes_add,
    recipes_delete,
    retro_music,
    simple_draw_pro,
    sms,
    system,
    system_composite,
    tasks_questions,
    vlc,
)
from android_gym.tasks.base import TaskTemplate

ANDROIDWORLD_TEMPLATES: tuple[TaskTemplate, ...] = (
    *audio_recorder.TEMPLATES, *recipes.TEMPLATES, *recipes_delete.TEMPLATES, *recipes_add.TEMPLATES,
    *camera.TEMPLATES, *clock.TEMPLATES, *contacts.TEMPLATES, *files.TEMPLATES, *markor.TEMPLATES,
    *markor_edit.TEMPLATES, *expenses.TEMPLATES, *system.TEMPLATES, *open_app.TEMPLATES, *calendar.TEMPLATES,
    *system_composite.TEMPLATES, *calendar_events.TEMPLATES, *calendar_questions.TEMPLATES,
    *calendar_questions2.TEMPLATES, *sms.TEMPLATES, *tasks_questions.TEMPLATES,
    *simple_draw_pro.TEMPLATES, *browser.TEMPLATES,
    *opentracks.TEMPLATES,
    *joplin.TEMPLATES,
    *clipboard.TEMPLATES, *contacts_draft.TEMPLATES, *calendar_repeat.TEMPLATES,
    *pictures.TEMPLATES,
    *retro_music.TEMPLATES,
    *vlc.TEMPLATES,
    *osmand.TEMPLATES,
    *markor_newest.TEMPLATES,
)
"""The suite, by app in docs/ANDROIDWORLD.md's order, each app's tasks in AndroidWorld's registry order."""
