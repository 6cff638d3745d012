"""Tests of task files: goal lists and JSONL become suites that run on the sim and on ADB devices."""

from __future__ import annotations

import json
from pathlib import Path

import gymnasium as gym
import pytest

from android_gym.actions import Action, ActionType
from android_gym.devices.adb import AdbDevice
from android_gym.errors import ConfigError, UnsupportedError
from android_gym.sim.adb import AdbFront
from android_gym.tasks import suites
from android_gym.tasks.files import evaluate_check, load_task_file


def write(tmp_path: Path, name: str, lines: list) -> Path:
    """A task file with `lines` (dicts become JSON)."""
    path = tmp_path / name
    path.write_text("\n".join(json.dumps(x) if isinstance(x, dict) else x for x in lines) + "\n")
    return path


def test_goal_list_becomes_tasks_in_both_splits(tmp_path):
    """One goal per line; blank lines and # comments are skipped; no split means every split."""
    path = write(tmp_path, "goals.txt", ["# my tasks", "Open the Settings app", "", "Search for lamps"])
    (template,) = load_task_file(path)
    assert [t.goal for t in template.tasks("train")] == ["Open the Settings app", "Search for lamps"]
    assert len(template.tasks("test")) == 2 and template.suite == "file:goals"
    with pytest.raises(UnsupportedError, match="no expert"):
        template.tasks("train")[0].expert_action([], {})


def test_jsonl_fields_budgets_splits_snapshots_and_checks(tmp_path):
    """Budgets group into templates; splits filter; snapshots become initial conditions; checks evaluate."""
    path = write(tmp_path, "aitw.jsonl", [
        {"goal": "turn wifi off", "check": {"path": "system.wifi", "equals": False}, "max_steps": 5,
         "initial": {"system": {"wifi": True}}},
        {"goal": "open maps", "app": "Maps", "snapshot": "home", "split": "test"},
    ])
    five, ten = sorted(load_task_file(path), key=lambda t: t.max_steps)
    wifi = five.tasks("train")[0]
    assert wifi.max_steps == 5 and wifi.initial == {"system": {"wifi": True}}
    assert wifi.check({"system": {"wifi": False}}) and not wifi.check({"system": {}})
    assert ten.tasks("train") == [] and ten.tasks("test")[0].initial == {"snapshot": {"name": "home"}}
    assert not ten.tasks("test")[0].check({"foreground": "x"})  # no check: never success from state


def test_check_combinators():
    """Checks combine with all/any and test contains/in over dotted paths (list items by number)."""
    state = {"foreground": "com.android.chrome", "screen": {"args": {"query": "red lamp"}}, "apps": {"x": [1, 2]}}
    assert evaluate_check({"all": [{"path": "screen.args.query", "contains": "lamp"},
                                   {"any": [{"path": "foreground", "in": ["a", "com.android.chrome"]},
                                            {"path": "nope", "equals": 1}]}]}, state)
    assert evaluate_check({"path": "apps.x.1", "equals": 2}, state)
    assert not evaluate_check({"path": "apps.x.9", "equals": 2}, state)


@pytest.mark.parametrize(("line", "message"), [
    ('{"goal": ""}', "goal"), ('{"goal": "x", "colour": 1}', "unknown fields"), ("{not json", "not valid JSON"),
    ('{"goal": "x", "check": {"path": "a"}}', "exactly one of"), ('{"goal": "x", "max_steps": 0}', "max_steps"),
    ('{"goal": "x", "split": "dev"}', "split"),
])
def test_bad_lines_name_file_and_line(tmp_path, line, message):
    """Every malformed line is a ConfigError pointing at file:line."""
    path = tmp_path / "bad.jsonl"
    path.write_text('{"goal": "fine"}\n' + line + "\n")
    with pytest.raises(ConfigError, match=rf"bad\.jsonl:2.*{message}|{message}.*bad\.jsonl:2"):
        load_task_file(path)


def test_missing_or_empty_file_is_a_config_error(tmp_path):
    """Unreadable and empty files are refused with the path in the message."""
    with pytest.raises(ConfigError, match="cannot be read"):
        load_task_file(tmp_path / "none.txt")
    with pytest.raises(ConfigError, match="no tasks"):
        load_task_file(write(tmp_path, "empty.txt", ["# nothing"]))


def play_open_settings(env: gym.Env) -> tuple[float, bool]:
    """Reset, open Settings with OPEN_APP, return (reward, terminated)."""
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(Action(ActionType.OPEN_APP, text="Settings"))
    assert "error" not in info
    return reward, terminated


def test_task_file_route_runs_on_the_sim_and_over_adb(tmp_path, monkeypatch):
    """`gym.make(..., task_file=...)` registers the suite; the oracle judges it on the sim and on an ADB device."""
    monkeypatch.setenv("ADBUTILS_ADB_PATH", "/bin/false")
    path = write(tmp_path, "mine.jsonl", [{"goal": "Open the Settings app",
                                           "check": {"path": "foreground", "equals": "com.android.settings"}}])
    env = gym.make("android_gym/General-v0", task_file=str(path), screenshot_width=0)
    assert env.unwrapped.config.suite == "file:mine" and "file:mine" in suites.suite_names()
    assert play_open_settings(env) == (1.0, True)
    with AdbFront(devices=1, perturbations="none") as front:
        device = AdbDevice("sim-0", port=front.port, timeout_s=5)
        env = gym.make("android_gym/General-v0", task_file=str(path), device=device, screenshot_width=0)
        assert play_open_settings(env) == (1.0, True)
        front.target("sim-0").props["ro.android_gym.sim"] = ""  # now a "real" phone: state from dumpsys/settings
        device.close()
        assert play_open_settings(env) == (1.0, True)
