"""Tests of the `distrl` CLI: each subcommand runs on a tiny budget and writes what it promises.

`test_train_writes_config_checkpoint_metrics_and_summary` is also the asynchronous end-to-end run on the sim.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from distrl_agent.cli import main
from distrl_agent.config import load_config
from distrl_agent.runtime.accounting import episode_balance

TINY = ["--minutes", "2", "--max-env-steps", "300", "--workers", "1", "--envs-per-worker", "2",
        "--warm-start-episodes", "4", "--warm-start-updates", "5", "--eval-episodes", "4", "--checkpoint-every-s", "1",
        "--quiet",
        "learner.batch_size=4", "learner.min_replay_trajectories=4"]


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory) -> tuple[Path, dict, str]:
    """One tiny `distrl train` run: (run_dir, summary, stdout)."""
    run_dir = tmp_path_factory.mktemp("run")
    with pytest.MonkeyPatch.context() as mp:
        captured = []
        mp.setattr("builtins.print", lambda *a, **k: captured.append(" ".join(map(str, a))))
        assert main(["train", "--run-dir", str(run_dir), *TINY]) == 0
    return run_dir, json.loads((run_dir / "summary.json").read_text()), "\n".join(captured)


def test_train_writes_config_checkpoint_metrics_and_summary(trained_run) -> None:
    """Async run: the resolved config is printed and saved, checkpoints are periodic, metrics and summary written."""
    run_dir, summary, stdout = trained_run
    saved = yaml.safe_load((run_dir / "config.yaml").read_text())
    assert saved["runtime"]["max_env_steps"] == 300 and saved["run_dir"] == str(run_dir)
    assert load_config(run_dir / "config.yaml").to_yaml() in stdout
    for key in ("algorithm", "minutes", "updates", "env_steps", "episodes", "train_success", "test_success", "curve",
                "worker_restarts", "learner/updates", "replay/inserted", "runtime/learner_idle_fraction",
                "runtime/broadcast_latency_ms_mean", "runtime/steps_per_s"):
        assert key in summary
    assert summary["updates"] > 0 and summary["env_steps"] >= 300 and summary["sync"] is False
    assert summary["runtime/checkpoints"] >= 2  # periodic ones during the run, plus the final one
    assert summary["curve"] and 0 <= summary["test_success"] <= 1
    assert len(summary["test_success_by_task"]) == min(14, saved["runtime"]["eval_episodes"])  # one entry per template
    assert {"learner.safetensors", "learner.json", "replay.npz", "state.json", "run_state.json"} <= {
        p.name for p in (run_dir / "checkpoint").iterdir()}
    records = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert any("losses/actor" in r and "runtime/env_steps" in r for r in records)
    inserted = int(summary["replay/inserted"])
    assert summary["replay/samples_per_inserted"] == pytest.approx(summary["replay/sampled"] / inserted)
    assert f"replay: of {int(summary['runtime/episodes']):,} episodes" in stdout and f"{inserted:,} inserted" in stdout
    balance = episode_balance(summary)  # every started episode is accounted for; nothing is left in flight
    assert balance["unaccounted"] == 0 and balance["in_flight"] == 0, balance
    assert summary["runtime/trajectories_received"] == summary["learner/received"] == summary["learner/ingested"]
    assert "; unaccounted: 0" in stdout


def test_train_writes_tensorboard_events_that_tensorboard_reads(trained_run) -> None:
    """run_dir/tb holds event files that TensorBoard's own reader loads, with the run's scalars in them."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    run_dir, summary, _ = trained_run
    assert list((run_dir / "tb").glob("events.out.tfevents.*"))
    events = EventAccumulator(str(run_dir / "tb"))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    assert {"losses/actor", "runtime/env_steps", "charts/test_success"} <= tags, sorted(tags)
    actor = events.Scalars("losses/actor")
    assert len(actor) >= 1 and all(np.isfinite(e.value) for e in actor)


def test_planted_pickle_checkpoint_is_refused_by_eval_and_resume(trained_run, tmp_path, capsys) -> None:
    """A run folder whose checkpoint is a pickle carrying code: eval and resume exit 2 naming the file, run nothing."""
    import shutil

    import torch

    class Payload:
        def __reduce__(self):
            return exec, (f"open({str(tmp_path / 'marker')!r}, 'w').write('ran')",)

    run_dir = tmp_path / "run"
    shutil.copytree(trained_run[0], run_dir)
    for name in ("learner.safetensors", "learner.json", "manifest.json"):
        (run_dir / "checkpoint" / name).unlink()
    torch.save({"policy": {}, "evil": Payload()}, run_dir / "checkpoint" / "learner.pt")
    assert main(["eval", "--checkpoint", str(run_dir), "--episodes", "2"]) == 2
    assert "learner.pt" in capsys.readouterr().err
    assert main(["train", "--resume", str(run_dir), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "refused to load" in err and "learner.pt" in err
    assert not (tmp_path / "marker").exists()


def test_train_resume_continues_from_checkpoint(trained_run) -> None:
    """`distrl train --resume DIR` continues the version, the totals and the clock of the run.

    The env-step cap counts the steps of both sessions: raised by 150 past the first session's, the resumed session
    adds the rest (the first overshoots its cap of 300 by the steps collected during its last loop iteration).
    """
    run_dir, before, _ = trained_run
    cap = before["env_steps"] + 150
    assert main(["train", "--resume", str(run_dir), "--max-env-steps", str(cap), "--quiet"]) == 0
    after = json.loads((run_dir / "summary.json").read_text())
    assert after["resumes"] == 1 and after["updates"] >= before["updates"]
    assert after["env_steps"] >= cap and after["minutes"] >= before["minutes"]
    assert yaml.safe_load((run_dir / "config.yaml").read_text())["runtime"]["max_env_steps"] == cap
    assert episode_balance(after)["unaccounted"] == 0  # both sessions' episodes, summed
    assert after["runtime/episodes_started"] > before["runtime/episodes_started"]


def test_train_resume_with_other_config_exits_2(trained_run, capsys) -> None:
    """A resume whose learner config differs from the checkpoint's fails with the key named."""
    run_dir, _, _ = trained_run
    assert main(["train", "--resume", str(run_dir), "--quiet", "learner.lr=0.5"]) == 2
    assert "learner.lr" in capsys.readouterr().err


def test_eval_writes_success_of_checkpoint(trained_run) -> None:
    """`distrl eval` evaluates the run's checkpoint and writes eval_<split>.json."""
    run_dir, _, _ = trained_run
    assert main(["eval", "--checkpoint", str(run_dir), "--split", "train", "--episodes", "3"]) == 0
    result = json.loads((run_dir / "eval_train.json").read_text())
    assert result["split"] == "train" and result["episodes"] == 3 and 0 <= result["success"] <= 1
    assert len(result["success_by_task"]) == 3  # three episodes: the first three templates, one each
    assert result["success"] == pytest.approx(sum(result["success_by_task"].values()) / 3)


def test_eval_without_checkpoint_exits_2(tmp_path, capsys) -> None:
    """Evaluating a directory without a checkpoint says so."""
    assert main(["eval", "--checkpoint", str(tmp_path), "--episodes", "1"]) == 2
    assert "no checkpoint" in capsys.readouterr().err


def test_collect_writes_throughput_and_trajectories(tmp_path) -> None:
    """`distrl collect` writes collect.json with throughput and, with --save, the trajectories."""
    save = tmp_path / "data.npz"
    assert main(["collect", "--seconds", "1", "--workers", "1", "--envs-per-worker", "2", "--run-dir",
                 str(tmp_path), "--save", str(save)]) == 0
    result = json.loads((tmp_path / "collect.json").read_text())
    assert result["env_steps"] > 0 and result["steps_per_s"] > 0 and result["workers"] == 1
    assert result["config"]["runtime"]["envs_per_worker"] == 2 and not (tmp_path / "config.yaml").exists()
    with np.load(save) as data:
        assert sum(k.endswith("/rewards") for k in data.files) == result["trajectories"] > 0


def test_train_with_bad_override_exits_2_naming_key(tmp_path, capsys) -> None:
    """A misspelt key is reported with the closest known one, and nothing runs."""
    assert main(["train", "--run-dir", str(tmp_path), "runtime.wokers=2"]) == 2
    assert "runtime.workers" in capsys.readouterr().err
    assert not (tmp_path / "config.yaml").exists()


def hostile_copy(trained_run, tmp_path: Path, env: dict) -> Path:
    """A copy of the trained run whose config.yaml's `env` section is updated with `env` (a downloaded folder)."""
    import shutil

    run_dir = tmp_path / "downloaded"
    shutil.copytree(trained_run[0], run_dir)
    saved = yaml.safe_load((run_dir / "config.yaml").read_text())
    saved["env"].update(env)
    (run_dir / "config.yaml").write_text(yaml.safe_dump(saved))
    return run_dir


def test_hostile_folder_judge_gets_no_request_and_no_key(trained_run, tmp_path, capsys, monkeypatch) -> None:
    """A folder naming a judge endpoint, a key variable and a task file: eval and resume exit 2, nothing is sent.

    With `--trust-run-dir` the same folder does reach the endpoint, key included: the refusal is what stopped it.
    """
    from android_gym.testing.fake_openai import FakeChatServer

    tasks = tmp_path / "secrets.txt"
    tasks.write_text("the launch codes are 0000\n")
    monkeypatch.setenv("SOME_SECRET", "s3cr3t")
    with FakeChatServer() as server:
        run_dir = hostile_copy(trained_run, tmp_path, {
            "evaluator": f"http:{server.base_url}", "task_file": str(tasks),
            "evaluator_options": {"model": "m", "api_key_env": "SOME_SECRET", "timeout_s": 2, "deadline_s": 4}})
        assert main(["eval", "--checkpoint", str(run_dir), "--episodes", "1"]) == 2
        err = capsys.readouterr().err
        assert "env.evaluator" in err and "env.task_file" in err and "--trust-run-dir" in err
        assert main(["train", "--resume", str(run_dir), "--quiet"]) == 2
        assert "env.evaluator" in capsys.readouterr().err
        assert server.requests == [] and not (run_dir / "eval_test.json").exists()
        assert main(["eval", "--checkpoint", str(run_dir), "--episodes", "1", "--trust-run-dir"]) == 0
        assert server.requests and server.requests[0].headers.get("authorization") == "Bearer s3cr3t"


def test_planted_links_in_a_run_folder_are_refused_and_their_targets_kept(trained_run, tmp_path, capsys) -> None:
    """A link planted as `eval_test.json` or `metrics.jsonl`: exit 2 naming it; the link's target is unchanged."""
    import shutil

    run_dir = tmp_path / "run"
    shutil.copytree(trained_run[0], run_dir)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (run_dir / "eval_test.json").symlink_to(victim)
    assert main(["eval", "--checkpoint", str(run_dir), "--episodes", "1"]) == 2
    err = capsys.readouterr().err
    assert "eval_test.json" in err and "symbolic link" in err
    (run_dir / "metrics.jsonl").unlink()
    (run_dir / "metrics.jsonl").symlink_to(victim)
    assert main(["train", "--resume", str(run_dir), "--quiet"]) == 2
    assert "metrics.jsonl" in capsys.readouterr().err
    assert victim.read_text() == "precious\n"


def test_a_new_run_starts_from_the_latest_runs_clone(trained_run, tmp_path, monkeypatch) -> None:
    """The README's `distrl train --warm-start-from runs/latest/warm_start.safetensors`: `runs/latest` still names the
    earlier run when the new run's folder takes its place, and the new run clones nothing."""  # noqa: D205, D209
    run_dir, _, _ = trained_run
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "latest").symlink_to(run_dir)
    assert main(["train", *TINY, "--max-updates", "1",
                 "--warm-start-from", "runs/latest/warm_start.safetensors"]) == 0
    new = (tmp_path / "runs" / "latest").resolve()
    assert new != run_dir.resolve() and not (new / "warm_start.safetensors").exists()
    assert f"warm_start_from: {run_dir.resolve() / 'warm_start.safetensors'}" in (new / "config.yaml").read_text()
