"""Task templates of the World suite (issue 17), on the phone's everyday apps: one module per app pair, each
exporting `TEMPLATES`; `WORLD_TEMPLATES` is the suite."""  # noqa: D205, D209

from __future__ import annotations

from android_gym.tasks.base import TaskTemplate
from android_gym.tasks.world import (
    anki_cross_tasks,
    anki_tasks,
    answer_tasks,
    calculator_tasks,
    calendar_tasks,
    chained_tasks,
    clipboard_tasks,
    clock_tasks,
    cross_media_tasks,
    cross_people_answer_tasks,
    cross_people_tasks,
    cross_places_tasks,
    draw_tasks,
    expenses_tasks,
    feeder_cross_tasks,
    feeder_tasks,
    files_tasks,
    habits_anki_long_tasks,
    habits_cross_tasks,
    habits_tasks,
    html_tasks,
    infeasible_tasks,
    joplin_tasks,
    media_cross_long_tasks,
    media_tasks,
    messaging_tasks,
    notes_tasks,
    opentracks_tasks,
    osmand_tasks,
    people_tasks,
    pictures_tasks,
    places_tasks,
    playstore_tasks,
    recipes_tasks,
    recorder_tasks,
    retro_tasks,
    settings_tasks,
    todo_tasks,
    vlc_tasks,
    weather_feeder_long_tasks,
    weather_tasks,
    youtube_tasks,
    ytmusic_tasks,
)

WORLD_TEMPLATES: tuple[TaskTemplate, ...] = (
    *people_tasks.TEMPLATES, *messaging_tasks.TEMPLATES, *notes_tasks.TEMPLATES, *todo_tasks.TEMPLATES,
    *media_tasks.TEMPLATES, *recorder_tasks.TEMPLATES, *expenses_tasks.TEMPLATES, *recipes_tasks.TEMPLATES,
    *clock_tasks.TEMPLATES,
    *settings_tasks.TEMPLATES, *calendar_tasks.TEMPLATES, *files_tasks.TEMPLATES, *places_tasks.TEMPLATES,
    *calculator_tasks.TEMPLATES, *answer_tasks.TEMPLATES, *infeasible_tasks.TEMPLATES, *chained_tasks.TEMPLATES,
    *opentracks_tasks.TEMPLATES, *draw_tasks.TEMPLATES, *joplin_tasks.TEMPLATES,
    *pictures_tasks.TEMPLATES, *retro_tasks.TEMPLATES, *vlc_tasks.TEMPLATES,
    *clipboard_tasks.TEMPLATES, *osmand_tasks.TEMPLATES, *html_tasks.TEMPLATES,
    *cross_media_tasks.TEMPLATES, *cross_places_tasks.TEMPLATES,
    *weather_tasks.TEMPLATES, *cross_people_tasks.TEMPLATES, *cross_people_answer_tasks.TEMPLATES,
    *anki_tasks.TEMPLATES, *anki_cross_tasks.TEMPLATES, *feeder_tasks.TEMPLATES,
    *feeder_cross_tasks.TEMPLATES,
    *youtube_tasks.TEMPLATES, *playstore_tasks.TEMPLATES, *ytmusic_tasks.TEMPLATES,
    *habits_tasks.TEMPLATES, *habits_cross_tasks.TEMPLATES,
    *habits_anki_long_tasks.TEMPLATES, *media_cross_long_tasks.TEMPLATES,
    *weather_feeder_long_tasks.TEMPLATES)
"""Every template of the World suite: Contacts and Phone, Messages and Gmail, Markor and Tasks, Camera and Photos,
Audio Recorder, Pro Expense, Broccoli, Clock, Settings, Calendar, Files, Maps, Calculator, OpenTracks, Simple Draw
Pro, Joplin, Retro Music, VLC, OsmAnd, Chrome's local pages, the clipboard, Breezy Weather, AnkiDroid, Feeder,
YouTube, Play Store, YT Music, Loop Habit Tracker; questions answered in text; tasks whose right outcome is to declare
them impossible; chains of two or three apps' tasks, and tasks carrying what one app shows into another."""
