"""The task suites: which templates make up `general`, `webshop`, `world` and `androidworld`, and how to list or look
up their tasks."""  # noqa: D205, D209

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from android_gym.errors import ConfigError, unknown_name
from android_gym.tasks.base import SPLITS, TIERS, Task, TaskTemplate

SUITE_SPLITS = (*SPLITS, "unseen_templates", "unseen_apps")
"""The three levels of generalisation (AndroidWorld's protocol): "train" and "test" share templates and differ in
parameter values; "unseen_templates" holds templates kept out of both (on apps that train has), and "unseen_apps"
every template that uses an app kept out of both. The unseen splits hold all of their templates' parameter values."""


@dataclass(frozen=True)
class HeldOut:
    """What a suite keeps out of "train" and "test" for its generalisation splits.

    Attributes:
        templates: template names of "unseen_templates".
        apps: packages of "unseen_apps": every template using one (its `apps`) goes there.
    """

    templates: tuple[str, ...] = ()
    apps: tuple[str, ...] = ()

    def split_of(self, template: TaskTemplate) -> str | None:
        """The unseen split holding `template`, or None when "train" and "test" share it."""
        if set(template.apps) & set(self.apps):
            return "unseen_apps"
        return "unseen_templates" if template.name in self.templates else None


HELD_OUT: dict[str, HeldOut] = {
    # Tasks (and the templates that pair it with Markor) and Calculator (with its Markor note total) are whole apps
    # the agent never trains on; each held-out template has a trained sibling skill (reply/send email; favourite a
    # photo; rename a note; text one person; add a contact and call back a missed call; add a photo to an album; move
    # an event to another day; set a screen timeout and theme; move files into a new folder).
    "world": HeldOut(templates=("forward_email", "favorite_day", "markor_move_note", "text_two_people",
                                "save_missed_caller", "selfie_to_album", "calendar_change_start", "settings_volumes",
                                "files_copy_to"),
                     apps=("org.tasks", "com.google.android.calculator")),
    # AndroidWorld has no held-out splits of its own (its train and test differ in parameters); ours on top: Tasks
    # (its six questions) and OsmAnd (favourite, marker, track) as apps, and nine templates whose siblings train
    # (a third duplicate-recipe variant, the second multi-delete of expenses, merging notes beside editing them, an
    # event in two weeks beside tomorrow's, replying to the most recent text beside replying, brightness verified
    # beside set, a distance over an interval beside the tracker's other questions, two playlists beside one, saving
    # a playlist beside creating it).
    "androidworld": HeldOut(templates=("RecipeDeleteDuplicateRecipes3", "ExpenseDeleteMultiple2", "MarkorMergeNotes",
                                       "SimpleCalendarAddOneEventInTwoWeeks", "SimpleSmsReplyMostRecent",
                                       "SystemBrightnessMinVerify",
                                       "SportsTrackerTotalDistanceForCategoryOverInterval", "VlcCreateTwoPlaylists",
                                       "RetroSavePlaylist"),
                            apps=("org.tasks", "net.osmand")),
}
"""Per suite, its held-out templates and apps; suites not named here have no unseen splits."""


@cache
def _templates() -> dict[str, tuple[TaskTemplate, ...]]:
    from android_gym.tasks.androidworld import ANDROIDWORLD_TEMPLATES
    from android_gym.tasks.apps import APP_GENERAL_TEMPLATES
    from android_gym.tasks.web import WEB_GENERAL_TEMPLATES, WEBSHOP_TEMPLATES
    from android_gym.tasks.world import WORLD_TEMPLATES

    return {"general": (*WEB_GENERAL_TEMPLATES, *APP_GENERAL_TEMPLATES), "webshop": tuple(WEBSHOP_TEMPLATES),
            "world": WORLD_TEMPLATES, "androidworld": ANDROIDWORLD_TEMPLATES}


def suite_names() -> list[str]:
    """Names of every suite (task-file suites included once registered)."""
    return [*_templates(), *_FILE_SUITES]


def templates(suite: str) -> tuple[TaskTemplate, ...]:
    """The templates of `suite`."""
    table = {**_templates(), **_FILE_SUITES}
    if suite not in table:
        raise unknown_name("suite", suite, list(table))
    return table[suite]


def declares(suite: str) -> bool:
    """Whether `suite` (a known name) has tasks won by a declaration ("answer" or "infeasible" outcomes)."""
    table = {**_templates(), **_FILE_SUITES}
    return suite in table and any(t.outcome != "state" for t in table[suite])


def split_of_template(suite: str, template: TaskTemplate) -> str:
    """"seen" when `template` serves "train" and "test" of `suite`, else the unseen split that holds it."""
    held = HELD_OUT.get(suite)
    return (held.split_of(template) if held else None) or "seen"


def splits_of(suite: str) -> tuple[str, ...]:
    """The splits of `SUITE_SPLITS` that hold tasks of `suite`: "train" and "test", and the unseen ones it holds out."""
    chosen = templates(suite)
    return tuple(s for s in SUITE_SPLITS if s in SPLITS or any(split_of_template(suite, t) == s for t in chosen))


def check_split(split: str, suite: str | None = None) -> None:
    """Raise unless `split` is a split of `suite` (of any suite when None), naming the splits it has.

    Raises:
        UnknownNameError: `split` is none of `SUITE_SPLITS` (or of `suite`'s splits), with the closest name.
        ConfigError: an unseen split `suite` does not hold (it holds nothing out of that kind).
    """
    known = SUITE_SPLITS if suite is None else splits_of(suite)
    if split not in SUITE_SPLITS:
        raise unknown_name("split" if suite is None else f"split of suite {suite!r}", split, known)
    if split not in known:
        held = [name for name, h in HELD_OUT.items() if getattr(h, split.removeprefix("unseen_"))]
        raise ConfigError(f"suite {suite!r} holds out no {split.removeprefix('unseen_')}, so it has no {split!r} "
                          f"split; its splits: {', '.join(known)} (suites with one: {', '.join(held)})")


@cache
def tasks(suite: str, split: str = "train", template: str | None = None, tier: str | None = None) -> tuple[Task, ...]:
    """Every task of `suite` in `split` (one of `SUITE_SPLITS`), optionally only one template's or one tier's, in a
    fixed order.

    Raises:
        UnknownNameError: unknown suite, split, template or tier (with the closest name; a split's, among the suite's
            splits).
        ConfigError: an unseen split of a suite that holds nothing out (naming the splits it has), a template outside
            `split`, or a tier with no template in it.
    """  # noqa: D205
    check_split(split, suite)
    chosen = templates(suite)
    if tier is not None and tier not in TIERS:
        raise unknown_name("tier", tier, TIERS)
    if template is not None:
        names = [t.name for t in chosen]
        if template not in names:
            raise unknown_name(f"template of suite {suite!r}", template, names)
        chosen = tuple(t for t in chosen if t.name == template)
        where = split_of_template(suite, chosen[0])
        if where != ("seen" if split in SPLITS else split):
            serves = "'train' and 'test'" if where == "seen" else repr(where)
            raise ConfigError(f"template {template!r} of suite {suite!r} is in split {serves}, not {split!r}")
    if tier is not None:
        chosen = tuple(t for t in chosen if t.tier == tier)
    if split in SPLITS:
        found = tuple(task for t in chosen if split_of_template(suite, t) == "seen" for task in t.tasks(split))
    else:
        found = tuple(Task(t, params, split) for t in chosen if split_of_template(suite, t) == split
                      for part in SPLITS for params in t.values(part))
    if not found:
        what = f"template {template!r}" if template is not None else f"suite {suite!r}"
        raise ConfigError(f"{what} has no task in split {split!r}" + (f" of tier {tier!r}" if tier else ""))
    return found


# -- task files (issue 7): a goal list or JSONL registered as a suite -------------------------------------------------
_FILE_SUITES: dict[str, tuple[TaskTemplate, ...]] = {}


def register_task_file(path: str, name: str | None = None, parse_goals: bool = False) -> str:
    """Load a task file (see `android_gym.tasks.files`) as a suite and return its name ("file:<stem>" by default).

    `parse_goals` reads a plain goal list with the goal parser (`load_task_file`). Registering the same name again
    replaces the suite (and clears the task cache).

    Raises:
        ConfigError: the file cannot be read or has a bad line.
    """
    from android_gym.tasks.files import load_task_file

    loaded = load_task_file(path, name, parse_goals=parse_goals)
    _FILE_SUITES[loaded[0].suite] = loaded
    tasks.cache_clear()
    return loaded[0].suite
