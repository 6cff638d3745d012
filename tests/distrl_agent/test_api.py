"""The Python API a researcher scripts against: `distrl_agent.train` / `evaluate`, callbacks, W&B, TensorBoard.

One tiny run (module fixture) serves every test that needs a trained folder.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path

import numpy as np
import pytest

import distrl_agent
from distrl_agent.errors import ConfigError
from distrl_agent.runtime.callbacks import Callback
from distrl_agent.runtime.lag import LAG_KEYS
from distrl_agent.runtime.progress import MetricsWriter

TINY = {"runtime": {"minutes": 2, "max_updates": 6, "workers": 1, "envs_per_worker": 2, "warm_start_episodes": 4,
                    "warm_start_updates": 5, "eval_episodes": 2, "eval_every_s": 0.5, "checkpoint_every_s": 0.5},
        "learner": {"batch_size": 4, "min_replay_trajectories": 4}}


class Recorder(Callback):
    """Records every event it is told of; asks to stop once the learner passed `stop_at` updates (if set)."""

    def __init__(self, stop_at: int | None = None) -> None:
        self.events: list[tuple] = []
        self.stop_at = stop_at

    def on_start(self, config) -> None:  # noqa: D102
        self.events.append(("start", config.run_dir))

    def on_metrics(self, step, elapsed_s, metrics):  # noqa: D102
        self.events.append(("metrics", step, dict(metrics)))
        return False if self.stop_at is not None and step >= self.stop_at else None

    def on_evaluation(self, step, elapsed_s, success, by_task) -> None:  # noqa: D102
        self.events.append(("evaluation", step, success, dict(by_task)))

    def on_checkpoint(self, step, path) -> None:  # noqa: D102
        self.events.append(("checkpoint", step, Path(path)))

    def on_end(self, summary) -> None:  # noqa: D102
        self.events.append(("end", summary["updates"]))


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """`distrl_agent.train` of a tiny run with a recording callback: (result, recorder)."""
    recorder = Recorder()
    run_dir = tmp_path_factory.mktemp("api") / "run"
    result = distrl_agent.train(TINY, overrides=[f"run_dir={run_dir}"], callbacks=[recorder], show_progress=False)
    return result, recorder


def test_train_returns_a_typed_result(trained) -> None:
    """The result names the folder and the headline figures, and carries the whole summary."""
    result, _ = trained
    assert isinstance(result, distrl_agent.TrainResult) and (result.run_dir / "summary.json").is_file()
    assert result.updates == result.summary["updates"] >= 6 and 0 <= result.test_success <= 1
    assert result.env_steps > 0 and result.minutes < 2


def test_callbacks_hear_every_event_in_order(trained) -> None:
    """Start first, end last; metrics with the learning rate and losses; evaluations; complete checkpoints."""
    result, recorder = trained
    kinds = [e[0] for e in recorder.events]
    assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("end") == 1
    assert recorder.events[0][1] == str(result.run_dir)
    metrics = [e[2] for e in recorder.events if e[0] == "metrics"]
    trained_records = [m for m in metrics if "learner/lr" in m]
    assert trained_records and all(0 < m["learner/lr"] <= 1e-4 for m in trained_records)
    assert any(k.startswith("losses/") for m in trained_records for k in m)
    evaluations = [e for e in recorder.events if e[0] == "evaluation"]
    assert evaluations and all(0 <= e[2] <= 1 and e[3] for e in evaluations)
    checkpoints = [e for e in recorder.events if e[0] == "checkpoint"]
    assert checkpoints and all((e[2] / "manifest.json").is_file() or e[2].name == "checkpoint" for e in checkpoints)
    assert checkpoints[-1][1] == result.updates and (checkpoints[-1][2] / "manifest.json").is_file()
    final = metrics[-1]  # the summary's record: grouped tags only, none at the top level
    assert "summary/test_success" in final and all("/" in k for k in final)


def test_a_callback_can_stop_the_run(tmp_path) -> None:
    """`on_metrics` returning False ends the run early, and it still ends properly (checkpoint, summary)."""
    recorder = Recorder(stop_at=1)
    config = {**TINY, "runtime": {**TINY["runtime"], "max_updates": 10_000}}
    result = distrl_agent.train(config, overrides=[f"run_dir={tmp_path / 'run'}"], callbacks=[recorder],
                                show_progress=False)
    assert result.updates < 10_000 and result.minutes < 1.5 and recorder.events[-1][0] == "end"
    assert (result.run_dir / "checkpoint" / "manifest.json").is_file()


def test_resume_from_python_takes_the_folders_config(trained, tmp_path) -> None:
    """`train(resume=folder)` with no config continues the run from its own config.yaml and checkpoint."""
    import shutil

    result, _ = trained
    folder = tmp_path / "copy"
    shutil.copytree(result.run_dir, folder)
    more = distrl_agent.train(resume=folder, overrides=["runtime.max_updates=10"], show_progress=False)
    assert more.run_dir == folder.resolve() and more.updates >= 10 and more.summary["resumes"] == 1
    # a resumed run keeps the start its first session recorded (its checkpoint's weights are not its start)
    assert more.summary["start_weights_sha256"] == result.summary["start_weights_sha256"] != ""


def test_evaluate_a_run_folder(trained) -> None:
    """`distrl_agent.evaluate` plays the checkpoint on a split; a split the suite lacks is refused by name."""
    result, _ = trained
    evaluation = distrl_agent.evaluate(result.run_dir, split="train", episodes=3)
    assert evaluation.episodes == 3 and evaluation.split == "train" and len(evaluation.by_task) == 3
    assert evaluation.version == result.updates and 0 <= evaluation.success <= 1
    with pytest.raises(ConfigError, match="unseen_apps"):
        distrl_agent.evaluate(result.run_dir, split="unseen_apps")


def test_callbacks_must_be_callbacks(tmp_path) -> None:
    """A function passed as a callback is refused before anything starts."""
    with pytest.raises(ConfigError, match="Callback"):
        distrl_agent.train(TINY, overrides=[f"run_dir={tmp_path / 'run'}"], callbacks=[print], show_progress=False)
    assert not (tmp_path / "run").exists()


def test_wandb_logger_logs_config_metrics_and_summary(monkeypatch, tmp_path) -> None:
    """With a stand-in `wandb` module: init with the config and run folder, log at the learner's step, finish."""
    calls: list[tuple] = []

    class Run:
        def __init__(self) -> None:
            self.summary: dict = {}

        def log(self, data, step):
            calls.append(("log", step, data))

        def finish(self):
            calls.append(("finish",))

    fake = types.SimpleNamespace(init=lambda **kw: calls.append(("init", kw)) or Run())
    monkeypatch.setitem(sys.modules, "wandb", fake)
    from distrl_agent.runtime.wandb_logger import WandbLogger

    logger = WandbLogger("proj", tags=["x"])
    config = distrl_agent.load_config(overrides=[f"run_dir={tmp_path}"])
    logger.on_start(config)
    logger.on_metrics(3, 1.5, {"learner/lr": 1e-4})
    logger.on_end({"test_success": 0.5, "curve": []})
    init = calls[0][1]
    assert init["project"] == "proj" and init["dir"] == str(tmp_path) and init["tags"] == ["x"]
    assert init["config"]["learner"]["algorithm"] == "a-ride"
    assert calls[1] == ("log", 3, {"learner/lr": 1e-4, "time_s": 1.5}) and calls[-1] == ("finish",)


def test_wandb_missing_names_the_extra(monkeypatch) -> None:
    """Without wandb installed, the logger (and `distrl train --wandb`) says how to install it."""
    monkeypatch.setitem(sys.modules, "wandb", None)  # import wandb -> ImportError
    from distrl_agent.runtime.wandb_logger import WandbLogger

    with pytest.raises(ConfigError, match=r"\.\[wandb\]"):
        WandbLogger("proj")


def test_tensorboard_gets_the_lag_bins_as_one_histogram(tmp_path) -> None:
    """The lag counters become a histogram of the steps trained on since the last record, not 11 scalars."""
    writer = MetricsWriter(tmp_path)
    if writer.tb is None:
        pytest.skip("tensorboard not installed")
    seen: list[tuple] = []
    writer.tb = types.SimpleNamespace(add_scalar=lambda k, v, s: seen.append(("scalar", k)),
                                      add_histogram_raw=lambda tag, global_step, **h: seen.append(("hist", tag, h)),
                                      close=lambda: None)
    first = dict.fromkeys(LAG_KEYS, 0) | {LAG_KEYS[0]: 5, LAG_KEYS[2]: 1, "learner/lr": 1e-4}
    writer.write(1, 1.0, first)
    writer.write(2, 2.0, first | {LAG_KEYS[0]: 8})  # 3 more steps at lag 0 since the first record
    writer.close()
    histograms = [h for h in seen if h[0] == "hist"]
    assert [h[2]["num"] for h in histograms] == [6, 3] and histograms[1][2]["bucket_counts"][0] == 3
    assert not any(k in LAG_KEYS for kind, k, *_ in seen if kind == "scalar")
    assert ("scalar", "learner/lr") in seen
    assert np.asarray(histograms[0][2]["bucket_limits"]).size == len(LAG_KEYS)
