"""Warm start: behaviour cloning from noisy expert demonstrations (the paper's imperfect pretrained starting point).

A run that clones saves its clone (`save_warm_start`); `runtime.warm_start_from` starts a later run from it, or from
another run's policy, instead (`load_start_weights`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import numpy as np
import torch
from safetensors import SafetensorError
from safetensors.numpy import load_file, save
from tqdm import tqdm

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.errors import DeviceError
from android_gym.safe_files import write_bytes
from distrl_agent.config import EnvSection
from distrl_agent.errors import CheckpointError
from distrl_agent.policies.base import Policy
from distrl_agent.policies.build import PolicyConfig, build_policy
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.runtime.adder import action_row
from distrl_agent.runtime.checkpoint import find_checkpoint, read_policy
from distrl_agent.runtime.run_dir import WARM_START_FILE
from distrl_agent.runtime.worker import make_env


def collect_demonstrations(env: EnvSection, episodes: int, noise: float, policy: Policy,
                           seed: int = 0, show_progress: bool = False, split: str = "train",
                           first_reset_seed: int = 10_000_000, labels: Literal["taken", "expert"] = "taken",
                           ) -> list[tuple[dict, str, dict[str, Any]]]:
    """(observation, goal, policy action ids) of expert steps; with probability `noise` a step is random instead.

    Random steps are executed (so the expert must recover). `labels` "taken": they are also kept as demonstrations,
    which is what makes the cloned policy imperfect, like a pretrained model that was never trained on these apps;
    "expert": each step is labelled with the expert's action in that state whatever was executed (DART: the noise
    only shows the expert's recoveries), for suites whose long chains a policy cloned on random steps never
    finishes. Observations are what `policy.observe` makes of the env's; expert actions the policy cannot express
    are executed and not kept.
    Episodes are played on `split` (held-out steps for a benchmark: "test"), reset with seeds
    `first_reset_seed + seed * 100_000 + episode`.
    """
    rng = np.random.default_rng(seed)
    e = make_env(env.replace(latency="off"), split, index=0)  # before any worker holds phone 0
    data = []
    gen = torch.Generator().manual_seed(seed)
    for episode in tqdm(range(episodes), desc="warm start: expert demonstrations", unit="episode",
                        disable=not show_progress, leave=False):
        try:
            obs, info = e.reset(seed=first_reset_seed + seed * 100_000 + episode)
        except DeviceError:  # a phone that fails a reset twice over: skip this demonstration, try the next one
            continue
        obs = policy.observe(obs, None)
        done = False
        while not done:
            if rng.random() < noise:
                inputs = policy.preprocess([obs])
                batch, _ = policy.act(inputs, generator=gen)
                action = policy.to_env_action(batch, [obs])[0]
                ids = (policy.from_env_action(e.get_wrapper_attr("expert_action")(), obs) if labels == "expert"
                       else action_row(batch, 0))
            else:
                action = e.get_wrapper_attr("expert_action")()
                ids = policy.from_env_action(action, obs)
            if ids is not None:
                data.append((obs, info["goal"], ids))
            after, _, terminated, truncated, _ = e.step(action)
            obs = policy.observe(after, action, obs)
            done = terminated or truncated
    e.close()
    return data


def behaviour_clone(policy: Policy, data: list[tuple[dict, str, dict[str, Any]]], updates: int,
                    lr: float = 2e-3, batch_size: int = 64, seed: int = 0, show_progress: bool = False,
                    anneal: bool = False) -> float:
    """Maximise log pi of the demonstrated actions for `updates` Adam steps; returns the last batch's mean NLL.

    `anneal`: the learning rate falls linearly from `lr` to 0 over the updates (the last steps average the noise of
    their batches instead of following it); off, it stays at `lr` (the warm start's, which every kept run started
    from).
    """
    if not data or updates <= 0:
        return float("nan")
    rng = np.random.default_rng(seed)
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    policy.train()
    nll = float("nan")
    for step in tqdm(range(updates), desc="warm start: behaviour cloning", unit="update", disable=not show_progress,
                     leave=False):
        if anneal:
            for group in optimizer.param_groups:
                group["lr"] = lr * (1 - step / updates)
        idx = rng.integers(len(data), size=min(batch_size, len(data)))
        inputs = policy.preprocess([data[i][0] for i in idx], [data[i][1] for i in idx])
        actions = policy.collate_actions([data[i][2] for i in idx])
        loss = -policy.evaluate(inputs, actions).log_prob.mean()
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        nll = float(loss.detach())
    policy.eval()
    return nll


def weights_digest(weights: Mapping[str, np.ndarray]) -> str:
    """SHA-256 of policy weights (names, dtypes, shapes and values, in name order): which start a run trained from,
    so that runs compared seed by seed can be checked to share theirs (a clone is bitwise reproducible from its
    config on one build, but a change anywhere in the sim or the policy makes another)."""  # noqa: D205, D209
    digest = hashlib.sha256()
    for name in sorted(weights):
        value = np.ascontiguousarray(weights[name])
        digest.update(f"{name}:{value.dtype.str}:{value.shape};".encode())
        digest.update(value.tobytes())
    return digest.hexdigest()


def save_warm_start(weights: dict[str, np.ndarray], run_dir: Path) -> Path:
    """Write a clone's weights to `run_dir/WARM_START_FILE` (safetensors: data, no code); returns the path."""
    path = run_dir / WARM_START_FILE
    write_bytes(path, save({k: np.ascontiguousarray(v) for k, v in weights.items()}))
    return path


def load_start_weights(source: str | Path, policy: PolicyConfig) -> dict[str, np.ndarray]:
    """The weights `runtime.warm_start_from` names, checked against `policy` before any learner takes them.

    `source`: a `.safetensors` file of policy weights (a run's `WARM_START_FILE`), or a run folder (its newest
    checkpoint's policy, whose config must equal `policy`).

    Raises:
        CheckpointError: nothing readable there, another policy's config, or tensors that do not fit `policy` (the
            message names the source and what differs).
    """
    path = Path(source)
    if path.is_dir():
        saved = read_policy(find_checkpoint(path))
        if saved.config != policy:
            ours, theirs = policy.to_data(), saved.config.to_data()
            differ = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
            raise CheckpointError(f"runtime.warm_start_from={source}: its policy differs from this run's in "
                                  + ", ".join(f"`{k}` ({theirs.get(k)!r} there, {ours.get(k)!r} here)" for k in differ)
                                  + "; set those `policy` keys as that run had them")
        weights = saved.weights
    elif path.is_file():
        try:
            weights = load_file(path)
        except (SafetensorError, OSError) as e:
            raise CheckpointError(f"runtime.warm_start_from={source}: not a readable safetensors file of policy "
                                  f"weights ({e})") from e
    else:
        raise CheckpointError(f"runtime.warm_start_from={source}: no such file or folder (a run that clones saves "
                              f"<run_dir>/{WARM_START_FILE}; a run folder gives its newest checkpoint's policy)")
    if isinstance(policy, SmallPolicyConfig):  # a VLM is built from its own files: its learner checks on load
        with torch.device("meta"):  # shapes only: no memory for the weights
            shapes = build_policy(policy)
        try:
            shapes.check_weights(weights)
        except CheckpointError as e:
            raise CheckpointError(f"runtime.warm_start_from={source}: the weights do not fit this run's policy: "
                                  f"{e}") from e
    return weights
