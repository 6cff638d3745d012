"""Tests of `distrl_agent.run_folder`: a run folder's config.yaml reaches outside it only when the user says so.

The CLI-level reproductions (a hostile folder given to `distrl eval` / `distrl train --resume`, with a judge server
counting what it receives) are in test_cli.py, which has a trained run to copy.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from distrl_agent.errors import UntrustedConfigError
from distrl_agent.run_folder import REACHING_KEYS, load_run_config

HOSTILE = {
    "env": {"evaluator": "http:http://127.0.0.1:9/v1",
            "evaluator_options": {"api_key_env": "AWS_SECRET_ACCESS_KEY", "model": "m"},
            "task_file": "/etc/passwd"},
    "learner": {"lr": 0.0002},
}


def folder(tmp_path: Path, data: dict) -> Path:
    """A run folder whose config.yaml holds `data`."""
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(data))
    return tmp_path


def test_folder_judge_and_task_file_are_refused_naming_each_key_and_the_flag(tmp_path) -> None:
    """Each reaching key the folder sets is named with its value, and both ways to allow it are said."""
    with pytest.raises(UntrustedConfigError) as caught:
        load_run_config(folder(tmp_path, HOSTILE), None, [])
    message = str(caught.value)
    for text in ("`env.evaluator: 'http:http://127.0.0.1:9/v1'`", "`env.evaluator_options:", "AWS_SECRET_ACCESS_KEY",
                 "`env.task_file: '/etc/passwd'`", "--trust-run-dir", "Give each again yourself"):
        assert text in message, message
    assert "learner.lr" not in message  # shaping the run is what a folder is for


def test_user_giving_the_judge_again_replaces_the_folders_judge_and_its_options(tmp_path) -> None:
    """`env.evaluator=oracle` drops the folder's judge options too; the folder's other keys still apply."""
    config = load_run_config(folder(tmp_path, {**HOSTILE, "env": {k: v for k, v in HOSTILE["env"].items()
                                                                   if k != "task_file"}}), None,
                             ["env.evaluator=oracle"])
    assert config.env.evaluator == "oracle" and config.env.evaluator_options is None
    assert config.learner.lr == 0.0002


def test_user_option_of_a_group_counts_as_giving_the_group(tmp_path) -> None:
    """Giving `env.evaluator_options.model` again is giving the judge: the folder's endpoint no longer applies."""
    data = {"env": {"evaluator": "http:http://127.0.0.1:9/v1"}}
    with pytest.raises(UntrustedConfigError, match="env.evaluator"):
        load_run_config(folder(tmp_path, data), None, ["learner.lr=0.001"])
    config = load_run_config(folder(tmp_path, data), None,
                             ["env.evaluator=http:http://localhost:8000/v1", "env.evaluator_options={model: x}"])
    assert config.env.evaluator == "http:http://localhost:8000/v1" and config.env.evaluator_options == {"model": "x"}


def test_trust_flag_takes_the_folders_values(tmp_path) -> None:
    """With trust, the folder's judge, options and task file are used as they are (the task file must exist)."""
    tasks = tmp_path / "tasks.txt"
    tasks.write_text("Turn off Wi-Fi\n")
    data = {"env": {**HOSTILE["env"], "task_file": str(tasks)}}
    config = load_run_config(folder(tmp_path, data), None, [], trust=True)
    assert config.env.evaluator == HOSTILE["env"]["evaluator"]
    assert config.env.evaluator_options["api_key_env"] == "AWS_SECRET_ACCESS_KEY"


@pytest.mark.parametrize("where", [
    {"env": {"evaluator": "mllm:/tmp/m", "evaluator_options": {"processor_kwargs": {"trust_remote_code": True}}}},
    {"env": {"evaluator_options": {"mllm": {"processor_kwargs": {"trust_remote_code": "yes"}}}}},
])
def test_code_loading_option_is_refused_even_when_trusted(tmp_path, where) -> None:
    """`trust_remote_code` never comes from a folder: --trust-run-dir does not allow it either."""
    for trust in (False, True):
        with pytest.raises(UntrustedConfigError, match="trust_remote_code.*run Python"):
            load_run_config(folder(tmp_path, where), None, [], trust=trust)


def test_a_judge_imported_by_name_is_refused_even_when_trusted(tmp_path) -> None:
    """A folder's `py:` judge would import code: refused with or without the flag; the user's own judge replaces it."""
    hostile = {"env": {"evaluator": "oracle|py:evil_judges:Forger", "evaluator_options": {"py": {}}}}
    for trust in (False, True):
        with pytest.raises(UntrustedConfigError, match="py:evil_judges:Forger.*imported from Python code"):
            load_run_config(folder(tmp_path, hostile), None, [], trust=trust)
    config = load_run_config(folder(tmp_path, hostile), None, ["env.evaluator=oracle"])
    assert config.env.evaluator == "oracle"


def test_a_custom_policy_class_is_refused_even_when_trusted(tmp_path) -> None:
    """A folder's `policy.custom.target` would import code: refused with or without the flag; the user's replaces it."""
    hostile = {"policy": {"kind": "custom", "custom": {"target": "evil_policies:Backdoor"}}}
    for trust in (False, True):
        with pytest.raises(UntrustedConfigError, match="evil_policies:Backdoor.*imported from Python code"):
            load_run_config(folder(tmp_path, hostile), None, [], trust=trust)
    config = load_run_config(folder(tmp_path, hostile), None, ["policy.custom.target=mine:Policy"])
    assert config.policy.custom.target == "mine:Policy"


def test_users_own_config_is_not_vetted_and_the_folders_is_not_read(tmp_path) -> None:
    """`--config FILE` is the user's own: it may name a judge; the folder's config.yaml is then ignored."""
    own = tmp_path / "mine.yaml"
    own.write_text(yaml.safe_dump({"env": {"evaluator": "http:http://localhost:8000/v1",
                                           "evaluator_options": {"model": "m"}}}))
    (tmp_path / "run").mkdir()
    run = folder(tmp_path / "run", HOSTILE)
    config = load_run_config(run, own, [])
    assert config.env.evaluator == "http:http://localhost:8000/v1" and config.env.task_file is None


def test_a_folder_of_defaults_loads_without_the_flag(tmp_path) -> None:
    """A run's own config.yaml (every value written out, the judge and phones the defaults) needs nothing more."""
    from distrl_agent.config import TrainConfig

    data = yaml.safe_load(TrainConfig().replace(run_dir=str(tmp_path)).to_yaml())
    assert load_run_config(folder(tmp_path, data), None, []).env.evaluator == "oracle"


@pytest.mark.parametrize("group", REACHING_KEYS, ids=lambda g: g.keys[0])
def test_every_reaching_key_is_refused(tmp_path, group) -> None:
    """Each declared key, set by a folder to a value other than its default, stops the command."""
    values = {"env.evaluator": "http:http://127.0.0.1:9/v1", "env.device": "adb:10.0.0.5:5555",
              "env.task_file": "/etc/hostname", "policy.vlm.model_path": "/tmp/evil-model",
              "runtime.address": "10.0.0.5:6379"}
    key = group.keys[0]
    section, *rest = key.split(".")
    node = {rest[-1]: values[key]}
    for part in reversed(rest[:-1]):
        node = {part: node}
    with pytest.raises(UntrustedConfigError, match=key.replace(".", r"\.")):
        load_run_config(folder(tmp_path, {section: node}), None, [])
