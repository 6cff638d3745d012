"""Fuzz tests of `android_gym.tasks.files`: a user's task file loads into valid tasks or raises `ConfigError`.

Loaded tasks must also be usable: their goal, budget, initial conditions and state check never raise on any device
state, since a check runs inside `env.step()`. `validate_check` raises only `ConfigError`.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import event, example, given
from hypothesis import strategies as st

from android_gym.errors import ConfigError
from android_gym.tasks.base import SPLITS
from android_gym.tasks.files import FileTaskTemplate, evaluate_check, load_task_file, validate_check

SUFFIXES = [".txt", ".jsonl", ".json", ""]

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False),
                      st.text(max_size=12))
json_values = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                              st.dictionaries(st.text(max_size=6), inner,
                                                                              max_size=3)), max_leaves=8)
paths = st.lists(st.one_of(st.sampled_from(["system", "wifi", "screen", "args", "query", "0", "1", "-1", "²",
                                            "9" * 5000, "foreground", ""]), st.text(max_size=6)),
                 min_size=1, max_size=4).map(".".join)
leaf_checks = st.builds(lambda path, op, operand: {"path": path, op: operand}, st.one_of(paths, json_values),
                        st.sampled_from(["equals", "contains", "in"]), json_values)
checks = st.recursive(leaf_checks, lambda inner: st.one_of(
    st.builds(lambda kind, subs: {kind: subs}, st.sampled_from(["all", "any"]), st.lists(inner, max_size=3)),
    st.builds(lambda a, b: {**a, **b}, inner, inner)), max_leaves=6) | json_values
entries = st.fixed_dictionaries(
    {"goal": st.one_of(st.text(max_size=30), json_values)},
    optional={"app": json_values, "snapshot": st.one_of(st.text(max_size=10), json_values),
              "max_steps": st.one_of(st.integers(-3, 10**20), st.booleans(), st.floats(), st.text(max_size=3)),
              "check": checks, "split": st.one_of(st.sampled_from(SPLITS), json_values),
              "name": json_values,
              "initial": st.one_of(st.dictionaries(st.text(max_size=6), st.dictionaries(st.text(max_size=6),
                                                                                        json_leaf, max_size=2),
                                                   max_size=2), json_values),
              "unknown": json_values},
)
states = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                         st.dictionaries(st.sampled_from(["system", "wifi",
                                                                                          "screen", "args", "query",
                                                                                          "0", "foreground"]),
                                                                         inner, max_size=4)), max_leaves=12)


def load(content: bytes, suffix: str) -> tuple[FileTaskTemplate, ...] | None:
    """`load_task_file` on `content` written to a fresh temporary file; None when it raised `ConfigError`."""
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / f"tasks{suffix}"
        path.write_bytes(content)
        try:
            templates = load_task_file(path)
        except ConfigError:
            event("refused (ConfigError)")
            return None
        event("loaded")
        return templates


def check_templates(templates: tuple[FileTaskTemplate, ...], state: object) -> None:
    """The documented result: templates with positive budgets whose tasks never raise on a state."""
    assert templates and all(isinstance(t, FileTaskTemplate) for t in templates)
    for template in templates:
        assert type(template.max_steps) is int and template.max_steps >= 1
        for split in SPLITS:
            for task in template.tasks(split):
                assert isinstance(task.goal, str) and task.goal.strip()
                assert isinstance(task.initial, dict)
                assert isinstance(task.check(state if isinstance(state, dict) else {"x": state}), bool)


# -- arbitrary content -------------------------------------------------------------------------------------------------
@given(st.binary(), st.sampled_from(SUFFIXES), states)
def test_any_bytes_load_or_are_a_config_error(content, suffix, state):
    """Any file content (invalid UTF-8 included), with any suffix, loads or raises `ConfigError`."""
    templates = load(content, suffix)
    if templates is not None:
        check_templates(templates, state)


@given(st.text(), st.sampled_from(SUFFIXES), states)
def test_any_text_loads_or_is_a_config_error(text, suffix, state):
    """Any text (surrogates written with surrogatepass, so as invalid UTF-8) loads or raises `ConfigError`."""
    templates = load(text.encode("utf-8", "surrogatepass"), suffix)
    if templates is not None:
        check_templates(templates, state)


# -- near-valid JSONL --------------------------------------------------------------------------------------------------
def jsonl(lines: list[object], separator: str) -> bytes:
    """JSON lines joined by `separator`; strings are written as they are."""
    return separator.join(line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)
                          for line in lines).encode("utf-8")


@given(st.lists(st.one_of(entries, st.text(max_size=20), st.sampled_from(["", "# comment", "{", "[]", "null",
                                                                          '{"goal": "x"', "{}"])),
                min_size=0, max_size=6),
       st.sampled_from(["\n", "\r\n", "\r"]), st.sampled_from(SUFFIXES), states)
def test_near_valid_jsonl_loads_or_is_a_config_error(lines, separator, suffix, state):
    """JSONL lines with random field values (wrong types, unknown keys, odd checks) load or raise `ConfigError`."""
    templates = load(jsonl(lines, separator), suffix)
    if templates is not None:
        check_templates(templates, state)


@given(st.lists(st.builds(lambda goal, steps: {"goal": goal, "max_steps": steps},
                          st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30)
                          .filter(str.strip), st.integers(1, 50)), min_size=1, max_size=5))
@example([{"goal": "say\u2028hi", "max_steps": 3}])
@example([{"goal": "next\x85line", "max_steps": 3}])
def test_valid_jsonl_keeps_every_goal(entries_):
    """Valid JSONL loads every line's goal exactly, whatever Unicode the goal holds (U+2028, NEL, ...)."""
    templates = load(jsonl(entries_, "\n"), ".jsonl")
    assert templates is not None
    goals = sorted(task.goal for template in templates for task in template.tasks("train"))
    assert goals == sorted(e["goal"] for e in entries_)
    assert {t.max_steps for t in templates} == {e["max_steps"] for e in entries_}


@given(st.integers(1, 100_000), st.sampled_from(["[", '{"goal": ', '{"goal": "x", "check": {"all": [']))
@example(100_000, "[")
def test_deeply_nested_json_line_is_a_config_error(depth, opener):
    """A line nested 100,000 deep (JSON recursion) is `ConfigError`, not RecursionError."""
    closer = {"[": "]", '{"goal": ': "}", '{"goal": "x", "check": {"all": [': "]}}"}[opener]
    assert load((opener * depth + "1" + closer * depth).encode(), ".jsonl") is None


@given(checks, states)
def test_validated_checks_never_raise_on_a_state(spec, state):
    """`validate_check` raises only `ConfigError`; a check it accepts evaluates to a bool on any state."""
    try:
        validate_check(spec, "tasks.jsonl:1")
    except ConfigError:
        return
    assert isinstance(evaluate_check(spec, state if isinstance(state, dict) else {"x": state}), bool)
