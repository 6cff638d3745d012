"""The VLM policy on the runtime: workers, the learner, `distrl train` and `distrl eval` with `policy.kind=vlm`.

A tiny random-weight Idefics3 checkpoint is built offline; its actions are mostly unparseable text (executed as
flagged no-ops), which is what an untrained VLM writes, and exercises every path a trained one takes.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from android_gym.vector import AsyncEnvPool
from distrl_agent.cli import main
from distrl_agent.config import EnvSection, load_config
from distrl_agent.errors import CheckpointError, ConfigError
from distrl_agent.policies.reader import previous_action_text
from distrl_agent.policies.tiny_vlm import build_tiny_idefics3
from distrl_agent.policies.vlm import VLMPolicy
from distrl_agent.policies.vlm_config import VLMPolicyConfig
from distrl_agent.runtime.build import build_learner
from distrl_agent.runtime.checkpoint import load_learner_blob
from distrl_agent.runtime.collect import initial_weights
from distrl_agent.runtime.train import train
from distrl_agent.runtime.warm_start import collect_demonstrations
from distrl_agent.runtime.worker import Worker

SCREEN = 32  # screenshot width in pixels


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    return str(build_tiny_idefics3(tmp_path_factory.mktemp("vlm") / "tiny"))


def vlm_overrides(model_path: str, *extra: str) -> list[str]:
    return ["policy.kind=vlm", f"policy.vlm.model_path={model_path}", "policy.vlm.max_new_tokens=16",
            "policy.vlm.value_hidden_dim=16", f"env.screenshot_width={SCREEN}", *extra]


@pytest.mark.parametrize("env_processes", [False, True], ids=["in-process", "pool"])
def test_vlm_worker_ships_screenshots_and_the_previous_action_of_each_step(model_path: str,
                                                                           env_processes: bool) -> None:
    config = VLMPolicyConfig(model_path=model_path, max_new_tokens=16, value_hidden_dim=16)
    env = EnvSection(screenshot_width=SCREEN, env_processes=env_processes)
    with Worker(0, env, 2, seed=3, policy_config=config) as worker:
        assert isinstance(worker.policy, VLMPolicy) and isinstance(worker.pool, AsyncEnvPool) == env_processes
        trajectories = worker.run_episodes(2)
    assert len(trajectories) == 2
    for trajectory in trajectories:
        trajectory.validate()
        screenshots, previous = trajectory.observations["screenshot"], trajectory.observations["previous_action"]
        assert set(trajectory.observations) == {"screenshot", "previous_action"}
        assert screenshots.dtype == np.uint8 and screenshots.shape[0] == trajectory.length + 1
        assert screenshots.shape[2:] == (SCREEN, 3)
        assert trajectory.actions["tokens"].shape == (trajectory.length, 16)
        # s_0 follows no action; s_{t+1} follows the action the policy wrote at t
        executed = worker.policy.to_env_action({k: torch.as_tensor(v) for k, v in trajectory.actions.items()},
                                               [{}] * trajectory.length)
        assert previous[0] == "None"
        assert list(previous[1:]) == [previous_action_text(a) for a in executed]


def test_vlm_demonstrations_carry_the_expert_previous_action(model_path: str) -> None:
    policy = VLMPolicy(VLMPolicyConfig(model_path=model_path, max_new_tokens=128, value_hidden_dim=16))
    demos = collect_demonstrations(EnvSection(screenshot_width=SCREEN), 2, 0.0, policy, seed=0)
    assert demos, "an expert's taps are expressible as AutoUI text"
    texts = [str(obs["previous_action"]) for obs, _, _ in demos]
    assert texts[0] == "None" and any(t.startswith("Action Decision:") for t in texts[1:])
    assert all(obs["screenshot"].shape[1:] == (SCREEN, 3) for obs, _, _ in demos)


def test_learner_trains_the_vlm_policy_on_worker_trajectories(model_path: str, tmp_path: Path) -> None:
    config = load_config(overrides=vlm_overrides(
        model_path, "learner.batch_size=2", "learner.min_replay_trajectories=2", "learner.critic_warmup_updates=0"))
    learner = build_learner(config)
    assert isinstance(learner.policy, VLMPolicy)
    before = learner.weights()
    with Worker(0, config.env, 2, seed=1, policy_config=config.policy.policy_config()) as worker:
        worker.set_weights(before, 0)
        assert learner.ingest(worker.run_episodes(2)) == 2
    metrics = learner.train_steps(2)
    assert metrics["learner/version"] == 2 and all(np.isfinite(v) for v in metrics.values()
                                                   if isinstance(v, float))
    after = learner.weights()
    assert any(not np.array_equal(before[k], after[k]) for k in before)
    # a checkpoint keeps the screenshots and previous-action texts of the replay
    learner.save(tmp_path / "ckpt")
    resumed = build_learner(config)
    resumed.load(tmp_path / "ckpt")
    assert len(resumed.replay) == 2 and resumed.version == 2
    restored = resumed.replay.sample(4, np.random.default_rng(0)).trajectories
    assert all(t.observations["screenshot"].dtype == np.uint8 and t.observations["previous_action"][0] == "None"
               for t in restored)
    assert all(np.array_equal(resumed.weights()[k], after[k]) for k in after)


def test_config_names_what_a_vlm_run_lacks() -> None:
    with pytest.raises(ConfigError, match=r"policy\.vlm\.model_path"):
        load_config(overrides=["policy.kind=vlm", "env.screenshot_width=64"])
    with pytest.raises(ConfigError, match=r"env\.screenshot_width"):
        load_config(overrides=["policy.kind=vlm", "policy.vlm.model_path=/nowhere"])
    with pytest.raises(ConfigError, match="did you mean `policy.vlm.max_new_tokens`"):
        load_config(overrides=["policy.kind=vlm", "policy.vlm.model_path=/x", "policy.vlm.max_new_token=8",
                               "env.screenshot_width=64"])
    with pytest.raises(ConfigError, match=r"`policy\.kind` must be 'small', 'vlm' or 'custom'.*got 'cnn'"):
        load_config(overrides=["policy.kind=cnn"])
    with pytest.raises(ConfigError, match="did you mean `policy.small.hidden_dim`"):
        load_config(overrides=["policy.small.hiden_dim=64"])
    assert load_config(overrides=["policy.small.hidden_dim=64"]).policy.policy_config().hidden_dim == 64


def test_distrl_train_and_eval_with_the_vlm_policy(model_path: str, tmp_path: Path, capsys) -> None:
    """The main job end to end on a VLM: warm start, a worker process, updates, checkpoint, then `distrl eval`."""
    run_dir = tmp_path / "run"
    config = load_config(overrides=vlm_overrides(
        model_path, "runtime.minutes=3", "runtime.max_updates=2", "runtime.workers=1", "runtime.envs_per_worker=2",
        "runtime.warm_start_episodes=1", "runtime.warm_start_updates=2", "runtime.eval_episodes=2",
        "learner.batch_size=2", "learner.min_replay_trajectories=2", "learner.critic_warmup_updates=0",
        f"run_dir={run_dir}"))
    summary = train(config, show_progress=False)
    assert summary["updates"] > 0 and summary["episodes"] >= 2
    assert 0.0 <= summary["test_success"] <= 1.0
    blob = load_learner_blob(run_dir / "checkpoint")
    assert blob.meta["policy_kind"] == "vlm" and blob.meta["policy_config"]["model_path"] == model_path

    # the run folder names a model folder to load: taken only when given again (issue 43)
    assert main(["eval", "--checkpoint", str(run_dir), "--episodes", "2"]) == 2
    assert "policy.vlm.model_path" in capsys.readouterr().err
    assert main(["eval", "--checkpoint", str(run_dir), "--episodes", "2", f"policy.vlm.model_path={model_path}"]) == 0
    result = json.loads((run_dir / "eval_test.json").read_text())
    assert result["episodes"] == 2 and result["version"] == summary["updates"]

    # a resume under the small policy is refused, naming the policy keys that differ
    with pytest.raises(CheckpointError, match=r"policy\.kind"):
        train(load_config(overrides=["runtime.minutes=0.2", f"run_dir={run_dir}"]), resume=run_dir,
              show_progress=False)


def test_bfloat16_weights_travel_as_float32_arrays(model_path: str) -> None:
    config = load_config(overrides=vlm_overrides(model_path, "policy.vlm.dtype=bfloat16"))
    learner = build_learner(config)
    assert learner.policy.backbone.dtype == torch.float32  # master weights where it trains (the workers: bf16)
    weights = learner.weights()
    assert all(w.dtype != object for w in weights.values())
    policy = VLMPolicy(config.policy.policy_config())
    policy.load_state_dict({k: torch.as_tensor(v) for k, v in weights.items()})
    assert policy.backbone.dtype == torch.bfloat16


def test_distrl_collect_with_a_bfloat16_vlm_starts_from_float32_weights(model_path: str) -> None:
    """`distrl collect`'s untrained weights of a bf16 VLM are float32 arrays a worker loads back as bf16."""
    config = load_config(overrides=vlm_overrides(model_path, "policy.vlm.dtype=bfloat16"))
    weights = initial_weights(config)
    assert {w.dtype for w in weights.values()} <= {np.dtype(np.float32), np.dtype(np.int64), np.dtype(bool)}
    with Worker(0, config.env, 1, policy_config=config.policy.policy_config()) as worker:
        worker.set_weights(weights, 0)
        assert worker.policy.backbone.dtype == torch.bfloat16
        assert len(worker.run_episodes(1)) <= 1


def test_lora_vlm_ships_only_adapters_and_heads_and_workers_adopt_them(model_path: str) -> None:
    """Under LoRA, weights travel as adapters and value heads (the backbone is frozen); updates move just those."""
    pytest.importorskip("peft")
    config = load_config(overrides=vlm_overrides(
        model_path, "policy.vlm.lora_rank=4", "learner.batch_size=2", "learner.min_replay_trajectories=2",
        "learner.critic_warmup_updates=0"))
    learner = build_learner(config)
    before = learner.weights()
    full = learner.policy.state_dict()
    assert before and all("lora_" in k or "value_head" in k for k in before)
    assert sum(v.size for v in before.values()) < sum(v.numel() for v in full.values()) / 4
    with Worker(0, config.env, 2, seed=1, policy_config=config.policy.policy_config()) as worker:
        worker.set_weights(before, 0)
        learner.ingest(worker.run_episodes(2))
        learner.train_steps(2)
        after = learner.weights()
        assert any(not np.array_equal(before[k], after[k]) for k in before)
        assert all(torch.equal(full[k], learner.policy.state_dict()[k]) for k in full if k not in before)
        worker.set_weights(after, 2)
        state = worker.policy.state_dict()
        assert all(np.array_equal(state[k].numpy(), after[k]) for k in after)
        with pytest.raises(CheckpointError, match="lack"):
            worker.set_weights({k: v for k, v in after.items() if "lora_" not in k}, 3)


def test_distrl_train_with_a_missing_vlm_checkpoint_exits_2_naming_it(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "no-such-model"
    code = main(["train", "--quiet", "policy.kind=vlm", f"policy.vlm.model_path={missing}",
                 f"env.screenshot_width={SCREEN}", f"run_dir={tmp_path / 'run'}"])
    assert code == 2
    assert "model_path" in (err := capsys.readouterr().err) and str(missing) in err
