"""The task suites: which templates make up `general`, `webshop` and `world`, and how to list or look up their
tasks."""  # noqa: D205, D209

from __future__ import annotations

from functools import cache

from android_gym.errors import ConfigError, unknown_name
from android_gym.tasks.base import SPLITS, Task, TaskTemplate


@cache
def _templates() -> dict[str, tuple[TaskTemplate, ...]]:
    from android_gym.tasks.apps import APP_GENERAL_TEMPLATES
    from android_gym.tasks.web import WEB_GENERAL_TEMPLATES, WEBSHOP_TEMPLATES
    from android_gym.tasks.world import WORLD_TEMPLATES

    return {"general": (*WEB_GENERAL_TEMPLATES, *APP_GENERAL_TEMPLATES), "webshop": tuple(WEBSHOP_TEMPLATES),
            "world": WORLD_TEMPLATES}


def suite_names() -> list[str]:
    """Names of every suite (task-file suites included once registered)."""
    return [*_templates(), *_FILE_SUITES]


def templates(suite: str) -> tuple[TaskTemplate, ...]:
    """The templates of `suite`."""
    table = {**_templates(), **_FILE_SUITES}
    if suite not in table:
        raise unknown_name("suite", suite, list(table))
    return table[suite]


@cache
def tasks(suite: str, split: str = "train", template: str | None = None) -> tuple[Task, ...]:
    """Every task of `suite` in `split`, optionally only those of one template, in a fixed order.

    Raises:
        UnknownNameError: unknown suite or template (with the closest name).
        ConfigError: unknown split.
    """
    if split not in SPLITS:
        raise ConfigError(f"`split` must be one of {SPLITS}, got {split!r}")
    chosen = templates(suite)
    if template is not None:
        names = [t.name for t in chosen]
        if template not in names:
            raise unknown_name(f"template of suite {suite!r}", template, names)
        chosen = tuple(t for t in chosen if t.name == template)
    return tuple(task for t in chosen for task in t.tasks(split))


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
