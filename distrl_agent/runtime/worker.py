"""`Worker`: steps a batch of environments with its copy of the policy and ships whole trajectories.

Every step records the behaviour log-prob log mu(a_t|s_t) and the policy version that chose it, so the learner can
correct for off-policy data. Episodes that end in a device fault are discarded (counted), never half-shipped.

No transport here: `runtime/shell.py` adds weight adoption and buffering, and the local and Ray runtimes run that
same shell in a process or an actor.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium as gym
import torch

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.errors import DeviceError
from distrl_agent.algorithms.configs import GroupSpec
from distrl_agent.config import EnvSection
from distrl_agent.policies.build import PolicyConfig, build_policy
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.runtime.adder import EpisodeAdder, action_row
from distrl_agent.runtime.groups import GroupCollector
from distrl_agent.types import Trajectory

log = logging.getLogger("distrl")
RESET_ATTEMPTS = 5
"""Resets of one slot in a row that may fail on a device fault (each already restarts the device) before the worker
gives up: a phone that cannot be reset five times over is down, and the runtime's restart is the next remedy."""


def make_env(env: EnvSection, split: str, index: int = 0) -> gym.Env:
    """Env number `index` as the workers run it (its phone is `env.device_for(index)`; see `EnvSection.device`)."""
    return gym.make(env.env_id, split=split, **env.make_kwargs(index))


class FaultLog:
    """Says why episodes were cut by faults, without flooding the log.

    The first `first` faults are logged in full, then at most one line per `every_s` seconds with the number of
    faults since the last line. A worker's faults are otherwise only a count (`faulty_episodes`), and a run with
    faults nobody injected needs the reason (a device timing out under load, a crashed env process, a parse error).
    """

    def __init__(self, worker_id: int, first: int = 5, every_s: float = 60.0) -> None:
        self.worker_id, self.first, self.every_s = worker_id, first, every_s
        self.count = 0
        self._unlogged = 0
        self._last_s = -float("inf")

    def add(self, error: str) -> None:
        """Record one episode cut by `error` (`info["error"]`), logging it if due."""
        self.count += 1
        now = time.monotonic()
        if self.count > self.first and now - self._last_s < self.every_s:
            self._unlogged += 1
            return
        since = f" ({self._unlogged} more since the last report)" if self._unlogged else ""
        log.warning("worker %d: episode cut by a fault%s: %s", self.worker_id, since, error)
        self._unlogged, self._last_s = 0, now


def env_factory(env: EnvSection, split: str, index: int = 0) -> Callable[[], gym.Env]:
    """A picklable `make_env` for an env process that imports only gymnasium and android_gym there.

    A factory that refers to this module would import torch in every env process: measured, 3.0 s and 232 MiB per
    process against 0.5 s and 47 MiB this way (Gymnasium's "module:id" form imports android_gym to register the id).
    """
    namespace, _, _ = env.env_id.rpartition("/")  # "android_gym/General-v0": registered by importing android_gym
    env_id = f"{namespace}:{env.env_id}" if namespace else env.env_id
    return functools.partial(gym.make, env_id, split=split, **env.make_kwargs(index))


class Worker:
    """One rollout worker: `envs` environments stepped together with one batched policy call.

    Each environment slot is either running an episode or idle; `step()` starts episodes on idle slots (async
    collection), `run_episodes(n)` plays exactly n episodes and leaves every slot idle (a synchronous round, or an
    evaluation), so no episode straddles two rounds and evaluations are not biased towards short episodes.

    Args:
        worker_id: tags the trajectories it ships.
        env: which environments to make.
        envs: how many.
        split: "train" for collection, "test" for evaluation.
        seed: seeds env resets and action sampling.
        deterministic: act greedily (evaluation).
        policy_config: the policy's kind and shape (must match the learner's; default: the small policy).
        first_env_index: the number of its first env (`EnvSection.device_for`); default `worker_id * envs`, so the
            workers of a run drive disjoint phones (evaluation workers pass the number after the last worker's).
        groups: play episodes in groups of `groups.size` from one start (same reset seed) and ship each group only
            once all its members have ended, with the group's return statistics (`runtime.groups`, for GRPO); None
            (default) seeds every reset anew and ships every episode as it ends.

    Attributes:
        stats: counters `episodes`, `steps`, `successes`, `faulty_episodes` (faulted episodes are not shipped),
            `unknown_verdicts` (steps the judge could not tell, device faults aside), `unknown_verdict_rewards`
            (rewarded steps whose verdict was unknown: must stay 0), `reset_failures` (env resets that raised a
            device fault and were retried), and the slowest `step_s_max` env step and `judge_s_max` judge call
            in seconds; with groups, also `GroupCollector.stats`.
        version: the policy version of the weights held (0 before any `set_weights`).
    """

    def __init__(self, worker_id: int, env: EnvSection, envs: int, split: str = "train", seed: int = 0,
                 deterministic: bool = False, policy_config: PolicyConfig | None = None,
                 first_env_index: int | None = None, groups: GroupSpec | None = None) -> None:
        self.worker_id, self.env_config, self.num_envs, self.split = worker_id, env, envs, split
        self.first_env_index = max(0, worker_id) * envs if first_env_index is None else first_env_index
        self.seed, self.deterministic = seed, deterministic
        self.policy = build_policy(policy_config or SmallPolicyConfig())
        self.policy.eval()
        self.version = 0
        self.stats = {"episodes": 0, "steps": 0, "successes": 0, "faulty_episodes": 0, "unknown_verdicts": 0,
                      "unknown_verdict_rewards": 0, "step_s_max": 0.0, "judge_s_max": 0.0, "reset_failures": 0}
        self._envs: list[gym.Env] = []
        self._obs: list[dict[str, Any] | None] = []
        self._episodes: list[EpisodeAdder | None] = []  # None: the slot is idle
        self._next_seed = 0
        self._generator = torch.Generator().manual_seed(seed)
        self._plan: list[Any] | None = None  # run_episodes(tasks=...): the tasks still to start, in order
        self._faults = FaultLog(worker_id)
        self._groups = GroupCollector(groups, worker_id, stats=self.stats) if groups is not None else None

    def __enter__(self) -> Worker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Make the environments and start an episode on each."""
        for i in range(self.num_envs):
            self._envs.append(make_env(self.env_config, self.split, self.first_env_index + i))
            self._obs.append(None)
            self._episodes.append(None)
        for i in range(self.num_envs):
            self._reset(i)

    def close(self) -> None:
        """Close the environments (in-progress episodes are dropped)."""
        for env in self._envs:
            env.close()
        self._envs.clear()
        self._obs.clear()
        self._episodes.clear()

    def set_weights(self, state_dict: Mapping[str, Any], version: int) -> None:
        """Adopt new policy weights (arrays or tensors, whole or the trainable entries); the next action uses them."""
        self.policy.load_weights(state_dict)
        self.version = int(version)

    @property
    def in_progress(self) -> int:
        """Episodes running with at least one step taken (what a crash now would discard)."""
        return sum(ep is not None and ep.has_acted for ep in self._episodes)

    def step(self) -> list[Trajectory]:
        """One batched step of every environment (idle ones start an episode); returns the episodes that ended."""
        for i, ep in enumerate(self._episodes):
            if ep is None:
                self._reset(i)
        return self._step(list(range(self.num_envs)))

    def run_episodes(self, count: int, tasks: Sequence[Any] | None = None) -> list[Trajectory]:
        """Play exactly `count` more episodes and finish every one of them; returns those not lost to a device fault.

        Running episodes count towards `count`; no slot starts a new episode once `count` have been started, and
        every slot is idle on return.

        Args:
            count: episodes to play.
            tasks: play exactly these tasks, in order (one `reset(options={"task": ...})` value each: an index into
                the env's task list or a goal); `count` must equal its length, and no episode may be in progress.

        Raises:
            ValueError: `tasks` has another length than `count`, or episodes are in progress.
        """
        if tasks is not None:
            if len(tasks) != count:
                raise ValueError(f"`tasks` lists {len(tasks)} tasks for `count`={count} episodes")
            if self.in_progress:
                raise ValueError(f"{self.in_progress} episodes are in progress; a task plan starts from idle slots")
            if self._groups is not None:
                raise ValueError("a worker that plays groups cannot play a task plan (its resets follow the groups)")
            self._plan = list(tasks)
            self._episodes = [None] * self.num_envs  # unstarted episodes of random tasks make way for the plan
        try:
            return self._run_episodes(count)
        finally:
            self._plan = None

    def _run_episodes(self, count: int) -> list[Trajectory]:
        budget = count
        active = []
        for i in range(self.num_envs):
            if budget == 0:
                break
            if self._episodes[i] is None:
                self._reset(i)
            active.append(i)
            budget -= 1
        for i in range(len(active), self.num_envs):  # episodes beyond the budget are abandoned, not shipped
            self._abandon(i)
        out: list[Trajectory] = []
        while active:
            out.extend(self._step(active))
            for i in [i for i in active if self._episodes[i] is None]:  # the episodes that just ended
                if budget > 0:
                    self._reset(i)
                    budget -= 1
                else:
                    active.remove(i)
        return out

    def _reset(self, i: int) -> None:
        """Start an episode on slot `i`, retrying a device that cannot be reset (each retry restarts it).

        Raises:
            DeviceError: the device failed `RESET_ATTEMPTS` resets in a row (then the worker dies and is restarted).
        """
        options = {"task": self._plan.pop(0)} if self._plan else None
        group, seed = self._draw_start()
        for attempt in range(RESET_ATTEMPTS):
            try:
                obs, _ = self._envs[i].reset(seed=seed, options=options)
                break
            except DeviceError:
                self.stats["reset_failures"] += 1
                if attempt == RESET_ATTEMPTS - 1:
                    raise
        self._obs[i], self._episodes[i] = self.policy.observe(obs, None), self._new_episode(group)

    def _new_episode(self, group: int) -> EpisodeAdder:
        return EpisodeAdder(self.policy.observation_keys, self.worker_id, group)

    def _draw_start(self) -> tuple[int, int]:
        """(group, reset seed) of the next episode to start: a fresh seed each, or its group's (then it is counted
        as started in the collector)."""  # noqa: D205, D209
        if self._groups is None:
            self._next_seed += 1
            return -1, self._seed(self._next_seed - 1)
        group = self._groups.draw()
        return group, self._seed(group)

    def _seed(self, draw: int) -> int:
        return self.seed * 1_000_003 + self.worker_id * 10_007 + draw

    def _release(self, ep: EpisodeAdder, trajectory: Trajectory | None) -> list[Trajectory]:
        """What an ended episode lets the worker ship: itself (None: nothing), or its whole group once complete."""
        if self._groups is None or ep.group < 0:
            return [] if trajectory is None else [trajectory]
        return self._groups.ended(ep.group, trajectory)

    def _abandon(self, i: int) -> None:
        """Drop slot `i`'s episode unfinished (its group, if any, goes on without it)."""
        ep = self._episodes[i]
        if ep is not None:
            self._release(ep, None)
        self._episodes[i] = None

    def _step(self, slots: Sequence[int]) -> list[Trajectory]:
        observations = [self._obs[i] for i in slots]
        inputs = self.policy.preprocess(observations)
        actions, log_mu = self.policy.act(inputs, deterministic=self.deterministic, generator=self._generator)
        env_actions = self.policy.to_env_action(actions, observations)
        finished = []
        for row, i in enumerate(slots):
            ep, env = self._episodes[i], self._envs[i]  # callers step running slots only
            ep.add_choice(observations[row], action_row(actions, row), float(log_mu[row]), self.version)
            started = time.monotonic()
            obs, reward, terminated, truncated, info = env.step(env_actions[row])
            self._note_step(float(reward), info, time.monotonic() - started)
            ep.add_result(float(reward), float(info.get("penalty", 0.0)))
            obs = self._obs[i] = self.policy.observe(obs, env_actions[row])
            if terminated or truncated:
                trajectory = self._end_episode(ep, obs, terminated, float(reward), info, info["goal"], info["task"])
                finished.extend(self._release(ep, trajectory))
                self._episodes[i] = None
        return finished

    def _end_episode(self, ep: EpisodeAdder, obs: dict, terminated: bool, reward: float, info: Mapping[str, Any],
                     goal: str, task: str) -> Trajectory | None:
        """Count an ended episode and return its trajectory, or None when a fault cut it.

        A fault (`info["error"]`: a device fault or a dead env process) makes the data untrustworthy: the episode is
        counted as faulty, its reason goes to the fault log, and nothing is shipped.
        """
        self.stats["episodes"] += 1
        if "error" in info:
            self.stats["faulty_episodes"] += 1
            self._faults.add(str(info["error"]))
            return None
        self.stats["successes"] += int(reward > 0)
        return ep.finish(obs, terminated, goal, task)

    def _note_step(self, reward: float, info: Mapping[str, Any], step_s: float) -> None:
        """Count a step and what the soak benchmark checks of it: unknown verdicts, their rewards, the slowest calls.

        `step_s` is the step's wall-clock seconds as this worker saw them (an upper bound for an env process).
        """
        self.stats["steps"] += 1
        self.stats["step_s_max"] = max(self.stats["step_s_max"], step_s)
        verdict = info.get("verdict")
        if verdict is None:
            return
        self.stats["judge_s_max"] = max(self.stats["judge_s_max"], float(verdict.latency_s or 0.0))
        if verdict.success is None:
            self.stats["unknown_verdicts"] += "error" not in info  # the judge's, not a device fault's
            self.stats["unknown_verdict_rewards"] += int(reward != 0.0)
