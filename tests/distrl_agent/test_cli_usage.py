"""The `distrl` command line as a new user meets it (issue 44).

Wrong input, overrides anywhere, help for every setting, run folders that never mix. Nothing here trains but the
two-runs test.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from distrl_agent.cli import main
from distrl_agent.cli.config_help import config_sections, describe_config
from distrl_agent.cli.parser import parse_args
from distrl_agent.config import load_config
from distrl_agent.errors import RunDirError
from distrl_agent.runtime.run_dir import LATEST, prepare_run_dir


def run(argv: list[str]) -> int:
    """`main(argv)`, with argparse's exit turned into its status."""
    try:
        return main(argv)
    except SystemExit as e:
        return int(e.code or 0)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch) -> Path:
    """A fresh working directory (where `runs/` would go)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def wrong_inputs(tmp: Path) -> list[list[str]]:
    """Thirty-odd wrong command lines: flags, overrides, YAML, device specs, splits, folders."""
    (tmp / "bad.yaml").write_text("learner: [unclosed\n")
    (tmp / "list.yaml").write_text("- 1\n- 2\n")
    (tmp / "typo.yaml").write_text("learner:\n  lrr: 0.1\n")
    (tmp / "held").mkdir()
    (tmp / "held" / "notes.txt").write_text("mine\n")
    return [
        ["train", "--minutes", "-1"],
        ["train", "runtime.minutes=abc"],
        ["train", "runtime.wokers=2"],
        ["train", "learner.algorithm=nope"],
        ["train", "--algorithm", "a_ride"],
        ["train", "learner.lr=0"],
        ["train", "env.env_id=android_gym/Nope-v0"],
        ["train", "env.suite=webshop"],
        ["train", "env.split=test"],
        ["train", "policy.kind=vlm"],
        ["train", "policy.kind=big"],
        ["train", "--workers", "0"],
        ["train", "--envs-per-worker", "x"],
        ["train", "--runtime", "spark"],
        ["train", "--sync", "learner.algorithm=grpo", "runtime.episodes_per_round=3"],
        ["train", "--fault-prefixes", "learner.algorithm=digirl"],
        ["train", "learner.coefficients.rho_bar_max=-1"],
        ["train", "learner.coefficients.ratio_level=tokens"],
        ["train", "learner.coefficients.nope=1"],
        ["train", "policy.small.vocab_size=1e12"],
        ["train", "env.latency=slowpoke"],
        ["train", "env.device=42"],
        ["train", "--config", str(tmp / "missing.yaml")],
        ["train", "--config", str(tmp / "bad.yaml")],
        ["train", "--config", str(tmp / "list.yaml")],
        ["train", "--config", str(tmp / "typo.yaml")],
        ["train", "noequals"],
        ["train", "--bogus"],
        ["train", "=5"],
        ["train", "learner.lr=[1"],
        ["train", "--resume", str(tmp / "nothing")],
        ["train", "--run-dir", str(tmp / "held")],
        ["train", "--help-config", "nope"],
        ["eval"],
        ["eval", "--checkpoint", str(tmp / "nothing")],
        ["eval", "--checkpoint", str(tmp / "held"), "--split", "nope"],
        ["eval", "--checkpoint", str(tmp / "held"), "--episodes", "0"],
        ["collect", "--seconds", "abc"],
        ["config", "env.max_elements=-3"],
        ["nope"],
    ]


def test_every_wrong_input_exits_2_with_one_line_and_creates_nothing(in_tmp, capsys) -> None:
    """Each wrong command line: exit 2, exactly one line on stderr naming the problem, no traceback, no folder."""
    cases = wrong_inputs(in_tmp)
    before = sorted(p.name for p in in_tmp.iterdir())
    assert len(cases) >= 30
    for argv in cases:
        code = run(argv)
        captured = capsys.readouterr()
        lines = [line for line in captured.err.splitlines() if line.strip()]
        assert code == 2, f"{argv}: exit {code}\n{captured.err}"
        assert len(lines) == 1 and lines[0].startswith("distrl"), f"{argv}: {captured.err}"
        assert "Traceback" not in captured.err and not captured.out.strip(), f"{argv}: {captured}"
        assert sorted(p.name for p in in_tmp.iterdir()) == before, f"{argv} created files"
        assert sorted(p.name for p in (in_tmp / "held").iterdir()) == ["notes.txt"], f"{argv} touched held/"


def test_overrides_stand_anywhere_and_booleans_turn_off() -> None:
    """`key=value` before and after flags, and `--no-X`, reach the config."""
    args = parse_args(["train", "learner.algorithm=digirl", "--sync", "runtime.minutes=5", "--no-sync-lockstep",
                       "--minutes", "3", "learner.lr=2e-4"])
    assert args.override == ["learner.algorithm=digirl", "runtime.minutes=5", "learner.lr=2e-4"]
    assert args.sync is True and args.sync_lockstep is False and args.minutes == "3"


def test_config_prints_what_train_runs_and_loads_back(in_tmp, capsys) -> None:
    """`distrl config` prints the resolved config (workers resolved); `--config` of it gives the same config."""
    assert run(["config", "--no-sync-lockstep", "learner.algorithm=ppo", "--minutes", "7"]) == 0
    printed = capsys.readouterr().out
    data = yaml.safe_load(printed)
    assert data["runtime"]["workers"] >= 1 and data["runtime"]["minutes"] == 7
    assert data["runtime"]["sync_lockstep"] is False and data["learner"]["coefficients"]["epochs"] == 4
    (in_tmp / "ppo.yaml").write_text(printed)
    assert load_config(in_tmp / "ppo.yaml").to_yaml() == yaml.safe_dump(data, sort_keys=False)
    assert not (in_tmp / "runs").exists()


def test_changing_the_algorithm_of_a_saved_config_takes_the_new_rules_coefficients(in_tmp, capsys) -> None:
    """A saved A-RIDE config run as PPO: the A-RIDE coefficients go, PPO's defaults and overrides apply."""
    (in_tmp / "aride.yaml").write_text(load_config().to_yaml())
    assert run(["config", "--config", "aride.yaml", "--algorithm", "ppo", "learner.coefficients.epochs=2"]) == 0
    coefficients = yaml.safe_load(capsys.readouterr().out)["learner"]["coefficients"]
    assert coefficients["epochs"] == 2 and "rho_bar_max" not in coefficients
    assert run(["config", "--config", "aride.yaml", "learner.coefficients.entropy_coef=0.02"]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["learner"]["coefficients"]["rho_bar_max"] is not None


@pytest.mark.parametrize("algorithm", ["a-ride", "digirl", "filtered-bc", "ppo", "grpo"])
def test_help_config_describes_every_setting(algorithm) -> None:
    """Every field of every section, for every rule, has a description and a value in `--help-config`."""
    config = load_config(overrides=[f"learner.algorithm={algorithm}"])
    text = describe_config(config)
    assert "(undocumented)" not in text
    for prefix, cls, _ in config_sections(config):
        for field in cls.model_fields:
            if prefix or field == "run_dir":
                key = f"{prefix}.{field}" if prefix else field
                assert f"\n{key} = " in f"\n{text}" or field in ("small", "vlm", "custom", "coefficients"), key


def test_help_config_of_a_section_follows_the_command_line(capsys) -> None:
    """`--help-config learner.coefficients learner.algorithm=ppo` lists PPO's coefficients with their values."""
    assert run(["train", "--help-config", "learner.coefficients", "learner.algorithm=ppo",
                "learner.coefficients.epochs=3"]) == 0
    out = capsys.readouterr().out
    assert "learner.coefficients.epochs = 3  (int >= 1)" in out and "rho_bar_max" not in out
    assert "learner.lr" not in out  # only the section asked for


def test_fresh_runs_get_their_own_folders_and_latest_follows(tmp_path) -> None:
    """Two fresh runs in the same second: two folders, `latest` the second; a named folder holding a run refused."""
    config = load_config()
    first = prepare_run_dir(config, root=tmp_path / "runs")
    second = prepare_run_dir(config, root=tmp_path / "runs")
    assert first.run_dir != second.run_dir and Path(str(second.run_dir)).is_dir()
    assert (tmp_path / "runs" / LATEST).resolve() == Path(str(second.run_dir)).resolve()
    assert Path(str(first.run_dir)).name.endswith("-a-ride-general")
    (Path(str(first.run_dir)) / "metrics.jsonl").write_text("{}\n")
    (Path(str(first.run_dir)) / "notes.txt").write_text("mine\n")
    named = config.replace(run_dir=str(first.run_dir))
    with pytest.raises(RunDirError, match="--resume .*--overwrite"):
        prepare_run_dir(named)
    prepare_run_dir(named, overwrite=True)  # the earlier run's files go, the user's stay
    assert sorted(p.name for p in Path(str(first.run_dir)).iterdir()) == ["notes.txt"]
    resumed = prepare_run_dir(config.replace(run_dir=str(tmp_path / "runs" / LATEST)),
                              resume=tmp_path / "runs" / LATEST)
    assert resumed.run_dir == str(Path(str(second.run_dir)).resolve())  # writes stay there if latest moves


def test_overwrite_removes_a_planted_link_not_its_target(tmp_path) -> None:
    """`--overwrite` on a folder with a link named like a run file unlinks it; the target is untouched."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("precious\n")
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "tb").symlink_to(victim, target_is_directory=True)
    prepare_run_dir(load_config().replace(run_dir=str(run_dir)), overwrite=True)
    assert not os.path.lexists(run_dir / "tb") and (victim / "keep.txt").read_text() == "precious\n"


def test_train_twice_gives_two_folders(in_tmp, capsys) -> None:
    """Two `distrl train` runs with no --run-dir: two dated folders under runs/, `runs/latest` the newer."""
    tiny = ["train", "--quiet", "--minutes", "0.05", "--max-env-steps", "16", "--workers", "1", "--envs-per-worker",
            "1", "--warm-start-episodes", "0", "--eval-episodes", "1", "learner.batch_size=2",
            "learner.min_replay_trajectories=2"]
    assert run(tiny) == 0
    assert run(tiny) == 0
    folders = sorted(p for p in (in_tmp / "runs").iterdir() if p.name != LATEST)
    assert len(folders) == 2 and all((f / "summary.json").is_file() for f in folders)
    assert (in_tmp / "runs" / LATEST).resolve() == folders[-1].resolve()
    for folder in folders:  # one run each: metrics never mix
        assert yaml.safe_load((folder / "config.yaml").read_text())["run_dir"] == str(folder.relative_to(in_tmp))
