r"""Task files: a user's own goal list (one goal per line) or JSONL becomes a suite of Tasks for any device.

This is how AitW-style task lists run on emulators and phones. A JSONL line holds:

* `goal` (required): the instruction;
* `app`: the app the task is about (kept in `task.params` for judges);
* `snapshot`: an emulator snapshot loaded at reset (`EmulatorDevice`; other devices refuse it);
* `max_steps`: the step budget (default 10);
* `check`: a state check, so the oracle evaluator can judge without a model, e.g.
  `{"path": "system.wifi", "equals": false}`, `{"path": "foreground", "equals": "com.android.settings"}`,
  `{"path": "screen.args.query", "contains": "lamp"}`, `{"path": "...", "in": [..]}`, `{"all": [...]}`,
  `{"any": [...]}`; paths are dotted keys into `device.state()` (list items by number);
* `split`: "train" or "test" (default: both), `name`, and `initial` (extra initial conditions for the device).

A task without `check` never reports success from state (`check` is False): judge it with an MLLM/HTTP evaluator.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "goals.jsonl")
>>> _ = open(path, "w").write('{"goal": "turn off wifi", "check": {"path": "system.wifi", "equals": false}}\n')
>>> task = load_task_file(path)[0].tasks("train")[0]
>>> task.goal, task.check({"system": {"wifi": False}}), task.check({"system": {"wifi": True}})
('turn off wifi', True, False)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from android_gym.actions import Action
from android_gym.errors import ConfigError, UnsupportedError
from android_gym.tasks.base import SPLITS, TaskTemplate
from android_gym.ui import UIElement

if TYPE_CHECKING:
    from android_gym.tasks.goals.coverage import Coverage

FIELDS = {"goal", "app", "snapshot", "max_steps", "check", "split", "name", "initial"}
_OPS = ("equals", "contains", "in")


class FileTaskTemplate(TaskTemplate):
    """All tasks of one file; each task's params are its (validated) JSONL object."""

    def __init__(self, name: str, suite: str, entries: Sequence[Mapping[str, Any]]) -> None:
        self.name = name  # type: ignore[misc]  # instance attributes override the ClassVars of code templates
        self.suite = suite  # type: ignore[misc]
        self.entries = [dict(e) for e in entries]

    def values(self, split: str) -> list[dict[str, Any]]:
        """Entries of `split` (an entry without "split" is in both)."""
        return [e for e in self.entries if e.get("split", split) == split]

    def goal(self, params: Mapping[str, Any]) -> str:
        """The line's goal."""
        return str(params["goal"])

    def initial(self, params: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The line's `initial`, plus {"snapshot": {"name": ...}} when it names a snapshot."""
        out = {k: dict(v) for k, v in params.get("initial", {}).items()}
        if params.get("snapshot"):
            out["snapshot"] = {"name": params["snapshot"]}
        return out

    def has_check(self, params: Mapping[str, Any]) -> bool:
        """Whether this task line carries a state check (the oracle judges only those; others need a judge)."""
        return "check" in params

    def check(self, params: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
        """The line's state check (False when it has none)."""
        spec = params.get("check")
        return bool(spec) and evaluate_check(spec, state)

    def expert(self, params: Mapping[str, Any], elements: Sequence[UIElement], state: Mapping[str, Any]) -> Action:
        """Task files have no expert."""
        raise UnsupportedError(f"tasks from a file ({self.suite}) have no expert; collect demonstrations by hand")


def lookup(state: Any, path: str) -> Any:
    """The value at dotted `path` in `state` (list items by index); raises KeyError when absent.

    >>> lookup({"a": [{"b": 3}]}, "a.0.b")
    3
    """
    value = state
    for key in path.split("."):
        if isinstance(value, Mapping):
            value = value[key]
        elif isinstance(value, Sequence) and not isinstance(value, str) and key.lstrip("-").isdigit():
            try:
                value = value[int(key)]
            except (IndexError, ValueError) as e:  # ValueError: "²" is a digit int() refuses, or 5,000 digits
                raise KeyError(key) from e
        else:
            raise KeyError(key)
    return value


def evaluate_check(spec: Mapping[str, Any], state: Mapping[str, Any]) -> bool:
    """Whether `state` satisfies a check spec (see the module docstring).

    A missing path is False, and so is a `contains` whose operand cannot be inside the value (a number in a string,
    a list as a dict key), which raised TypeError inside `env.step()` before (issue 20).
    """
    if "all" in spec:
        return all(evaluate_check(s, state) for s in spec["all"])
    if "any" in spec:
        return any(evaluate_check(s, state) for s in spec["any"])
    try:
        value = lookup(state, spec["path"])
    except KeyError:
        return False
    if "equals" in spec:
        return bool(value == spec["equals"])
    if "contains" in spec:
        try:
            return isinstance(value, str | list | tuple | dict) and spec["contains"] in value
        except TypeError:
            return False
    return value in spec["in"]


def validate_check(spec: Any, where: str) -> None:
    """Raise `ConfigError` naming `where` unless `spec` is a well-formed check."""
    if not isinstance(spec, Mapping):
        raise ConfigError(f"{where}: `check` must be an object, got {spec!r}")
    for combo in ("all", "any"):
        if combo in spec:
            if not isinstance(spec[combo], list) or not spec[combo]:
                raise ConfigError(f"{where}: `check.{combo}` must be a non-empty list")
            for sub in spec[combo]:
                validate_check(sub, where)
            return
    ops = [op for op in _OPS if op in spec]
    if not isinstance(spec.get("path"), str) or len(ops) != 1:
        raise ConfigError(f"{where}: `check` needs a string `path` and exactly one of {_OPS}, got {dict(spec)}")
    if ops[0] == "in" and not isinstance(spec["in"], list):
        raise ConfigError(f"{where}: `check.in` must be a list")


def parse_task_line(line: str, where: str, is_jsonl: bool) -> dict[str, Any]:
    """One task line as a validated entry: {"goal": line} for a goal list, the checked JSON object for JSONL.

    Raises:
        ConfigError: a bad JSONL line, naming `where` (file and line) and what is wrong.
    """
    if not is_jsonl:
        return {"goal": line}
    try:
        entry = json.loads(line)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{where}: not valid JSON ({e.msg} at column {e.colno})") from e
    except RecursionError as e:  # issue 20: a line nested 100,000 deep
        raise ConfigError(f"{where}: JSON nested too deeply to read; a task line is a flat object") from e
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: each line must be a JSON object, got {type(entry).__name__}")
    unknown = set(entry) - FIELDS
    if unknown:
        raise ConfigError(f"{where}: unknown fields {sorted(unknown)}; known: {sorted(FIELDS)}")
    if not isinstance(entry.get("goal"), str) or not entry["goal"].strip():
        raise ConfigError(f"{where}: `goal` must be a non-empty string")
    if "max_steps" in entry and (type(entry["max_steps"]) is not int or entry["max_steps"] < 1):  # bool is no int
        raise ConfigError(f"{where}: `max_steps` must be a positive int, got {entry['max_steps']!r}")
    if "split" in entry and entry["split"] not in SPLITS:
        raise ConfigError(f"{where}: `split` must be one of {SPLITS}, got {entry['split']!r}")
    if "check" in entry:
        validate_check(entry["check"], where)
    if "initial" in entry and not (isinstance(entry["initial"], dict)
                                   and all(isinstance(v, dict) for v in entry["initial"].values())):
        raise ConfigError(f"{where}: `initial` must map targets to objects, e.g. {{\"system\": {{\"wifi\": false}}}}")
    return entry


def read_task_lines(path: str | Path) -> tuple[list[tuple[int, str]], bool]:
    """The (line number, text) of every task line of a file, and whether the file is JSONL.

    Blank lines and `#` comments are skipped; a file is JSONL when named .jsonl/.json or when its first task line
    starts with `{`.

    Raises:
        ConfigError: the file cannot be read or is not UTF-8 text.
    """
    p = Path(path)
    try:
        # Lines end at \n only (read_text has already turned \r\n and \r into \n): splitlines() also split inside
        # JSON strings at U+2028, U+0085 and other characters that JSON allows raw (issue 20).
        lines = p.read_text(encoding="utf-8").split("\n")
    except OSError as e:
        raise ConfigError(f"`task_file` {str(p)!r} cannot be read: {e}") from e
    except UnicodeDecodeError as e:  # issue 20: a binary or Latin-1 file raised UnicodeDecodeError
        raise ConfigError(f"`task_file` {str(p)!r} is not UTF-8 text ({e.reason} at byte {e.start}); save it as "
                          "UTF-8") from e
    content = [(i + 1, ln.strip()) for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]
    is_jsonl = p.suffix in (".jsonl", ".json") or bool(content and content[0][1].startswith("{"))
    return content, is_jsonl


def load_task_file(path: str | Path, suite: str | None = None,
                   parse_goals: bool = False) -> tuple[TaskTemplate, ...]:
    """Parse a goal list (.txt: one goal per line, `#` comments) or JSONL (.jsonl, or lines starting with `{`).

    Args:
        path: the file.
        suite: the suite's name ("file:<stem>" by default).
        parse_goals: read each line of a plain goal list with the goal parser (`android_gym.tasks.goals`): a line
            it covers becomes a task of the matched built-in template (its state check and expert, on the simulated
            phone), worded as the line; the lines it does not cover stay tasks without a check (template
            "uncovered"). JSONL files carry their own checks and are never parsed.

    Returns:
        The parsed lines' templates (`ParsedGoals`, one per matched template), then one `FileTaskTemplate` per
        distinct `max_steps` of the rest (the Task contract reads the budget from the template).

    Raises:
        ConfigError: unreadable or non-UTF-8 file, bad line (the message names file and line; a JSON line nested
            too deeply to parse is one), or no tasks.
    """
    p = Path(path)
    content, is_jsonl = read_task_lines(p)
    suite = suite or f"file:{p.stem}"
    templates: list[TaskTemplate] = []
    rest = content
    if parse_goals and not is_jsonl:
        templates, rest = _parsed(content, suite)
    entries = [parse_task_line(text, f"{p.name}:{number}", is_jsonl) for number, text in rest]
    if not entries and not templates:
        raise ConfigError(f"`task_file` {str(p)!r} holds no tasks")
    budgets = sorted({int(e.get("max_steps", 10)) for e in entries})
    stem = "uncovered" if parse_goals and not is_jsonl else p.stem
    for budget in budgets:
        template = FileTaskTemplate(stem if len(budgets) == 1 else f"{stem}_{budget}", suite,
                                    [e for e in entries if int(e.get("max_steps", 10)) == budget])
        template.max_steps = budget  # type: ignore[misc]
        templates.append(template)
    return tuple(templates)


def _parsed(content: list[tuple[int, str]], suite: str) -> tuple[list[TaskTemplate], list[tuple[int, str]]]:
    """The goal parser's templates for the lines it covers, and the lines it does not."""
    from android_gym.tasks.goals import GoalMatch, ParsedGoals, parse_goal

    by_template: dict[int, tuple[TaskTemplate, list[dict[str, Any]]]] = {}
    rest = []
    for number, text in content:
        match = parse_goal(text)
        if isinstance(match, GoalMatch):
            entry = {"goal": text, "family": match.family, "params": match.params, "line": number}
            by_template.setdefault(id(match.template), (match.template, []))[1].append(entry)
        else:
            rest.append((number, text))
    return [ParsedGoals(inner, suite, entries) for inner, entries in by_template.values()], rest


def file_coverage(path: str | Path) -> Coverage:
    """The goal parser's coverage of a task file's goals (a JSONL file's `goal` fields); see `tasks.goals.coverage`.

    Raises:
        ConfigError: the file cannot be read, is not UTF-8 text, has a bad JSONL line, or holds no goals.
    """
    from android_gym.tasks.goals.coverage import coverage

    p = Path(path)
    content, is_jsonl = read_task_lines(p)
    if not content:
        raise ConfigError(f"`task_file` {str(p)!r} holds no goals")
    goals = [parse_task_line(text, f"{p.name}:{n}", is_jsonl)["goal"] for n, text in content]
    return coverage(goals, str(p), [n for n, _ in content])
