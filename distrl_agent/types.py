"""Field-named experience containers: `Trajectory` (one episode), `Batch` (padded tensors), `SampledBatch` (replay).

Layouts, used by everything downstream (replay, `algorithms/`, the learner):

* `Trajectory` holds numpy arrays with time on axis 0. An episode of T steps has T+1 observations (s_0 .. s_T; s_T
  is the state the critic bootstraps from when the episode was truncated) and T of everything else.
* `Batch` is **batch-major**: per-step tensors are [B, L] with L the longest trajectory in the batch, observations
  are [B, L+1, ...]. Steps past a trajectory's length are zero padding with `mask == False`; the observation at index
  `lengths[b]` is that trajectory's final state s_T. The `algorithms/retrace.py` functions take exactly this layout.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from distrl_agent.errors import DataError

if TYPE_CHECKING:  # torch is imported where batches are made: a worker served by a host's service never needs it
    import torch

# Per-step fields of a Trajectory and the dtype each is stored in.
STEP_FIELDS: dict[str, type] = {
    "rewards": np.float32,
    "dones": np.bool_,
    "log_mu": np.float32,
    "policy_version": np.int64,
    "penalty": np.float32,
}
_FINITE_FIELDS = ("rewards", "log_mu", "penalty")
_TORCH_KINDS = "biuf"  # numpy dtype kinds that become tensors; strings and the like stay numpy arrays


@dataclass(eq=False)
class Trajectory:
    """One episode for one goal, collected by one worker under behaviour policy mu.

    The constructor coerces per-step fields to their dtypes (`STEP_FIELDS`); call `validate()` before trusting the
    content (the replay buffer does on `add`).

    Attributes:
        observations: name -> array of shape [T+1, ...]: s_0 .. s_T, the last one is the final (bootstrap) state.
        actions: name -> array of shape [T, ...]: a_0 .. a_{T-1}.
        rewards: float32 [T], r_t (1.0 on judged success, else 0.0 in the paper's setting).
        dones: bool [T]; true only on the last step and only when the episode terminated. False on every step of an
            episode truncated by its step budget or a device fault, so the critic bootstraps from V(s_T).
        log_mu: float32 [T], log mu(a_t|s_t) in nats, computed by the worker when it acted.
        policy_version: int64 [T], the version of the weights that chose each action.
        penalty: float32 [T], the invalid-action penalty P_t >= 0 (zeros when omitted).
        goal: the instruction text.
        task: the task name (for per-task metrics).
        success: whether the judge declared the goal reached.
        worker_id: the worker that collected it (-1 when unknown).
        metadata: JSON-serialisable extras (seed, timings, errors).
        token_log_mu: float32 [T, K] or None: log mu of each part of a step's action, where the policy's actions are
            sequences of K tokens at most (the VLM policy's): zero after a step's tokens, summing to `log_mu`. None
            for a policy whose actions are one choice (the small policy); the rules then read `log_mu` alone.

    >>> traj = Trajectory(
    ...     observations={"x": np.zeros((3, 2))}, actions={"a": np.array([0, 1])},
    ...     rewards=[0.0, 1.0], dones=[False, True], log_mu=[-0.5, -0.1], policy_version=[4, 5])
    >>> traj.validate().length, traj.is_terminated, traj.behaviour_version, traj.penalty.tolist()
    (2, True, 4, [0.0, 0.0])
    """

    observations: dict[str, np.ndarray]
    actions: dict[str, np.ndarray]
    rewards: np.ndarray
    dones: np.ndarray
    log_mu: np.ndarray
    policy_version: np.ndarray
    penalty: np.ndarray | None = None
    goal: str = ""
    task: str = ""
    success: bool = False
    worker_id: int = -1
    metadata: dict[str, Any] = field(default_factory=dict)
    token_log_mu: np.ndarray | None = None

    def __post_init__(self) -> None:
        for name, dtype in STEP_FIELDS.items():  # rewards first: a missing penalty takes its shape
            value = getattr(self, name)
            if value is None and name == "penalty":
                value = np.zeros(self.rewards.shape, np.float32)
            try:
                setattr(self, name, np.asarray(value, dtype=dtype))
            except (TypeError, ValueError) as exc:
                raise DataError(f"`{name}` could not be read as a {np.dtype(dtype)} array: {exc}") from exc
        self.observations = {key: np.asarray(value) for key, value in self.observations.items()}
        self.actions = {key: np.asarray(value) for key, value in self.actions.items()}
        if self.token_log_mu is not None:
            try:
                self.token_log_mu = np.asarray(self.token_log_mu, dtype=np.float32)
            except (TypeError, ValueError) as exc:
                raise DataError(f"`token_log_mu` could not be read as a float32 array: {exc}") from exc

    @property
    def length(self) -> int:
        """T, the number of steps (actions taken)."""
        return int(self.rewards.shape[0]) if self.rewards.ndim else 0

    @property
    def is_terminated(self) -> bool:
        """Whether the episode ended by termination (no bootstrap) rather than truncation."""
        return bool(self.dones[-1]) if self.length else False

    @property
    def behaviour_version(self) -> int:
        """The oldest policy version that acted in this episode (the one staleness caps are applied to)."""
        return int(self.policy_version.min())

    def validate(self) -> Trajectory:
        """Check shapes and values; return `self` so calls chain.

        Raises:
            DataError: empty trajectory (T == 0), a per-step field that is not 1-D of length T, an observation
                without T+1 entries or an action without T, NaN/inf in rewards, log_mu, penalty or any float
                observation/action, a negative penalty or policy version, `dones` true before the last step, a
                malformed `metadata["group"]`, or a `token_log_mu` that is not [T, K], not finite, or whose rows do
                not sum to `log_mu`.
        """
        if self.rewards.ndim != 1 or self.length == 0:
            raise DataError(f"`rewards` must be a non-empty 1-D array (T >= 1 steps), got shape {self.rewards.shape}")
        length = self.length
        for name in STEP_FIELDS:
            shape = getattr(self, name).shape
            if shape != (length,):
                raise DataError(f"`{name}` has shape {shape}, expected ({length},) like `rewards`")
        for group, arrays, expected in (
            ("observations", self.observations, length + 1),
            ("actions", self.actions, length),
        ):
            for key, array in arrays.items():
                if array.ndim == 0 or array.shape[0] != expected:
                    raise DataError(
                        f"`{group}[{key!r}]` has shape {array.shape}, expected {expected} entries on axis 0 "
                        f"(T={length} steps: T+1 observations, T actions)"
                    )
                if array.dtype.kind in "fc" and not np.isfinite(array).all():
                    raise DataError(f"`{group}[{key!r}]` contains NaN or inf")
        for name in _FINITE_FIELDS:
            bad = np.flatnonzero(~np.isfinite(getattr(self, name)))
            if bad.size:
                raise DataError(f"`{name}` contains NaN or inf at steps {bad[:10].tolist()}; drop this trajectory")
        if self.token_log_mu is not None:
            self._check_token_log_mu()
        if (self.penalty < 0).any():
            raise DataError(f"`penalty` must be >= 0, got min {float(self.penalty.min())}")
        if (self.policy_version < 0).any():
            raise DataError(f"`policy_version` must be >= 0, got min {int(self.policy_version.min())}")
        if self.dones[:-1].any():
            raise DataError(
                f"`dones` is true before the last step (at {np.flatnonzero(self.dones[:-1]).tolist()}); "
                "split concatenated episodes into one Trajectory each"
            )
        group = self.metadata.get("group")
        if group is not None:
            try:
                ok = (math.isfinite(float(group["return"])) and math.isfinite(float(group["mean"]))
                      and math.isfinite(float(group["std"])) and float(group["std"]) > 0 and int(group["members"]) >= 2)
            except (TypeError, KeyError, ValueError):
                ok = False
            if not ok:
                raise DataError(f"`metadata['group']` must be {{'return': finite, 'mean': finite, 'std': > 0, "
                                f"'members': >= 2, ...}}, got {group!r}")
        return self

    def _check_token_log_mu(self) -> None:
        parts = self.token_log_mu
        if parts.ndim != 2 or parts.shape[0] != self.length:
            raise DataError(f"`token_log_mu` has shape {parts.shape}, expected ({self.length}, K): T rows of K parts")
        if not np.isfinite(parts).all():
            raise DataError("`token_log_mu` contains NaN or inf; drop this trajectory")
        # float32 sums of up to K terms: agree to a relative 1e-4 (a row of another step would be off by far more)
        off = np.abs(parts.sum(1, dtype=np.float64) - self.log_mu) > 1e-3 + 1e-4 * np.abs(self.log_mu)
        if off.any():
            raise DataError(f"`token_log_mu` rows do not sum to `log_mu` at steps {np.flatnonzero(off)[:10].tolist()}")

    def to_arrays(self, prefix: str = "") -> dict[str, np.ndarray]:
        """Flatten into named numpy arrays (no Python objects), e.g. for `np.savez` or a pickle-free transport.

        Raises:
            DataError: an observation or action has dtype object, or `metadata` is not JSON-serialisable.
        """
        out: dict[str, np.ndarray] = {}
        for group, arrays in (("obs", self.observations), ("act", self.actions)):
            for key, array in arrays.items():
                if array.dtype.kind == "O":
                    raise DataError(f"`{group}[{key!r}]` has dtype object; store text as a numpy str array")
                out[f"{prefix}{group}/{key}"] = array
        for name in STEP_FIELDS:
            out[prefix + name] = getattr(self, name)
        if self.token_log_mu is not None:
            out[prefix + "token_log_mu"] = self.token_log_mu
        header = {"goal": self.goal, "task": self.task, "success": bool(self.success), "worker_id": int(self.worker_id)}
        try:
            out[prefix + "header"] = np.array(json.dumps({**header, "metadata": self.metadata}))
        except (TypeError, ValueError) as exc:
            raise DataError(f"`metadata` must be JSON-serialisable: {exc}") from exc
        return out

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], prefix: str = "") -> Trajectory:
        """Rebuild a trajectory written by `to_arrays` with the same `prefix`.

        Raises:
            DataError: a required key is missing.
        """
        groups: dict[str, dict[str, np.ndarray]] = {"obs": {}, "act": {}}
        for key, array in arrays.items():
            if key.startswith(prefix):
                group, _, name = key[len(prefix) :].partition("/")
                if name and group in groups:
                    groups[group][name] = np.asarray(array)
        try:
            header = json.loads(str(arrays[prefix + "header"]))
            steps = {name: np.asarray(arrays[prefix + name]) for name in STEP_FIELDS}
        except KeyError as exc:
            raise DataError(f"`arrays` lacks key {exc.args[0]!r} (prefix {prefix!r})") from exc
        token_log_mu = arrays.get(prefix + "token_log_mu")
        return cls(observations=groups["obs"], actions=groups["act"], **steps, **header,
                   token_log_mu=None if token_log_mu is None else np.asarray(token_log_mu))


@dataclass
class Batch:
    """B trajectories padded to a common length L, batch-major, as tensors (see the module docstring for layout).

    Numeric observation/action fields are tensors; text fields stay numpy str arrays of the same padded shape.

    Attributes:
        observations: name -> [B, L+1, ...]; index `lengths[b]` holds trajectory b's final state s_T.
        actions: name -> [B, L, ...].
        rewards: float32 [B, L].
        dones: bool [B, L] (true on the last step of terminated episodes only).
        log_mu: float32 [B, L], behaviour log-probs (nats).
        token_log_mu: float32 [B, L, K], behaviour log-probs of each step's tokens (zero on padding and after a
            step's tokens), or None when the trajectories carry none (`Trajectory.token_log_mu`).
        policy_version: int64 [B, L].
        penalty: float32 [B, L], invalid-action penalty P_t.
        mask: bool [B, L], true on real steps, false on padding.
        lengths: int64 [B], T_b.
        staleness: int64 [B, L], learner version minus behaviour version per step (0 on padding).
        w_is: float32 [B], importance-sampling weights of the replay (ones when not sampled from a replay).
        indices: int64 [B], replay slot of each trajectory (-1 when not from a replay).
        goals: the B goal texts.
        draws: int64 [B], times each trajectory has been drawn from the replay, this draw included (1: its first;
            ones when not from a replay). None on a batch built by hand, read as ones.
        inputs: optional `Policy.preprocess` output for every state (rows in `observation_mask` order: trajectory
            by trajectory, s_0 .. s_T), so the learner can reuse encodings; None means encode `observations`.
        group_return, group_mean, group_std: float32 [B], each trajectory's return and the mean and sample std of
            its group's returns (`metadata["group"]`, set by workers that play GRPO's groups); NaN for a trajectory
            without a group. `collate` fills them; None on a batch built by hand.
    """

    observations: dict[str, torch.Tensor | np.ndarray]
    actions: dict[str, torch.Tensor | np.ndarray]
    rewards: torch.Tensor
    dones: torch.Tensor
    log_mu: torch.Tensor
    policy_version: torch.Tensor
    penalty: torch.Tensor
    mask: torch.Tensor
    lengths: torch.Tensor
    staleness: torch.Tensor
    w_is: torch.Tensor
    indices: torch.Tensor
    goals: list[str]
    draws: torch.Tensor | None = None
    inputs: dict[str, torch.Tensor] | None = None
    group_return: torch.Tensor | None = None
    group_mean: torch.Tensor | None = None
    group_std: torch.Tensor | None = None
    token_log_mu: torch.Tensor | None = None

    @property
    def batch_size(self) -> int:
        """B."""
        return int(self.rewards.shape[0])

    @property
    def num_steps(self) -> int:
        """The number of real (unpadded) steps."""
        return int(self.mask.sum())

    @property
    def observation_mask(self) -> torch.Tensor:
        """Bool [B, L+1]: true on s_0 .. s_T of each trajectory (the real steps plus the final state)."""
        import torch

        positions = torch.arange(self.mask.shape[1] + 1, device=self.mask.device)
        return positions[None, :] <= self.lengths[:, None]

    def to(self, device: torch.device | str, non_blocking: bool = False) -> Batch:
        """A copy with every tensor on `device`; numpy text fields are shared, not copied."""
        import torch

        def move(value: Any) -> Any:
            return value.to(device, non_blocking=non_blocking) if isinstance(value, torch.Tensor) else value

        values = {name: move(getattr(self, name)) for name in self.__dataclass_fields__}
        values["observations"] = {key: move(value) for key, value in self.observations.items()}
        values["actions"] = {key: move(value) for key, value in self.actions.items()}
        if self.inputs is not None:
            values["inputs"] = {key: move(value) for key, value in self.inputs.items()}
        return Batch(**values)


def _pad_stack(arrays: Sequence[np.ndarray], length: int, name: str) -> np.ndarray:
    """Stack arrays [T_b, ...] into [B, length, ...] with zero (or empty-string) padding after T_b."""
    tails = {array.shape[1:] for array in arrays}
    if len(tails) > 1:
        raise DataError(f"`{name}` has different per-step shapes across trajectories: {sorted(tails)}")
    out = np.zeros((len(arrays), length, *tails.pop()), dtype=np.result_type(*arrays))
    for row, array in enumerate(arrays):
        out[row, : array.shape[0]] = array
    return out


def _as_tensor(array: np.ndarray) -> torch.Tensor | np.ndarray:
    import torch

    return torch.from_numpy(array) if array.dtype.kind in _TORCH_KINDS else array


def collate(
    trajectories: Sequence[Trajectory],
    *,
    w_is: np.ndarray | None = None,
    indices: np.ndarray | None = None,
    draws: np.ndarray | None = None,
    learner_version: int | None = None,
) -> Batch:
    """Pad and stack trajectories into a batch-major `Batch` on the CPU.

    Args:
        trajectories: B >= 1 trajectories sharing observation/action keys and per-step shapes.
        w_is: [B] importance-sampling weights (ones when None).
        indices: [B] replay slots (-1 when None).
        draws: [B] times each trajectory has been drawn from the replay, this draw included (ones when None).
        learner_version: the learner's current version; staleness is zero when None.

    Raises:
        DataError: no trajectories, or keys / per-step shapes differ between them, or some carry `token_log_mu` and
            others do not.

    >>> t = Trajectory({"x": np.ones((2, 1))}, {"a": np.array([1])}, [1.0], [True], [-0.1], [3])
    >>> u = Trajectory({"x": np.ones((3, 1))}, {"a": np.array([0, 1])}, [0.0, 0.0], [False, False], [-1, -1], [3, 4])
    >>> batch = collate([t, u], learner_version=5)
    >>> batch.mask.tolist(), batch.staleness.tolist(), tuple(batch.observations["x"].shape)
    ([[True, False], [True, True]], [[2, 0], [2, 1]], (2, 3, 1))
    """
    import torch

    if not trajectories:
        raise DataError("`trajectories` is empty; collate needs at least one")
    first = trajectories[0]
    for traj in trajectories[1:]:
        if traj.observations.keys() != first.observations.keys() or traj.actions.keys() != first.actions.keys():
            raise DataError(
                f"`trajectories` disagree on keys: observations {sorted(first.observations)} vs "
                f"{sorted(traj.observations)}, actions {sorted(first.actions)} vs {sorted(traj.actions)}"
            )
    lengths = np.array([traj.length for traj in trajectories], np.int64)
    max_length = int(lengths.max())
    steps = {name: _pad_stack([getattr(t, name) for t in trajectories], max_length, name) for name in STEP_FIELDS}
    mask = np.arange(max_length)[None, :] < lengths[:, None]
    if learner_version is None:
        staleness = np.zeros_like(steps["policy_version"])
    else:
        staleness = np.where(mask, learner_version - steps["policy_version"], 0)
    size = len(trajectories)
    with_parts = sum(traj.token_log_mu is not None for traj in trajectories)
    if 0 < with_parts < size:
        raise DataError(f"{with_parts} of {size} trajectories carry `token_log_mu`; a batch needs all or none (they "
                        "come from policies of different kinds)")
    token_log_mu = (torch.from_numpy(_pad_stack([t.token_log_mu for t in trajectories], max_length, "token_log_mu"))
                    if with_parts else None)
    groups = [g if isinstance(g := traj.metadata.get("group"), dict) else {} for traj in trajectories]
    return Batch(
        observations={
            key: _as_tensor(_pad_stack([t.observations[key] for t in trajectories], max_length + 1, key))
            for key in first.observations
        },
        actions={
            key: _as_tensor(_pad_stack([t.actions[key] for t in trajectories], max_length, key))
            for key in first.actions
        },
        **{name: torch.from_numpy(value) for name, value in steps.items()},
        mask=torch.from_numpy(mask),
        lengths=torch.from_numpy(lengths),
        staleness=torch.from_numpy(staleness.astype(np.int64)),
        w_is=torch.from_numpy(np.ones(size, np.float32) if w_is is None else np.asarray(w_is, np.float32)),
        indices=torch.from_numpy(np.full(size, -1, np.int64) if indices is None else np.asarray(indices, np.int64)),
        goals=[traj.goal for traj in trajectories],
        draws=torch.from_numpy(np.ones(size, np.int64) if draws is None else np.asarray(draws, np.int64)),
        group_return=torch.tensor([float(g.get("return", math.nan)) for g in groups], dtype=torch.float32),
        group_mean=torch.tensor([float(g.get("mean", math.nan)) for g in groups], dtype=torch.float32),
        group_std=torch.tensor([float(g.get("std", math.nan)) for g in groups], dtype=torch.float32),
        token_log_mu=token_log_mu,
    )


@dataclass
class SampledBatch:
    """Trajectories drawn from a `TrajectoryReplay`, with what the learner needs to correct and re-prioritise them.

    Attributes:
        trajectories: the B sampled trajectories (shared with the buffer: do not mutate them).
        indices: int64 [B], replay slots; pass them back to `update_priorities`.
        uids: int64 [B], insertion serial numbers; pass them back too so that a slot reused since is not updated.
        w_is: float32 [B], (N * P(tau))^(-beta) / max w, in (0, 1] (times the stale down-weight, if any).
        probabilities: float64 [B], P(tau) at sampling time.
        draws: int64 [B], how many times each trajectory has been sampled since it entered the replay, this draw
            included (1 on its first); Reverb's `times_sampled`.
        staleness: per trajectory, int64 [T_b]: learner version minus behaviour version of each step.
        learner_version: the learner version the staleness refers to.
    """

    trajectories: list[Trajectory]
    indices: np.ndarray
    uids: np.ndarray
    w_is: np.ndarray
    draws: np.ndarray
    probabilities: np.ndarray
    staleness: list[np.ndarray]
    learner_version: int

    def to_batch(self) -> Batch:
        """Collate into a padded CPU `Batch` carrying `w_is`, `indices`, `draws` and per-step staleness."""
        return collate(self.trajectories, w_is=self.w_is, indices=self.indices, draws=self.draws,
                       learner_version=self.learner_version)

    def split(self, size: int) -> list[SampledBatch]:
        """The sample's rows in consecutive parts of at most `size` trajectories (micro-batches), in order."""
        return [SampledBatch(self.trajectories[i:i + size], self.indices[i:i + size], self.uids[i:i + size],
                             self.w_is[i:i + size], self.draws[i:i + size], self.probabilities[i:i + size],
                             self.staleness[i:i + size], self.learner_version)
                for i in range(0, len(self.trajectories), size)]
