"""AndroidWorld's Files tasks `FilesDeleteFile` ("Delete the file {file_name} from the Android filesystem located in
the {subfolder} folder ...") and `FilesMoveFile` ("Move the file {file_name} from {source_folder} ... to the
{destination_folder} ...").

AndroidWorld clears the emulator's storage and draws one of its 12 standard folders (Alarms, Audiobooks, DCIM, ...),
each with a list of typical file names (`FOLDER_FILES`: ours, of the same kinds, 8 a folder, the first one's
extension being the folder's). `FilesDeleteFile` names a random file (an adjective and a noun with one affix,
`markor.random_file_name`) with the folder's extension, creates it in the folder with 1 to 20 noise files beside it
(`noise_files`: mostly variants of the folder's names, else of the file's own); it passes when the file is no longer
there. `FilesMoveFile` draws a source and another destination folder, takes a name from the destination's list,
creates it in the source among noise files of the source's kind, and makes the destination folder; it passes when
the file is in the destination and not in the source. The sim keeps its seeded files (other names: more noise) and
adds the folders a draw needs. Here the checks are stricter than AndroidWorld's only in what else changed: the file
deleted (moved to the Trash or deleted forever) and nothing else touched; the file moved as it was (same size) and
nothing else touched (a copy left behind, a noise file moved too, loses).
"""  # noqa: D205, D209

from __future__ import annotations

import posixpath
import random
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import files as F
from android_gym.sim.apps.files import base, join, parent
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.androidworld.markor import noise_names, random_file_name
from android_gym.tasks.expert import find, swipe_up, tap
from android_gym.tasks.world.base import Elements, Params, State, press, swipe_down
from android_gym.tasks.world.files_expert import FILES, files_of, has, menu_item, only_touched, picker_to, to_folder
from android_gym.tasks.world.files_tasks import DeleteLargestTemplate, MoveTwoTemplate

FOLDER_FILES: dict[str, tuple[str, ...]] = {
    "Alarms": ("rise_and_shine.mp3", "gentle_chime.mp3", "school_run.mp3", "power_nap.mp3", "sunday_lie_in.mp3",
               "shift_start.mp3", "pill_reminder.mp3", "late_meeting.mp3"),
    "Audiobooks": ("space_saga.mp3", "old_kingdoms.mp3", "detective_tales.mp3", "life_of_a_painter.mp3",
                   "habit_builder.mp3", "sea_voyage.mp3", "spanish_basics.mp3", "bedtime_stories.mp3"),
    "DCIM": ("beach_trip.jpg", "family_dinner.jpg", "first_snow.jpg", "city_walk.jpg", "new_puppy.jpg",
             "garden_party.jpg", "school_play.jpg", "lake_sunrise.jpg"),
    "Documents": ("tax_summary.pdf", "job_offer.pdf", "lease_terms.pdf", "board_minutes.pdf", "travel_plan.pdf",
                  "grant_proposal.pdf", "quarterly_budget.pdf", "service_contract.pdf"),
    "Download": ("installer_setup.exe", "manual_scan.pdf", "photos_backup.zip", "logo_draft.png", "game_trailer.mp4",
                 "driver_update.exe", "reader_app.apk", "podcast_pack.zip"),
    "Movies": ("car_chase.mp4", "love_in_paris.mp4", "ocean_life.mp4", "haunted_house.mp4", "robot_uprising.mp4",
               "cartoon_friends.mp4", "family_saga.mp4", "silent_witness.mp4"),
    "Music": ("guitar_anthem.mp3", "smooth_sax.mp3", "piano_sonata.mp3", "summer_single.mp3", "club_mix.mp3",
              "banjo_ballad.mp3", "street_rhymes.mp3", "aria_collection.mp3"),
    "Notifications": ("ping.mp3", "chat_pop.mp3", "soft_ding.mp3", "reminder_bell.mp3", "mail_whoosh.mp3",
                      "rain_alert.mp3", "score_update.mp3", "bus_arriving.mp3"),
    "Pictures": ("profile_pic.jpg", "golden_hour.jpg", "sand_castle.jpg", "neon_streets.jpg", "reunion.jpg",
                 "cat_nap.jpg", "tulip_field.jpg", "brunch_plate.jpg"),
    "Podcasts": ("morning_briefing.mp3", "gadget_hour.mp3", "stand_up_night.mp3", "wellness_weekly.mp3",
                 "history_bites.mp3", "album_club.mp3", "policy_debate.mp3", "backpacker_diaries.mp3"),
    "Recordings": ("job_interview.mp3", "chemistry_class.mp3", "grandma_stories.mp3", "standup_call.mp3",
                   "idea_dump.mp3", "poem_reading.mp3", "voice_memo.mp3", "shopping_list.mp3"),
    "Ringtones": ("classic_ring.mp3", "marimba_loop.mp3", "old_phone.mp3", "digital_chirp.mp3", "swing_ring.mp3",
                  "retro_synth.mp3", "string_quartet.mp3", "birdsong.mp3"),
}
"""AndroidWorld's 12 folders, each with file names of its kind (ours); the first name's extension is the folder's."""
FOLDERS = tuple(FOLDER_FILES)
SIZE_KB = (64, 40_000)
"""The range a task file's size is drawn from, in kB (AndroidWorld's files are empty; the sim shows sizes)."""


def noise_files(rng: random.Random, name: str, candidates: tuple[str, ...], most: int = 20) -> list[str]:
    """1 to `most` noise file names beside `name`, varied from a folder's `candidates` (`markor.noise_names`).

    >>> names = noise_files(random.Random(2), "quiet_otter_old.mp3", FOLDER_FILES["Music"])
    >>> 1 <= len(names) <= 20 and all(n.endswith(".mp3") for n in names) and "quiet_otter_old.mp3" not in names
    True
    """
    return noise_names(rng, name, most, candidates)


def placed(rng: random.Random, folder: str, names: list[str]) -> list[dict[str, Any]]:
    """Files `names` in `folder` as the sim takes them, each with a size drawn in `SIZE_KB`."""
    return [{"path": join(folder, n), "size_kb": rng.randint(*SIZE_KB)} for n in names]


def file_menu(path: str, label: str, elements: Elements, state: State) -> Action:
    """Tap `label` in file `path`'s More options menu, scrolling its folder towards the file by name (`menu_item`
    scrolls as if a list held one screenful more than fits; a folder here holds up to 20 noise files)."""  # noqa: D205, D209
    screen = state["screen"]
    if state["foreground"] == FILES and screen["name"] == "menu" and screen["args"]["path"] == path:
        return press(elements, text=label)
    step = to_folder(parent(path), elements, state)
    if step is not None or state_of(state, F.FilesState)["sort"] != "name":
        return step or menu_item(path, label, elements, state)
    more = find(elements, desc=f"More options for {base(path)}")
    if more is not None:
        return tap(more)
    titles = [e.text.casefold() for e in elements if e.rid == F.TITLE_RID]
    return swipe_down() if titles and base(path).casefold() < min(titles) else swipe_up()


class FilesDeleteFile(AndroidWorldTemplate):
    """Delete {file_name} from {subfolder} among noise files: it gone (trashed or deleted), nothing else touched."""

    name, split_key = "FilesDeleteFile", "file_name"
    goal_template = ("Delete the file {file_name} from the Android filesystem located in the {subfolder} folder "
                     "within the sdk_gphone_x86_64 storage area.")
    like = DeleteLargestTemplate()
    max_steps = 14  # the expert takes 7-10 steps (scrolling past up to 20 noise files)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """The folder, a random name with the folder's extension, the file (its size) and the noise files."""
        subfolder = pick(rng, FOLDERS)
        candidates = FOLDER_FILES[subfolder]
        file_name = random_file_name(rng) + posixpath.splitext(candidates[0])[1]
        files = placed(rng, subfolder, [file_name, *noise_files(rng, file_name, candidates)])
        return {"file_name": file_name, "subfolder": subfolder, "files": files}

    def world_params(self, params: Params) -> dict[str, Any]:
        """Unused: the template starts, checks and plays the instance itself."""
        return {}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The folder holds the file and the noise files (with whatever the phone seeded)."""
        return {FILES: {"folders": [params["subfolder"]], "files": params["files"]}}

    def check(self, params: Params, state: State) -> bool:
        """The file is no longer in the folder, and no other file was touched."""
        path = join(params["subfolder"], params["file_name"])
        return path not in files_of(state) and only_touched(state, {path})

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The folder, the file's More options, Move to Trash, confirm."""
        path = join(params["subfolder"], params["file_name"])
        screen = state["screen"]
        if state["foreground"] == FILES and screen["name"] == "confirm" and screen["args"]["paths"] == [path]:
            return press(elements, text="Move to Trash")
        return file_menu(path, "Move to Trash", elements, state)


class FilesMoveFile(AndroidWorldTemplate):
    """Move {file_name} from {source_folder} to {destination_folder}: there as it was, gone from the source, nothing
    else touched."""  # noqa: D205, D209

    name, split_key = "FilesMoveFile", "file_name"
    goal_template = ("Move the file {file_name} from {source_folder} within the sdk_gphone_x86_64 storage area to the "
                     "{destination_folder} within the same sdk_gphone_x86_64 storage area in the Android filesystem.")
    like = MoveTwoTemplate()
    max_steps = 16  # the expert takes 8-11 steps

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """Source and destination folders, a name of the destination's kind, the file and the source's noise."""
        source = pick(rng, FOLDERS)
        destination = pick(rng, [f for f in FOLDERS if f != source])
        file_name = pick(rng, FOLDER_FILES[destination])
        noise = [n for n in noise_files(rng, file_name, FOLDER_FILES[source]) if n != file_name]
        files = placed(rng, source, [file_name, *noise])
        return {"file_name": file_name, "source_folder": source, "destination_folder": destination, "files": files}

    def world_params(self, params: Params) -> dict[str, Any]:
        """Unused: the template starts, checks and plays the instance itself."""
        return {}

    def paths(self, params: Params) -> tuple[str, str]:
        """The file's path in the source and in the destination."""
        return (join(params["source_folder"], params["file_name"]),
                join(params["destination_folder"], params["file_name"]))

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The file and noise in the source; the destination folder there without the file."""
        return {FILES: {"absent": [self.paths(params)[1]], "folders": [params["destination_folder"]],
                        "files": params["files"]}}

    def check(self, params: Params, state: State) -> bool:
        """The file in the destination (its size as set up), not in the source; nothing else touched."""
        src, dest = self.paths(params)
        return (src not in files_of(state) and has(state, dest, params["files"][0]["size_kb"])
                and only_touched(state, {src, dest}))

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The source, the file's More options, Move to, the destination in the picker, Move here."""
        if state["foreground"] == FILES and state["screen"]["name"] == "picker" and not state.get("dialog"):
            return picker_to(params["destination_folder"], elements, state) or press(elements, text="Move here")
        return file_menu(self.paths(params)[0], "Move to", elements, state)


TEMPLATES = (FilesDeleteFile(), FilesMoveFile())
"""AndroidWorld's Files tasks on the suite, in its registry's order."""
