"""Tests of `distrl_agent.runtime.train`: the synchronous protocol end to end, checkpoints, resume errors.

The asynchronous run end to end is `tests/distrl_agent/test_cli.py` (`distrl train`), to keep the suite short.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from distrl_agent.config import load_config
from distrl_agent.errors import CheckpointError, ConfigError
from distrl_agent.runtime.accounting import episode_balance
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.checkpoint import find_checkpoint, read_run_state, save_checkpoint
from distrl_agent.runtime.learner import Learner
from distrl_agent.runtime.progress import RunState
from distrl_agent.runtime.train import lr_scale, spent_fraction, train
from distrl_agent.runtime.warm_start import weights_digest

TINY = ["runtime.minutes=0.1", "runtime.envs_per_worker=2", "runtime.warm_start_episodes=4",
        "runtime.warm_start_updates=5", "runtime.eval_episodes=4", "learner.batch_size=4",
        "learner.min_replay_trajectories=4"]


def test_train_sync_end_to_end_rounds_use_one_version(tmp_path) -> None:
    """Sync mode on the sim: rounds of 2 workers x 3 episodes, training between them, each episode one version.

    The run stops at `runtime.max_updates` (two rounds of 4 updates), long before its 3-minute clock.
    """
    config = load_config(overrides=[*TINY, "runtime.workers=2", "runtime.sync=true", "runtime.episodes_per_round=3",
                                    "runtime.minutes=3", "runtime.max_updates=8", f"run_dir={tmp_path}"])
    summary = train(config, show_progress=False)
    assert summary["sync"] is True and summary["updates"] == 8 and summary["minutes"] < 3
    assert episode_balance(summary)["unaccounted"] == 0
    assert summary["runtime/trajectories_received"] == summary["learner/received"] + summary[
        "runtime/stale_round_trajectories"]
    assert summary["episodes"] >= 6 and summary["learner/ingested"] % 3 == 0
    assert summary["runtime/publishes"] >= 1 and 0 <= summary["runtime/learner_idle_fraction"] <= 1
    with np.load(tmp_path / "checkpoint" / "replay.npz") as replay:
        versions = [replay[k] for k in replay.files if k.endswith("/policy_version")]
    assert versions and all(v.min() == v.max() for v in versions)
    assert len({int(v[0]) for v in versions}) >= 2  # later rounds ran with newer weights
    assert json.loads((tmp_path / "summary.json").read_text())["updates"] == summary["updates"]


def test_train_on_world_answers_and_reports_the_generalisation_splits(tmp_path) -> None:
    """On World the small policy may declare (answers, impossibility), and the summary adds the held-out splits."""
    config = load_config(overrides=[*TINY, "env.env_id=android_gym/World-v0", "runtime.workers=1",
                                    "runtime.sync=true", "runtime.episodes_per_round=2", "runtime.minutes=3",
                                    "runtime.max_updates=2", f"run_dir={tmp_path}"])
    assert config.policy.small.declare is True
    summary = train(config, show_progress=False)
    assert 0 <= summary["unseen_templates_success"] <= 1 and 0 <= summary["unseen_apps_success"] <= 1
    assert "declare: true" in (tmp_path / "config.yaml").read_text()


def test_train_async_with_ppo_runs_its_epochs_on_each_batch(tmp_path) -> None:
    """PPO end to end on the local asynchronous runtime: each sampled batch is `epochs` (4) versions."""
    config = load_config(overrides=[*TINY, "runtime.workers=1", "learner.algorithm=ppo", "runtime.minutes=3",
                                    "runtime.max_updates=8", "learner.critic_warmup_updates=0", f"run_dir={tmp_path}"])
    summary = train(config, show_progress=False)
    assert summary["algorithm"] == "ppo" and summary["updates"] % 4 == 0 and summary["updates"] >= 8
    assert summary["minutes"] < 3 and summary["learner/ingested"] > 0
    records = [json.loads(line) for line in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    clip_fractions = [r["charts/clip_fraction"] for r in records if "charts/clip_fraction" in r]
    assert clip_fractions and all(0 <= f <= 1 for f in clip_fractions)


def test_train_async_with_grpo_learns_from_whole_groups_only(tmp_path) -> None:
    """GRPO end to end on the local asynchronous runtime: workers play groups, the replay holds grouped episodes."""
    config = load_config(overrides=[*TINY, "runtime.workers=1", "learner.algorithm=grpo", "runtime.minutes=3",
                                    # a policy that sometimes succeeds: groups of all failures teach GRPO nothing
                                    # (dropped), and with 4 demonstrations they were most groups (25 s, now ~9 s)
                                    "runtime.warm_start_episodes=24", "runtime.warm_start_updates=40",
                                    "learner.coefficients={group_size: 2}", "runtime.max_updates=2",
                                    "learner.batch_size=2", "learner.min_replay_trajectories=2",
                                    f"run_dir={tmp_path}"])
    summary = train(config, show_progress=False)
    assert summary["algorithm"] == "grpo" and summary["updates"] >= 2 and summary["minutes"] < 3
    assert summary["runtime/groups_released"] >= 1 and summary["learner/rejected"] == 0
    balance = episode_balance(summary)  # members held by an unfinished group, or of dropped groups, included
    assert balance["unaccounted"] == 0 and balance["in_flight"] == 0, balance
    with np.load(tmp_path / "checkpoint" / "replay.npz") as replay:
        groups = [json.loads(str(replay[k]))["metadata"]["group"] for k in replay.files if k.endswith("header")]
    assert groups and all(g["members"] == 2 and g["std"] > 0 for g in groups)


def test_train_resume_rejects_checkpoint_of_another_config(tmp_path) -> None:
    """Resuming with a different learner config fails before any worker starts, naming the key."""
    learner = build_learner(load_config(overrides=[*TINY, f"run_dir={tmp_path}"]))
    save_checkpoint(learner, RunState(), tmp_path)
    other = load_config(overrides=[*TINY, f"run_dir={tmp_path}", "learner.batch_size=8"])
    with pytest.raises(CheckpointError, match="learner.batch_size"):
        train(other, resume=tmp_path, show_progress=False)


def test_find_checkpoint_falls_back_to_previous_after_interrupted_swap(tmp_path) -> None:
    """A crash between the two renames of a checkpoint swap leaves the previous checkpoint usable."""
    learner = build_learner(load_config(overrides=TINY))
    save_checkpoint(learner, RunState(checkpoints=1), tmp_path)
    assert find_checkpoint(tmp_path) == tmp_path / "checkpoint"
    (tmp_path / "checkpoint").rename(tmp_path / "checkpoint.old")
    assert find_checkpoint(tmp_path) == tmp_path / "checkpoint.old"
    assert read_run_state(find_checkpoint(tmp_path)).checkpoints == 1
    with pytest.raises(CheckpointError, match="no checkpoint"):
        find_checkpoint(tmp_path / "elsewhere")


def test_train_from_initial_weights_skips_the_warm_start(tmp_path, monkeypatch) -> None:
    """Given starting weights (a benchmark's shared warm start), train uses them and runs no warm start of its own.

    Its learning curve records the env steps collected at each evaluation.
    """
    import distrl_agent.runtime.train as train_module

    def no_warm_start(config):
        raise AssertionError("the configured warm start ran although initial weights were given")

    received = []
    original = Learner.set_policy_weights

    def record(self, weights):
        received.append(weights)
        original(self, weights)

    monkeypatch.setattr(train_module, "warm_start", no_warm_start)
    monkeypatch.setattr(Learner, "set_policy_weights", record)
    # ends after 1,000 env steps, not after a few seconds (a loaded machine may spend those starting the worker),
    # with an evaluation every second on the way
    config = load_config(overrides=[*TINY, "runtime.minutes=2", "runtime.max_env_steps=1000", "runtime.workers=1",
                                    "runtime.eval_every_s=1", f"run_dir={tmp_path}"])
    start = build_learner(load_config(overrides=["runtime.seed=7"])).weights()
    summary = train(config, show_progress=False, initial_weights=start)
    assert len(received) == 1 and received[0] is start
    # the summary names the start, so that runs compared seed by seed can be checked to share it
    assert summary["start_weights_sha256"] == weights_digest(start) != weights_digest(
        build_learner(load_config(overrides=["runtime.seed=8"])).weights())
    steps = [p["env_steps"] for p in summary["curve"]]
    assert steps[0] == 0 and steps == sorted(steps) and len(steps) >= 2 and steps[-1] > 0


def test_budget_is_the_largest_spent_fraction_of_time_updates_and_steps() -> None:
    """`runtime.max_updates` and `max_env_steps` cap a run beside its minutes; unset caps do not count."""
    clock_only = load_config(overrides=["runtime.minutes=10"])
    assert spent_fraction(clock_only, 300, updates=10**9, env_steps=10**9) == 0.5
    capped = load_config(overrides=["runtime.minutes=10", "runtime.max_updates=100", "runtime.max_env_steps=1000"])
    assert spent_fraction(capped, 60, updates=50, env_steps=100) == 0.5  # the updates bind
    assert spent_fraction(capped, 60, updates=10, env_steps=900) == 0.9  # the steps bind
    assert spent_fraction(capped, 6000, updates=0, env_steps=0) == 1.0  # never past 1
    assert lr_scale(capped, 0, updates=100) == 0.1  # the learning rate anneals over the binding cap
    for bad in ("runtime.max_updates=0", "runtime.max_env_steps=-5"):
        with pytest.raises(ConfigError, match=bad.split("=")[0]):
            load_config(overrides=[bad])


def test_learning_rate_anneals_linearly_over_the_budget() -> None:
    config = load_config(overrides=["runtime.minutes=10"])
    assert [lr_scale(config, s) for s in (0, 300, 600, 900)] == [1.0, 0.55, 0.1, 0.1]  # to 10% by default
    assert lr_scale(load_config(overrides=["runtime.minutes=10", "learner.lr_final_fraction=1"]), 600) == 1.0
    learner = build_learner(config)
    learner.set_lr_scale(0.5)
    assert [g["lr"] for g in learner.optimizer.param_groups] == [pytest.approx(5e-5)]
    with pytest.raises(ConfigError, match="learner.lr_final_fraction"):
        load_config(overrides=["learner.lr_final_fraction=1.5"])


def test_a_run_saves_its_clone_and_a_later_run_starts_from_it_without_cloning(tmp_path, monkeypatch) -> None:
    """`distrl train` on World clones for minutes: the clone is saved in the run folder, and
    `runtime.warm_start_from` starts the next run from it (or from a run folder's newest policy) without cloning."""  # noqa: D205, D209
    from safetensors.numpy import load_file

    import distrl_agent.runtime.train as train_module
    from distrl_agent.runtime.checkpoint import read_policy

    received = []
    original = Learner.set_policy_weights

    def record(self, weights):
        received.append({k: np.array(v) for k, v in weights.items()})
        original(self, weights)

    monkeypatch.setattr(Learner, "set_policy_weights", record)
    monkeypatch.chdir(tmp_path)  # runs go to runs/<date>-<time>-..., runs/latest the newest
    short = [*TINY, "runtime.minutes=2", "runtime.max_updates=2", "runtime.workers=1"]
    cloned = train(load_config(overrides=short), show_progress=False)
    first = (tmp_path / "runs" / "latest").resolve()
    (tmp_path / "first").symlink_to(first)
    saved = load_file(tmp_path / "first" / "warm_start.safetensors")
    assert len(received) == 1 and received[0].keys() == saved.keys()
    assert all(np.array_equal(received[0][k], saved[k]) for k in saved)

    def no_warm_start(config, show_progress=False):
        raise AssertionError("cloned although runtime.warm_start_from was given")

    monkeypatch.setattr(train_module, "warm_start", no_warm_start)
    received.clear()
    # what the README suggests: runs/latest names the first run until the second run's folder takes its place
    taken = train(load_config(overrides=[*short, "runtime.warm_start_from=runs/latest/warm_start.safetensors"]),
                  show_progress=False)
    # both name the one start they share, whichever way they came by it
    assert cloned["start_weights_sha256"] == taken["start_weights_sha256"] == weights_digest(saved)
    second = (tmp_path / "runs" / "latest").resolve()
    assert second != first and all(np.array_equal(received[0][k], saved[k]) for k in saved)
    assert not (second / "warm_start.safetensors").exists()  # nothing cloned, nothing to save
    assert load_config(second / "config.yaml").runtime.warm_start_from == str(first / "warm_start.safetensors")
    received.clear()
    trained = read_policy(find_checkpoint(tmp_path / "first")).weights
    on = train(load_config(overrides=[*short, f"runtime.warm_start_from={tmp_path / 'first'}",
                                      f"run_dir={tmp_path / 'third'}"]), show_progress=False)
    assert all(np.array_equal(received[0][k], trained[k]) for k in trained)
    assert on["start_weights_sha256"] == weights_digest(trained) != weights_digest(saved)
    assert any(not np.array_equal(trained[k], saved[k]) for k in saved)  # the run's result, not its clone


@pytest.mark.parametrize(("source", "override", "message"), [
    ("missing.safetensors", [], "no such file or folder"),
    ("first/config.yaml", [], "not a readable safetensors file"),
    ("first/warm_start.safetensors", ["policy.small={hidden_dim: 64}"], "do not fit this run's policy"),
    ("first", ["policy.small={hidden_dim: 64}"], r"`hidden_dim` \(128 there, 64 here\)"),
])
def test_warm_start_from_what_does_not_fit_is_refused_naming_it(tmp_path, source, override, message) -> None:
    from safetensors.numpy import save_file

    from distrl_agent.runtime.warm_start import load_start_weights

    learner = build_learner(load_config(overrides=TINY))
    save_checkpoint(learner, RunState(), tmp_path / "first")
    save_file(learner.weights(), tmp_path / "first" / "warm_start.safetensors")
    (tmp_path / "first" / "config.yaml").write_text("env: {}\n")
    policy = load_config(overrides=[*TINY, *override]).policy.policy_config()
    with pytest.raises(CheckpointError, match=message) as refused:
        load_start_weights(tmp_path / source, policy)
    assert "runtime.warm_start_from=" in str(refused.value)


def test_deferred_evaluations_take_no_training_time(tmp_path, monkeypatch) -> None:
    """With `runtime.eval_deferred` the learning curve's points are played after the last update, from the weights
    each point was due with, and the budget counts training only: evaluations slower than the whole run still leave
    a point every `eval_every_s` and the run's minutes at its budget."""  # noqa: D205, D209
    import time

    import distrl_agent.runtime.train as train_module

    updates, played = [], []
    original_update = Learner.update

    def timed_update(self):
        out = original_update(self)
        updates.append((time.monotonic(), self.version, {k: v.copy() for k, v in self.weights().items()}))
        return out

    def slow_evaluation(config, weights, version, split, episodes, seed):
        played.append((time.monotonic(), version, weights))
        time.sleep(1.0)
        return 0.5, {"t": 0.5}

    monkeypatch.setattr(Learner, "update", timed_update)
    monkeypatch.setattr(train_module, "evaluate_by_task", slow_evaluation)
    config = load_config(overrides=[*TINY, "runtime.minutes=0.06", "runtime.workers=1", "runtime.eval_every_s=0.5",
                                    "runtime.eval_deferred=true", f"run_dir={tmp_path}"])
    summary = train(config, show_progress=False)
    during = [p for p in played if p[0] < updates[-1][0]]
    assert not during and len(summary["curve"]) >= 5  # inline: 3.6 s of budget / 1 s a point = at most 4
    assert summary["minutes"] < 0.06 + 0.04  # the ~7 s of deferred evaluations are not in the run's time
    versions = [p["version"] for p in summary["curve"]]
    assert versions == sorted(versions) and versions[-1] > versions[0]
    by_version = {version: weights for _, version, weights in updates}
    for _, version, weights in played[:-1]:  # the last call is the final evaluation, after the run
        if version in by_version:  # the weights of that version, not the newest (a copy, not a view)
            assert all(np.array_equal(weights[k], by_version[version][k]) for k in weights)
