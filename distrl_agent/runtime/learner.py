"""`Learner`: ingests trajectories into the replay, runs the selected update rule, versions and checkpoints weights.

No transport here: the local and Ray runtimes wrap the same class.
"""

from __future__ import annotations

import copy
import dataclasses
import logging
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import torch

from android_gym.heap import return_freed_memory
from distrl_agent.algorithms.common import LossOutput
from distrl_agent.algorithms.rules import UpdateRule
from distrl_agent.config import config_differences
from distrl_agent.errors import CheckpointError, DataError
from distrl_agent.policies.base import Policy
from distrl_agent.policies.build import policy_kind
from distrl_agent.runtime.base import LearnerHandle
from distrl_agent.runtime.checkpoint import (
    REPLAY_FILE,
    LearnerBlob,
    check_blob_fits,
    load_learner_blob,
    read_state,
    save_learner_blob,
    write_state,
)
from distrl_agent.runtime.lag import LAG_KEYS, lag_counts
from distrl_agent.runtime.learner_spec import LearnerParts, LearnerSpec
from distrl_agent.runtime.weights import trainable_weights
from distrl_agent.types import Batch, SampledBatch, Trajectory, collate


class Learner(LearnerHandle):
    """The central learner (the in-process `LearnerHandle`).

    Guarantees: `version` increases by one per gradient step; a trajectory with NaN/inf or malformed arrays is dropped
    and counted (`stats()["learner/rejected"]`), never inserted; a non-finite loss skips the step (counted) so weights
    never become NaN; `save` then `load` into a fresh learner of the same config continues bit-identically (same
    sampled indices, same weights after the next update). Every sampled step is counted by how many versions it lags
    the learner (`LAG_KEYS`): the policy lag of the data the learner trains on.

    Every public method is a plain call with plain-data arguments and results, so the Ray runtime runs this class
    unchanged as an actor.

    Args:
        parts: its policy, rules, optimiser, replay and encoding cache, built by the composition root
            (`runtime.build.build_learner`).
        spec: what it needs of the run: the `learner` section, the policy's config and seed (saved with checkpoints),
            and the config keys a checkpoint must match to be loaded.
    """

    def __init__(self, parts: LearnerParts, spec: LearnerSpec) -> None:
        return_freed_memory()  # its process (this one, or a Ray actor's) frees a batch per update (android_gym.heap)
        self.spec, self.settings = spec, spec.learner
        self.policy, self.rule, self._warmup_rule = parts.policy, parts.rule, parts.warmup_rule
        self.optimizer, self.replay, self.encodings = parts.optimizer, parts.replay, parts.encodings
        self._weight_keys = self.policy.trainable_state_keys()  # what `weights()` ships, found once
        self.rng = np.random.default_rng(spec.seed)
        self.version = 0
        self.counters = {"learner/updates": 0, "learner/rejected": 0, "learner/skipped_nonfinite": 0,
                         "learner/ingested": 0, "learner/received": 0, "learner/rate_limited": 0,
                         **dict.fromkeys(LAG_KEYS, 0)}
        self.last_indices = np.zeros(0, np.int64)  # replay slots of the last update's batch
        self.reference: Policy | None = None  # a KL penalty's π_ref: the policy at the first update, frozen

    # -- data ----------------------------------------------------------------------------------------------------------
    def ingest(self, trajectories: Sequence[Trajectory]) -> int:
        """Insert trajectories (at max priority); returns how many were accepted.

        Counted: `learner/received` (all of them), `learner/rejected` (malformed, or without the group statistics a
        group rule such as GRPO learns from), `learner/ingested` (inserted; the rest were already staler than
        `learner.max_staleness`, counted in `replay/dropped_stale`).
        """
        self.counters["learner/received"] += len(trajectories)
        accepted = 0
        for traj in trajectories:
            try:
                traj.validate()
            except DataError:
                self.counters["learner/rejected"] += 1
                continue
            if self.rule.groups is not None and "group" not in traj.metadata:
                self.counters["learner/rejected"] += 1
                continue
            accepted += self.replay.add(traj, self.version) >= 0
        self.counters["learner/ingested"] += accepted
        return accepted

    @property
    def is_ready(self) -> bool:
        """Whether the replay holds enough trajectories to train."""
        return self.replay.usable() >= max(1, self.settings.min_replay_trajectories)

    def ready(self) -> bool:
        """`is_ready` as a method (callable on a Ray actor)."""
        return self.is_ready

    def get_version(self) -> int:
        """The current weights version (callable on a Ray actor)."""
        return self.version

    # -- training ------------------------------------------------------------------------------------------------------
    def update(self) -> dict[str, float]:
        """One sampled batch: the rule's `epochs` gradient steps on it (one for all but PPO), each a version.

        Refreshes the sampled trajectories' priorities after the last step (prioritised rules).
        """
        c = self.settings
        frac = min(1.0, self.counters["learner/updates"] / max(1, c.beta_anneal_updates))
        beta = c.beta_start + frac * (c.beta_end - c.beta_start)
        sample = self.replay.sample(c.batch_size, self.rng, beta=beta, learner_version=self.version)
        self.last_indices = np.asarray(sample.indices, np.int64).copy()
        parts = [sample] if c.micro_batch_size is None else sample.split(c.micro_batch_size)
        batches = [self._collate(part) for part in parts]
        lags = lag_counts(np.concatenate([b.staleness[b.mask].numpy() for b in batches]))
        for key, count in zip(LAG_KEYS, lags.tolist(), strict=True):
            self.counters[key] += count
        self.policy.train()
        rule = self._warmup_rule if self.counters["learner/updates"] < c.critic_warmup_updates else self.rule
        if self.rule.reference and self.reference is None:
            self.reference = self._frozen_copy()
        extra = {"reference": self.reference} if rule.reference else {}
        prepared = [() if rule.prepare is None else (rule.prepare(self.policy, b, **extra),) for b in batches]
        for _ in range(rule.epochs):
            self.optimizer.zero_grad(set_to_none=True)
            loss, metrics, priorities = self._backward(rule, batches, prepared)
            if not torch.isfinite(loss):
                self.counters["learner/skipped_nonfinite"] += 1
                return metrics
            grad_norm = torch.nn.utils.clip_grad_norm_(self.policy.parameters(), c.max_grad_norm)
            metrics["losses/grad_norm"] = float(grad_norm)
            self.optimizer.step()
            self.version += 1
            self.counters["learner/updates"] += 1
        self.replay.set_learner_version(self.version)
        if priorities is not None and self.rule.prioritized:
            self.replay.update_priorities(sample.indices, priorities, sample.uids)
            if self.counters["learner/updates"] % c.refresh_every_updates == 0:
                self.replay.refresh_all(self._priorities, chunk_size=c.micro_batch_size or 64)  # no_grad passes
        self.encodings.retain(self.replay.live_uids())
        metrics["replay/beta"] = beta
        return metrics

    def _collate(self, sample: SampledBatch) -> Batch:
        """The sample as a padded batch, with the policy's cached encodings of its states where it has them."""
        batch = sample.to_batch()
        if self.encodings.supported:
            batch = dataclasses.replace(batch, inputs=self.encodings.inputs(sample.trajectories, sample.uids))
        return batch

    def _backward(self, rule: UpdateRule, batches: list[Batch], prepared: list[tuple[Any, ...]]) -> LossOutput:
        """The loss of the batch that `batches` split (`learner.micro_batch_size`), backpropagated one micro-batch at a
        time; the batch's metrics and priorities.

        A micro-batch's loss is a mean over its part of what the rule averages over (`UpdateRule.mean_count`), so
        weighting each by its share n_i / N makes the accumulated gradient the whole batch's, while only one
        micro-batch's activations are alive at once. Metrics are the same weighted means (exact for the losses).
        Stops at the first non-finite loss, which it returns (the caller skips the step).
        """  # noqa: D205
        if len(batches) == 1:
            out = rule.loss(self.policy, batches[0], *prepared[0])
            if torch.isfinite(out.loss):
                out.loss.backward()
            return out
        assert rule.mean_count is not None  # the config refuses micro-batches for a rule whose loss does not split
        counts = torch.stack([rule.mean_count(b).float() for b in batches])
        shares = (counts / counts.sum() if counts.sum() > 0 else torch.full_like(counts, 1 / len(batches))).tolist()
        total, metrics, priorities = torch.zeros(()), {}, []
        for batch, extra, share in zip(batches, prepared, shares, strict=True):
            out = rule.loss(self.policy, batch, *extra)
            if not torch.isfinite(out.loss):
                return out
            (out.loss * share).backward()
            total = total + out.loss.detach() * share
            for key, value in out.metrics.items():
                metrics[key] = metrics.get(key, 0.0) + value * share
            priorities.append(out.priorities)
        joined = None if any(p is None for p in priorities) else np.concatenate(priorities)
        return LossOutput(total, metrics, joined)

    def _frozen_copy(self) -> Policy:
        """A copy of the policy that no optimiser step moves (the reference of a KL penalty)."""
        reference = copy.deepcopy(self.policy)
        reference.eval()
        reference.requires_grad_(False)
        return reference

    def set_lr_scale(self, scale: float) -> None:
        """Train from now on at `learner.lr * scale` (the run loop anneals it over the budget)."""
        for group in self.optimizer.param_groups:
            group["lr"] = self.settings.lr * float(scale)

    def train_steps(self, count: int) -> dict[str, float]:
        """Up to `count` updates if the replay is ready; the last update's metrics plus `learner/update_s` (seconds).

        Returns an empty dict when no update was made: the replay is not ready yet, or the rate limiter
        (`learner.max_samples_per_insert`) waits for more trajectories.
        """
        if not self.is_ready or count < 1:
            return {}
        start = time.perf_counter()
        metrics: dict[str, float] = {}
        for _ in range(count):
            if not self.is_ready:  # the staleness cap can empty the replay as the version advances
                break
            if self._over_sample_rate():
                self.counters["learner/rate_limited"] += 1
                break
            metrics = self.update()
        if not metrics:
            return {}
        return {**metrics, "learner/update_s": time.perf_counter() - start, "learner/version": float(self.version),
                "learner/lr": float(self.optimizer.param_groups[0]["lr"])}

    def _over_sample_rate(self) -> bool:
        """Whether the next batch would take the samples per inserted trajectory past the rate limiter's cap."""
        cap = self.settings.max_samples_per_insert
        if cap <= 0:
            return False
        return self.replay.count("sampled") + self.settings.batch_size > cap * self.replay.count("inserted")

    def set_policy_weights(self, weights: Mapping[str, Any]) -> None:
        """Replace the policy weights (e.g. after a warm start); the version and optimiser state are unchanged.

        Args:
            weights: a whole state_dict, or its trainable entries (as `weights()` returns them).

        Raises:
            CheckpointError: `weights` do not fit the policy's architecture.
        """
        self.policy.load_weights(weights)

    def _priorities(self, trajectories: list[Trajectory], uids: np.ndarray) -> np.ndarray:
        """The rule's priorities of `trajectories` under the current weights (`refresh_all`), from cached encodings."""
        batch = collate(trajectories, learner_version=self.version)
        if self.encodings.supported:
            batch = dataclasses.replace(batch, inputs=self.encodings.inputs(trajectories, uids))
        with torch.no_grad():
            return self.rule.loss(self.policy, batch).priorities

    def weights(self) -> dict[str, np.ndarray]:
        """The trainable weights as numpy arrays: what workers need each version.

        `Policy.trainable_state_keys`: the whole state_dict of the small policy, the adapters and heads of a LoRA VLM.
        bfloat16, which numpy lacks, travels as float32.
        """
        return trainable_weights(self.policy, self._weight_keys)

    def stats(self) -> dict[str, Any]:
        """Counters of the learner and its replay."""
        return {**self.counters, "learner/version": self.version, **self.replay.stats()}

    # -- checkpoints ---------------------------------------------------------------------------------------------------
    def save(self, directory: str | Path) -> None:
        """Write weights, optimiser, replay, counters, RNG states and the config keys they depend on to `directory`.

        Each file is replaced atomically; `runtime.train` swaps whole checkpoint directories for atomicity across
        files.
        """
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        save_learner_blob(d, LearnerBlob(
            policy=self.policy.state_dict(), optimizer=self.optimizer.state_dict(), torch_rng=torch.get_rng_state(),
            meta={"policy_kind": policy_kind(self.spec.policy), "policy_config": self.spec.policy.to_data(),
                  "algorithm": self.rule.name},
            reference=None if self.reference is None else self.reference.state_dict()))
        self.replay.save(d / REPLAY_FILE)
        write_state(d, {"version": self.version, "counters": self.counters, "rng": self.rng.bit_generator.state,
                        "config": self.spec.state_keys})

    def load(self, directory: str | Path) -> None:
        """Restore everything `save` wrote.

        Raises:
            CheckpointError: missing or unreadable files, or a checkpoint written under another config (the message
                lists the keys that differ), another algorithm, or weights of another policy shape.
        """
        d = Path(directory)
        state = read_state(d)
        blob = load_learner_blob(d)
        differ = config_differences(state.get("config", {}), self.spec.state_keys)
        if differ:
            raise CheckpointError(f"the checkpoint in {d} was written under another config: {'; '.join(differ[:8])}. "
                                  "Resume with the run's own config.yaml (omit --config), or start a new run_dir")
        if blob.meta.get("algorithm") != self.rule.name:
            raise CheckpointError(f"checkpoint in {d} was trained with {blob.meta.get('algorithm')!r}, this run uses "
                                  f"{self.rule.name!r}")
        check_blob_fits(d, blob, self.policy, self.optimizer)  # torch's optimiser would take any shape (issue 43)
        try:
            self.policy.load_state_dict(blob.policy)
            if blob.optimizer is not None:
                self.optimizer.load_state_dict(blob.optimizer)
            self.reference = None
            if blob.reference is not None:
                self.reference = self._frozen_copy()
                self.reference.load_state_dict(blob.reference)
        except (RuntimeError, ValueError, KeyError) as e:
            raise CheckpointError(f"the weights in {d} do not fit this run's policy or optimiser: {e}") from e
        self.replay.load(d / REPLAY_FILE)
        self.encodings.clear()
        self.version = int(state["version"])
        self.counters.update(state["counters"])
        self.rng.bit_generator.state = state["rng"]
        if blob.torch_rng is not None:
            torch.set_rng_state(blob.torch_rng)


class LearnerActor(Learner):
    """The Ray learner actor: a `Learner` that builds its parts from its spec in the actor's process, where it trains
    (a VLM's weights load there, not in the driver that creates the actor)."""  # noqa: D205, D209

    FETCH_TIMEOUT_S = 60.0
    """How long a batch may take to arrive from its worker's node before it is counted lost."""

    def __init__(self, spec: LearnerSpec) -> None:
        super().__init__(LearnerParts.build(spec), spec)
        self.counters["learner/batches_lost"] = 0

    def ingest_boxed(self, boxed: list) -> int:
        """Ingest the trajectories behind `boxed[0]`, a ref the caller put in a list so that Ray hands it over
        unresolved: resolving it as an argument would hold this actor's every later call while a lost node's object
        is looked for. A batch that cannot be fetched (its node left the cluster) counts as `learner/batches_lost`.
        """  # noqa: D205
        import ray

        ref = boxed[0]
        if not isinstance(ref, ray.ObjectRef):
            return self.ingest(ref)
        try:
            trajectories = ray.get(ref, timeout=self.FETCH_TIMEOUT_S)
        except (ray.exceptions.RayError, ray.exceptions.GetTimeoutError) as e:
            self.counters["learner/batches_lost"] += 1
            logging.getLogger("distrl").warning("a batch of trajectories was lost on its way (%s)", type(e).__name__)
            return 0
        return self.ingest(trajectories)
