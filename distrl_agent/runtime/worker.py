"""`Worker`: acts on a batch of environments with its copy of the policy and ships whole trajectories.

One worker for both kinds of environments: in this process or one process each, behind the same send/recv API
(`android_gym.vector.SyncEnvPool` / `AsyncEnvPool`). Every step records the behaviour log-prob log mu(a_t|s_t) and
the policy version that chose it (`runtime/adder.py`), so the learner can correct for off-policy data. Episodes that
end in a device fault are discarded (counted), never half-shipped; with `fault_prefixes` the steps before the fault
ship as a truncated trajectory, the faulted step never. A step whose judge could not tell (an unknown verdict) is
neither success nor failure: the episode ends there, its steps before it ship truncated where the rule bootstraps
(`unknown_prefixes`), and the env starts its next episode (issue 43).

No transport here: `runtime/shell.py` adds weight adoption and buffering, and the local and Ray runtimes run that
same shell in a process or an actor.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import gymnasium as gym

import android_gym  # noqa: F401  (registers the env ids)
from android_gym.actions import Action
from android_gym.vector import AsyncEnvPool, PoolConfig, PoolResult, SyncEnvPool
from distrl_agent.algorithms.configs import GroupSpec
from distrl_agent.config import EnvSection
from distrl_agent.policies.small_config import SmallPolicyConfig
from distrl_agent.runtime import counters
from distrl_agent.runtime.actor import Actor, PolicyActor
from distrl_agent.runtime.adder import EpisodeAdder
from distrl_agent.runtime.admission import Admission
from distrl_agent.runtime.fault_log import FaultLog
from distrl_agent.runtime.groups import GroupCollector
from distrl_agent.types import Trajectory

if TYPE_CHECKING:  # importing the policies imports torch, which a worker served by a host's service never needs
    from distrl_agent.policies.build import PolicyConfig

RESET_ATTEMPTS = 5
"""Failures of one env in a row (a reset raising a device fault after the env's own restart, a dead env process)
before the pool gives up and the worker with it: a phone that cannot be reset five times over is down, and the
runtime's restart of the worker is the next remedy."""
RECV_TIMEOUT_S = 600.0
"""A step or reset the pool has not healed within this many seconds means a dead worker process."""


class Start(NamedTuple):
    """How an episode starts: its GRPO group (-1: none), its reset seed, and its reset options (a planned task)."""

    group: int
    seed: int
    options: dict[str, Any] | None


def is_unjudged(info: Mapping[str, Any]) -> bool:
    """Whether a step's verdict is unknown because the judge could not tell (not because the device faulted)."""
    verdict = info.get("verdict")
    return verdict is not None and verdict.success is None and "error" not in info


def make_env(env: EnvSection, split: str, index: int = 0) -> gym.Env:
    """Env number `index` as the workers run it (its phone is `env.device_for(index)`; see `EnvSection.device`)."""
    return gym.make(env.env_id, split=split, **env.make_kwargs(index))


def env_factory(env: EnvSection, split: str, index: int = 0) -> Callable[[], gym.Env]:
    """A picklable `make_env` for an env process that imports only gymnasium and android_gym there.

    A factory that refers to this module would import torch in every env process: measured, 3.0 s and 232 MiB per
    process against 0.5 s and 47 MiB this way (Gymnasium's "module:id" form imports android_gym to register the id).
    """
    namespace, _, _ = env.env_id.rpartition("/")  # "android_gym/General-v0": registered by importing android_gym
    env_id = f"{namespace}:{env.env_id}" if namespace else env.env_id
    return functools.partial(gym.make, env_id, split=split, **env.make_kwargs(index))


class Worker:
    """One rollout worker: `envs` environments, acted on with one batched policy call as their results come in.

    The environments live behind one send/recv API (`android_gym.vector`): in this process (`SyncEnvPool`, the
    instant sim: every step of a batch finishes before the next batched action) or one process each
    (`AsyncEnvPool`, slow devices: whichever environments are ready get their actions, no one waits for the
    slowest; DistRL's collection). `env.uses_processes` chooses. An episode that ends is followed by its
    environment's reset in the background; the reset's seed (and task, for a plan) goes with the action that ended
    the previous episode, so both pools play the same episodes for the same seed.

    `step()` acts on every ready environment and returns the episodes that ended (async collection);
    `run_episodes(n)` plays exactly n episodes and leaves nothing running (a synchronous round, or an evaluation),
    so no episode straddles two rounds and evaluations are not biased towards short episodes.

    Args:
        worker_id: tags the trajectories it ships.
        env: which environments to make (and whether in processes: `EnvSection.uses_processes`).
        envs: how many.
        split: "train" for collection, "test" for evaluation.
        seed: seeds env resets and action sampling.
        deterministic: act greedily (evaluation).
        policy_config: the policy's kind and shape (must match the learner's; default: the small policy); the worker
            builds its own copy (`PolicyActor`) unless `actor` is given.
        first_env_index: the number of its first env (`EnvSection.device_for`); default `worker_id * envs`, so the
            workers of a run drive disjoint phones (evaluation workers pass the number after the last worker's).
        groups: play episodes in groups of `groups.size` from one start (same reset seed) and ship each group only
            once all its members have ended, with the group's return statistics (`runtime.groups`, for GRPO); None
            (default) seeds every reset anew and ships every episode as it ends.
        lockstep: synchronous rounds (`run_episodes`) in lock-step, as DigiRL's collector runs them (one batched
            action, then every environment's step, then wait for all of them); matters with env processes only.
        pool_config: the env pool's knobs (deadlines, start method); default `PoolConfig()` with
            `max_consecutive_failures=RESET_ATTEMPTS - 1` (the pool gives up at the failure after that many).
        fault_prefixes: ship the clean steps before a fault (`EpisodeAdder.finish_before_last`) rather than
            nothing; only for rules that bootstrap truncated episodes (`RuleConfig.bootstraps_truncation`), and not
            with `groups`, whose members are compared by outcome.
        unknown_prefixes: when a step's verdict is unknown, ship the steps before it as a truncated trajectory
            (bootstrapped from the state that step's action was chosen in) rather than nothing; for rules that
            bootstrap truncated episodes. Either way the unknown step itself never ships: its reward is not known.
        admission: the producer-side staleness bound (`runtime/admission.py`): `step()` starts a fresh episode only
            while the episodes it has admitted stay within `admission.allowed` of the version it holds; None (default)
            starts one whenever a slot is free. Rounds (`run_episodes`) are not limited: they bound themselves.
        actor: where actions come from (`runtime/actor.py`): e.g. the host's inference service
            (`runtime/inference.py`); None (default) builds a `PolicyActor` of `policy_config` seeded by `seed`.

    Attributes:
        stats: its counters, each declared with what it counts in `runtime/counters.py` (source "worker":
            episodes started, ended and won, steps, faults, unknown verdicts, reset failures, the slowest step and
            judge call); with groups, also `GroupCollector.stats`.
        version: the policy version of the weights held (0 before any `set_weights`).
    """

    def __init__(self, worker_id: int, env: EnvSection, envs: int, split: str = "train", seed: int = 0,
                 deterministic: bool = False, policy_config: PolicyConfig | None = None,
                 first_env_index: int | None = None, groups: GroupSpec | None = None, lockstep: bool = False,
                 pool_config: PoolConfig | None = None, fault_prefixes: bool = False,
                 unknown_prefixes: bool = False, admission: Admission | None = None,
                 actor: Actor | None = None) -> None:
        if fault_prefixes and groups is not None:
            raise ValueError("fault_prefixes ships cut episodes, but a group's members are compared by outcome: "
                             "give groups or fault_prefixes, not both")
        self.worker_id, self.env_config, self.num_envs, self.split = worker_id, env, envs, split
        self.fault_prefixes = fault_prefixes
        self.unknown_prefixes = unknown_prefixes and groups is None
        self.first_env_index = max(0, worker_id) * envs if first_env_index is None else first_env_index
        self.seed, self.deterministic, self.lockstep = seed, deterministic, lockstep
        self.pool_config = pool_config or PoolConfig(max_consecutive_failures=RESET_ATTEMPTS - 1)
        self.actor = actor or PolicyActor.of_config(policy_config or SmallPolicyConfig(), seed)
        self.version = 0
        self.admission = admission
        self._first_version: int | None = None  # the version of the first weights (admission counts from it)
        self.stats = counters.initial("worker")  # each declared in runtime/counters.py
        self.pool: AsyncEnvPool | SyncEnvPool | None = None
        self._obs: list[dict[str, Any] | None] = []
        self._info: list[dict[str, Any]] = []
        self._episodes: list[EpisodeAdder | None] = []  # None: the slot's next episode is on its way (a reset)
        self._sent: list[Action | None] = []  # the action in flight per slot (what its next observation follows)
        self._sent_at: list[float] = []  # when it was sent (time.monotonic), for the slowest-step figure
        self._ready: set[int] = set()  # slots with an observation waiting for an action
        self._upcoming: list[Start | None] = []  # per slot, the start of its next episode once drawn
        self._planned: list[bool] = []  # per slot, whether its current episode started from a task plan
        self._next_seed = 0
        self._plan: list[Any] | None = None  # run_episodes(tasks=...): the tasks still to start, in order
        self._faults = FaultLog(worker_id)
        self._groups = GroupCollector(groups, worker_id, stats=self.stats) if groups is not None else None
        self._admitted: dict[int, int] = {}  # admitted group -> its members still to start (`_admissible`)

    def __enter__(self) -> Worker:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def policy(self) -> Any:
        """The worker's own policy (a `PolicyActor`'s; a worker served by a host's service has none)."""
        if not isinstance(self.actor, PolicyActor):
            raise AttributeError(f"worker {self.worker_id} acts through {type(self.actor).__name__}: no policy here")
        return self.actor.policy

    @property
    def uses_processes(self) -> bool:
        """Whether each environment runs in its own process (`EnvSection.uses_processes`)."""
        return self.env_config.uses_processes

    def start(self) -> None:
        """Make the environments (in this process or one process each) and start an episode on each."""
        if self.uses_processes:
            factories = [env_factory(self.env_config, self.split, self.first_env_index + i)
                         for i in range(self.num_envs)]
            self.pool = AsyncEnvPool(factories, self.pool_config)
        else:
            self.pool = SyncEnvPool([functools.partial(make_env, self.env_config, self.split, self.first_env_index + i)
                                     for i in range(self.num_envs)], self.pool_config)
        n = self.num_envs
        self._obs, self._info, self._episodes = [None] * n, [{} for _ in range(n)], [None] * n
        self._sent, self._sent_at, self._ready, self._planned = [None] * n, [0.0] * n, set(), [False] * n
        self._upcoming = [self._draw_start() for _ in range(n)]
        first = self.pool.reset(seeds=[start.seed for start in self._upcoming])
        self._take(first)

    def close(self) -> None:
        """Stop the environments (in-progress episodes are dropped)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None
        self.actor.close()
        self._obs, self._episodes, self._ready = [], [], set()

    def set_weights(self, state_dict: Mapping[str, Any] | None, version: int) -> None:
        """Adopt new policy weights (arrays or tensors, whole or the trainable entries); the next action uses them.

        None: the actor adopts them itself (a host's inference service); the worker learns only the version.
        """
        self.actor.set_weights(state_dict, version)
        self.version = int(version)
        if self._first_version is None:
            self._first_version = self.version

    @property
    def held_in_groups(self) -> int:
        """Finished trajectories waiting for the rest of their group (0 without groups)."""
        return 0 if self._groups is None else self._groups.held

    @property
    def in_progress(self) -> int:
        """Episodes running with at least one step taken (what a crash now would discard)."""
        return sum(ep is not None and ep.has_acted for ep in self._episodes)

    @property
    def admitted(self) -> int:
        """Episodes started and not lost: still running, or delivered or on their way (see `runtime/admission.py`);
        with groups, also the members of its started groups still to start (admission took each group whole)."""  # noqa: D205, D209
        return self.stats["started"] - counters.episodes_lost(self.stats.get) + sum(self._admitted.values())

    @property
    def is_held(self) -> bool:
        """Whether admission keeps every free slot idle, no episode is running and no reset is on its way (a slot it
        re-arms may hold a member of a started group): nothing happens until newer weights raise the allowance (a
        shell then waits for them instead of spinning)."""  # noqa: D205, D209
        return (self.admission is not None and not self.in_progress and bool(self._ready)
                and not (self.pool is not None and self.pool.outstanding())
                and not self._admissible(sorted(self._ready))[0])

    def step(self) -> list[Trajectory]:
        """Act on every ready environment that may act, then wait for at least one result; returns the episodes that
        ended. Without `admission` every ready environment acts; with it, a fresh episode starts only while there is
        room (`admission.allowed`), counted in `admission_waits` when a slot is kept idle."""  # noqa: D205, D209
        ready = sorted(self._ready)
        if self.admission is not None:
            fresh = [i for i in ready if not self._episodes[i].has_acted]
            allowed, opened = self._admissible(fresh)
            self._admitted.update(dict.fromkeys(opened, self.admission.group_size))  # each opened whole
            self.stats["admission_waits"] += len(allowed) < len(fresh)
            ready = [i for i in ready if self._episodes[i].has_acted] + allowed
        self._act(ready)
        return self._collect()

    def _room(self) -> int:
        """Episodes admission lets this worker start now."""
        first = self.version if self._first_version is None else self._first_version
        return self.admission.allowed(self.version, first) - self.admitted

    def _admissible(self, fresh: list[int]) -> tuple[list[int], list[int]]:
        """Of the slots holding a fresh episode, those admission lets start now, and the groups they open.

        A group is admitted whole: each slot's next start is drawn ahead (its reset seed goes with every action), so a
        group's members wait in slots that free up in any order, and admitting them slot by slot started two groups
        halfway, held their ended members, and kept their other members out for good (World, instant phone: 0
        updates in 10 minutes). So an admitted group's members count as admitted until each starts, and start
        whenever their slots are ready; the slots that start them draw the group's members not yet drawn. A group
        opens while there is any room, going over by less than a group: a member lost to a fault leaves a group
        short, and waiting for a whole group's room could then keep the fleet under what the learner needs to start.
        """
        room, allowed, opened = self._room(), [], []
        for i in fresh:
            group = self._episodes[i].group
            if group >= 0 and (group in self._admitted or group in opened):
                allowed.append(i)
            elif room > 0:
                allowed.append(i)
                room -= self.admission.group_size if group >= 0 else 1
                if group >= 0:
                    opened.append(group)
        return allowed, opened

    def _unreserve(self, group: int) -> None:
        """A member of an admitted `group` started, or will never be played: one fewer still to start (a group with
        none left leaves `_admitted`: its members are all drawn, so none can come fresh again)."""  # noqa: D205, D209
        if group in self._admitted:
            self._admitted[group] -= 1
            if self._admitted[group] <= 0:
                del self._admitted[group]

    def run_episodes(self, count: int, tasks: Sequence[Any] | None = None) -> list[Trajectory]:
        """Play exactly `count` more episodes and finish every one; returns those not lost to a device fault.

        Running episodes count towards `count`; fresh episodes start only while the budget lasts, so on return
        nothing runs (background resets may still be on their way; their first observations wait for the next call).

        Args:
            count: episodes to play.
            tasks: play exactly these tasks (one `reset(options={"task": ...})` value each: an index into the env's
                task list or a goal); `count` must equal its length, and no episode may be in progress.

        Raises:
            ValueError: `tasks` has another length than `count`, episodes are in progress, or the worker plays
                groups (whose resets follow the groups).
        """
        if tasks is None:
            return self._run_lockstep(count) if self.lockstep else self._run_budget(count)
        if len(tasks) != count:
            raise ValueError(f"`tasks` lists {len(tasks)} tasks for `count`={count} episodes")
        if self.in_progress:
            raise ValueError(f"{self.in_progress} episodes are in progress; a task plan starts from idle slots")
        if self._groups is not None:
            raise ValueError("a worker that plays groups cannot play a task plan (its resets follow the groups)")
        self._plan = list(tasks)
        try:
            self._restart_with_plan()
            return self._run_plan()
        finally:
            self._plan = None

    # -- rounds --------------------------------------------------------------------------------------------------------
    def _run_budget(self, count: int) -> list[Trajectory]:
        budget = count - self.in_progress
        out: list[Trajectory] = []
        while True:
            ready = sorted(self._ready)
            continuing = [i for i in ready if self._episodes[i].has_acted]
            fresh = [i for i in ready if not self._episodes[i].has_acted][:max(0, budget)]
            budget -= len(fresh)
            self._act(continuing + fresh)
            stepping = any(ep is not None and ep.is_waiting for ep in self._episodes)
            # Episodes still owed and a reset on its way: wait for it (never spin when nothing can arrive).
            resetting = budget > 0 and any(ep is None for ep in self._episodes) and bool(self.pool.outstanding())
            if not stepping and not resetting:
                return out
            out.extend(self._collect())

    def _run_lockstep(self, count: int) -> list[Trajectory]:
        """`run_episodes` in lock-step: batches of up to `num_envs` episodes, every step a barrier (see the class)."""
        out: list[Trajectory] = []
        running = {i: ep for i, ep in enumerate(self._episodes) if ep is not None and ep.has_acted}
        count -= len(running)  # episodes already under way are part of the first batch
        while running or count > 0:
            fresh = min(count, self.num_envs - len(running))
            # the reset barrier: the batch starts when each of its environments has a first observation
            while sum(1 for i in self._ready if i not in running) < fresh:
                if not self.pool.outstanding():
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

    def _run_plan(self) -> list[Trajectory]:
        """`run_episodes` of a task plan: only episodes started from the plan are played, each to its end.

        Each action draws its slot's next start from the plan while the plan lasts, so every planned task is played
        once; a slot whose next start came after the plan ran out resets on a task of its own, which waits unplayed.
        """
        out: list[Trajectory] = []
        while True:
            self._act([i for i in sorted(self._ready) if self._episodes[i].has_acted or self._planned[i]])
            stepping = any(ep is not None and ep.is_waiting for ep in self._episodes)
            resetting = any(ep is None and self._upcoming[i] is not None and self._upcoming[i].options is not None
                            for i, ep in enumerate(self._episodes))
            if not stepping and not resetting:
                return out
            out.extend(self._collect())

    def _restart_with_plan(self) -> None:
        """Replace the unplayed episodes of random tasks waiting in the slots by the plan's first tasks."""
        while self.pool.outstanding():  # resets still on their way: let them land first
            self._collect()
        slots = sorted(self._ready)[:len(self._plan)]
        for i in slots:
            self._release_unplayed(i)
        starts = [self._draw_start() for _ in slots]
        for i, start in zip(slots, starts, strict=True):
            self._upcoming[i] = start
        self._take(self.pool.reset(slots, seeds=[s.seed for s in starts], options=[s.options for s in starts]))

    # -- starts --------------------------------------------------------------------------------------------------------
    def _draw_start(self) -> Start:
        """The next episode to start: a fresh seed (and the plan's next task), or its group's seed (then it is
        counted as started in the collector)."""  # noqa: D205, D209
        if self._groups is not None:
            group = self._groups.draw()
            return Start(group, self._seed(group), None)
        self._next_seed += 1
        options = {"task": self._plan.pop(0)} if self._plan else None
        return Start(-1, self._seed(self._next_seed - 1), options)

    def _seed(self, draw: int) -> int:
        return self.seed * 1_000_003 + self.worker_id * 10_007 + draw

    def _release(self, ep: EpisodeAdder, trajectory: Trajectory | None) -> list[Trajectory]:
        """What an ended episode lets the worker ship: itself (None: nothing), or its whole group once complete."""
        if self._groups is None or ep.group < 0:
            return [] if trajectory is None else [trajectory]
        return self._groups.ended(ep.group, trajectory)

    def _release_unplayed(self, i: int) -> None:
        """Slot `i`'s episode will not be played (a plan replaces it); its group, if any, goes on without it."""
        ep = self._episodes[i]
        if ep is not None:
            self._release(ep, None)
            self._unreserve(ep.group)
        self._episodes[i] = None
        self._ready.discard(i)

    # -- acting and collecting -----------------------------------------------------------------------------------------
    def _act(self, slots: list[int]) -> None:
        """One batched policy call for `slots`, each action sent with the start of its slot's next episode."""
        if not slots:
            return
        observations = [self._obs[i] for i in slots]
        result = self.actor.act(observations, self.deterministic)
        self.version = max(self.version, result.version)  # a service may hold newer weights than were offered
        env_actions = result.env_actions
        for row, i in enumerate(slots):
            if not self._episodes[i].has_acted:
                self.stats["started"] += 1
                self._unreserve(self._episodes[i].group)
            # log mu is a number, or a sequence policy's per token; the version is the one that chose this action
            self._episodes[i].add_choice(observations[row], result.action_row(row), result.log_mu[row],
                                         result.version)
            self._sent[i], self._sent_at[i] = env_actions[row], time.monotonic()
            self._ready.discard(i)
            if self._upcoming[i] is None:  # drawn once per episode: a replayed send keeps the same start
                self._upcoming[i] = self._draw_start()
        starts = [self._upcoming[i] for i in slots]
        self.pool.send(env_actions, slots, reset_seeds=[s.seed for s in starts],
                       reset_options=[s.options for s in starts])

    def _collect(self) -> list[Trajectory]:
        """Wait for at least one result (an in-process pool delivers all of them) and record every row."""
        if not self.pool.outstanding():
            return []
        try:
            result = self.pool.recv(min_envs=1, timeout_s=RECV_TIMEOUT_S)
        finally:  # counted even when the pool gives up on an env (WorkerFailedError)
            self.stats["reset_failures"] = self.pool.stats()["errors"]
        return self._take(result)

    def _take(self, result: PoolResult) -> list[Trajectory]:
        finished = []
        for k, i in enumerate(result.env_ids.tolist()):
            info = result.infos[k]
            if info.get("is_reset"):
                self._arrive(i, result.obs[k], info)
                continue
            ep = self._episodes[i]
            reward = float(result.rewards[k])
            self._note_step(reward, info, time.monotonic() - self._sent_at[i])
            # the audit reads the verdict itself, not `is_unjudged`, so that it still counts if that decision breaks
            verdict = info.get("verdict")
            ep.add_result(reward, float(info.get("penalty", 0.0)),
                          is_judged=verdict is None or verdict.success is not None or "error" in info)
            obs = self._obs[i] = self.actor.observe(result.obs[k], self._sent[i], self._obs[i])
            ended = bool(result.terminations[k] or result.truncations[k])
            if ended or is_unjudged(info):
                trajectory = self._end_episode(ep, obs, bool(result.terminations[k]), reward, info,
                                               str(self._info[i].get("goal", "")), str(self._info[i].get("task", "")))
                finished.extend(self._release(ep, trajectory))
                self._episodes[i] = None  # the pool resets it in the background; its first row re-arms the slot
                if not ended:  # cut by an unknown verdict: the env's episode goes on, so start the next one now
                    start = self._upcoming[i]
                    self.pool.reset_async([i], seeds=[start.seed], options=[start.options])
            else:
                self._ready.add(i)
        return finished

    def _arrive(self, i: int, obs: dict, info: dict) -> None:
        """Slot `i` has the first observation of a new episode (its upcoming start, if one was drawn)."""
        start, self._upcoming[i] = self._upcoming[i], None
        group = -1 if start is None else start.group
        self._planned[i] = start is not None and start.options is not None
        self._obs[i], self._info[i] = self.actor.observe(obs, None, None), info
        self._episodes[i] = EpisodeAdder(self.actor.observation_keys, self.worker_id, group)
        self._ready.add(i)

    def _end_episode(self, ep: EpisodeAdder, obs: dict, terminated: bool, reward: float, info: Mapping[str, Any],
                     goal: str, task: str) -> Trajectory | None:
        """Count an ended episode and return its trajectory; when a fault or an unknown verdict cut it, None or its
        clean prefix.

        A fault (`info["error"]`: a device fault or a dead env process) makes the faulted step untrustworthy: the
        episode is counted as faulty, its reason goes to the fault log, and nothing is shipped, or with
        `fault_prefixes` only the steps before the fault, truncated. An unknown verdict leaves the step's reward
        unknown: the episode ends there, and with `unknown_prefixes` the steps before it ship, truncated.
        """  # noqa: D205
        self.stats["episodes"] += 1
        if "error" in info:
            self.stats["faulty_episodes"] += 1
            self._faults.add(str(info["error"]))
            prefix = ep.finish_before_last(goal, task, "fault") if self.fault_prefixes else None
            self.stats["fault_prefixes"] += prefix is not None
        elif is_unjudged(info):
            self.stats["unknown_verdict_cuts"] += 1
            prefix = ep.finish_before_last(goal, task, "unknown_verdict") if self.unknown_prefixes else None
            self.stats["unknown_verdict_prefixes"] += prefix is not None
        else:
            self.stats["successes"] += int(reward > 0)
            prefix = ep.finish(obs, terminated, goal, task)
        if prefix is not None:
            self.stats["unknown_verdict_labels"] += ep.unjudged_steps(prefix.length)
        return prefix

    def _note_step(self, reward: float, info: Mapping[str, Any], step_s: float) -> None:
        """Count a step and what the soak benchmark checks of it: unknown verdicts, their rewards, the slowest calls.

        `step_s` is the step's wall-clock seconds from its action to its result.
        """
        self.stats["steps"] += 1
        self.stats["step_s_max"] = max(self.stats["step_s_max"], step_s)
        verdict = info.get("verdict")
        if verdict is None:
            return
        self.stats["judge_s_max"] = max(self.stats["judge_s_max"], float(verdict.latency_s or 0.0))
        self.stats["unknown_verdicts"] += is_unjudged(info)
