"""AndroidWorld's Markor tasks `MarkorCreateFolder`, `MarkorCreateNote` and `MarkorDeleteNote`, and the file names
AndroidWorld draws for them (`modified_name`, `random_file_name`, `noise_names`: the recorder's named clip uses
them too).

AndroidWorld names a file from a stem and one affix, a prefix or a suffix at random: a date, four random letters
or digits, or a fixed word ("happy_cat_copy", "2023_04_02_happy_cat"). Its dates fall in the 287 days before its
device's date (Sunday 2023-10-15); the sim's phone lives on Wednesday 2026-06-10, so the same span is rebased onto
the 287 days before that (`day_before`). The word lists, sentences and noise titles are ours, of the same kinds and
sizes as AndroidWorld's. AndroidWorld also starts some tasks with noise notes (1 to 20 variants of its note titles
or of the task's own name): here they are drawn per instance from the instance's own seed (`noise_names`), with
AndroidWorld's twenty random letters and digits for content.

- `MarkorCreateFolder`: a folder named "folder_" and a timestamp (AndroidWorld stamps the host's clock; here a
  moment of the sim's day before its 9:41). The check is `markor_create_folder`'s: the folder at the notebook's
  root (where AndroidWorld looks) and nothing else created or edited.
- `MarkorCreateNote`: a random name with ".md" or ".txt" and one sentence. The check is `markor_create_note`'s: the
  note at the root holds exactly the sentence (AndroidWorld's fuzzy match lets a near text pass; here it loses),
  and no other note is touched, while a draft with a similar name sits beside it.
- `MarkorDeleteNote`: a random name without an extension (as AndroidWorld's is), among noise notes of which at
  least one is a variant of that name (the near miss). The check: that note gone, and no other edit (AndroidWorld
  only asks that the name is gone, so deleting a noise note too would pass there; here it loses).
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import posixpath
import random
import string
from collections.abc import Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.sim.app import stable_seed
from android_gym.sim.app_state import state_of
from android_gym.sim.apps import markor
from android_gym.sim.apps.markor import base, parent
from android_gym.sim.layout import HEIGHT
from android_gym.tasks.androidworld.base import AndroidWorldTemplate, pick
from android_gym.tasks.expert import find, swipe_up, tap
from android_gym.tasks.world.base import Elements, Params, State, press, swipe_down
from android_gym.tasks.world.notes_expert import MARKOR, markor_folder, only_touched
from android_gym.tasks.world.notes_tasks import CreateFolderTemplate, CreateNoteTemplate, DeleteNoteTemplate

SPAN_DAYS = 287
"""AndroidWorld's date affixes fall from 2023-01-01 to 2023-10-14: the 287 days before its device's date."""
CLOCK_S = 9 * 3600 + 41 * 60
"""The sim phone's clock, 9:41, in seconds after midnight: folder timestamps are drawn before it."""
ALNUM = string.ascii_letters + string.digits
MARKS = ("copy", "final", "old", "draft")
"""The fixed affixes a file name may get (AndroidWorld has four such words)."""
ADJECTIVES = ("amber", "brisk", "cosy", "dusty", "early", "fuzzy", "golden", "hidden", "icy", "jumpy", "lucky",
              "mellow", "noisy", "orange", "plain", "quiet", "rapid", "rusty", "sleepy", "sunny", "tidy", "urban",
              "vivid", "windy", "young", "zesty", "breezy", "cheery", "daring", "dreamy", "frosty", "grumpy",
              "humble", "jazzy", "keen", "little", "misty", "nimble", "odd", "purple", "rosy", "salty", "tiny",
              "velvet", "wild", "yellow", "zany", "giant", "silver", "crisp")
NOUNS = ("anchor", "badger", "candle", "dolphin", "ember", "falcon", "garden", "harbor", "ivy", "jigsaw", "kettle",
         "lantern", "meadow", "nutmeg", "otter", "pebble", "quokka", "raven", "saddle", "teapot", "tulip", "walrus",
         "yogurt", "acorn", "beacon", "cactus", "donut", "feather", "gecko", "hammock", "juniper", "kayak", "lemon",
         "mango", "noodle", "olive", "panda", "quartz", "robin", "squirrel", "turnip", "violet", "wombat", "yarn",
         "zeppelin", "biscuit", "comet", "drum", "forest", "puffin", "marble")
SENTENCES = ("Return the library books by Saturday.", "Call the plumber about the kitchen sink.",
             "Pick up the dry cleaning after work.", "Team lunch moved to Thursday at noon.",
             "Buy stamps and birthday cards.", "Renew the car insurance before July.",
             "Dentist check-up on the 22nd at 9 AM.", "Water the tomatoes every other day.",
             "Book the train tickets for the weekend.", "Send the invoice to the client on Monday.",
             "Practice the piano for twenty minutes.", "Bring snacks to the Friday meeting.",
             "Charge the camera batteries tonight.", "The spare key is under the blue pot.",
             "Swimming lessons start next Tuesday.", "Ask Maria about the conference schedule.",
             "Pay the electricity bill by the 15th.", "Cancel the gym trial before it renews.",
             "Oil the bike chain before the ride.", "Feed the cat twice a day.", "Slow and steady wins the race.",
             "Every cloud has a silver lining.", "Two heads are better than one.", "Practice makes perfect.",
             "Still waters run deep.", "Fortune favors the bold.", "Time flies like an arrow.",
             "All that glitters is not gold.", "Knowledge is power.", "Less is more.",
             "Home is where the heart is.", "The best things in life are free.",
             "Laughter is the best medicine.", "Hope for the best, plan for the worst.", "Measure twice, cut once.",
             "Good things come to those who wait.", "Keep calm and carry on.", "Look before you leap.",
             "Many hands make light work.", "No news is good news.")
"""Note texts: reminders and sayings, one line each (AndroidWorld draws from forty such sentences)."""
NOTE_TITLES = ("holiday_packing_list.md", "team_sync_agenda.md", "savings_plan_2026.md", "podcast_episode_ideas.md",
               "bathroom_tile_quotes.md", "marathon_training_log.md", "anniversary_dinner_ideas.md",
               "sourdough_starter_notes.md", "weekly_chores_rota.md", "car_service_history.md",
               "spanish_vocabulary.md", "conference_talk_draft.md", "moving_house_checklist.md",
               "plant_watering_schedule.md", "board_game_night.md", "tax_return_checklist.md",
               "kids_school_events.md", "camping_gear_list.md", "side_project_backlog.md",
               "favourite_recipes_index.md")
"""The titles noise notes are variants of (AndroidWorld has twenty such)."""


# -- names as AndroidWorld draws them ---------------------------------------------------------------------------------
def random_string(rng: random.Random, length: int) -> str:
    """`length` random letters and digits.

    >>> len(random_string(random.Random(0), 4))
    4
    """
    return "".join(pick(rng, ALNUM) for _ in range(length))


def day_before(rng: random.Random) -> str:
    """A date affix ("2026_01_31"): one of the 287 days before the sim's today, AndroidWorld's span rebased.

    >>> day_before(random.Random(1)) < "2026_06_10"
    True
    """
    day = markor.DATE - datetime.timedelta(days=rng.randint(1, SPAN_DAYS))
    return f"{day:%Y_%m_%d}"


def modified_name(rng: random.Random, name: str) -> str:
    """`name` with one affix before or after its stem (its extension kept): a date, four random letters or digits, or
    a fixed word.

    >>> modified_name(random.Random(3), "memo.m4a")
    'memo_2026_04_04.m4a'
    """  # noqa: D205
    kind, as_prefix = rng.randrange(3), rng.random() < 0.5
    stem, ext = posixpath.splitext(name)
    affix = day_before(rng) if kind == 0 else random_string(rng, 4) if kind == 1 else pick(rng, MARKS)
    return f"{affix}_{stem}{ext}" if as_prefix else f"{stem}_{affix}{ext}"


def random_file_name(rng: random.Random) -> str:
    """An adjective and a noun, modified: a name without an extension ("sunny_otter_final")."""
    return modified_name(rng, f"{pick(rng, ADJECTIVES)}_{pick(rng, NOUNS)}")


def noise_names(rng: random.Random, name: str, most: int = 20,
                candidates: Sequence[str] = NOTE_TITLES) -> list[str]:
    """1 to `most` noise file names, as AndroidWorld makes them: mostly (85%) variants of `candidates` (the noise
    note titles by default), else of `name`; each with an extension (a candidate's when the variant has none).

    >>> names = noise_names(random.Random(5), "file")
    >>> 1 <= len(names) <= 20 and all("." in n for n in names)
    True
    """  # noqa: D205
    wanted, names = rng.randint(1, most), []
    while len(names) < wanted:
        got = modified_name(rng, pick(rng, candidates) if rng.random() <= 0.85 else name)
        if "." not in got:
            got += posixpath.splitext(pick(rng, candidates))[1]
        if got not in names:
            names.append(got)
    return names


# -- the templates ---------------------------------------------------------------------------------------------------
class _MarkorTemplate(AndroidWorldTemplate):
    """A Markor task whose notebook gets noise notes drawn from the instance's own seed."""

    def noise(self, params: Params, name: str) -> dict[str, str]:
        """Noise notes at the root, variants of the titles or of `name`, by path, with random contents."""
        rng = random.Random(stable_seed("androidworld", self.name, params[self.split_key]))
        return {n: random_string(rng, 20) for n in noise_names(rng, name)}


class MarkorCreateFolder(_MarkorTemplate):
    """Create a folder named "folder_<timestamp>" at the notebook's root, among noise notes."""

    name, split_key = "MarkorCreateFolder", "folder_name"
    goal_template = "Create a new folder in Markor named {folder_name}."
    like = CreateFolderTemplate()
    max_steps = 13  # the expert takes 6 steps, up to 12 on a perturbed phone

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """"folder_" and a timestamp of the sim's day before 9:41 ("folder_20260610_083015")."""
        moment = datetime.datetime(*markor.DATE.timetuple()[:3]) + datetime.timedelta(seconds=rng.randrange(CLOCK_S))
        return {"folder_name": f"folder_{moment:%Y%m%d_%H%M%S}"}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The folder's name."""
        return {"folder": params["folder_name"], "phrasing": 0}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """`like`'s (no such folder, "<name> archive" beside it) and noise notes, variants of "file" or the titles."""
        start = self.like.initial(self.world_params(params))
        return {MARKOR: {**start[MARKOR], "files": self.noise(params, "file")}}


class MarkorCreateNote(_MarkorTemplate):
    """Create note {file_name} at the root holding {text}; a draft with a similar name sits beside it."""

    name, split_key = "MarkorCreateNote", "file_name"
    goal_template = "Create a new note in Markor named {file_name} with the following text: {text}"
    like = CreateNoteTemplate()
    max_steps = 14  # the expert takes 7 steps (`like` budgets for a folder to reach)

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A random name with ".md" or ".txt", and one sentence."""
        return {"file_name": random_file_name(rng) + pick(rng, (".md", ".txt")), "text": pick(rng, SENTENCES)}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The note at the root, with the text."""
        return {"name": params["file_name"], "folder": "", "where": "", "text": params["text"], "phrasing": 0}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """No such note; a draft named like it ("<stem>_draft<ext>", "TODO") beside it.

        `like`'s draft only renames ".md" notes, so the draft is set here for ".txt" ones too.
        """
        stem, ext = posixpath.splitext(params["file_name"])
        return {MARKOR: {"absent": [params["file_name"]], "files": {f"{stem}_draft{ext}": "TODO"}}}


class MarkorDeleteNote(_MarkorTemplate):
    """Delete note {file_name} (no extension) at the root, among noise notes, one at least named like it."""

    name, split_key = "MarkorDeleteNote", "file_name"
    goal_template = "Delete the note in Markor named {file_name}."
    like = DeleteNoteTemplate()
    max_steps = 14  # the expert takes 5 to 9 steps, scrolling a list of up to 30 rows

    def draw(self, rng: random.Random) -> dict[str, Any]:
        """A random name, without an extension."""
        return {"file_name": random_file_name(rng)}

    def world_params(self, params: Params) -> dict[str, Any]:
        """The note at the root (`like` lends its apps only: its copy is named by a ".md" it cannot find here)."""
        return {"name": params["file_name"], "folder": "", "where": "", "phrasing": 0}

    def initial(self, params: Params) -> dict[str, dict[str, Any]]:
        """The note (twenty random characters) and noise notes, at least one a variant of its name."""
        rng = random.Random(stable_seed("androidworld", self.name, "twin", params["file_name"]))
        noise = self.noise(params, params["file_name"])
        if not any(params["file_name"] in n for n in noise):
            noise[modified_name(rng, params["file_name"]) + ".md"] = random_string(rng, 20)
        return {MARKOR: {"files": {params["file_name"]: random_string(rng, 20), **noise}}}

    def check(self, params: Params, state: State) -> bool:
        """The note is gone and nothing else was edited (no other note deleted, renamed or moved)."""
        m = state_of(state, markor.MarkorState)
        return params["file_name"] not in m["files"] and only_touched(m["edits"], {params["file_name"]})

    def expert(self, params: Params, elements: Elements, state: State) -> Action:
        """The root folder, the note's More options (scrolling the long list towards it), Delete, Delete."""
        path, screen = params["file_name"], state["screen"]
        if (state["foreground"] == MARKOR and not state.get("dialog") and screen["args"].get("path") == path
                and screen["name"] in ("menu", "delete")):
            return press(elements, text="Delete", clickable=True)
        step = markor_folder(parent(path), elements, state)
        if step is not None:
            return step
        rows = markor_rows(state, parent(path))
        return scroll_to(elements, rows, path)


def markor_rows(state: State, folder: str) -> list[str]:
    """The paths Markor's browser lists in `folder`, in its order: folders first, then by name (case aside)."""
    m = state_of(state, markor.MarkorState)
    files = set(m["files"])
    items = [p for p in [*m["folders"], *files] if parent(p) == folder]
    return sorted(items, key=lambda p: (p in files, base(p).lower(), p))


def scroll_to(elements: Elements, rows: Sequence[str], path: str) -> Action:
    """Tap the More options of `path`'s row when it is on screen and clear of the FAB; else scroll towards it (the
    list may run several screens: down while every row shown comes before it, up otherwise)."""  # noqa: D205, D209
    target, fab = find(elements, desc=f"More options for {base(path)}"), find(elements, desc=markor.FAB_DESC)
    if target is not None:
        x, y = target.center
        if fab is None or not (fab.bounds[0] <= x < fab.bounds[2] and fab.bounds[1] <= y < fab.bounds[3]):
            return tap(target)
        return swipe_up()
    title = find(elements, rid=markor.TITLE_RID, text=base(path))
    if title is not None:  # its row is cut by the list's edge, More options outside: bring it towards the middle
        return swipe_up() if title.center[1] > HEIGHT // 2 else swipe_down()
    order = {base(p): i for i, p in enumerate(rows)}
    shown = [order[e.text] for e in elements if e.rid == markor.TITLE_RID and e.text in order]
    return swipe_up() if not shown or max(shown) < order[base(path)] else swipe_down()


TEMPLATES = (MarkorCreateFolder(), MarkorCreateNote(), MarkorDeleteNote())
