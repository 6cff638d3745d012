r"""The typed seam between an app and the tasks that use it: the schema of its state and the model of its initial
conditions, both declared in code beside the app (issue 48).

An app declares (`App.state_schema`, `App.initial_model`):
- its state's schema, a `TypedDict` decorated with `closed`: exactly the keys `App.state()` returns, each with its
  type. Tasks read an app's part of the device state with `state_of(state, Schema)`, which names the app when the
  device reports none, and index it without defaults, so a misspelt key fails loudly rather than reading as empty (a
  `.get("alarm_edit", [])` guard is vacuously true). `state_problems` checks a whole device state against every
  schema, closed and strict (the template contract checks call it after each expert episode);
- its initial conditions, a `ConfigModel`: `App.apply` turns a task's `initial()` mapping into that typed value
  (unknown keys refused with the closest known one, every field's type and range checked, the field named in the
  message) before the app's `set_up` sees it.

>>> from typing_extensions import TypedDict
>>> @closed
... class TallyState(TypedDict):
...     count: int
>>> state_problems({"apps": {"tally": {"count": 2}}}, {"tally": TallyState})
[]
>>> print(*state_problems({"apps": {"tally": {"count": "2", "cuont": 1}}}, {"tally": TallyState}), sep="\n")
tally: `count` must be a valid integer, got '2'
tally: `cuont` is not a key of TallyState
"""  # noqa: D205, D209

from __future__ import annotations

import datetime
import functools
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar, cast

from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config

from android_gym.config_model import FieldError
from android_gym.errors import AndroidGymError

S = TypeVar("S")

closed = with_config(ConfigDict(extra="forbid", strict=True))
"""Decorator of every state schema (and the TypedDicts nested in it): a key the schema does not name, or a value of
another type (no "2" for 2), fails `state_problems`. TypedDicts come from `typing_extensions`, which pydantic reads on
Python 3.11."""

SCHEMAS: dict[type, str] = {}
"""Every app's state schema, to the package of the app that declares it (filled by `App.__init_subclass__`)."""


class AppStateMissingError(AndroidGymError, LookupError):
    """A task read the state of an app that the device does not report (a real phone reports no app state)."""


def refuse_absolute_paths(field: str, paths: Iterable[str], expected: str) -> None:
    """Refuse a path of initial-conditions `field` that is empty, absolute or ends with "/" (apps' storage paths are
    relative to Internal storage).

    Raises:
        FieldError: naming `field`, what was `expected` and the first such path.
    """  # noqa: D205
    for path in paths:
        if not path or path.startswith("/") or path.endswith("/"):
            raise FieldError(field, expected, path)


def refuse_blank(field: str, value: str) -> str:
    """`value`, an initial condition's name or title, when it holds more than spaces.

    Raises:
        FieldError: naming `field`.
    """
    if not value.strip():
        raise FieldError(field, "a name that is not blank", value)
    return value


def iso_day(field: str, value: str) -> str:
    """`value`, an initial condition's day, when it is written as ISO writes it ("2026-06-09", no "2026-6-9").

    Raises:
        FieldError: naming `field`.
    """
    try:
        if str(datetime.date.fromisoformat(value)) == value:
            return value
    except ValueError:
        pass
    raise FieldError(field, 'a day reading "2026-06-09"', value)


def register(schema: type, package: str) -> None:
    """Record that app `package` returns states of `schema` (one schema per app; `state_of` finds the app by it).

    Raises:
        ValueError: another app already declared `schema`.
    """
    owner = SCHEMAS.setdefault(schema, package)
    if owner != package:
        raise ValueError(f"{schema.__name__} is already the state schema of {owner}, not of {package}")


def package_of(schema: type) -> str:
    """The package of the app that declares `schema`.

    Raises:
        KeyError: no app declares it.
    """
    return SCHEMAS[schema]


def state_of(state: Mapping[str, Any], schema: type[S]) -> S:
    """The part of device `state` that the app declaring `schema` reports, typed by it (no copy: read-only).

    Raises:
        KeyError: no app declares `schema`.
        AppStateMissingError: the device reports no state for that app (a real phone, or an app not installed).
    """
    package = SCHEMAS[schema]
    apps = state.get("apps")
    if not isinstance(apps, Mapping) or package not in apps:
        raise AppStateMissingError(
            f"the task reads the state of {package}, which this device does not report: tasks judged by app state "
            "run on the simulated phone (judge a real phone with an `mllm` evaluator)")
    return cast(S, apps[package])


@functools.cache
def _adapter(schema: type) -> TypeAdapter[Any]:
    return TypeAdapter(schema)


def state_problems(state: Mapping[str, Any], schemas: Mapping[str, type] | None = None) -> list[str]:
    """Every way the apps' parts of device `state` differ from their schemas: "package: problem" lines, [] when all
    fit. `schemas` maps packages to schemas (default: every registered app's); an app the state lacks is skipped.
    """  # noqa: D205
    schemas = {package: schema for schema, package in SCHEMAS.items()} if schemas is None else schemas
    problems: list[str] = []
    for package, schema in schemas.items():
        if package not in state.get("apps", {}):
            continue
        try:
            _adapter(schema).validate_python(state["apps"][package])
        except ValidationError as e:
            problems += [f"{package}: {_describe(error, schema)}" for error in e.errors()]
    return problems


def _describe(error: Any, schema: type) -> str:
    where = ".".join(map(str, error["loc"]))
    if error["type"] == "extra_forbidden":
        return f"`{where}` is not a key of {schema.__name__}"
    if error["type"] == "missing":
        return f"`{where}` is missing ({schema.__name__} declares it)"
    return f"`{where}` {error['msg'][0].lower()}{error['msg'][1:]}, got {error['input']!r}".replace(
        "` input should be", "` must be")
