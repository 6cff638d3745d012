"""`PoolWorker`: a `Worker` whose environments run in their own processes and are acted on as soon as they are ready.

This is DistRL's collection: with emulators (or the sim's emulator-like latency), a step takes 0.5-5 s with a heavy
tail, so a worker that steps its environments one after another, or in lock-step, waits for the slowest one. Here each
environment lives in an `android_gym.vector.AsyncEnvPool` worker process; `step()` waits for whichever environments
have an observation ready, chooses their actions in one batched policy call and sends them, so no environment waits for
another. Same public API and trajectory format as `Worker`.

Synchronous rounds (`run_episodes`) can instead run in lock-step (`lockstep=True`), as DigiRL's collector does
(`batch_interact_environment`: one batched policy call, then every emulator's step, then wait for all of them): a batch
of episodes starts when every environment of the batch has its first observation, and each step waits for every
running episode's step before the next batched action. Each step then costs the slowest environment's latency.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from android_gym.actions import Action
from android_gym.vector import AsyncEnvPool, PoolConfig
from distrl_agent.algorithms.configs import GroupSpec
from distrl_agent.config import EnvSection
from distrl_agent.policies.build import PolicyConfig
from distrl_agent.runtime.adder import action_row
from distrl_agent.runtime.worker import Worker, env_factory
from distrl_agent.types import Trajectory

RECV_TIMEOUT_S = 600.0  # a step or reset the pool has not healed within this is a dead worker process


class PoolWorker(Worker):
    """A rollout worker over an `AsyncEnvPool` (one process per environment).

    Slots: each environment has at most one thing in flight. A slot whose observation is waiting ("ready") gets an
    action in the next `step()`; the result comes back in a later `step()`. When an episode ends, the pool resets the
    environment in the background and its first observation arrives as its own row. With `groups`, each action
    carries the seed of the slot's next episode, drawn from the `GroupCollector` the first time it is needed, so that
    background resets (and the pool's replays of them after a crash) start the group's members alike.
    """

    def __init__(self, worker_id: int, env: EnvSection, envs: int, split: str = "train", seed: int = 0,
                 deterministic: bool = False, policy_config: PolicyConfig | None = None,
                 pool_config: PoolConfig | None = None, lockstep: bool = False,
                 first_env_index: int | None = None, groups: GroupSpec | None = None) -> None:
        super().__init__(worker_id, env, envs, split, seed, deterministic, policy_config, first_env_index, groups)
        self.pool_config = pool_config or PoolConfig()
        self.lockstep = lockstep
        self._pool: AsyncEnvPool | None = None
        self._info: list[dict[str, Any]] = []
        self._sent: list[Action | None] = []  # the action in flight per slot (what its next observation follows)
        self._sent_at: list[float] = []  # when it was sent (time.monotonic), for the slowest-step figure
        self._ready: set[int] = set()  # slots with an observation waiting for an action
        self._accepting = True  # run_episodes: whether finished slots may start another episode
        self._upcoming: list[tuple[int, int] | None] = []  # per slot, (group, seed) of its next episode once drawn

    def start(self) -> None:
        """Start one process per environment and reset them all."""
        factories = [env_factory(self.env_config, self.split, self.first_env_index + i) for i in range(self.num_envs)]
        self._pool = AsyncEnvPool(factories, self.pool_config)
        self._obs = [None] * self.num_envs
        self._episodes = [None] * self.num_envs
        self._info = [{} for _ in range(self.num_envs)]
        self._sent = [None] * self.num_envs
        self._sent_at = [0.0] * self.num_envs
        self._upcoming = [self._draw_start() for _ in range(self.num_envs)]
        first = self._pool.reset(seeds=[seed for _, seed in self._upcoming])
        for k, i in enumerate(first.env_ids.tolist()):
            self._arrive(i, first.obs[k], first.infos[k])

    def close(self) -> None:
        """Stop the environment processes (in-progress episodes are dropped)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        self._obs, self._episodes, self._ready = [], [], set()

    def step(self) -> list[Trajectory]:
        """Act on every ready environment, then wait for at least one result; returns the episodes that ended."""
        self._accepting = True
        self._act(sorted(self._ready))
        return self._collect()

    def run_episodes(self, count: int, tasks: Sequence[Any] | None = None) -> list[Trajectory]:
        """Play exactly `count` more episodes and finish every one; returns those not lost to a device fault.

        Running episodes count towards `count`; fresh episodes start only while the budget lasts, so on return
        nothing is in flight but background resets (whose first observations wait for the next call).

        Raises:
            ValueError: `tasks` is given: the pool resets environments in the background, on tasks of its own
                choosing (plans run on the in-process `Worker`, as `collect.evaluate` does).
        """
        if tasks is not None:
            raise ValueError("PoolWorker cannot play a task plan (its environments reset in the background); "
                             "use the in-process Worker")
        if self.lockstep:
            return self._run_lockstep(count)
        budget = count - sum(ep is not None and ep.has_acted for ep in self._episodes)
        out: list[Trajectory] = []
        while True:
            ready = sorted(self._ready)
            continuing = [i for i in ready if self._episodes[i].has_acted]
            fresh = [i for i in ready if not self._episodes[i].has_acted][:max(0, budget)]
            budget -= len(fresh)
            self._act(continuing + fresh)
            stepping = any(ep is not None and ep.is_waiting for ep in self._episodes)
            # Episodes still owed and a reset on its way: wait for it (never spin when nothing can arrive).
            resetting = budget > 0 and any(ep is None for ep in self._episodes) and bool(self._pool.outstanding())
            if not stepping and not resetting:
                return out
            out.extend(self._collect())

    # -- internals ----------------------------------------------------------------------------------------------------
    def _run_lockstep(self, count: int) -> list[Trajectory]:
        """`run_episodes` in lock-step: batches of up to `num_envs` episodes, every step a barrier (see the module)."""
        out: list[Trajectory] = []
        running = {i: ep for i, ep in enumerate(self._episodes) if ep is not None and ep.has_acted}
        count -= len(running)  # episodes already under way are part of the first batch
        while running or count > 0:
            fresh = min(count, self.num_envs - len(running))
            # the reset barrier: the batch starts when each of its environments has a first observation
            while sum(1 for i in self._ready if i not in running) < fresh:
                if not self._pool.outstanding():
                    raise RuntimeError(f"lock-step round: {fresh} fresh episodes owed but no reset is in flight")
                out.extend(self._collect())
            for i in sorted(i for i in self._ready if i not in running)[:fresh]:
                running[i] = self._episodes[i]
            count -= fresh
            while running:  # one lock-step batch: act on every running episode, then wait for all of their steps
                self._act(sorted(i for i in running if i in self._ready))
                while any(self._episodes[i] is ep and ep.is_waiting for i, ep in running.items()):
                    out.extend(self._collect())
                running = {i: ep for i, ep in running.items() if self._episodes[i] is ep}  # drop those that ended
        return out

    def _arrive(self, i: int, obs: dict, info: dict) -> None:
        """Slot `i` has the first observation of a new episode (its upcoming start, if one was drawn)."""
        upcoming, self._upcoming[i] = self._upcoming[i], None
        group = -1 if upcoming is None else upcoming[0]
        self._obs[i], self._info[i], self._episodes[i] = self.policy.observe(obs, None), info, self._new_episode(group)
        self._ready.add(i)

    def _next_resets(self, slots: list[int]) -> list[int | None] | None:
        """The reset seed each slot's next episode starts from if this step ends it (None without groups)."""
        if self._groups is None:
            return None
        for i in slots:
            if self._upcoming[i] is None:
                self._upcoming[i] = self._draw_start()
        return [self._upcoming[i][1] for i in slots]

    def _act(self, slots: list[int]) -> None:
        if not slots:
            return
        assert self._pool is not None
        observations = [self._obs[i] for i in slots]
        inputs = self.policy.preprocess(observations)
        actions, log_mu = self.policy.act(inputs, deterministic=self.deterministic, generator=self._generator)
        env_actions = self.policy.to_env_action(actions, observations)
        for row, i in enumerate(slots):
            ep = self._episodes[i]
            ep.add_choice(observations[row], action_row(actions, row), float(log_mu[row]), self.version)
            self._sent[i] = env_actions[row]
            self._sent_at[i] = time.monotonic()
            self._ready.discard(i)
        self._pool.send(env_actions, slots, reset_seeds=self._next_resets(slots))

    def _collect(self) -> list[Trajectory]:
        assert self._pool is not None
        if not self._pool.outstanding():
            return []
        result = self._pool.recv(min_envs=1, timeout_s=RECV_TIMEOUT_S)
        finished = []
        for k, i in enumerate(result.env_ids.tolist()):
            info = result.infos[k]
            if info.get("is_reset"):
                self._arrive(i, result.obs[k], info)
                continue
            ep = self._episodes[i]
            reward = float(result.rewards[k])
            self._note_step(reward, info, time.monotonic() - self._sent_at[i])  # send to result: a bound
            ep.add_result(reward, float(info.get("penalty", 0.0)))
            obs = self._obs[i] = self.policy.observe(result.obs[k], self._sent[i])
            if result.terminations[k] or result.truncations[k]:
                trajectory = self._end_episode(ep, obs, bool(result.terminations[k]), reward, info,
                                               str(self._info[i].get("goal", "")), str(self._info[i].get("task", "")))
                finished.extend(self._release(ep, trajectory))
                self._episodes[i] = None  # the pool resets it in the background; its first row re-arms the slot
            else:
                self._ready.add(i)
        return finished


def make_worker(worker_id: int, env: EnvSection, envs: int, split: str = "train", seed: int = 0,
                deterministic: bool = False, policy_config: PolicyConfig | None = None,
                lockstep: bool = False, first_env_index: int | None = None, groups: GroupSpec | None = None) -> Worker:
    """A `PoolWorker` when `env.env_processes` says so (default: whenever env latency is on), else a `Worker`.

    `lockstep` makes a `PoolWorker`'s rounds lock-step; the in-process `Worker` steps its environments one after
    another in one batch per step, which is lock-step already. `groups` plays GRPO's groups (see `Worker`).
    """
    if env.uses_processes:
        return PoolWorker(worker_id, env, envs, split, seed, deterministic, policy_config, lockstep=lockstep,
                          first_env_index=first_env_index, groups=groups)
    return Worker(worker_id, env, envs, split, seed, deterministic, policy_config, first_env_index, groups)
